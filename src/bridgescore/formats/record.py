"""One board as a file records it, whatever the file's format.

Every reader (PBN, LIN, JSON) produces :class:`BoardRecord` values and every
writer consumes them, so the meaning of a tag is decided once, here, and not
in each command. A record holds what the file says: it is not checked against
the Laws (that is :func:`bridgescore.formats.check.check_record`), so a record
of an impossible auction can still be read, reported and written back.

>>> record = BoardRecord(board=1, dealer_seat=Seat.NORTH, contract=Contract.parse("3NTS"), result=9)
>>> record.contract_text, record.vulnerability
('3NT', Vulnerability.NONE)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from decimal import Decimal
from typing import Any, TypeVar

from bridgescore.auction import DOUBLE, PASS, REDOUBLE, Call
from bridgescore.board import Board, dd_table_html, notebook_html
from bridgescore.core import Contract, Seat, Strain, Vulnerability
from bridgescore.ddtable import DDTable
from bridgescore.deal import Card, Deal
from bridgescore.errors import ArgumentTypeError, BridgeError, NotationError, RecordError

__all__ = [
    "MATCH_NOTE",
    "MATCH_SCORING",
    "PLAIN_CALLS",
    "SCORE_TAGS",
    "BoardRecord",
    "MatchHeader",
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
    file: str | None = None  # named where problems of several files meet (a session import)

    def __str__(self) -> str:
        text = f"note: {self.message}" if self.notice else self.message
        if self.file is not None:
            return f"{self.file}:{self.line}: {text}" if self.line else f"{self.file}: {text}"
        return f"line {self.line}: {text}" if self.line else text


@dataclass(frozen=True, slots=True)
class Source:
    """Where a record came from: the file (``None`` for text), its first line and its
    position among the file's records (1-based)."""

    file: str | None = None
    line: int = 0
    record: int = 0
    # The line of each tag (``Auction``, ``Play``, ``Result``...), of each card
    # played and of each call, so that a problem found later is reported where it
    # is (0: not known). Calls keep no line of their own, so that a plain call can
    # be one shared value (see PLAIN_CALLS). The tags' names and their lines are
    # two columns, not (name, line) pairs: a file's records hold no pair object
    # per tag to make, and for the cycle collector to walk, in their thousands.
    tag_names: tuple[str, ...] = field(default=(), repr=False)
    tag_line_numbers: tuple[int, ...] = field(default=(), repr=False)
    card_lines: tuple[int, ...] = field(default=(), repr=False)
    call_lines: tuple[int, ...] = field(default=(), repr=False)

    @property
    def tag_lines(self) -> dict[str, int]:
        """The line of each tag, by its name, in file order."""
        return dict(zip(self.tag_names, self.tag_line_numbers))

    def line_of(self, tag: str) -> int:
        """The line of ``tag`` in the file, else the record's first line."""
        if tag in self.tag_names:
            return self.tag_line_numbers[self.tag_names.index(tag)]
        return self.line

    def card_line(self, index: int) -> int:
        """The line of the ``index``-th card played, else the Play tag's line."""
        if index < len(self.card_lines):
            return self.card_lines[index]
        return self.line_of("Play")

    def call_line(self, index: int) -> int:
        """The line of the ``index``-th call, else the Auction tag's line."""
        if index < len(self.call_lines) and self.call_lines[index]:
            return self.call_lines[index]
        return self.line_of("Auction")

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

    def __post_init__(self) -> None:
        if self.explanation and not self.alerted:
            object.__setattr__(self, "alerted", True)


PLAIN_CALLS: Mapping[str, RecordedCall] = {
    str(call): RecordedCall(str(call))
    for call in (
        PASS,
        DOUBLE,
        REDOUBLE,
        *(Call.bid(level, strain) for level in range(1, 8) for strain in Strain),
    )
}
"""Each call written canonically, neither alerted nor explained: one value each,
shared by every record that makes it (a file makes thousands)."""

_ALERTED: dict[tuple[str, str], RecordedCall] = {}


def alerted_call(call: str, explanation: str = "") -> RecordedCall:
    """The call ``call`` (written canonically), alerted and explained so: one value
    for each such pair, shared by the records that make it (a file explains the same
    calls in the same words again and again), up to a few thousand pairs.

    >>> alerted_call("2D", "transfer") is alerted_call("2D", "transfer")
    True
    """
    made = _ALERTED.get((call, explanation))
    if made is None:
        made = RecordedCall(call, True, explanation)
        if len(_ALERTED) < 4096:
            _ALERTED[(call, explanation)] = made
    return made


_CARRY = re.compile(r"-?[0-9]{1,9}(?:\.[0-9]{1,6})?")
# What a vugraph header's scoring letter means. "I" is what real archives write for
# a teams match scored by IMPs; "B" and "P" are read as BBO's board-a-match and
# matchpoints (see docs/formats.md for what was and was not seen in real files).
MATCH_SCORING = {"I": "IMPs", "B": "board-a-match", "P": "matchpoints"}
_SCORING_METHODS = {"I": "imps", "B": "bam"}
MATCH_NOTE = "LIN_vg"
"""The name under which a :class:`MatchHeader` travels in formats with no place for it
(a PBN tag ``[LIN_vg "..."]``), as LIN's own tag name."""


@dataclass(frozen=True, slots=True)
class MatchHeader:
    """The header of a teams match, as a vugraph archive (LIN ``vg``) gives it.

    - ``event`` and ``segment`` (``"Final Segment 1"``); ``scoring`` the letter
      as written (``I`` IMPs; see :data:`MATCH_SCORING`);
    - ``first_board``/``last_board`` the segment's boards (``None``: not given);
    - ``home_team`` sits North-South in the open room, ``visit_team`` in the closed;
    - ``home_carry``/``visit_carry`` the scores each team carries into the segment
      from earlier ones (``None``: not given);
    - ``extra``: any fields after those nine, kept to be written back.

    Its text form is the header's: the fields separated by commas, so no field
    may hold a comma (or a ``|``, which ends the LIN tag).

    >>> header = MatchHeader.parse("Cup,Final Segment 2,I,17,32,Lions,21,Tigers,12.5")
    >>> header.segment, header.first_board, header.visit_carry, header.scoring_method
    ('Final Segment 2', 17, Decimal('12.5'), 'imps')
    >>> str(header)
    'Cup,Final Segment 2,I,17,32,Lions,21,Tigers,12.5'
    """

    event: str = ""
    segment: str = ""
    scoring: str = ""
    first_board: int | None = None
    last_board: int | None = None
    home_team: str = ""
    visit_team: str = ""
    home_carry: Decimal | None = None
    visit_carry: Decimal | None = None
    extra: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        texts = (self.event, self.segment, self.scoring, self.home_team, self.visit_team)
        for text in (*texts, *self.extra):
            if any(char in text for char in ",|\n\r") or text != text.strip():
                raise NotationError(
                    f"match header field {text!r}: expected text without ',', '|', line "
                    "breaks or surrounding blanks (the header's fields are comma-separated)"
                )
        for board in (self.first_board, self.last_board):
            if board is not None and not 1 <= board <= 999_999:
                raise NotationError(
                    f"match header board {board}: expected a board number 1 to 999999"
                )
        for carry in (self.home_carry, self.visit_carry):
            if carry is not None and not _CARRY.fullmatch(str(carry)):
                raise NotationError(
                    f"carried-over score {carry}: expected a number such as 12 or 12.5"
                )

    @classmethod
    def parse(cls, text: str) -> MatchHeader:
        """Read a header's text: event, segment, scoring, first and last board, then
        each team and its carried-over score; fields left out are not given."""
        fields = [part.strip() for part in text.split(",")]
        fields += [""] * (9 - len(fields))

        def board(index: int, what: str) -> int | None:
            value = fields[index]
            if not value:
                return None
            if not (value.isascii() and value.isdigit()) or len(value) > 6 or int(value) < 1:
                raise NotationError(
                    f"match header {text[:80]!r}: {what} {value!r}: expected a board number"
                )
            return int(value)

        return cls(
            event=fields[0],
            segment=fields[1],
            scoring=fields[2],
            first_board=board(3, "first board"),
            last_board=board(4, "last board"),
            home_team=fields[5],
            visit_team=fields[7],
            home_carry=cls.carry_of(fields[6], f"{fields[5] or 'the first team'}'s"),
            visit_carry=cls.carry_of(fields[8], f"{fields[7] or 'the second team'}'s"),
            extra=tuple(fields[9:]),
        )

    @staticmethod
    def carry_of(text: str, whose: str = "a team's") -> Decimal | None:
        """A carried-over score's text read exactly (``""``: none)."""
        value = text.strip()
        if not value:
            return None
        if not _CARRY.fullmatch(value):
            raise NotationError(
                f"{whose} carried-over score {value!r}: expected a number such as 12 or 12.5"
            )
        return Decimal(value)

    def __str__(self) -> str:
        def text(value: object) -> str:
            return "" if value is None else str(value)

        fields = [
            self.event,
            self.segment,
            self.scoring,
            text(self.first_board),
            text(self.last_board),
            self.home_team,
            text(self.home_carry),
            self.visit_team,
            text(self.visit_carry),
            *self.extra,
        ]
        return ",".join(fields)

    @property
    def scoring_method(self) -> str | None:
        """The session scoring method the header names (``imps``, ``bam``), if any."""
        return _SCORING_METHODS.get(self.scoring.upper())

    @property
    def scoring_text(self) -> str:
        """The scoring in words: ``IMPs``, ``board-a-match``... or the letter as written."""
        return MATCH_SCORING.get(self.scoring.upper(), self.scoring)

    @property
    def carried_over(self) -> dict[str, Decimal]:
        """Each named team's carried-over score, for the teams that carry one."""
        out: dict[str, Decimal] = {}
        for team, carry in ((self.home_team, self.home_carry), (self.visit_team, self.visit_carry)):
            if team and carry is not None:
                out[team] = carry
        return out

    @staticmethod
    def from_notes(
        notes: tuple[tuple[str, str], ...],
    ) -> tuple[tuple[tuple[str, str], ...], MatchHeader | None]:
        """The notes without a readable :data:`MATCH_NOTE`, and the header it held:
        how a format with no place for the header (PBN) reads it back."""
        for index, (name, value) in enumerate(notes):
            if name == MATCH_NOTE:
                try:
                    header = MatchHeader.parse(value)
                except NotationError:
                    return notes, None  # kept as the note it is
                return notes[:index] + notes[index + 1 :], header
        return notes, None


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

    - ``board``, ``dealer_seat``, ``vulnerable``, ``deal``: what the file gives
      (``None``: not given), named as :class:`~bridgescore.Board` names them.
      :attr:`dealer` and :attr:`vulnerability` mean what a Board's do: the
      dealer and vulnerability given, else the board number's (Law 2); ``None``
      only when the file gives neither.
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
    - ``match``: the teams match the board belongs to (a vugraph archive's header).
    """

    board: int | None = None
    dealer_seat: Seat | None = None
    vulnerable: Vulnerability | None = None
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
    match: MatchHeader | None = None

    def player(self, seat: Seat) -> str:
        """The name of the player at ``seat`` (``""`` when not given)."""
        return self.players[seat]

    def as_board(self, number: int | None = None, dd_table: DDTable | None = None) -> Board:
        """The :class:`~bridgescore.Board` this record holds: its number (``number``
        for a file that numbers its boards otherwise, or not at all), deal, and the
        dealer and vulnerability as the file states them (else the board number's);
        ``dd_table`` once read from :attr:`dd_tricks`. A board with no number needs
        its dealer and vulnerability stated: :class:`~bridgescore.RecordError` when
        the file gives neither them nor a number."""
        number = self.board if number is None else number
        if number is None and (self.dealer_seat is None or self.vulnerable is None):
            raise RecordError(
                "a board with no number: expected its Board tag, or its Dealer and Vulnerable"
            )
        return Board(number, self.deal, dd_table, None, self.dealer_seat, self.vulnerable)

    @property
    def dealer(self) -> Seat | None:
        """The seat that deals: the dealer given, else the board number's (Law 2);
        ``None`` when the file gives neither. ``Board.dealer`` means the same."""
        if self.dealer_seat is not None:
            return self.dealer_seat
        if self.board is None:
            return None
        return Seat((self.board - 1) % 4)

    @property
    def vulnerability(self) -> Vulnerability | None:
        """Who is vulnerable: as given, else as the board number says (Law 2), as
        :attr:`Board.vulnerability <bridgescore.Board.vulnerability>` is; ``None``
        when the file gives neither."""
        if self.vulnerable is not None:
            return self.vulnerable
        return None if self.board is None else Vulnerability.from_board(self.board)

    @property
    def contract_text(self) -> str | None:
        """``4HX``, ``3NT``, ``Pass``, or ``None`` when the file does not say."""
        if self.passed_out:
            return "Pass"
        return None if self.contract is None else self.contract.to_pbn()

    @property
    def tricks_taken(self) -> int | None:
        """Declarer's tricks: the result stated, else the claim, else what a play
        recorded to the last card gives (a LIN board's ``pc`` cards); ``None`` when
        none says, or the play cannot be followed (the checker reports why)."""
        if self.result is not None:
            return self.result
        if self.claim is not None:
            return self.claim
        if self.play is None or len(self.play) != 52 or self.deal is None:
            return None
        if self.contract is None or self.contract.declarer is None:
            return None
        from bridgescore.play import Play  # the domain's rules of play, for this case alone

        try:
            played = Play(self.deal, self.contract, self.play)
        except BridgeError:
            return None
        return played.declarer_tricks if played.is_complete else None

    def score_tag(self, name: str) -> str | None:
        """The value of the file's score tag ``name`` (``"ScoreIMP"``...), if any."""
        return next((value for tag, value in self.scores if tag == name), None)

    def note(self, name: str) -> str | None:
        """The value of a kept tag, if any."""
        return next((value for tag, value in self.notes if tag == name), None)

    @property
    def notes_with_match(self) -> tuple[tuple[str, str], ...]:
        """The notes, the match header first as a :data:`MATCH_NOTE` note: what a
        format with no place for the header (PBN) writes as tags."""
        if self.match is None:
            return self.notes
        return ((MATCH_NOTE, str(self.match)), *self.notes)

    def with_match_from_notes(self) -> BoardRecord:
        """The record with a readable :data:`MATCH_NOTE` note read into ``match``:
        how such a format reads the header back (see :attr:`notes_with_match`)."""
        if self.match is not None:
            return self
        notes, match = MatchHeader.from_notes(self.notes)
        return self if match is None else replace(self, notes=notes, match=match)

    def _repr_html_(self) -> str:
        """The record in a notebook: heading, diagram under the players' names, contract
        and result, auction, the file's scores and DD table, and any problems."""
        from bridgescore.display.markup import Markup, contract_html, text_html

        lines: list[str | Markup] = []
        if self.event:
            lines.append(f"Event: {self.event}")
        if self.home_team or self.visit_team:
            lines.append(f"Teams: {self.home_team} v {self.visit_team}")
        if self.table or self.room:
            table = f"Table {self.table}" if self.table else ""
            lines.append(
                " · ".join(part for part in (table, self.room and f"{self.room} room") if part)
            )
        if self.passed_out:
            lines.append("Passed out")
        elif self.contract is not None:
            contract = replace(self.contract, declarer=None)
            by = "" if self.contract.declarer is None else f" by {self.contract.declarer.letter}"
            tricks = "" if self.result is None else f", {self.result} tricks"
            adjusted = " (adjusted)" if self.adjusted else ""
            lines.append(
                Markup(f"Contract {contract_html(contract)}{text_html(by + tricks + adjusted)}")
            )
        if self.auction is not None:
            calls = " ".join(call.call + ("!" if call.alerted else "") for call in self.auction)
            lines.append(f"Auction: {calls}")
        if self.claim is not None:
            lines.append(f"Claimed: {self.claim} tricks")
        lines.extend(f"{tag}: {value}" for tag, value in self.scores)
        if self.optimum_score:
            lines.append(f"OptimumScore: {self.optimum_score}")
        lines.extend(f"problem: {problem}" for problem in self.problems)
        return notebook_html(
            self.board,
            self.dealer,
            self.vulnerability,
            self.deal,
            players=self.players,
            lines=lines,
            table=dd_table_html(self.dd_tricks) if self.dd_tricks else None,
        )

    def with_problems(self, problems: Iterable[Problem]) -> BoardRecord:
        """The same record with more problems."""
        return replace(self, problems=self.problems + tuple(problems))

    def without_source(self) -> BoardRecord:
        """The record with no source and no problems: what two formats must agree on."""
        return replace(self, source=Source(), problems=())


_Value = TypeVar("_Value")


def slot_maker(cls: type[_Value]) -> Callable[..., _Value]:
    """A function that makes a ``cls`` from every field's value, in the fields' order,
    each set straight into its slot: for a frozen dataclass with slots and no
    ``__post_init__``, what its constructor makes, at half the cost.

    The constructor sets each field with ``object.__setattr__``, which looks the
    slot up by the field's name; the fast readers make tens of thousands of
    records a second, and their values are checked already. The function is
    written for the class's fields and compiled, as dataclasses write their
    ``__init__``.

    >>> make = slot_maker(Source)
    >>> make("f.pbn", 3, 1, (), (), (), ()) == Source("f.pbn", 3, 1)
    True
    """
    # (Anything else would be made without its checks, or not at all: refused.)
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in vars(cls):
        raise ArgumentTypeError(f"slot_maker needs a frozen dataclass with slots, got {cls!r}")
    if hasattr(cls, "__post_init__"):
        raise ArgumentTypeError(f"slot_maker would skip {cls.__name__}.__post_init__")
    names = [item.name for item in fields(cls)]  # type: ignore[arg-type]
    setters: dict[str, Any] = {f"_set_{name}": getattr(cls, name).__set__ for name in names}
    body = "".join(f"    _set_{name}(value, {name})\n" for name in names)
    code = f"def make({', '.join(names)}):\n    value = _new(_cls)\n{body}    return value\n"
    scope: dict[str, Any] = {"_new": object.__new__, "_cls": cls, **setters}
    exec(code, scope)  # (code made here, from the class's own field names)
    made: Callable[..., _Value] = scope["make"]
    return made
