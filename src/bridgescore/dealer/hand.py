"""Hand features of many candidate deals at once, for dealing conditions.

A :class:`HandView` holds the 13 cards of some seats for ``n`` candidate deals
(int8 card numbers ``suit * 13 + rank - 2``) and computes what conditions ask
about (points, lengths, shape, cards held, losers) with table look-ups, once per
seat and feature.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from bridgescore.core import Seat, Strain

__all__ = ["SHAPE_STRIDES", "WEIGHTS", "HandView", "rank_table"]

IntArray = npt.NDArray[np.int32]

_SUIT_OF = np.arange(52) // 13
_RANK_OF = np.arange(52) % 13 + 2  # 2..14


def _rank_table(points: Mapping[int, int]) -> npt.NDArray[np.int8]:
    return np.array([points.get(int(rank), 0) for rank in _RANK_OF], dtype=np.int8)


# Card weights summed over a hand; ``dealer``'s default pointcount and altcounts.
WEIGHTS: dict[str, npt.NDArray[np.int8]] = {
    "hcp": _rank_table({14: 4, 13: 3, 12: 2, 11: 1}),
    "control": _rank_table({14: 2, 13: 1}),
    "ten": _rank_table({10: 1}),
    "jack": _rank_table({11: 1}),
    "queen": _rank_table({12: 1}),
    "king": _rank_table({13: 1}),
    "ace": _rank_table({14: 1}),
    "top2": _rank_table({14: 1, 13: 1}),
    "top3": _rank_table({14: 1, 13: 1, 12: 1}),
    "top4": _rank_table({14: 1, 13: 1, 12: 1, 11: 1}),
    "top5": _rank_table({14: 1, 13: 1, 12: 1, 11: 1, 10: 1}),
    "c13": _rank_table({14: 6, 13: 4, 12: 2, 11: 1}),
}
# pt0..pt9 are dealer's numbered names for the altcounts above.
for _number, _name in enumerate(
    ["ten", "jack", "queen", "king", "ace", "top2", "top3", "top4", "top5", "c13"]
):
    WEIGHTS[f"pt{_number}"] = WEIGHTS[_name]


def rank_table(weights: tuple[int, ...]) -> npt.NDArray[np.int32]:
    """A card weight table from weights for the ranks ace down to two, as ``dealer`` lists them.

    ``pointcount 4 3 2 1`` lists the ace first; ranks not listed weigh 0.

    >>> rank_table((4, 3, 2, 1))[12::13].tolist()  # the ace of each suit
    [4, 4, 4, 4]
    """
    by_rank = {14 - position: value for position, value in enumerate(weights)}
    return np.array([by_rank.get(int(rank), 0) for rank in _RANK_OF], dtype=np.int32)


# Each card as one bit of a 52-bit set (bit ``card``), for card_bits and suit_ranks.
_CARD_BIT = np.left_shift(np.uint64(1), np.arange(52, dtype=np.uint64))
# Suit lengths packed one byte per suit, so one gather-and-sum gives all four.
_LENGTH_PACK = (1 << (8 * _SUIT_OF)).astype(np.int32)
SHAPE_STRIDES = np.array([14**3, 14**2, 14, 1])  # spades, hearts, diamonds, clubs


class HandView:
    """The cards of some seats for ``n`` candidate deals, with cached hand features.

    ``cards[seat]`` is an int8 array shaped (n, 13) of card numbers (``suit * 13 +
    rank - 2``). Features are computed on first use and kept for the other terms.
    """

    def __init__(self, cards: Mapping[Seat, npt.NDArray[np.int8]], n: int) -> None:
        self.cards = cards
        self.n = n
        self._cache: dict[tuple[object, ...], IntArray] = {}

    def weight(self, seat: Seat, name: str, suit: Strain | None) -> IntArray:
        """The sum of a card weight table over the seat's hand (or one suit of it)."""
        key = ("w", seat, name, suit)
        found = self._cache.get(key)
        if found is None:
            table = WEIGHTS[name]
            if suit is not None:
                table = np.where(suit == _SUIT_OF, table, 0).astype(np.int8)
            found = table[self.cards[seat]].sum(axis=1, dtype=np.int32)
            self._cache[key] = found
        return found

    def length(self, seat: Seat, suit: Strain) -> IntArray:
        """How many cards of ``suit`` the seat holds."""
        packed = self._packed(seat)
        return (packed >> (8 * int(suit))) & 0xFF

    def _packed(self, seat: Seat) -> IntArray:
        key = ("len", seat)
        found = self._cache.get(key)
        if found is None:
            found = _LENGTH_PACK[self.cards[seat]].sum(axis=1, dtype=np.int32)
            self._cache[key] = found
        return found

    def shape_index(self, seat: Seat) -> IntArray:
        """Lengths spades, hearts, diamonds, clubs as one number in base 14."""
        key = ("shape", seat)
        found = self._cache.get(key)
        if found is None:
            found = np.zeros(self.n, dtype=np.int32)
            for position, suit in enumerate(
                (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
            ):
                found += self.length(seat, suit) * int(SHAPE_STRIDES[position])
            self._cache[key] = found
        return found

    def has(self, seat: Seat, card: int) -> npt.NDArray[np.bool_]:
        """Whether the seat holds card number ``card``."""
        result: npt.NDArray[np.bool_] = (self.cards[seat] == card).any(axis=1)
        return result

    def losers(self, seat: Seat, suit: Strain) -> IntArray:
        """dealer's losing-trick count in one suit (see the module docs)."""
        length = self.length(seat, suit)
        ace, king, queen = (self.has(seat, int(suit) * 13 + rank - 2) for rank in (14, 13, 12))
        a, k, q = (x.astype(np.int32) for x in (ace, king, queen))
        result: IntArray = np.select(
            [length == 0, length == 1, length == 2],
            [np.zeros_like(length), 1 - a, 2 - a - k],
            3 - a - k - q,
        ).astype(np.int32)
        return result

    # -- additions for the valuations of dealer_valuation (built on ``cards`` alone) ------
    def points(self, seat: Seat, table: npt.NDArray[np.int32], suit: Strain | None) -> IntArray:
        """The sum of any 52-card weight ``table`` (see :func:`rank_table`) over a hand or suit.

        For counts a condition declares (``pointcount``, ``altcount``); the built-in
        ones go through :meth:`weight`.
        """
        key = ("points", seat, table.tobytes(), suit)
        found = self._cache.get(key)
        if found is None:
            if suit is not None:
                table = np.where(suit == _SUIT_OF, table, 0).astype(np.int32)
            found = table[self.cards[seat]].sum(axis=1, dtype=np.int32)
            self._cache[key] = found
        return found

    def suit_ranks(self, seat: Seat, suit: Strain) -> IntArray:
        """The ranks the seat holds in ``suit`` as bits: two = bit 0 ... ace = bit 12."""
        key = ("ranks", seat, suit)
        found = self._cache.get(key)
        if found is None:
            # Card numbers are suit * 13 + rank - 2, so a suit is 13 bits of the hand's set.
            suit_bits = self.card_bits(seat) >> np.uint64(13 * int(suit))
            found = (suit_bits & np.uint64(0x1FFF)).astype(np.int32)
            self._cache[key] = found
        return found

    def card_bits(self, seat: Seat) -> npt.NDArray[np.uint64]:
        """The seat's 13 cards as a 52-bit set (bit ``card``): the same for any card order."""
        key = ("bits", seat)
        found = self._cache.get(key)
        if found is None:
            # One bit per card, so the sum is the set of the hand's cards.
            found = _CARD_BIT[self.cards[seat]].sum(axis=1, dtype=np.uint64)
            self._cache[key] = found
        return found.astype(np.uint64, copy=False)  # no copy: it is uint64
