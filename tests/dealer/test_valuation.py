"""pointcount / altcount, cccc, quality and rnd in conditions, against evaluations written here.

The references below work on one Deal at a time in plain Python: card weights
summed over a hand, and Kaplan and Rubens' valuation as ``dealer`` computes it,
written in fractions of a point (as the 1982 article counts) and only scaled by
100 at the end. A condition's integer value is read back bit by bit with the
language's own ``/`` and ``%`` (checked against C elsewhere), so every deal's
exact value is compared, not a yes/no.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore.core import Seat, Strain
from bridgescore.deal import Deal, random_deal_array
from bridgescore.dealer.condition import parse_condition
from bridgescore.dealer.dealing import deal_many, evaluate
from bridgescore.errors import ConditionError

OWNERS = random_deal_array(300, seed=1982)
DEALS = [Deal.from_array(row) for row in OWNERS]
SEAT_WORDS = {Seat.NORTH: "north", Seat.EAST: "east", Seat.SOUTH: "south", Seat.WEST: "west"}
SUITS = {Strain.SPADES: "spades", Strain.HEARTS: "hearts", Strain.DIAMONDS: "diamonds",
         Strain.CLUBS: "clubs"}  # fmt: skip
OFFSET, BITS = 1000, 13  # values read back must lie in -1000 .. 7191


def values(
    expression: str, owners: npt.NDArray[np.int8] = OWNERS, declarations: str = ""
) -> list[int]:
    """Each deal's value of an integer expression, read one bit at a time."""
    total = np.zeros(owners.shape[0], dtype=np.int64)
    for bit in range(BITS):
        text = f"{declarations}\n(({expression}) + {OFFSET}) / {2**bit} % 2 == 1"
        total += evaluate(text, owners).astype(np.int64) << bit
    return (total - OFFSET).tolist()


def ranks(deal: Deal, seat: Seat, suit: Strain) -> set[int]:
    return {card.rank for card in deal[seat].cards if card.suit == suit}


def weighted(deal: Deal, seat: Seat, weights: list[int], suit: Strain | None = None) -> int:
    # dealer lists weights from the ace down: weights[0] is the ace, weights[12] the two.
    by_rank = {14 - i: w for i, w in enumerate(weights)}
    return sum(by_rank.get(c.rank, 0) for c in deal[seat].cards if suit in (None, c.suit))


# -- pointcount and altcount -------------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(
    weights=st.lists(st.integers(0, 9), max_size=13),
    seat=st.sampled_from(list(Seat)),
    suit=st.sampled_from([None, *SUITS]),
)
def test_pointcount_gives_hcp_new_weights(
    weights: list[int], seat: Seat, suit: Strain | None
) -> None:
    declaration = "pointcount " + " ".join(map(str, weights))
    call = f"hcp({SEAT_WORDS[seat]}{'' if suit is None else ', ' + SUITS[suit]})"
    got = values(call, OWNERS[:120], declaration)
    assert got == [weighted(deal, seat, weights, suit) for deal in DEALS[:120]]


@pytest.mark.parametrize(
    ("number", "name", "default"),
    [(0, "tens", [0, 0, 0, 0, 1]), (3, "kings", [0, 1]), (5, "top2", [1, 1]),
     (9, "c13", [6, 4, 2, 1])],
)  # fmt: skip
def test_altcount_redefines_pt_n_and_its_synonym(
    number: int, name: str, default: list[int]
) -> None:
    # Before: dealer's default for that count (A, K, Q, J, T weights).
    assert values(f"pt{number}(south)") == [weighted(d, Seat.SOUTH, default) for d in DEALS]
    assert values(f"{name}(south)") == [weighted(d, Seat.SOUTH, default) for d in DEALS]
    weights = [5, 0, 3, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1]  # A 5, Q 3, T 2, two 1
    declaration = f"altcount {number} " + " ".join(map(str, weights))
    expected = [weighted(deal, Seat.SOUTH, weights) for deal in DEALS]
    assert values(f"pt{number}(south)", declarations=declaration) == expected
    assert values(f"{name}(south)", declarations=declaration) == expected
    spades = [weighted(deal, Seat.SOUTH, weights, Strain.SPADES) for deal in DEALS]
    assert values(f"{name}(south, spades)", declarations=declaration) == spades
    # The other counts and hcp keep their defaults.
    assert values("hcp(south)", declarations=declaration) == [d[Seat.SOUTH].hcp for d in DEALS]
    other = 4 if number != 4 else 3  # aces, or kings when the aces were redefined
    assert values(f"pt{other}(south)", declarations=declaration) == [
        weighted(d, Seat.SOUTH, [1] if other == 4 else [0, 1]) for d in DEALS
    ]


def test_declarations_count_wherever_they_are_written() -> None:
    # dealer reads the whole input before dealing: a later pointcount still applies.
    before = evaluate("pointcount 1 1 1 1\nhcp(west) == top4(west)", OWNERS)
    after = evaluate("hcp(west) == top4(west)\npointcount 1 1 1 1", OWNERS)
    assert before.all() and after.all()
    plain = evaluate("hcp(west) == top4(west)", OWNERS)
    assert not plain.all()  # with 4-3-2-1 they differ on most deals


def test_a_definition_uses_the_declared_count() -> None:
    text = """
    pointcount 6 4 2 1         # Burnstine: the same weights as c13
    opener = hcp(north) >= 12
    altcount 1 0 0 0 0 0 0 0 0 0 0 0 0 0
    opener && jacks(north) == 0
    """
    expected = [weighted(d, Seat.NORTH, [6, 4, 2, 1]) >= 12 for d in DEALS]
    assert evaluate(text, OWNERS).tolist() == expected


@pytest.mark.parametrize(
    ("text", "column", "caret", "expected"),
    [
        ("altcount 10 1 2\nhcp(north) > 1", 10, "^^", "alternative count, 0 to 9"),
        ("altcount north 1\nhcp(north) > 1", 10, "^^^^^", "alternative count, 0 to 9"),
        ("pointcount 1 2 3 4 5 6 7 8 9 10 11 12 13 14\n1", 42, "^^", "13 at most"),
        ("pointcount = 3\nhcp(north) > 1", 1, "^" * 10, "is a reserved word"),
        ("tricks(north, spades) >= 10", 1, "^^^^^^", "double-dummy solve"),
        ("imps(score(NV, x4S, 10)) > 0", 1, "^^^^", "double-dummy solve"),
        ("quality(north) > 100", 14, "^", "expected ',' then a suit"),
        ("quality(north, trumps) > 100", 16, "^^^^^^", "is not a suit"),
        ("cccc(nrth) > 1200", 6, "^^^^", "is not a seat"),
        ("rnd() < 3", 5, "^", "expected a number"),
        ("rnd(4 < 3", 10, "^", "expected ')' to close rnd("),
        ("pointcount 1 99999999999\n1", 14, "^" * 11, "is too large"),
        ("hcp(north) < 2147483648", 14, "^" * 10, "numbers go up to 2,147,483,647"),
    ],
)
def test_bad_uses_point_at_the_token(text: str, column: int, caret: str, expected: str) -> None:
    with pytest.raises(ConditionError) as caught:
        parse_condition(text)
    message = str(caught.value)
    assert f"column {column}:" in message and expected in message, message
    assert message.splitlines()[-1].rstrip() == "  " + " " * (column - 1) + caret


# -- Kaplan and Rubens: quality and cccc ----------------------------------------------------


def ref_quality(held: set[int]) -> Fraction:
    """Suit quality in points (dealer's reading of the 1982 article)."""
    length = len(held)
    points = Fraction(sum({14: 4, 13: 3, 12: 2, 11: 1}.get(rank, 0) for rank in held))
    honours = len(held & {14, 13, 12, 11})
    if length >= 7:
        # Long suits: a missing queen (2) and jack (1) count as held, one point a card over 6.
        missing = (2 if 12 not in held else 0) + (1 if 11 not in held else 0)
        points += min(missing, length - 6)
    else:
        if 10 in held:
            points += 1 if honours >= 2 or 11 in held else Fraction(1, 2)
        if 9 in held and (honours == 2 or 10 in held or 8 in held):
            points += Fraction(1, 2)
    return Fraction(length, 10) * points


def ref_cccc(deal: Deal, seat: Seat) -> Fraction:
    total = Fraction(0)
    shape_points = 0
    for suit in SUITS:
        held = ranks(deal, seat, suit)
        length = len(held)
        shape_points += max(3 - length, 0)  # void 3, singleton 2, doubleton 1
        if 14 in held:
            total += 3
        if 13 in held:
            total += Fraction(1, 2) if length == 1 else 2
        if 12 in held:
            total += 1 - {1: Fraction(3, 4), 2: Fraction(1, 4)}.get(length, 0)
            if not held & {14, 13}:
                total -= Fraction(1, 4)
        above_jack = len(held & {14, 13, 12})
        if 11 in held:
            total += {2: Fraction(1, 2), 1: Fraction(1, 4)}.get(above_jack, 0)
        above_ten = len(held & {14, 13, 12, 11})
        if 10 in held and (above_ten == 2 or (above_ten == 1 and 9 in held)):
            total += Fraction(1, 4)
        total += ref_quality(held)
    return total + (Fraction(-1, 2) if shape_points == 0 else shape_points - 1)


def hundredths(value: Fraction) -> int:
    assert (value * 100).denominator == 1, value  # dealer's scale makes every value whole
    return int(value * 100)


@pytest.mark.parametrize(
    ("holding", "expected"),
    [
        ("AQT432", 420),  # 6 x (4 + 2 + 1 for the ten beside two honours) / 10
        ("KT5", 105),  # 3 x (3 + 1/2 for a ten beside one honour) / 10
        ("KQJT98765", 540),  # 9 cards, Q and J held: 9 x 6 / 10, no long-suit points
        ("A8765432", 480),  # 8 cards missing Q and J: 2 points replaced, 8 x 6 / 10
        ("T9", 20),  # 2 x (1/2 + 1/2) / 10
        ("", 0),
    ],
)
def test_quality_worked_examples(holding: str, expected: int) -> None:
    held = {"23456789TJQKA".index(rank) + 2 for rank in holding}
    assert hundredths(ref_quality(held)) == expected
    hands = {"S": holding}
    deal = _deal_with_north(hands)
    assert values("quality(north, spades)", deal.to_array()[None, :]) == [expected]


def _deal_with_north(suits: dict[str, str]) -> Deal:
    # North holds the given cards; the rest of the pack fills East, South, West, then North.
    north = {letter + rank for letter, holding in suits.items() for rank in holding}
    pack = [s + r for s in "SHDC" for r in "AKQJT98765432" if s + r not in north]
    hands: dict[str, list[str]] = {"N": sorted(north), "E": [], "S": [], "W": []}
    for card in pack:
        seat = next(s for s in "ESWN" if len(hands[s]) < 13)
        hands[seat].append(card)
    pbn = " ".join(
        ".".join("".join(c[1] for c in hands[s] if c[0] == suit) for suit in "SHDC") for s in "NESW"
    )
    return Deal.from_pbn("N:" + pbn)


@pytest.mark.parametrize("seat", list(Seat))
def test_quality_agrees_with_the_reference(seat: Seat) -> None:
    for suit, word in SUITS.items():
        got = values(f"quality({SEAT_WORDS[seat]}, {word})")
        assert got == [hundredths(ref_quality(ranks(d, seat, suit))) for d in DEALS], word


@pytest.mark.parametrize("seat", list(Seat))
def test_cccc_agrees_with_the_reference(seat: Seat) -> None:
    got = values(f"cccc({SEAT_WORDS[seat]})")
    assert got == [hundredths(ref_cccc(deal, seat)) for deal in DEALS]


def test_cccc_worked_example() -> None:
    # North AKQ2.AK2.AK2.AK2 (4333): controls and honours 3+2+1 + 3+2 + 3+2 + 3+2 = 21;
    # quality 4 x 9 / 10 + 3 x 7 / 10 x 3 = 3.6 + 6.3 = 9.9; flat: -0.5. Total 30.4.
    deal = _deal_with_north({"S": "AKQ2", "H": "AK2", "D": "AK2", "C": "AK2"})
    assert values("cccc(north)", deal.to_array()[None, :]) == [3040]
    assert hundredths(ref_cccc(deal, Seat.NORTH)) == 3040


# -- rnd -----------------------------------------------------------------------------------


def test_rnd_stays_in_range_and_is_uniform() -> None:
    owners = random_deal_array(4000, seed=7)
    drawn = np.array(values("rnd(6)", owners))
    assert drawn.min() == 0 and drawn.max() == 5
    counts = np.bincount(drawn, minlength=6)
    # Each face 1/6 of 4000 deals: 666.7, standard deviation 23.6; 5 of them is 118.
    assert np.all(np.abs(counts - 4000 / 6) < 118), counts
    assert values("rnd(1)", owners[:50]) == [0] * 50
    assert values("rnd(0)", owners[:50]) == [0] * 50


def test_two_rnd_calls_are_independent_and_ignore_the_hands() -> None:
    owners = random_deal_array(4000, seed=8)
    first = np.array(values("rnd(2)", owners))
    second = np.array(values("rnd(2) + 0 * rnd(2)", owners))  # the second call's value
    both = evaluate("rnd(2) == 1 && rnd(2) == 1", owners).mean()
    # Independent halves: both 1 on a quarter of the deals (sd 0.0068; 5 sd = 0.034).
    assert abs(both - 0.25) < 0.034
    assert np.array_equal(first, second)  # the first rnd of a condition: same salt, same value
    strong = np.array([deal[Seat.NORTH].hcp >= 13 for deal in map(Deal.from_array, owners)])
    # Not tied to the cards: the share of 1s is a half among strong and weak hands alike.
    assert abs(first[strong].mean() - 0.5) < 5 * 0.5 / np.sqrt(strong.sum())
    assert abs(first[~strong].mean() - 0.5) < 5 * 0.5 / np.sqrt((~strong).sum())


def test_rnd_is_a_property_of_the_deal() -> None:
    where = "rnd(3) == 0 && hcp(south) >= 10"
    deals = deal_many(60, seed=11, where=where)
    assert deal_many(60, seed=11, where=where) == deals  # reproducible
    owners = np.array([deal.to_array() for deal in deals])
    assert evaluate(where, owners).all()  # the dealt deals pass when checked again
    # A deal's value does not depend on the other deals checked with it.
    assert values("rnd(1000)", owners) == values("rnd(1000)", owners[::-1])[::-1]
    # About a third of random deals pass rnd(3) == 0 (sd 0.015 over 1,000; 5 sd = 0.075).
    share = evaluate("rnd(3) == 0", random_deal_array(1000, seed=9)).mean()
    assert abs(share - 1 / 3) < 0.075
