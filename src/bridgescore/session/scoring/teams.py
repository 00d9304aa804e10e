"""Teams scoring: IMPs, board-a-match or victory points between the two tables of
each match, and the teams ranked."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from bridgescore.compare.scalar import Award
from bridgescore.core import Vulnerability
from bridgescore.session.scoring.columns import (
    Columns,
    LineSource,
    natural_ranks,
    ranked,
    vs_par_column,
)
from bridgescore.session.scoring.event import Event, TableResult, natural_key
from bridgescore.session.scoring.matches import Match, scored_match
from bridgescore.session.scoring.methods import BoardScores, ScoringMethod, ScoringOptions
from bridgescore.session.scoring.scored import BoardPar, Line, Lines, ScoredBoard, Standing
from bridgescore.session.scoring.weighing import parts_of, weigh_match

__all__ = ["score_teams"]


def score_teams(
    event: Event,
    method: ScoringMethod,
    options: ScoringOptions,
    pars: Mapping[int, BoardPar],
    matches: list[Match],
) -> tuple[list[ScoredBoard], list[Standing], list[str]]:
    """The travellers, standings and notes; scored in VPs, the matches go to ``matches``."""
    columns = Columns.of(event, options)
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
    first_rank = natural_ranks(names, tie_by_text=True)
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
    team_rank = natural_ranks(names)[columns.ns_code[tables]]
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
            ScoredBoard(
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
    columns: Columns,
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
    return ranked(rows, "")


def _vp_standings(
    columns: Columns,
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


class _TeamLines(LineSource):
    """Makes the teams travellers' :class:`Line` values from the scored tables, on first
    use: every table's line at once, each column worked out on the arrays."""

    def __init__(
        self,
        columns: Columns,
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
        vs_par = vs_par_column(scores_here, real_here, columns.boards[tables], self._pars)
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
