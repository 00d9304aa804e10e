"""Scoring an event: travellers (each result with its score and MPs or IMPs) and rankings.

Pairs events: matchpoints (``mp``, Neuberg'd to the event's full board size),
Butler IMPs (``butler``) or cross-IMPs (``cross-imps``). Teams events: IMPs
(``imps``) or board-a-match (``bam``) between the two tables of each match.
Pure: takes an :class:`~bridgescore.session.event.Event` (and board pars when
known) and returns values; the real scores of all boards are compared at once
with the array forms of :mod:`bridgescore.comparearray`.

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
from typing import Literal, NamedTuple

import numpy as np

from bridgescore.compare import (
    Award,
    Divide,
    Scale,
    adjusted_imps,
    adjusted_percentage,
    board_a_match,
    butler_datum,
    imps,
)
from bridgescore.comparearray import butler_imps_array, cross_imps_array, matchpoints_array
from bridgescore.errors import BridgeError
from bridgescore.session.event import Board, Event, TableResult, natural_key
from bridgescore.session.event import ns_scores as event_ns_scores

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

Method = Literal["mp", "butler", "cross-imps", "imps", "bam"]
METHODS: tuple[Method, ...] = ("mp", "butler", "cross-imps", "imps", "bam")
PAIRS_METHODS = ("mp", "butler", "cross-imps")
TEAMS_METHODS = ("imps", "bam")
UNITS = {"mp": "MP", "butler": "IMP", "cross-imps": "IMP", "imps": "IMP", "bam": "BAM"}


@dataclass(frozen=True, slots=True)
class ScoringOptions:
    """The regulation choices of an event (see docs/sessions.md for the defaults)."""

    scale: Scale = "2/1"
    neuberg: bool = True  # factor boards with fewer (or artificial) results to the full size
    per_section: bool = False  # compare within each section instead of across the field
    exclude: int = 1  # Butler: scores dropped at each end before the datum
    rounding: int = 10  # Butler: datum rounded to this many points
    divide: Divide = "comparisons"  # cross-IMPs normalisation
    session_percentage: bool = False  # A+ = max(60 %, own %), A- = min(40 %, own %)
    adjusted_imps: int = 3  # IMPs for average plus (minus for average minus)


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
    """The whole scored event."""

    name: str
    kind: str
    method: Method
    unit: str
    options: ScoringOptions
    travellers: tuple[Traveller, ...]
    standings: tuple[Standing, ...]
    notes: tuple[str, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class BoardPar:
    """A board's par (neutral convention), NS view, and its text form."""

    score: int
    text: str


def score_event(
    event: Event,
    method: Method,
    options: ScoringOptions | None = None,
    *,
    pars: Mapping[int, BoardPar] | None = None,
) -> SessionScore:
    """Score every board and rank the pairs or teams.

    Raises :class:`~bridgescore.BridgeError` when the method does not fit the
    event (matchpoints for a teams match, IMPs between two tables for pairs).
    """
    options = options or ScoringOptions()
    pars = pars or {}
    if method not in METHODS:
        raise BridgeError(f"unknown scoring method {method!r}: expected {', '.join(METHODS)}")
    if event.kind == "teams" and method not in TEAMS_METHODS:
        raise BridgeError(
            f"{event.name or 'this event'} is a teams event: score it with imps or bam"
        )
    if event.kind == "pairs" and method not in PAIRS_METHODS:
        raise BridgeError(
            f"{event.name or 'this event'} is a pairs event: score it with mp, butler or "
            "cross-imps (imps and bam compare the two tables of a teams match)"
        )
    if not event.results:
        raise BridgeError(f"{event.name or 'the event'} has no results to score")
    with _cyclic_gc_paused():
        if method in TEAMS_METHODS:
            travellers, standings, notes = _score_teams(event, method, options, pars)
        else:
            travellers, standings, notes = _score_pairs(event, method, options, pars)
    return SessionScore(
        event.name,
        event.kind,
        method,
        UNITS[method],
        options,
        tuple(travellers),
        tuple(standings),
        tuple(notes),
    )


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


def _traveller_key(result: TableResult, options: ScoringOptions) -> tuple[int, str]:
    return (result.board, result.section if options.per_section else "")


# ------------------------------------------------------------------ pairs


def _score_pairs(
    event: Event, method: Method, options: ScoringOptions, pars: Mapping[int, BoardPar]
) -> tuple[list[Traveller], list[Standing], list[str]]:
    unit = 2 if options.scale == "2/1" else 1
    # Comparison groups: a board (in a section, when scored per section), split by
    # fouled-board version; each group is compared on its own.
    groups: dict[tuple[int, str, str], list[TableResult]] = defaultdict(list)
    for result in event.results:
        board, section = _traveller_key(result, options)
        groups[(board, section, result.variant)].append(result)
    board_sizes: dict[tuple[int, str], int] = defaultdict(int)
    for (board, section, _), members in groups.items():
        board_sizes[(board, section)] += len(members)
    full: dict[str, int] = defaultdict(int)  # the full board size of each section
    for (_, section), size in board_sizes.items():
        full[section] = max(full[section], size)

    keys = list(groups)
    # Every played contract of the event is scored in one array call.
    flat = event_ns_scores([r for members in groups.values() for r in members])
    group_scores: dict[tuple[int, str, str], list[int | None]] = {}
    start = 0
    for key, members in groups.items():
        group_scores[key] = flat[start : start + len(members)]
        start += len(members)
    width = max(len(members) for members in groups.values())
    # Python lists first: filling numpy arrays cell by cell is slow.
    padded: list[list[int]] = []
    present: list[list[bool]] = []
    sizes: list[int] = []
    for key in keys:
        # Neuberg to the section's full size; without it, only artificial
        # scores (left out of the comparison) make the board factored back up.
        sizes.append(full[key[1]] if options.neuberg else len(groups[key]))
        points_row = group_scores[key]
        fill = width - len(points_row)
        padded.append([0 if p is None else p for p in points_row] + [0] * fill)
        present.append([p is not None for p in points_row] + [False] * fill)
    table = np.array(padded, dtype=np.int64)
    valid = np.array(present, dtype=bool)
    expected = np.array(sizes, dtype=np.int64)
    if method == "mp":
        values = matchpoints_array(table, valid, scale=options.scale, expected=expected)
    elif method == "butler":
        values = butler_imps_array(
            table, valid, exclude=options.exclude, rounding=options.rounding
        ).astype(np.float64)
    else:
        values = cross_imps_array(table, valid, divide=options.divide)
    value_rows: list[list[float]] = values.tolist()

    # First pass: real results; artificial ones wait for the pairs' own percentages.
    scored: dict[tuple[int, int], tuple[float | None, float | None]] = {}
    earned: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
    own_percentage = method == "mp" and options.session_percentage
    for row, key in enumerate(keys):
        top = float((sizes[row] - 1) * unit)
        for col, result in enumerate(groups[key]):
            if not present[row][col]:
                continue
            ns_value = value_rows[row][col]
            ew_value = top - ns_value if method == "mp" else -ns_value
            scored[(row, col)] = (ns_value, ew_value)
            if own_percentage:
                for who, value in ((result.ns, ns_value), (result.ew, ew_value)):
                    earned[(result.section, who)][0] += value
                    earned[(result.section, who)][1] += top
    for row, key in enumerate(keys):
        top = float((sizes[row] - 1) * unit)
        for col, result in enumerate(groups[key]):
            if result.adjusted is None:
                continue
            pair: list[float | None] = []
            for who, award in ((result.ns, result.adjusted.ns), (result.ew, result.adjusted.ew)):
                if method == "mp":
                    own = earned.get((result.section, who))
                    session = 100 * own[0] / own[1] if own and own[1] else None
                    percent = adjusted_percentage(award, session_percentage=session)
                    pair.append(_round_tenth(percent * top / 100))
                else:
                    pair.append(float(adjusted_imps(award, options.adjusted_imps)))
            scored[(row, col)] = (pair[0], pair[1])

    travellers: dict[tuple[int, str], list[Line]] = defaultdict(list)
    tops: dict[tuple[int, str], float] = {}
    datums: dict[tuple[int, str], float] = {}  # Butler, shown when the board was not fouled
    for row, key in enumerate(keys):
        top = float((sizes[row] - 1) * unit)
        tops[key[:2]] = top
        if method == "butler" and not key[2]:
            real = [p for p in group_scores[key] if p is not None]
            if real:
                datums[key[:2]] = butler_datum(
                    real, exclude=options.exclude, rounding=options.rounding
                )
        for col, result in enumerate(groups[key]):
            ns_shown, ew_shown = scored[(row, col)]
            points = group_scores[key][col]
            is_mp = method == "mp"
            travellers[key[:2]].append(
                Line(
                    result,
                    points,
                    ns_shown,
                    ew_shown,
                    ns_percent=_pct(ns_shown, top) if is_mp else None,
                    ew_percent=_pct(ew_shown, top) if is_mp else None,
                    imps_vs_par=_vs_par(points, result.board, pars),
                    note=f"fouled version {result.variant}" if result.variant else "",
                )
            )
    out = [
        Traveller(
            event.board(board),
            section,
            tuple(sorted(lines, key=_line_order)),
            top=tops[(board, section)] if method == "mp" else None,
            par=pars[board].score if board in pars else None,
            par_text=pars[board].text if board in pars else "",
            datum=datums.get((board, section)),
        )
        for (board, section), lines in sorted(travellers.items())
    ]
    return out, _pair_standings(out, method), []


def _round_tenth(value: float) -> float:
    return float(np.round(value * 10) / 10)


def _pct(value: float | None, top: float) -> float | None:
    if value is None:
        return None
    return 100.0 * value / top if top else 50.0


def _line_order(line: Line) -> tuple[object, ...]:
    return (
        line.result.variant,
        -(line.ns if line.ns is not None else -1e9),
        natural_key(line.result.ns),
    )


def _pair_standings(travellers: list[Traveller], method: Method) -> list[Standing]:
    totals: dict[tuple[str, str, str], list[float]] = {}
    for traveller in travellers:
        top = traveller.top or 0.0
        for line in traveller.lines:
            result = line.result
            for key, value in (
                ((result.section, result.ns, "NS"), line.ns),
                ((result.section, result.ew, "EW"), line.ew),
            ):
                entry = totals.get(key)
                if entry is None:
                    totals[key] = [value or 0.0, 1.0, top]
                else:
                    entry[0] += value or 0.0
                    entry[1] += 1
                    entry[2] += top
    directions: dict[tuple[str, str], set[str]] = defaultdict(set)
    for section, who, direction in totals:
        directions[(section, who)].add(direction)
    # Mitchell: every pair kept one direction, so rank each direction apart.
    mitchell = all(len(d) == 1 for d in directions.values())
    merged: dict[tuple[str, str, str], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
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
                total,
                int(boards),
                100.0 * total / top_sum if method == "mp" and top_sum else None,
            )
            for (section, name, d), (total, boards, top_sum) in merged.items()
            if d == direction
        ]
        # Matchpoints rank by percentage (pairs may play different numbers of boards).
        rows.sort(key=lambda r: (-(r[4] if r[4] is not None else r[2]), natural_key(r[1] + r[0])))
        standings.extend(_ranked(rows, direction))
    return standings


def _ranked(
    rows: list[tuple[str, str, float, int, float | None]], direction: str
) -> list[Standing]:
    out: list[Standing] = []
    keys = [round(r[4] if r[4] is not None else r[2], 6) for r in rows]
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
                None if percent is None else round(percent, 2),
            )
        )
    return out


# ------------------------------------------------------------------ teams


def _score_teams(
    event: Event, method: Method, options: ScoringOptions, pars: Mapping[int, BoardPar]
) -> tuple[list[Traveller], list[Standing], list[str]]:
    by_table: dict[tuple[str, int, str, str], TableResult] = {}
    for result in event.results:
        by_table[(result.section, result.board, result.ns, result.ew)] = result
    team_totals: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
    lines: dict[tuple[int, str], list[Line]] = defaultdict(list)
    notes: list[str] = []
    for (section, board, ns, ew), result in sorted(by_table.items()):
        other = by_table.get((section, board, ew, ns))
        points = result.ns_score()
        value: float | None = None
        if other is None:
            notes.append(f"board {board}: {ns} v {ew} has no result at the other table; not scored")
        else:
            value = _team_value(result, other, method, options)
            # Each match board is counted once, from the table where the first team sat NS.
            if natural_key(ns) < natural_key(ew) or (
                natural_key(ns) == natural_key(ew) and ns < ew
            ):
                opponent = 1.0 if method == "bam" else 0.0
                team_totals[(section, ns)][0] += value
                team_totals[(section, ew)][0] += opponent - value if method == "bam" else -value
                team_totals[(section, ns)][1] += 1
                team_totals[(section, ew)][1] += 1
        ew_value = None if value is None else (1.0 - value if method == "bam" else -value)
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
    rows: list[tuple[str, str, float, int, float | None]] = [
        (name, section, total, int(boards), None)
        for (section, name), (total, boards) in team_totals.items()
    ]
    rows.sort(key=lambda r: (-r[2], natural_key(r[1] + r[0])))
    return travellers, _ranked(rows, ""), notes


def _team_value(
    here: TableResult, there: TableResult, method: Method, options: ScoringOptions
) -> float:
    """What the NS team at ``here`` wins on the board, against ``there`` (the other table)."""
    awards: list[Award] = []
    if here.adjusted is not None:
        awards.append(here.adjusted.ns)  # the team sat NS here
    if there.adjusted is not None:
        awards.append(there.adjusted.ew)  # and EW there
    if awards:
        if method == "bam":
            return sum(adjusted_percentage(a) / 100 for a in awards) / len(awards)
        return float(sum(adjusted_imps(a, options.adjusted_imps) for a in awards))
    s1, s2 = here.ns_score(), there.ns_score()
    assert s1 is not None and s2 is not None
    return board_a_match(s1, s2) if method == "bam" else float(imps(s1 - s2))
