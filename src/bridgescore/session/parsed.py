"""What reading one file for an event gives: results, hand records and where it went wrong.

Every session reader (CSV travellers, PBN and JSON records, online teams PBN,
USEBIO, LIN vugraph) fills a :class:`Parsed`; the import
(:mod:`bridgescore.session.importer`) adds it to the event. A bad line is a
:class:`LineProblem` naming the file and line; the rest is read.

>>> str(LineProblem("t.csv", 3, "oops")), str(LineProblem("t.csv", 0, "empty"))
('t.csv:3: oops', 't.csv: empty')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bridgescore.formats.board import Board
from bridgescore.session.event import Member, TableResult
from bridgescore.session.store import Origin

__all__ = ["LineProblem", "Parsed"]


@dataclass(frozen=True, slots=True)
class LineProblem:
    """A line that could not be read, with its file and line number."""

    source: str
    line: int
    message: str

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}" if self.line else self.source
        return f"{where}: {self.message}"


@dataclass(slots=True)
class Parsed:
    """What one file gave: results and hand records with their origins, problems,
    ``checks`` (where the file contradicts itself or us, the result still imported)
    and ``notes`` (how an unusual file was read)."""

    results: list[tuple[TableResult, Origin]] = field(default_factory=list)
    boards: list[tuple[Board, Origin]] = field(default_factory=list)
    problems: list[LineProblem] = field(default_factory=list)
    checks: list[LineProblem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    members: dict[str, tuple[Member, ...]] = field(default_factory=dict)
