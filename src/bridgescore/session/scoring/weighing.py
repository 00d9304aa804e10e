"""Scoring weighted adjusted scores (Law 12C1c) with any scoring method, exactly.

A table with a weighted score played each of its listed results in part. The board
is scored once for each combination of the listed results (one when a single table is
weighted), with that table in the field as if it had played it; every table's points
are the weighted sum over the combinations. So the weighted table gets, for each
side, the weighted sum of what each result would have scored against the rest of the
field, and every other table is compared with it in the same proportions (the board's
points still add up to the top).

The sums are exact (fractions; a method's points are read back as the fractions they
are), rounded once at the end, halves away from zero: matchpoints to 0.1 MP as
Neuberg's are, IMPs to 0.01. On a board with fewer results than its full size the
exact weighted sum of the unfactored matchpoints is Neuberg-factored, then rounded:
one rounding, never a weighted sum of figures already rounded.

>>> from bridgescore.session.scoring.methods import ScoringOptions, scoring_method
>>> table = np.array([[620, -100, 0]]); valid = np.array([[True, True, False]])
>>> scores = BoardScores(table, valid, np.array([3]))
>>> compared = scoring_method("mp").compare(scores, ScoringOptions())
>>> parts = ((Fraction(1, 2), 620), (Fraction(1, 2), -100))
>>> weigh(scoring_method("mp"), ScoringOptions(), scores, compared, [(0, 2, parts)])
>>> compared.tolist()
[[3.5, 0.5, 2.0]]
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import product

import numpy as np
import numpy.typing as npt

from bridgescore.board import Board
from bridgescore.compare.scalar import round_half_away
from bridgescore.core import Vulnerability
from bridgescore.errors import RecordError
from bridgescore.session.scoring.event import TableResult
from bridgescore.session.scoring.methods import BoardScores, ScoringMethod, ScoringOptions

__all__ = ["Part", "WeightedCell", "parts_of", "weigh", "weigh_match", "weighted_cells"]

# One listed result: its weight and its NS score.
Part = tuple[Fraction, int]
# A weighted table in the comparison matrix: its row (board), its column, its parts.
WeightedCell = tuple[int, int, Sequence[Part]]
# The most combinations one board is scored in (6 parts at each of 3 tables).
_MOST_COMBINATIONS = 216


def weighted_cells(
    results: Sequence[TableResult],
    group: npt.NDArray[np.intp],
    position: npt.NDArray[np.intp],
    boards: Mapping[int, Board] | None = None,
) -> dict[int, WeightedCell]:
    """Each weighted result's place in the comparison matrix (row ``group``, column
    ``position``) and its parts, by the result's index. ``boards``: the event's, whose
    stated vulnerability scores the parts (else the board number's)."""
    boards = boards or {}
    return {
        index: (
            int(group[index]),
            int(position[index]),
            parts_of(result, _vulnerability(boards, result.board)),
        )
        for index, result in enumerate(results)
        if result.weighted is not None
    }


def parts_of(result: TableResult, vulnerability: Vulnerability | None = None) -> list[Part]:
    """A result's parts as (weight, NS score): a weighted score's, or one of weight 1;
    scored with the board's ``vulnerability`` (``None``: its number's)."""
    if result.weighted is None:
        return [(Fraction(1), _ns_score(result, vulnerability))]
    return [
        (
            weight,
            _ns_score(
                TableResult(result.board, result.ns, result.ew, result=played), vulnerability
            ),
        )
        for weight, played in result.weighted.parts
    ]


def _vulnerability(boards: Mapping[int, Board], number: int) -> Vulnerability | None:
    board = boards.get(number)
    return None if board is None else board.vulnerability


def _ns_score(result: TableResult, vulnerability: Vulnerability | None) -> int:
    score = result.ns_score(vulnerability)
    if score is None:
        raise RecordError(
            f"board {result.board} {result.ns} v {result.ew}: an artificial score "
            "cannot be weighed with results"
        )
    return score


def weigh(
    method: ScoringMethod,
    options: ScoringOptions,
    scores: BoardScores,
    compared: npt.NDArray[np.float64],
    cells: Sequence[WeightedCell],
) -> None:
    """Score the boards (rows) holding weighted tables again, in ``compared`` (in place):
    every real and weighted table of those rows gets its weighted points. ``scores`` is
    the matrix ``compared`` was made from, the weighted tables not valid in it."""
    by_row: defaultdict[int, list[tuple[int, Sequence[Part]]]] = defaultdict(list)
    for row, column, parts in cells:
        by_row[row].append((column, parts))
    for row, tables in by_row.items():
        if math.prod(len(parts) for _, parts in tables) > _MOST_COMBINATIONS:
            raise RecordError(
                f"{len(tables)} weighted scores on one board give more than "
                f"{_MOST_COMBINATIONS} combinations of results to score: weigh fewer results"
            )
        combinations = list(product(*(parts for _, parts in tables)))
        count = len(combinations)
        table = np.repeat(scores.table[row : row + 1], count, axis=0)
        valid = np.repeat(scores.valid[row : row + 1], count, axis=0)
        weights = []
        for index, combination in enumerate(combinations):
            weight = Fraction(1)
            for (column, _), (part_weight, ns_score) in zip(tables, combination, strict=True):
                table[index, column] = ns_score
                valid[index, column] = True
                weight *= part_weight
            weights.append(weight)
        # Every combination has the same tables, so the same count of results: on a
        # board with fewer results than its full size, Neuberg's factoring (linear in
        # the matchpoints, and matchpoints alone are shares of a top) is applied to the
        # exact weighted sum, not to each combination's matchpoints rounded to 0.1 MP.
        results = int(valid[0].sum())
        full = int(scores.expected[row])
        factored = method.shows_percent and full != results
        size = results if factored else full
        expected = np.full(count, size, dtype=np.int64)
        points = method.compare(BoardScores(table, valid, expected), options)
        columns = np.flatnonzero(valid[0]).tolist()
        for column in columns:
            total = sum((w * _exact(points[i, column]) for i, w in enumerate(weights)), Fraction(0))
            if factored:
                total = _neuberg(total, results, full, options.unit)
            compared[row, column] = _rounded(method, total)


def _neuberg(points: Fraction, results: int, full: int, unit: int) -> Fraction:
    """Neuberg's formula, exactly: M' = (M + u) N / n - u, ``u`` half a won comparison
    (1 MP on the 2/1 scale, 0.5 on 1/0.5), ``n`` the board's results and ``N`` its full
    size (docs/sessions.md)."""
    half = Fraction(unit, 2)
    return (points + half) * full / results - half


def weigh_match(
    method: ScoringMethod, options: ScoringOptions, here: Sequence[Part], there: Sequence[Part]
) -> float:
    """The points of the NS team at a teams table (``here``) against the other table of
    its match (``there``), either or both weighted (a played result is one part of
    weight 1)."""
    combinations = list(product(here, there))
    table = np.array([[a, b] for (_, a), (_, b) in combinations], dtype=np.int64)
    every = np.ones(table.shape, dtype=bool)
    points = method.compare(BoardScores(table, every, np.full(len(table), 2, np.int64)), options)
    total = sum(
        (wa * wb * _exact(points[i, 0]) for i, ((wa, _), (wb, _)) in enumerate(combinations)),
        Fraction(0),
    )
    return _rounded(method, total)


def _exact(value: float) -> Fraction:
    # A method's points are tenths, halves or small fractions (cross-IMPs divide by the
    # comparisons): the float's nearest fraction with a small denominator is the value.
    return Fraction(float(value)).limit_denominator(10_000)


def _rounded(method: ScoringMethod, total: Fraction) -> float:
    return round_half_away(total, 1 if method.shows_percent else 2)
