"""What reading one file for an event gives: results, hand records and where it went wrong.

Every session reader (CSV travellers, PBN and JSON records, online teams PBN,
USEBIO, LIN vugraph) fills a :class:`Parsed`; the import
(:mod:`bridgescore.session.importers.importer`) adds it to the event. A bad line is a
:class:`~bridgescore.formats.record.Problem` naming the file and line (the one problem
type of every reader); the rest is read.

>>> str(line_problem("t.csv", 3, "oops")), str(line_problem("t.csv", 0, "empty"))
('t.csv:3: oops', 't.csv: empty')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from bridgescore.board import Board
from bridgescore.core import Seat, Vulnerability, dealer_of_board
from bridgescore.deal import Card
from bridgescore.formats.record import Problem
from bridgescore.movement.model import Movement
from bridgescore.session.scoring.event import Member, TableResult
from bridgescore.session.store.events import Origin, TablePlay

__all__ = ["BoardsStated", "Parsed", "line_problem", "stated_note"]


def line_problem(source: str, line: int, message: str) -> Problem:
    """A line of ``source`` that could not be read (line 0: the file as a whole), as
    the one :class:`~bridgescore.formats.record.Problem` every reader reports."""
    return Problem(line, message, file=source)


@dataclass(slots=True)
class Parsed:
    """What one file gave: results and hand records with their origins, problems,
    ``checks`` (where the file contradicts itself or us, the result still imported),
    ``notes`` (how an unusual file was read), the players, and from a scoring database
    each section's movement and the results' opening leads (by the result's key)."""

    results: list[tuple[TableResult, Origin]] = field(default_factory=list)
    boards: list[tuple[Board, Origin]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    checks: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    members: dict[str, tuple[Member, ...]] = field(default_factory=dict)
    # A scoring database (BWS) also gives each section's movement and the opening leads.
    movements: dict[str, Movement] = field(default_factory=dict)
    leads: dict[tuple[str, int, str, str], Card] = field(default_factory=dict)
    # ... and the auction and play a table entered (BiddingData, PlayData).
    plays: dict[tuple[str, int, str, str], TablePlay] = field(default_factory=dict)


class BoardsStated:
    """The boards one file states (deal, DD table, dealer, vulnerability), gathered
    into ``parsed.boards``: each board once, and again only when a later record adds
    to it (a board's every table repeats its deal).

    A board is dealt one way: a record giving a board number a dealer or a
    vulnerability other than an earlier record of the file gave it is a problem
    naming both lines, and :meth:`add` says so (its result is not read).
    """

    __slots__ = ("_boards", "_lines", "_parsed", "_source")

    def __init__(self, source: str, parsed: Parsed) -> None:
        self._source, self._parsed = source, parsed
        self._boards: dict[int, Board] = {}
        # Where the file first stated each board's dealer and vulnerability.
        self._lines: dict[tuple[int, str], int] = {}

    def board(self, number: int) -> Board:
        """The board as the file has stated it so far (by its number when it has not)."""
        return self._boards.get(number) or Board(number)

    def add(
        self, board: Board, line: int, *, dealer_line: int = 0, vulnerable_line: int = 0
    ) -> bool:
        """Add what a record on ``line`` states of ``board`` (its Dealer and Vulnerable
        on their own lines when known); False when it disagrees with an earlier record."""
        number = board.numbered
        before = self._boards.get(number)
        if board == before:
            return True  # every table of a board repeats it
        stated = (
            ("dealer", board.dealer_seat, dealer_line or line),
            ("vulnerability", board.vulnerable, vulnerable_line or line),
        )
        if before is not None:
            earlier = {"dealer": before.dealer_seat, "vulnerability": before.vulnerable}
            for what, value, here in stated:
                old = earlier[what]
                if value is not None and old is not None and value != old:
                    first = self._lines[(number, what)]
                    self._parsed.problems.append(
                        line_problem(
                            self._source,
                            here,
                            f"board {number}: {what} {_shown(value)} here, "
                            f"{_shown(old)} at line {first}: a board is dealt one way; "
                            "the record is not read",
                        )
                    )
                    return False
        for what, value, here in stated:
            if value is not None:
                self._lines.setdefault((number, what), here)
        origin = Origin(self._source, line)
        known = None if before is None else before.deal
        if known is not None and board.deal is not None and board.deal != known:
            # Another deal is added as it is, for the store to report the conflict.
            self._parsed.boards.append((board, origin))
            return True
        merged = board if before is None else _merged(before, board)
        if merged != before:
            self._boards[number] = merged
            self._parsed.boards.append((merged, origin))
        return True


def _merged(before: Board, board: Board) -> Board:
    """``before`` with what ``board`` adds to it (a deal, a DD table, a dealer or a
    vulnerability it had not); what it had stays."""
    changes = {
        name: getattr(board, name)
        for name in ("deal", "dd_table", "dealer_seat", "vulnerable")
        if getattr(before, name) is None and getattr(board, name) is not None
    }
    return replace(before, **changes) if changes else before


def _shown(value: Seat | Vulnerability) -> str:
    """``North``, ``EW``: a dealer as the reports name it, a vulnerability in its one wording."""
    return value.name.title() if isinstance(value, Seat) else str(value)


def stated_note(source: str, boards: Iterable[tuple[Board, Origin]]) -> str | None:
    """The note when a file deals boards with a vulnerability or dealer other than
    their numbers' (Law 2): how many, and which; ``None`` when every board follows
    its number.

    >>> boards = [(Board(1, vulnerable="EW"), Origin()), (Board(2), Origin())]
    >>> print(stated_note("club.pbn", boards))  # doctest: +NORMALIZE_WHITESPACE
    club.pbn: 1 of 2 boards has a vulnerability other than its number's (board 1: EW):
    scored with the file's
    """
    numbers: set[int] = set()
    other_vulnerability: dict[int, Vulnerability] = {}
    other_dealer: dict[int, Seat] = {}
    for board, _ in boards:
        number = board.numbered
        numbers.add(number)
        if board.vulnerable is not None and board.vulnerable != Vulnerability.from_board(number):
            other_vulnerability[number] = board.vulnerable
        if board.dealer_seat is not None and board.dealer_seat != dealer_of_board(number):
            other_dealer[number] = board.dealer_seat
    parts = []
    if other_vulnerability:
        parts.append(_listed(len(numbers), "a vulnerability", other_vulnerability))
    if other_dealer:
        parts.append(_listed(len(numbers), "a dealer", other_dealer))
    if not parts:
        return None
    return f"{source}: {'; '.join(parts)}: scored with the file's"


def _listed(total: int, what: str, found: Mapping[int, Seat | Vulnerability]) -> str:
    count = len(found)
    verb = "has" if count == 1 else "have"
    shown = ", ".join(f"{number}: {_shown(found[number])}" for number in sorted(found)[:8])
    more = ", ..." if count > 8 else ""
    word = "board" if count == 1 else "boards"
    return (
        f"{count} of {total} boards {verb} {what} other than {'its' if count == 1 else 'their'} "
        f"number's ({word} {shown}{more})"
    )
