"""Hand valuations of the ``dealer`` language beyond table look-ups, over many deals at once.

- :func:`quality` and :func:`cccc`: Kaplan and Rubens' suit quality and "Four C's"
  hand valuation (The Bridge World, October 1982) in the integer form ``dealer``
  computes them (its ``c4.c``): every value times 100, so a minimum opening hand
  is about 1200. Scripts written for ``dealer`` therefore select the same hands.
- :func:`random_below`: ``rnd(n)``, a whole number from 0 to n - 1, drawn from the
  deal itself (a hash of who holds which card), so a deal's value never depends
  on how, where or in which chunk it was dealt.

Each function takes a :class:`~bridgescore.dealer.hand.HandView` and returns one
int32 per candidate deal.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from bridgescore.core import Seat, Strain
from bridgescore.dealer.hand import HandView

__all__ = ["cccc", "quality", "random_below"]

IntArray = npt.NDArray[np.int32]

_SUITS = (Strain.CLUBS, Strain.DIAMONDS, Strain.HEARTS, Strain.SPADES)
_ACE, _KING, _QUEEN, _JACK, _TEN, _NINE, _EIGHT = 12, 11, 10, 9, 8, 7, 6  # rank bits


# The number of cards in each 13-bit holding.
_LENGTH = np.array([holding.bit_count() for holding in range(1 << 13)], dtype=np.int32)


def _held(ranks: IntArray, bit: int) -> IntArray:
    return ((ranks >> bit) & 1).astype(np.int32)


def _suit_quality(ranks: IntArray) -> IntArray:
    """Quality times 100 of suit holdings given as rank bits (see :func:`quality`)."""
    length = _LENGTH[ranks]
    ace, king, queen, jack = (_held(ranks, bit) for bit in (_ACE, _KING, _QUEEN, _JACK))
    ten, nine, eight = (_held(ranks, bit) for bit in (_TEN, _NINE, _EIGHT))
    factor = length * 10
    honours = ace + king + queen + jack
    result = factor * (4 * ace + 3 * king + 2 * queen + jack)
    long_suit = length > 6
    replaced = np.minimum(3 - 2 * queen - jack, length - 6)
    ten_value = np.where((honours > 1) | (jack == 1), factor, factor // 2) * ten
    nine_value = np.where((honours == 2) | (ten == 1) | (eight == 1), factor // 2, 0) * nine
    result += np.where(long_suit, replaced * factor, ten_value + nine_value)
    return result.astype(np.int32)


def _suit_cccc(ranks: IntArray) -> IntArray:
    """One suit's part of :func:`cccc` times 100 (honours and quality; not the shape)."""
    length = _LENGTH[ranks]
    ace, king, queen, jack = (_held(ranks, bit) for bit in (_ACE, _KING, _QUEEN, _JACK))
    ten, nine = _held(ranks, _TEN), _held(ranks, _NINE)
    singleton, doubleton = length == 1, length == 2
    total = 300 * ace
    total += king * np.where(singleton, 50, 200)
    queen_value = 100 - np.where(singleton, 75, np.where(doubleton, 25, 0))
    total += queen * (queen_value - np.where(ace + king == 0, 25, 0))
    above_jack = ace + king + queen
    total += jack * np.select([above_jack == 2, above_jack == 1], [50, 25], 0)
    above_ten = above_jack + jack
    total += ten * np.where((above_ten == 2) | ((above_ten == 1) & (nine == 1)), 25, 0)
    return (total + _suit_quality(ranks)).astype(np.int32)


# Both depend only on the suit's holding: tabulated once for all 8,192 holdings, so a
# condition costs one look-up per suit and candidate deal.
_HOLDINGS = np.arange(1 << 13, dtype=np.int32)
_QUALITY = _suit_quality(_HOLDINGS)
_CCCC = _suit_cccc(_HOLDINGS)
_SHORTNESS = (np.maximum(3 - _LENGTH, 0) * 100).astype(np.int32)  # void 3, singleton 2, ...


def quality(view: HandView, seat: Seat, suit: Strain) -> IntArray:
    """Suit quality times 100: length x (A 4, K 3, Q 2, J 1, with tens and nines) / 10.

    As ``dealer`` counts it: in a suit of up to six cards a ten adds a whole point
    beside the jack or two higher honours, else half a point, and a nine half a
    point beside exactly two of A K Q J, the ten or the eight; in a suit of seven
    cards or more, a missing queen (2) and jack (1) are counted as held, up to one
    point for each card over six, and tens and nines add nothing.

    >>> from bridgescore.deal import Deal
    >>> from bridgescore.dealer.dealing import evaluate
    >>> deal = Deal.from_pbn(
    ...     "N:AQT432.K2.432.32 KJ9.AQJT.KQJ5.54 875.987.A987.A76 6.6543.T6.KQJT98"
    ... )
    >>> # 6 x (4 + 2 + 1) / 10 = 4.2 for the spades AQT432: 420
    >>> evaluate("quality(north, spades) == 420", deal.to_array()[None, :]).tolist()
    [True]
    """
    result: IntArray = _QUALITY[view.suit_ranks(seat, suit)]
    return result


def cccc(view: HandView, seat: Seat) -> IntArray:
    """Kaplan and Rubens' hand valuation times 100, as ``dealer``'s ``cccc``.

    Per suit: A 3, K 2 (singleton 0.5), Q 1 (less 0.75 singleton, 0.25 doubleton,
    0.25 with neither A nor K), J 0.5 under two of A K Q or 0.25 under one, T
    0.25 under two of A K Q J or under one with the nine, plus the suit's
    :func:`quality`. Shape: void 3, singleton 2, doubleton 1, less 1; 4-3-3-3 -0.5.
    """
    total = np.zeros(view.n, dtype=np.int32)
    shape_points = np.zeros(view.n, dtype=np.int32)
    for suit in _SUITS:
        ranks = view.suit_ranks(seat, suit)
        total += _CCCC[ranks]
        shape_points += _SHORTNESS[ranks]
    total += np.where(shape_points == 0, -50, shape_points - 100).astype(np.int32)
    return total


# splitmix64's constants: a fast mix whose output bits each depend on every input bit.
_MIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB))


def _mix(value: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    value = value + _MIX[0]
    value = (value ^ (value >> np.uint64(30))) * _MIX[1]
    value = (value ^ (value >> np.uint64(27))) * _MIX[2]
    mixed: npt.NDArray[np.uint64] = value ^ (value >> np.uint64(31))
    return mixed


def random_below(view: HandView, bound: npt.NDArray[Any], salt: int) -> IntArray:
    """``rnd(bound)``: trunc(bound x u), u uniform in [0, 1) drawn from the whole deal.

    ``u`` hashes the four hands (which cards each seat holds, in any order) with
    ``salt``, one per ``rnd`` in the condition, so that two of them are independent.
    The same deal always gives the same value: deals stay reproducible from their
    seed in every process and chunk, and a dealt deal re-checked later still passes.
    """
    with np.errstate(over="ignore"):  # the hash wraps around 2**64 on purpose
        state = np.full(view.n, np.uint64(salt), dtype=np.uint64)
        for seat in Seat:
            state = _mix(state ^ view.card_bits(seat))
        fraction = (state >> np.uint64(11)).astype(np.float64) * 2.0**-53
    return np.trunc(bound * fraction).astype(np.int32)
