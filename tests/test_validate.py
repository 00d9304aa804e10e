"""The shared whole-number check: bools are never numbers, bounds are inclusive."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgescore.validate import is_whole_number


@pytest.mark.parametrize("value", [True, False, 1.0, "3", None, 2 + 0j, np.int64(3)])
def test_not_whole_numbers(value: object) -> None:
    assert not is_whole_number(value)


def test_numpy_integers_only_when_asked() -> None:
    assert is_whole_number(np.int32(4), 0, 13, numpy=True)
    assert not is_whole_number(np.bool_(True), numpy=True)
    assert not is_whole_number(np.float64(4.0), numpy=True)


@given(st.integers(-50, 50), st.none() | st.integers(-20, 20), st.none() | st.integers(-20, 20))
def test_bounds_are_inclusive(value: int, low: int | None, high: int | None) -> None:
    inside = (low is None or low <= value) and (high is None or value <= high)
    assert is_whole_number(value, low, high) is inside
