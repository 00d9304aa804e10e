"""The first seat's sampler, the suit-mask hand view and the bulk PBN text.

The sampler's uniformity is checked exactly: it maps each accepted 48-bit value to one
hand, so feeding it every value below its total must give every possible hand once
(a bijection), the possible hands being counted here with itertools, not by the sampler.
"""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from bridgescore.core import Seat, Strain
from bridgescore.deal import Card, Deal, random_deal_array
from bridgescore.dealer.condition import parse_condition
from bridgescore.dealer.dealing import DealSpec, deal_many, pbn_lines, pbn_strings
from bridgescore.dealer.draw import (
    HandSampler,
    MaskHandView,
    ShapeProbe,
    hand_masks,
    owner_hands,
)
from bridgescore.dealer.hand import WEIGHTS, HandView
from bridgescore.dealer.pbn import cards_by_seat
from bridgescore.errors import ConditionError


def every_value(sampler: HandSampler) -> list[tuple[int, ...]]:
    """The hands for the values 0 .. total - 1 (each placed in a draw's top 48 bits)."""
    raw = np.arange(sampler.total, dtype=np.uint64) << np.uint64(16)
    hands = sampler.draw(raw)
    return [tuple(int(x) for x in hands[:, i]) for i in range(hands.shape[1])]


def possible_hands(free: list[int], fixed: list[int], need: int) -> set[tuple[int, ...]]:
    cards = [(suit, rank) for suit in range(4) for rank in range(13) if free[suit] >> rank & 1]
    found = set()
    for chosen in itertools.combinations(cards, need):
        hand = list(fixed)
        for suit, rank in chosen:
            hand[suit] |= 1 << rank
        found.add(tuple(hand))
    return found


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(0, 0x1FFF), min_size=4, max_size=4),
    st.integers(0, 13),
    st.data(),
)
def test_the_sampler_gives_each_completion_of_a_predeal_once(
    free: list[int], need: int, data: st.DataObject
) -> None:
    m = sum(bin(mask).count("1") for mask in free)
    if need > m or comb(m, need) > 4000:
        return
    # The seat's own predealt ranks are among the cards not free.
    fixed = [data.draw(st.integers(0, 0x1FFF)) & ~free[suit] for suit in range(4)]
    sampler = HandSampler(free, fixed, need)
    assert sampler.total == sampler.possible == comb(m, need)
    hands = every_value(sampler)
    assert len(set(hands)) == len(hands)
    assert set(hands) == possible_hands(free, fixed, need)


def test_a_restricted_sampler_gives_each_hand_of_the_allowed_shapes_once() -> None:
    # Spades (suit 3) and hearts (2) have 5 free ranks each, diamonds 4, clubs 3; need 5.
    free = [0b111, 0b1111, 0b11111, 0b11111 << 8]
    sampler = HandSampler(free, [0, 0, 0, 0], 5)
    allowed = [shape[3] >= 2 and shape[0] == 0 for shape in sampler.shapes]
    restricted = sampler.restricted(allowed)
    hands = every_value(restricted)
    wanted = {
        hand
        for hand in possible_hands(free, [0, 0, 0, 0], 5)
        if bin(hand[3]).count("1") >= 2 and hand[0] == 0
    }
    assert len(hands) == len(set(hands)) == restricted.total == len(wanted)
    assert set(hands) == wanted
    assert restricted.possible == comb(17, 5)


def test_values_past_the_last_whole_multiple_are_skipped() -> None:
    sampler = HandSampler([0x1FFF] * 4, [0] * 4, 13)
    top = (1 << 48) // sampler.total * sampler.total
    raw = np.array([top - 1, top, (1 << 48) - 1], dtype=np.uint64) << np.uint64(16)
    assert sampler.draw(raw).shape == (4, 1)


def test_examples_have_each_shape() -> None:
    sampler = HandSampler([0x1FFF] * 4, [0] * 4, 13)
    assert len(sampler.shapes) == 560
    lengths = np.bitwise_count(sampler.examples()).T
    assert [tuple(row) for row in lengths.tolist()] == sampler.shapes


def test_mask_view_features_equal_the_card_view() -> None:
    owners = random_deal_array(500, seed=3)
    cards = {
        seat: np.argsort(owners != seat, axis=1, kind="stable")[:, :13].astype(np.int8)
        for seat in Seat
    }
    plain = HandView(cards, 500)
    masks = MaskHandView({seat: owner_hands(owners, seat) for seat in Seat}, 500)
    for seat in Seat:
        assert np.array_equal(np.sort(masks.cards[seat], axis=1), np.sort(cards[seat], axis=1))
        assert np.array_equal(masks.shape_index(seat), plain.shape_index(seat))
        for name in WEIGHTS:
            assert np.array_equal(masks.weight(seat, name, None), plain.weight(seat, name, None))
        for suit in (Strain.CLUBS, Strain.DIAMONDS, Strain.HEARTS, Strain.SPADES):
            assert np.array_equal(masks.length(seat, suit), plain.length(seat, suit))
            assert np.array_equal(masks.losers(seat, suit), plain.losers(seat, suit))
            assert np.array_equal(masks.weight(seat, "hcp", suit), plain.weight(seat, "hcp", suit))
        for card in range(52):
            assert np.array_equal(masks.has(seat, card), plain.has(seat, card))


def test_hand_masks_are_the_cards_held() -> None:
    owners = random_deal_array(50, seed=5)
    for seat in Seat:
        masks = hand_masks(owner_hands(owners, seat))
        expected = [sum(1 << c for c in range(52) if row[c] == seat) for row in owners]
        assert masks.tolist() == expected


@pytest.mark.parametrize(
    ("term", "lengths_only"),
    [
        ("shape(south, any 4333 + 5xxx)", True),
        ("spades(south) >= 5 && hearts(south) < 3", True),
        ("spades(south) + hearts(south) >= 9", True),
        ("1 == 1", True),
        ("hcp(south) >= 12", False),
        ("losers(south) <= 7", False),
        ("hascard(south, AS)", False),
        ("spades(south) >= 5 || hcp(south) > 20", False),
    ],
)
def test_the_probe_tells_length_terms_from_the_others(term: str, lengths_only: bool) -> None:
    sampler = HandSampler([0x1FFF] * 4, [0] * 4, 13)
    probe = ShapeProbe(Seat.SOUTH, sampler.examples())
    for each in parse_condition(term).terms:
        each.evaluate(probe)
    assert probe.looked_at_cards is not lengths_only


def test_shape_terms_restrict_the_draws_and_keep_the_exact_law() -> None:
    # South holds the spade ace and king; given at least 5 spades, his other 11 cards
    # hold k more spades with probability C(11, k) C(39, 11 - k), k >= 3 (exact law).
    deals = deal_many(4000, seed=3, predeal="S=AK...", where="spades(south) >= 5")
    spades = np.bincount([deal[Seat.SOUTH].shape[0] for deal in deals], minlength=14)
    assert spades[:5].sum() == 0
    law = np.array([comb(11, k - 2) * comb(39, 13 - k) if k >= 5 else 0 for k in range(14)])
    expected = law / law.sum() * len(deals)
    keep = expected >= 5
    observed = [*spades[keep].tolist(), int(spades[~keep].sum())]
    assert (
        chisquare(observed, [*expected[keep].tolist(), float(expected[~keep].sum())]).pvalue > 1e-4
    )


def test_a_shape_nobody_can_hold_is_an_error_at_once() -> None:
    plan = DealSpec("shape(north, 7xxx) && spades(north) < 7").plan()
    with pytest.raises(ConditionError, match="cannot hold: no hand of North has a shape"):
        deal_many(1, seed=1, where="shape(north, 7xxx) && spades(north) < 7")
    assert plan.impossible
    # With 13 spades predealt elsewhere no hand has a spade.
    with pytest.raises(ConditionError, match="cannot hold"):
        deal_many(1, seed=1, predeal="S=AKQJT98765432...", where="spades(north) >= 1")


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 30))
def test_pbn_lines_are_the_deal_values_text(seed: int, n: int) -> None:
    owners = random_deal_array(n, seed=seed)
    expected = "".join(Deal.from_array(row).to_pbn() + "\n" for row in owners)
    assert pbn_lines(owners) == expected.encode("ascii")
    assert pbn_strings(owners) == expected.splitlines()


def test_cards_by_seat_lists_each_seat_cards_in_order() -> None:
    owners = np.concatenate(
        [random_deal_array(200, seed=3), [[3] * 13 + [2] * 13 + [1] * 13 + [0] * 13]]
    )
    expected = [
        [card for seat in range(4) for card in range(52) if row[card] == seat] for row in owners
    ]
    assert cards_by_seat(owners).tolist() == expected
    assert cards_by_seat(owners[-1:]).tolist() == [
        [*range(39, 52), *range(26, 39), *range(13, 26), *range(13)]
    ]


def test_pbn_lines_of_more_deals_than_a_block() -> None:
    owners = np.concatenate([random_deal_array(5000, seed=1), random_deal_array(5000, seed=2)])
    lines = pbn_lines(owners).decode("ascii").splitlines()
    assert len(lines) == 10_000
    for number in (0, 4095, 4096, 4097, 8191, 8192, 9999):
        assert lines[number] == Deal.from_array(owners[number]).to_pbn()


def test_terms_on_later_seats_are_tested_on_their_masks() -> None:
    where = "hcp(north) >= 12 && hcp(south) >= 12 && spades(west) >= 5 && hascard(east, AS)"
    deals = deal_many(60, seed=4, where=where, predeal="S=Q...")
    for deal in deals:
        assert deal[Seat.NORTH].hcp >= 12 and deal[Seat.SOUTH].hcp >= 12
        assert deal[Seat.WEST].shape[0] >= 5
        assert Card.parse("SA") in deal[Seat.EAST]
        assert Card.parse("SQ") in deal[Seat.SOUTH]
    assert deal_many(20, seed=4, where=where, predeal="S=Q...") == deals[:20]
