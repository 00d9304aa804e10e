"""LIN's lowest layer: the ``tag|value|`` tokens of a text, and the hands of an ``md``
value (the deal), read fast when written plainly and checked character by character
otherwise. :mod:`~bridgescore.formats.lin.reader` builds board records from these, and
:mod:`~bridgescore.formats.lin.writer` writes with the same tables.

>>> [(tag, value) for tag, value, _, _ in lin_tags("md|3SAKQ,,,|mb|1n|")]
[('md', '3SAKQ,,,'), ('mb', '1n')]
>>> lin_deal("3")
(Seat.NORTH, None)
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from bridgescore.core import Seat, Strain, Vulnerability
from bridgescore.deal import RANK_CHARS, Card, Deal, Hand
from bridgescore.errors import BridgeError, NotationError
from bridgescore.formats.record import MatchHeader
from bridgescore.formats.words import deal_of

__all__ = [
    "DEALER_DIGIT",
    "LINE_BREAK",
    "LIN_DEALER",
    "LIN_ORDER",
    "ROW_TAG",
    "SV_LETTERS",
    "lin_deal",
    "lin_hand",
    "lin_tags",
    "match_fields",
    "plain_deal",
    "read_hands",
]

LIN_DEALER = {"1": Seat.SOUTH, "2": Seat.WEST, "3": Seat.NORTH, "4": Seat.EAST}
LIN_ORDER = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)
# A hand written plainly, as BBO writes it: the four suit letters in order, ranks
# without "10". Such deals take the fast road through words.deal_of.
DEALER_DIGIT = {seat: digit for digit, seat in LIN_DEALER.items()}
"""The dealer's digit ``md`` starts with, by seat."""
SV_LETTERS = {
    Vulnerability.NONE: "o",
    Vulnerability.NS: "n",
    Vulnerability.EW: "e",
    Vulnerability.BOTH: "b",
}
"""The ``sv`` letter of each vulnerability, as the writer puts it."""
# What str.splitlines breaks a line at: none may be written inside a LIN record.
LINE_BREAK = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
ROW_TAG = "+"  # one more line of the kept tag before it (a PBN table's row)

_PLAIN_HAND = re.compile(r"S([2-9TJQKA]*)H([2-9TJQKA]*)D([2-9TJQKA]*)C([2-9TJQKA]*)")
_RANKS_HIGH_FIRST = "AKQJT98765432"

_TAG_PAIR = re.compile(r"\s*([^|]*)\|([^|]*)\|")


def lin_tags(text: str) -> Iterator[tuple[str, str, int, bool]]:
    """``(tag, value, line, first)`` for each ``tag|value|`` of the text: ``line`` is
    the line of the tag's name and ``first`` says whether the tag opens its line (a
    line break before it and nothing but blanks between; the text's first tag opens
    its line too). Text that is not a tag comes with an empty tag (a name holding a
    line break is such text up to its last line break, then a tag opening its line);
    a value never closed comes with a NUL before it."""
    line, counted = 1, 0  # the line of position ``counted``
    position = 0
    # One regex match a tag while two bars are left; the ragged end after the loop.
    for match in _TAG_PAIR.finditer(text):
        if match.start() != position:
            break
        start = match.start(1)
        # Most tags follow the bar before at once: no blank, so no line break, between.
        first = position == 0 or (start > position and text.find("\n", position, start) >= 0)
        line += text.count("\n", counted, start)
        counted = start
        name = match[1].strip()
        if "\n" in name:
            yield from _named(name, match[2], line, first)
        else:
            yield name, match[2], line, first
        position = match.end()
    while position < len(text):
        bar = text.find("|", position)
        raw = text[position:] if bar < 0 else text[position:bar]
        start = position + len(raw) - len(raw.lstrip())
        first = position == 0 or text.find("\n", position, start) >= 0
        line += text.count("\n", counted, start)
        counted = start
        if bar < 0:
            if raw.strip():
                yield "", raw.strip(), line, first
            return
        end = text.find("|", bar + 1)
        if end < 0:
            yield from _named(raw.strip(), "\x00" + text[bar + 1 :], line, first)
            return
        yield from _named(raw.strip(), text[bar + 1 : end], line, first)
        position = end + 1


def _named(name: str, value: str, line: int, first: bool) -> Iterator[tuple[str, str, int, bool]]:
    """One tag; or, when its name holds a line break, the text before the last line
    break (no tag: a line never holds half a tag) and then the tag, opening its line."""
    if "\n" not in name:
        yield name, value, line, first
        return
    before, _, name = name.rpartition("\n")
    yield "", before.strip(), line, first
    yield name.strip(), value, line + before.count("\n") + 1, True


def lin_hand(text: str, seat: Seat) -> Hand:
    cards: list[Card] = []
    suit: Strain | None = None
    for char in text.strip().upper():
        if char in "SHDC":
            suit = Strain.parse(char)
        elif char in RANK_CHARS and suit is not None:
            cards.append(Card(suit, RANK_CHARS.index(char) + 2))
        elif char == "1" and suit is not None:
            continue  # "10" written for the ten: its "0" follows
        elif char == "0" and suit is not None:
            cards.append(Card(suit, 10))
        else:
            raise NotationError(
                f"{seat.name.capitalize()}'s hand {text!r}: unexpected {char!r}, expected "
                "a suit letter S, H, D or C followed by ranks AKQJT98765432"
            )
    if len(set(cards)) != len(cards):
        raise NotationError(f"{seat.name.capitalize()}'s hand {text!r} repeats a card")
    return Hand(frozenset(cards))


def plain_deal(text: str) -> Deal | None:
    """The deal of an ``md`` value's hands (after the dealer digit) when every hand is
    written plainly and at most one is left out, else ``None`` (for the validating
    reader, :func:`lin_deal`, to read or refuse): the hands, in the order S W N E,
    which is clockwise from South, become a PBN deal read by :func:`deal_of`."""
    parts = text.split(",")
    if len(parts) > 4:
        return None
    parts += [""] * (4 - len(parts))
    holdings: list[tuple[str, ...] | None] = []
    for part in parts:
        part = part.strip().upper()
        if not part:
            holdings.append(None)
            continue
        match = _PLAIN_HAND.fullmatch(part)
        if match is None:
            return None
        holdings.append(match.groups())
    missing = [index for index, held in enumerate(holdings) if held is None]
    if len(missing) > 1:
        return None
    if missing:
        # The hand left out holds the rest of the pack.
        given = [held for held in holdings if held is not None]
        holdings[missing[0]] = tuple(
            "".join(rank for rank in _RANKS_HIGH_FIRST if not any(rank in h[suit] for h in given))
            for suit in range(4)
        )
    words = [".".join(held) for held in holdings if held is not None]
    try:
        return deal_of("S:" + " ".join(words))
    except BridgeError:
        return None


def lin_deal(value: str) -> tuple[Seat | None, Deal | None]:
    """The dealer and deal of an ``md`` value (``None`` for a deal not given)."""
    text = value.strip()
    dealer = LIN_DEALER.get(text[:1])
    if dealer is None:
        raise NotationError(
            f"md {value!r}: expected the dealer's digit 1-4 (S, W, N, E) then the hands"
        )
    if not any(part.strip() for part in text[1:].split(",")):
        return dealer, None
    plain = plain_deal(text[1:])
    return dealer, plain if plain is not None else read_hands(value, text[1:])


def read_hands(value: str, text: str) -> Deal:
    """The deal of an ``md`` value's hands, read character by character: any case,
    ``10`` for the ten, suits in any order; raises the clear error for anything wrong."""
    parts = text.split(",")
    if len(parts) > 4:
        raise NotationError(f"md {value!r} has {len(parts)} hands: expected at most 4")
    parts += [""] * (4 - len(parts))
    hands: dict[Seat, Hand] = {}
    for seat, part in zip(LIN_ORDER, parts, strict=True):
        hands[seat] = lin_hand(part, seat)
    empty = [seat for seat in LIN_ORDER if not hands[seat].cards]
    if len(empty) == 1:
        # The last hand may be left out: it holds the rest of the pack.
        used = set().union(*(hands[seat].cards for seat in LIN_ORDER))
        rest = [Card.from_index(index) for index in range(52)]
        hands[empty[0]] = Hand(frozenset(card for card in rest if card not in used))
    return Deal((hands[Seat.NORTH], hands[Seat.EAST], hands[Seat.SOUTH], hands[Seat.WEST]))


def match_fields(match: MatchHeader | None) -> dict[str, str]:
    """The event and teams a ``vg`` header names, as the record's fields (the first
    team sits NS in the open room)."""
    if match is None:
        return {}
    header = {"Event": match.event, "HomeTeam": match.home_team, "VisitTeam": match.visit_team}
    return {name: value for name, value in header.items() if value}
