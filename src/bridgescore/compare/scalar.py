"""Comparing duplicate results on one board: IMPs, matchpoints, Butler, cross-IMPs, BAM.

Pure functions on NS-view scores (Law 78; the conventions are in docs/sessions.md).
A score may also be an :class:`Award` -- an *artificial* adjusted score (Law
12C2: average plus, average, average minus) -- which is left out of every other
result's comparison and gets its fixed value instead.

Each comparison has an array form in :mod:`bridgescore.compare.array`, over a
matrix of boards x results with a ``valid`` mask, equal to it row by row, for
scoring big events.

Regulation choices fixed here (docs/sessions.md):

* Neuberg matchpoints are rounded to 0.1 MP, halves away from zero, computed
  exactly in integers (no float drift); plain matchpoints are never rounded.
* The Butler datum is rounded to the nearest ``rounding`` points (10), halves
  away from zero; when a board has too few scores to drop ``exclude`` at each
  end, as many as leave at least one score are dropped.
* Cross-IMPs are divided by the number of comparisons (``n - 1``) by default.
* Artificial adjusted scores: 60/50/40 % of the top in matchpoints, +3/0/-3 IMPs
  in every IMP form, 0.6/0.5/0.4 of a board in board-a-match.

Every rounding here goes through :func:`divide_half_away` (whole numbers) or
:func:`round_half_away` (decimal places), both exact.

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
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal, cast, get_args, overload

import numpy as np
import numpy.typing as npt

from bridgescore.errors import ComparisonError, NotationError
from bridgescore.validate import is_number

__all__ = [
    "DIVISORS",
    "IMP_THRESHOLDS",
    "SCALES",
    "Award",
    "Divide",
    "Scale",
    "ScoreLike",
    "adjusted_imps",
    "adjusted_matchpoints",
    "adjusted_percentage",
    "adjusted_share",
    "assigned_imps",
    "assigned_matchpoints",
    "board_a_match",
    "butler_datum",
    "butler_drop",
    "butler_imps",
    "check_butler",
    "cross_imps",
    "cross_imps_divisor",
    "divide_half_away",
    "imps",
    "matchpoints",
    "neuberg",
    "neuberg_tenths",
    "round_half_away",
    "scale_unit",
]

# Upper ends of each IMP band (Law 78B): a difference above the k-th value is
# worth at least k + 1 IMPs.
IMP_THRESHOLDS = (
    10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590,
    740, 890, 1090, 1290, 1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990,
)  # fmt: skip

Scale = Literal["2/1", "1/0.5"]
Divide = Literal["comparisons", "scores", "none"]
SCALES: tuple[Scale, ...] = get_args(Scale)
DIVISORS: tuple[Divide, ...] = get_args(Divide)

# Neuberg results are rounded to 1/TENTHS MP.
TENTHS = 10


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


# ---------------------------------------------------------------------- rounding


@overload
def divide_half_away(numerator: int, denominator: int) -> int: ...


@overload
def divide_half_away(
    numerator: npt.NDArray[np.int64], denominator: npt.NDArray[np.int64] | int
) -> npt.NDArray[np.int64]: ...


def divide_half_away(numerator: Any, denominator: Any) -> Any:
    """``numerator / denominator`` rounded to a whole number, halves away from zero.

    Exact integer arithmetic, element by element on integer arrays too. The
    denominator must be positive.

    >>> divide_half_away(25, 10), divide_half_away(-25, 10), divide_half_away(24, 10)
    (3, -3, 2)
    """
    magnitude = (2 * abs(numerator) + denominator) // (2 * denominator)
    # 2 * (n >= 0) - 1 is the sign (zero counts as positive), for ints and arrays alike.
    return magnitude * (2 * (numerator >= 0) - 1)


def round_half_away(value: int | float | Fraction | Decimal, places: int = 1) -> float:
    """``value`` rounded to ``places`` decimals, halves away from zero, exactly.

    A float is read as the decimal it prints as, so ``2.25`` is the half it looks
    like (binary floating point would hold a value a hair off it); for exact
    answers on computed values pass a :class:`~fractions.Fraction` or an int.

    >>> round_half_away(2.25), round_half_away(-2.25), round_half_away(0.05)
    (2.3, -2.3, 0.1)
    >>> round_half_away(Fraction(33, 8), 2)
    4.13
    """
    if not is_number(places, int) or places < 0:
        raise ComparisonError(f"decimal places must be a whole number >= 0, got {places!r}")
    exact = _exact(value, "a value to round")
    scale: int = 10**places
    return divide_half_away(exact.numerator * scale, exact.denominator) / scale


def _exact(value: object, what: str) -> Fraction:
    """A number as an exact fraction; a float by its printed (shortest) decimal form."""
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ComparisonError(f"{what} must be a finite number, got {value!r}")
        return Fraction(repr(value))
    if not is_number(value, Fraction | Decimal | int | np.integer):
        raise ComparisonError(f"{what} must be a number, got {value!r}")
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ComparisonError(f"{what} must be a finite number, got {value!r}")
        return Fraction(value)
    if isinstance(value, Fraction | int):
        return Fraction(value)
    return Fraction(int(cast(np.integer[Any], value)))


# --------------------------------------------------------------------------- IMPs


def imps(difference: float) -> int:
    """IMPs for a difference in points on the WBF scale (Law 78B), signed.

    >>> imps(450), imps(-10), imps(-20), imps(4000)
    (10, 0, -1, 24)
    """
    if not is_number(difference, int | float):
        raise ComparisonError(f"an IMP difference must be a number, got {difference!r}")
    if math.isnan(difference):
        raise ComparisonError("an IMP difference must be a number, got nan")
    size = bisect.bisect_left(IMP_THRESHOLDS, abs(difference))
    return size if difference >= 0 else -size


# ------------------------------------------------------------------- adjusted


def adjusted_share(award: Award, *, session_share: Fraction | None = None) -> Fraction:
    """The share of the top an artificial adjusted score is worth (Law 12C2), exactly.

    3/5, 1/2 or 2/5. With ``session_share`` (the pair's own share of the tops of
    the boards it played), the WBFLC variant: average plus is the better of 3/5
    and that, average minus the worse of 2/5 and that.

    >>> adjusted_share(Award.AVERAGE_PLUS), adjusted_share(Award.AVERAGE_MINUS, session_share=1)
    (Fraction(3, 5), Fraction(2, 5))
    """
    award = Award(award)
    base = Fraction(5 + int(award), 10)
    if session_share is None or award is Award.AVERAGE:
        return base
    own = _exact(session_share, "a session share")
    return max(base, own) if award is Award.AVERAGE_PLUS else min(base, own)


def adjusted_percentage(award: Award, *, session_percentage: float | None = None) -> float:
    """The percentage of an artificial adjusted score in a pairs event (Law 12C2).

    60 / 50 / 40. With ``session_percentage`` (the pair's own percentage on the
    boards it played), the WBFLC variant: average plus is the better of 60 and
    that, average minus the worse of 40 and that.

    >>> adjusted_percentage(Award.AVERAGE_PLUS, session_percentage=64.5)
    64.5
    """
    share = None
    if session_percentage is not None:
        if not is_number(session_percentage, int | float) or not math.isfinite(session_percentage):
            raise ComparisonError(
                f"a session percentage must be a finite number, got {session_percentage!r}"
            )
        # Fraction(float) is the float's exact binary value, so it comes back unchanged.
        share = Fraction(session_percentage) / 100
    return float(adjusted_share(award, session_share=share) * 100)


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


def _check_weights(components: Sequence[tuple[float, int]]) -> None:
    """An assigned score's weights must be >= 0 and sum to 1 (Law 12C1)."""
    weights = [weight for weight, _ in components]
    if not weights or abs(sum(weights) - 1) > 1e-9 or any(w < 0 for w in weights):
        raise ComparisonError(f"assigned score weights must be >= 0 and sum to 1, got {weights}")


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
    _check_weights(components)
    unit = scale_unit(scale)
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
    _check_weights(components)
    return round(sum(weight * imps(points - datum) for weight, points in components), 6)


def _split(scores: Sequence[ScoreLike]) -> tuple[list[int], list[int]]:
    """Positions of real scores and of artificial ones, checking each value."""
    real: list[int] = []
    artificial: list[int] = []
    for i, value in enumerate(scores):
        if isinstance(value, Award):
            artificial.append(i)
        elif is_number(value, int | np.integer):
            real.append(i)
        else:
            raise ComparisonError(
                f"score {i} is {value!r}: expected a whole number of points (NS view) "
                "or an Award for an artificial adjusted score"
            )
    return real, artificial


# ------------------------------------------------------------------ matchpoints


def scale_unit(scale: str) -> int:
    """What a won comparison is worth in half matchpoints: 2 on ``2/1``, 1 on ``1/0.5``.

    >>> scale_unit("2/1"), scale_unit("1/0.5")
    (2, 1)
    """
    if scale == "2/1":
        return 2
    if scale == "1/0.5":
        return 1
    raise ComparisonError(f"unknown matchpoint scale {scale!r}: expected '2/1' or '1/0.5'")


@overload
def neuberg_tenths(mp2: int, n: int, expected: int, unit: int) -> int: ...


@overload
def neuberg_tenths(
    mp2: npt.NDArray[np.int64],
    n: npt.NDArray[np.int64],
    expected: npt.NDArray[np.int64],
    unit: int,
) -> npt.NDArray[np.int64]: ...


def neuberg_tenths(mp2: Any, n: Any, expected: Any, unit: int) -> Any:
    """Neuberg's formula in tenths of an MP, rounded halves away from zero (ints or arrays).

    ``mp2`` is on the 2/1 scale among ``n`` results, ``expected`` the full board
    size, ``unit`` the :func:`scale_unit` of the answer's scale.

    >>> neuberg_tenths(5, 5, 6, 2)
    62
    """
    # 2/1: M' = (M + 1) N / n - 1; 1/0.5 is half of it. In tenths, exactly:
    return divide_half_away(TENTHS * unit * ((mp2 + 1) * expected - n), 2 * n)


def neuberg(mp2: int, n: int, expected: int, *, scale: Scale = "2/1") -> float:
    """Neuberg factoring of one score's matchpoints, rounded to 0.1 MP (docs/sessions.md).

    ``mp2`` is the score's matchpoints on the 2/1 scale among ``n`` real results;
    the board should have had ``expected`` results. The answer is on ``scale``.

    >>> neuberg(5, 5, 6)
    6.2
    """
    unit = scale_unit(scale)
    if n < 1 or expected < 1:
        raise ComparisonError(
            "Neuberg needs at least one result on a board meant to have at least one: "
            f"got {n} result(s) of {expected}"
        )
    return neuberg_tenths(mp2, n, expected, unit) / TENTHS


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
    unit = scale_unit(scale)
    real, artificial = _split(scores)
    if expected is None and artificial:
        expected = len(scores)
    if expected is not None and (not is_number(expected, int) or expected < 1):
        raise ComparisonError(f"expected must be a whole number of results >= 1, got {expected!r}")
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


# ----------------------------------------------------------------------- Butler


def check_butler(exclude: int, rounding: int) -> None:
    """Butler's options: scores dropped at each end and the datum's rounding, both >= 0."""
    if exclude < 0 or rounding < 0:
        raise ComparisonError(f"exclude and rounding must be >= 0, got {exclude} and {rounding}")


def butler_drop(count: int, exclude: int) -> int:
    """How many scores are dropped at each end of ``count``: ``exclude``, leaving one or more.

    >>> butler_drop(5, 1), butler_drop(2, 1), butler_drop(1, 3)
    (1, 0, 0)
    """
    return min(exclude, max(count - 1, 0) // 2)


def butler_datum(scores: Sequence[int], *, exclude: int = 1, rounding: int = 10) -> float:
    """The Butler datum: mean after dropping ``exclude`` highest and lowest, rounded.

    ``rounding`` is the unit the datum is rounded to (10 points; halves away
    from zero); ``rounding=0`` keeps the exact mean.

    >>> butler_datum([620, 620, 650, 170, -100])
    470
    """
    check_butler(exclude, rounding)
    if not scores:
        raise ComparisonError("a Butler datum needs at least one score")
    ordered = sorted(int(s) for s in scores)
    drop = butler_drop(len(ordered), exclude)
    kept = ordered[drop : len(ordered) - drop]
    if rounding == 0:
        return sum(kept) / len(kept)
    return divide_half_away(sum(kept), len(kept) * rounding) * rounding


def butler_imps(scores: Sequence[ScoreLike], *, exclude: int = 1, rounding: int = 10) -> list[int]:
    """NS IMPs of each score against the Butler datum; EW get the negation.

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


# ------------------------------------------------------------------- cross-IMPs


def cross_imps_divisor(divide: str, n: int) -> int:
    """What the cross-IMP sums of ``n`` scores are divided by (never less than 1).

    >>> [cross_imps_divisor(d, 5) for d in ("comparisons", "scores", "none")]
    [4, 5, 1]
    """
    if divide == "comparisons":
        return max(n - 1, 1)
    if divide == "scores":
        return max(n, 1)
    if divide == "none":
        return 1
    raise ComparisonError(
        f"unknown cross-IMP divisor {divide!r}: expected comparisons, scores or none"
    )


def cross_imps(scores: Sequence[ScoreLike], *, divide: Divide = "comparisons") -> list[float]:
    """NS cross-IMPs: each score IMPed against every other.

    ``divide`` normalises the sum: by the number of comparisons (``n - 1``, PBN
    ``Cross2``, the default), by the number of scores (``Cross1``) or not at all
    (``Cross``). Artificial scores are left out and get +3/0/-3.

    >>> cross_imps([620, 620, 650, 170, -100])
    [5.25, 5.25, 6.25, -5.75, -11.0]
    """
    real, artificial = _split(scores)
    divisor = cross_imps_divisor(divide, len(real))
    result = [0.0] * len(scores)
    for i in real:
        total = sum(imps(int(scores[i]) - int(scores[j])) for j in real if j != i)
        result[i] = total / divisor
    for i in artificial:
        result[i] = float(adjusted_imps(Award(scores[i])))
    return result


# ------------------------------------------------------------------ board-a-match


def board_a_match(ns_score_a: int, ns_score_b: int) -> float:
    """Team A's board-a-match points: 1 for a net above 0, 0.5 for 0, 0 below.

    ``ns_score_a`` is the NS score where team A sat NS; ``ns_score_b`` the NS
    score at the other table (where team B sat NS). Any margin wins.

    >>> board_a_match(130, 120), board_a_match(-100, -100), board_a_match(420, 450)
    (1.0, 0.5, 0.0)
    """
    for value in (ns_score_a, ns_score_b):
        if not is_number(value, int | np.integer):
            raise ComparisonError(f"board-a-match needs whole-number NS scores, got {value!r}")
    net = int(ns_score_a) - int(ns_score_b)
    return 1.0 if net > 0 else 0.5 if net == 0 else 0.0
