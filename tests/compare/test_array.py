"""Array forms: equal to the scalar forms of bridgescore.compare.scalar row by row, padding
ignored."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore.compare.array import (
    board_a_match_array,
    butler_imps_array,
    cross_imps_array,
    imps_array,
    matchpoints_array,
)
from bridgescore.compare.scalar import (
    board_a_match,
    butler_imps,
    cross_imps,
    imps,
    matchpoints,
)
from bridgescore.errors import ComparisonError

FIELD = [620, 620, 650, 170, -100]  # the worked example of docs/sessions.md
scores_lists = st.lists(st.integers(-76, 76).map(lambda k: 10 * k), min_size=1, max_size=30)


@given(st.lists(st.integers(-8000, 8000), max_size=50))
def test_imps_array_equals_scalar(differences: list[int]) -> None:
    assert imps_array(np.array(differences, dtype=np.int64)).tolist() == [
        imps(d) for d in differences
    ]


@given(st.lists(st.floats(-20000, 20000, allow_nan=False), max_size=30))
def test_imps_array_off_the_table(differences: list[float]) -> None:
    # Fractional differences (an unrounded Butler datum) and any size take the search path.
    assert imps_array(np.array(differences)).tolist() == [imps(d) for d in differences]
    assert imps_array([20000, -20000, 15.0]).tolist() == [24, -24, 1]


def test_worked_example_in_every_method() -> None:
    assert matchpoints_array([FIELD]).tolist() == [[5, 5, 8, 2, 0]]
    assert matchpoints_array([FIELD], scale="1/0.5").tolist() == [[2.5, 2.5, 4, 1, 0]]
    assert matchpoints_array([FIELD], expected=6).tolist() == [[6.2, 6.2, 9.8, 2.6, 0.2]]
    assert butler_imps_array([FIELD]).tolist() == [[4, 4, 5, -7, -11]]
    assert cross_imps_array([FIELD]).tolist() == [[5.25, 5.25, 6.25, -5.75, -11.0]]
    assert board_a_match_array([130, -100, 420], [120, -100, 450]).tolist() == [1.0, 0.5, 0.0]


@given(scores_lists, st.integers(1, 40), st.sampled_from(["2/1", "1/0.5"]))
def test_matchpoints_array_equals_scalar(scores: list[int], big_n: int, scale: str) -> None:
    row = np.array([scores])
    assert matchpoints_array(row, scale=scale)[0].tolist() == matchpoints(scores, scale=scale)  # type: ignore[arg-type]
    neuberg = matchpoints_array(row, scale=scale, expected=big_n)[0].tolist()  # type: ignore[arg-type]
    assert neuberg == matchpoints(scores, scale=scale, expected=big_n)  # type: ignore[arg-type]


@given(
    st.lists(st.integers(-760, 760).map(lambda k: 10 * k), min_size=1, max_size=20),
    st.integers(0, 3),
    st.sampled_from([0, 10, 50]),
)
def test_butler_array_equals_scalar(scores: list[int], exclude: int, rounding: int) -> None:
    scalar = butler_imps(scores, exclude=exclude, rounding=rounding)
    array = butler_imps_array(np.array([scores]), exclude=exclude, rounding=rounding)
    assert array[0].tolist() == scalar


@given(scores_lists, st.sampled_from(["comparisons", "scores", "none"]))
def test_cross_imps_array_equals_scalar(scores: list[int], divide: str) -> None:
    array = cross_imps_array(np.array([scores]), divide=divide)  # type: ignore[arg-type]
    assert array[0].tolist() == cross_imps(scores, divide=divide)  # type: ignore[arg-type]


@given(st.lists(st.tuples(st.integers(-7600, 7600), st.integers(-7600, 7600)), max_size=30))
def test_board_a_match_array_equals_scalar(pairs: list[tuple[int, int]]) -> None:
    a = [x for x, _ in pairs]
    b = [y for _, y in pairs]
    assert board_a_match_array(a, b).tolist() == [board_a_match(x, y) for x, y in pairs]


@settings(max_examples=50)
@given(st.lists(st.tuples(scores_lists, st.integers(0, 5)), min_size=1, max_size=6))
def test_array_forms_with_ragged_rows(rows: list[tuple[list[int], int]]) -> None:
    width = max(len(scores) for scores, _ in rows)
    table = np.zeros((len(rows), width), dtype=np.int64)
    valid = np.zeros((len(rows), width), dtype=bool)
    big_n = []
    for r, (scores, extra) in enumerate(rows):
        table[r, : len(scores)] = scores
        table[r, len(scores) :] = 9999  # padding must be ignored whatever it holds
        valid[r, : len(scores)] = True
        big_n.append(len(scores) + extra)
    mps = matchpoints_array(table, valid)
    neub = matchpoints_array(table, valid, expected=big_n)
    butler = butler_imps_array(table, valid)
    cross = cross_imps_array(table, valid)
    for r, (scores, _) in enumerate(rows):
        k = len(scores)
        assert mps[r, :k].tolist() == matchpoints(scores)
        assert neub[r, :k].tolist() == matchpoints(scores, expected=big_n[r])
        assert butler[r, :k].tolist() == butler_imps(scores)
        assert cross[r, :k].tolist() == cross_imps(scores)
        assert not mps[r, k:].any() and not butler[r, k:].any() and not cross[r, k:].any()


def test_an_empty_row_scores_nothing() -> None:
    valid = [[True, True], [False, False]]
    assert matchpoints_array([[420, 450], [0, 0]], valid, expected=3).tolist() == [
        [0.5, 3.5],
        [0.0, 0.0],
    ]
    # Two scores: nothing dropped, datum 435 -> 440; -20 is -1 IMP, +10 is 0.
    assert butler_imps_array([[420, 450], [0, 0]], valid).tolist() == [[-1, 0], [0, 0]]


def test_bad_input_is_refused() -> None:
    with pytest.raises(ComparisonError, match="2-D integer array"):
        matchpoints_array([[1.5, 2.0]])
    with pytest.raises(ComparisonError, match="999999 points is impossible"):
        butler_imps_array([[999999, 0]])
    with pytest.raises(ComparisonError, match="'half'"):
        cross_imps_array([FIELD], divide="half")  # type: ignore[arg-type]
    with pytest.raises(ComparisonError, match="'half'"):
        cross_imps_array(np.zeros((0, 0), dtype=np.int64), divide="half")  # type: ignore[arg-type]
    with pytest.raises(ComparisonError, match="'3/1'"):
        matchpoints_array([FIELD], scale="3/1")  # type: ignore[arg-type]
    with pytest.raises(ComparisonError, match="-2"):
        butler_imps_array([FIELD], rounding=-2)
