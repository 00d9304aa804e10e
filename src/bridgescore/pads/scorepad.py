"""What rubber and Chicago scorepads share: entries, honours, per-deal points, the pad.

A scorepad records one deal at a time. Each deal becomes an :class:`Entry`
(frozen): the trick points it put *below the line* and the :class:`Premium`
items it put *above the line*. The Law 77 values come from
:func:`bridgescore.scoring.score_breakdown`; this module only sorts its parts
into the two halves of the pad (docs/rules.md §2.1) and adds honours (§2.2).

:func:`render_pad` draws the familiar "We / They" pad; :func:`score_rubber_tag`
and :func:`score_rubber_history_tag` give PBN 2.1's ``ScoreRubber`` and
``ScoreRubberHistory`` tag values (PBN 2.1 §4.2.5 and §4.2.6).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from bridgescore.core import Seat, Side, Strain, Vulnerability
from bridgescore.errors import NotationError, RecordError
from bridgescore.notation import Result, parse_result
from bridgescore.scoring import LAW_2017, Rules, score_breakdown
from bridgescore.validate import is_whole_number

__all__ = [
    "Entry",
    "Evening",
    "Honors",
    "Premium",
    "above_line",
    "as_honors",
    "as_result",
    "as_side",
    "deal_points",
    "declaring_side",
    "quote_result",
    "render_pad",
    "running_totals",
    "score_rubber_history_tag",
    "score_rubber_history_tags",
    "score_rubber_tag",
    "totals",
]

# Premium kinds, as they appear in entries and in JSON.
OVERTRICKS = "overtricks"
INSULT = "doubled/redoubled made"
SLAM = "slam"
UNDERTRICKS = "undertricks"
HONORS = "honours"


@dataclass(frozen=True, slots=True)
class Premium:
    """Points written above the line for one side: ``Premium(Side.NS, 500, "rubber")``."""

    side: Side
    points: int
    kind: str

    def as_dict(self) -> dict[str, Any]:
        return {"side": self.side.name, "points": self.points, "kind": self.kind}


@dataclass(frozen=True, slots=True)
class Honors:
    """Honours held in one hand (docs/rules.md §2.2): 100 for four trump honours, 150 for
    five, or 150 for the four aces at notrump. ``side`` is the side of the player
    holding them, declarer's or a defender's.

    >>> Honors.parse("EW 150")
    Honors(side=Side.EW, points=150)
    """

    side: Side
    points: int

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "side", as_side(self.side))
        except NotationError as error:
            raise NotationError(f"honours: {error}") from None
        points = self.points
        if not is_whole_number(points) or points not in (100, 150):
            raise NotationError(
                f"honours worth {points!r}: expected 100 (four trump honours) or 150 "
                "(five trump honours, or four aces at notrump)"
            )

    @classmethod
    def parse(cls, text: str) -> Honors:
        """``"NS 100"``, ``"honours EW 150"`` or ``"honors 150 NS"``."""
        words = re.sub(r"(?i)^\s*honou?rs?\b", "", str(text)).split()
        if len(words) == 2:
            for side_word, points_word in (words, words[::-1]):
                # isascii(): str.isdigit() also accepts '²', which int() refuses;
                # and int() refuses over 4,300 digits, where honours have three.
                if points_word.isascii() and points_word.isdigit() and len(points_word) <= 3:
                    try:
                        return cls(Side.parse(side_word), int(points_word))
                    except NotationError as error:
                        raise NotationError(f"in honours {text!r}: {error}") from None
        raise NotationError(
            f"not an honours claim: {text!r}: expected a side and 100 or 150, as in 'NS 100'"
        )

    def check(self, result: Result) -> None:
        """Refuse honours that the contract cannot have (raises :class:`RecordError`)."""
        contract = result.contract
        if contract is None:
            raise RecordError(f"honours {self} on a passed-out deal: no contract, no honours")
        if contract.strain is Strain.NOTRUMP and self.points != 150:
            raise RecordError(
                f"honours {self} at notrump ({result}): only the four aces count there, for 150"
            )

    def __str__(self) -> str:
        return f"{self.side.name} {self.points}"

    def __repr__(self) -> str:
        return f"Honors(side=Side.{self.side.name}, points={self.points})"


@dataclass(frozen=True, slots=True)
class Entry:
    """One recorded deal, as it stands on the pad.

    ``number`` counts records from 1 (passed-out deals included); ``deal`` is the
    deal's number in its scheme (the same in rubber; 1-4 in Chicago, where a
    passed-out deal is redealt under the same number). ``game`` is the game whose
    trick points this deal's ``below`` belongs to. ``below`` is indexed by
    :class:`Side`: ``entry.below[Side.NS]``.
    """

    number: int
    deal: int
    result: Result
    declarer: Side | None
    dealer: Seat | None
    vulnerability: Vulnerability
    game: int
    below: tuple[int, int]
    above: tuple[Premium, ...]
    completes_game: bool = False
    honors: Honors | None = None

    @property
    def vulnerable(self) -> bool:
        """Whether the declaring side was vulnerable (False when passed out)."""
        return self.declarer is not None and self.vulnerability.is_vulnerable(self.declarer)

    def points(self, side: Side) -> int:
        """All the points this deal gave ``side``, above and below the line."""
        return self.below[side] + sum(p.points for p in self.above if p.side is side)

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "deal": self.deal,
            "result": str(self.result),
            "declarer": None if self.declarer is None else self.declarer.name,
            "dealer": None if self.dealer is None else self.dealer.letter,
            "vulnerability": str(self.vulnerability),
            "vulnerable": self.vulnerable,
            "game": self.game,
            "completes_game": self.completes_game,
            "honors": None if self.honors is None else str(self.honors),
            "below": {"NS": self.below[Side.NS], "EW": self.below[Side.EW]},
            "above": [premium.as_dict() for premium in self.above],
            "points": {"NS": self.points(Side.NS), "EW": self.points(Side.EW)},
        }


def as_side(by: object) -> Side:
    """A :class:`Side` from a Side, a Seat (its side) or text such as ``"NS"``."""
    if isinstance(by, Side):
        return by
    if isinstance(by, Seat):
        return by.side
    if isinstance(by, str):
        return Side.parse(by)
    raise NotationError(f"unknown side {by!r}: expected NS or EW (text or Side)")


def as_result(result: object) -> Result:
    """A :class:`Result` from result text (``"4S+1"``, ``"Pass"``) or a Result."""
    if isinstance(result, Result):
        return result
    if isinstance(result, str):
        return parse_result(result)
    raise NotationError(
        f"cannot record {result!r}: expected result text such as '4S+1' or 'Pass', or a Result"
    )


def quote_result(result: object) -> str:
    """The result as the user gave it, quoted for a message (a Result as its text)."""
    return repr(str(result)) if isinstance(result, Result) else repr(result)


def declaring_side(result: Result, by: object) -> Side | None:
    """The side that declared: ``by``, or the side of the declarer named in ``result``.

    Raises :class:`RecordError` when neither names it, when they disagree, or when
    a side is given for a passed-out deal.
    """
    if result.contract is None:
        if by is not None:
            raise RecordError(
                f"a passed-out deal has no declaring side, but the side {by!r} was given"
            )
        return None
    named = result.contract.side
    if by is None:
        if named is None:
            raise RecordError(
                f"who declared {result}? give the declaring side, NS or EW, or a declarer seat"
            )
        return named
    side = as_side(by)
    if named is not None and named is not side:
        raise RecordError(f"{result} names declarer {result.contract.declarer}, not side {side}")
    return side


def as_honors(honors: object) -> Honors | None:
    """``None``, an :class:`Honors`, a ``(side, points)`` pair or text ``"NS 100"``."""
    if honors is None or isinstance(honors, Honors):
        return honors
    if isinstance(honors, str):
        return Honors.parse(honors)
    if isinstance(honors, tuple) and len(honors) == 2:
        return Honors(as_side(honors[0]), honors[1])
    raise NotationError(f"unknown honours {honors!r}: expected (side, points) such as ('NS', 100)")


def deal_points(
    result: Result,
    declarer: Side | None,
    vulnerable: bool,
    honors: Honors | None = None,
    rules: Rules = LAW_2017,
) -> tuple[tuple[int, int], tuple[Premium, ...]]:
    """Sort one deal's Law 77 points into the two halves of a pad (docs/rules.md §2.1).

    Trick points go below the line to the declaring side; overtricks, the slam
    premium and the premium for a doubled or redoubled make above it; undertricks
    above the line to the defenders; honours to the side holding them. No game
    or partscore premium: the caller decides those (rubber has none per deal).

    >>> deal_points(Result.parse("2H+1"), Side.NS, False)
    ((60, 0), (Premium(side=Side.NS, points=30, kind='overtricks'),))
    """
    premiums: list[Premium] = []
    below = [0, 0]
    if declarer is not None and result.contract is not None:
        parts = score_breakdown(result, vulnerable, rules=rules)
        below[declarer] = parts.trick_score
        for points, kind in (
            (parts.overtricks, OVERTRICKS),
            (parts.slam_premium, SLAM),
            (parts.insult_premium, INSULT),
        ):
            if points:
                premiums.append(Premium(declarer, points, kind))
        if parts.undertricks:
            premiums.append(Premium(declarer.opponents, -parts.undertricks, UNDERTRICKS))
    if honors is not None:
        premiums.append(Premium(honors.side, honors.points, HONORS))
    return (below[0], below[1]), tuple(premiums)


def totals(entries: Iterable[Entry], extra: Iterable[Premium] = ()) -> dict[str, int]:
    """Each side's total, above and below the line: ``{"NS": ..., "EW": ...}``."""
    sums = [0, 0]
    for entry in entries:
        for side in Side:
            sums[side] += entry.points(side)
    for premium in extra:
        sums[premium.side] += premium.points
    return {"NS": sums[Side.NS], "EW": sums[Side.EW]}


def above_line(entries: Iterable[Entry], extra: Iterable[Premium] = ()) -> tuple[int, int]:
    """Each side's (NS, EW) points above the line: the entries' premiums and ``extra``."""
    sums = [0, 0]
    for premium in (*(p for entry in entries for p in entry.above), *extra):
        sums[premium.side] += premium.points
    return sums[0], sums[1]


def running_totals(each: Iterable[dict[str, int]]) -> list[dict[str, int]]:
    """An evening's total after each of its rubbers (or rounds), from their totals.

    >>> running_totals([{"NS": 950, "EW": 0}, {"NS": 100, "EW": 160}])
    [{'NS': 950, 'EW': 0}, {'NS': 1050, 'EW': 160}]
    """
    running: list[dict[str, int]] = []
    sums = {"NS": 0, "EW": 0}
    for total in each:
        sums = {"NS": sums["NS"] + total["NS"], "EW": sums["EW"] + total["EW"]}
        running.append(sums)
    return running


class Pad(Protocol):
    """What an evening needs of one rubber or round: :class:`~bridgescore.pads.rubber.RubberScore`
    and :class:`~bridgescore.pads.chicago.ChicagoScore` both are."""

    @property
    def is_finished(self) -> bool: ...

    @property
    def entries(self) -> tuple[Entry, ...]: ...

    def record(
        self, result: str | Result, by: object = None, *, honors: object = None
    ) -> Entry: ...

    def totals(self) -> dict[str, int]: ...


PadT = TypeVar("PadT", bound=Pad)


class Evening(ABC, Generic[PadT]):
    """Pads kept one after another on one sheet: when one is over, the next deal
    starts the next (a rubber, or a Chicago round), and the evening adds them up.

    What differs between the games is how the next pad starts (:meth:`_next_pad`)
    and whether the evening can be closed (:meth:`_check_open`).
    """

    def __init__(self, first: PadT) -> None:
        self._pads = [first]

    @abstractmethod
    def _next_pad(self, last: PadT) -> PadT:
        """A new, empty pad to follow ``last``, which is over."""

    def _check_open(self, result: str | Result) -> None:
        """Refuse ``result`` (a :class:`RecordError`) when the evening takes no more deals."""

    def record(self, result: str | Result, by: object = None, *, honors: object = None) -> Entry:
        """Record one deal, on a new pad when the last one is over; returns its entry.

        Arguments and errors as the pad's own ``record``, except that a finished pad
        is no error.
        """
        self._check_open(result)
        current = self._pads[-1]
        if not current.is_finished:
            return current.record(result, by, honors=honors)
        # The new pad joins the evening only once its first deal is recorded, so a
        # bad record leaves no empty pad behind.
        following = self._next_pad(current)
        entry = following.record(result, by, honors=honors)
        self._pads.append(following)
        return entry

    @property
    def current(self) -> PadT:
        """The last pad: the one in play, or the one just ended."""
        return self._pads[-1]

    @property
    def number(self) -> int:
        """The number of the last pad, from 1 (the pad the last deal went to)."""
        return len(self._pads)

    def totals(self) -> dict[str, int]:
        """The evening's points so far, every pad added up: ``{"NS": int, "EW": int}``."""
        return self.running_totals()[-1]

    def running_totals(self) -> list[dict[str, int]]:
        """The evening's total after each pad, in order (the last is :meth:`totals`)."""
        return running_totals(pad.totals() for pad in self._pads)

    def _numbered(self) -> Iterator[tuple[int, PadT, dict[str, int]]]:
        """``(number from 1, pad, the evening's total after it)`` for every pad."""
        for number, (pad, running) in enumerate(
            zip(self._pads, self.running_totals(), strict=True), 1
        ):
            yield number, pad, running

    def _entries_dict(self, key: str) -> list[dict[str, Any]]:
        """Every deal's entry as JSON, with its pad's number under ``key``."""
        return [
            {key: number, **entry.as_dict()}
            for number, pad in enumerate(self._pads, 1)
            for entry in pad.entries
        ]


# ---------------------------------------------------------------- the pad text

_COLUMN = 10


def _row(left: str, right: str) -> str:
    return f"{left:>{_COLUMN}} | {right:<{_COLUMN}}".rstrip()


def _points_row(we: int | None, they: int | None) -> str:
    # Right-align "They" numbers too, so the units line up in each column.
    right = "" if they is None else f"{they:>6}"
    return _row("" if we is None else str(we), right)


def render_pad(
    entries: Sequence[Entry],
    extra: Sequence[Premium] = (),
    *,
    we: Side = Side.NS,
    finished_games: int | None = None,
) -> str:
    """The "We / They" pad: premiums above the line, trick points below it, each
    game ruled off, and the totals.

    Above the line each side writes upwards from the line, so its first premium
    sits nearest the line. Below the line each deal that scored trick points has
    its own row, and a rule closes each finished game. ``we`` is the side in the
    left-hand column. ``finished_games`` says how many games are closed (by default
    every game whose last deal completed it).
    """
    they = we.opponents
    above: dict[Side, list[int]] = {Side.NS: [], Side.EW: []}
    for entry in entries:
        for premium in entry.above:
            above[premium.side].append(premium.points)
    for premium in extra:
        above[premium.side].append(premium.points)
    height = max(len(above[we]), len(above[they]))

    def column(side: Side, index: int) -> int | None:
        # Row ``index`` counts down from the top; the column is aligned on the line.
        values = above[side]
        at = height - 1 - index
        return values[at] if at < len(values) else None

    rule = "-" * (_COLUMN + 1) + "+" + "-" * (_COLUMN + 1)
    line = "=" * (_COLUMN + 1) + "+" + "=" * (_COLUMN + 1)
    lines = [_row(f"WE ({we.name})", f"THEY ({they.name})"), rule]
    lines += [_points_row(column(we, i), column(they, i)) for i in range(height)]
    lines.append(line)

    games: dict[int, list[Entry]] = {}
    for entry in entries:
        games.setdefault(entry.game, [])
        if any(entry.below):
            games[entry.game].append(entry)
    closed = {entry.game for entry in entries if entry.completes_game}
    if finished_games is not None:
        closed = {game for game in games if game <= finished_games}
    for game, rows in sorted(games.items()):
        for entry in rows:
            lines.append(_points_row(entry.below[we] or None, entry.below[they] or None))
        if game in closed:
            lines.append(rule)
    if not games or max(games) in closed:
        lines.append(_row("", ""))
    lines.append(line)
    total = totals(entries, extra)
    lines.append(_points_row(total[we.name], total[they.name]))
    return "\n".join(line_.rstrip() for line_ in lines)


# ---------------------------------------------------------------- PBN tags


def score_rubber_tag(entry: Entry) -> str:
    """PBN ``ScoreRubber`` for one deal: ``"NS <above>/<below> EW <above>/<below>"``.

    PBN 2.1 §4.2.5: the score above the line (premiums), a slash, the score below
    the line (trick points), both non-negative; this writer always gives both
    sides in the ``NS ... EW ...`` form, which the standard allows.

    >>> from bridgescore.core import Vulnerability
    >>> e = Entry(1, 1, Result.parse("2H+1"), Side.NS, None, Vulnerability.NONE, 1, (60, 0),
    ...           (Premium(Side.NS, 30, "overtricks"),))
    >>> score_rubber_tag(e)
    'NS 30/60 EW 0/0'
    """
    above = [0, 0]
    for premium in entry.above:
        above[premium.side] += premium.points
    return " ".join(f"{side.name} {above[side]}/{entry.below[side]}" for side in Side)


def score_rubber_history_tag(
    before: Sequence[Entry], game: int, above_previous: tuple[int, int] = (0, 0)
) -> str:
    """PBN ``ScoreRubberHistory``: the rubber's score at the start of a deal.

    PBN 2.1 §4.2.6: ``"NS <HistoryScore> EW <HistoryScore>"`` with each
    ``<HistoryScore>`` = ``<above_previous> <above_current>/<below-1> [<below-2>
    [<below-3>]]``, one below-the-line figure per game so far (``game`` is the
    number of the game now in play, 1-3). ``before`` are the rubber's deals
    already played; ``above_previous`` each side's above-the-line points in
    earlier rubbers.
    """
    if not 1 <= game <= 3:
        raise RecordError(f"a rubber has games 1 to 3, not game {game}")
    _check_above_previous(above_previous)
    history = _History()
    for entry in before:
        history.add(entry)
    return history.tag(game, above_previous)


def score_rubber_history_tags(
    entries: Sequence[Entry], above_previous: tuple[int, int] = (0, 0)
) -> list[str]:
    """PBN ``ScoreRubberHistory`` at the start of each of a rubber's deals, in order.

    The same values as :func:`score_rubber_history_tag` for each deal and the deals
    before it (in the game of that deal), in one pass over the pad.
    """
    _check_above_previous(above_previous)
    history = _History()
    tags = []
    for entry in entries:
        tags.append(history.tag(entry.game, above_previous))
        history.add(entry)
    return tags


def _check_above_previous(above_previous: tuple[int, int]) -> None:
    if len(above_previous) != 2 or any(not is_whole_number(points, 0) for points in above_previous):
        raise RecordError(
            "above_previous must be two scores, NS's then EW's, each a whole number of "
            f"points, 0 or more; got {above_previous!r}"
        )


class _History:
    """A rubber's score so far, deal by deal: premiums and trick points in each game."""

    def __init__(self) -> None:
        self.above = [0, 0]
        self.below: list[list[int]] = [[], []]

    def add(self, entry: Entry) -> None:
        if not is_whole_number(entry.game, 1, 3):
            raise RecordError(
                f"deal {entry.number} is in game {entry.game!r}: a rubber has games 1 to 3"
            )
        for premium in entry.above:
            self.above[premium.side] += premium.points
        for side in Side:
            games = self.below[side]
            games.extend([0] * (entry.game - len(games)))
            games[entry.game - 1] += entry.below[side]

    def tag(self, game: int, above_previous: tuple[int, int]) -> str:
        """The tag at the start of a deal in ``game``: one figure for each game up to it."""
        if len(self.below[0]) > game:
            raise RecordError(
                f"a deal of game {len(self.below[0])} comes before game {game}: "
                "expected the rubber's deals in order"
            )
        figures = [
            " ".join(str(points) for points in (self.below[side] + [0] * game)[:game])
            for side in Side
        ]
        return " ".join(
            f"{side.name} {above_previous[side]} {self.above[side]}/{figures[side]}"
            for side in Side
        )
