"""The small words every reader reads many times: cards, calls, tricks, the final contract.

Readers meet the same few hundred words millions of times, so each is read once
into a table (or a cache) and looked up after that; anything not in the table
goes through the full parser, which raises the clear error. Nothing here checks
legality (the Laws are :mod:`bridgescore.formats.check`'s business): the contract
is the one the calls name, and a trick's winner the one its cards say.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

from bridgescore.auction import Call
from bridgescore.core import Contract, Doubling, Seat, Strain
from bridgescore.deal import RANK_CHARS, Card, Deal, Hand
from bridgescore.play import winning_position

__all__ = [
    "PLAIN_CARDS",
    "call_of",
    "call_text",
    "card_of",
    "contract_of",
    "deal_of",
    "trick_winner",
    "winning_position",
]

_SEATS = tuple(Seat)
_CARDS: dict[str, Card] = {}
for _index in range(52):
    _card = Card.from_index(_index)
    _suit, _rank = _card.suit.letter, RANK_CHARS[_card.rank - 2]
    for _text in (
        _suit + _rank,
        (_suit + _rank).lower(),
        _suit + _rank.lower(),
        _suit.lower() + _rank,
    ):
        _CARDS[_text] = _card
    if _rank == "T":
        _CARDS[_suit + "10"] = _CARDS[_suit.lower() + "10"] = _card


PLAIN_CARDS: Mapping[str, Card] = _CARDS  # a dict: its lookups are quicker than a read-only view's
"""The card of each plain card text (``SA``, ``sa``, ``H10``): a lookup that needs no call."""


def card_of(text: str) -> Card:
    """``SA``, ``sa``, ``H10``; anything else through :meth:`Card.parse` (which raises)."""
    card = _CARDS.get(text)
    return card if card is not None else Card.parse(text)


@lru_cache(maxsize=256)
def call_of(text: str) -> Call:
    """The :class:`Call` of a canonical call text, parsed once."""
    return Call.parse(text)


@lru_cache(maxsize=1024)
def call_text(word: str) -> str:
    """The canonical text of a call (``1NT``, ``Pass``, ``X``, ``XX``); raises
    :class:`~bridgescore.NotationError` for a word that is no call."""
    return str(Call.parse(word))


_LEVEL = {f"{level}{strain.letter}": (level, strain) for level in range(1, 8) for strain in Strain}


def contract_of(calls: Iterable[str], dealer: Seat) -> tuple[bool, Contract | None]:
    """Whether the calls (canonical texts, from ``dealer``) end the auction, and the
    contract they name (``None``: passed out, or not finished; a word that is no call
    names none).

    The calls are read from the end: the closing passes, the last bid with the
    doubles after it, then the first call of that strain by the same side, which
    makes its declarer (most of an auction is never looked at one call at a time).

    >>> contract_of("Pass 1NT Pass 3NT X Pass Pass Pass".split(), Seat.NORTH)
    (True, Contract.parse('3NTXE'))
    """
    words = calls if isinstance(calls, list) else list(calls)
    if not _CALL_WORDS.issuperset(words):
        return False, None
    count = len(words)
    # The last bid, found in C (a list of bools searched from the end): the loops
    # below run once per auction, and Python's loops cost more than the lookups.
    try:
        last = count - 1 - list(map(_LEVEL.__contains__, reversed(words))).index(True)
    except ValueError:  # no bid: passed out when four passes or more, else unfinished
        return count >= 4 and words.count("Pass") == count, None
    if last > count - 4 or words[-3:] != _THREE_PASSES:
        return False, None  # no three closing passes
    doubling = Doubling.UNDOUBLED
    tail = words[last + 1 :]
    if "X" in tail or "XX" in tail:
        for word in tail:  # the last of them counts
            if word == "X":
                doubling = Doubling.DOUBLED
            elif word == "XX":
                doubling = Doubling.REDOUBLED
    level, strain = _LEVEL[words[last]]
    # The first bid of that strain by the last bidder's side: its calls' strains
    # ("" for Pass, X and XX), searched in C.
    side = list(map(_STRAIN_TEXT.__getitem__, words[last % 2 : last + 1 : 2]))
    first = last % 2 + 2 * side.index(words[last][1:])
    declarer = (dealer + first) % 4
    key = (level, strain, doubling, declarer)
    contract = _REACHED.get(key)
    if contract is None:
        # Contracts are values: each of the 1,260 is made once and shared.
        contract = _REACHED[key] = Contract(level, strain, doubling, _SEATS[declarer])
    return True, contract


_NOT_BIDS = frozenset({"Pass", "X", "XX"})
_THREE_PASSES = ["Pass", "Pass", "Pass"]
_STRAIN_TEXT = {word: "" for word in _NOT_BIDS} | {word: word[1:] for word in _LEVEL}
_CALL_WORDS = _NOT_BIDS | frozenset(_LEVEL)
_REACHED: dict[tuple[int, Strain, Doubling, int], Contract] = {}


def trick_winner(cards: tuple[Card, Card, Card, Card], leader: Seat, trump: Strain) -> Seat:
    """The seat that wins four cards played from ``leader``: highest trump, else the
    highest card of the suit led."""
    return _SEATS[(leader + winning_position(cards, trump)) % 4]


_BY_INDEX = tuple(Card.from_index(index) for index in range(52))
_RANK = {char: position for position, char in enumerate(RANK_CHARS)}
_FIRST = {seat.letter: seat for seat in Seat} | {seat.letter.lower(): seat for seat in Seat}
_SUIT_BASE = (39, 26, 13, 0)  # spades, hearts, diamonds, clubs: index of each suit's 2
_NO_CARDS: frozenset[Card] = frozenset()


# Holdings in one suit ("AKQ2" in spades) met so far, a table per suit: their cards
# and bit mask. A suit has 8,192 holdings, so the tables stay small, and most deals
# find all 16 in them. The cards are kept as a frozenset: a hand is the union of
# four, and a union copies the cards' stored hashes instead of hashing each card again.
_HOLDINGS: tuple[dict[str, tuple[int, frozenset[Card]]], ...] = ({}, {}, {}, {})


def _holding(suit: int, holding: str) -> tuple[int, frozenset[Card]] | None:
    """The bit mask and cards of a holding (suits in PBN's order, spades first),
    remembered; ``None`` if it is not plain."""
    base = _SUIT_BASE[suit]
    mask = 0
    cards = []
    for char in holding:
        rank = _RANK.get(char)
        if rank is None or mask & (1 << (base + rank)):
            return None
        mask |= 1 << (base + rank)
        cards.append(_BY_INDEX[base + rank])
    found = (mask, frozenset(cards))
    # Ranks in any order are read, so a file could name more holdings than there are.
    if len(_HOLDINGS[suit]) < 16_384:
        _HOLDINGS[suit][holding] = found
    return found


# Deals read lately, by their text: a results file writes each deal at every table.
_RECENT_DEALS: dict[str, Deal] = {}


def deal_of(text: str) -> Deal:
    """A PBN deal (``N:AKQ.. ...``), read fast when it is written plainly (upper-case
    ranks, no voids written ``-``, no ``10``); anything else, and anything wrong,
    through :meth:`Deal.from_pbn`, which validates and raises the clear error."""
    deal = _RECENT_DEALS.get(text)
    if deal is None:
        deal = _read_deal(text)
        if len(_RECENT_DEALS) >= 256:
            _RECENT_DEALS.clear()
        _RECENT_DEALS[text] = deal
    return deal


def _read_deal(text: str) -> Deal:
    first, colon, rest = text.strip().partition(":")
    seat = _FIRST.get(first)
    words = rest.split()
    if seat is None or not colon or len(words) != 4:
        return Deal.from_pbn(text)
    spades, hearts, diamonds, clubs = _HOLDINGS
    seen = 0
    hands: list[Hand | None] = [None, None, None, None]
    for steps, word in enumerate(words):
        suits = word.split(".")
        if len(suits) != 4:
            return Deal.from_pbn(text)
        spade = spades.get(suits[0]) or _holding(0, suits[0])
        heart = hearts.get(suits[1]) or _holding(1, suits[1])
        diamond = diamonds.get(suits[2]) or _holding(2, suits[2])
        club = clubs.get(suits[3]) or _holding(3, suits[3])
        if spade is None or heart is None or diamond is None or club is None:
            return Deal.from_pbn(text)
        mask = spade[0] | heart[0] | diamond[0] | club[0]
        cards = spade[1].union(heart[1], diamond[1], club[1])
        # The suits' masks never overlap, so a hand of 13 has 13 bits; a card
        # already in another hand shows as a bit seen before.
        if seen & mask or len(cards) != 13:
            return Deal.from_pbn(text)
        seen |= mask
        # Every element is one of the 52 Card values: Hand's own check of that is skipped.
        hand = object.__new__(Hand)
        object.__setattr__(hand, "cards", cards)
        hands[(seat + steps) % 4] = hand
    # Every card once and 13 in each hand: exactly what Deal's constructor checks,
    # so the checked hands are set without checking them again.
    deal = object.__new__(Deal)
    object.__setattr__(deal, "hands", tuple(hands))
    return deal
