"""Pairs scoring: matchpoints (Neuberg'd to the event's full board size), Butler IMPs
and cross-IMPs, each board's groups compared in one call, and the pairs ranked."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from bridgescore.compare.scalar import TENTHS, divide_half_away
from bridgescore.session.scoring.columns import (
    Columns,
    GroupKey,
    LineSource,
    natural_ranks,
    ranked,
    vs_par_column,
)
from bridgescore.session.scoring.event import Event, natural_key
from bridgescore.session.scoring.methods import BoardScores, ScoringMethod, ScoringOptions
from bridgescore.session.scoring.scored import BoardPar, Line, Lines, ScoredBoard, Standing
from bridgescore.session.scoring.weighing import weigh, weighted_cells

__all__ = ["score_pairs"]


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


def score_pairs(
    event: Event,
    method: ScoringMethod,
    options: ScoringOptions,
    pars: Mapping[int, BoardPar],
    home: Mapping[str, str],
) -> tuple[list[ScoredBoard], list[Standing], list[str]]:
    columns = Columns.of(event, options)
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
    name_rank = natural_ranks(columns.names)[columns.ns_code]
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
        ScoredBoard(
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
        columns,
        line_order,
        ns_points,
        ew_points,
        traveller_top[line_traveller],
        method,
        home,
        per_section=options.per_section,
    )
    return travellers, standings, []


def _award_points(
    method: ScoringMethod,
    options: ScoringOptions,
    columns: Columns,
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


class _PairLines(LineSource):
    """Makes the travellers' :class:`Line` values from the scored columns, on first use:
    every result's line at once, each column worked out on the arrays."""

    def __init__(
        self,
        columns: Columns,
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
        vs_par = vs_par_column(columns.score_array, columns.real, columns.boards, self._pars)
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
    columns: Columns,
    line_order: npt.NDArray[np.intp],
    ns_points: npt.NDArray[np.float64],
    ew_points: npt.NDArray[np.float64],
    tops: npt.NDArray[np.float64],
    method: ScoringMethod,
    home: Mapping[str, str],
    *,
    per_section: bool = False,
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
    played: dict[tuple[str, str], set[str]] = defaultdict(set)
    for section, who, direction in appearance:
        played[(section, who)].add(direction)
    # Mitchell: every pair kept one direction, so rank each direction apart; or the
    # movement says where each pair belongs (a table sat the wrong way round).
    homed = bool(home) and all(who in home for _, who in played)
    mitchell = homed or all(len(d) == 1 for d in played.values())
    merged: dict[tuple[str, str, str], list[float]] = defaultdict(lambda: [0, 0, 0])
    for (section, who, direction), code in zip(appearance, appearance_codes, strict=True):
        field = home[who] if homed else direction if mitchell else ""
        found = merged[(section, who, field)]
        # Whole tenths (exact) as ints; IMPs as the floats they are.
        found[0] += int(totals[code]) if exact else totals[code]
        found[1] += boards[code]
        found[2] += int(top_sums[code]) if exact else top_sums[code]
    sides = ("NS", "EW") if mitchell else ("",)
    # Compared within each section, each section is ranked on its own, section by section.
    apart = per_section and len(section_names) > 1
    groups = [
        (part, direction)
        for part in (sorted(section_names, key=natural_key) if apart else [None])
        for direction in sides
    ]
    standings: list[Standing] = []
    for group_section, direction in groups:
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
            if d == direction and group_section in (None, section)
        ]
        # Matchpoints rank by percentage (pairs may play different numbers of boards).
        rows.sort(key=lambda r: (-(r[4] if r[4] is not None else r[2]), natural_key(r[1] + r[0])))
        standings.extend(ranked(rows, direction))
    return standings
