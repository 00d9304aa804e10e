"""What reading one file for an event gives: results, hand records and where it went wrong.

Every session reader (CSV travellers, PBN and JSON records, online teams PBN,
USEBIO, LIN vugraph) fills a :class:`Parsed`; the import
(:mod:`bridgescore.session.importer`) adds it to the event. A bad line is a
:class:`~bridgescore.formats.record.Problem` naming the file and line (the one problem
type of every reader); the rest is read.

>>> str(line_problem("t.csv", 3, "oops")), str(line_problem("t.csv", 0, "empty"))
('t.csv:3: oops', 't.csv: empty')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bridgescore.formats.board import Board
from bridgescore.formats.record import Problem
from bridgescore.session.event import Member, TableResult
from bridgescore.session.store import Origin

__all__ = ["Parsed", "line_problem"]


def line_problem(source: str, line: int, message: str) -> Problem:
    """A line of ``source`` that could not be read (line 0: the file as a whole), as
    the one :class:`~bridgescore.formats.record.Problem` every reader reports."""
    return Problem(line, message, file=source)


@dataclass(slots=True)
class Parsed:
    """What one file gave: results and hand records with their origins, problems,
    ``checks`` (where the file contradicts itself or us, the result still imported)
    and ``notes`` (how an unusual file was read)."""

    results: list[tuple[TableResult, Origin]] = field(default_factory=list)
    boards: list[tuple[Board, Origin]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    checks: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    members: dict[str, tuple[Member, ...]] = field(default_factory=dict)
