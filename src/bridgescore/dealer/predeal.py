"""Predeals: cards given to a seat before dealing, as the ``dealer`` program writes them.

:func:`parse_predeal` reads a seat's given cards (a whole hand, some cards, or ``x`` for
a small card of a suit) into a :class:`Predeal`; the dealing (:mod:`.dealing`) deals
the rest of the pack around them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bridgescore.core import Seat, Strain
from bridgescore.errors import PredealError

__all__ = ["RANKS", "Predeal", "parse_predeal", "parse_predeals"]

_SEAT_WORDS = {"n": Seat.NORTH, "e": Seat.EAST, "s": Seat.SOUTH, "w": Seat.WEST}
_SEAT_WORDS.update({seat.name.lower(): seat for seat in Seat})
# The ranks from the two up, as a card number modulo 13 counts them.
RANKS = "23456789TJQKA"
_PBN_SUIT_ORDER = (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)


@dataclass(frozen=True, slots=True)
class Predeal:
    """Cards given to one seat before dealing, and how many extra small cards (x) per suit.

    ``spots[suit]`` is the number of ``x`` written in that suit: the seat must hold at
    least that many cards 2-9 of the suit besides the named ones.
    """

    seat: Seat
    cards: frozenset[int]
    spots: tuple[int, int, int, int] = (0, 0, 0, 0)  # indexed by Strain (clubs first)

    def __str__(self) -> str:
        suits = []
        for suit in _PBN_SUIT_ORDER:
            ranks = sorted((c % 13 for c in self.cards if c // 13 == suit), reverse=True)
            suits.append("".join(RANKS[r] for r in ranks) + "x" * self.spots[suit])
        return f"{self.seat.letter}=" + ".".join(suits)


# A whole PBN deal: a first seat, a colon and four hands clockwise ('-' for one not given).
_PBN_DEAL = re.compile(r"\s*(?P<first>[NESW])\s*:\s*(?P<hands>\S+(?:\s+\S+){3})\s*", re.I)
_PREDEAL = re.compile(r"\s*(?P<seat>[A-Za-z]+)\s*[=:]\s*(?P<holding>.*?)\s*", re.DOTALL)


def parse_predeal(text: str) -> Predeal:
    """Read ``N=AKQ2.KQ3.A54.KJ3`` (a whole hand), ``S=AK..x.`` (some cards) or
    ``south=SAQ542,HKJ87`` (dealer's suit-by-suit form).

    The PBN-like form lists spades.hearts.diamonds.clubs; ``x`` is one more small
    card (2-9) of that suit, any of those not named. Raises
    :class:`~bridgescore.errors.PredealError` quoting the text.

    >>> str(parse_predeal("s=ak..x."))
    'S=AK..x.'
    """
    if not isinstance(text, str):
        raise PredealError(f"a predeal must be text, not {text!r}")
    match = _PREDEAL.fullmatch(text)
    if match is None or match["seat"].lower() not in _SEAT_WORDS:
        raise PredealError(
            f"not a predeal: {text!r}: expected a seat N, E, S or W, '=' and cards, "
            "as in 'N=AKQ2.KQ3.A54.KJ3' or 'S=AK..x.'"
        )
    seat = _SEAT_WORDS[match["seat"].lower()]
    holding = match["holding"].upper().replace("10", "T")
    if "." in holding:
        suits = holding.split(".")
        if len(suits) != 4:
            raise PredealError(
                f"predeal {text!r} has {len(suits)} suit(s): expected 4 separated by dots "
                "(spades.hearts.diamonds.clubs), empty for none, as in 'S=AK..x.'"
            )
        groups = list(zip(_PBN_SUIT_ORDER, suits))
    else:
        groups = []
        for part in filter(None, (p.strip() for p in holding.split(","))):
            if part[0] not in "SHDC":
                raise PredealError(
                    f"predeal {text!r}: {part!r} does not start with a suit letter S, H, D or C"
                )
            groups.append((Strain("CDHS".index(part[0])), part[1:]))
    cards: set[int] = set()
    spots = [0, 0, 0, 0]
    for suit, ranks in groups:
        for char in ranks.replace("-", ""):
            if char == "X":
                spots[suit] += 1
                continue
            if char not in RANKS:
                raise PredealError(
                    f"predeal {text!r}: {char!r} is not a rank: expected 2-9, T, J, Q, K, A or x"
                )
            card = suit * 13 + RANKS.index(char)
            if card in cards:
                raise PredealError(f"predeal {text!r} names {suit.letter}{char} twice")
            cards.add(card)
    if len(cards) + sum(spots) > 13:
        raise PredealError(
            f"predeal {text!r} gives {len(cards) + sum(spots)} cards: a hand holds 13"
        )
    return Predeal(seat, frozenset(cards), (spots[0], spots[1], spots[2], spots[3]))


def parse_predeals(text: str) -> tuple[Predeal, ...]:
    """The predeals of one text: one seat's cards (:func:`parse_predeal`), or a whole
    PBN deal, ``N:AKQ2.KQ3.A54.KJ3 ... ... ...``, as one predeal per hand given
    (clockwise from the first seat; ``-`` gives none).

    >>> [str(p) for p in parse_predeals("W:AKQJT98765432... - .AKQJT98765432.. -")]
    ['W=AKQJT98765432...', 'E=.AKQJT98765432..']
    """
    if not isinstance(text, str):
        raise PredealError(f"a predeal must be text, not {text!r}")
    match = _PBN_DEAL.fullmatch(text)
    hands = match["hands"].split() if match else []
    if match is None or not all(hand == "-" or hand.count(".") == 3 for hand in hands):
        return (parse_predeal(text),)
    first = _SEAT_WORDS[match["first"].lower()]
    return tuple(
        parse_predeal(f"{Seat((first + turn) % 4).letter}={hand}")
        for turn, hand in enumerate(hands)
        if hand != "-"
    )
