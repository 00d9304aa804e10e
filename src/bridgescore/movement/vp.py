"""Victory points on the WBF continuous scale (2013), as team matches are scored.

For a match of N boards the winner of an M-IMP margin gets

    VP = 10 + 10 * (1 - tau ** (3 * M / B)) / (1 - tau ** 3),  tau = (sqrt(5) - 1) / 2,
    B = 15 * sqrt(N),

capped at 20 and rounded to two decimals; the loser gets 20 minus that. Rounding alone
could make one IMP worth a hundredth more than the IMP before it, so the rounded scale
is raised by 0.01 at a time where needed until no IMP is worth more than the one before
(the WBF's published 8-board table: 1 IMP -> 10.44, 40 -> 19.74, 43 -> 20.00).
"""

from __future__ import annotations

import math
from functools import cache

from bridgescore.validate import whole_number_arg

__all__ = ["victory_points", "vp_scale"]

_TAU = (math.sqrt(5) - 1) / 2


def _formula_hundredths(margin: int, boards: int) -> int:
    blowout = 15 * math.sqrt(boards)
    value: float = 10 + 10 * (1 - _TAU ** (3 * margin / blowout)) / (1 - _TAU**3)
    # Rounded half up, as the published tables are; the 1e-9 keeps a value such as
    # 12.045 that floats store as 12.04499... on the side the decimal reading puts it.
    return min(2000, math.floor(value * 100 + 0.5 + 1e-9))


@cache
def vp_scale(boards: int) -> tuple[float, ...]:
    """The winner's VPs for margins 0, 1, 2, ... up to the first margin worth 20.00.

    >>> vp_scale(8)[:6]
    (10.0, 10.44, 10.86, 11.27, 11.67, 12.05)
    """
    boards = whole_number_arg(boards, "boards", 1)
    hundredths = [_formula_hundredths(0, boards)]
    while hundredths[-1] < 2000:
        hundredths.append(_formula_hundredths(len(hundredths), boards))
    # Each step must be no larger than the step before it. Where one is larger, the value
    # between the two is raised by 0.01 (shrinking the larger step, growing the smaller),
    # and the walk steps back, since the step below has grown; it stops when no step is
    # larger than its predecessor. Values only ever rise, so the walk ends.
    index = 2
    while index < len(hundredths):
        upper = hundredths[index] - hundredths[index - 1]
        lower = hundredths[index - 1] - hundredths[index - 2]
        if upper > lower:
            hundredths[index - 1] += 1
            index = max(2, index - 1)
        else:
            index += 1
    return tuple(value / 100 for value in hundredths)


def victory_points(margin: int, *, boards: int) -> float:
    """The VPs of a side that wins a match of ``boards`` boards by ``margin`` IMPs
    (a negative margin: the side lost, and gets 20 minus the winner's VPs).

    >>> victory_points(10, boards=10)
    13.43
    >>> victory_points(-10, boards=10)
    6.57
    >>> victory_points(43, boards=8)
    20.0
    """
    margin = whole_number_arg(margin, "IMP margin")
    scale = vp_scale(boards)
    winner = scale[min(abs(margin), len(scale) - 1)]
    return winner if margin >= 0 else round(20 - winner, 2)
