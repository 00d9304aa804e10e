"""Rubber bridge scoring (docs/rules.md §2: rubber Laws 72-77 and 80).

:class:`RubberScore` is a scorepad for one rubber: record each deal with
:meth:`RubberScore.record`; it keeps trick points below the line game by game,
premiums above the line, the games won and so the vulnerability, and ends the
rubber with the 700 or 500 bonus when a side wins its second game.
:meth:`RubberScore.finish` settles a rubber that stops early (Law 80).
:class:`RubberEvening` keeps an evening of rubbers on one pad: a deal after a
finished rubber starts the next, and the evening adds the rubbers up.

The scoring itself lives in pure functions (:func:`rubber_entry`,
:func:`settle_unfinished`); the class keeps the list of frozen entries and a
running tally of games won and points below the line, so each deal recorded
costs the same however long the pad.

>>> pad = RubberScore()
>>> pad.record("2H+1", "NS").below
(60, 0)
>>> pad.record("3NT=", "EW").completes_game
True
>>> _ = pad.record("4HX-1", "EW")
>>> _ = pad.finish()
>>> pad.totals()
{'NS': 290, 'EW': 400}
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
    above_line,
    as_honors,
    as_result,
    as_side,
    deal_points,
    declaring_side,
    quote_result,
    render_pad,
    score_rubber_history_tags,
    score_rubber_tag,
    totals,
)
from bridgescore.scoring import LAW_2017, Rules
from bridgescore.validate import bool_arg, enum_arg, is_whole_number

__all__ = [
    "LAW_80",
    "Law80",
    "RubberEvening",
    "RubberScore",
    "rubber_entry",
    "settle_unfinished",
]

GAME = 100
RUBBER_2_0 = 700
RUBBER_2_1 = 500
RUBBER_BONUS = "rubber"
UNFINISHED_GAME = "unfinished rubber: game"
UNFINISHED_PARTSCORE = "unfinished rubber: partscore"


@dataclass(frozen=True, slots=True)
class Law80:
    """How an unfinished rubber is settled (docs/rules.md §2.4).

    ``game_bonus``: to the side that won the only completed game (300 by the law).
    ``partscore_bonus``: for a partscore in the unfinished game (100 by the law;
    50 in some older texts). ``each_side``: ``False`` (the law) gives it only when
    just one side has a partscore there; ``True`` (a popular variant) gives it to
    every side that has one.
    """

    game_bonus: int = 300
    partscore_bonus: int = 100
    each_side: bool = False

    def __post_init__(self) -> None:
        for name in ("game_bonus", "partscore_bonus"):
            value = getattr(self, name)
            if not is_whole_number(value, 0):
                raise NotationError(
                    f"{name} must be a whole number of points, 0 or more, got {value!r}"
                )
        bool_arg(self.each_side, "each_side", error=NotationError)


LAW_80 = Law80()
"""Law 80 as written: 300 for the only game, 100 when only one side has a partscore."""


def _games_won(entries: Sequence[Entry]) -> tuple[int, int]:
    won = [0, 0]
    for entry in entries:
        if entry.completes_game and entry.declarer is not None:
            won[entry.declarer] += 1
    return won[0], won[1]


def _current_below(entries: Sequence[Entry], game: int) -> tuple[int, int]:
    """Each side's trick points so far in ``game``."""
    below = [0, 0]
    for entry in entries:
        if entry.game == game:
            below[0] += entry.below[0]
            below[1] += entry.below[1]
    return below[0], below[1]


@dataclass(frozen=True, slots=True)
class _Tally:
    """Where a rubber stands between two deals: the games each side has won and
    each side's trick points in the game in play.

    :class:`RubberScore` keeps one and moves it on with every entry, so that
    recording a deal costs the same however many deals came before it (passed-out
    deals and contracts going down can make a pad as long as you like).
    """

    games: tuple[int, int] = (0, 0)
    below: tuple[int, int] = (0, 0)

    @classmethod
    def of(cls, entries: Sequence[Entry]) -> _Tally:
        """The tally after ``entries``, counted from the start."""
        games = _games_won(entries)
        return cls(games, _current_below(entries, 1 + sum(games)))

    @property
    def game(self) -> int:
        """The number of the game in play (one past the last if the rubber is over)."""
        return 1 + self.games[0] + self.games[1]

    @property
    def is_over(self) -> bool:
        return max(self.games) >= 2

    def after(self, entry: Entry) -> _Tally:
        """The tally once ``entry``, the next deal of this rubber, is on the pad."""
        if entry.completes_game and entry.declarer is not None:
            won = [self.games[0], self.games[1]]
            won[entry.declarer] += 1
            # A new game starts from nothing below the line.
            return _Tally((won[0], won[1]), (0, 0))
        if entry.game != self.game or not any(entry.below):
            return self
        below = (self.below[0] + entry.below[0], self.below[1] + entry.below[1])
        return _Tally(self.games, below)


def rubber_entry(
    before: Sequence[Entry],
    result: Result,
    declarer: Side | None,
    *,
    honors: Honors | None = None,
    first_dealer: Seat | str | None = None,
    rules: Rules = LAW_2017,
) -> Entry:
    """The pad entry of the next deal of a rubber, given the deals ``before`` it.

    Vulnerability comes from the games each side has won so far; the deal's trick
    points join its side's points in the current game, and reaching 100 wins the
    game (docs/rules.md §2.1). A second game won adds the rubber bonus (§2.3) to this
    entry. Raises :class:`RecordError` if the rubber is already over.
    """
    return _next_entry(
        _Tally.of(before),
        len(before) + 1,
        result,
        declarer,
        honors=honors,
        first_dealer=None if first_dealer is None else enum_arg(Seat, first_dealer, "first_dealer"),
        rules=rules,
    )


def _next_entry(
    tally: _Tally,
    number: int,
    result: Result,
    declarer: Side | None,
    *,
    honors: Honors | None,
    first_dealer: Seat | None,
    rules: Rules,
) -> Entry:
    """The entry of deal ``number``, the rubber standing at ``tally`` before it."""
    games = tally.games
    if tally.is_over:
        raise RecordError(
            f"the rubber is over ({_score_line(games)}): cannot record {str(result)!r}; "
            "start a new one"
        )
    if honors is not None:
        honors.check(result)
    vulnerability = Vulnerability.from_sides(games[Side.NS] > 0, games[Side.EW] > 0)
    vulnerable = declarer is not None and vulnerability.is_vulnerable(declarer)
    below, above = deal_points(result, declarer, vulnerable, honors, rules)
    completes = False
    if declarer is not None and below[declarer]:
        completes = tally.below[declarer] + below[declarer] >= GAME
    if completes and declarer is not None and games[declarer] == 1:
        bonus = RUBBER_2_0 if games[declarer.opponents] == 0 else RUBBER_2_1
        above += (Premium(declarer, bonus, RUBBER_BONUS),)
    dealer = None if first_dealer is None else first_dealer.rotate(number - 1)
    return Entry(
        number=number,
        deal=number,
        result=result,
        declarer=declarer,
        dealer=dealer,
        vulnerability=vulnerability,
        game=tally.game,
        below=below,
        above=above,
        completes_game=completes,
        honors=honors,
    )


def settle_unfinished(entries: Sequence[Entry], law80: Law80 = LAW_80) -> tuple[Premium, ...]:
    """The Law 80 premiums for a rubber that stops before a side wins two games.

    300 (``law80.game_bonus``) to a side that has won the only completed game;
    none when each side has won one. For partscores in the unfinished game:
    ``law80.partscore_bonus`` to the one side that has any (or, with
    ``law80.each_side``, to each side that has any).

    >>> from bridgescore.notation import Result
    >>> e = rubber_entry([], Result.parse("3NT="), Side.EW)
    >>> settle_unfinished([e])
    (Premium(side=Side.EW, points=300, kind='unfinished rubber: game'),)
    """
    return _settle(_Tally.of(entries), law80)


def _settle(tally: _Tally, law80: Law80) -> tuple[Premium, ...]:
    games = tally.games
    if tally.is_over:
        raise RecordError(
            f"the rubber is already finished ({_score_line(games)}): Law 80 does not apply"
        )
    premiums: list[Premium] = []
    if sorted(games) == [0, 1]:
        winner = Side.NS if games[Side.NS] else Side.EW
        if law80.game_bonus:
            premiums.append(Premium(winner, law80.game_bonus, UNFINISHED_GAME))
    with_partscore = [side for side in Side if tally.below[side] > 0]
    if law80.partscore_bonus and (law80.each_side or len(with_partscore) == 1):
        premiums += [
            Premium(side, law80.partscore_bonus, UNFINISHED_PARTSCORE) for side in with_partscore
        ]
    return tuple(premiums)


def _score_line(games: tuple[int, int]) -> str:
    return f"NS {games[0]} games, EW {games[1]}"


class RubberScore:
    """A rubber bridge scorepad (docs/rules.md §2).

    ``first_dealer`` (optional) lets the pad say who deals next; ``rules`` picks
    the Law 77 rule set for the per-deal values (the current one by default).

    >>> pad = RubberScore()
    >>> _ = pad.record("4S=", "NS"); _ = pad.record("3NT+1", "NS")
    >>> pad.is_finished, pad.games, pad.totals()
    (True, {'NS': 2, 'EW': 0}, {'NS': 950, 'EW': 0})
    """

    def __init__(self, *, first_dealer: Seat | str | None = None, rules: Rules = LAW_2017) -> None:
        if first_dealer is not None:
            first_dealer = enum_arg(Seat, first_dealer, "first_dealer")
        if not isinstance(rules, Rules):
            raise NotationError(f"rules must be a scoring Rules value, got {rules!r}")
        self.first_dealer = first_dealer
        self.rules = rules
        self._entries: list[Entry] = []
        self._tally = _Tally()
        self._settlement: tuple[Premium, ...] | None = None

    # -- recording

    def record(self, result: str | Result, by: object = None, *, honors: object = None) -> Entry:
        """Record one deal and return its entry.

        ``result``: text in any notation :func:`~bridgescore.parse_result` reads
        (``"4S+1"``, ``"3NTX-2"``, ``"Pass"``) or a :class:`Result`. ``by``: the
        declaring side (``"NS"``, ``"EW"``, a :class:`Side` or a declarer
        :class:`Seat`); it may be left out when the result names declarer.
        ``honors``: ``(side, points)`` for the side holding honours, or ``"NS 100"``.

        Raises :class:`NotationError` for unreadable input and :class:`RecordError`
        for a record the pad cannot take (the rubber is over, a side missing,
        honours impossible for the contract).
        """
        if self.is_finished:
            raise RecordError(
                f"the rubber is over: cannot record {quote_result(result)}; start a new one "
                "(a RubberEvening does)"
            )
        parsed = as_result(result)
        entry = _next_entry(
            self._tally,
            len(self._entries) + 1,
            parsed,
            declaring_side(parsed, by),
            honors=as_honors(honors),
            first_dealer=self.first_dealer,
            rules=self.rules,
        )
        self._entries.append(entry)
        self._tally = self._tally.after(entry)
        return entry

    def finish(
        self,
        *,
        game_bonus: int = LAW_80.game_bonus,
        partscore_bonus: int = LAW_80.partscore_bonus,
        each_side: bool = LAW_80.each_side,
    ) -> tuple[Premium, ...]:
        """Stop an unfinished rubber and score it by Law 80; returns the premiums.

        The defaults follow the law (300 for the only game; 100 when only one side
        has a partscore in the unfinished game); see :class:`Law80` for the
        variants. Raises :class:`RecordError` if the rubber is already over.
        """
        law80 = Law80(game_bonus, partscore_bonus, each_side)
        if self._settlement is not None:
            raise RecordError("the rubber was already settled by finish(): nothing more to score")
        self._settlement = _settle(self._tally, law80)
        return self._settlement

    # -- reading

    @property
    def entries(self) -> tuple[Entry, ...]:
        """Every deal recorded, in order."""
        return tuple(self._entries)

    @property
    def settlement(self) -> tuple[Premium, ...]:
        """The Law 80 premiums given by :meth:`finish` (empty if not called)."""
        return self._settlement or ()

    @property
    def games(self) -> dict[str, int]:
        """Games won: ``{"NS": k, "EW": k}``."""
        won = self._tally.games
        return {"NS": won[Side.NS], "EW": won[Side.EW]}

    @property
    def is_finished(self) -> bool:
        """True once a side has won two games, or after :meth:`finish`."""
        return self._settlement is not None or self._tally.is_over

    @property
    def winner(self) -> Side | None:
        """The side with more points once the rubber is over (None if tied or not over)."""
        if not self.is_finished:
            return None
        total = self.totals()
        if total["NS"] == total["EW"]:
            return None
        return Side.NS if total["NS"] > total["EW"] else Side.EW

    @property
    def vulnerability(self) -> Vulnerability:
        """Vulnerability now: a side that has won a game is vulnerable."""
        won = self._tally.games
        return Vulnerability.from_sides(won[Side.NS] > 0, won[Side.EW] > 0)

    @property
    def dealer(self) -> Seat | None:
        """The next dealer (None without ``first_dealer``); a passed-out deal passes the deal on."""
        if self.first_dealer is None:
            return None
        return self.first_dealer.rotate(len(self._entries))

    @property
    def game(self) -> int:
        """The number of the game in play (1-3); once a side has won two, the last game."""
        won = self._tally.games
        return sum(won) if max(won) >= 2 else 1 + sum(won)

    @property
    def below_line(self) -> dict[str, int]:
        """Each side's trick points so far in the game in play."""
        below = self._tally.below
        return {"NS": below[Side.NS], "EW": below[Side.EW]}

    def totals(self) -> dict[str, int]:
        """Each side's points, above and below the line: ``{"NS": int, "EW": int}``."""
        return totals(self._entries, self.settlement)

    def pad(self, *, we: Side | str = Side.NS) -> str:
        """The scorepad as text, "We" being ``we`` (NS by default)."""
        return render_pad(self._entries, self.settlement, we=_we(we))

    def pbn_tags(self, *, above_previous: tuple[int, int] = (0, 0)) -> list[dict[str, str]]:
        """PBN's ``ScoreRubber`` and ``ScoreRubberHistory`` for each deal recorded.

        ``above_previous`` is each side's (NS, EW) above-the-line points from earlier
        rubbers, the first figure of every ``ScoreRubberHistory``.
        """
        histories = score_rubber_history_tags(self._entries, above_previous)
        return [
            {"ScoreRubber": score_rubber_tag(entry), "ScoreRubberHistory": history}
            for entry, history in zip(self._entries, histories, strict=True)
        ]

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready summary: totals, games, state and every entry."""
        return {
            "totals": self.totals(),
            "games": self.games,
            "finished": self.is_finished,
            "winner": None if self.winner is None else self.winner.name,
            "vulnerability": str(self.vulnerability),
            "entries": [entry.as_dict() for entry in self._entries],
            "settlement": [premium.as_dict() for premium in self.settlement],
        }

    def __repr__(self) -> str:
        return (
            f"<RubberScore deals={len(self._entries)} games={self.games} "
            f"totals={self.totals()} finished={self.is_finished}>"
        )


def _we(we: Side | str) -> Side:
    return as_side(we)


class RubberEvening(Evening[RubberScore]):
    """An evening of rubbers on one pad: when a rubber ends, the next deal starts a new one.

    Each rubber is a :class:`RubberScore` of its own (its own games, vulnerability,
    rubber bonus); the evening adds them up. The deal passes round the table as
    usual, so a new rubber is dealt by the player after the last dealer of the one
    before (with ``first_dealer``). :meth:`finish` settles the rubber still in
    play by Law 80 when the evening ends.

    >>> evening = RubberEvening()
    >>> for deal in ("4S=", "3NT+1", "2H="):
    ...     _ = evening.record(deal, "NS")
    >>> [rubber.totals() for rubber in evening.rubbers], evening.totals()
    ([{'NS': 950, 'EW': 0}, {'NS': 60, 'EW': 0}], {'NS': 1010, 'EW': 0})
    """

    def __init__(self, *, first_dealer: Seat | None = None, rules: Rules = LAW_2017) -> None:
        super().__init__(RubberScore(first_dealer=first_dealer, rules=rules))
        self.first_dealer = first_dealer
        self.rules = rules
        self._closed = False

    def _next_pad(self, last: RubberScore) -> RubberScore:
        # The deal passes round the table as usual: the next rubber's first dealer
        # is the player after the last dealer of the one before.
        return RubberScore(first_dealer=last.dealer, rules=self.rules)

    def _check_open(self, result: str | Result) -> None:
        if self._closed:
            raise RecordError(
                f"the evening was closed by finish(): cannot record {quote_result(result)}"
            )

    def finish(
        self,
        *,
        game_bonus: int = LAW_80.game_bonus,
        partscore_bonus: int = LAW_80.partscore_bonus,
        each_side: bool = LAW_80.each_side,
    ) -> tuple[Premium, ...]:
        """End the evening: settle the rubber in play by Law 80 and return its premiums.

        Options as :meth:`RubberScore.finish`. Nothing to settle (an empty tuple)
        when the last rubber is over. Raises :class:`RecordError` when called twice.
        """
        Law80(game_bonus, partscore_bonus, each_side)  # bad options are refused in any case
        if self._closed:
            raise RecordError("the evening was already closed by finish()")
        current = self._pads[-1]
        settled: tuple[Premium, ...] = ()
        if not current.is_finished:
            settled = current.finish(
                game_bonus=game_bonus, partscore_bonus=partscore_bonus, each_side=each_side
            )
        self._closed = True
        return settled

    @property
    def rubbers(self) -> tuple[RubberScore, ...]:
        """The rubbers so far, the one in play last (one empty rubber before any deal)."""
        return tuple(self._pads)

    @property
    def rubber_number(self) -> int:
        """The number of the last rubber, from 1 (the rubber the last deal went to)."""
        return self.number

    @property
    def is_closed(self) -> bool:
        """True once :meth:`finish` has ended the evening."""
        return self._closed

    @property
    def dealer(self) -> Seat | None:
        """Who deals next (None without ``first_dealer``), across rubbers."""
        return self._pads[-1].dealer

    @property
    def vulnerability(self) -> Vulnerability:
        """Vulnerability on the next deal: none at the start of a new rubber."""
        current = self._pads[-1]
        return Vulnerability.NONE if current.is_finished else current.vulnerability

    def pbn_tags(self) -> list[dict[str, str]]:
        """PBN score tags for every deal of the evening, rubber after rubber.

        Each rubber's ``ScoreRubberHistory`` starts from the points above the line
        in the rubbers before it (PBN 2.1 §4.2.6, ``above_previous``).
        """
        tags: list[dict[str, str]] = []
        previous = (0, 0)
        for rubber in self._pads:
            tags += rubber.pbn_tags(above_previous=previous)
            above = above_line(rubber.entries, rubber.settlement)
            previous = (previous[0] + above[0], previous[1] + above[1])
        return tags

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready summary: the rubber in play as :meth:`RubberScore.as_dict` gives
        it, but with the evening's ``totals``, every deal's entry (with its ``rubber``
        number) and each rubber's totals and the evening's running total after it."""
        data = self.current.as_dict()
        data["totals"] = self.totals()
        data["entries"] = self._entries_dict("rubber")
        data["rubbers"] = [
            {
                "rubber": number,
                "deals": len(rubber.entries),
                "games": rubber.games,
                "finished": rubber.is_finished,
                "winner": None if rubber.winner is None else rubber.winner.name,
                "totals": rubber.totals(),
                "settlement": [premium.as_dict() for premium in rubber.settlement],
                "running_totals": running,
            }
            for number, rubber, running in self._numbered()
        ]
        return data

    def __repr__(self) -> str:
        return f"<RubberEvening rubbers={len(self._pads)} totals={self.totals()}>"
