"""The dealer deals exactly what docs/simulate.md describes, re-implemented here card by card.

An independent, scalar formulation of the documented procedure (plain Python integers,
one candidate at a time, no numpy arrays of deals): the first seat's hand by unranking
one 64-bit draw, the other seats by Fisher-Yates steps from their own child streams.
It checks the dealer's deals, and so the deal lines shown in the README, without reading
them back from the code under test.
"""

from __future__ import annotations

import itertools
from functools import cache
from math import comb, prod

import numpy as np
import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.core import Seat
from bridgescore.deal import Deal
from bridgescore.dealer.dealing import deal_many

HCP = {12: 4, 11: 3, 10: 2, 9: 1}  # rank index (0 = two) -> points
RANKS = "23456789TJQKA"


@cache
def holdings(free: int, size: int) -> list[int]:
    """The ``size``-card subsets of the ranks in ``free``, in increasing mask order."""
    ranks = [r for r in range(13) if free >> r & 1]
    return sorted(sum(1 << r for r in combo) for combo in itertools.combinations(ranks, size))


def first_hand(raw: int, free: list[int], need: int, allowed: object) -> list[int] | None:
    """Unrank one 64-bit draw into the first seat's dealt cards (suit masks), or None."""
    sizes = [bin(mask).count("1") for mask in free]
    shapes = [
        s
        for s in itertools.product(*(range(n + 1) for n in sizes))
        if sum(s) == need and allowed(s)  # type: ignore[operator]
    ]
    counts = {s: prod(comb(n, k) for n, k in zip(sizes, s)) for s in shapes}
    shapes.sort(key=lambda s: (-counts[s], s))
    total = sum(counts.values())
    value = raw >> 16
    if value >= (1 << 48) // total * total:
        return None
    rank = value % total
    for shape in shapes:
        if rank < counts[shape]:
            break
        rank -= counts[shape]
    hand = []
    for suit in range(4):
        radix = comb(sizes[suit], shape[suit])
        index, rank = (rank % radix, rank // radix) if suit < 3 else (rank, 0)
        hand.append(holdings(free[suit], shape[suit])[index])
    return hand


def reference_deals(
    count: int,
    seed: int,
    order: list[Seat],
    passes: object = lambda hand: True,
    allowed: object = lambda shape: True,
) -> list[str]:
    """Deals of chunk 0 as docs/simulate.md describes them (no predeal), as PBN."""
    parent = np.random.SeedSequence(seed, spawn_key=(0,))
    candidates = np.random.PCG64(parent)
    later = [np.random.Generator(np.random.PCG64(child)) for child in parent.spawn(3)]
    deals = []
    while len(deals) < count:
        raw = int(candidates.random_raw())
        hand = first_hand(raw, [0x1FFF] * 4, 13, allowed)
        if hand is None or not passes(hand):  # type: ignore[operator]
            continue
        cards = {order[0]: [13 * s + r for s in range(4) for r in range(13) if hand[s] >> r & 1]}
        rest = sorted(set(range(52)) - set(cards[order[0]]))
        for number, seat in enumerate(order[1:3], start=1):
            for step in range(13 * (number - 1), 13 * number):
                other = step + int(later[number - 1].random() * (len(rest) - step))
                rest[step], rest[other] = rest[other], rest[step]
            cards[seat] = rest[13 * (number - 1) : 13 * number]
        cards[order[3]] = rest[26:]
        deals.append(pbn(cards))
    return deals


def pbn(cards: dict[Seat, list[int]]) -> str:
    hands = []
    for seat in Seat:
        suits = []
        for suit in (3, 2, 1, 0):
            held = sorted((c % 13 for c in cards[seat] if c // 13 == suit), reverse=True)
            suits.append("".join(RANKS[r] for r in held))
        hands.append(".".join(suits))
    return "N:" + " ".join(hands)


def points(hand: list[int]) -> int:
    return sum(HCP.get(r, 0) for mask in hand for r in range(13) if mask >> r & 1)


def balanced(shape: tuple[int, ...]) -> bool:
    return sorted(shape, reverse=True) in ([4, 3, 3, 3], [4, 4, 3, 2], [5, 3, 3, 2])


NOTRUMP = "hcp(south) >= 15 && hcp(south) <= 17 && shape(south, any 4333 + any 4432 + any 5332)"


def test_random_deals_are_the_documented_ones() -> None:
    expected = reference_deals(12, 1, [Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST])
    assert [deal.to_pbn() for deal in deal_many(12, seed=1)] == expected


def test_conditioned_deals_are_the_documented_ones() -> None:
    # South is dealt first (the condition names only South); the shape term picks the
    # shapes drawn, the points are tested on each drawn hand.
    expected = reference_deals(
        25,
        7,
        [Seat.SOUTH, Seat.NORTH, Seat.EAST, Seat.WEST],
        passes=lambda hand: 15 <= points(hand) <= 17,
        allowed=balanced,
    )
    assert [deal.to_pbn() for deal in deal_many(25, seed=7, where=NOTRUMP)] == expected


@pytest.mark.parametrize("processes", ["1", "2"])
def test_readme_deal_lines_are_the_documented_ones(processes: str) -> None:
    # README.md shows `bridgescore deal --count 2 --seed 1`.
    result = CliRunner().invoke(
        app, ["deal", "--count", "2", "--seed", "1", "--processes", processes]
    )
    assert result.exit_code == 0, result.output
    expected = reference_deals(2, 1, [Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST])
    assert result.stdout.splitlines() == expected
    assert all(Deal.from_pbn(line).to_pbn() == line for line in expected)
