"""Cards, hands, deals and random dealing.

Expected values come from the rules of the game (high-card points, the PBN
deal format) or from independent formulations written here (the hypergeometric
law of suit lengths, a deal built straight from ``rng.permutation``).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import bridgescore as bs
from bridgescore import BridgeError, Card, Deal, Hand, InvalidDealError, Seat, Strain
from bridgescore.deal import deals_from_array, random_deal_array
from bridgescore.errors import ArgumentTypeError, InvalidArgumentError

RANKS = "23456789TJQKA"
SUIT_ORDER = "SHDC"  # PBN order inside a hand
ONE_SUIT_EACH = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
SAMPLE = "N:KJ52.K7.T85.AJ87 A9863.Q3.Q3.T543 Q4.AJ862.J762.K2 T7.T954.AK94.Q96"


# --- cards ---------------------------------------------------------------------------------


def all_cards() -> list[Card]:
    return [Card(Strain(suit), rank) for suit in range(4) for rank in range(2, 15)]


def test_card_text_round_trip_for_all_52() -> None:
    for card in all_cards():
        text = "CDHS"[card.suit] + RANKS[card.rank - 2]
        assert str(card) == text
        assert Card.parse(text) == card
        assert Card.parse(text.lower()) == card
        assert Card.parse(card.format(symbols=True)) == card
        assert eval(repr(card), {"Card": Card}) == card


def test_card_accepts_ten_and_symbols() -> None:
    assert Card.parse("S10") == Card(Strain.SPADES, 10)
    assert Card.parse("♥q") == Card(Strain.HEARTS, 12)
    assert Card(Strain.DIAMONDS, 10).format(symbols=True) == "♦T"


def test_cards_order_by_suit_then_rank() -> None:
    ordered = sorted(all_cards())
    assert str(ordered[0]) == "C2" and str(ordered[-1]) == "SA"
    assert Card.parse("CA") < Card.parse("D2") < Card.parse("DA") < Card.parse("H2")
    assert [card.index for card in ordered] == list(range(52))
    assert all(Card.from_index(card.index) == card for card in ordered)


@pytest.mark.parametrize("text", ["", "S", "SX", "S1", "S11", "NA", "XA", "A", "AS2", "S 10x"])
def test_card_parse_rejects(text: str) -> None:
    with pytest.raises(BridgeError, match=repr(text).replace("\\", "\\\\")[1:-1] or ".*"):
        Card.parse(text)


@pytest.mark.parametrize("suit,rank", [(Strain.NOTRUMP, 14), (Strain.SPADES, 1), (0, 15)])
def test_card_constructor_rejects(suit: Strain, rank: int) -> None:
    with pytest.raises(InvalidDealError):
        Card(suit, rank)


# --- hands ---------------------------------------------------------------------------------


def test_hand_facts() -> None:
    hand = Hand.from_pbn("KJ52.K7.T85.AJ87")
    # K+J in spades (4), K in hearts (3), nothing in diamonds, A+J in clubs (5).
    assert hand.hcp == 12
    assert hand.shape == (4, 2, 3, 4)
    assert hand.suit(Strain.SPADES) == (13, 11, 5, 2)
    assert hand.length(Strain.DIAMONDS) == 3
    assert len(hand) == 13
    assert Card.parse("CA") in hand and Card.parse("CK") not in hand
    assert [str(card) for card in hand][:3] == ["SK", "SJ", "S5"]
    assert str(hand) == "KJ52.K7.T85.AJ87"
    assert eval(repr(hand), {"Hand": Hand}) == hand


def test_whole_pack_has_40_points() -> None:
    deal = Deal.from_pbn(SAMPLE)
    assert sum(deal[seat].hcp for seat in Seat) == 40


def test_hand_voids_and_any_order() -> None:
    assert Hand.from_pbn("2345..-.akqjt98x".replace("x", "7")).to_pbn() == "5432...AKQJT987"


# --- deals ---------------------------------------------------------------------------------


def test_one_suit_each() -> None:
    deal = Deal.from_pbn(ONE_SUIT_EACH)
    assert deal[Seat.NORTH].shape == (13, 0, 0, 0)
    assert deal[Seat.EAST].shape == (0, 13, 0, 0)
    assert deal[Seat.SOUTH].shape == (0, 0, 13, 0)
    assert deal[Seat.WEST].shape == (0, 0, 0, 13)
    assert deal.owner(Card.parse("D7")) is Seat.SOUTH
    assert all(deal[seat].hcp == 10 for seat in Seat)


def test_any_first_seat_lower_case_and_any_rank_order() -> None:
    north = Deal.from_pbn(SAMPLE)
    # The same deal written from East, in lower case, ranks scrambled, extra spaces.
    east = Deal.from_pbn(
        "e:  3986a.3q.q3.354t q4.268ja.276j.k2 7t.549t.4ak9.69q 25kj.k7.5t8.78ja  "
    )
    assert east == north
    assert hash(east) == hash(north)


def test_ten_and_dash_voids() -> None:
    suit = "AKQJ1098765432"
    deal = Deal.from_pbn(f"N:{suit}.-.-.- -.{suit}.-.- -.-.{suit}.- -.-.-.{suit}")
    assert deal == Deal.from_pbn(ONE_SUIT_EACH)


def test_to_pbn_is_strict_and_rotates() -> None:
    deal = Deal.from_pbn(SAMPLE)
    assert deal.to_pbn() == SAMPLE
    assert str(deal) == SAMPLE
    assert deal.to_pbn(Seat.SOUTH) == (
        "S:Q4.AJ862.J762.K2 T7.T954.AK94.Q96 KJ52.K7.T85.AJ87 A9863.Q3.Q3.T543"
    )
    for first in Seat:
        assert Deal.from_pbn(deal.to_pbn(first)) == deal
    assert eval(repr(deal), {"Deal": Deal}) == deal


def test_array_round_trip() -> None:
    deal = Deal.from_pbn(ONE_SUIT_EACH)
    owners = deal.to_array()
    # Card index = suit * 13 + rank - 2: clubs (West) first, spades (North) last.
    assert owners.tolist() == [3] * 13 + [2] * 13 + [1] * 13 + [0] * 13
    assert Deal.from_array(owners) == deal


def test_diagram_layout() -> None:
    deal = Deal.from_pbn(SAMPLE)
    pad = " " * 17
    expected = [
        pad + "S KJ52",
        pad + "H K7",
        pad + "D T85",
        pad + "C AJ87",
        "S T7" + " " * 21 + "N" + " " * 8 + "S A9863",
        "H T954" + " " * 17 + "W   E" + " " * 6 + "H Q3",
        "D AK94" + " " * 19 + "S" + " " * 8 + "D Q3",
        "C Q96" + " " * 29 + "C T543",
        pad + "S Q4",
        pad + "H AJ862",
        pad + "D J762",
        pad + "C K2",
    ]
    assert deal.diagram().splitlines() == expected
    assert "♠ KJ52" in deal.diagram(symbols=True)
    void = Deal.from_pbn(ONE_SUIT_EACH).diagram().splitlines()
    assert void[1] == pad + "H -"


@given(st.integers(0, 2**64 - 1))
@settings(max_examples=50, deadline=None)
def test_random_deal_pbn_round_trip(seed: int) -> None:
    (deal,) = bs.random_deals(1, seed=seed)
    for first in Seat:
        assert Deal.from_pbn(deal.to_pbn(first)) == deal
    assert Deal.from_array(deal.to_array()) == deal


# --- malformed deals -------------------------------------------------------------------------

MALFORMED = [
    # (text, words the message must contain)
    ("", ["first seat"]),
    ("AKQJ.T98.765.432 AKQJ.T98.765.432 AKQJ.T98.765.432 AKQJ.T98.765.432", ["first seat"]),
    ("X:" + SAMPLE[2:], ["'X:", "first seat"]),
    ("NS:" + SAMPLE[2:], ["first seat"]),
    ("N:KJ52.K7.T85.AJ87 A9863.Q3.Q3.T543 Q4.AJ862.J762.K2", ["3 hand(s)", "expected 4"]),
    (SAMPLE + " AKQ...", ["5 hand(s)"]),
    ("N:", ["0 hand(s)"]),
    # a hand with three or five suits
    (SAMPLE.replace("KJ52.K7.T85.AJ87", "KJ52.K7T85.AJ87"), ["North's hand", "3 suit(s)"]),
    (SAMPLE.replace("Q4.AJ862.J762.K2", "Q4.AJ862.J762.K2."), ["South's hand", "5 suit(s)"]),
    # unknown ranks and suits
    (SAMPLE.replace("A9863", "Z9863"), ["East's hand", "'Z'", "spades"]),
    (SAMPLE.replace("AK94", "AK9X"), ["West's hand", "'X'", "diamonds"]),
    (SAMPLE.replace("Q96", "Q91"), ["West's hand", "'1'", "clubs"]),
    (SAMPLE.replace("AJ862", "AJ8*2"), ["South's hand", "'*'", "hearts"]),
    (SAMPLE.replace("T85", "T8 5"), ["5 hand(s)"]),
    (SAMPLE.replace("T85", "T8♦5"), ["North's hand", "'♦'"]),
    # a card twice in one hand
    (SAMPLE.replace("KJ52", "KJ22"), ["North's hand", "S2 twice"]),
    (SAMPLE.replace("AJ87", "AJ8A"), ["North's hand", "CA twice"]),
    # a card in two hands
    (
        SAMPLE.replace("KJ52", "KJ5A"),
        ["SA is in both North's hand 'AKJ5.K7.T85.AJ87' and East's hand 'A9863.Q3.Q3.T543'"],
    ),
    (SAMPLE.replace("Q96", "Q92"), ["C2", "South's hand", "West's hand"]),
    (SAMPLE.replace("T954", "T95K"), ["HK", "North's hand", "West's hand"]),
    # wrong number of cards (so a card is missing from the deal)
    (SAMPLE.replace("KJ52", "KJ5"), ["North's hand", "12 cards", "S2"]),
    (SAMPLE.replace("Q4", "Q42"), ["S2", "North's hand", "South's hand"]),
    (SAMPLE.replace("T7.", "T72."), ["S2", "North's hand", "West's hand"]),
    (
        SAMPLE.replace("KJ52", "KJ5").replace("Q3.T543", "Q3.T5432"),
        ["C2", "East's hand", "South's hand"],
    ),
    (SAMPLE.replace("KJ52", "KJ5").replace("Q4.", "Q42."), ["North's hand", "12 cards"]),
    ("N:" + " ".join(["..."] * 4), ["North's hand", "0 cards"]),
    (
        "N:AKQJT98765432.A.. .KQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
        ["North's hand", "14 cards"],
    ),
    (ONE_SUIT_EACH.replace("...AKQJT98765432", "...AKQJT9876543"), ["West's hand", "12 cards"]),
]


def test_enough_malformed_cases() -> None:
    assert len(MALFORMED) >= 20


@pytest.mark.parametrize("text,words", MALFORMED)
def test_malformed_deal(text: str, words: list[str]) -> None:
    with pytest.raises(InvalidDealError) as info:
        Deal.from_pbn(text)
    message = str(info.value)
    for word in words:
        assert word in message, message


def test_malformed_non_text_and_constructor() -> None:
    with pytest.raises(InvalidDealError):
        Deal.from_pbn(None)  # type: ignore[arg-type]
    hand = Hand.from_pbn("AKQJT98765432...")
    with pytest.raises(InvalidDealError, match="4 hands"):
        Deal((hand, hand, hand))  # type: ignore[arg-type]
    with pytest.raises(InvalidDealError, match=r"SA is in both North's hand '.*' and East's hand"):
        Deal((hand, hand, hand, hand))
    with pytest.raises(InvalidDealError, match="not a Hand"):
        Deal(("AKQ", hand, hand, hand))  # type: ignore[arg-type]
    with pytest.raises(InvalidDealError, match="52 whole numbers"):
        Deal.from_array(np.zeros(51, dtype=int))
    with pytest.raises(InvalidDealError, match="owner 4"):
        Deal.from_array(np.full(52, 4))
    with pytest.raises(InvalidDealError, match="has 52 cards: expected 13"):
        Deal.from_array(np.zeros(52, dtype=int))


def test_many_deals_from_their_owner_arrays() -> None:
    # Owners written out by hand: the card index is suit * 13 + rank - 2, clubs first.
    one_suit_each = [3] * 13 + [2] * 13 + [1] * 13 + [0] * 13
    # Card 13 s + r goes to seat (s + r) % 4: North holds the club deuce, six, ten and ace.
    by_rank = [index % 4 for index in range(52)]
    deals = deals_from_array(np.array([one_suit_each, by_rank, one_suit_each], dtype=np.int8))
    spread = "N:J73.Q84.K95.AT62 Q84.K95.AT62.J73 K95.AT62.J73.Q84 AT62.J73.Q84.K95"
    assert deals == [Deal.from_pbn(t) for t in (ONE_SUIT_EACH, spread, ONE_SUIT_EACH)]
    assert deals_from_array(np.empty((0, 52), dtype=np.int64)) == []


def test_many_deals_refuse_a_row_that_is_not_a_deal() -> None:
    good = Deal.from_pbn(SAMPLE).to_array()
    fourteen = good.copy()
    fourteen[fourteen == 1] = 0  # East's cards go to North
    stranger = good.copy()
    stranger[5] = 7
    with pytest.raises(InvalidDealError, match="has 26 cards: expected 13"):
        deals_from_array(np.stack([good, fourteen]))
    with pytest.raises(InvalidDealError, match="C7 has owner 7: expected a seat 0 to 3"):
        deals_from_array(np.stack([good, good, stranger]))
    with pytest.raises(InvalidDealError, match=r"shaped \(n, 52\) of whole numbers"):
        deals_from_array(good)
    with pytest.raises(InvalidDealError, match="whole numbers"):
        deals_from_array(np.zeros((2, 52)))


def test_hand_and_deal_checks_name_what_is_wrong() -> None:
    with pytest.raises(InvalidDealError, match="'SA' is not a Card"):
        Hand(frozenset({Card.parse("HK"), "SA"}))  # type: ignore[arg-type]
    north, east, south, west = Deal.from_pbn(SAMPLE).hands
    short = Hand(north.cards - {Card.parse("SK")})
    with pytest.raises(
        InvalidDealError, match=r"North's hand .* has 12 cards: expected 13 \(not dealt: SK\)"
    ):
        Deal((short, east, south, west))
    with pytest.raises(InvalidDealError, match="West's hand 'x' is not a Hand"):
        Deal((north, east, south, "x"))  # type: ignore[arg-type]


VALID = Deal.from_pbn(SAMPLE).to_pbn()


@given(st.text(max_size=120))
@settings(max_examples=300, deadline=None)
def test_fuzz_arbitrary_text(text: str) -> None:
    try:
        deal = Deal.from_pbn(text)
    except BridgeError:
        return
    assert Deal.from_pbn(deal.to_pbn()) == deal


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["delete", "insert", "replace", "swap"]),
            st.integers(0, len(VALID) - 1),
            st.sampled_from(list("AKQJT98765432akqx1. :NESW-♠")),
        ),
        min_size=1,
        max_size=4,
    )
)
@settings(max_examples=400, deadline=None)
def test_fuzz_mutated_deals(edits: list[tuple[str, int, str]]) -> None:
    text = list(VALID)
    for kind, where, char in edits:
        where %= max(len(text), 1)
        if kind == "delete" and text:
            del text[where]
        elif kind == "insert":
            text.insert(where, char)
        elif kind == "replace" and text:
            text[where] = char
        elif kind == "swap" and len(text) > 1:
            other = (where * 7 + 3) % len(text)
            text[where], text[other] = text[other], text[where]
    try:
        deal = Deal.from_pbn("".join(text))
    except BridgeError:
        return
    # Whatever is accepted is a real deal: 4 x 13 distinct cards.
    cards = [card for seat in Seat for card in deal[seat].cards]
    assert len(cards) == 52 and len(set(cards)) == 52


# --- random deals ----------------------------------------------------------------------------


def dealt_by_permutation(rng: np.random.Generator) -> Deal:
    """The documented dealing rule, written independently: position p goes to seat p // 13."""
    order = rng.permutation(52)
    hands: list[list[str]] = [[], [], [], []]
    for position, card in enumerate(order):
        hands[position // 13].append("CDHS"[card // 13] + RANKS[card % 13])
    pbn = []
    for cards in hands:
        suits = []
        for suit in SUIT_ORDER:
            ranks = sorted((c[1] for c in cards if c[0] == suit), key=RANKS.index, reverse=True)
            suits.append("".join(ranks))
        pbn.append(".".join(suits))
    return Deal.from_pbn("N:" + " ".join(pbn))


def test_random_deals_follow_the_documented_rule() -> None:
    rng = np.random.Generator(np.random.PCG64(2024))
    expected = [dealt_by_permutation(rng) for _ in range(200)]
    assert bs.random_deals(200, seed=2024) == expected
    assert bs.random_deals(200, seed=np.random.SeedSequence(2024)) == expected
    rng = np.random.Generator(np.random.PCG64(2024))
    assert [bs.random_deal(rng) for _ in range(200)] == expected


def test_random_deals_reproducible_and_prefix_stable() -> None:
    assert bs.random_deals(50, seed=7) == bs.random_deals(50, seed=7)
    assert bs.random_deals(50, seed=7)[:20] == bs.random_deals(20, seed=7)
    assert bs.random_deals(20, seed=7) != bs.random_deals(20, seed=8)
    rng = np.random.Generator(np.random.PCG64(7))
    assert bs.random_deals(30, seed=rng) + bs.random_deals(20, seed=rng) == bs.random_deals(
        50, seed=7
    )
    assert bs.random_deals(0, seed=7) == []


def test_bulk_array_equals_random_deals() -> None:
    array = random_deal_array(300, seed=11)
    assert array.shape == (300, 52) and array.dtype == np.int8
    assert [Deal.from_array(row) for row in array] == bs.random_deals(300, seed=11)
    # Spawned children (as the par study uses) are independent streams.
    children = np.random.SeedSequence(11).spawn(2)
    assert bs.random_deals(5, seed=children[0]) != bs.random_deals(5, seed=children[1])


def test_seed_errors() -> None:
    # Bad settings are BridgeErrors (InvalidArgumentError, a ValueError); a wrong
    # type is an ArgumentTypeError, one of them.
    with pytest.raises(InvalidArgumentError, match="negative"):
        bs.random_deals(1, seed=-1)
    with pytest.raises(ArgumentTypeError, match="'1'"):
        bs.random_deals(1, seed="1")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="count"):
        bs.random_deals(-1, seed=1)
    with pytest.raises(ArgumentTypeError, match="Generator"):
        bs.random_deal(1)  # type: ignore[arg-type]
    assert issubclass(ArgumentTypeError, bs.BridgeError)
    assert issubclass(InvalidArgumentError, ValueError)


# -- one order for one idea: the count, then seed= (as deal_many takes them) ---------


def test_the_old_order_warns_and_deals_the_same_deals() -> None:
    # random_deals(seed, count) until this release: seed 7, three deals, by the rule.
    rng = np.random.Generator(np.random.PCG64(7))
    expected = [dealt_by_permutation(rng) for _ in range(3)]
    with pytest.warns(DeprecationWarning, match="random_deals with the seed first is deprecated"):
        assert bs.random_deals(7, 3) == expected
    with pytest.warns(
        DeprecationWarning, match="random_deal_array with the seed first is deprecated"
    ):
        old = random_deal_array(7, 3)
    assert [Deal.from_array(row) for row in old] == expected
    rng = np.random.Generator(np.random.PCG64(7))
    with pytest.warns(DeprecationWarning):
        assert bs.random_deals(rng, 3) == expected  # type: ignore[arg-type]


def test_the_new_order_does_not_warn(recwarn: pytest.WarningsRecorder) -> None:
    rng = np.random.Generator(np.random.PCG64(7))
    expected = [dealt_by_permutation(rng) for _ in range(3)]
    assert bs.random_deals(3, seed=7) == expected
    assert bs.random_deals(count=3, seed=7) == expected
    assert [Deal.from_array(row) for row in random_deal_array(3, seed=7)] == expected
    assert len(bs.deal_many(3, seed=7)) == 3
    assert [w for w in recwarn if issubclass(w.category, DeprecationWarning)] == []


def test_a_call_in_neither_order_is_refused() -> None:
    with pytest.raises(
        ArgumentTypeError,
        match="random_deals needs a seed: give the count first and the seed by its name",
    ):
        bs.random_deals(3)
    with pytest.raises(ArgumentTypeError, match="got 2 arguments without a name and a named seed"):
        bs.random_deals(7, 3, seed=7)
    with pytest.raises(ArgumentTypeError, match="got 3 arguments without a name"):
        random_deal_array(7, 3, 4)


UNIFORM_DEALS = 20_000
# A fixed seed makes the test deterministic; the threshold would flag a real bias.
P_FLOOR = 1e-4


@pytest.fixture(scope="module")
def many() -> np.ndarray:
    return random_deal_array(UNIFORM_DEALS, seed=20_231_122)


def test_card_positions_uniform(many: np.ndarray) -> None:
    # Each card is equally likely to be in each of the four hands.
    counts = np.stack([(many == seat).sum(axis=0) for seat in range(4)], axis=1)  # (52, 4)
    assert (counts.sum(axis=1) == UNIFORM_DEALS).all()
    chi2 = ((counts - UNIFORM_DEALS / 4) ** 2 / (UNIFORM_DEALS / 4)).sum()
    assert stats.chi2.sf(chi2, df=52 * 3) > P_FLOOR
    for row in counts:
        assert stats.chisquare(row).pvalue > P_FLOOR / 52


def hypergeometric(k: int) -> float:
    """P(a given hand holds k cards of a given suit) = C(13,k) C(39,13-k) / C(52,13)."""
    return math.comb(13, k) * math.comb(39, 13 - k) / math.comb(52, 13)


@pytest.mark.parametrize("seat,suit", list(itertools.product(range(4), range(4))))
def test_suit_lengths_hypergeometric(many: np.ndarray, seat: int, suit: int) -> None:
    lengths = (many[:, suit * 13 : suit * 13 + 13] == seat).sum(axis=1)
    observed = np.bincount(lengths, minlength=14).astype(float)
    expected = np.array([hypergeometric(k) for k in range(14)]) * UNIFORM_DEALS
    # Pool the rare long suits so every bin expects at least 5 deals.
    cut = int(np.nonzero(expected >= 5)[0].max())
    observed = np.append(observed[:cut], observed[cut:].sum())
    expected = np.append(expected[:cut], expected[cut:].sum())
    assert math.isclose(expected.sum(), UNIFORM_DEALS)
    assert stats.chisquare(observed, expected).pvalue > P_FLOOR


def test_pairs_of_cards_share_a_hand_12_times_in_51(many: np.ndarray) -> None:
    # Given where one card is, each of the other 51 places is equally likely.
    same = (many[:, 51] == many[:, 38]).sum()  # SA and HA
    assert stats.binomtest(int(same), UNIFORM_DEALS, 12 / 51).pvalue > P_FLOOR
