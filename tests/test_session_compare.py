"""Comparisons on one board: rules.md §4 worked examples and independent formulations."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bridgescore as bs
from bridgescore.errors import BridgeError, NotationError
from bridgescore.session.compare import (
    Award,
    adjusted_imps,
    adjusted_matchpoints,
    adjusted_percentage,
    assigned_imps,
    assigned_matchpoints,
    board_a_match,
    board_a_match_array,
    butler_datum,
    butler_imps,
    butler_imps_array,
    cross_imps,
    cross_imps_array,
    imps,
    imps_array,
    matchpoints,
    matchpoints_array,
    neuberg,
)

# rules.md §4.1, the band table as printed: (low, high, IMPs); the last is open.
IMP_BANDS = [
    (0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5),
    (220, 260, 6), (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10),
    (500, 590, 11), (600, 740, 12), (750, 890, 13), (900, 1090, 14), (1100, 1290, 15),
    (1300, 1490, 16), (1500, 1740, 17), (1750, 1990, 18), (2000, 2240, 19),
    (2250, 2490, 20), (2500, 2990, 21), (3000, 3490, 22), (3500, 3990, 23),
]  # fmt: skip

FIELD = [620, 620, 650, 170, -100]  # the worked example of §4.2, §4.3, §4.5, §4.6


def band_imps(difference: int) -> int:
    """IMPs read off the printed table (multiples of 10)."""
    size = abs(difference)
    for low, high, value in IMP_BANDS:
        if low <= size <= high:
            return value if difference >= 0 else -value
    assert size >= 4000
    return 24 if difference >= 0 else -24


# ------------------------------------------------------------------ IMP scale


@pytest.mark.parametrize(("low", "high", "value"), IMP_BANDS)
def test_imp_scale_at_every_boundary_both_signs(low: int, high: int, value: int) -> None:
    for difference in (low, high):
        assert imps(difference) == value
        assert imps(-difference) == -value
    assert imps(high + 10) == value + 1
    assert imps(-(high + 10)) == -(value + 1)


def test_imp_scale_top_band() -> None:
    assert imps(4000) == 24 and imps(-4000) == -24
    assert imps(7600) == 24 and imps(-7600) == -24
    assert imps(3990) == 23


@given(st.integers(-800, 800).map(lambda k: 10 * k))
def test_imps_agree_with_the_printed_table(difference: int) -> None:
    assert imps(difference) == band_imps(difference)
    assert imps(-difference) == -imps(difference)


def test_imps_between_multiples_of_ten() -> None:
    # rules.md §4.1: an unrounded Butler datum giving |d| = 15 yields 1 IMP.
    assert imps(15) == 1 and imps(-15) == -1 and imps(10.5) == 1 and imps(10) == 0


def test_teams_examples_of_4_1() -> None:
    assert imps(620 - 170) == 10
    assert imps(620 - (-100)) == 12


@given(st.lists(st.integers(-8000, 8000), max_size=50))
def test_imps_array_equals_scalar(differences: list[int]) -> None:
    assert imps_array(np.array(differences, dtype=np.int64)).tolist() == [
        imps(d) for d in differences
    ]


def test_imps_rejects_non_numbers() -> None:
    with pytest.raises(BridgeError, match="'450'"):
        imps("450")  # type: ignore[arg-type]
    with pytest.raises(BridgeError):
        imps(float("nan"))


# --------------------------------------------------------------- matchpoints


def test_matchpoints_worked_example() -> None:
    assert matchpoints(FIELD) == [5, 5, 8, 2, 0]
    assert matchpoints(FIELD, scale="1/0.5") == [2.5, 2.5, 4, 1, 0]


def naive_mp2(scores: list[int]) -> list[int]:
    """Law 78A read literally: 2 per score beaten, 1 per tie."""
    return [
        sum(2 if s > t else 1 if s == t else 0 for j, t in enumerate(scores) if j != i)
        for i, s in enumerate(scores)
    ]


scores_lists = st.lists(st.integers(-76, 76).map(lambda k: 10 * k), min_size=1, max_size=30)


@given(scores_lists)
def test_matchpoints_law_78a_sum_and_top(scores: list[int]) -> None:
    n = len(scores)
    mps = matchpoints(scores)
    assert mps == naive_mp2(scores)
    assert sum(mps) == n * (n - 1)
    top = 2 * (n - 1)
    # EW's matchpoints, computed from EW's own view of the same scores.
    ew = matchpoints([-s for s in scores])
    assert all(a + b == top for a, b in zip(mps, ew, strict=True))
    half = matchpoints(scores, scale="1/0.5")
    assert half == [m / 2 for m in mps]


def exact_neuberg(mp2: int, n: int, big_n: int) -> Fraction:
    return Fraction((mp2 + 1) * big_n, n) - 1


def round_tenth(value: Fraction) -> float:
    tenths = value * 10
    whole = int(abs(tenths) + Fraction(1, 2))
    return (whole if tenths >= 0 else -whole) / 10


def test_neuberg_worked_example() -> None:
    assert matchpoints(FIELD, expected=6) == [6.2, 6.2, 9.8, 2.6, 0.2]
    assert matchpoints(FIELD, expected=6, scale="1/0.5") == [3.1, 3.1, 4.9, 1.3, 0.1]


@given(scores_lists, st.integers(1, 40))
def test_neuberg_matches_the_formula(scores: list[int], big_n: int) -> None:
    n = len(scores)
    expected = [round_tenth(exact_neuberg(m, n, big_n)) for m in naive_mp2(scores)]
    assert matchpoints(scores, expected=big_n) == expected
    array = matchpoints_array(np.array([scores]), expected=big_n)[0].tolist()
    assert array == expected


@given(st.integers(1, 40), st.integers(1, 40))
def test_neuberg_leaves_an_average_unchanged(n: int, big_n: int) -> None:
    # An average on a board of n results is n - 1 MPs (2/1): it stays 50 % of the new top.
    assert neuberg(n - 1, n, big_n) == big_n - 1
    assert neuberg(n - 1, n, big_n, scale="1/0.5") == (big_n - 1) / 2


def test_neuberg_with_the_expected_size_changes_nothing() -> None:
    assert matchpoints(FIELD, expected=5) == matchpoints(FIELD)


# ------------------------------------------------------------ adjusted scores


def test_award_parse_and_text() -> None:
    assert [Award.parse(t) for t in ("A+", "ave", "A-", "60%", "40")] == [
        Award.AVERAGE_PLUS,
        Award.AVERAGE,
        Award.AVERAGE_MINUS,
        Award.AVERAGE_PLUS,
        Award.AVERAGE_MINUS,
    ]
    assert [str(a) for a in Award] == ["A-", "A", "A+"]
    assert Award.AVERAGE_PLUS.mirror is Award.AVERAGE_MINUS
    with pytest.raises(NotationError, match="'A\\+\\+'"):
        Award.parse("A++")


def test_adjusted_values_law_12c2() -> None:
    assert [adjusted_percentage(a) for a in Award] == [40, 50, 60]
    assert [adjusted_imps(a) for a in Award] == [-3, 0, 3]
    assert adjusted_imps(Award.AVERAGE_PLUS, value=2) == 2
    assert adjusted_matchpoints(Award.AVERAGE_MINUS, 10) == 4.0
    # The WBFLC session-percentage variant.
    assert adjusted_percentage(Award.AVERAGE_PLUS, session_percentage=64.5) == 64.5
    assert adjusted_percentage(Award.AVERAGE_PLUS, session_percentage=55) == 60
    assert adjusted_percentage(Award.AVERAGE_MINUS, session_percentage=35) == 35
    assert adjusted_percentage(Award.AVERAGE_MINUS, session_percentage=45) == 40
    assert adjusted_percentage(Award.AVERAGE, session_percentage=70) == 50


def test_assigned_adjusted_scores_are_weighted() -> None:
    # Law 12C1: 80 % of +420 and 20 % of +450 against 420, 450, 400:
    # +420 earns 2 + 1 = 3, +450 earns 4 + 1 = 5; 0.8 x 3 + 0.2 x 5 = 3.4.
    assert assigned_matchpoints([(0.8, 420), (0.2, 450)], [420, 450, 400]) == 3.4
    assert assigned_matchpoints([(0.8, 420), (0.2, 450)], [420, 450, 400], scale="1/0.5") == 1.7
    assert assigned_matchpoints([(1.0, 620)], [620, 170]) == matchpoints([620, 620, 170])[0]
    # +200 is 5 IMPs, -250 is -6: half each gives -0.5.
    assert assigned_imps([(0.5, 620), (0.5, 170)], 420) == -0.5
    with pytest.raises(BridgeError, match="sum to 1"):
        assigned_matchpoints([(0.8, 420), (0.3, 450)], [400])
    with pytest.raises(BridgeError, match="sum to 1"):
        assigned_imps([], 0)


def test_adjusted_scores_are_left_out_of_matchpoints() -> None:
    # Six tables, one artificial: the five real scores are compared among
    # themselves and factored up to 6 (§4.3), the award gets 60 % of top 10.
    scores: list[int | Award] = [620, 620, Award.AVERAGE_PLUS, 650, 170, -100]
    assert matchpoints(scores) == [6.2, 6.2, 6.0, 9.8, 2.6, 0.2]
    # Changing the award never moves the other results.
    other = matchpoints([620, 620, Award.AVERAGE_MINUS, 650, 170, -100])
    assert other == [6.2, 6.2, 4.0, 9.8, 2.6, 0.2]


def test_adjusted_scores_are_left_out_of_butler_and_cross_imps() -> None:
    with_award: list[int | Award] = [*FIELD, Award.AVERAGE]
    assert butler_imps(with_award) == [4, 4, 5, -7, -11, 0]
    assert cross_imps(with_award) == [5.25, 5.25, 6.25, -5.75, -11.0, 0.0]
    assert butler_imps([Award.AVERAGE_PLUS, *FIELD]) == [3, 4, 4, 5, -7, -11]


def test_bad_scores_are_refused() -> None:
    with pytest.raises(BridgeError, match="'620'"):
        matchpoints([100, "620"])  # type: ignore[list-item]
    with pytest.raises(BridgeError, match="'3/1'"):
        matchpoints([1], scale="3/1")  # type: ignore[arg-type]
    with pytest.raises(BridgeError, match="expected"):
        matchpoints([1, 2], expected=0)


# ---------------------------------------------------------------------- Butler


def test_butler_worked_example() -> None:
    assert butler_datum(FIELD) == 470
    assert butler_imps(FIELD) == [4, 4, 5, -7, -11]


def test_butler_variants() -> None:
    # PBN "Butler": no exclusion; mean of the five is 392 -> datum 390.
    assert butler_datum(FIELD, exclude=0) == 390
    assert butler_imps(FIELD, exclude=0) == [imps(s - 390) for s in FIELD]
    # Unrounded datum 392.0.
    assert butler_datum(FIELD, exclude=0, rounding=0) == 392.0
    # Datum ties: the mean 425 rounds away from zero to 430, -425 to -430.
    assert butler_datum([400, 450], exclude=0) == 430
    assert butler_datum([-400, -450], exclude=0) == -430
    assert butler_datum([-10, 0], exclude=0, rounding=10) == -10
    assert butler_datum([10, 0], exclude=0, rounding=10) == 10
    # Too few scores to drop one at each end: keep at least one.
    assert butler_datum([100, 200], exclude=1) == 150
    assert butler_datum([100, 200, 600], exclude=1) == 200
    assert butler_datum([420], exclude=2) == 420


@given(
    st.lists(st.integers(-760, 760).map(lambda k: 10 * k), min_size=1, max_size=20),
    st.integers(0, 3),
    st.sampled_from([0, 10, 50]),
)
def test_butler_array_equals_scalar(scores: list[int], exclude: int, rounding: int) -> None:
    scalar = butler_imps(scores, exclude=exclude, rounding=rounding)
    array = butler_imps_array(np.array([scores]), exclude=exclude, rounding=rounding)
    assert array[0].tolist() == scalar
    datum = butler_datum(scores, exclude=exclude, rounding=rounding)
    assert scalar == [imps(s - datum) for s in scores]


# ------------------------------------------------------------------ cross-IMPs


def test_cross_imps_worked_example() -> None:
    assert cross_imps(FIELD, divide="none") == [21, 21, 25, -23, -44]
    assert cross_imps(FIELD) == [5.25, 5.25, 6.25, -5.75, -11.0]
    assert cross_imps(FIELD, divide="scores") == [21 / 5, 21 / 5, 25 / 5, -23 / 5, -44 / 5]


@given(scores_lists, st.sampled_from(["comparisons", "scores", "none"]))
def test_cross_imps_sum_to_zero_and_array_agrees(scores: list[int], divide: str) -> None:
    raw = [
        sum(band_imps(s - t) for j, t in enumerate(scores) if j != i) for i, s in enumerate(scores)
    ]
    assert sum(raw) == 0
    result = cross_imps(scores, divide=divide)  # type: ignore[arg-type]
    divisor = {"comparisons": max(len(scores) - 1, 1), "scores": len(scores), "none": 1}[divide]
    assert result == [r / divisor for r in raw]
    array = cross_imps_array(np.array([scores]), divide=divide)  # type: ignore[arg-type]
    assert array[0].tolist() == result


def test_cross_imps_unknown_divisor() -> None:
    with pytest.raises(BridgeError, match="'half'"):
        cross_imps(FIELD, divide="half")  # type: ignore[arg-type]
    with pytest.raises(BridgeError, match="'half'"):
        cross_imps_array([FIELD], divide="half")  # type: ignore[arg-type]


# ------------------------------------------------------------- board-a-match


def test_board_a_match_rules() -> None:
    assert board_a_match(130, 120) == 1.0  # any margin wins (§4.7)
    assert board_a_match(-100, -100) == 0.5
    assert board_a_match(420, 450) == 0.0
    assert board_a_match_array([130, -100, 420], [120, -100, 450]).tolist() == [1.0, 0.5, 0.0]
    with pytest.raises(BridgeError):
        board_a_match(1.5, 2)  # type: ignore[arg-type]


@given(st.integers(-7600, 7600), st.integers(-7600, 7600))
def test_board_a_match_is_zero_sum(a: int, b: int) -> None:
    assert board_a_match(a, b) + board_a_match(b, a) == 1.0


# -------------------------------------------------------- arrays with padding


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
        assert not mps[r, k:].any() and not butler[r, k:].any()


def test_exported_from_the_package() -> None:
    assert bs.imps(450) == 10
    assert bs.matchpoints(FIELD) == [5, 5, 8, 2, 0]
    assert bs.butler_imps(FIELD) == [4, 4, 5, -7, -11]
    assert bs.cross_imps(FIELD)[0] == 5.25
    assert bs.board_a_match(130, 120) == 1.0
    assert bs.adjusted_percentage(bs.Award.AVERAGE_PLUS) == 60


def test_doctests() -> None:
    import doctest

    from bridgescore.session import compare

    assert doctest.testmod(compare).failed == 0
