"""The auction's kept state against the Laws written plainly, from all the calls each time.

:class:`Auction` keeps the last bid, the last call other than a pass and the
closing passes as calls come in, and checks the common calls (a pass, a bid
above the last one) without asking :meth:`Auction.why_illegal`. These
properties replay random call sequences, legal and illegal, through it and
compare every answer with a reading of Laws 18-22 written here from scratch.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore.auction import Auction, Call
from bridgescore.core import Contract, Doubling, Seat, Strain
from bridgescore.errors import IllegalCallError

_STRAINS = "CDHS"
_BIDS = [f"{level}{strain}" for level in range(1, 8) for strain in (*_STRAINS, "NT")]
_WORDS = ["Pass", "X", "XX", *_BIDS]


def _rank(word: str) -> int:
    return _BIDS.index(word)


def _strain(word: str) -> str:
    return word[1:]


def _complete(calls: list[str]) -> bool:
    """Law 22: four passes to start with, or three passes after any other call."""
    if calls == ["Pass"] * 4:
        return True
    return len(calls) >= 4 and calls[-3:] == ["Pass"] * 3 and any(c != "Pass" for c in calls)


def _legal(calls: list[str], word: str) -> bool:
    """Whether ``word`` may follow ``calls`` (Laws 18-19), read from all the calls."""
    if _complete(calls):
        return False
    if word == "Pass":
        return True
    bids = [i for i, call in enumerate(calls) if call in _BIDS]
    if word in _BIDS:
        return not bids or _rank(word) > _rank(calls[bids[-1]])
    actions = [i for i, call in enumerate(calls) if call != "Pass"]
    if not actions:
        return False
    last = actions[-1]
    # The caller and the last actor are opponents when their distance is odd.
    opponents = (len(calls) - last) % 2 == 1
    if word == "X":
        return calls[last] in _BIDS and opponents
    return calls[last] == "X" and opponents


def _contract(calls: list[str], dealer: Seat) -> Contract | None:
    """The final contract: the last bid, its doubling, and the first of its side to
    name its strain."""
    bids = [i for i, call in enumerate(calls) if call in _BIDS]
    if not bids:
        return None
    last = bids[-1]
    after = [call for call in calls[last + 1 :] if call != "Pass"]
    doubling = Doubling.UNDOUBLED
    if after:
        doubling = Doubling.REDOUBLED if after[-1] == "XX" else Doubling.DOUBLED
    strain = _strain(calls[last])
    first = next(i for i in bids if (i - last) % 2 == 0 and _strain(calls[i]) == strain)
    return Contract(
        int(calls[last][0]),
        Strain.parse(strain),
        doubling,
        Seat((dealer + first) % 4),
    )


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(list(Seat)),
    st.lists(
        st.one_of(
            st.sampled_from(["Pass", "X", "XX"]),
            st.sampled_from(_WORDS),
        ),
        max_size=40,
    ),
)
def test_auction_agrees_with_the_laws_read_from_all_the_calls(
    dealer: Seat, words: list[str]
) -> None:
    auction = Auction(dealer)
    made: list[str] = []
    for word in words:
        legal = _legal(made, word)
        assert auction.is_legal(word) is legal
        if legal:
            auction.append(word)
            made.append(word)
        else:
            before = auction.copy()
            try:
                auction.append(word)
            except IllegalCallError:
                pass
            else:
                raise AssertionError(f"{word} after {made} was accepted")
            assert auction == before
        complete = _complete(made)
        assert auction.is_complete is complete
        assert auction.next_seat == (None if complete else Seat((dealer + len(made)) % 4))
        assert auction.is_passed_out is (complete and all(c == "Pass" for c in made))
        assert auction.contract == (_contract(made, dealer) if complete else None)
        assert [str(call) for call in auction.legal_calls()] == [
            w for w in _WORDS if _legal(made, w)
        ]
    assert [str(call) for call in auction.calls] == made


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(list(Seat)), st.data())
def test_taking_calls_back_and_copying_keep_the_state(dealer: Seat, data: st.DataObject) -> None:
    auction = Auction(dealer)
    made: list[str] = []
    for _ in range(data.draw(st.integers(0, 30))):
        if made and data.draw(st.booleans()) and data.draw(st.booleans()):
            assert str(auction.pop()) == made.pop()
        else:
            legal = [w for w in _WORDS if _legal(made, w)]
            if not legal:
                break
            word = data.draw(st.sampled_from(legal))
            auction.append(word)
            made.append(word)
        copy = auction.copy()
        rebuilt = Auction(dealer, made)
        for other in (copy, rebuilt):
            assert other == auction
            assert other.is_complete is auction.is_complete is _complete(made)
            assert other.legal_calls() == auction.legal_calls()
            assert other.doubling == auction.doubling
            assert other.contract == auction.contract
    # The copy is its own auction: a call added to it leaves the original alone.
    copy = auction.copy()
    if not copy.is_complete:
        copy.append("Pass")
        assert len(copy) == len(auction) + 1


def test_a_call_given_as_text_is_the_call_parsed() -> None:
    auction = Auction(Seat.NORTH)
    auction.append(" 1nt ")
    auction.append("dbl")
    assert auction.calls == (Call.parse("1NT"), Call.parse("X"))
