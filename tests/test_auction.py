"""Calls and auctions: Laws 18-22 (sufficient bids, doubles, redoubles, the end, declarer)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore import BridgeError, Contract, Doubling, IllegalCallError, NotationError, Seat
from bridgescore.auction import DOUBLE, PASS, REDOUBLE, Auction, Call, CallKind
from bridgescore.core import Strain

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST

# -- Call ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "level", "strain"),
    [
        ("1C", CallKind.BID, 1, Strain.CLUBS),
        ("7NT", CallKind.BID, 7, Strain.NOTRUMP),
        ("3N", CallKind.BID, 3, Strain.NOTRUMP),
        ("3nt", CallKind.BID, 3, Strain.NOTRUMP),
        ("4♠", CallKind.BID, 4, Strain.SPADES),
        ("2♥", CallKind.BID, 2, Strain.HEARTS),
        (" 5d ", CallKind.BID, 5, Strain.DIAMONDS),
        ("Pass", CallKind.PASS, None, None),
        ("P", CallKind.PASS, None, None),
        ("pass", CallKind.PASS, None, None),
        ("X", CallKind.DOUBLE, None, None),
        ("Dbl", CallKind.DOUBLE, None, None),
        ("XX", CallKind.REDOUBLE, None, None),
        ("Rdbl", CallKind.REDOUBLE, None, None),
    ],
)
def test_call_parse(text: str, kind: CallKind, level: int | None, strain: Strain | None) -> None:
    assert Call.parse(text) == Call(kind, level, strain)


@pytest.mark.parametrize("text", ["0C", "8S", "1Z", "", "XXX", "1", "S", "AP", "pas", "11C"])
def test_call_parse_rejects(text: str) -> None:
    with pytest.raises(NotationError) as info:
        Call.parse(text)
    assert repr(text) in str(info.value) or text == "AP"


def test_call_text_pair() -> None:
    assert str(Call.parse("3n")) == "3NT"
    assert str(PASS) == "Pass" and str(DOUBLE) == "X" and str(REDOUBLE) == "XX"
    assert Call.parse("4S").format(symbols=True) == "4♠"
    assert repr(Call.parse("1NT")) == "Call.parse('1NT')"
    assert eval(repr(Call.parse("6H")), {"Call": Call}) == Call.parse("6H")


def test_every_bid_round_trips_and_ranks_in_order() -> None:
    bids = [Call.bid(level, strain) for level in range(1, 8) for strain in Strain]
    assert [bid.rank for bid in bids] == list(range(35))
    for bid in bids:
        assert Call.parse(str(bid)) == bid


def test_call_constructor_validates() -> None:
    with pytest.raises(NotationError):
        Call(CallKind.BID, 8, Strain.CLUBS)
    with pytest.raises(NotationError):
        Call(CallKind.BID, 1, None)
    with pytest.raises(NotationError):
        Call(CallKind.PASS, 1, Strain.CLUBS)


# -- legal and illegal calls ---------------------------------------------------


def test_insufficient_bid_is_refused_and_auction_unchanged() -> None:
    auction = Auction.parse("1S", dealer=N)
    with pytest.raises(IllegalCallError) as info:
        auction.append("1H")
    message = str(info.value)
    assert "East" in message and "1H" in message and "insufficient" in message
    assert "1S" in message
    assert auction.calls == (Call.parse("1S"),)
    # The same level in a higher strain, or a higher level, is sufficient.
    auction.append("1NT")
    auction.append("2C")
    assert str(auction) == "1S 1NT 2C"


def test_same_bid_again_is_insufficient() -> None:
    auction = Auction.parse("1NT Pass", dealer=N)
    with pytest.raises(IllegalCallError, match="insufficient"):
        auction.append("1NT")


def test_doubling_partner_is_illegal() -> None:
    auction = Auction.parse("1S Pass", dealer=N)
    with pytest.raises(IllegalCallError) as info:
        auction.append("X")
    assert "South" in str(info.value) and "partner" in str(info.value)
    assert len(auction) == 2


def test_double_of_opponents_bid_after_passes_is_legal() -> None:
    auction = Auction.parse("1S Pass Pass X", dealer=N)
    assert auction.calls[-1] == DOUBLE
    assert Auction.parse("1S X", dealer=N).calls[-1] == DOUBLE


def test_double_with_nothing_to_double() -> None:
    with pytest.raises(IllegalCallError, match="no bid to double"):
        Auction.parse("X", dealer=N)
    with pytest.raises(IllegalCallError, match="no bid to double"):
        Auction.parse("Pass X", dealer=N)


def test_double_of_a_doubled_bid_is_illegal() -> None:
    with pytest.raises(IllegalCallError, match="already doubled"):
        Auction.parse("1S X Pass X", dealer=N)
    with pytest.raises(IllegalCallError, match="already redoubled"):
        Auction.parse("1S X XX X", dealer=N)


def test_redoubling_an_undoubled_bid_is_illegal() -> None:
    with pytest.raises(IllegalCallError) as info:
        Auction.parse("1S Pass Pass XX", dealer=N)
    assert "West" in str(info.value) and "not been doubled" in str(info.value)
    with pytest.raises(IllegalCallError, match="no double to redouble"):
        Auction.parse("XX", dealer=N)


def test_redouble_by_the_doubled_side() -> None:
    # Partner of the bidder, or the bidder after two passes, may redouble.
    assert Auction.parse("1S X XX", dealer=N).doubling is Doubling.REDOUBLED
    assert Auction.parse("1S X Pass Pass XX", dealer=N).doubling is Doubling.REDOUBLED
    # The doubler's side may not redouble its own double.
    with pytest.raises(IllegalCallError, match="opponent's double"):
        Auction.parse("1S X Pass XX", dealer=N)


def test_redouble_of_a_redouble_is_illegal() -> None:
    with pytest.raises(IllegalCallError, match="already redoubled"):
        Auction.parse("1S X XX Pass Pass XX", dealer=N)


def test_a_bid_after_a_double_clears_it() -> None:
    auction = Auction.parse("1S X 2S", dealer=N)
    assert auction.doubling is Doubling.UNDOUBLED
    # ... and the new bid can be doubled again, but the old double cannot be redoubled.
    with pytest.raises(IllegalCallError):
        auction.copy().append("XX")
    auction.append("X")
    assert str(auction) == "1S X 2S X"
    assert Auction.parse(str(auction), dealer=N).doubling is Doubling.DOUBLED


def test_calls_after_the_end_are_illegal() -> None:
    for text in ("Pass Pass Pass Pass", "1C Pass Pass Pass", "1C X XX Pass Pass Pass"):
        auction = Auction.parse(text, dealer=E)
        assert auction.is_complete and auction.next_seat is None
        for call in ("Pass", "7NT", "X", "XX"):
            with pytest.raises(IllegalCallError, match="after the end"):
                auction.append(call)
        with pytest.raises(IllegalCallError):
            auction.extend("AP")
        assert str(auction) == text
        assert auction.legal_calls() == []


def test_three_passes_at_the_start_do_not_end_the_auction() -> None:
    auction = Auction.parse("Pass Pass Pass", dealer=W)
    assert not auction.is_complete and auction.next_seat is S
    auction.append("1C")
    assert auction.contract is None  # still open
    auction.extend("AP")
    assert auction.contract == Contract.parse("1CS")


def test_next_seat_goes_round_from_the_dealer() -> None:
    auction = Auction(S)
    seats = []
    for call in ("1C", "1D", "1H", "1S", "1NT"):
        seats.append(auction.next_seat)
        auction.append(call)
    assert seats == [S, W, N, E, S]
    assert auction.seat_of(4) is S


def test_legal_calls_at_the_start_and_later() -> None:
    opening = Auction(N).legal_calls()
    assert opening[0] == PASS and len(opening) == 1 + 35
    after_1s = Auction.parse("1S", dealer=N).legal_calls()
    assert after_1s[:2] == [PASS, DOUBLE]
    assert after_1s[2] == Call.parse("1NT") and len(after_1s) == 2 + 35 - 4
    after_double = Auction.parse("1S X", dealer=N).legal_calls()
    assert after_double[:2] == [PASS, REDOUBLE]
    assert Auction.parse("7NT X XX", dealer=N).legal_calls() == [PASS]


def test_illegal_call_types() -> None:
    with pytest.raises(NotationError):
        Auction(N).append(3)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        Auction.parse("1S 2Z", dealer=N)


# -- contract and declarer -------------------------------------------------------


def test_issue_example() -> None:
    auction = Auction.parse("1S 2H 2S 4H 4S X P P P", dealer=N)
    assert auction.is_complete
    assert auction.contract == Contract(4, Strain.SPADES, Doubling.DOUBLED, N)
    assert auction.declarer is N


def test_declarer_is_first_of_the_side_to_name_the_strain() -> None:
    # North opens 1H, South ends in 4H: North named hearts first.
    assert Auction.parse("1H Pass 3H Pass 4H AP", dealer=N).declarer is N
    # South named spades first, North bid it last.
    auction = Auction.parse("1C Pass 1S Pass 2S Pass 4S AP", dealer=N)
    assert auction.contract == Contract.parse("4SS")
    # An opponent naming the strain first does not matter.
    auction = Auction.parse("1NT 2S Pass Pass 3NT AP", dealer=E)
    assert auction.contract == Contract.parse("3NTE")
    auction = Auction.parse("1H 1S 2H 2S Pass Pass 3H AP", dealer=N)
    assert auction.contract == Contract.parse("3HN")


def test_doubling_of_the_final_contract() -> None:
    assert Auction.parse("4S X AP", dealer=N).contract == Contract.parse("4SXN")
    assert Auction.parse("4S X XX AP", dealer=N).contract == Contract.parse("4SXXN")
    assert Auction.parse("4S 5C X XX AP", dealer=N).contract == Contract.parse("5CXXE")
    # A double is cleared by any later bid.
    assert Auction.parse("4S X 5C AP", dealer=N).contract == Contract.parse("5CS")


def test_passed_out_auctions() -> None:
    for dealer in Seat:
        auction = Auction.parse("Pass Pass Pass Pass", dealer=dealer)
        assert auction.is_complete and auction.is_passed_out
        assert auction.contract is None and auction.declarer is None
        assert Auction.parse("AP", dealer=dealer) == auction
        assert Auction.parse("P AP", dealer=dealer) == auction


def test_ap_ends_with_three_passes_after_a_call() -> None:
    auction = Auction.parse("1NT Pass 3NT AP", dealer=S)
    assert str(auction) == "1NT Pass 3NT Pass Pass Pass"
    assert auction.contract == Contract.parse("3NTS")


def test_open_auction_has_no_contract() -> None:
    auction = Auction.parse("1NT Pass 3NT Pass", dealer=S)
    assert not auction.is_complete and auction.contract is None


def test_text_pair_and_repr() -> None:
    auction = Auction.parse("1S 2H 2S 4H 4S X P P P", dealer=N)
    assert str(auction) == "1S 2H 2S 4H 4S X Pass Pass Pass"
    assert Auction.parse(str(auction), dealer=N) == auction
    assert eval(repr(auction), {"Auction": Auction, "Seat": Seat}) == auction
    assert auction != Auction.parse(str(auction), dealer=E)


def test_pop_takes_back_a_call() -> None:
    auction = Auction.parse("1S 2H", dealer=N)
    assert auction.pop() == Call.parse("2H")
    assert str(auction) == "1S"
    with pytest.raises(IllegalCallError):
        Auction(N).pop()


def test_bad_dealer() -> None:
    with pytest.raises(BridgeError):
        Auction(7)  # type: ignore[arg-type]


# -- properties --------------------------------------------------------------------


def _independent_legal(calls: list[str], dealer: Seat) -> list[str]:
    """Legal calls by the Laws, written independently of the module under test."""
    order = [f"{level}{strain}" for level in range(1, 8) for strain in ("C", "D", "H", "S", "NT")]
    n = len(calls)
    passed_out = n == 4 and all(c == "Pass" for c in calls)
    closed = n >= 4 and any(c != "Pass" for c in calls) and calls[-3:] == ["Pass"] * 3
    if passed_out or closed:
        return []
    seat = (dealer + n) % 4
    legal = ["Pass"]
    actions = [(i, c) for i, c in enumerate(calls) if c != "Pass"]
    if actions:
        i, last = actions[-1]
        bidder_side = (dealer + i) % 2
        if last in order and bidder_side != seat % 2:
            legal.append("X")
        if last == "X" and bidder_side != seat % 2:
            legal.append("XX")
    bids = [c for c in calls if c in order]
    floor = order.index(bids[-1]) + 1 if bids else 0
    return legal + order[floor:]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 3), st.lists(st.integers(0, 200), max_size=25))
def test_random_auctions_follow_the_laws(dealer_value: int, picks: list[int]) -> None:
    dealer = Seat(dealer_value)
    auction = Auction(dealer)
    calls: list[str] = []
    for pick in picks:
        expected = _independent_legal(calls, dealer)
        assert [str(c) for c in auction.legal_calls()] == expected
        if not expected:
            break
        # Every call outside the legal list is refused and changes nothing.
        for word in ("X", "XX", "1C"):
            if word not in expected:
                with pytest.raises(IllegalCallError):
                    auction.append(word)
        call = expected[pick % len(expected)] if pick % 3 else "Pass"
        auction.append(call)
        calls.append(call)
        assert [str(c) for c in auction.calls] == calls
