"""Chicago (four-deal bridge) scoring (docs/rules.md §3).

:class:`ChicagoScore` is a scorepad for one round of four deals. The schedule
fixes each deal's dealer and vulnerability; partscores carry toward game from
deal to deal, a game earns 300 or 500 at once (by the vulnerability on the deal
that completes it), and a partscore on deal 4 that does not complete a game
earns 100. A passed-out deal is redealt by the same dealer and does not count.
The club variants of docs/rules.md §3.4 and the honours flag are options.
:class:`ChicagoEvening` keeps an evening of rounds on one pad, each totalled on
its own and then added up.

>>> pad = ChicagoScore()
>>> _ = pad.record("2H=", "NS"); _ = pad.record("2S=", "NS")
>>> pad.totals(), pad.deal_number, pad.dealer, pad.vulnerability
({'NS': 420, 'EW': 0}, 3, Seat.SOUTH, Vulnerability.NS)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bridgescore.core import Seat, Side, Vulnerability
from bridgescore.errors import NotationError, RecordError
from bridgescore.notation import Result
from bridgescore.pads.scorepad import (
    Entry,
    Evening,
    Honors,
    Premium,
    as_honors,
    as_result,
    as_side,
    deal_points,
    declaring_side,
    quote_result,
    render_pad,
    score_rubber_tag,
    totals,
)
from bridgescore.scoring import LAW_2017, Rules
from bridgescore.validate import bool_arg, enum_arg, is_whole_number

__all__ = [
    "ACBL_CHICAGO",
    "DUPLICATE_STYLE",
    "SCHEDULES",
    "ChicagoEvening",
    "ChicagoRules",
    "ChicagoScore",
    "chicago_dealer",
    "chicago_entry",
    "chicago_vulnerability",
]

DEALS = 4
GAME = 100
SCHEDULES = ("standard", "switched")
GAME_PREMIUM = "game"
PARTSCORE_PREMIUM = "partscore"
FOURTH_DEAL_PREMIUM = "deal 4 partscore"


@dataclass(frozen=True, slots=True)
class ChicagoRules:
    """The Chicago variant in force (docs/rules.md §3.2 and §3.4).

    ``carry_partscores``: partscores add up toward game across the deals (True);
    False scores each deal on its own, as in duplicate. ``partscore_premium``: for
    any partscore that does not complete a game (0; some clubs give 50).
    ``fourth_deal_premium``: for such a partscore on deal 4 (100; 0 for "no deal-4
    premium"). ``honors``: whether honours score, as in rubber (True).
    ``rules``: the Law 77 rule set for the per-deal values.
    """

    carry_partscores: bool = True
    partscore_premium: int = 0
    fourth_deal_premium: int = 100
    honors: bool = True
    rules: Rules = LAW_2017

    def __post_init__(self) -> None:
        for name in ("carry_partscores", "honors"):
            bool_arg(getattr(self, name), name, error=NotationError)
        for name in ("partscore_premium", "fourth_deal_premium"):
            value = getattr(self, name)
            if not is_whole_number(value, 0):
                raise NotationError(
                    f"{name} must be a whole number of points, 0 or more, got {value!r}"
                )
        if not isinstance(self.rules, Rules):
            raise NotationError(f"rules must be a scoring Rules value, got {self.rules!r}")


ACBL_CHICAGO = ChicagoRules()
"""The ACBL four-deal text: carry-over, 100 for a deal-4 partscore, honours scored."""

DUPLICATE_STYLE = ChicagoRules(
    carry_partscores=False, partscore_premium=50, fourth_deal_premium=0, honors=False
)
"""Each deal scored exactly as in duplicate (§1); only the schedule differs."""


def _check_schedule(schedule: str) -> str:
    if schedule not in SCHEDULES:
        raise NotationError(
            f"unknown Chicago schedule {schedule!r}: expected 'standard' (dealer's side "
            "vulnerable on deals 2 and 3) or 'switched' (the other side)"
        )
    return schedule


def _check_deal(deal: int) -> None:
    if not is_whole_number(deal, 1, DEALS):
        raise RecordError(f"Chicago has deals 1 to 4, not deal {deal!r}")


def chicago_dealer(deal: int, first_dealer: Seat | str = Seat.NORTH) -> Seat:
    """The dealer of deal 1-4: the first dealer, then clockwise.

    >>> chicago_dealer(3, Seat.NORTH)
    Seat.SOUTH
    """
    _check_deal(deal)
    return enum_arg(Seat, first_dealer, "first_dealer").rotate(deal - 1)


def chicago_vulnerability(
    deal: int, first_dealer: Seat | str = Seat.NORTH, schedule: str = "standard"
) -> Vulnerability:
    """Who is vulnerable on deal 1-4 (docs/rules.md §3.1).

    Deal 1 none, deal 4 both; on deals 2 and 3 the dealer's side ("standard",
    the ACBL default) or the other side ("switched").

    >>> chicago_vulnerability(2, Seat.NORTH), chicago_vulnerability(2, Seat.NORTH, "switched")
    (Vulnerability.EW, Vulnerability.NS)
    """
    _check_schedule(schedule)
    if deal == 1 or deal == DEALS:
        _check_deal(deal)
        return Vulnerability.NONE if deal == 1 else Vulnerability.BOTH
    side = chicago_dealer(deal, first_dealer).side
    if schedule == "switched":
        side = side.opponents
    return Vulnerability.from_sides(side is Side.NS, side is Side.EW)


def _deals_played(entries: Sequence[Entry]) -> int:
    return sum(1 for entry in entries if entry.declarer is not None)


@dataclass(frozen=True, slots=True)
class _Tally:
    """Where a Chicago round stands between two records: deals played, games
    completed and each side's trick points toward the game in play.

    :class:`ChicagoScore` keeps one and moves it on with every entry, so that a
    record costs the same however many passed-out deals came before it.
    """

    deals_played: int = 0
    games_closed: int = 0
    below: tuple[int, int] = (0, 0)

    @classmethod
    def of(cls, entries: Sequence[Entry]) -> _Tally:
        """The tally after ``entries``, counted from the start."""
        games_closed = sum(1 for entry in entries if entry.completes_game)
        below = [0, 0]
        for entry in entries:
            if entry.game == 1 + games_closed:
                below[0] += entry.below[0]
                below[1] += entry.below[1]
        return cls(_deals_played(entries), games_closed, (below[0], below[1]))

    def after(self, entry: Entry) -> _Tally:
        """The tally once ``entry``, the next record of this round, is on the pad."""
        played = self.deals_played + (entry.declarer is not None)
        if entry.completes_game:
            # The next game starts from nothing below the line.
            return _Tally(played, self.games_closed + 1, (0, 0))
        below = self.below
        if entry.game == 1 + self.games_closed:
            below = (below[0] + entry.below[0], below[1] + entry.below[1])
        return _Tally(played, self.games_closed, below)


def chicago_entry(
    before: Sequence[Entry],
    result: Result,
    declarer: Side | None,
    *,
    honors: Honors | None = None,
    first_dealer: Seat | str = Seat.NORTH,
    schedule: str = "standard",
    options: ChicagoRules = ACBL_CHICAGO,
) -> Entry:
    """The pad entry of the next deal of a Chicago round, given the deals ``before`` it.

    Raises :class:`RecordError` once four deals have been played, and for honours
    when ``options.honors`` is off.
    """
    return _next_entry(
        _Tally.of(before),
        len(before) + 1,
        result,
        declarer,
        honors=honors,
        first_dealer=enum_arg(Seat, first_dealer, "first_dealer"),
        schedule=schedule,
        options=options,
    )


def _next_entry(
    tally: _Tally,
    number: int,
    result: Result,
    declarer: Side | None,
    *,
    honors: Honors | None,
    first_dealer: Seat,
    schedule: str,
    options: ChicagoRules,
) -> Entry:
    """The entry of record ``number``, the round standing at ``tally`` before it."""
    deal = tally.deals_played + 1
    if deal > DEALS:
        raise RecordError(
            f"the Chicago round is over (four deals played): cannot record {str(result)!r}; "
            "start a new round"
        )
    if honors is not None:
        if not options.honors:
            raise RecordError(
                f"honours {honors} given, but this Chicago variant does not score them"
            )
        honors.check(result)
    vulnerability = chicago_vulnerability(deal, first_dealer, schedule)
    vulnerable = declarer is not None and vulnerability.is_vulnerable(declarer)
    below, above = deal_points(result, declarer, vulnerable, honors, options.rules)
    # Without carry-over every deal is a game of its own on the pad.
    game = 1 + tally.games_closed if options.carry_partscores else deal
    completes = False
    if declarer is not None and below[declarer]:
        running = below[declarer]
        if options.carry_partscores:
            running += tally.below[declarer]
        if running >= GAME:
            completes = True
            premium = 500 if vulnerable else 300
            above += (Premium(declarer, premium, GAME_PREMIUM),)
        else:
            if options.partscore_premium:
                above += (Premium(declarer, options.partscore_premium, PARTSCORE_PREMIUM),)
            if deal == DEALS and options.fourth_deal_premium:
                above += (Premium(declarer, options.fourth_deal_premium, FOURTH_DEAL_PREMIUM),)
    return Entry(
        number=number,
        deal=deal,
        result=result,
        declarer=declarer,
        dealer=chicago_dealer(deal, first_dealer),
        vulnerability=vulnerability,
        game=game,
        below=below,
        above=above,
        completes_game=completes,
        honors=honors,
    )


class ChicagoScore:
    """A Chicago scorepad for one round of four deals (docs/rules.md §3).

    ``first_dealer`` deals deal 1; ``schedule`` is ``"standard"`` (ACBL: the
    dealer's side vulnerable on deals 2 and 3) or ``"switched"``. The keyword
    options are those of :class:`ChicagoRules`, with its defaults (the ACBL text,
    honours scored); ``variant=DUPLICATE_STYLE`` (or another :class:`ChicagoRules`)
    sets them all at once.

    >>> pad = ChicagoScore(schedule="switched")
    >>> pad.record("4S=", "NS").above
    (Premium(side=Side.NS, points=300, kind='game'),)
    """

    def __init__(
        self,
        first_dealer: Seat | str = Seat.NORTH,
        schedule: str = "standard",
        *,
        variant: ChicagoRules | None = None,
        carry_partscores: bool | None = None,
        partscore_premium: int | None = None,
        fourth_deal_premium: int | None = None,
        honors: bool | None = None,
        rules: Rules | None = None,
    ) -> None:
        base = ACBL_CHICAGO if variant is None else variant
        if not isinstance(base, ChicagoRules):
            raise NotationError(f"variant must be a ChicagoRules value, got {variant!r}")
        self.first_dealer = enum_arg(Seat, first_dealer, "first_dealer")
        self.schedule = _check_schedule(schedule)
        self.options = ChicagoRules(
            carry_partscores=base.carry_partscores
            if carry_partscores is None
            else carry_partscores,
            partscore_premium=(
                base.partscore_premium if partscore_premium is None else partscore_premium
            ),
            fourth_deal_premium=(
                base.fourth_deal_premium if fourth_deal_premium is None else fourth_deal_premium
            ),
            honors=base.honors if honors is None else honors,
            rules=base.rules if rules is None else rules,
        )
        self._entries: list[Entry] = []
        self._tally = _Tally()

    def record(self, result: str | Result, by: object = None, *, honors: object = None) -> Entry:
        """Record one deal (or a passed-out one, redealt by the same dealer).

        Arguments as :meth:`bridgescore.RubberScore.record`. Raises
        :class:`RecordError` once the four deals have been played.
        """
        if self.is_finished:
            raise RecordError(
                "the Chicago round is over (four deals played): cannot record "
                f"{quote_result(result)}; start a new round (a ChicagoEvening does)"
            )
        parsed = as_result(result)
        entry = _next_entry(
            self._tally,
            len(self._entries) + 1,
            parsed,
            declaring_side(parsed, by),
            honors=as_honors(honors),
            first_dealer=self.first_dealer,
            schedule=self.schedule,
            options=self.options,
        )
        self._entries.append(entry)
        self._tally = self._tally.after(entry)
        return entry

    @property
    def entries(self) -> tuple[Entry, ...]:
        """Every record, passed-out deals included, in order."""
        return tuple(self._entries)

    @property
    def deals_played(self) -> int:
        """Deals played so far, 0-4 (passed-out deals do not count)."""
        return self._tally.deals_played

    @property
    def is_finished(self) -> bool:
        return self.deals_played >= DEALS

    def _next_deal(self) -> int:
        if self.is_finished:
            raise RecordError("the Chicago round is over: there is no next deal")
        return self.deals_played + 1

    @property
    def deal_number(self) -> int:
        """The number (1-4) of the deal to play next; :class:`RecordError` after deal 4."""
        return self._next_deal()

    @property
    def dealer(self) -> Seat:
        """Who deals next; :class:`RecordError` after deal 4."""
        return chicago_dealer(self._next_deal(), self.first_dealer)

    @property
    def vulnerability(self) -> Vulnerability:
        """The next deal's vulnerability; :class:`RecordError` after deal 4."""
        return chicago_vulnerability(self._next_deal(), self.first_dealer, self.schedule)

    def totals(self) -> dict[str, int]:
        """Each side's points for the round: ``{"NS": int, "EW": int}``."""
        return totals(self._entries)

    def pad(self, *, we: Side | str = Side.NS) -> str:
        """The scorepad as text, "We" being ``we`` (NS by default)."""
        closed = None if self.options.carry_partscores else self.deals_played
        return render_pad(self._entries, we=as_side(we), finished_games=closed)

    def pbn_tags(self) -> list[dict[str, str]]:
        """PBN's ``ScoreRubber`` for each deal (``ScoreRubberHistory`` is for rubbers only)."""
        return [{"ScoreRubber": score_rubber_tag(entry)} for entry in self._entries]

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready summary: totals, state, options and every entry."""
        return {
            "totals": self.totals(),
            "finished": self.is_finished,
            "deals_played": self.deals_played,
            "first_dealer": self.first_dealer.letter,
            "schedule": self.schedule,
            "options": {
                "carry_partscores": self.options.carry_partscores,
                "partscore_premium": self.options.partscore_premium,
                "fourth_deal_premium": self.options.fourth_deal_premium,
                "honors": self.options.honors,
            },
            "entries": [entry.as_dict() for entry in self._entries],
        }

    def __repr__(self) -> str:
        return (
            f"<ChicagoScore deals_played={self.deals_played} totals={self.totals()} "
            f"finished={self.is_finished}>"
        )


class ChicagoEvening(Evening[ChicagoScore]):
    """An evening of Chicago rounds on one pad: after four deals the next starts a new round.

    Rounds repeat the schedule (docs/rules.md §3.1: "a multiple of four deals can be
    played, repeating the sequence of vulnerabilities"), and each round is totalled
    on its own, with no partscore carried into the next; the evening adds them up.
    Every round is dealt first by ``first_dealer``: four deals played take the deal
    once round the table (a passed-out deal is redealt by the same player), so
    the rotation comes back to the first dealer. Arguments as :class:`ChicagoScore`.

    >>> evening = ChicagoEvening()     # 40, 80, 120 is game (NS vul on deal 3), deal 4 +100
    >>> for deal in ("1NT=", "1NT=", "1NT=", "1NT=", "2H="):
    ...     _ = evening.record(deal, "NS")
    >>> [r.totals() for r in evening.rounds], evening.totals(), evening.dealer
    ([{'NS': 760, 'EW': 0}, {'NS': 60, 'EW': 0}], {'NS': 820, 'EW': 0}, Seat.EAST)
    """

    def __init__(
        self,
        first_dealer: Seat = Seat.NORTH,
        schedule: str = "standard",
        *,
        variant: ChicagoRules | None = None,
        carry_partscores: bool | None = None,
        partscore_premium: int | None = None,
        fourth_deal_premium: int | None = None,
        honors: bool | None = None,
        rules: Rules | None = None,
    ) -> None:
        first = ChicagoScore(
            first_dealer,
            schedule,
            variant=variant,
            carry_partscores=carry_partscores,
            partscore_premium=partscore_premium,
            fourth_deal_premium=fourth_deal_premium,
            honors=honors,
            rules=rules,
        )
        super().__init__(first)
        self.first_dealer = first.first_dealer
        self.schedule = first.schedule
        self.options = first.options

    def _next_pad(self, last: ChicagoScore) -> ChicagoScore:
        # Every round starts again from the first dealer, with the same options.
        return ChicagoScore(self.first_dealer, self.schedule, variant=self.options)

    @property
    def rounds(self) -> tuple[ChicagoScore, ...]:
        """The rounds so far, the one in play last (one empty round before any deal)."""
        return tuple(self._pads)

    @property
    def round_number(self) -> int:
        """The number of the last round, from 1 (the round the last record went to)."""
        return self.number

    @property
    def deal_number(self) -> int:
        """The number (1-4) of the next deal in its round (1 once a round is over)."""
        current = self._pads[-1]
        return 1 if current.is_finished else current.deal_number

    @property
    def dealer(self) -> Seat:
        """Who deals next."""
        return chicago_dealer(self.deal_number, self.first_dealer)

    @property
    def vulnerability(self) -> Vulnerability:
        """The next deal's vulnerability, from the schedule."""
        return chicago_vulnerability(self.deal_number, self.first_dealer, self.schedule)

    def pbn_tags(self) -> list[dict[str, str]]:
        """PBN's ``ScoreRubber`` for every deal of the evening, round after round."""
        return [tags for pad in self._pads for tags in pad.pbn_tags()]

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready summary: the round in play as :meth:`ChicagoScore.as_dict` gives
        it, but with the evening's ``totals``, every record's entry (with its ``round``
        number) and each round's totals and the evening's running total after it."""
        data = self.current.as_dict()
        data["totals"] = self.totals()
        data["entries"] = self._entries_dict("round")
        data["rounds"] = [
            {
                "round": number,
                "deals_played": pad.deals_played,
                "finished": pad.is_finished,
                "totals": pad.totals(),
                "running_totals": running,
            }
            for number, pad, running in self._numbered()
        ]
        return data

    def __repr__(self) -> str:
        return f"<ChicagoEvening rounds={len(self._pads)} totals={self.totals()}>"
