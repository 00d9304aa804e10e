"""The play's kept state against the Laws written plainly, from all the cards each time.

:class:`Play` keeps the trick in progress, the tricks won and each seat's
cards left in each suit as cards come in, and accepts the common card (held,
not yet played, following suit or unable to) without asking
:meth:`Play.why_illegal`. These properties replay random cards, legal and
illegal, and compare every answer with a reading of the Laws written here from
the deal and every card played so far.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore.core import Contract, Doubling, Seat, Strain
from bridgescore.deal import Card, Deal, random_deals
from bridgescore.errors import IllegalPlayError
from bridgescore.play import Play


def _replay(deal: Deal, declarer: Seat, trump: Strain, cards: list[Card]) -> tuple[int, list[int]]:
    """Whose turn it is after ``cards`` and the tricks won by NS and EW, trick by trick."""
    leader = (declarer + 1) % 4
    won = [0, 0]
    for start in range(0, len(cards) - len(cards) % 4, 4):
        trick = cards[start : start + 4]

        def strength(card: Card, led: Strain = trick[0].suit) -> int:
            if card.suit == trump:
                return 200 + card.rank
            return 100 + card.rank if card.suit == led else 0

        best = max(trick, key=strength)
        leader = (leader + trick.index(best)) % 4
        won[leader % 2] += 1
    return (leader + len(cards) % 4) % 4, won


def _legal_cards(deal: Deal, declarer: Seat, trump: Strain, cards: list[Card]) -> list[Card]:
    """The cards the Laws allow next, from the deal and every card played so far."""
    if len(cards) == 52:
        return []
    turn, _ = _replay(deal, declarer, trump, cards)
    gone = set(cards)
    held = [card for card in deal.hands[turn].cards if card not in gone]
    trick = cards[len(cards) - len(cards) % 4 :]
    following = [card for card in held if trick and card.suit == trick[0].suit]
    return following or held


@settings(max_examples=100, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(list(Seat)),
    st.sampled_from(list(Strain)),
    st.data(),
)
def test_play_agrees_with_the_laws_read_from_all_the_cards(
    seed: int, declarer: Seat, trump: Strain, data: st.DataObject
) -> None:
    deal = random_deals(1, seed=seed)[0]
    play = Play(deal, Contract(3, trump, Doubling.UNDOUBLED, declarer))
    played: list[Card] = []
    for _ in range(data.draw(st.integers(0, 70))):
        legal = _legal_cards(deal, declarer, trump, played)
        assert sorted(play.legal_cards()) == sorted(legal)
        if legal and data.draw(st.integers(0, 4)) > 0:
            card = data.draw(st.sampled_from(legal))
        else:
            card = Card.from_index(data.draw(st.integers(0, 51)))
        if card in legal:
            play.play(card)
            played.append(card)
        else:
            try:
                play.play(card)
            except IllegalPlayError:
                pass
            else:
                raise AssertionError(f"{card} after {played} was accepted")
        turn, won = _replay(deal, declarer, trump, played)
        assert play.cards == tuple(played)
        assert play.next_seat == (None if len(played) == 52 else Seat(turn))
        assert play.tricks == (won[0], won[1])
        assert play.is_complete is (len(played) == 52)
        trick = played[len(played) - len(played) % 4 :]
        assert play.current_trick.cards == tuple(trick)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(list(Strain)), st.data())
def test_taking_cards_back_and_copying_keep_the_state(
    seed: int, trump: Strain, data: st.DataObject
) -> None:
    deal = random_deals(1, seed=seed)[0]
    contract = Contract(4, trump, Doubling.UNDOUBLED, Seat.SOUTH)
    play = Play(deal, contract)
    for _ in range(data.draw(st.integers(0, 60))):
        if play.cards and data.draw(st.integers(0, 3)) == 0:
            play.pop()
        elif play.legal_cards():
            play.play(data.draw(st.sampled_from(play.legal_cards())))
        rebuilt = Play(deal, contract, play.cards)
        for other in (play.copy(), rebuilt):
            assert other.cards == play.cards
            assert other.tricks == play.tricks
            assert other.next_seat == play.next_seat
            assert other.legal_cards() == play.legal_cards()
    copy = play.copy()
    if copy.legal_cards():
        copy.play(copy.legal_cards()[0])
        assert len(copy.cards) == len(play.cards) + 1
