"""Constrained dealing: uniformity against exact frequencies, predeal, reproducibility.

Exact frequencies are computed here from first principles (binomial coefficients and
a small dynamic programme over the cards), never from the dealer under test. Runs
are seeded, so every statistical check is deterministic; the thresholds (p > 1e-4)
would fail for a dealer biased by a few percent.
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
from bridgescore.deal import Card, Deal, Hand, random_deal_array
from bridgescore.dealer.dealing import (
    DealSpec,
    deal_chunk,
    deal_many,
    deal_range,
    iter_deal_chunks,
    pbn_strings,
)
from bridgescore.dealer.predeal import parse_predeal, parse_predeals
from bridgescore.errors import BridgeError, ConditionError, InvalidArgumentError, PredealError

P_FLOOR = 1e-4


def pattern_counts() -> dict[tuple[int, ...], int]:
    """Hands of each sorted shape pattern: distinct suit orders times C(13, l) per suit."""
    counts: dict[tuple[int, ...], int] = {}
    for lengths in itertools.product(range(14), repeat=4):
        if sum(lengths) == 13:
            key = tuple(sorted(lengths, reverse=True))
            ways = 1
            for length in lengths:
                ways *= comb(13, length)
            counts[key] = counts.get(key, 0) + ways
    return counts


def hcp_counts() -> list[int]:
    """Hands of 13 cards with each point count 0..37, by a DP over the 52 cards."""
    table = [[0] * 41 for _ in range(14)]  # table[cards][points]
    table[0][0] = 1
    for points in [4, 3, 2, 1] * 4 + [0] * 36:
        for held in range(13, 0, -1):
            for total in range(40, points - 1, -1):
                table[held][total] += table[held - 1][total - points]
    return table[13][:38]


def suit_counts() -> list[list[int]]:
    """Holdings of one suit by length and points: honour subsets times spot choices."""
    counts = [[0] * 11 for _ in range(14)]
    honours = [4, 3, 2, 1]
    for size in range(5):
        for subset in itertools.combinations(honours, size):
            for spots in range(10):
                counts[size + spots][sum(subset)] += comb(9, spots)
    return counts


def test_exact_tables_add_up() -> None:
    assert sum(pattern_counts().values()) == comb(52, 13)
    assert sum(hcp_counts()) == comb(52, 13)
    assert pattern_counts()[(4, 4, 3, 2)] == 136_852_887_600  # 21.55% of 635,013,559,600


def test_unconditioned_shapes_and_points_have_exact_frequencies() -> None:
    owners = np.concatenate(list(iter_deal_chunks(20_000, seed=11)))
    deals = [Deal.from_array(row) for row in owners[:20_000]]
    patterns = pattern_counts()
    common = [p for p, n in patterns.items() if n / comb(52, 13) > 0.01]
    seen = {p: 0 for p in common}
    other = 0
    for deal in deals:
        for seat in (Seat.NORTH, Seat.SOUTH):
            key = tuple(sorted(deal[seat].shape, reverse=True))
            if key in seen:
                seen[key] += 1
            else:
                other += 1
    total = 2 * len(deals)
    expected = [patterns[p] / comb(52, 13) * total for p in common]
    expected.append(total - sum(expected))
    observed = [seen[p] for p in common] + [other]
    assert chisquare(observed, expected).pvalue > P_FLOOR

    points = np.bincount([deal[Seat.EAST].hcp for deal in deals], minlength=38)
    exact = np.array(hcp_counts(), dtype=float) / comb(52, 13) * len(deals)
    # Pool the tails so every expected count is at least 5.
    keep = exact >= 5
    observed_points = [*points[keep].tolist(), int(points[~keep].sum())]
    expected_points = [*exact[keep].tolist(), float(exact[~keep].sum())]
    assert chisquare(observed_points, expected_points).pvalue > P_FLOOR


NOTRUMP = "hcp(south) >= 15 && hcp(south) <= 17 && shape(south, any 4333 + any 4432 + any 5332)"


def test_conditioned_deals_are_uniform_over_the_deals_that_pass() -> None:
    # Exact number of South hands of each (pattern, points) cell, by convolving suits.
    per_suit = suit_counts()
    cells: dict[tuple[tuple[int, ...], int], int] = {}
    for pattern in ((4, 3, 3, 3), (4, 4, 3, 2), (5, 3, 3, 2)):
        for lengths in set(itertools.permutations(pattern)):
            ways = [1] + [0] * 40
            for length in lengths:
                ways = [
                    sum(ways[t - h] * per_suit[length][h] for h in range(11) if t - h >= 0)
                    for t in range(41)
                ]
            for points in (15, 16, 17):
                key = (pattern, points)
                cells[key] = cells.get(key, 0) + ways[points]
    deals = deal_many(6000, seed=5, where=NOTRUMP)
    seen = dict.fromkeys(cells, 0)
    for deal in deals:
        south = deal[Seat.SOUTH]
        seen[(tuple(sorted(south.shape, reverse=True)), south.hcp)] += 1
    total = sum(cells.values())
    expected = [cells[key] / total * len(deals) for key in cells]
    assert chisquare([seen[key] for key in cells], expected).pvalue > P_FLOOR
    # The other hands are random: North's points follow the exact law given South's 13 cards
    # only on average, so check the simplest consequence: the mean of N+E+W points is 40-H.
    assert all(
        sum(deal[s].hcp for s in (Seat.NORTH, Seat.EAST, Seat.WEST)) == 40 - deal[Seat.SOUTH].hcp
        for deal in deals[:50]
    )


def test_card_seat_frequencies_follow_the_predeal() -> None:
    north = "N=AKQ2.KQ3.A54.KJ3"
    south = "S=J98.J2.."
    deals = deal_many(3000, seed=8, predeal=[north, south])
    fixed_north = set(Hand.from_pbn(north[2:]).cards)
    fixed_south = {Card.parse(c) for c in ["SJ", "S9", "S8", "HJ", "H2"]}
    counts = {seat: np.zeros(52, dtype=int) for seat in Seat}
    for deal in deals:
        assert fixed_north == deal[Seat.NORTH].cards
        assert fixed_south <= deal[Seat.SOUTH].cards
        for seat in Seat:
            for card in deal[seat].cards:
                counts[seat][card.index] += 1
    free = [c for c in range(52) if Card.from_index(c) not in fixed_north | fixed_south]
    assert len(free) == 34
    # Each free card goes to South with probability 8/34 and to East or West with 13/34.
    observed = np.array([[counts[s][c] for s in (Seat.EAST, Seat.SOUTH, Seat.WEST)] for c in free])
    expected = np.array([[13, 8, 13]] * len(free)) / 34 * len(deals)
    assert chisquare(observed.ravel(), expected.ravel(), ddof=len(free) - 1).pvalue > P_FLOOR


def test_small_card_x_in_a_predeal() -> None:
    deals = deal_many(4000, seed=9, predeal="S=AK..x.")
    spots = []
    for deal in deals:
        hand = deal[Seat.SOUTH]
        assert Card.parse("SA") in hand and Card.parse("SK") in hand
        spots.append(sum(1 for c in hand.cards if c.suit == Strain.DIAMONDS and c.rank <= 9))
    # South's other 11 cards are 11 of the 50 left; 8 are diamond spots. Hypergeometric,
    # conditioned on at least one.
    law = [comb(8, k) * comb(42, 11 - k) for k in range(9)]
    law[0] = 0
    expected = np.array(law, dtype=float) / sum(law) * len(deals)
    observed = np.bincount(spots, minlength=9)
    assert observed[0] == 0
    keep = expected >= 5
    observed_kept = [*observed[keep].tolist(), int(observed[~keep].sum())]
    expected_kept = [*expected[keep].tolist(), float(expected[~keep].sum())]
    assert chisquare(observed_kept, expected_kept).pvalue > P_FLOOR


def test_same_seed_same_deals_and_shorter_runs_are_prefixes() -> None:
    first = deal_many(30, seed=4, where=NOTRUMP, predeal="N=..AKQ.")
    again = deal_many(30, seed=4, where=NOTRUMP, predeal="N=..AKQ.")
    shorter = deal_many(7, seed=4, where=NOTRUMP, predeal="N=..AKQ.")
    assert first == again
    assert shorter == first[:7]
    assert deal_many(30, seed=5, where=NOTRUMP, predeal="N=..AKQ.") != first


@pytest.mark.parametrize("chunk_size", [1, 3, 4, 7])
def test_the_chunk_size_only_sets_how_many_deals_come_at_a_time(chunk_size: int) -> None:
    where = "hcp(north) >= 12"
    chunks = list(iter_deal_chunks(10, seed=3, where=where, chunk_size=chunk_size))
    assert [len(c) for c in chunks] == [min(chunk_size, 10 - s) for s in range(0, 10, chunk_size)]
    # The dealer's own chunk 0 holds deals 0 to 9999: the first ten are these.
    owners, tried = deal_chunk(DealSpec(where), 3, 0, 10)
    assert np.array_equal(np.concatenate(chunks), owners)
    assert tried >= 10


def test_deal_n_is_deal_n_mod_10000_of_chunk_n_div_10000() -> None:
    spec = DealSpec("hcp(north) >= 12")
    across = deal_range(spec, 3, 9_998, 4)  # deals 9998, 9999 | 10000, 10001
    assert np.array_equal(across[:2], deal_chunk(spec, 3, 0, 10_000)[0][9_998:])
    assert np.array_equal(across[2:], deal_chunk(spec, 3, 1, 2)[0])
    # Chunk 1 does not depend on chunk 0 (a different child seed).
    assert not np.array_equal(deal_chunk(spec, 3, 0, 2)[0], deal_chunk(spec, 3, 1, 2)[0])


@pytest.mark.parametrize(("first", "count"), [(-1, 2), (1.5, 2), (True, 2), (0, -1)])
def test_deal_range_refuses_bad_numbers(first: object, count: int) -> None:
    with pytest.raises((InvalidArgumentError, ValueError), match=r"first deal|count"):
        deal_range(DealSpec(), 1, first, count)  # type: ignore[arg-type]


def test_deals_satisfy_the_condition() -> None:
    for deal in deal_many(300, seed=2, where=NOTRUMP):
        south = deal[Seat.SOUTH]
        assert 15 <= south.hcp <= 17
        assert sorted(south.shape) in ([3, 3, 3, 4], [2, 3, 4, 4], [2, 3, 3, 5])


def test_a_python_predicate_is_the_library_form() -> None:
    deals = deal_many(50, seed=1, where=lambda view: view.weight(Seat.WEST, "hcp", None) >= 20)
    assert all(deal[Seat.WEST].hcp >= 20 for deal in deals)
    with pytest.raises(ConditionError, match="shape"):
        deal_many(1, seed=1, where=lambda view: np.ones(3, dtype=bool))


def test_an_impossible_condition_stops_with_a_clear_error() -> None:
    with pytest.raises(ConditionError, match="too rare"):
        deal_chunk(DealSpec("hcp(north) > 37"), 1, 0, 1, max_candidates=50_000)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_bulk_pbn_text_equals_the_deal_value_text(seed: int) -> None:
    owners = random_deal_array(20, seed=seed)
    assert pbn_strings(owners) == [Deal.from_array(row).to_pbn() for row in owners]


@settings(max_examples=50, deadline=None)
@given(
    st.sampled_from(list(Seat)),
    st.lists(st.integers(0, 51), max_size=13, unique=True),
    st.lists(st.integers(0, 2), min_size=4, max_size=4),
)
def test_predeal_text_round_trips(seat: Seat, cards: list[int], spots: list[int]) -> None:
    if len(cards) + sum(spots) > 13:
        return
    suits = []
    for suit in (3, 2, 1, 0):
        ranks = sorted((c % 13 for c in cards if c // 13 == suit), reverse=True)
        suits.append("".join("23456789TJQKA"[r] for r in ranks) + "x" * spots[suit])
    text = f"{seat.letter}=" + ".".join(suits)
    predeal = parse_predeal(text)
    assert predeal.cards == frozenset(cards)
    assert str(predeal) == text
    assert parse_predeal(str(predeal)) == predeal


def test_dealer_style_predeal() -> None:
    assert parse_predeal("south SAQ542, HKJ87, D32, CAK".replace("south ", "south=")) == (
        parse_predeal("S=AQ542.KJ87.32.AK")
    )


@pytest.mark.parametrize(
    ("predeals", "expected"),
    [
        (["Q=AK..."], "expected a seat N, E, S or W"),
        (["N=AK.."], "has 3 suit(s)"),
        (["N=AZ..."], "'Z' is not a rank"),
        (["N=AA..."], "names SA twice"),
        (["N=AKQJT98765432.A.."], "gives 14 cards"),
        (["N=A...", "S=A..."], "gives SA, already given by 'N=A...'"),
        (["N=AKQ.xx..", "S=xxx..."], None),
        (["N=xxxxx...", "S=xxxx..."], "ask for 9 small spades"),
        (["N=SAK,X2"], "does not start with a suit letter"),
    ],
)
def test_predeal_errors_quote_the_text(predeals: list[str], expected: str | None) -> None:
    if expected is None:
        DealSpec("", tuple(predeals)).plan()
        return
    with pytest.raises(PredealError, match=expected.replace("(", r"\(").replace(")", r"\)")):
        DealSpec("", tuple(predeals)).plan()
    assert issubclass(PredealError, BridgeError)


def test_spec_is_plain_text_data() -> None:
    spec = DealSpec(NOTRUMP, ("N=AKQ2.KQ3.A54.KJ3",))
    assert DealSpec.from_json(spec.to_json()) == spec
    assert isinstance(spec.to_json(), str)


# -- a whole PBN deal as predeals (issue 46) -----------------------------------------------------

WHOLE = "N:KJ52.K7.T85.AJ87 AQ7.JT86.K7.9652 T93.Q9542.AJ3.T3 864.A3.Q9642.KQ4"


def test_a_whole_pbn_deal_is_four_predeals() -> None:
    # It said "predeal ... has 13 suit(s)". Every deal dealt is that deal.
    assert [str(p) for p in parse_predeals(WHOLE)] == [
        "N=KJ52.K7.T85.AJ87",
        "E=AQ7.JT86.K7.9652",
        "S=T93.Q9542.AJ3.T3",
        "W=864.A3.Q9642.KQ4",
    ]
    assert {deal.to_pbn() for deal in deal_many(5, seed=1, predeal=WHOLE)} == {WHOLE}


def test_a_pbn_deal_with_unknown_hands_predeals_the_hands_it_gives() -> None:
    # PBN's '-' is a hand not given: South (first) and North are fixed, East and West dealt.
    text = "S:KJ52.K7.T85.AJ87 - AQ7.JT86.K7.9652 -"
    assert [str(p) for p in parse_predeals(text)] == ["S=KJ52.K7.T85.AJ87", "N=AQ7.JT86.K7.9652"]
    deals = deal_many(20, seed=2, predeal=text)
    assert {deal[Seat.SOUTH].to_pbn() for deal in deals} == {"KJ52.K7.T85.AJ87"}
    assert {deal[Seat.NORTH].to_pbn() for deal in deals} == {"AQ7.JT86.K7.9652"}
    assert len({deal[Seat.EAST].to_pbn() for deal in deals}) > 1


def test_a_whole_deal_giving_a_card_twice_names_the_hands() -> None:
    with pytest.raises(PredealError, match=r"'E=KJ52\.\.\.' gives S2, already given by 'N=KJ52"):
        deal_many(1, seed=1, predeal="N:KJ52.K7.T85.AJ87 KJ52... - -")


def test_one_seat_written_with_a_colon_is_still_one_predeal() -> None:
    assert [str(p) for p in parse_predeals("N:AKQ2.KQ3.A54.KJ3")] == ["N=AKQ2.KQ3.A54.KJ3"]
