"""Array forms of the comparisons in :mod:`bridgescore.compare.scalar`, for scoring big events.

Each takes a matrix of boards (or comparison groups) x results, NS view, with a
``valid`` mask for padding and artificial scores, and equals the scalar form row
by row. The rules themselves (rounding, the Butler trim, the cross-IMP divisor,
Neuberg's formula) are called from :mod:`bridgescore.compare.scalar`, not restated.

>>> matchpoints_array([[620, 620, 650, 170, -100]]).tolist()
[[5.0, 5.0, 8.0, 2.0, 0.0]]
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from bridgescore.compare.scalar import (
    IMP_THRESHOLDS,
    TENTHS,
    Divide,
    Scale,
    butler_drop,
    check_butler,
    cross_imps_divisor,
    divide_half_away,
    neuberg_tenths,
    scale_unit,
)
from bridgescore.errors import ComparisonError

__all__ = [
    "board_a_match_array",
    "butler_imps_array",
    "cross_imps_array",
    "imps_array",
    "matchpoints_array",
]

_THRESHOLD_ARRAY = np.array(IMP_THRESHOLDS, dtype=np.float64)

# Two scores differ by at most 2 x 7600 points.
_TABLE_SPAN = 15200

# Scores lie within +-7600; this spacing keeps each row's values apart when the
# rows are laid end to end for one global search.
_ROW_SPACING = 1 << 20
_ABSENT = _ROW_SPACING // 2 - 1


# --------------------------------------------------------------------------- IMPs


def imps_array(difference: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """:func:`~bridgescore.compare.scalar.imps` element by element.

    >>> imps_array([450, -720, 0]).tolist()
    [10, -12, 0]
    """
    raw = np.asarray(difference)
    if raw.dtype.kind in "iu" and raw.size:
        low, high = int(raw.min()), int(raw.max())
        if low >= -_TABLE_SPAN and high <= _TABLE_SPAN:
            # Whole-point differences within any two scores: one table look-up each.
            return _imp_table().take(raw.astype(np.int64) + _TABLE_SPAN)
    values = raw.astype(np.float64)
    return _signed_imps(values)


def _signed_imps(values: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
    size = np.searchsorted(_THRESHOLD_ARRAY, np.abs(values), side="left").astype(np.int64)
    signed: npt.NDArray[np.int64] = np.where(values < 0, -size, size)
    return signed


@cache
def _imp_table() -> npt.NDArray[np.int64]:
    table = _signed_imps(np.arange(-_TABLE_SPAN, _TABLE_SPAN + 1))
    table.setflags(write=False)
    return table


# ------------------------------------------------------------------ matchpoints


def matchpoints_array(
    scores: npt.ArrayLike,
    valid: npt.ArrayLike | None = None,
    *,
    scale: Scale = "2/1",
    expected: npt.ArrayLike | None = None,
) -> npt.NDArray[np.float64]:
    """:func:`~bridgescore.compare.scalar.matchpoints` for many boards: one row per board.

    ``valid`` marks the real results (False for padding or artificial scores,
    whose output is 0). ``expected`` (scalar or one per row) turns on Neuberg.

    >>> matchpoints_array([[620, 620, 650, 170, -100]], expected=6).tolist()
    [[6.2, 6.2, 9.8, 2.6, 0.2]]
    """
    unit = scale_unit(scale)
    table, mask = _matrix(scores, valid)
    below, equal = _ranks(table, mask)
    mp2 = 2 * below + equal - 1
    out: npt.NDArray[Any]
    if expected is None:
        out = mp2 * (unit / 2)
    else:
        n = mask.sum(axis=1, dtype=np.int64)[:, None]
        big_n = np.broadcast_to(np.asarray(expected, dtype=np.int64).reshape(-1, 1), n.shape)
        # An empty row has no cell to score; 1 keeps its (masked) division defined.
        out = neuberg_tenths(mp2, np.maximum(n, 1), big_n, unit) / TENTHS
    return np.where(mask, out, 0.0).astype(np.float64)


def _matrix(
    scores: npt.ArrayLike, valid: npt.ArrayLike | None
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    table = np.atleast_2d(np.asarray(scores))
    if table.ndim != 2 or not np.issubdtype(table.dtype, np.integer):
        raise ComparisonError(
            f"scores must be a 2-D integer array (boards x results), got {table.dtype} "
            f"with shape {table.shape}"
        )
    table = table.astype(np.int64)
    mask = np.ones(table.shape, dtype=bool) if valid is None else np.asarray(valid, dtype=bool)
    mask = np.broadcast_to(np.atleast_2d(mask), table.shape)
    live = table[mask]
    if live.size and np.abs(live).max() >= _ABSENT:
        raise ComparisonError(f"a score of {int(np.abs(live).max())} points is impossible")
    return table, mask


def _ranks(
    table: npt.NDArray[np.int64], mask: npt.NDArray[np.bool_]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """For each cell: real scores strictly below it, and equal to it (itself included)."""
    rows = table.shape[0]
    offset = (np.arange(rows, dtype=np.int64) * _ROW_SPACING)[:, None]
    placed = np.where(mask, table, _ABSENT) + offset
    ordered = np.sort(placed, axis=1).ravel()
    row_start = offset[:, 0] - _ROW_SPACING // 2
    low = np.searchsorted(ordered, placed, side="left")
    high = np.searchsorted(ordered, placed, side="right")
    first = np.searchsorted(ordered, row_start, side="left")[:, None]
    return low - first, high - low


def _per_count(rule: Any, counts: npt.NDArray[np.int64], width: int) -> npt.NDArray[np.int64]:
    """A scalar rule of a row's number of scores, applied to every row by one look-up."""
    return np.array([rule(k) for k in range(width + 1)], dtype=np.int64)[counts]


# ----------------------------------------------------------------------- Butler


def butler_imps_array(
    scores: npt.ArrayLike,
    valid: npt.ArrayLike | None = None,
    *,
    exclude: int = 1,
    rounding: int = 10,
) -> npt.NDArray[np.int64]:
    """:func:`~bridgescore.compare.scalar.butler_imps` for many boards (rows); cells not
    ``valid`` get 0.

    >>> butler_imps_array([[620, 620, 650, 170, -100]]).tolist()
    [[4, 4, 5, -7, -11]]
    """
    check_butler(exclude, rounding)
    table, mask = _matrix(scores, valid)
    n = mask.sum(axis=1, dtype=np.int64)
    # Absent cells sort last, so each row's real scores come first, in order.
    ordered = np.sort(np.where(mask, table, _ABSENT), axis=1)
    sums = np.concatenate(
        [np.zeros((table.shape[0], 1), dtype=np.int64), np.cumsum(ordered, axis=1)], axis=1
    )
    drop = _per_count(lambda k: butler_drop(k, exclude), n, table.shape[1])
    rows = np.arange(table.shape[0])
    kept_sum = sums[rows, n - drop] - sums[rows, drop]
    kept = np.maximum(n - 2 * drop, 1)
    datum: npt.NDArray[Any]
    if rounding == 0:
        datum = kept_sum / kept
    else:
        datum = divide_half_away(kept_sum, kept * rounding) * rounding
    out = imps_array(table - datum[:, None])
    return np.where(mask, out, 0)


# ------------------------------------------------------------------- cross-IMPs


def cross_imps_array(
    scores: npt.ArrayLike,
    valid: npt.ArrayLike | None = None,
    *,
    divide: Divide = "comparisons",
) -> npt.NDArray[np.float64]:
    """:func:`~bridgescore.compare.scalar.cross_imps` for many boards (rows); cells not
    ``valid`` get 0.

    >>> cross_imps_array([[620, 620, 650, 170, -100]], divide="none").tolist()
    [[21.0, 21.0, 25.0, -23.0, -44.0]]
    """
    cross_imps_divisor(divide, 0)  # an unknown divisor is refused even for an empty matrix
    table, mask = _matrix(scores, valid)
    n = mask.sum(axis=1, dtype=np.int64)
    divisor = _per_count(lambda k: cross_imps_divisor(divide, k), n, table.shape[1])
    pair = imps_array(table[:, :, None] - table[:, None, :])
    pair = np.where(mask[:, None, :], pair, 0)
    totals = pair.sum(axis=2)
    return np.where(mask, totals / divisor[:, None], 0.0)


# ------------------------------------------------------------------ board-a-match


def board_a_match_array(
    ns_score_a: npt.ArrayLike, ns_score_b: npt.ArrayLike
) -> npt.NDArray[np.float64]:
    """:func:`~bridgescore.compare.scalar.board_a_match` element by element.

    >>> board_a_match_array([130, 0, -50], [120, 0, 50]).tolist()
    [1.0, 0.5, 0.0]
    """
    net = np.asarray(ns_score_a, dtype=np.int64) - np.asarray(ns_score_b, dtype=np.int64)
    return (np.sign(net) + 1) / 2.0
