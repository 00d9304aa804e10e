"""Drawing hands for constrained dealing: suit bit masks, the first seat by unranking.

The dealer tests most candidate deals on one seat only, so that seat's hand is the
one drawn for every candidate, and drawn cheaply: one 64-bit random number per
candidate picks one of the ``C(m, k)`` ways to give the seat ``k`` of the ``m``
cards nobody was predealt (:class:`HandSampler`). Hands are kept as four 13-bit
suit masks (bit ``r`` is rank ``r + 2``), so points, lengths and cards held are
8192-entry table look-ups (:class:`MaskHandView`). The other seats are dealt only
for the candidates that pass, by Fisher-Yates steps over the cards left
(:func:`shuffle_steps`).
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterator, Mapping, Sequence
from math import comb, prod
from typing import Any

import numpy as np
import numpy.typing as npt

from bridgescore.core import Seat, Strain
from bridgescore.dealer.hand import WEIGHTS, HandView

__all__ = [
    "HandSampler",
    "MaskHandView",
    "ShapeProbe",
    "cards_masks",
    "cards_of_bits",
    "cards_of_masks",
    "hand_masks",
    "mask_bits",
    "owner_hands",
    "shuffle_steps",
    "suit_masks",
]

SuitMasks = npt.NDArray[np.uint16]
"""A seat's hands for ``n`` deals: shape (4, n), row ``suit`` (clubs first) a 13-bit mask."""
IntArray = npt.NDArray[np.int32]

_SUIT_BITS = np.uint16(0x1FFF)
_ONE = np.left_shift(np.uint64(1), np.arange(52, dtype=np.uint64))
_ALL_MASKS = np.arange(8192, dtype=np.uint16)
_CARD_NUMBERS = np.arange(52, dtype=np.int8)
_RAW_BITS = 48
"""Bits of each 64-bit draw used to pick a hand (C(52, 13) < 2**40 leaves room to spare)."""
_BUCKET_BITS = 16
"""log2 of the number of buckets in the table that finds a draw's shape without a search."""


def _subsets(free: int, fixed: int) -> tuple[npt.NDArray[np.uint16], list[int]]:
    """Every subset of the ranks in the 13-bit mask ``free``, ordered by size then value,
    with the ranks of ``fixed`` added, and where each size starts in that order."""
    ranks = [rank for rank in range(13) if free >> rank & 1]
    index = np.arange(1 << len(ranks), dtype=np.uint32)
    masks = np.zeros(index.size, dtype=np.uint16)
    for bit, rank in enumerate(ranks):
        masks |= (((index >> bit) & 1) << rank).astype(np.uint16)
    sizes = np.bitwise_count(masks)
    order = np.lexsort((masks, sizes))
    starts = [sum(comb(len(ranks), size) for size in range(held)) for held in range(14)]
    return (masks[order] | np.uint16(fixed)), starts


class HandSampler:
    """Draws one seat's hand, uniformly among the ways to complete its predeal.

    ``free[suit]`` is the 13-bit mask of the ranks of that suit nobody was predealt,
    ``fixed[suit]`` the seat's own predealt ranks, ``need`` how many cards it still
    gets. A draw ``r`` uniform in ``[0, total)`` is unranked: the suit lengths (the
    "shape" of the dealt part) take the first ``count(shape)`` values in a fixed
    order of shapes, and the rest of ``r`` is split in mixed radix into one index per
    suit among that suit's ``C(free, length)`` holdings. It is a one-to-one map from
    the draws to the hands, so each hand is equally likely.

    :meth:`restricted` keeps only some shapes (those a condition on lengths allows):
    the draws then cover exactly the hands of those shapes, each equally likely.
    """

    def __init__(self, free: Sequence[int], fixed: Sequence[int], need: int) -> None:
        self.sizes = [int(np.bitwise_count(np.uint16(mask))) for mask in free]
        tables = [_subsets(free[suit], fixed[suit]) for suit in range(4)]
        self._holdings = [table for table, _ in tables]
        self._starts = [starts for _, starts in tables]
        ranges = [range(min(size, need) + 1) for size in self.sizes]
        self.shapes = [
            (a, b, c, need - a - b - c)
            for a, b, c in itertools.product(*ranges[:3])
            if 0 <= need - a - b - c <= min(self.sizes[3], need)
        ]
        self.possible = comb(sum(self.sizes), need)
        """How many hands the seat can get, whatever their shape."""
        self._build(self.shapes)

    def examples(self) -> SuitMasks:
        """One hand of each shape (in :attr:`shapes` order), to test conditions on lengths."""
        return np.array(
            [
                [self._holdings[suit][self._starts[suit][shape[suit]]] for shape in self.shapes]
                for suit in range(4)
            ],
            dtype=np.uint16,
        ).reshape(4, len(self.shapes))

    def restricted(self, allowed: Sequence[bool]) -> HandSampler:
        """A sampler of the hands whose shape (in :attr:`shapes` order) is allowed."""
        other = copy.copy(self)
        other._build([shape for shape, keep in zip(self.shapes, allowed) if keep])
        return other

    def _build(self, shapes: list[tuple[int, int, int, int]]) -> None:
        sizes = self.sizes
        counts = [prod(comb(size, held) for size, held in zip(sizes, shape)) for shape in shapes]
        # Most likely shapes first, so the buckets of the common draws hold one shape edge.
        order = sorted(range(len(shapes)), key=lambda i: (-counts[i], shapes[i]))
        shapes = [shapes[i] for i in order]
        counts = [counts[i] for i in order]
        self.total = sum(counts)
        """How many hands the draws cover (0: none has an allowed shape)."""
        if not self.total:
            return
        edges = [0, *itertools.accumulate(counts)]
        # Every number here is below 2**40, so float64 arithmetic on them is exact, and
        # vectorized where numpy's uint64 division is not.
        self._first = np.array(edges[:-1], dtype=np.float64)
        self._next = np.array(edges[1:], dtype=np.float64)
        self._radix = [
            np.array([comb(sizes[suit], shape[suit]) for shape in shapes], dtype=np.float64)
            for suit in range(4)
        ]
        # Look-ups below index with intp arrays (numpy's own index type: no conversion).
        self._start = [
            np.array([self._starts[suit][shape[suit]] for shape in shapes], dtype=np.intp)
            for suit in range(4)
        ]
        # Accept a draw's top 48 bits below the largest multiple of total: exactly uniform.
        self._limit = np.uint64((1 << _RAW_BITS) // self.total * self.total)
        # A table from a draw's top bits to its shape; -1 where a bucket holds more
        # than one shape edge (rare shapes: those draws are searched for).
        self._shift = np.uint64(max(0, self.total.bit_length() - _BUCKET_BITS))
        starts = np.arange((self.total - 1 >> int(self._shift)) + 1, dtype=np.uint64) << self._shift
        ends = np.minimum(starts + ((np.uint64(1) << self._shift) - np.uint64(1)), self.total - 1)
        low = np.searchsorted(self._first, starts.astype(np.float64), side="right") - 1
        high = np.searchsorted(self._first, ends.astype(np.float64), side="right") - 1
        self._bucket_shape = np.where(high - low <= 1, low, -1).astype(np.intp)
        self._bucket_scale = 1.0 / (1 << int(self._shift))  # a power of two: exact

    def draw(self, raw: npt.NDArray[np.uint64]) -> SuitMasks:
        """Hands (predeal included) for the 64-bit random numbers ``raw``, as suit masks.

        A number whose top 48 bits fall in the last, incomplete multiple of
        :attr:`total` is skipped (probability below 0.3%), so there may be fewer
        hands than numbers.
        """
        value = raw >> np.uint64(64 - _RAW_BITS)
        # The draw modulo total in float64, twice as fast as uint64 division and exact:
        # a value below 2**48 is exact, and so is floor(value / total), for value /
        # total lies at least 1 / total from the next integer while its rounding error
        # is below 2**48 / total * 2**-53; the product and difference are integers
        # below 2**48. Likewise the bucket: a division by a power of two.
        rest = value[value < self._limit].astype(np.float64)
        total = float(self.total)
        rest -= np.floor(rest / total) * total
        shape = self._bucket_shape.take((rest * self._bucket_scale).astype(np.intp))
        if shape.size and shape.min() < 0:
            crowded = shape < 0
            shape[crowded] = np.searchsorted(self._first, rest[crowded], side="right") - 1
        shape += rest >= self._next.take(shape)
        rest -= self._first.take(shape)
        hands = np.empty((4, rest.size), dtype=np.uint16)
        for suit in range(3):
            radix = self._radix[suit].take(shape)
            quotient = np.floor(rest / radix)
            index = (rest - quotient * radix).astype(np.intp) + self._start[suit].take(shape)
            hands[suit] = self._holdings[suit].take(index)
            rest = quotient
        hands[3] = self._holdings[3].take(rest.astype(np.intp) + self._start[3].take(shape))
        return hands


def shuffle_steps(
    rows: npt.NDArray[np.int8], draws: npt.NDArray[np.float64], first: int = 0
) -> None:
    """Fisher-Yates steps ``first ..`` on every row, in place, one step for all rows at a time.

    Step ``j`` swaps position ``j`` with ``j + floor(u * (m - j))``, ``u`` the row's
    float64 draw in [0, 1): uniform up to a relative bias below ``52 / 2**53``.
    """
    count, width = rows.shape
    flat = rows.reshape(-1)
    base = np.arange(count, dtype=np.intp) * width
    for offset in range(draws.shape[1]):
        step = first + offset
        here = base + step
        there = here + (draws[:, offset] * (width - step)).astype(np.intp)
        held = flat[here]
        flat[here] = flat[there]
        flat[there] = held


def hand_masks(hands: SuitMasks) -> npt.NDArray[np.uint64]:
    """52-bit card masks (bit ``suit * 13 + rank - 2``) of suit masks shaped (4, n)."""
    masks: npt.NDArray[np.uint64] = hands[0].astype(np.uint64)
    for suit in range(1, 4):
        masks |= hands[suit].astype(np.uint64) << np.uint64(13 * suit)
    return masks


def suit_masks(masks: npt.NDArray[np.uint64]) -> SuitMasks:
    """The inverse of :func:`hand_masks`."""
    return np.stack(
        [
            ((masks >> np.uint64(13 * suit)) & np.uint64(0x1FFF)).astype(np.uint16)
            for suit in range(4)
        ]
    )


def cards_masks(cards: npt.NDArray[np.int8]) -> npt.NDArray[np.uint64]:
    """52-bit masks of card-number rows shaped (n, k) (each row's cards distinct)."""
    masks: npt.NDArray[np.uint64] = np.bitwise_or.reduce(_ONE[cards], axis=1)
    return masks


def owner_hands(owners: npt.NDArray[np.integer[Any]], seat: Seat) -> SuitMasks:
    """The seat's hands, as suit masks, in owner arrays shaped (n, 52)."""
    bits = np.packbits(np.asarray(owners) == seat, axis=1, bitorder="little")
    padded = np.zeros((bits.shape[0], 8), dtype=np.uint8)
    padded[:, : bits.shape[1]] = bits
    return suit_masks(padded.view("<u8")[:, 0].astype(np.uint64))


def mask_bits(masks: npt.NDArray[np.uint64]) -> npt.NDArray[np.bool_]:
    """Whether each card is in each 52-bit mask: shape (n, 52)."""
    bits = np.unpackbits(
        masks.astype("<u8").view(np.uint8).reshape(-1, 8), axis=1, bitorder="little"
    )
    held: npt.NDArray[np.bool_] = bits[:, :52].view(bool)
    return held


def cards_of_bits(bits: npt.NDArray[np.bool_], held: int) -> npt.NDArray[np.int8]:
    """Card numbers, ascending, of rows of :func:`mask_bits` that each hold ``held`` cards."""
    # compress over flat arrays: five times faster than a boolean index of a broadcast one.
    rows = bits.shape[0]
    cards: npt.NDArray[np.int8] = np.tile(_CARD_NUMBERS, rows).compress(bits.reshape(-1))
    return cards.reshape(rows, held)


def cards_of_masks(masks: npt.NDArray[np.uint64], held: int) -> npt.NDArray[np.int8]:
    """Card numbers, ascending, of 52-bit masks that each hold ``held`` cards: (n, held)."""
    return cards_of_bits(mask_bits(masks), held)


def _suit_tables(name: str) -> list[npt.NDArray[np.int16]]:
    """Per suit, the sum of card weight table ``name`` over each of the 8192 holdings."""
    # Keyed by the card weights themselves, so a table changed in WEIGHTS is seen.
    key = WEIGHTS[name].astype(np.int16).tobytes()
    found = _TABLES.get(key)
    if found is None:
        weights = WEIGHTS[name].astype(np.int16)
        found = []
        for suit in range(4):
            table = np.zeros(8192, dtype=np.int16)
            for rank in range(13):
                table += ((_ALL_MASKS >> rank) & 1).astype(np.int16) * weights[suit * 13 + rank]
            found.append(table)
        _TABLES[key] = found
    return found


_TABLES: dict[bytes, list[npt.NDArray[np.int16]]] = {}


class _CardsFromMasks(Mapping[Seat, npt.NDArray[np.int8]]):
    """``HandView.cards`` built from suit masks on first use (for Python predicates)."""

    def __init__(self, hands: Mapping[Seat, SuitMasks]) -> None:
        self._hands = hands
        self._built: dict[Seat, npt.NDArray[np.int8]] = {}

    def __getitem__(self, seat: Seat) -> npt.NDArray[np.int8]:
        found = self._built.get(seat)
        if found is None:
            found = cards_of_masks(hand_masks(self._hands[seat]), 13)
            self._built[seat] = found
        return found

    def __iter__(self) -> Iterator[Seat]:
        return iter(self._hands)

    def __len__(self) -> int:
        return len(self._hands)


class _Recording(Mapping[Seat, SuitMasks]):
    """Hands that note whether anyone looked at them."""

    def __init__(self, hands: Mapping[Seat, SuitMasks]) -> None:
        self._hands = hands
        self.looked = False

    def __getitem__(self, seat: Seat) -> SuitMasks:
        self.looked = True
        return self._hands[seat]

    def __iter__(self) -> Iterator[Seat]:
        return iter(self._hands)

    def __len__(self) -> int:
        return len(self._hands)


class MaskHandView(HandView):
    """A :class:`HandView` over suit masks: features are 8192-entry table look-ups.

    ``hands[seat]`` is shaped (4, n), one 13-bit mask per suit (clubs first).
    ``cards`` (card numbers, as :class:`HandView` has them) is built only if asked for.
    """

    def __init__(self, hands: Mapping[Seat, SuitMasks], n: int) -> None:
        super().__init__(_CardsFromMasks(hands), n)
        self.hands = hands

    def weight(self, seat: Seat, name: str, suit: Strain | None) -> IntArray:
        key = ("w", seat, name, suit)
        found = self._cache.get(key)
        if found is None:
            tables = _suit_tables(name)
            hand = self.hands[seat]
            # take: a third faster than indexing with the same uint16 masks.
            if suit is not None:
                found = tables[suit].take(hand[suit]).astype(np.int32)
            else:
                total = tables[0].take(hand[0]) + tables[1].take(hand[1])
                total += tables[2].take(hand[2])
                total += tables[3].take(hand[3])
                found = total.astype(np.int32)
            self._cache[key] = found
        return found

    def length(self, seat: Seat, suit: Strain) -> IntArray:
        key = ("len", seat, suit)
        found = self._cache.get(key)
        if found is None:
            found = np.bitwise_count(self.hands[seat][suit]).astype(np.int32)
            self._cache[key] = found
        return found

    def has(self, seat: Seat, card: int) -> npt.NDArray[np.bool_]:
        held: npt.NDArray[np.bool_] = (
            self.hands[seat][card // 13] >> np.uint16(card % 13)
        ) & 1 != 0
        return held

    def spots(self, seat: Seat, suit: Strain) -> IntArray:
        """How many cards 2-9 of ``suit`` the seat holds."""
        count: IntArray = np.bitwise_count(self.hands[seat][suit] & np.uint16(0xFF)).astype(
            np.int32
        )
        return count


class ShapeProbe(MaskHandView):
    """One example hand of each shape, noting whether a test looks at more than lengths.

    A condition term that only asks for the seat's suit lengths (``spades(south)``,
    ``shape(south, ...)``) gives the same answer for every hand of a shape, so its
    answers here say which shapes can pass; any other question (points, cards,
    losers, ``cards``) reads the hands and sets :attr:`looked_at_cards`.
    """

    def __init__(self, seat: Seat, examples: SuitMasks) -> None:
        self._recording = _Recording({seat: examples})
        super().__init__(self._recording, examples.shape[1])
        self._lengths = {seat: np.bitwise_count(examples).astype(np.int32)}

    @property
    def looked_at_cards(self) -> bool:
        """Whether the test read anything but suit lengths."""
        return self._recording.looked

    def length(self, seat: Seat, suit: Strain) -> IntArray:
        lengths: IntArray = self._lengths[seat][suit]
        return lengths
