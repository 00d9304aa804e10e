"""The event model: boards, table results and the event that holds them.

A :class:`TableResult` is one line of a traveller: a board, the NS and EW pair
(or team) and what happened -- a contract with declarer and tricks (scored by
Law 77 with the declaring side's vulnerability, signed for NS), a score, a
passed-out board, or an artificial adjusted score (:class:`Adjusted`).

A board's vulnerability is the event's: the one its hand record states (a file may
deal a board with other than its number's vulnerability), else its number's (Law 2).
A result does not carry it; :meth:`TableResult.ns_score` takes it, and
:func:`result_columns` takes the event's boards.

Pairs and teams are plain names. In a Mitchell movement each pair keeps its
direction; in a Howell pairs change direction, so they are ranked overall. In a
teams event the names are teams: the two tables of a match are (NS=A, EW=B) and
(NS=B, EW=A).

>>> r = TableResult.played(1, "1", "2", "4SN+1")
>>> r.ns_score()
450
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter
from typing import Literal

import numpy as np
import numpy.typing as npt

from bridgescore.board import Board
from bridgescore.compare.scalar import Award
from bridgescore.core import Side, Vulnerability, dealer_of_board
from bridgescore.errors import NotationError, RecordError
from bridgescore.notation import Result, parse_result
from bridgescore.scoring import score, score_array
from bridgescore.session.scoring.weighted import Weighted
from bridgescore.validate import whole_number_arg

__all__ = [
    "Adjusted",
    "Event",
    "EventKind",
    "Member",
    "ResultColumns",
    "TableResult",
    "ns_scores",
    "participant_key",
    "players_of",
    "result_columns",
]

EventKind = Literal["pairs", "teams"]
EVENT_KINDS: tuple[EventKind, ...] = ("pairs", "teams")


@dataclass(frozen=True, slots=True)
class Adjusted:
    """An artificial adjusted score: one :class:`Award` for each side (Law 12C2).

    The sides' awards need not balance. Text: ``A+`` (NS average plus, EW
    average minus), ``A``, ``A-``, or both sides written out: ``A+/A+``, ``A-/A+``.
    Written as percentages (``60/40``, ``50/50``, ``40/60``; ``60`` alone is
    ``60/40``) the scores are ``fixed``: those percentages of the top whatever
    the scoring options, where an average plus follows the club's choice (the
    session-percentage variant). In IMPs both are the same (+3, 0, -3).

    >>> Adjusted.parse("A+")
    Adjusted.parse('A+/A-')
    >>> Adjusted.parse("60/40").fixed, str(Adjusted.parse("40%"))
    (True, '40/60')
    """

    ns: Award
    ew: Award
    fixed: bool = False

    @classmethod
    def parse(cls, text: str) -> Adjusted:
        parts = [part for part in re.split(r"\s*/\s*", str(text).strip()) if part]
        fixed = bool(parts) and all(_PERCENT.fullmatch(part) for part in parts)
        if len(parts) == 1:
            ns = Award.parse(parts[0])
            return cls(ns, ns.mirror, fixed)
        if len(parts) == 2:
            return cls(Award.parse(parts[0]), Award.parse(parts[1]), fixed)
        raise NotationError(
            f"not an adjusted score: {text!r}: expected A+, A or A-, NS/EW awards such as "
            "'A+/A+', or fixed percentages 60/40, 50/50 or 40/60"
        )

    @staticmethod
    def looks_like(text: str) -> bool:
        """Whether text is meant as an adjusted score (starts with A, AV or AVE)."""
        return bool(re.match(r"\s*A(?:VE?|VG)?\s*[+\-=/]|\s*A(?:VE?|VG)?\s*$", text, re.I))

    def __str__(self) -> str:
        if self.fixed:
            return f"{_PERCENTS[self.ns]}/{_PERCENTS[self.ew]}"
        return f"{self.ns}/{self.ew}"

    def __repr__(self) -> str:
        return f"Adjusted.parse({str(self)!r})"


# Fixed artificial scores are written as the percentage of the top each side gets.
_PERCENT = re.compile(r"(?:60|50|40)\s*%?")
_PERCENTS = {Award.AVERAGE_PLUS: "60", Award.AVERAGE: "50", Award.AVERAGE_MINUS: "40"}


@dataclass(frozen=True, slots=True)
class TableResult:
    """One result on a traveller. Exactly one of ``result``, ``score``, ``adjusted``,
    ``weighted`` is set.

    ``section`` names the section (for events scored per section); ``variant``
    separates the versions of a fouled board (Law 87), which are compared only
    among themselves. ``weighted``: the director's weighted score (Law 12C1c).
    """

    board: int
    ns: str
    ew: str
    result: Result | None = None
    score: int | None = None
    adjusted: Adjusted | None = None
    section: str = ""
    variant: str = ""
    weighted: Weighted | None = None
    # The board, whether a section or fouled-board version is named, and what happened,
    # packed in one int (see _packed): scoring a whole event reads it with one pass over
    # the results instead of eight.
    _code: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        dealer_of_board(self.board)
        for name, value in (("NS", self.ns), ("EW", self.ew)):
            if not isinstance(value, str) or not value.strip():
                raise RecordError(
                    f"board {self.board}: the {name} pair needs a name, got {value!r}"
                )
        if self.ns == self.ew:
            raise RecordError(f"board {self.board}: pair {self.ns!r} cannot sit both NS and EW")
        given = sum(x is not None for x in (self.result, self.score, self.adjusted, self.weighted))
        if given != 1:
            raise RecordError(
                f"board {self.board} {self.ns} v {self.ew}: give exactly one of a result, "
                "a score, an adjusted score or a weighted score"
            )
        contract = None if self.result is None else self.result.contract
        if contract is not None and contract.declarer is None:
            raise RecordError(
                f"board {self.board} {self.ns} v {self.ew}: {self.result} has no declarer: "
                "expected N, E, S or W"
            )
        if self.score is not None:
            whole_number_arg(self.score, f"board {self.board}: score", error=RecordError)
            if self.score % 10 or abs(self.score) > 7600:
                raise RecordError(
                    f"board {self.board} {self.ns} v {self.ew}: {self.score:+d} is not a bridge "
                    "score: expected a multiple of 10 between -7600 and +7600"
                )
        object.__setattr__(self, "_code", _packed(self))

    @classmethod
    def played(
        cls,
        board: int,
        ns: str,
        ew: str,
        result: str | Result,
        *,
        section: str = "",
        variant: str = "",
    ) -> TableResult:
        """A played (or passed-out) board: ``TableResult.played(3, "1", "5", "3NTW-2")``."""
        parsed = parse_result(result) if isinstance(result, str) else result
        return cls(board, ns, ew, result=parsed, section=section, variant=variant)

    @property
    def kind(self) -> str:
        """``played``, ``score``, ``adjusted`` or ``weighted``."""
        if self.result is not None:
            return "played"
        if self.weighted is not None:
            return "weighted"
        return "score" if self.score is not None else "adjusted"

    @property
    def key(self) -> tuple[str, int, str, str]:
        """What identifies a result: section, board and the two pairs."""
        return (self.section, self.board, self.ns, self.ew)

    @property
    def is_artificial(self) -> bool:
        return self.adjusted is not None

    def ns_score(self, vulnerability: Vulnerability | None = None) -> int | None:
        """The NS-view score, or ``None`` for an adjusted score (artificial or weighted).

        ``vulnerability`` is the board's (:attr:`Board.vulnerability
        <bridgescore.Board.vulnerability>` of the event's board); ``None``:
        the board number's.

        >>> TableResult.played(1, "1", "2", "4SN=").ns_score(Vulnerability.BOTH)
        620
        """
        if self.score is not None:
            return self.score
        if self.result is None:
            return None
        contract = self.result.contract
        if contract is None or contract.declarer is None:
            return 0
        points = score(self.result, self.vulnerable_declarer(vulnerability))
        return points if contract.declarer.side is Side.NS else -points

    def vulnerable_declarer(self, vulnerability: Vulnerability | None = None) -> bool:
        """Whether the declaring side is vulnerable (False when nothing was played), on
        a board of ``vulnerability`` (``None``: the board number's)."""
        contract = None if self.result is None else self.result.contract
        if contract is None or contract.declarer is None:
            return False
        if vulnerability is None:
            vulnerability = Vulnerability.from_board(self.board)
        return vulnerability.is_vulnerable(contract.declarer)

    def describe(self) -> str:
        """The table's outcome as text: ``4SN+1``, ``+450``, ``Pass``, ``A+/A-`` or a
        weighted score, ``1/2 4SN=; 1/2 4SN-1``."""
        if self.result is not None:
            return str(self.result)
        if self.weighted is not None:
            return str(self.weighted)
        if self.score is not None:
            return f"{self.score:+d}" if self.score else "0"
        return str(self.adjusted)


@dataclass(frozen=True, slots=True)
class Member:
    """A player of a pair or team: the name, and the membership number (``""``: none)."""

    name: str
    number: str = ""

    def __str__(self) -> str:
        return self.name or self.number


def participant_key(section: str, name: str) -> str:
    """The name a pair's (or team's) players are kept under: ``B:1N`` for pair ``1N`` of
    section ``B``, the bare ``1N`` for a result stored without a section (an event of
    one section), so a one-section event's members read as they always have.

    >>> participant_key("B", "1N"), participant_key("", "1N")
    ('B:1N', '1N')
    """
    return f"{section}:{name}" if section else name


def players_of(
    members: Mapping[str, tuple[Member, ...]], section: str, name: str
) -> tuple[Member, ...]:
    """The players of pair (or team) ``name`` of ``section``: those kept under
    :func:`participant_key`, else those kept under the bare name (an event of one
    section, or a file written before sections kept their own names), else none.

    >>> members = {"B:1N": (Member("Ann"),), "1N": (Member("Cy"),)}
    >>> players_of(members, "B", "1N"), players_of(members, "A", "1N")
    ((Member(name='Ann', number=''),), (Member(name='Cy', number=''),))
    """
    if section:
        found = members.get(participant_key(section, name))
        if found:
            return found
    return members.get(name, ())


@dataclass(frozen=True)
class Event:
    """An event: its name and kind, its boards and its results.

    >>> e = Event("Club", "pairs", results=(TableResult.played(1, "1", "2", "Pass"),))
    >>> e.board(1).vulnerability
    Vulnerability.NONE
    """

    name: str = ""
    kind: EventKind = "pairs"
    boards: dict[int, Board] = field(default_factory=dict)
    results: tuple[TableResult, ...] = ()
    # The players of each pair or team, by the name the results use (a results file's),
    # a pair of a named section's as ``B:1N`` (participant_key; read with players_of).
    members: Mapping[str, tuple[Member, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in EVENT_KINDS:
            raise RecordError(f"unknown event kind {self.kind!r}: expected pairs or teams")

    def board(self, number: int) -> Board:
        """The board, known from the hand record or only from its number."""
        return self.boards.get(number) or _numbered_board(number)

    def ns_score(self, result: TableResult) -> int | None:
        """The result's NS-view score on the event's board (its real vulnerability)."""
        return result.ns_score(self.board(result.board).vulnerability)

    def board_numbers(self) -> list[int]:
        return sorted({r.board for r in self.results} | set(self.boards))

    def participants(self) -> list[str]:
        names = {r.ns for r in self.results} | {r.ew for r in self.results}
        return sorted(names, key=natural_key)

    def with_results(self, results: Iterable[TableResult]) -> Event:
        return Event(self.name, self.kind, dict(self.boards), tuple(results), self.members)


@lru_cache(maxsize=4096)
def _numbered_board(number: int) -> Board:
    """A board known only by its number (a value: one per number will do)."""
    return Board(number)


@lru_cache(maxsize=4096)
def natural_key(name: str) -> tuple[tuple[int, object], ...]:
    """Sort "2" before "10", and names after numbers."""
    return tuple(
        # int() refuses over 4,300 digits; no pair number comes near 18.
        (0, int(part)) if part.isdigit() and len(part) <= 18 else (1, part.lower())
        for part in re.findall(r"\d+|\D+", name)
    )


# A result's outcome as one int: an artificial score 0, a passed-out board 1, a given
# score _GIVEN + score, a contract 2 + its level, strain, doubling, declarer and tricks
# in mixed radix (7 x 5 x 3 x 4 x 14 = 5880 codes). Below it, in _packed, two flags
# (a section named, a version named) and the board number.
_ARTIFICIAL = 0
_PASSED_OUT = 1
_GIVEN = 20_000
_OUTCOME_BITS = 15  # _GIVEN + 7600 < 2 ** 15
_SECTION_FLAG = 1 << _OUTCOME_BITS
_VARIANT_FLAG = 2 << _OUTCOME_BITS
_BOARD_SHIFT = _OUTCOME_BITS + 2


def _packed(result: TableResult) -> int:
    flags = (_SECTION_FLAG if result.section else 0) | (_VARIANT_FLAG if result.variant else 0)
    return result.board << _BOARD_SHIFT | flags | _outcome(result)


def _outcome(result: TableResult) -> int:
    # A weighted score is no single score either: the scorer weighs it apart.
    if result.adjusted is not None or result.weighted is not None:
        return _ARTIFICIAL
    if result.score is not None:
        return _GIVEN + result.score
    assert result.result is not None
    contract, tricks = result.result.contract, result.result.tricks
    if contract is None or contract.declarer is None or tricks is None:
        return _PASSED_OUT
    packed = ((contract.level - 1) * 5 + contract.strain) * 3 + contract.doubling
    return 2 + (packed * 4 + contract.declarer) * 14 + tricks


@dataclass(frozen=True)
class ResultColumns:
    """Many results' boards and NS-view scores as arrays (see :func:`result_columns`)."""

    boards: npt.NDArray[np.int64]
    scores: npt.NDArray[np.int64]  # 0 for an artificial score
    real: npt.NDArray[np.bool_]  # False for an artificial score
    named_sections: bool  # some result names a section
    named_variants: bool  # some result names a fouled-board version


def result_columns(
    results: Sequence[TableResult], boards: Mapping[int, Board] | None = None
) -> ResultColumns:
    """The results' boards and NS-view scores, every contract scored by Law 77 in one
    array call, read with one pass over the results.

    ``boards`` are the event's (:attr:`Event.boards`): a board there that states its
    vulnerability is scored with it, every other by its number's.
    """
    packed = np.fromiter(map(_CODE, results), np.int64, len(results))
    numbers = packed >> _BOARD_SHIFT
    codes = packed & ((1 << _OUTCOME_BITS) - 1)
    played = (codes > _PASSED_OUT) & (codes < _GIVEN - 7600)
    rest, tricks = np.divmod(np.where(played, codes - 2, 0), 14)
    rest, declarer = np.divmod(rest, 4)
    rest, doubling = np.divmod(rest, 3)
    level, strain = np.divmod(rest, 5)
    level += 1
    # Vulnerability bits: 1 for NS, 2 for EW; a seat's side is its value's parity.
    side = declarer & 1
    vulnerable = _vulnerability_bits(numbers, boards or {}) >> side & 1
    made = np.where(played, tricks - level - 6, 0)
    points = score_array(level, strain, doubling, made, vulnerable).astype(np.int64)
    scores = np.where(played, points * (1 - 2 * side), 0)
    given = codes >= _GIVEN - 7600
    scores = np.where(given, codes - _GIVEN, scores)
    return ResultColumns(
        numbers,
        scores,
        codes != _ARTIFICIAL,
        bool((packed & _SECTION_FLAG).any()),
        bool((packed & _VARIANT_FLAG).any()),
    )


def _vulnerability_bits(
    numbers: npt.NDArray[np.int64], boards: Mapping[int, Board]
) -> npt.NDArray[np.int64]:
    """Each board's vulnerability as NS 1 / EW 2 bits: the board's own where it states
    one, else its number's."""
    bits = _VULNERABILITY[(numbers - 1) % 16]
    stated = {n: int(b.vulnerable) for n, b in boards.items() if b.vulnerable is not None}
    if not stated or not len(numbers):
        return bits
    # One lookup over the board numbers: the standard cycle with the stated ones written in.
    span = max(int(numbers.max()), max(stated)) + 1
    lookup = _VULNERABILITY[(np.arange(span) - 1) % 16]
    lookup[list(stated)] = list(stated.values())
    return lookup[numbers]


def ns_scores(
    results: Sequence[TableResult], boards: Mapping[int, Board] | None = None
) -> list[int | None]:
    """:meth:`TableResult.ns_score` of many results, every contract scored in one array call,
    on the event's ``boards`` (see :func:`result_columns`).

    >>> ns_scores([TableResult.played(2, "1", "2", "4SN="), TableResult(2, "3", "4", score=50)])
    [620, 50]
    >>> ns_scores([TableResult.played(2, "1", "2", "4SN=")], {2: Board(2, vulnerable="None")})
    [420]
    """
    columns = result_columns(results, boards)
    return [
        value if real else None
        for value, real in zip(columns.scores.tolist(), columns.real.tolist(), strict=True)
    ]


_CODE = attrgetter("_code")
# The vulnerability of boards 1-16 (and every 16 after), as NS 1 / EW 2 bits.
_VULNERABILITY = np.array([int(Vulnerability.from_board(board)) for board in range(1, 17)])
