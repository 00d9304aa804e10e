"""Cards, hands and deals, with PBN text, a hand diagram and random dealing.

A :class:`Deal` is four 13-card :class:`Hand` values indexed by ``Seat``
(N=0, E=1, S=2, W=3). Its text pair is PBN's ``Deal`` tag:
``Deal.from_pbn("N:AKQJ.T98.765.432 ...")`` and ``deal.to_pbn()``.

Random deals are uniform over all deals and reproducible on any machine: a deal
is one permutation of the 52 cards drawn from numpy's PCG64 ``Generator``
(``rng.permutation(52)``); the card at position ``p`` of the permutation goes to
seat ``p // 13``. Cards are numbered ``suit * 13 + rank - 2`` (C2=0 .. SA=51).
"""

from __future__ import annotations

import gc
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import numpy as np
import numpy.typing as npt

from bridgescore.core import Seat, Strain
from bridgescore.display.markup import Markup, compass_html, hand_html, holding_html
from bridgescore.errors import (
    ArgumentTypeError,
    InvalidArgumentError,
    InvalidDealError,
    NotationError,
)
from bridgescore.validate import enum_arg, is_whole_number

__all__ = [
    "RANK_CHARS",
    "SUITS",
    "Card",
    "Deal",
    "Hand",
    "deals_from_array",
    "random_deal",
    "random_deal_array",
    "random_deals",
]

RANK_CHARS = "23456789TJQKA"
"""Rank characters from 2 (index 0) up to the ace (index 12)."""

SUITS = (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
"""The four suits in PBN's order (spades first), as used in hands and diagrams."""

_HCP = {14: 4, 13: 3, 12: 2, 11: 1}
_SUIT_NAMES = {
    Strain.CLUBS: "clubs",
    Strain.DIAMONDS: "diamonds",
    Strain.HEARTS: "hearts",
    Strain.SPADES: "spades",
}
_SEAT_ROWS = np.repeat(np.arange(4, dtype=np.int8), 13)
# Rows dealt per numpy call in the bulk path: bounds memory, and the stream does
# not depend on it because rows are always drawn one after another.
_BULK_ROWS = 65536


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """A playing card: a suit (clubs to spades) and a rank 2..14 (ace high).

    Cards order by suit, then rank, so ``sorted`` gives C2 first and SA last.

    >>> Card.parse("s10"), str(Card(Strain.HEARTS, 12))
    (Card.parse('ST'), 'HQ')
    """

    suit: Strain
    rank: int

    def __post_init__(self) -> None:
        suit = self.suit
        if type(suit) is not Strain:
            try:
                suit = enum_arg(Strain, suit, "suit")
            except NotationError:
                raise InvalidDealError(
                    f"{self.suit!r} is not a suit: expected C, D, H or S (clubs to spades)"
                ) from None
        if suit is Strain.NOTRUMP:
            raise InvalidDealError("notrump is not a suit: a card needs C, D, H or S")
        if not is_whole_number(self.rank, 2, 14):
            raise InvalidDealError(f"card rank {self.rank!r} is impossible: expected 2 to 14 (ace)")
        object.__setattr__(self, "suit", suit)

    @property
    def index(self) -> int:
        """0 for C2 up to 51 for SA: ``suit * 13 + rank - 2``."""
        return self.suit * 13 + self.rank - 2

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card numbered ``index`` (0..51) as in :attr:`index`."""
        if not is_whole_number(index, 0, 51, numpy=True):
            raise InvalidDealError(f"card number {index!r} is impossible: expected 0 to 51")
        return _CARDS[int(index)]

    @property
    def hcp(self) -> int:
        """Milton Work points: A=4, K=3, Q=2, J=1."""
        return _HCP.get(self.rank, 0)

    @classmethod
    def parse(cls, text: str) -> Card:
        """``SA``, ``hq``, ``D10``, ``♠A``: a suit letter or symbol, then a rank."""
        if not isinstance(text, str):
            raise NotationError(f"a card must be text, not {text!r}")
        clean = text.strip()
        if len(clean) < 2:
            raise NotationError(f"not a card: {text!r}: expected a suit and a rank, as in 'SA'")
        try:
            suit = Strain.parse(clean[0])
        except NotationError:
            suit = Strain.NOTRUMP
        rank_text = clean[1:].upper()
        rank_text = "T" if rank_text == "10" else rank_text
        if suit is Strain.NOTRUMP or len(rank_text) != 1 or rank_text not in RANK_CHARS:
            raise NotationError(
                f"not a card: {text!r}: expected a suit C, D, H or S (or ♣ ♦ ♥ ♠) "
                "then a rank 2-9, T (or 10), J, Q, K or A, as in 'SA'"
            )
        return _CARDS[suit * 13 + RANK_CHARS.index(rank_text)]

    def format(self, *, symbols: bool = False) -> str:
        """``SA``, or ``♠A`` with symbols."""
        suit = self.suit.symbol if symbols else self.suit.letter
        return f"{suit}{RANK_CHARS[self.rank - 2]}"

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"Card.parse({self.format()!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card.from_index, (self.index,))


_CARDS = tuple(Card(Strain(i // 13), i % 13 + 2) for i in range(52))
_SINGLE_CARD_SETS = tuple(frozenset({card}) for card in _CARDS)


def _parse_hand(text: str, who: str) -> frozenset[Card]:
    """Read one PBN hand (spades.hearts.diamonds.clubs); ``who`` names it in errors."""
    suits = text.split(".")
    if text == "-":
        # PBN writes a hand it does not give as "-" (a lead problem shows one hand).
        raise InvalidDealError(
            f"{who} is '-', a hand not given: a deal needs all four hands "
            "(spades.hearts.diamonds.clubs each)"
        )
    if len(suits) != 4:
        raise InvalidDealError(
            f"{who} {text!r} has {len(suits)} suit(s): expected 4 separated by dots "
            "(spades.hearts.diamonds.clubs)"
        )
    cards: set[Card] = set()
    for suit, holding in zip(SUITS, suits, strict=True):
        # "-" is a common way of writing a void; "10" is a common way of writing T.
        ranks = "" if holding == "-" else holding.upper().replace("10", "T")
        for char in ranks:
            rank = RANK_CHARS.find(char)
            if rank < 0:
                raise InvalidDealError(
                    f"{who} {text!r}: {char!r} in {_SUIT_NAMES[suit]} is not a rank: "
                    "expected 2-9, T, J, Q, K or A"
                )
            card = _CARDS[suit * 13 + rank]
            if card in cards:
                raise InvalidDealError(f"{who} {text!r} holds {card} twice")
            cards.add(card)
    return frozenset(cards)


@dataclass(frozen=True, slots=True)
class Hand:
    """A set of cards held by one player (13 in a deal; fewer during play).

    >>> hand = Hand.from_pbn("AKQ.JT9.8765.432")
    >>> hand.hcp, hand.shape, hand.suit(Strain.HEARTS)
    (10, (3, 3, 4, 3), (11, 10, 9))
    """

    cards: frozenset[Card]

    def __post_init__(self) -> None:
        if not isinstance(self.cards, frozenset):
            object.__setattr__(self, "cards", frozenset(self.cards))
        # The test card by card in C (map), the loop only to name the stranger.
        if all(map(isinstance, self.cards, repeat(Card))):
            return
        for card in self.cards:
            if not isinstance(card, Card):
                raise InvalidDealError(f"{card!r} is not a Card: a hand holds Card values")

    @classmethod
    def from_pbn(cls, text: str) -> Hand:
        """Read a PBN hand: suits spades, hearts, diamonds, clubs separated by dots."""
        if not isinstance(text, str):
            raise InvalidDealError(f"a hand must be text, not {text!r}")
        return cls(_parse_hand(text.strip(), "hand"))

    def to_pbn(self) -> str:
        """The strict PBN form, spades first, ranks descending: ``AKQ.JT9.8765.432``."""
        return ".".join("".join(RANK_CHARS[rank - 2] for rank in self.suit(suit)) for suit in SUITS)

    def suit(self, strain: Strain | str) -> tuple[int, ...]:
        """The ranks held in ``strain`` (``Strain.SPADES`` or ``"S"``), highest first (ace 14)."""
        if type(strain) is not Strain:
            strain = enum_arg(Strain, strain, "strain")
        return tuple(sorted((c.rank for c in self.cards if c.suit == strain), reverse=True))

    def length(self, strain: Strain | str) -> int:
        """How many cards of ``strain`` (``Strain.SPADES`` or ``"S"``) the hand holds."""
        if type(strain) is not Strain:
            strain = enum_arg(Strain, strain, "strain")
        return sum(1 for card in self.cards if card.suit == strain)

    @property
    def hcp(self) -> int:
        """High-card points (A=4, K=3, Q=2, J=1)."""
        return sum(card.hcp for card in self.cards)

    @property
    def shape(self) -> tuple[int, int, int, int]:
        """Suit lengths in the order spades, hearts, diamonds, clubs."""
        s, h, d, c = (self.length(suit) for suit in SUITS)
        return (s, h, d, c)

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        """Cards from the highest spade down to the lowest club."""
        return iter(sorted(self.cards, reverse=True))

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def __str__(self) -> str:
        return self.to_pbn()

    def __repr__(self) -> str:
        return f"Hand.from_pbn({self.to_pbn()!r})"

    def _repr_html_(self) -> str:
        """The hand in a notebook: one line per suit, ``♠ A K Q``, red hearts and diamonds."""
        return hand_html(self._holdings_html())

    def _holdings_html(self) -> list[Markup]:
        return [holding_html(suit, self.suit(suit)) for suit in SUITS]


_PBN_DEAL = re.compile(r"\s*(?P<first>[^:\s]*)\s*:(?P<hands>.*)", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Deal:
    """Four hands of 13 cards that together hold the 52 cards, indexed by ``Seat``.

    The constructor validates; every problem raises :class:`InvalidDealError`
    naming the hand and the card.

    >>> deal = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. "
    ...                      "..AKQJT98765432. ...AKQJT98765432")
    >>> deal[Seat.EAST].shape, deal.owner(Card.parse("C2"))
    ((0, 13, 0, 0), Seat.WEST)
    """

    hands: tuple[Hand, Hand, Hand, Hand]

    def __post_init__(self) -> None:
        hands = self.hands
        if not isinstance(hands, tuple) or len(hands) != 4:
            raise InvalidDealError(f"a deal needs 4 hands (N, E, S, W), got {hands!r}")
        if not all(map(isinstance, hands, repeat(Hand))):
            for seat, hand in zip(Seat, hands, strict=True):
                if not isinstance(hand, Hand):
                    raise InvalidDealError(f"{seat.full_name}'s hand {hand!r} is not a Hand")
        north, east, south, west = hands[0].cards, hands[1].cards, hands[2].cards, hands[3].cards
        # A good deal is told in one union (the sets keep their cards' hashes), over ten
        # times faster than the card-by-card walk below, which only says what is wrong.
        if (
            len(north) == len(east) == len(south) == len(west) == 13
            and len(north | east | south | west) == 52
        ):
            return
        owners: dict[Card, Seat] = {}
        for seat, hand in zip(Seat, hands, strict=True):
            for card in sorted(hand.cards, reverse=True):
                other = owners.setdefault(card, seat)
                if other is not seat:
                    raise InvalidDealError(
                        f"{card} is in both {other.full_name}'s hand "
                        f"{hands[other].to_pbn()!r} and {seat.full_name}'s hand "
                        f"{hand.to_pbn()!r}"
                    )
        for seat, hand in zip(Seat, hands, strict=True):
            if len(hand) != 13:
                missing = " ".join(str(c) for c in reversed(_CARDS) if c not in owners)
                detail = f" (not dealt: {missing})" if missing else ""
                raise InvalidDealError(
                    f"{seat.full_name}'s hand {hand.to_pbn()!r} has {len(hand)} cards: "
                    f"expected 13{detail}"
                )

    @classmethod
    def from_pbn(cls, text: str) -> Deal:
        """Read PBN's ``Deal`` tag: the first seat, a colon, four hands clockwise.

        Ranks may come in any order and in lower case; ``..`` or ``-`` is a void.
        """
        if not isinstance(text, str):
            raise InvalidDealError(f"a deal must be text, not {text!r}")
        match = _PBN_DEAL.fullmatch(text)
        if match is None or match["first"].upper() not in ("N", "E", "S", "W"):
            raise InvalidDealError(
                f"not a PBN deal: {text!r}: expected a first seat N, E, S or W, a colon "
                "and four hands, as in 'N:AKQJ.T98.765.432 ...'"
            )
        first = Seat.parse(match["first"])
        words = match["hands"].split()
        if len(words) != 4:
            raise InvalidDealError(
                f"{text!r} has {len(words)} hand(s): expected 4 separated by spaces"
            )
        hands: list[Hand] = [Hand(frozenset())] * 4
        for steps, word in enumerate(words):
            seat = first.rotate(steps)
            hands[seat] = Hand(_parse_hand(word, f"{seat.full_name}'s hand"))
        return cls((hands[0], hands[1], hands[2], hands[3]))

    @classmethod
    def parse(cls, text: str) -> Deal:
        """The same as :meth:`from_pbn`."""
        return cls.from_pbn(text)

    def to_pbn(self, first: Seat | str = Seat.NORTH) -> str:
        """The strict PBN form starting with ``first``: ``N:AKQ.JT9.8765.432 ...``."""
        first = enum_arg(Seat, first, "first")
        hands = " ".join(self.hands[first.rotate(steps)].to_pbn() for steps in range(4))
        return f"{first.letter}:{hands}"

    def __getitem__(self, seat: Seat | int | str) -> Hand:
        """The hand of ``seat``: ``deal[Seat.NORTH]``, ``deal["N"]`` or ``deal[0]``."""
        # Numbers index the tuple directly, so iterating a deal still ends at 4.
        if not isinstance(seat, int | np.integer):
            seat = enum_arg(Seat, seat, "seat")
        return self.hands[seat]

    def owner(self, card: Card) -> Seat:
        """The seat holding ``card``."""
        for seat, hand in zip(Seat, self.hands, strict=True):
            if card in hand.cards:
                return seat
        raise InvalidDealError(f"{card!r} is not a card of this deal")

    def to_array(self) -> npt.NDArray[np.int8]:
        """The owner ``Seat`` value of each card, shaped (52,), indexed by :attr:`Card.index`."""
        owners = np.empty(52, dtype=np.int8)
        for seat, hand in enumerate(self.hands):
            for card in hand.cards:
                owners[card.index] = seat
        return owners

    @classmethod
    def from_array(cls, owners: npt.ArrayLike) -> Deal:
        """From the owner seat of each card (52 values 0..3), as :meth:`to_array` gives."""
        values = np.asarray(owners)
        if values.shape != (52,) or not np.issubdtype(values.dtype, np.integer):
            raise InvalidDealError(
                f"a deal array must hold 52 whole numbers, got shape {values.shape} "
                f"of {values.dtype}"
            )
        bad = np.flatnonzero((values < 0) | (values > 3))
        if bad.size:
            raise InvalidDealError(
                f"{_CARDS[bad[0]]} has owner {values[bad[0]]}: expected a seat 0 to 3"
            )
        held: list[list[Card]] = [[], [], [], []]
        for index, seat in enumerate(values.tolist()):
            held[seat].append(_CARDS[index])
        n, e, s, w = (Hand(frozenset(cards)) for cards in held)
        return cls((n, e, s, w))

    def diagram(self, *, symbols: bool = False) -> str:
        """A hand-record diagram: North on top, West and East either side, South below.

        >>> print(Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. "
        ...                     "...AKQJT98765432").diagram().splitlines()[0])
                         S AKQJT98765432
        """
        blocks = {seat: self._suit_lines(seat, symbols) for seat in Seat}
        width = max(15, *(len(line) for line in blocks[Seat.WEST])) + 2
        pad = " " * width
        lines = [pad + line for line in blocks[Seat.NORTH]]
        # A small compass between West and East says which hand is which.
        compass = ("N", "W   E", "S", "")
        for west, middle, east in zip(blocks[Seat.WEST], compass, blocks[Seat.EAST], strict=True):
            lines.append(f"{west:<{width}}{middle:^{width}}{east}".rstrip())
        lines.extend(pad + line for line in blocks[Seat.SOUTH])
        return "\n".join(lines)

    def _suit_lines(self, seat: Seat, symbols: bool) -> list[str]:
        hand = self.hands[seat]
        lines = []
        for suit in SUITS:
            ranks = "".join(RANK_CHARS[rank - 2] for rank in hand.suit(suit)) or "-"
            lines.append(f"{suit.symbol if symbols else suit.letter} {ranks}")
        return lines

    def __str__(self) -> str:
        return self.to_pbn()

    def __repr__(self) -> str:
        return f"Deal.from_pbn({self.to_pbn()!r})"

    def _repr_html_(self) -> str:
        """The deal in a notebook: a compass diagram, each hand under its seat's name."""
        hands = {
            seat: hand_html(self.hands[seat]._holdings_html(), seat.full_name) for seat in Seat
        }
        return compass_html(hands)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Deal.from_pbn, (self.to_pbn(),))


SeedLike = int | np.integer[Any] | np.random.SeedSequence | np.random.Generator


def _generator(seed: SeedLike) -> np.random.Generator:
    # Always PCG64 explicitly: default_rng could change its bit generator one day.
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, np.random.SeedSequence):
        return np.random.Generator(np.random.PCG64(seed))
    if not is_whole_number(seed, numpy=True):
        raise ArgumentTypeError(f"seed must be an int, a SeedSequence or a Generator, not {seed!r}")
    if seed < 0:
        raise InvalidArgumentError(f"seed {seed} is negative: expected a whole number >= 0")
    return np.random.Generator(np.random.PCG64(seed))


def random_deal(rng: np.random.Generator) -> Deal:
    """A uniformly random deal drawn from ``rng`` (one permutation of the pack).

    >>> rng = np.random.Generator(np.random.PCG64(1))
    >>> len(random_deal(rng).to_pbn())
    69
    """
    if not isinstance(rng, np.random.Generator):
        raise ArgumentTypeError(f"rng must be a numpy Generator, not {rng!r}")
    order = rng.permutation(52)
    owners = np.empty(52, dtype=np.int8)
    owners[order] = _SEAT_ROWS
    return Deal.from_array(owners)


def _count_and_seed(
    function: str, count: int, old_order: tuple[int, ...], seed: SeedLike | None
) -> tuple[int, SeedLike]:
    """The count and the seed of a call, in the order ``deal_many`` takes them: the
    count, then ``seed=``.

    Until this release the seed came first (``random_deals(7, 3)``: seed 7, three
    deals). That form, two positional arguments, is the only call with a second
    one, so it is told apart for sure: it deals the same deals, with a
    ``DeprecationWarning``, for one release.
    """
    if old_order:
        if len(old_order) > 1 or seed is not None:
            raise ArgumentTypeError(
                f"{function} takes the count, then the seed by its name: "
                f"got {1 + len(old_order)} arguments without a name"
                + (" and a named seed" if seed is not None else "")
            )
        warnings.warn(
            f"{function} with the seed first is deprecated and goes in the next release: "
            "give the count first and the seed by its name, as deal_many takes them",
            DeprecationWarning,
            stacklevel=3,
        )
        return old_order[0], count
    if seed is None:
        raise ArgumentTypeError(
            f"{function} needs a seed: give the count first and the seed by its name"
        )
    return count, seed


def random_deal_array(
    count: int, *old_order: int, seed: SeedLike | None = None
) -> npt.NDArray[np.int8]:
    """``count`` random deals as owner arrays shaped (count, 52), for bulk work.

    Row ``i`` equals ``random_deals(count, seed=seed)[i].to_array()``: the rows are
    drawn one after another from the same stream (``Generator.permuted`` along
    axis 1 shuffles row by row exactly as ``permutation`` does). Memory is about
    52 bytes per deal. ``random_deal_array(seed, count)``, the old order, still
    works for one release, with a ``DeprecationWarning``.

    >>> random_deal_array(3, seed=7).shape
    (3, 52)
    """
    count, seed = _count_and_seed("random_deal_array", count, old_order, seed)
    if not is_whole_number(count, 0, numpy=True):
        raise InvalidArgumentError(f"count {count!r} is not valid: expected a whole number >= 0")
    rng = _generator(seed)
    count = int(count)
    owners = np.empty((count, 52), dtype=np.int8)
    cards = np.arange(52, dtype=np.int8)
    for start in range(0, count, _BULK_ROWS):
        rows = min(_BULK_ROWS, count - start)
        order = rng.permuted(np.broadcast_to(cards, (rows, 52)), axis=1)
        np.put_along_axis(
            owners[start : start + rows], order, np.broadcast_to(_SEAT_ROWS, (rows, 52)), axis=1
        )
    return owners


def deals_from_array(owners: npt.ArrayLike) -> list[Deal]:
    """The deals of owner arrays shaped (n, 52), row ``i`` equal to
    ``Deal.from_array(owners[i])``, made many at once.

    Raises :class:`InvalidDealError` as :meth:`Deal.from_array` does, for the first
    row that is not a deal.

    >>> deals_from_array(random_deal_array(2, seed=7)) == random_deals(2, seed=7)
    True
    """
    values = np.asarray(owners)
    if values.ndim != 2 or values.shape[1:] != (52,) or not np.issubdtype(values.dtype, np.integer):
        raise InvalidDealError(
            f"deal arrays must be shaped (n, 52) of whole numbers, got shape {values.shape} "
            f"of {values.dtype}"
        )
    seats = np.where((values >= 0) & (values <= 3), values, 4).astype(np.intp)
    dealt = np.bincount(
        (seats + 5 * np.arange(len(values))[:, None]).ravel(), minlength=5 * len(values)
    )
    bad = np.flatnonzero((dealt.reshape(-1, 5)[:, :4] != 13).any(axis=1))
    if bad.size:
        Deal.from_array(values[bad[0]])  # raises, naming the card or the hand
    # A hand's set as the union of its cards' one-card sets: a union reuses the hashes
    # the sets keep, where building it from the cards calls Card.__hash__ 13 times.
    single = _SINGLE_CARD_SETS.__getitem__
    union = frozenset[Card]().union
    deals: list[Deal] = []
    # Deals hold no reference cycles, yet the cycle collector would run every few
    # hundred new objects and walk all the deals made so far (formats/batches.py
    # says why and what it cost there): paused while they are made, as found after.
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        for start in range(0, len(values), _BULK_ROWS):
            # A stable sort of each row by owner lists North's 13 cards, then East's, ...
            rows = np.argsort(values[start : start + _BULK_ROWS], axis=1, kind="stable")
            deals.extend(
                Deal(
                    (
                        Hand(union(*map(single, row[:13]))),
                        Hand(union(*map(single, row[13:26]))),
                        Hand(union(*map(single, row[26:39]))),
                        Hand(union(*map(single, row[39:]))),
                    )
                )
                for row in rows.tolist()
            )
    finally:
        if paused:
            gc.enable()
    return deals


def random_deals(count: int, *old_order: int, seed: SeedLike | None = None) -> list[Deal]:
    """``count`` uniformly random deals, the same for the same seed on any machine.

    ``seed`` is an int or a ``SeedSequence`` (dealt with PCG64), or a
    ``Generator`` that is used (and advanced) as it is. The result equals
    ``[random_deal(rng) for _ in range(count)]`` with ``rng`` built from the seed.
    The count comes first, as in :func:`~bridgescore.dealer.dealing.deal_many`;
    ``random_deals(seed, count)``, the old order, still works for one release,
    with a ``DeprecationWarning``.

    >>> random_deals(2, seed=1) == random_deals(2, seed=1)
    True
    """
    count, seed = _count_and_seed("random_deals", count, old_order, seed)
    return deals_from_array(random_deal_array(count, seed=seed))
