"""Comparisons on one board: worked examples, the Laws' tables and independent formulations.

The array forms are tested against these scalar forms in tests/compare/test_array.py.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bridgescore as bs
from bridgescore.compare.scalar import (
    Award,
    adjusted_imps,
    adjusted_matchpoints,
    adjusted_percentage,
    adjusted_share,
    assigned_imps,
    assigned_matchpoints,
    board_a_match,
    butler_datum,
    butler_imps,
    cross_imps,
    cross_imps_divisor,
    divide_half_away,
    imps,
    matchpoints,
    neuberg,
    round_half_away,
)
from bridgescore.errors import BridgeError, ComparisonError, NotationError

# The IMP scale of Law 78B as printed: (low, high, IMPs); the last band is open.
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
    # An unrounded Butler datum giving |d| = 15 yields 1 IMP (above the 0-10 band).
    assert imps(15) == 1 and imps(-15) == -1 and imps(10.5) == 1 and imps(10) == 0


def test_teams_examples_of_4_1() -> None:
    assert imps(620 - 170) == 10
    assert imps(620 - (-100)) == 12


def test_imps_rejects_non_numbers() -> None:
    with pytest.raises(ComparisonError, match="'450'"):
        imps("450")  # type: ignore[arg-type]
    with pytest.raises(ComparisonError, match="nan"):
        imps(float("nan"))


# ------------------------------------------------------------------ rounding


@pytest.mark.parametrize(
    ("value", "places", "rounded"),
    [
        (2.25, 1, 2.3),
        (-2.25, 1, -2.3),
        (0.05, 1, 0.1),
        (-0.05, 1, -0.1),
        (0.15, 1, 0.2),  # the binary float is 0.1499999999999999944...
        (2.35, 1, 2.4),  # ... and this one 2.35000000000000008...: both are halves
        (2.675, 2, 2.68),  # Python's round(2.675, 2) gives 2.67
        (0.5, 0, 1.0),
        (-0.5, 0, -1.0),
        (1.5, 0, 2.0),
        (2.5, 0, 3.0),  # halves to even would give 2
        (2.24, 1, 2.2),
        (2.26, 1, 2.3),
        (-2.24, 1, -2.2),
        (0.0, 1, 0.0),
        (7, 1, 7.0),
    ],
)
def test_round_half_away_at_the_halves(value: float, places: int, rounded: float) -> None:
    assert round_half_away(value, places) == rounded


def test_round_half_away_is_exact_on_fractions_and_decimals() -> None:
    assert round_half_away(Fraction(9, 4)) == 2.3
    assert round_half_away(Fraction(-9, 4)) == -2.3
    assert round_half_away(Fraction(1, 20)) == 0.1
    # A hair under the half stays below it, however small the hair.
    assert round_half_away(Fraction(9, 4) - Fraction(1, 10**30)) == 2.2
    assert round_half_away(Decimal("2.25")) == 2.3
    assert round_half_away(Decimal("-0.05")) == -0.1


@given(st.integers(-(10**7), 10**7), st.integers(0, 3))
def test_round_half_away_agrees_with_decimal_half_up(units: int, places: int) -> None:
    # The decimal module's ROUND_HALF_UP rounds ties away from zero: an independent reading.
    text = str(Decimal(units).scaleb(-(places + 1)))
    expected = float(Decimal(text).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))
    assert round_half_away(Decimal(text), places) == expected
    assert round_half_away(float(text), places) == expected


@given(st.integers(-(10**6), 10**6), st.integers(1, 1000))
def test_divide_half_away_against_fractions(numerator: int, denominator: int) -> None:
    exact = Fraction(numerator, denominator)
    below = exact.numerator // exact.denominator  # floor
    rest = exact - below
    nearest = below + 1 if rest > Fraction(1, 2) else below if rest < Fraction(1, 2) else None
    if nearest is None:  # a half: away from zero
        nearest = below + 1 if exact > 0 else below
    assert divide_half_away(numerator, denominator) == nearest


def test_rounding_refuses_what_is_not_a_number() -> None:
    with pytest.raises(ComparisonError, match="nan"):
        round_half_away(float("nan"))
    with pytest.raises(ComparisonError, match=r"'2\.25'"):
        round_half_away("2.25")  # type: ignore[arg-type]
    with pytest.raises(ComparisonError, match="-1"):
        round_half_away(2.25, -1)


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


def test_adjusted_shares_are_exact() -> None:
    assert [adjusted_share(a) for a in Award] == [Fraction(2, 5), Fraction(1, 2), Fraction(3, 5)]
    third = Fraction(2, 3)
    assert adjusted_share(Award.AVERAGE_PLUS, session_share=third) == third
    assert adjusted_share(Award.AVERAGE_MINUS, session_share=third) == Fraction(2, 5)
    assert adjusted_share(Award.AVERAGE, session_share=third) == Fraction(1, 2)
    # The float forms give a float percentage back unchanged.
    assert adjusted_percentage(Award.AVERAGE_PLUS, session_percentage=60.1) == 60.1
    with pytest.raises(ComparisonError, match="inf"):
        adjusted_percentage(Award.AVERAGE_PLUS, session_percentage=float("inf"))


def test_assigned_adjusted_scores_are_weighted() -> None:
    # Law 12C1: 80 % of +420 and 20 % of +450 against 420, 450, 400:
    # +420 earns 2 + 1 = 3, +450 earns 4 + 1 = 5; 0.8 x 3 + 0.2 x 5 = 3.4.
    assert assigned_matchpoints([(0.8, 420), (0.2, 450)], [420, 450, 400]) == 3.4
    assert assigned_matchpoints([(0.8, 420), (0.2, 450)], [420, 450, 400], scale="1/0.5") == 1.7
    assert assigned_matchpoints([(1.0, 620)], [620, 170]) == matchpoints([620, 620, 170])[0]
    # +200 is 5 IMPs, -250 is -6: half each gives -0.5.
    assert assigned_imps([(0.5, 620), (0.5, 170)], 420) == -0.5
    with pytest.raises(ComparisonError, match=r"sum to 1, got \[0.8, 0.3\]"):
        assigned_matchpoints([(0.8, 420), (0.3, 450)], [400])
    with pytest.raises(ComparisonError, match="sum to 1"):
        assigned_imps([], 0)
    with pytest.raises(ComparisonError, match=r"\[1.2, -0.2\]"):
        assigned_imps([(1.2, 620), (-0.2, 170)], 420)


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
    with pytest.raises(ComparisonError, match="'620'"):
        matchpoints([100, "620"])  # type: ignore[list-item]
    with pytest.raises(ComparisonError, match="'3/1'"):
        matchpoints([1], scale="3/1")  # type: ignore[arg-type]
    with pytest.raises(ComparisonError, match="expected"):
        matchpoints([1, 2], expected=0)
    with pytest.raises(ComparisonError, match="got 0 result"):
        neuberg(0, 0, 5)
    with pytest.raises(ComparisonError, match="-1"):
        butler_datum(FIELD, exclude=-1)
    with pytest.raises(ComparisonError, match="at least one score"):
        butler_datum([])
    # Every comparison error is a BridgeError (and so a ValueError) too.
    assert issubclass(ComparisonError, BridgeError) and issubclass(ComparisonError, ValueError)


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


# ------------------------------------------------------------------ cross-IMPs


def test_cross_imps_worked_example() -> None:
    assert cross_imps(FIELD, divide="none") == [21, 21, 25, -23, -44]
    assert cross_imps(FIELD) == [5.25, 5.25, 6.25, -5.75, -11.0]
    assert cross_imps(FIELD, divide="scores") == [21 / 5, 21 / 5, 25 / 5, -23 / 5, -44 / 5]


@given(scores_lists, st.sampled_from(["comparisons", "scores", "none"]))
def test_cross_imps_sum_to_zero(scores: list[int], divide: str) -> None:
    raw = [
        sum(band_imps(s - t) for j, t in enumerate(scores) if j != i) for i, s in enumerate(scores)
    ]
    assert sum(raw) == 0
    result = cross_imps(scores, divide=divide)  # type: ignore[arg-type]
    divisor = {"comparisons": max(len(scores) - 1, 1), "scores": len(scores), "none": 1}[divide]
    assert result == [r / divisor for r in raw]


def test_cross_imps_unknown_divisor() -> None:
    with pytest.raises(ComparisonError, match="'half'"):
        cross_imps(FIELD, divide="half")  # type: ignore[arg-type]
    with pytest.raises(ComparisonError, match="'half'"):
        cross_imps_divisor("half", 3)
    assert [cross_imps_divisor(d, 1) for d in ("comparisons", "scores", "none")] == [1, 1, 1]


# ------------------------------------------------------------- board-a-match


def test_board_a_match_rules() -> None:
    assert board_a_match(130, 120) == 1.0  # any margin wins (§4.7)
    assert board_a_match(-100, -100) == 0.5
    assert board_a_match(420, 450) == 0.0
    with pytest.raises(ComparisonError, match=r"1\.5"):
        board_a_match(1.5, 2)  # type: ignore[arg-type]


@given(st.integers(-7600, 7600), st.integers(-7600, 7600))
def test_board_a_match_is_zero_sum(a: int, b: int) -> None:
    assert board_a_match(a, b) + board_a_match(b, a) == 1.0


def test_exported_from_the_package() -> None:
    assert bs.imps(450) == 10
    assert bs.matchpoints(FIELD) == [5, 5, 8, 2, 0]
    assert bs.butler_imps(FIELD) == [4, 4, 5, -7, -11]
    assert bs.cross_imps(FIELD)[0] == 5.25
    assert bs.board_a_match(130, 120) == 1.0
    assert bs.adjusted_percentage(bs.Award.AVERAGE_PLUS) == 60
