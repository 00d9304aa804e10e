"""Scoring an event: travellers (each result with its score and MPs or IMPs) and rankings.

Pairs events: matchpoints (``mp``, Neuberg'd to the event's full board size),
Butler IMPs (``butler``) or cross-IMPs (``cross-imps``). Teams events: IMPs
(``imps``) or board-a-match (``bam``) between the two tables of each match. The
methods are data (:mod:`bridgescore.session.methods`): the scorer groups the
results, makes one comparison call for the whole event and shapes the answer.
Pure: takes an :class:`~bridgescore.session.event.Event` (and board pars when
known) and returns values.

>>> from bridgescore.session.event import Event, TableResult
>>> event = Event("demo", "pairs", results=(
...     TableResult.played(1, "1", "2", "4SN="), TableResult.played(1, "3", "4", "4SN+1")))
>>> [(s.name, s.total) for s in score_event(event, "mp").standings]
[('3', 2.0), ('1', 0.0), ('2', 2.0), ('4', 0.0)]
"""

from __future__ import annotations

import gc
from collections import defaultdict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from bridgescore.compare.scalar import TENTHS, Award, divide_half_away, imps, round_half_away
from bridgescore.errors import RecordError, ScoringMethodError
from bridgescore.formats.board import Board
from bridgescore.session.event import Event, Member, TableResult, natural_key
from bridgescore.session.event import ns_scores as event_ns_scores
from bridgescore.session.methods import (
    SCORING_METHODS,
    BoardScores,
    ScoringMethod,
    ScoringOptions,
    methods_for,
    scoring_method,
)

__all__ = [
    "METHODS",
    "Line",
    "Method",
    "ScoringOptions",
    "SessionScore",
    "Standing",
    "Traveller",
    "score_event",
]

Method = str
"""A scoring method's name, as users type it: one of :data:`METHODS`."""
METHODS: tuple[Method, ...] = tuple(SCORING_METHODS)


class Line(NamedTuple):
    """A scored traveller line: NS and EW points in the method's unit (None if unscored).

    A named tuple rather than a dataclass: an event has one per result, and
    these are several times cheaper to make.
    """

    result: TableResult
    ns_score: int | None
    ns: float | None
    ew: float | None
    ns_percent: float | None = None
    ew_percent: float | None = None
    imps_vs_par: int | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class Traveller:
    """One board's results (one section's, when scored per section)."""

    board: Board
    section: str
    lines: tuple[Line, ...]
    top: float | None = None
    par: int | None = None
    par_text: str = ""
    datum: float | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """A pair's or team's place: total, boards played and percentage (matchpoints)."""

    rank: str
    name: str
    section: str
    direction: str  # "NS", "EW" or "" when ranked overall
    total: float
    boards: int
    percent: float | None = None

    @property
    def average(self) -> float:
        return self.total / self.boards if self.boards else 0.0


@dataclass(frozen=True, slots=True)
class SessionScore:
    """The whole scored event. ``method`` is the method's name (``mp``, ``imps``...)."""

    name: str
    kind: str
    method: Method
    unit: str
    options: ScoringOptions
    travellers: tuple[Traveller, ...]
    standings: tuple[Standing, ...]
    notes: tuple[str, ...] = field(default=())
    scored_by: ScoringMethod | None = None  # set by score_event; else found by name
    # The players of each pair or team, when the event knows them (the event's members).
    members: Mapping[str, tuple[Member, ...]] = field(default_factory=dict)

    @property
    def scoring_method(self) -> ScoringMethod:
        """The :class:`~bridgescore.session.methods.ScoringMethod` the event was scored by."""
        return self.scored_by or scoring_method(self.method)

    def _repr_html_(self) -> str:
        """The ranking in a notebook: the text report's tables, in HTML."""
        from bridgescore.session.display import ranking_html

        return ranking_html(self)


@dataclass(frozen=True, slots=True)
class BoardPar:
    """A board's par (neutral convention), NS view, and its text form."""

    score: int
    text: str


def score_event(
    event: Event,
    method: Method | ScoringMethod,
    options: ScoringOptions | None = None,
    *,
    pars: Mapping[int, BoardPar] | None = None,
) -> SessionScore:
    """Score every board and rank the pairs or teams.

    ``method`` is a method's name or the method itself. Raises
    :class:`~bridgescore.errors.ScoringMethodError` for an unknown method or
    one that does not fit the event (matchpoints for a teams match, IMPs
    between two tables for pairs), and :class:`~bridgescore.errors.RecordError`
    for an event without results.
    """
    options = options or ScoringOptions()
    pars = pars or {}
    chosen = scoring_method(method)
    if chosen.kind != event.kind:
        raise ScoringMethodError(_misfit(event, chosen))
    if not event.results:
        raise RecordError(f"{event.name or 'the event'} has no results to score")
    score_kind = _score_teams if chosen.kind == "teams" else _score_pairs
    with _cyclic_gc_paused():
        travellers, standings, notes = score_kind(event, chosen, options, pars)
    return SessionScore(
        event.name,
        event.kind,
        chosen.name,
        chosen.unit,
        options,
        tuple(travellers),
        tuple(standings),
        tuple(notes),
        chosen,
        event.members,
    )


def _misfit(event: Event, method: ScoringMethod) -> str:
    """Why ``method`` cannot score ``event``, naming the methods that can."""
    fitting = [m.name for m in methods_for(event.kind)]
    choice = " or ".join([", ".join(fitting[:-1]), fitting[-1]]) if len(fitting) > 1 else fitting[0]
    text = f"{event.name or 'this event'} is a {event.kind} event: score it with {choice}"
    if event.kind == "pairs":
        teams = " and ".join(m.name for m in methods_for("teams"))
        text += f" ({teams} compare the two tables of a teams match)"
    return text


@contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while scoring builds its many small values.

    Scoring creates no reference cycles, but a big event allocates hundreds of
    thousands of objects, and each allocation burst triggers full collections
    that walk all of them: on 50,000 results that was over half the time.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _vs_par(ns_score: int | None, board: int, pars: Mapping[int, BoardPar]) -> int | None:
    par = pars.get(board)
    return None if par is None or ns_score is None else imps(ns_score - par.score)


# ------------------------------------------------------------------ pairs

# A comparison group: board, section ("" unless scored per section), fouled-board version.
GroupKey = tuple[int, str, str]


def _score_pairs(
    event: Event, method: ScoringMethod, options: ScoringOptions, pars: Mapping[int, BoardPar]
) -> tuple[list[Traveller], list[Standing], list[str]]:
    groups = _comparison_groups(event, options)
    keys = list(groups)
    sizes = _board_sizes(groups, options)
    # Every played contract of the event is scored in one array call.
    flat = event_ns_scores([r for members in groups.values() for r in members])
    scores: list[list[int | None]] = []
    start = 0
    for members in groups.values():
        scores.append(flat[start : start + len(members)])
        start += len(members)
    table, valid = _padded(scores)
    # ... and every group is compared in one call.
    compared = method.compare(
        BoardScores(table, valid, np.array(sizes, dtype=np.int64)), options
    ).tolist()
    tops = [float((size - 1) * options.unit) for size in sizes]
    points = _points(method, options, [groups[k] for k in keys], scores, compared, tops)

    travellers: dict[tuple[int, str], list[Line]] = defaultdict(list)
    board_tops: dict[tuple[int, str], float] = {}
    datums: dict[tuple[int, str], float] = {}  # shown when the board was not fouled
    for row, key in enumerate(keys):
        top = tops[row]
        board_tops[key[:2]] = top
        real = [p for p in scores[row] if p is not None]
        if method.datum is not None and not key[2] and real:
            datums[key[:2]] = method.datum(real, options)
        for col, result in enumerate(groups[key]):
            ns_shown, ew_shown = points[row][col]
            ns_score = scores[row][col]
            percent = method.shows_percent
            travellers[key[:2]].append(
                Line(
                    result,
                    ns_score,
                    ns_shown,
                    ew_shown,
                    ns_percent=_pct(ns_shown, top) if percent else None,
                    ew_percent=_pct(ew_shown, top) if percent else None,
                    imps_vs_par=_vs_par(ns_score, result.board, pars),
                    note=f"fouled version {result.variant}" if result.variant else "",
                )
            )
    out = [
        Traveller(
            event.board(board),
            section,
            tuple(sorted(lines, key=_line_order)),
            top=board_tops[(board, section)] if method.shows_percent else None,
            par=pars[board].score if board in pars else None,
            par_text=pars[board].text if board in pars else "",
            datum=datums.get((board, section)),
        )
        for (board, section), lines in sorted(travellers.items())
    ]
    return out, _pair_standings(out, method), []


def _comparison_groups(event: Event, options: ScoringOptions) -> dict[GroupKey, list[TableResult]]:
    """A board (in a section, when scored per section), split by fouled-board version."""
    groups: dict[GroupKey, list[TableResult]] = defaultdict(list)
    for result in event.results:
        section = result.section if options.per_section else ""
        groups[(result.board, section, result.variant)].append(result)
    return groups


def _board_sizes(
    groups: Mapping[GroupKey, list[TableResult]], options: ScoringOptions
) -> list[int]:
    """The size each group is Neuberg'd to: its section's full board size.

    Without Neuberg a group keeps its own size, so only its artificial scores
    (left out of the comparison) make it factored back up.
    """
    board_sizes: dict[tuple[int, str], int] = defaultdict(int)
    for (board, section, _), members in groups.items():
        board_sizes[(board, section)] += len(members)
    full: dict[str, int] = defaultdict(int)
    for (_, section), size in board_sizes.items():
        full[section] = max(full[section], size)
    return [
        full[section] if options.neuberg else len(members)
        for (_, section, _), members in groups.items()
    ]


def _padded(
    scores: list[list[int | None]],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """One matrix of groups x results, padded, and the mask of real scores."""
    width = max(len(row) for row in scores)
    # Python lists first: filling numpy arrays cell by cell is slow.
    padded: list[list[int]] = []
    present: list[list[bool]] = []
    for row in scores:
        fill = width - len(row)
        padded.append([0 if p is None else p for p in row] + [0] * fill)
        present.append([p is not None for p in row] + [False] * fill)
    return np.array(padded, dtype=np.int64), np.array(present, dtype=bool)


def _points(
    method: ScoringMethod,
    options: ScoringOptions,
    groups: list[list[TableResult]],
    scores: list[list[int | None]],
    compared: list[list[float]],
    tops: list[float],
) -> list[list[tuple[float, float]]]:
    """Each result's (NS, EW) points: compared, or the value of its artificial score.

    Real results come first: with the session-percentage variant an award
    depends on the pair's own share of the tops of the boards it played.
    """
    points: list[list[tuple[float, float]]] = []
    # Pair -> [tenths of an MP earned, tenths of the tops]: MPs are whole tenths,
    # so the pair's share is exact.
    earned: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    own_share = method.shows_percent and options.session_percentage
    for row, members in enumerate(groups):
        top = tops[row]
        line_points: list[tuple[float, float]] = []
        for col, result in enumerate(members):
            if scores[row][col] is None:
                line_points.append((0.0, 0.0))  # an award: valued below
                continue
            ns_value = compared[row][col]
            ew_value = method.ew_from_ns(ns_value, top)
            line_points.append((ns_value, ew_value))
            if own_share:
                for who, value in ((result.ns, ns_value), (result.ew, ew_value)):
                    entry = earned[(result.section, who)]
                    entry[0] += round(value * TENTHS)
                    entry[1] += round(top * TENTHS)
        points.append(line_points)
    for row, members in enumerate(groups):
        for col, result in enumerate(members):
            if result.adjusted is None:
                continue
            pair: list[float] = []
            for who, award in ((result.ns, result.adjusted.ns), (result.ew, result.adjusted.ew)):
                own = earned.get((result.section, who))
                share = Fraction(own[0], own[1]) if own and own[1] else None
                pair.append(method.award(award, tops[row], share, options))
            points[row][col] = (pair[0], pair[1])
    return points


@lru_cache(maxsize=4096)  # an event has few (points, top) pairs and one line each per result
def _pct(value: float | None, top: float) -> float | None:
    """``value`` as a percentage of ``top``, to 0.01 % with halves away from zero.

    Matchpoints and tops are whole tenths, so the percentage is taken exactly from
    them: 0.5 MP of a top of 16 is 3.125 %, shown 3.13 (a float printed to two
    decimals goes to the even digit, 3.12, and other halves either way by their
    binary error).
    """
    if value is None:
        return None
    return _hundredths(round(value * TENTHS), round(top * TENTHS)) if top else 50.0


def _hundredths(tenths: int, top_tenths: int) -> float:
    """``100 * tenths / top_tenths`` rounded to two decimals, halves away from zero."""
    return divide_half_away(100 * 100 * tenths, top_tenths) / 100


def _line_order(line: Line) -> tuple[object, ...]:
    return (
        line.result.variant,
        -(line.ns if line.ns is not None else -1e9),
        natural_key(line.result.ns),
    )


def _pair_standings(travellers: list[Traveller], method: ScoringMethod) -> list[Standing]:
    # Per pair: [points, boards, sum of tops]; matchpoints and tops are kept in whole
    # tenths (what they are: see _points), so totals and percentages are exact.
    exact = method.shows_percent
    totals: dict[tuple[str, str, str], list[float]] = {}
    for traveller in travellers:
        top = traveller.top or 0.0
        top_tenths = round(top * TENTHS) if exact else 0
        for line in traveller.lines:
            result = line.result
            for key, value in (
                ((result.section, result.ns, "NS"), line.ns),
                ((result.section, result.ew, "EW"), line.ew),
            ):
                points = round((value or 0.0) * TENTHS) if exact else value or 0.0
                entry = totals.get(key)
                if entry is None:
                    totals[key] = [points, 1, top_tenths if exact else top]
                else:
                    entry[0] += points
                    entry[1] += 1
                    entry[2] += top_tenths if exact else top
    directions: dict[tuple[str, str], set[str]] = defaultdict(set)
    for section, who, direction in totals:
        directions[(section, who)].add(direction)
    # Mitchell: every pair kept one direction, so rank each direction apart.
    mitchell = all(len(d) == 1 for d in directions.values())
    merged: dict[tuple[str, str, str], list[float]] = defaultdict(lambda: [0, 0, 0])
    for (section, who, direction), (total, boards, top_sum) in totals.items():
        entry = merged[(section, who, direction if mitchell else "")]
        entry[0] += total
        entry[1] += boards
        entry[2] += top_sum
    standings: list[Standing] = []
    for direction in ("NS", "EW") if mitchell else ("",):
        rows = [
            (
                name,
                section,
                total / TENTHS if exact else total,
                int(boards),
                # The exact share (a fraction of ints): ranked and tied exactly, and
                # rounded for show only once, halves away from zero.
                Fraction(int(total) * 100, int(top_sum)) if exact and top_sum else None,
            )
            for (section, name, d), (total, boards, top_sum) in merged.items()
            if d == direction
        ]
        # Matchpoints rank by percentage (pairs may play different numbers of boards).
        rows.sort(key=lambda r: (-(r[4] if r[4] is not None else r[2]), natural_key(r[1] + r[0])))
        standings.extend(_ranked(rows, direction))
    return standings


def _ranked(
    rows: list[tuple[str, str, float, int, Fraction | None]], direction: str
) -> list[Standing]:
    out: list[Standing] = []
    keys = [r[4] if r[4] is not None else round(r[2], 6) for r in rows]
    for i, (name, section, total, boards, percent) in enumerate(rows):
        first = keys.index(keys[i])
        tied = keys.count(keys[i]) > 1
        rank = f"{first + 1}{'=' if tied else ''}"
        out.append(
            Standing(
                rank,
                name,
                section,
                direction,
                round(total, 2),
                boards,
                None if percent is None else round_half_away(percent, 2),
            )
        )
    return out


# ------------------------------------------------------------------ teams


def _score_teams(
    event: Event, method: ScoringMethod, options: ScoringOptions, pars: Mapping[int, BoardPar]
) -> tuple[list[Traveller], list[Standing], list[str]]:
    by_table: dict[tuple[str, int, str, str], TableResult] = {}
    for result in event.results:
        by_table[(result.section, result.board, result.ns, result.ew)] = result
    tables = sorted(by_table.items())
    scores = dict(zip(by_table, event_ns_scores(list(by_table.values())), strict=True))
    # Each table against the other table of its match, all real ones in one call.
    compared_at: list[tuple[str, int, str, str]] = []
    for (section, board, ns, ew), result in tables:
        other = by_table.get((section, board, ew, ns))
        if other is not None and result.adjusted is None and other.adjusted is None:
            compared_at.append((section, board, ns, ew))
    pairs = [[scores[key], scores[(key[0], key[1], key[3], key[2])]] for key in compared_at]
    table = np.array(pairs, dtype=np.int64).reshape(-1, 2)
    values: dict[tuple[str, int, str, str], float] = {}
    if compared_at:
        every = np.ones(table.shape, dtype=bool)
        compared = method.compare(
            BoardScores(table, every, np.full(len(table), 2, np.int64)), options
        )
        values = dict(zip(compared_at, compared[:, 0].tolist(), strict=True))

    team_totals: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
    lines: dict[tuple[int, str], list[Line]] = defaultdict(list)
    notes: list[str] = []
    for key, result in tables:
        section, board, ns, ew = key
        other = by_table.get((section, board, ew, ns))
        value: float | None = None
        ew_value: float | None = None
        if other is None:
            notes.append(f"board {board}: {ns} v {ew} has no result at the other table; not scored")
        else:
            value = values[key] if key in values else _team_award(method, options, result, other)
            # A teams board has no top: the methods' EW points do not use one.
            ew_value = method.ew_from_ns(value, 0.0)
            # Each match board is counted once, from the table where the first team sat NS.
            if natural_key(ns) < natural_key(ew) or (
                natural_key(ns) == natural_key(ew) and ns < ew
            ):
                team_totals[(section, ns)][0] += value
                team_totals[(section, ew)][0] += ew_value
                team_totals[(section, ns)][1] += 1
                team_totals[(section, ew)][1] += 1
        points = scores[key]
        lines[(board, section)].append(
            Line(result, points, value, ew_value, imps_vs_par=_vs_par(points, board, pars))
        )
    travellers = [
        Traveller(
            event.board(board),
            section,
            tuple(sorted(found, key=lambda line: natural_key(line.result.ns))),
            par=pars[board].score if board in pars else None,
            par_text=pars[board].text if board in pars else "",
        )
        for (board, section), found in sorted(lines.items())
    ]
    rows: list[tuple[str, str, float, int, Fraction | None]] = [
        (name, section, total, int(boards), None)
        for (section, name), (total, boards) in team_totals.items()
    ]
    rows.sort(key=lambda r: (-r[2], natural_key(r[1] + r[0])))
    return travellers, _ranked(rows, ""), notes


def _team_award(
    method: ScoringMethod, options: ScoringOptions, here: TableResult, there: TableResult
) -> float:
    """What the NS team at ``here`` gets when a table of the match has an artificial score."""
    awards: list[Award] = []
    if here.adjusted is not None:
        awards.append(here.adjusted.ns)  # the team sat NS here
    if there.adjusted is not None:
        awards.append(there.adjusted.ew)  # and EW there
    worth = [method.award(award, 0.0, None, options) for award in awards]
    return sum(worth) if method.awards_add_up else sum(worth) / len(worth)
