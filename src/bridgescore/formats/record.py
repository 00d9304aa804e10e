"""One board as a file records it, whatever the file's format.

Every reader (PBN, LIN, JSON) produces :class:`BoardRecord` values and every
writer consumes them, so the meaning of a tag is decided once, here, and not
in each command. A record holds what the file says: it is not checked against
the Laws (that is :func:`bridgescore.formats.check.check_record`), so a record
of an impossible auction can still be read, reported and written back.

>>> record = BoardRecord(board=1, dealer=Seat.NORTH, contract=Contract.parse("3NTS"), result=9)
>>> record.contract_text, record.vulnerability_or_board
('3NT', Vulnerability.NONE)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from bridgescore.core import Contract, Seat, Vulnerability
from bridgescore.deal import Card, Deal

__all__ = [
    "SCORE_TAGS",
    "BoardRecord",
    "Problem",
    "RecordedCall",
    "Source",
    "Traveller",
    "TravellerRow",
]

SCORE_TAGS = ("Score", "ScoreIMP", "ScoreMP", "ScorePercentage")
"""The file's own scores a record keeps, by their PBN tag names."""

ROOMS = ("open", "closed")


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong in the input, with the 1-based line it was found on (0: unknown).

    A ``notice`` is not wrong, only worth saying: how the reader read an unusual
    file (restored opening passes, for one); it does not make a command fail.
    """

    line: int
    message: str
    notice: bool = False

    def __str__(self) -> str:
        text = f"note: {self.message}" if self.notice else self.message
        return f"line {self.line}: {text}" if self.line else text


@dataclass(frozen=True, slots=True)
class Source:
    """Where a record came from: the file (``None`` for text), its first line and its
    position among the file's records (1-based)."""

    file: str | None = None
    line: int = 0
    record: int = 0
    # The line of each tag (``Auction``, ``Play``, ``Result``...) and of each card
    # played, so that a problem found later is reported where it is.
    tag_lines: tuple[tuple[str, int], ...] = field(default=(), repr=False)
    card_lines: tuple[int, ...] = field(default=(), repr=False)

    def line_of(self, tag: str) -> int:
        """The line of ``tag`` in the file, else the record's first line."""
        return next((line for name, line in self.tag_lines if name == tag), self.line)

    def card_line(self, index: int) -> int:
        """The line of the ``index``-th card played, else the Play tag's line."""
        if index < len(self.card_lines):
            return self.card_lines[index]
        return self.line_of("Play")

    def __str__(self) -> str:
        where = [self.file or "<text>"]
        if self.line:
            where.append(f"line {self.line}")
        if self.record:
            where.append(f"record {self.record}")
        return ", ".join(where)


@dataclass(frozen=True, slots=True)
class RecordedCall:
    """One call as written (``1NT``, ``Pass``, ``X``, ``XX``), whether it was alerted
    and what its explanation says (``""``: none). A call with an explanation is alerted."""

    call: str
    alerted: bool = False
    explanation: str = ""
    line: int = field(default=0, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.explanation and not self.alerted:
            object.__setattr__(self, "alerted", True)


@dataclass(frozen=True, slots=True)
class TravellerRow:
    """One row of a :class:`Traveller`: its cells in column order (quotes taken off,
    ``""`` where the file writes ``-``, its empty cell) and the row's line."""

    cells: tuple[str, ...]
    line: int = 0


@dataclass(frozen=True, slots=True)
class Traveller:
    """The results of the board at other tables, as the file lists them with it
    (PBN's ``ScoreTable``: one row per table).

    ``header`` is the table's header as written (``"PairId_NS\\2R;Contract\\5L;..."``)
    and ``columns`` its column names (``PairId_NS``, ``Contract``...), in order.
    """

    header: str
    columns: tuple[str, ...]
    rows: tuple[TravellerRow, ...] = ()

    def column(self, name: str) -> int | None:
        """The position of column ``name`` (any case), or ``None`` when absent."""
        wanted = name.lower()
        return next((i for i, column in enumerate(self.columns) if column.lower() == wanted), None)


@dataclass(frozen=True, slots=True)
class BoardRecord:
    """One board as recorded at one table.

    - ``board``, ``dealer``, ``vulnerability``, ``deal``: what the file gives
      (``None``: not given; dealer and vulnerability then follow the board number).
    - ``players``: names for N, E, S, W in that order (``""``: not given);
      ``home_team``/``visit_team`` name the teams (the home team sits NS at its table),
      ``table`` the table and ``room`` ``"open"`` or ``"closed"``.
    - ``auction``: the calls from the dealer on (``None``: no auction in the file).
    - ``play``: the cards in the order played (``None``: no play in the file; ``()``
      a play section with no card, which LIN cannot write);
      ``claim``: declarer's total tricks agreed by a claim.
    - ``contract`` (with declarer; ``None`` with ``passed_out`` for a pass-out, or
      unknown) and ``result`` (declarer's tricks) as the file states them;
      ``adjusted``: the result is the director's, standing whatever the play says.
    - ``scores``: the file's own scores as (tag, value) pairs (``Score``,
      ``ScoreIMP``, ``ScoreMP``, ``ScorePercentage``); ``dd_tricks`` and
      ``optimum_score`` its DoubleDummyTricks and OptimumScore.
    - ``notes``: every other tag as (name, value) pairs, kept to be written back.
    - ``source`` where it came from, ``problems`` what the reader could not read.
    - ``traveller``: the results at other tables the file lists with the board
      (``None``: none). It is read from a tag that ``notes`` also keeps (so every
      writer writes it back as it was), which is why equality leaves it out.
    """

    board: int | None = None
    dealer: Seat | None = None
    vulnerability: Vulnerability | None = None
    deal: Deal | None = None
    players: tuple[str, str, str, str] = ("", "", "", "")
    event: str = ""
    home_team: str = ""
    visit_team: str = ""
    table: str = ""
    room: str | None = None
    auction: tuple[RecordedCall, ...] | None = None
    play: tuple[Card, ...] | None = None
    claim: int | None = None
    contract: Contract | None = None
    passed_out: bool = False
    result: int | None = None
    adjusted: bool = False
    scores: tuple[tuple[str, str], ...] = ()
    dd_tricks: str = ""
    optimum_score: str = ""
    notes: tuple[tuple[str, str], ...] = ()
    source: Source = field(default_factory=Source)
    problems: tuple[Problem, ...] = ()
    traveller: Traveller | None = field(default=None, compare=False, repr=False)

    def player(self, seat: Seat) -> str:
        """The name of the player at ``seat`` (``""`` when not given)."""
        return self.players[seat]

    @property
    def dealer_or_board(self) -> Seat | None:
        """The dealer given, else the board number's dealer (Law 2)."""
        if self.dealer is not None:
            return self.dealer
        if self.board is None:
            return None
        return Seat((self.board - 1) % 4)

    @property
    def vulnerability_or_board(self) -> Vulnerability | None:
        """The vulnerability given, else the board number's (Law 2)."""
        if self.vulnerability is not None:
            return self.vulnerability
        return None if self.board is None else Vulnerability.from_board(self.board)

    @property
    def contract_text(self) -> str | None:
        """``4HX``, ``3NT``, ``Pass``, or ``None`` when the file does not say."""
        if self.passed_out:
            return "Pass"
        return None if self.contract is None else self.contract.to_pbn()

    def score_tag(self, name: str) -> str | None:
        """The value of the file's score tag ``name`` (``"ScoreIMP"``...), if any."""
        return next((value for tag, value in self.scores if tag == name), None)

    def note(self, name: str) -> str | None:
        """The value of a kept tag, if any."""
        return next((value for tag, value in self.notes if tag == name), None)

    def with_problems(self, problems: Iterable[Problem]) -> BoardRecord:
        """The same record with more problems."""
        return replace(self, problems=self.problems + tuple(problems))

    def without_source(self) -> BoardRecord:
        """The record with no source and no problems: what two formats must agree on."""
        return replace(self, source=Source(), problems=())
