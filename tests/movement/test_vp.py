"""Victory points on the WBF continuous scale (2013): the published values, and the
scale's rules checked against the formula written out here."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bridgescore as bs
from bridgescore.movement.vp import vp_scale

# The WBF's published 8-board table, as the issue quotes it, and the 10-board value.
PUBLISHED = [(8, 1, 10.44), (8, 5, 12.05), (8, 40, 19.74), (8, 43, 20.00), (10, 10, 13.43)]


@pytest.mark.parametrize(("boards", "margin", "vp"), PUBLISHED)
def test_the_published_values(boards: int, margin: int, vp: float) -> None:
    assert bs.victory_points(margin, boards=boards) == vp
    assert bs.victory_points(-margin, boards=boards) == round(20 - vp, 2)


def test_a_draw_is_ten_each_and_a_blitz_stays_twenty() -> None:
    assert bs.victory_points(0, boards=8) == 10.0
    assert bs.victory_points(44, boards=8) == 20.0
    assert bs.victory_points(500, boards=8) == 20.0
    assert bs.victory_points(-500, boards=8) == 0.0


def _formula(margin: int, boards: int) -> float:
    tau = (math.sqrt(5) - 1) / 2
    return min(20.0, 10 + 10 * (1 - tau ** (3 * margin / (15 * math.sqrt(boards)))) / (1 - tau**3))


@pytest.mark.parametrize("boards", range(1, 65))
def test_the_scale_is_the_rounded_formula_raised_where_needed_and_never_convex(boards: int) -> None:
    scale = vp_scale(boards)
    steps = [round((b - a) * 100) for a, b in itertools.pairwise(scale)]
    # no IMP is worth more than the IMP before it, and each is worth something
    assert all(later <= earlier for earlier, later in itertools.pairwise(steps))
    assert all(step > 0 for step in steps)
    for margin, vp in enumerate(scale):
        exact = _formula(margin, boards)
        # raised, never lowered, and never by more than a few hundredths
        assert round(exact, 2) - 1e-9 <= vp <= round(exact, 2) + 0.03
    assert scale[-1] == 20.0 and scale[-2] < 20.0


@given(st.integers(-200, 200), st.integers(1, 64))
def test_winner_and_loser_share_twenty(margin: int, boards: int) -> None:
    total = bs.victory_points(margin, boards=boards) + bs.victory_points(-margin, boards=boards)
    assert round(total, 2) == 20.0


@pytest.mark.parametrize("bad", [1.5, "3", True, None])
def test_a_margin_must_be_a_whole_number(bad: object) -> None:
    with pytest.raises(bs.BridgeError, match="IMP margin must be a whole number"):
        bs.victory_points(bad, boards=8)  # type: ignore[arg-type]


def test_boards_must_be_positive() -> None:
    with pytest.raises(bs.BridgeError, match="boards must be a whole number from 1 up, got 0"):
        bs.victory_points(3, boards=0)
