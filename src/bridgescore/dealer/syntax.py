"""The words of the ``dealer`` condition language: tokens, error carets, card and shape
literals, and the names of its seats, suits, functions and keywords.

:mod:`bridgescore.dealer.condition` parses conditions from these tokens; a
:class:`~bridgescore.errors.ConditionError` quotes the condition with a caret
under the offending token (:func:`condition_error`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import permutations

import numpy as np

from bridgescore.core import Seat, Strain
from bridgescore.dealer.hand import SHAPE_STRIDES, WEIGHTS
from bridgescore.errors import ConditionError

__all__ = [
    "COMMANDS",
    "MAX_DEPTH",
    "MAX_NESTING",
    "MAX_OPERATIONS",
    "NOT_HERE",
    "SEATS",
    "SUITS",
    "ConditionToken",
    "card_number",
    "condition_error",
    "count_slot",
    "function_name",
    "is_keyword",
    "shape_patterns",
    "tokens",
]

_RANK_CHARS = "23456789TJQKA"
# Each bracket level costs the parser about a dozen Python frames, and each operation
# level one or two frames of the evaluator: these keep both well inside Python's
# recursion limit (1,000 frames) with room for the caller's stack. Real conditions
# nest a few levels deep and hold tens of operations.
MAX_NESTING = 50
MAX_DEPTH = 200
MAX_OPERATIONS = 10_000

SEATS = {"north": Seat.NORTH, "east": Seat.EAST, "south": Seat.SOUTH, "west": Seat.WEST}
SUITS = {
    "club": Strain.CLUBS,
    "diamond": Strain.DIAMONDS,
    "heart": Strain.HEARTS,
    "spade": Strain.SPADES,
}
_PLURAL_OK = {"hcp", "control", "ten", "jack", "queen", "king", "ace", "loser"}
# dealer's alternative counts pt0 ... pt9, by their readable names; ``altcount N`` redefines one.
_ALT_NAMES = ("ten", "jack", "queen", "king", "ace", "top2", "top3", "top4", "top5", "c13")
NOT_HERE = (
    "is not available in a condition here: it needs a double-dummy solve of every candidate "
    "deal, millions of them; deal with the condition and use simulate --contract for tricks "
    "and scores (and --json for IMPs)"
)


@dataclass(frozen=True, slots=True)
class ConditionToken:
    """One word, operator or the end of a dealer condition, and where it starts."""

    kind: str  # "word", "op" or "end"
    text: str
    start: int


_TOKEN = re.compile(
    r"\s+|//[^\n]*|/\*.*?\*/|#[^\n]*"
    r"|(?P<word>[A-Za-z0-9_]+)"
    r"|(?P<op>&&|\|\||==|!=|<=|>=|[-+*/%<>!?:(),=])",
    re.DOTALL,
)


def tokens(text: str) -> list[ConditionToken]:
    found: list[ConditionToken] = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            raise condition_error(
                text, position, 1, f"{text[position]!r} is not part of the language"
            )
        if match.lastgroup is not None:
            found.append(ConditionToken(match.lastgroup, match.group(), position))
        position = match.end()
    found.append(ConditionToken("end", "", len(text)))
    return found


# A condition may be kilobytes long (a web form allows 2,000 characters, a file more):
# the message quotes at most this much of it, and of the line around the caret.
_QUOTED = 80


def condition_error(text: str, start: int, width: int, message: str) -> ConditionError:
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    column = start - line_start
    # The caret's window: the whole line when short, else the part around the caret.
    shift = max(0, min(column - _QUOTED // 2, len(line) - _QUOTED))
    shown = line[shift : shift + _QUOTED]
    caret = " " * (column - shift) + "^" * max(1, min(width, _QUOTED - (column - shift)))
    whole = text.strip()
    quoted = repr(whole if len(whole) <= _QUOTED else whole[: _QUOTED - 3] + "...")
    return ConditionError(
        f"condition {quoted}, column {column + 1}: {message}\n  {shown}\n  {caret}"
    )


def card_number(text: str) -> int | None:
    word = text.upper()
    if len(word) != 2:
        return None
    for rank_char, suit_char in ((word[0], word[1]), (word[1], word[0])):
        if rank_char in _RANK_CHARS and suit_char in "CDHS":
            return "CDHS".index(suit_char) * 13 + _RANK_CHARS.index(rank_char)
    return None


def shape_patterns(word: str, any_order: bool) -> list[int] | None:
    if len(word) != 4 or any(char not in "0123456789x" for char in word):
        return None
    fixed = [int(char) for char in word if char != "x"]
    if sum(fixed) > 13 or ("x" not in word and sum(fixed) != 13):
        return None
    orders = set(permutations(word)) if any_order else {tuple(word)}
    found: set[int] = set()
    for order in orders:
        for lengths in _complete(list(order)):
            found.add(int(np.dot(lengths, SHAPE_STRIDES)))
    return sorted(found)


def _complete(pattern: list[str]) -> Iterator[list[int]]:
    # Every way of filling the x's so the four lengths add up to 13.
    if "x" not in pattern:
        lengths = [int(char) for char in pattern]
        if sum(lengths) == 13:
            yield lengths
        return
    slot = pattern.index("x")
    for length in range(14):
        yield from _complete([*pattern[:slot], str(length), *pattern[slot + 1 :]])


COMMANDS = {
    name: "is a dealer command, not part of a condition: "
    + {
        "predeal": "use --predeal (in Python, the predeal argument) instead",
        "produce": "use --count (or --deals) instead",
        "generate": "the number of tries is not limited by a command here",
        "action": "bridgescore prints the deals itself (see --format)",
        "dealer": "the dealer does not affect dealing",
        "vulnerable": "use --vul in simulate instead",
    }[name]
    for name in ("predeal", "produce", "generate", "action", "dealer", "vulnerable")
}


def count_slot(function: str) -> str | int | None:
    # The declarable count a function reads: "hcp", or alternative count 0..9.
    if function == "hcp":
        return "hcp"
    if function in _ALT_NAMES:
        return _ALT_NAMES.index(function)
    if function.startswith("pt") and function[2:].isdigit():
        return int(function[2:])
    return None


def function_name(word: str) -> str | None:
    if word in ("shape", "hascard", "cccc", "quality", "rnd"):
        return word
    single = word[:-1] if word.endswith("s") else word
    if single in SUITS:
        return single
    if word in WEIGHTS or word == "loser":
        return word
    if single in _PLURAL_OK:
        return single
    return None


def is_keyword(word: str) -> bool:
    return (
        function_name(word) is not None
        or word in SEATS
        or word in ("and", "or", "not", "any", "condition", "pointcount", "altcount")
        or word in ("trick", "tricks", "score", "imp", "imps")
        or word in COMMANDS
    )
