"""Comparing duplicate results on one board: IMPs, matchpoints, Butler, cross-IMPs, BAM.

Pure functions on NS-view scores (rules.md §4). A score may also be an
:class:`Award` -- an *artificial* adjusted score (Law 12C2: average plus, average,
average minus) -- which is left out of every other result's comparison and gets
its fixed value instead.

Each scalar function has an array form (``*_array``) over a matrix of boards x
results with a ``valid`` mask, equal to it row by row, for scoring big events.

Regulation choices fixed here (docs/sessions.md):

* Neuberg matchpoints are rounded to 0.1 MP, halves away from zero, computed
  exactly in integers (no float drift); plain matchpoints are never rounded.
* The Butler datum is rounded to the nearest ``rounding`` points (10), halves
  away from zero; when a board has too few scores to drop ``exclude`` at each
  end, as many as leave at least one score are dropped.
* Cross-IMPs are divided by the number of comparisons (``n - 1``) by default.
* Artificial adjusted scores: 60/50/40 % of the top in matchpoints, +3/0/-3 IMPs
  in every IMP form, 0.6/0.5/0.4 of a board in board-a-match.

>>> imps(450), imps(-720)
(10, -12)
>>> matchpoints([620, 620, 650, 170, -100])
[5.0, 5.0, 8.0, 2.0, 0.0]
"""

from __future__ import annotations

import bisect
import enum
import math
from collections.abc import Sequence
from functools import cache
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from bridgescore.errors import BridgeError, NotationError

__all__ = [
    "IMP_THRESHOLDS",
    "Award",
    "adjusted_imps",
    "adjusted_matchpoints",
    "adjusted_percentage",
    "assigned_imps",
    "assigned_matchpoints",
    "board_a_match",
    "board_a_match_array",
    "butler_datum",
    "butler_imps",
    "butler_imps_array",
    "cross_imps",
    "cross_imps_array",
    "imps",
    "imps_array",
    "matchpoints",
    "matchpoints_array",
    "neuberg",
]

# Upper ends of each IMP band (Law 78B): a difference above the k-th value is
# worth at least k + 1 IMPs.
IMP_THRESHOLDS = (
    10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590,
    740, 890, 1090, 1290, 1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990,
)  # fmt: skip
_THRESHOLD_ARRAY = np.array(IMP_THRESHOLDS, dtype=np.float64)

Scale = Literal["2/1", "1/0.5"]
Divide = Literal["comparisons", "scores", "none"]

# Neuberg results are rounded to 1/_TENTHS MP.
_TENTHS = 10


class Award(enum.IntEnum):
    """An artificial adjusted score (Law 12C2) for one side.

    >>> Award.parse("A+"), Award.parse("ave-")
    (Award.AVERAGE_PLUS, Award.AVERAGE_MINUS)
    """

    AVERAGE_MINUS = -1
    AVERAGE = 0
    AVERAGE_PLUS = 1

    @property
    def mirror(self) -> Award:
        """The usual award for the other side (average plus <-> average minus)."""
        return Award(-self)

    @classmethod
    def parse(cls, text: str) -> Award:
        """``A+``/``AVE+``/``60``, ``A``/``AVE``/``50``, ``A-``/``AVE-``/``40``, in any case."""
        key = str(text).strip().upper().replace("%", "").replace(" ", "")
        for award, words in _AWARD_WORDS.items():
            if key in words:
                return award
        raise NotationError(
            f"unknown adjusted score {text!r}: "
            "expected A+, A or A- (or AVE+, AVE, AVE-, 60, 50, 40)"
        )

    def __str__(self) -> str:
        return ("A-", "A", "A+")[self + 1]

    def __repr__(self) -> str:
        return f"Award.{self.name}"


_AWARD_WORDS = {
    Award.AVERAGE_PLUS: ("A+", "AVE+", "AVG+", "AV+", "60", "A60"),
    Award.AVERAGE: ("A", "AVE", "AVG", "AV", "A=", "50", "A50"),
    Award.AVERAGE_MINUS: ("A-", "AVE-", "AVG-", "AV-", "40", "A40"),
}

ScoreLike = int | Award


# --------------------------------------------------------------------------- IMPs


def imps(difference: float) -> int:
    """IMPs for a difference in points on the WBF scale (Law 78B), signed.

    >>> imps(450), imps(-10), imps(-20), imps(4000)
    (10, 0, -1, 24)
    """
    if isinstance(difference, bool) or not isinstance(difference, int | float):
        raise BridgeError(f"an IMP difference must be a number, got {difference!r}")
    if math.isnan(difference):
        raise BridgeError("an IMP difference must be a number, got nan")
    size = bisect.bisect_left(IMP_THRESHOLDS, abs(difference))
    return size if difference >= 0 else -size


def imps_array(difference: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """:func:`imps` element by element.

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
    size = np.searchsorted(_THRESHOLD_ARRAY, np.abs(values), side="left").astype(np.int64)
    return np.where(values < 0, -size, size)


# Two scores differ by at most 2 x 7600 points.
_TABLE_SPAN = 15200


@cache
def _imp_table() -> npt.NDArray[np.int64]:
    differences = np.arange(-_TABLE_SPAN, _TABLE_SPAN + 1)
    size = np.searchsorted(_THRESHOLD_ARRAY, np.abs(differences), side="left").astype(np.int64)
    table = np.where(differences < 0, -size, size)
    table.setflags(write=False)
    return table


# ------------------------------------------------------------------- adjusted


def adjusted_percentage(award: Award, *, session_percentage: float | None = None) -> float:
    """The percentage of an artificial adjusted score in a pairs event (Law 12C2).

    60 / 50 / 40. With ``session_percentage`` (the pair's own percentage on the
    boards it played), the WBFLC variant: average plus is the better of 60 and
    that, average minus the worse of 40 and that.

    >>> adjusted_percentage(Award.AVERAGE_PLUS, session_percentage=64.5)
    64.5
    """
    award = Award(award)
    base = 50.0 + 10.0 * award
    if session_percentage is None or award is Award.AVERAGE:
        return base
    if award is Award.AVERAGE_PLUS:
        return max(base, float(session_percentage))
    return min(base, float(session_percentage))


def adjusted_matchpoints(
    award: Award, top: float, *, session_percentage: float | None = None
) -> float:
    """Matchpoints of an artificial adjusted score on a board whose top is ``top``.

    >>> adjusted_matchpoints(Award.AVERAGE_PLUS, 10)
    6.0
    """
    return adjusted_percentage(award, session_percentage=session_percentage) * top / 100.0


def adjusted_imps(award: Award, value: int = 3) -> int:
    """IMPs of an artificial adjusted score: ``+value`` / 0 / ``-value`` (3 by default).

    >>> adjusted_imps(Award.AVERAGE_MINUS)
    -3
    """
    return int(Award(award)) * value


def assigned_matchpoints(
    components: Sequence[tuple[float, int]],
    others: Sequence[int],
    *,
    scale: Scale = "2/1",
) -> float:
    """NS matchpoints of a weighted *assigned* adjusted score (Law 12C1).

    ``components`` are (weight, NS score) pairs whose weights sum to 1, such as
    80 % of +420 and 20 % of +450; each is matchpointed against ``others`` (the
    other real results on the board) and the matchpoints are weighted.

    >>> assigned_matchpoints([(0.8, 420), (0.2, 450)], [420, 450, 400])
    3.4
    """
    total_weight = sum(weight for weight, _ in components)
    if not components or abs(total_weight - 1) > 1e-9 or any(w < 0 for w, _ in components):
        raise BridgeError(
            f"assigned score weights must be >= 0 and sum to 1, got {[w for w, _ in components]}"
        )
    unit = _check_scale(scale)
    ordered = sorted(int(s) for s in others)
    value = 0.0
    for weight, points in components:
        below = bisect.bisect_left(ordered, points)
        ties = bisect.bisect_right(ordered, points) - below
        value += weight * (2 * below + ties) * unit / 2
    return round(value, 6)


def assigned_imps(components: Sequence[tuple[float, int]], datum: float) -> float:
    """IMPs of a weighted assigned score against a datum (or the other table's score).

    >>> assigned_imps([(0.5, 620), (0.5, 170)], 420)
    -0.5
    """
    total_weight = sum(weight for weight, _ in components)
    if not components or abs(total_weight - 1) > 1e-9 or any(w < 0 for w, _ in components):
        raise BridgeError(
            f"assigned score weights must be >= 0 and sum to 1, got {[w for w, _ in components]}"
        )
    return round(sum(weight * imps(points - datum) for weight, points in components), 6)


def _split(scores: Sequence[ScoreLike]) -> tuple[list[int], list[int]]:
    """Positions of real scores and of artificial ones, checking each value."""
    real: list[int] = []
    artificial: list[int] = []
    for i, value in enumerate(scores):
        if isinstance(value, Award):
            artificial.append(i)
        elif isinstance(value, int | np.integer) and not isinstance(value, bool):
            real.append(i)
        else:
            raise BridgeError(
                f"score {i} is {value!r}: expected a whole number of points (NS view) "
                "or an Award for an artificial adjusted score"
            )
    return real, artificial


# ------------------------------------------------------------------ matchpoints


def _check_scale(scale: str) -> int:
    """The number of tenths of an MP a won comparison is worth: 20 or 10."""
    if scale == "2/1":
        return 2
    if scale == "1/0.5":
        return 1
    raise BridgeError(f"unknown matchpoint scale {scale!r}: expected '2/1' or '1/0.5'")


def _round_half_away(numerator: int, denominator: int) -> int:
    """numerator / denominator rounded to a whole number, halves away from zero."""
    if denominator < 0:
        numerator, denominator = -numerator, -denominator
    magnitude = (2 * abs(numerator) + denominator) // (2 * denominator)
    return magnitude if numerator >= 0 else -magnitude


def neuberg(mp2: int, n: int, expected: int, *, scale: Scale = "2/1") -> float:
    """Neuberg factoring of one score's matchpoints (rules.md §4.3), rounded to 0.1 MP.

    ``mp2`` is the score's matchpoints on the 2/1 scale among ``n`` real results;
    the board should have had ``expected`` results. The answer is on ``scale``.

    >>> neuberg(5, 5, 6)
    6.2
    """
    unit = _check_scale(scale)
    if n < 1 or expected < 1:
        raise BridgeError(f"Neuberg needs at least one result, got n={n}, expected={expected}")
    # 2/1: M' = (M + 1) N / n - 1; 1/0.5 is half of it. In tenths, exactly:
    tenths = _round_half_away(_TENTHS * unit * ((mp2 + 1) * expected - n), 2 * n)
    return tenths / _TENTHS


def matchpoints(
    scores: Sequence[ScoreLike],
    *,
    scale: Scale = "2/1",
    expected: int | None = None,
) -> list[float]:
    """NS matchpoints of each score on one board (Law 78A), optionally Neuberg'd.

    Each real score earns 2 for every score it beats and 1 for every tie (1 and
    1/2 on the ``"1/0.5"`` scale). With ``expected=N`` the Neuberg formula factors
    them up (or down) to a board of ``N`` results, rounded to 0.1 MP. An
    :class:`Award` is left out of the comparison and gets 60/50/40 % of the top;
    when awards are present and ``expected`` is not given, the board is factored
    up to all its results (real and artificial). EW matchpoints are top - NS.

    >>> matchpoints([620, 620, 650, 170, -100], expected=6)
    [6.2, 6.2, 9.8, 2.6, 0.2]
    """
    unit = _check_scale(scale)
    real, artificial = _split(scores)
    if expected is None and artificial:
        expected = len(scores)
    if expected is not None and (isinstance(expected, bool) or expected < 1):
        raise BridgeError(f"expected must be a whole number of results >= 1, got {expected!r}")
    values = sorted(int(scores[i]) for i in real)
    n = len(values)
    result = [0.0] * len(scores)
    for i in real:
        s = int(scores[i])
        below = bisect.bisect_left(values, s)
        ties = bisect.bisect_right(values, s) - below - 1
        mp2 = 2 * below + ties
        if expected is None:
            result[i] = mp2 * unit / 2
        else:
            result[i] = neuberg(mp2, n, expected, scale=scale)
    board_size = expected if expected is not None else n
    top = (board_size - 1) * unit
    for i in artificial:
        result[i] = adjusted_matchpoints(Award(scores[i]), top)
    return result


def matchpoints_array(
    scores: npt.ArrayLike,
    valid: npt.ArrayLike | None = None,
    *,
    scale: Scale = "2/1",
    expected: npt.ArrayLike | None = None,
) -> npt.NDArray[np.float64]:
    """:func:`matchpoints` for many boards: one row per board (or comparison group).

    ``valid`` marks the real results (False for padding or artificial scores,
    whose output is 0). ``expected`` (scalar or one per row) turns on Neuberg.

    >>> matchpoints_array([[620, 620, 650, 170, -100]]).tolist()
    [[5.0, 5.0, 8.0, 2.0, 0.0]]
    """
    unit = _check_scale(scale)
    table, mask = _matrix(scores, valid)
    below, equal = _ranks(table, mask)
    mp2 = 2 * below + equal - 1
    if expected is None:
        out = mp2 * (unit / 2)
    else:
        n = mask.sum(axis=1, dtype=np.int64)[:, None]
        big_n = np.broadcast_to(np.asarray(expected, dtype=np.int64).reshape(-1, 1), n.shape)
        numerator = _TENTHS * unit * ((mp2 + 1) * big_n - n)
        denominator = 2 * np.maximum(n, 1)
        magnitude = (2 * np.abs(numerator) + denominator) // (2 * denominator)
        out = np.where(numerator >= 0, magnitude, -magnitude) / _TENTHS
    return np.where(mask, out, 0.0).astype(np.float64)


# Scores lie within +-7600; this spacing keeps each row's values apart when the
# rows are laid end to end for one global search.
_ROW_SPACING = 1 << 20
_ABSENT = _ROW_SPACING // 2 - 1


def _matrix(
    scores: npt.ArrayLike, valid: npt.ArrayLike | None
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    table = np.atleast_2d(np.asarray(scores))
    if table.ndim != 2 or not np.issubdtype(table.dtype, np.integer):
        raise BridgeError(
            f"scores must be a 2-D integer array (boards x results), got {table.dtype} "
            f"with shape {table.shape}"
        )
    table = table.astype(np.int64)
    mask = np.ones(table.shape, dtype=bool) if valid is None else np.asarray(valid, dtype=bool)
    mask = np.broadcast_to(np.atleast_2d(mask), table.shape)
    live = table[mask]
    if live.size and np.abs(live).max() >= _ABSENT:
        raise BridgeError(f"a score of {int(np.abs(live).max())} points is impossible")
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


# ----------------------------------------------------------------------- Butler


def butler_datum(scores: Sequence[int], *, exclude: int = 1, rounding: int = 10) -> float:
    """The Butler datum: mean after dropping ``exclude`` highest and lowest, rounded.

    ``rounding`` is the unit the datum is rounded to (10 points; halves away
    from zero); ``rounding=0`` keeps the exact mean.

    >>> butler_datum([620, 620, 650, 170, -100])
    470
    """
    if exclude < 0 or rounding < 0:
        raise BridgeError(f"exclude and rounding must be >= 0, got {exclude} and {rounding}")
    if not scores:
        raise BridgeError("a Butler datum needs at least one score")
    ordered = sorted(int(s) for s in scores)
    drop = min(exclude, (len(ordered) - 1) // 2)
    kept = ordered[drop : len(ordered) - drop]
    if rounding == 0:
        return sum(kept) / len(kept)
    return _round_half_away(sum(kept), len(kept) * rounding) * rounding


def butler_imps(scores: Sequence[ScoreLike], *, exclude: int = 1, rounding: int = 10) -> list[int]:
    """NS IMPs of each score against the Butler datum (rules.md §4.5); EW get the negation.

    Artificial scores (:class:`Award`) are left out of the datum and get +3/0/-3.

    >>> butler_imps([620, 620, 650, 170, -100])
    [4, 4, 5, -7, -11]
    """
    real, artificial = _split(scores)
    result = [0] * len(scores)
    if real:
        datum = butler_datum([int(scores[i]) for i in real], exclude=exclude, rounding=rounding)
        for i in real:
            result[i] = imps(int(scores[i]) - datum)
    for i in artificial:
        result[i] = adjusted_imps(Award(scores[i]))
    return result


def butler_imps_array(
    scores: npt.ArrayLike,
    valid: npt.ArrayLike | None = None,
    *,
    exclude: int = 1,
    rounding: int = 10,
) -> npt.NDArray[np.int64]:
    """:func:`butler_imps` for many boards (rows); cells not ``valid`` get 0.

    >>> butler_imps_array([[620, 620, 650, 170, -100]]).tolist()
    [[4, 4, 5, -7, -11]]
    """
    if exclude < 0 or rounding < 0:
        raise BridgeError(f"exclude and rounding must be >= 0, got {exclude} and {rounding}")
    table, mask = _matrix(scores, valid)
    n = mask.sum(axis=1, dtype=np.int64)
    # Absent cells sort last, so each row's real scores come first, in order.
    ordered = np.sort(np.where(mask, table, _ABSENT), axis=1)
    sums = np.concatenate(
        [np.zeros((table.shape[0], 1), dtype=np.int64), np.cumsum(ordered, axis=1)], axis=1
    )
    drop = np.minimum(exclude, np.maximum(n - 1, 0) // 2)
    rows = np.arange(table.shape[0])
    kept_sum = sums[rows, n - drop] - sums[rows, drop]
    kept = np.maximum(n - 2 * drop, 1)
    datum: npt.NDArray[Any]
    if rounding == 0:
        datum = kept_sum / kept
    else:
        denominator = kept * rounding
        magnitude = (2 * np.abs(kept_sum) + denominator) // (2 * denominator)
        datum = np.where(kept_sum >= 0, magnitude, -magnitude) * rounding
    out = imps_array(table - datum[:, None])
    return np.where(mask, out, 0)


# ------------------------------------------------------------------- cross-IMPs


def _divisor(divide: str, n: int) -> int:
    if divide == "comparisons":
        return max(n - 1, 1)
    if divide == "scores":
        return max(n, 1)
    if divide == "none":
        return 1
    raise BridgeError(f"unknown cross-IMP divisor {divide!r}: expected comparisons, scores or none")


def cross_imps(scores: Sequence[ScoreLike], *, divide: Divide = "comparisons") -> list[float]:
    """NS cross-IMPs: each score IMPed against every other (rules.md §4.6).

    ``divide`` normalises the sum: by the number of comparisons (``n - 1``, PBN
    ``Cross2``, the default), by the number of scores (``Cross1``) or not at all
    (``Cross``). Artificial scores are left out and get +3/0/-3.

    >>> cross_imps([620, 620, 650, 170, -100])
    [5.25, 5.25, 6.25, -5.75, -11.0]
    """
    real, artificial = _split(scores)
    divisor = _divisor(divide, len(real))
    result = [0.0] * len(scores)
    for i in real:
        total = sum(imps(int(scores[i]) - int(scores[j])) for j in real if j != i)
        result[i] = total / divisor
    for i in artificial:
        result[i] = float(adjusted_imps(Award(scores[i])))
    return result


def cross_imps_array(
    scores: npt.ArrayLike,
    valid: npt.ArrayLike | None = None,
    *,
    divide: Divide = "comparisons",
) -> npt.NDArray[np.float64]:
    """:func:`cross_imps` for many boards (rows); cells not ``valid`` get 0.

    >>> cross_imps_array([[620, 620, 650, 170, -100]], divide="none").tolist()
    [[21.0, 21.0, 25.0, -23.0, -44.0]]
    """
    table, mask = _matrix(scores, valid)
    n = mask.sum(axis=1, dtype=np.int64)
    divisor = {"comparisons": np.maximum(n - 1, 1), "scores": np.maximum(n, 1)}.get(
        divide, np.ones_like(n) if divide == "none" else None
    )
    if divisor is None:
        _divisor(divide, 0)  # raises the error naming the bad value
        raise AssertionError  # pragma: no cover
    pair = imps_array(table[:, :, None] - table[:, None, :])
    pair = np.where(mask[:, None, :], pair, 0)
    totals = pair.sum(axis=2)
    return np.where(mask, totals / divisor[:, None], 0.0)


# ------------------------------------------------------------------ board-a-match


def board_a_match(ns_score_a: int, ns_score_b: int) -> float:
    """Team A's board-a-match points: 1 for a net above 0, 0.5 for 0, 0 below (§4.7).

    ``ns_score_a`` is the NS score where team A sat NS; ``ns_score_b`` the NS
    score at the other table (where team B sat NS).

    >>> board_a_match(130, 120), board_a_match(-100, -100), board_a_match(420, 450)
    (1.0, 0.5, 0.0)
    """
    for value in (ns_score_a, ns_score_b):
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise BridgeError(f"board-a-match needs whole-number NS scores, got {value!r}")
    net = int(ns_score_a) - int(ns_score_b)
    return 1.0 if net > 0 else 0.5 if net == 0 else 0.0


def board_a_match_array(
    ns_score_a: npt.ArrayLike, ns_score_b: npt.ArrayLike
) -> npt.NDArray[np.float64]:
    """:func:`board_a_match` element by element.

    >>> board_a_match_array([130, 0, -50], [120, 0, 50]).tolist()
    [1.0, 0.5, 0.0]
    """
    net = np.asarray(ns_score_a, dtype=np.int64) - np.asarray(ns_score_b, dtype=np.int64)
    return (np.sign(net) + 1) / 2.0
