"""The play: turns, holding, following suit, trick winners, claims, on deals checked by hand."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore import Contract, IllegalPlayError, NotationError, Seat, Side, Strain
from bridgescore.deal import Card, Deal, random_deals
from bridgescore.play import Play, Trick

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST

# Each player holds one whole suit: North spades, East hearts, South diamonds, West clubs.
ONE_SUIT = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
# North holds the top four cards of the three side suits and one club; East the top
# clubs; so in notrump East-West take exactly their four club tricks when West leads one.
STRIPED = Deal.from_pbn("N:AKQJ.AKQJ.AKQJ.2 654.654.654.AKQJ T987.T987.T987.3 32.32.32.T987654")

# 3NT by South, West leads: East cashes four clubs (North and South discard), then
# North-South take the last nine tricks. Written trick by trick in order of play.
STRIPED_3NT = [
    "C4 C2 CA C3",  # W leads, E wins
    "CK D7 C5 DJ",  # E
    "CQ D8 C6 HJ",  # E
    "CJ D9 C7 SJ",  # E: four tricks to East-West
    "S6 ST S2 SA",  # E leads, N wins
    "SK S5 S9 S3",  # N
    "SQ S4 S8 C8",  # N
    "HA H6 HT H2",  # N
    "HK H5 H9 H3",  # N
    "HQ H4 H8 C9",  # N
    "DA D6 DT D2",  # N
    "DK D5 S7 D3",  # N
    "DQ D4 H7 CT",  # N: nine tricks to North-South
]


def cards(text: str) -> list[Card]:
    return [Card.parse(word) for word in text.split()]


def test_opening_leader_is_declarers_lho() -> None:
    for declarer in Seat:
        play = Play(ONE_SUIT, Contract(1, Strain.NOTRUMP, declarer=declarer))
        assert play.opening_leader is declarer.lho
        assert play.next_seat is declarer.lho
        assert play.dummy is declarer.partner


def test_contract_needs_a_declarer() -> None:
    with pytest.raises(NotationError, match="declarer"):
        Play(ONE_SUIT, Contract.parse("4S"))
    with pytest.raises(NotationError):
        Play("deal", Contract.parse("4SN"))  # type: ignore[arg-type]


def test_playing_out_of_turn_is_illegal() -> None:
    play = Play(ONE_SUIT, Contract.parse("7SN"))
    with pytest.raises(IllegalPlayError) as info:
        play.play("SA")  # North's card, but East leads
    message = str(info.value)
    assert "SA" in message and "East's turn" in message and "North" in message
    assert play.cards == ()


def test_card_not_in_hand_is_illegal() -> None:
    play = Play(STRIPED, Contract.parse("3NTS"))
    with pytest.raises(IllegalPlayError, match="in North's hand"):
        play.play("SA")  # West is on lead
    play.play("C4")
    with pytest.raises(IllegalPlayError, match="CA is in East's hand"):
        play.play("CA")  # North's turn


def test_card_played_twice_is_illegal() -> None:
    play = Play(ONE_SUIT, Contract.parse("7SN"))
    play.extend("HA D2 C2 S2")  # North ruffs and leads next
    play.play("S3")
    with pytest.raises(IllegalPlayError) as info:
        play.play("HA")
    assert "HA" in str(info.value) and "already played" in str(info.value)
    assert "trick 1" in str(info.value)
    assert len(play.cards) == 5


def test_revoke_is_illegal() -> None:
    play = Play(STRIPED, Contract.parse("3NTS"))
    play.play("C4")
    with pytest.raises(IllegalPlayError) as info:
        play.play("SA")  # North holds C2
    message = str(info.value)
    assert "North" in message and "follow suit" in message and "C2" in message
    assert "revoke" in message
    assert play.legal_cards() == [Card.parse("C2")]
    play.play("C2")
    assert play.cards == tuple(cards("C4 C2"))


def test_discard_when_void_is_legal() -> None:
    play = Play(ONE_SUIT, Contract.parse("1NTN"))
    play.play("HA")
    assert len(play.legal_cards()) == 13  # South holds no heart: any diamond
    play.play("D2")
    play.play("C2")
    play.play("S2")
    assert play.completed_tricks[0].winner is E  # no trumps: the heart wins


def test_highest_trump_wins() -> None:
    play = Play(ONE_SUIT, Contract.parse("7SN"))
    play.extend("HA D2 C2 S2")
    assert play.completed_tricks[0].winner is N
    assert play.next_seat is N
    assert play.tricks == (1, 0)


def test_trick_winner_rules() -> None:
    def winner(leader: Seat, text: str, trump: Strain) -> Seat | None:
        return Trick(leader, tuple(cards(text)), trump).winner

    assert winner(W, "HA H2 S2 H3", Strain.SPADES) is E  # the only trump
    assert winner(W, "HA H2 S2 S3", Strain.SPADES) is S  # the higher trump
    assert winner(W, "H5 HK DA H3", Strain.SPADES) is N  # off-suit ace loses
    assert winner(W, "H5 HK DA H3", Strain.NOTRUMP) is N
    assert winner(E, "C2 D2 H2 S2", Strain.NOTRUMP) is E  # only the led suit counts
    assert winner(E, "C2 D2 H2 S2", Strain.DIAMONDS) is S
    assert winner(E, "C2 D2", Strain.DIAMONDS) is None  # not finished


def test_complete_one_suit_deal_in_spades() -> None:
    # North ruffs every heart lead, then leads spades: all 13 tricks.
    play = Play(ONE_SUIT, Contract.parse("7SN"))
    play.extend("HA D2 C2 S2")
    for rank in "3456789TJQKA":
        play.extend(f"S{rank}")
        play.extend(play.legal_cards()[-1:])  # East discards
        play.extend(play.legal_cards()[-1:])  # South discards
        play.extend(play.legal_cards()[-1:])  # West discards
    assert play.is_complete and play.tricks == (13, 0)
    assert play.declarer_tricks == 13
    assert str(play.result) == "7SN="


def test_complete_one_suit_deal_in_notrump() -> None:
    # East leads hearts and no one else holds any: East-West take all 13.
    play = Play(ONE_SUIT, Contract.parse("1NTN"))
    while not play.is_complete:
        play.play(play.legal_cards()[0])
    assert play.tricks == (0, 13)
    assert str(play.result) == "1NTN-7"
    assert play.next_seat is None and play.legal_cards() == []


def test_striped_deal_3nt_takes_nine() -> None:
    play = Play(STRIPED, Contract.parse("3NTS"))
    for trick in STRIPED_3NT:
        play.extend(trick)
    assert play.is_complete
    assert play.tricks == (9, 4)
    winners = [trick.winner for trick in play.completed_tricks]
    assert winners == [E] * 4 + [N] * 9
    assert play.format().splitlines() == STRIPED_3NT
    with pytest.raises(IllegalPlayError, match="over"):
        play.play("SA")


def test_striped_deal_in_spades_with_a_claim() -> None:
    # 4S by South: East wins the club ace, South ruffs the king, trumps are drawn
    # in three rounds, and North-South claim the last eight tricks: twelve in all.
    play = Play(STRIPED, Contract.parse("4SS"))
    play.extend("C4 C2 CA C3")  # East
    play.extend("CK S7 C5 DJ")  # South ruffs
    play.extend("S8 S2 SJ S4")  # North
    play.extend("SA S5 S9 S3")  # North
    play.extend("SK S6 ST C6")  # North; East-West have no trumps left
    assert play.tricks == (4, 1)
    with pytest.raises(IllegalPlayError, match="8 trick"):
        play.claim(9)
    play.claim(8)
    assert play.is_complete and play.is_claimed
    assert play.tricks == (12, 1) and play.declarer_tricks == 12
    with pytest.raises(IllegalPlayError):
        play.claim(1)
    with pytest.raises(IllegalPlayError, match="over"):
        play.play("SQ")
    play.withdraw_claim()
    play.play("SQ")


def test_claim_in_the_middle_of_a_trick() -> None:
    play = Play(STRIPED, Contract.parse("3NTS"))
    play.extend("C4 C2")
    play.claim(9)  # the trick in progress is one of the 13 left
    assert play.tricks == (9, 4)


def test_claim_of_nothing_and_bad_counts() -> None:
    play = Play(STRIPED, Contract.parse("3NTS"))
    for bad in (-1, 14, True, "3"):
        with pytest.raises(IllegalPlayError):
            play.claim(bad)  # type: ignore[arg-type]
    play.claim(0)
    assert play.tricks == (0, 13)


def test_illegal_card_leaves_play_unchanged_and_pop() -> None:
    play = Play(STRIPED, Contract.parse("3NTS"), ["C4", "C2"])
    before = play.cards
    with pytest.raises(IllegalPlayError):
        play.play("C5")  # West's card, East to play
    assert play.cards == before
    assert play.pop() == Card.parse("C2")
    assert play.next_seat is N
    with pytest.raises(NotationError):
        play.play("Z9")


def test_hand_shrinks() -> None:
    play = Play(STRIPED, Contract.parse("3NTS"))
    play.play("C4")
    assert Card.parse("C4") not in play.hand(W) and len(play.hand(W)) == 12
    assert len(play.hand(N)) == 13


# -- properties: random legal play on random deals --------------------------------------


def _winner(leader: int, trick: list[Card], trump: Strain) -> int:
    """Independent: highest trump if any, else highest card of the suit led."""
    trumps = [i for i, c in enumerate(trick) if c.suit == trump]
    pool = trumps or [i for i, c in enumerate(trick) if c.suit == trick[0].suit]
    best = max(pool, key=lambda i: trick[i].rank)
    return (leader + best) % 4


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from(list(Strain)),
    st.sampled_from(list(Seat)),
    st.lists(st.integers(0, 12), min_size=52, max_size=52),
)
def test_random_legal_play(seed: int, strain: Strain, declarer: Seat, picks: list[int]) -> None:
    deal = random_deals(1, seed=seed)[0]
    play = Play(deal, Contract(3, strain, declarer=declarer))
    held = {seat: set(deal[seat].cards) for seat in Seat}
    leader = int(declarer.lho)
    won = [0, 0]
    for _ in range(13):
        trick: list[Card] = []
        for position in range(4):
            seat = Seat((leader + position) % 4)
            assert play.next_seat is seat
            legal = play.legal_cards()
            followers = [c for c in held[seat] if trick and c.suit == trick[0].suit]
            assert set(legal) == (set(followers) if followers else held[seat])
            card = legal[picks[len(play.cards)] % len(legal)]
            play.play(card)
            held[seat].discard(card)
            trick.append(card)
        leader = _winner(leader, trick, strain)
        won[leader % 2] += 1
    assert play.is_complete
    assert play.tricks == (won[Side.NS], won[Side.EW])
    assert sum(play.tricks) == 13
