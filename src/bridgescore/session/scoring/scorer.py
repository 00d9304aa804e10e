"""Scoring an event: travellers (each result with its score and MPs or IMPs) and rankings.

Pairs events: matchpoints (``mp``, Neuberg'd to the event's full board size),
Butler IMPs (``butler``) or cross-IMPs (``cross-imps``). Teams events: IMPs
(``imps``) or board-a-match (``bam``) between the two tables of each match. The
methods are data (:mod:`bridgescore.session.scoring.methods`): the scorer groups the
results, makes one comparison call for the whole event and shapes the answer.
Pure: takes an :class:`~bridgescore.session.scoring.event.Event` (and board pars when
known) and returns values.

>>> from bridgescore.session.scoring.event import Event, TableResult
>>> event = Event("demo", "pairs", results=(
...     TableResult.played(1, "1", "2", "4SN="), TableResult.played(1, "3", "4", "4SN+1")))
>>> [(s.name, s.total) for s in score_event(event, "mp").standings]
[('3', 2.0), ('1', 0.0), ('2', 2.0), ('4', 0.0)]
"""

from __future__ import annotations

import gc
from abc import ABC, abstractmethod
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple, overload

import numpy as np
import numpy.typing as npt

from bridgescore.compare.array import imps_array
from bridgescore.compare.scalar import TENTHS, Award, divide_half_away, imps, round_half_away
from bridgescore.core import Vulnerability
from bridgescore.errors import RecordError, ScoringMethodError
from bridgescore.formats.board import Board
from bridgescore.session.scoring.event import (
    Event,
    Member,
    TableResult,
    natural_key,
    result_columns,
)
from bridgescore.session.scoring.matches import Match, scored_match
from bridgescore.session.scoring.methods import (
    BoardScores,
    Method,
    ScoringMethod,
    ScoringOptions,
    methods_for,
    scoring_method,
)
from bridgescore.session.scoring.weighing import parts_of, weigh, weigh_match, weighted_cells

__all__ = [
    "Line",
    "SessionScore",
    "Standing",
    "Traveller",
    "score_event",
]


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
    lines: Sequence[Line]
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
    # Scored in victory points: each match, its IMPs and VPs (else empty).
    matches: tuple[Match, ...] = ()

    @property
    def scoring_method(self) -> ScoringMethod:
        """The event's scoring method
        (:class:`~bridgescore.session.scoring.methods.ScoringMethod`)."""
        return self.scored_by or scoring_method(self.method)

    @property
    def ranking_unit(self) -> str:
        """What the ranking's totals count (VPs when matches are scored in VPs)."""
        return self.scoring_method.ranking_unit

    def _repr_html_(self) -> str:
        """The ranking in a notebook: the text report's tables, in HTML."""
        from bridgescore.session.reports.display import ranking_html

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
    matches: list[Match] = []
    with _cyclic_gc_paused():
        if chosen.kind == "teams":
            travellers, standings, notes = _score_teams(event, chosen, options, pars, matches)
        else:
            travellers, standings, notes = _score_pairs(event, chosen, options, pars)
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
        tuple(matches),
    )


def _misfit(event: Event, method: ScoringMethod) -> str:
    """Why ``method`` cannot score ``event``, naming the methods that can."""
    fitting = [m.name for m in methods_for(event.kind)]
    text = f"{event.name or 'this event'} is a {event.kind} event: score it with "
    text += _listed(fitting, "or")
    if event.kind == "pairs":
        teams = _listed([m.name for m in methods_for("teams")], "and")
        text += f" ({teams} compare the two tables of a teams match)"
    return text


def _listed(names: list[str], word: str) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return f"{', '.join(names[:-1])} {word} {names[-1]}" if len(names) > 1 else names[0]


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


class Lines(Sequence[Line]):
    """A traveller's lines, made when first read.

    Scoring keeps every result's points in arrays; a report reads the lines of every
    traveller, but a live ranking reads none, so each traveller's :class:`Line`
    values are made from the arrays on first use (and kept).
    """

    __slots__ = ("_lines", "_make")

    def __init__(self, make: Callable[[], tuple[Line, ...]]) -> None:
        self._make: Callable[[], tuple[Line, ...]] | None = make
        self._lines: tuple[Line, ...] = ()

    def _all(self) -> tuple[Line, ...]:
        if self._make is not None:
            self._lines = self._make()
            self._make = None
        return self._lines

    @overload
    def __getitem__(self, index: int) -> Line: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Line, ...]: ...

    def __getitem__(self, index: int | slice) -> Line | tuple[Line, ...]:
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[Line]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Lines):
            return self._all() == other._all()
        return self._all() == other

    def __hash__(self) -> int:
        return hash(self._all())

    def __repr__(self) -> str:
        return repr(self._all())


@dataclass(frozen=True)
class _Columns:
    """The event's results as columns, in event order, and their comparison groups.

    ``group`` numbers each result's group in order of first appearance (the order
    the scorer has always compared and listed them in); ``position`` is its place
    within the group.
    """

    results: tuple[TableResult, ...]
    boards: npt.NDArray[np.int64]
    score_array: npt.NDArray[np.int64]
    real: npt.NDArray[np.bool_]
    group: npt.NDArray[np.intp]
    position: npt.NDArray[np.intp]
    keys: list[GroupKey]
    counts: npt.NDArray[np.intp]
    # Every pair (or team) named, in order of first appearance, NS names before EW's;
    # each result's NS and EW pair by number; the sections likewise.
    names: list[str]
    ns_code: npt.NDArray[np.intp]
    ew_code: npt.NDArray[np.intp]
    sections: list[str]
    section_code: npt.NDArray[np.intp]

    @classmethod
    def of(cls, event: Event, options: ScoringOptions) -> _Columns:
        results = event.results
        count = len(results)
        read = result_columns(results, event.boards)
        boards, score_array, real = read.boards, read.scores, read.real
        if read.named_sections:
            numbered = _Numbering()
            section_list = [r.section for r in results]
            section_code = numbered(section_list)
            sections = numbered.values
        else:
            section_list = [""] * count
            sections, section_code = [""], np.zeros(count, dtype=np.intp)
        variants = [r.variant for r in results] if read.named_variants else None
        numbered = _Numbering()
        ns_code = numbered([r.ns for r in results])
        ew_code = numbered([r.ew for r in results])
        keys: list[GroupKey]
        if (not options.per_section or sections == [""]) and variants is None:
            # The usual event: a board is a group, numbered in order of first appearance.
            numbers, first, inverse = np.unique(boards, return_index=True, return_inverse=True)
            appearance = np.argsort(first, kind="stable")
            renumber = np.empty(len(numbers), dtype=np.intp)
            renumber[appearance] = np.arange(len(numbers))
            group = renumber[inverse]
            keys = [(board, "", "") for board in numbers[appearance].tolist()]
        else:
            codes: dict[GroupKey, int] = {}
            board_list = boards.tolist()
            grouped_sections = section_list if options.per_section else [""] * count
            group = np.array(
                [
                    codes.setdefault(key, len(codes))
                    for key in zip(
                        board_list, grouped_sections, variants or [""] * count, strict=True
                    )
                ],
                dtype=np.intp,
            )
            keys = list(codes)
        counts = np.bincount(group, minlength=len(keys))
        order = np.argsort(group, kind="stable")
        starts = np.cumsum(counts) - counts
        position = np.empty(count, dtype=np.intp)
        position[order] = np.arange(count) - starts[group[order]]
        return cls(
            results,
            boards,
            score_array,
            real,
            group,
            position,
            keys,
            counts,
            numbered.values,
            ns_code,
            ew_code,
            sections,
            section_code,
        )

    def build_order(self) -> npt.NDArray[np.intp]:
        """The results group by group, each group's in event order."""
        return np.argsort(self.group, kind="stable")


def _board_sizes(keys: list[GroupKey], counts: list[int], options: ScoringOptions) -> list[int]:
    """The size each group is Neuberg'd to: its section's full board size.

    Without Neuberg a group keeps its own size, so only its artificial scores
    (left out of the comparison) make it factored back up.
    """
    board_sizes: dict[tuple[int, str], int] = defaultdict(int)
    for (board, section, _), size in zip(keys, counts, strict=True):
        board_sizes[(board, section)] += size
    full: dict[str, int] = defaultdict(int)
    for (_, section), size in board_sizes.items():
        full[section] = max(full[section], size)
    return [
        full[section] if options.neuberg else size
        for (_, section, _), size in zip(keys, counts, strict=True)
    ]


def _score_pairs(
    event: Event, method: ScoringMethod, options: ScoringOptions, pars: Mapping[int, BoardPar]
) -> tuple[list[Traveller], list[Standing], list[str]]:
    columns = _Columns.of(event, options)
    results, group, position = columns.results, columns.group, columns.position
    keys, counts = columns.keys, columns.counts.tolist()
    sizes = _board_sizes(keys, counts, options)
    # Every group is compared in one call, on one padded matrix of groups x results.
    table = np.zeros((len(keys), max(counts)), dtype=np.int64)
    valid = np.zeros(table.shape, dtype=bool)
    table[group, position] = columns.score_array
    valid[group, position] = columns.real
    board_scores = BoardScores(table, valid, np.array(sizes, dtype=np.int64))
    compared = method.compare(board_scores, options)
    weighed = columns.real.copy()
    cells = weighted_cells(results, group, position, event.boards)
    if cells:
        weigh(method, options, board_scores, compared, list(cells.values()))
        weighed[list(cells)] = True
    tops = np.array([(size - 1) * options.unit for size in sizes], dtype=np.float64)
    line_tops = tops[group]
    ns_points = np.where(weighed, compared[group, position], 0.0)
    ew_points = np.where(weighed, method.ew_from_ns(ns_points, line_tops), 0.0)
    _award_points(method, options, columns, line_tops, ns_points, ew_points)

    # Travellers: one per board (and section), its lines in the order the scorer has
    # always listed them: fouled version, NS points down, then NS pair.
    traveller_keys = sorted({key[:2] for key in keys})
    traveller_of = {key: index for index, key in enumerate(traveller_keys)}
    group_traveller = np.array([traveller_of[key[:2]] for key in keys], dtype=np.intp)
    variant_names = sorted({key[2] for key in keys})
    group_rank = group_traveller * len(variant_names) + np.array(
        [variant_names.index(key[2]) for key in keys], dtype=np.intp
    )
    name_rank = _natural_ranks(columns.names)[columns.ns_code]
    build_position = np.empty(len(results), dtype=np.intp)
    build_position[columns.build_order()] = np.arange(len(results))
    # Ties on points go by NS pair, then by the order the lines were made: one key.
    by_name = name_rank.astype(np.int64) * len(results) + build_position
    line_order = np.lexsort((by_name, -ns_points, group_rank[group]))
    line_traveller = group_traveller[group][line_order]
    bounds = np.searchsorted(line_traveller, np.arange(len(traveller_keys) + 1))

    board_tops: dict[tuple[int, str], float] = {}
    for key, top in zip(keys, tops.tolist(), strict=True):
        board_tops[key[:2]] = top
    datums = _datums(method, options, keys, table, valid, counts)
    lines = _PairLines(columns, ns_points, ew_points, line_tops, method, pars)
    travellers = [
        Traveller(
            event.board(board),
            section,
            Lines(lines.maker(line_order[bounds[index] : bounds[index + 1]])),
            top=board_tops[(board, section)] if method.shows_percent else None,
            par=pars[board].score if board in pars else None,
            par_text=pars[board].text if board in pars else "",
            datum=datums.get((board, section)),
        )
        for index, (board, section) in enumerate(traveller_keys)
    ]
    traveller_top = np.array([board_tops[key] for key in traveller_keys], dtype=np.float64)
    standings = _pair_standings(
        columns, line_order, ns_points, ew_points, traveller_top[line_traveller], method
    )
    return travellers, standings, []


class _Numbering:
    """Numbers values in order of first appearance: 0, 1, 2, ..."""

    def __init__(self) -> None:
        self._numbers: defaultdict[str, int] = defaultdict()
        # A new value gets the next number from inside the dict's own lookup, so a
        # whole column is numbered in C, by map and fromiter, without a list between.
        self._numbers.default_factory = self._numbers.__len__

    def __call__(self, values: list[str]) -> npt.NDArray[np.intp]:
        return np.fromiter(map(self._numbers.__getitem__, values), np.intp, len(values))

    @property
    def values(self) -> list[str]:
        return list(self._numbers)


def _natural_ranks(names: list[str], *, tie_by_text: bool = False) -> npt.NDArray[np.intp]:
    """Each of these distinct names' place in natural order ("2" before "10").

    Names whose natural keys are equal ("07" and "7") share a place, unless
    ``tie_by_text``, when plain text order parts them.
    """
    keys = [natural_key(name) for name in names]
    order = sorted(range(len(names)), key=lambda i: (keys[i], names[i]) if tie_by_text else keys[i])
    rank = np.empty(len(names), dtype=np.intp)
    place = -1
    for position, index in enumerate(order):
        if tie_by_text or position == 0 or keys[index] != keys[order[position - 1]]:
            place += 1
        rank[index] = place
    return rank


def _award_points(
    method: ScoringMethod,
    options: ScoringOptions,
    columns: _Columns,
    tops: npt.NDArray[np.float64],
    ns_points: npt.NDArray[np.float64],
    ew_points: npt.NDArray[np.float64],
) -> None:
    """Fill in the points of the artificial adjusted scores (in place).

    With the session-percentage variant an award depends on the pair's own share of
    the tops of the boards it played: MPs are whole tenths, so the share is exact.
    """
    artificial = np.flatnonzero(~columns.real).tolist()
    if not artificial:
        return
    results = columns.results
    earned: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    if method.shows_percent and options.session_percentage:
        build_order = columns.build_order()
        ns_list, ew_list, top_list = ns_points.tolist(), ew_points.tolist(), tops.tolist()
        for index in build_order[columns.real[build_order]].tolist():
            result = results[index]
            for who, value in ((result.ns, ns_list[index]), (result.ew, ew_list[index])):
                entry = earned[(result.section, who)]
                entry[0] += round(value * TENTHS)
                entry[1] += round(top_list[index] * TENTHS)
    for index in artificial:
        result = results[index]
        if result.adjusted is None:
            continue  # a weighted score, weighed with the field
        pair: list[float] = []
        for who, award in ((result.ns, result.adjusted.ns), (result.ew, result.adjusted.ew)):
            own = earned.get((result.section, who))
            # A fixed 60/40 is 60 % of the top, whatever the pair's own share.
            fixed = result.adjusted.fixed
            share = Fraction(own[0], own[1]) if own and own[1] and not fixed else None
            pair.append(method.award(award, float(tops[index]), share, options))
        ns_points[index], ew_points[index] = pair


def _datums(
    method: ScoringMethod,
    options: ScoringOptions,
    keys: list[GroupKey],
    table: npt.NDArray[np.int64],
    valid: npt.NDArray[np.bool_],
    counts: list[int],
) -> dict[tuple[int, str], float]:
    """The datum of each board (shown when the board was not fouled), e.g. Butler's."""
    datums: dict[tuple[int, str], float] = {}
    if method.datum is None:
        return datums
    for row, key in enumerate(keys):
        real = table[row, : counts[row]][valid[row, : counts[row]]].tolist()
        if not key[2] and real:
            datums[key[:2]] = method.datum(real, options)
    return datums


def _percent_array(
    points: npt.NDArray[np.float64], tops: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """:func:`_pct` element by element: from whole tenths, exactly, halves away from zero."""
    tenths = np.rint(points * TENTHS).astype(np.int64)
    top_tenths = np.rint(tops * TENTHS).astype(np.int64)
    share = divide_half_away(100 * 100 * tenths, np.maximum(top_tenths, 1)) / 100
    return np.where(tops != 0, share, 50.0)


def _vs_par_column(
    scores: npt.NDArray[np.int64],
    real: npt.NDArray[np.bool_],
    boards: npt.NDArray[np.int64],
    pars: Mapping[int, BoardPar],
) -> list[int | None]:
    """:func:`_vs_par` of every result: IMPs against its board's par, None without one."""
    if not pars:
        return [None] * len(scores)
    known = np.array(sorted(pars), dtype=np.int64)
    par_scores = np.array([pars[number].score for number in known.tolist()], dtype=np.int64)
    at = np.minimum(np.searchsorted(known, boards), len(known) - 1)
    has_par = (known[at] == boards) & real
    won = imps_array(scores - par_scores[at])
    return [w if h else None for w, h in zip(won.tolist(), has_par.tolist(), strict=True)]


class _LineSource(ABC):
    """Makes travellers' :class:`Line` values on first use, every line at once; a
    traveller takes its own by their places (``maker``)."""

    def __init__(self) -> None:
        self._all: list[Line] = []

    def maker(self, places: npt.NDArray[np.intp]) -> Callable[[], tuple[Line, ...]]:
        return lambda: self._lines(places)

    def _lines(self, places: npt.NDArray[np.intp]) -> tuple[Line, ...]:
        if not self._all:
            with _cyclic_gc_paused():  # tens of thousands of small values, no cycles
                self._all = self._every_line()
        every = self._all
        return tuple([every[place] for place in places.tolist()])

    @abstractmethod
    def _every_line(self) -> list[Line]: ...


class _PairLines(_LineSource):
    """Makes the travellers' :class:`Line` values from the scored columns, on first use:
    every result's line at once, each column worked out on the arrays."""

    def __init__(
        self,
        columns: _Columns,
        ns_points: npt.NDArray[np.float64],
        ew_points: npt.NDArray[np.float64],
        tops: npt.NDArray[np.float64],
        method: ScoringMethod,
        pars: Mapping[int, BoardPar],
    ) -> None:
        self._columns = columns
        self._arrays = (ns_points, ew_points, tops)
        super().__init__()
        self._percent = method.shows_percent
        self._pars = pars

    def _every_line(self) -> list[Line]:
        columns = self._columns
        ns, ew, tops = self._arrays
        count = len(columns.results)
        scores = [
            s if real else None
            for s, real in zip(columns.score_array.tolist(), columns.real.tolist(), strict=True)
        ]
        if self._percent:
            ns_percent: list[float | None] = _percent_array(ns, tops).tolist()
            ew_percent: list[float | None] = _percent_array(ew, tops).tolist()
        else:
            ns_percent = ew_percent = [None] * count
        vs_par = _vs_par_column(columns.score_array, columns.real, columns.boards, self._pars)
        notes = [f"fouled version {r.variant}" if r.variant else "" for r in columns.results]
        return list(
            map(
                Line._make,
                zip(
                    columns.results,
                    scores,
                    ns.tolist(),
                    ew.tolist(),
                    ns_percent,
                    ew_percent,
                    vs_par,
                    notes,
                    strict=True,
                ),
            )
        )


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


def _pair_standings(
    columns: _Columns,
    line_order: npt.NDArray[np.intp],
    ns_points: npt.NDArray[np.float64],
    ew_points: npt.NDArray[np.float64],
    tops: npt.NDArray[np.float64],
    method: ScoringMethod,
) -> list[Standing]:
    """Each pair's total, boards and share of the tops, summed from the columns.

    ``tops`` is each line's traveller's top, in line order. The sums run in the
    travellers' line order, NS before EW on each line, so the totals of IMP methods
    (floats) are added in the same order as ever, to the bit. Matchpoints and tops are
    summed in whole tenths, so totals and percentages are exact.
    """
    exact = method.shows_percent
    count = len(columns.results)
    names, section_names = columns.names, columns.sections
    # A side's number: (section, pair) and its direction, NS even and EW odd.
    place = columns.section_code * len(names)
    entry = np.empty(2 * count, dtype=np.intp)
    entry[0::2] = (2 * (place + columns.ns_code))[line_order]
    entry[1::2] = (2 * (place + columns.ew_code) + 1)[line_order]
    size = 2 * len(section_names) * len(names)

    def key_of(code: int) -> tuple[str, str, str]:
        side, direction = divmod(code, 2)
        section, name = divmod(side, len(names))
        return (section_names[section], names[name], "EW" if direction else "NS")

    values = np.empty(2 * count, dtype=np.float64)
    values[0::2] = ns_points[line_order]
    values[1::2] = ew_points[line_order]
    line_tops = np.repeat(tops, 2)
    if exact:
        points = np.rint(values * TENTHS)
        top_tenths = np.rint(line_tops * TENTHS)
        totals: list[float] = np.bincount(entry, weights=points, minlength=size).tolist()
        top_sums: list[float] = np.bincount(entry, weights=top_tenths, minlength=size).tolist()
    else:
        totals = np.bincount(entry, weights=values, minlength=size).tolist()
        top_sums = np.bincount(entry, weights=line_tops, minlength=size).tolist()
    boards = np.bincount(entry, minlength=size).tolist()
    # The pairs in order of first appearance on the travellers, as they are listed.
    first = np.full(size, len(entry), dtype=np.intp)
    np.minimum.at(first, entry, np.arange(len(entry)))
    played_codes = np.flatnonzero(first < len(entry))
    appearance_codes = played_codes[np.argsort(first[played_codes], kind="stable")].tolist()
    appearance = [key_of(code) for code in appearance_codes]
    directions: dict[tuple[str, str], set[str]] = defaultdict(set)
    for section, who, direction in appearance:
        directions[(section, who)].add(direction)
    # Mitchell: every pair kept one direction, so rank each direction apart.
    mitchell = all(len(d) == 1 for d in directions.values())
    merged: dict[tuple[str, str, str], list[float]] = defaultdict(lambda: [0, 0, 0])
    for (section, who, direction), code in zip(appearance, appearance_codes, strict=True):
        found = merged[(section, who, direction if mitchell else "")]
        # Whole tenths (exact) as ints; IMPs as the floats they are.
        found[0] += int(totals[code]) if exact else totals[code]
        found[1] += boards[code]
        found[2] += int(top_sums[code]) if exact else top_sums[code]
    standings: list[Standing] = []
    for direction in ("NS", "EW") if mitchell else ("",):
        rows = [
            (
                name,
                section,
                total / TENTHS if exact else total,
                int(played),
                # The exact share (a fraction of ints): ranked and tied exactly, and
                # rounded for show only once, halves away from zero.
                Fraction(int(total) * 100, int(top_sum)) if exact and top_sum else None,
            )
            for (section, name, d), (total, played, top_sum) in merged.items()
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
    # Equal keys share the place of the first of them (the rows come sorted by key).
    first: dict[float | Fraction, int] = {}
    for index, key in enumerate(keys):
        first.setdefault(key, index)
    tied = Counter(keys)
    for i, (name, section, total, boards, percent) in enumerate(rows):
        rank = f"{first[keys[i]] + 1}{'=' if tied[keys[i]] > 1 else ''}"
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
    event: Event,
    method: ScoringMethod,
    options: ScoringOptions,
    pars: Mapping[int, BoardPar],
    matches: list[Match],
) -> tuple[list[Traveller], list[Standing], list[str]]:
    """The travellers, standings and notes; scored in VPs, the matches go to ``matches``."""
    columns = _Columns.of(event, options)
    results, names, sections = columns.results, columns.names, columns.sections
    # A table is its (section, board, NS team, EW team), ordered as text sorts them; a
    # table entered twice keeps its last result.
    section_rank = _text_ranks(sections)[columns.section_code]
    name_rank = _text_ranks(names)
    ns_rank, ew_rank = name_rank[columns.ns_code], name_rank[columns.ew_code]
    width = len(names)
    board_low = int(columns.boards.min())
    board_span = int(columns.boards.max()) - board_low + 1
    place = (section_rank * board_span + (columns.boards - board_low)) * width
    key = (place + ns_rank) * width + ew_rank
    other_key = (place + ew_rank) * width + ns_rank
    last = len(key) - 1 - np.unique(key[::-1], return_index=True)[1]
    tables = last  # the kept results, in table order
    kept_keys = key[tables]
    found = np.searchsorted(kept_keys, other_key[tables])
    found = np.minimum(found, len(kept_keys) - 1)
    has_other = kept_keys[found] == other_key[tables]
    other = tables[found]  # the other table's result (where has_other)
    real = columns.real
    compare = has_other & real[tables] & real[other]
    values = np.zeros(len(tables), dtype=np.float64)
    scores = columns.score_array
    if compare.any():
        pairs = np.stack([scores[tables[compare]], scores[other[compare]]], axis=1)
        every = np.ones(pairs.shape, dtype=bool)
        compared = method.compare(
            BoardScores(pairs, every, np.full(len(pairs), 2, np.int64)), options
        )
        values[compare] = compared[:, 0]
    for row in np.flatnonzero(has_other & ~compare).tolist():
        here, there = results[tables[row]], results[other[row]]
        vulnerability = event.board(here.board).vulnerability
        values[row] = _team_award(method, options, here, there, vulnerability)
    ew_values = np.where(has_other, method.ew_from_ns(values, 0.0), 0.0)

    # Each match board is counted once, from the table where the first team sat NS.
    first_rank = _natural_ranks(names, tie_by_text=True)
    counted = has_other & (
        first_rank[columns.ns_code[tables]] < first_rank[columns.ew_code[tables]]
    )
    kept = tables[counted]
    if method.victory_points:
        standings = _vp_standings(columns, kept, values[counted], matches)
    else:
        standings = _team_standings(
            columns,
            columns.ns_code[kept],
            columns.ew_code[kept],
            values[counted],
            ew_values[counted],
            columns.section_code[kept],
        )

    notes = [
        f"board {results[index].board}: {results[index].ns} v {results[index].ew} has no "
        "result at the other table; not scored"
        for index in tables[~has_other].tolist()
    ]
    # Travellers by (board, section); each one's lines by NS team in natural order.
    team_rank = _natural_ranks(names)[columns.ns_code[tables]]
    section_order = section_rank[tables]
    board_of = columns.boards[tables]
    line_order = np.lexsort((np.arange(len(tables)), team_rank, section_order, board_of))
    traveller_of = board_of[line_order] * len(sections) + section_order[line_order]
    starts = np.flatnonzero(np.r_[True, traveller_of[1:] != traveller_of[:-1]])
    bounds = np.r_[starts, len(line_order)]
    lines = _TeamLines(columns, tables, values, ew_values, has_other, pars)
    travellers = []
    for begin, end in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        first = results[tables[line_order[begin]]]
        board = first.board
        travellers.append(
            Traveller(
                event.board(board),
                first.section,
                Lines(lines.maker(line_order[begin:end])),
                par=pars[board].score if board in pars else None,
                par_text=pars[board].text if board in pars else "",
            )
        )
    return travellers, standings, notes


def _text_ranks(values: list[str]) -> npt.NDArray[np.intp]:
    """Each of these distinct values' place in plain text order."""
    order = sorted(range(len(values)), key=values.__getitem__)
    rank = np.empty(len(values), dtype=np.intp)
    rank[order] = np.arange(len(values))
    return rank


def _team_standings(
    columns: _Columns,
    ns_teams: npt.NDArray[np.intp],
    ew_teams: npt.NDArray[np.intp],
    ns_points: npt.NDArray[np.float64],
    ew_points: npt.NDArray[np.float64],
    sections: npt.NDArray[np.intp],
    boards: npt.NDArray[np.int64] | None = None,
) -> list[Standing]:
    """Each team's total and boards, summed entry by entry in order (NS team first).

    An entry is a table (one board each) or, scored in VPs, a match (``boards`` each).
    """
    names, section_names = columns.names, columns.sections
    place = sections * len(names)
    entry = np.empty(2 * len(ns_teams), dtype=np.intp)
    entry[0::2] = place + ns_teams
    entry[1::2] = place + ew_teams
    points = np.empty(2 * len(ns_teams), dtype=np.float64)
    points[0::2] = ns_points
    points[1::2] = ew_points
    size = len(section_names) * len(names)
    totals = np.bincount(entry, weights=points, minlength=size).tolist()
    weights = None if boards is None else np.repeat(boards, 2)
    played = np.bincount(entry, weights=weights, minlength=size).astype(np.int64).tolist()
    first = np.full(size, len(entry), dtype=np.intp)
    np.minimum.at(first, entry, np.arange(len(entry)))
    teams = np.flatnonzero(first < len(entry))
    rows: list[tuple[str, str, float, int, Fraction | None]] = []
    for code in teams[np.argsort(first[teams], kind="stable")].tolist():
        section, name = divmod(code, len(names))
        rows.append((names[name], section_names[section], totals[code], played[code], None))
    rows.sort(key=lambda r: (-r[2], natural_key(r[1] + r[0])))
    return _ranked(rows, "")


def _vp_standings(
    columns: _Columns,
    tables: npt.NDArray[np.intp],
    imps_won: npt.NDArray[np.float64],
    found: list[Match],
) -> list[Standing]:
    """Teams ranked by victory points: each match's IMP margin on the WBF scale.

    A match is every board two teams played against each other in a section; ``tables``
    are the tables each match board is counted at (the first team NS), ``imps_won``
    that team's IMPs on the board. Each match is added to ``found``.
    """
    ns, ew = columns.ns_code[tables], columns.ew_code[tables]
    section = columns.section_code[tables]
    match_key = (section * len(columns.names) + ns) * len(columns.names) + ew
    matches, first, which = np.unique(match_key, return_index=True, return_inverse=True)
    in_order = np.argsort(first, kind="stable")
    boards = np.bincount(which, minlength=len(matches))[in_order]
    # Each team's IMPs: a board's IMPs go to the team that won them.
    home_won = np.bincount(which, weights=np.maximum(imps_won, 0), minlength=len(matches))
    away_won = np.bincount(which, weights=np.maximum(-imps_won, 0), minlength=len(matches))
    at = tables[first[in_order]]
    names, sections = columns.names, columns.sections
    scored = [
        scored_match(sections[s], names[h], names[a], n, home, away)
        for s, h, a, n, home, away in zip(
            columns.section_code[at].tolist(),
            columns.ns_code[at].tolist(),
            columns.ew_code[at].tolist(),
            boards.tolist(),
            home_won[in_order].tolist(),
            away_won[in_order].tolist(),
            strict=True,
        )
    ]
    found.extend(scored)
    ns_vp = [match.home_vp for match in scored]
    ew_vp = [match.away_vp for match in scored]
    return _team_standings(
        columns,
        columns.ns_code[at],
        columns.ew_code[at],
        np.array(ns_vp, dtype=np.float64),
        np.array(ew_vp, dtype=np.float64),
        columns.section_code[at],
        boards.astype(np.int64),
    )


class _TeamLines(_LineSource):
    """Makes the teams travellers' :class:`Line` values from the scored tables, on first
    use: every table's line at once, each column worked out on the arrays."""

    def __init__(
        self,
        columns: _Columns,
        tables: npt.NDArray[np.intp],
        values: npt.NDArray[np.float64],
        ew_values: npt.NDArray[np.float64],
        has_other: npt.NDArray[np.bool_],
        pars: Mapping[int, BoardPar],
    ) -> None:
        self._columns = columns
        self._tables = tables
        self._arrays = (values, ew_values, has_other)
        self._pars = pars
        super().__init__()

    def _every_line(self) -> list[Line]:
        columns, tables = self._columns, self._tables
        values, ew_values, has_other = self._arrays
        scores_here = columns.score_array[tables]
        real_here = columns.real[tables]
        scores = [
            s if real else None
            for s, real in zip(scores_here.tolist(), real_here.tolist(), strict=True)
        ]
        scored = has_other.tolist()
        ns = [v if ok else None for v, ok in zip(values.tolist(), scored, strict=True)]
        ew = [v if ok else None for v, ok in zip(ew_values.tolist(), scored, strict=True)]
        vs_par = _vs_par_column(scores_here, real_here, columns.boards[tables], self._pars)
        results = [columns.results[index] for index in tables.tolist()]
        count = len(results)
        nothing: list[None] = [None] * count
        return list(
            map(
                Line._make,
                zip(results, scores, ns, ew, nothing, nothing, vs_par, [""] * count, strict=True),
            )
        )


def _team_award(
    method: ScoringMethod,
    options: ScoringOptions,
    here: TableResult,
    there: TableResult,
    vulnerability: Vulnerability,
) -> float:
    """What the NS team at ``here`` gets when a table of the match has an adjusted score
    (a weighted one's results scored with the board's ``vulnerability``)."""
    if here.adjusted is None and there.adjusted is None:  # weighted, and no artificial
        here_parts, there_parts = parts_of(here, vulnerability), parts_of(there, vulnerability)
        return weigh_match(method, options, here_parts, there_parts)
    awards: list[Award] = []
    if here.adjusted is not None:
        awards.append(here.adjusted.ns)  # the team sat NS here
    if there.adjusted is not None:
        awards.append(there.adjusted.ew)  # and EW there
    worth = [method.award(award, 0.0, None, options) for award in awards]
    return sum(worth) if method.awards_add_up else sum(worth) / len(worth)
