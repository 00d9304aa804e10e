"""The words of the ``dealer`` condition language: tokens, error carets, card and shape literals.

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

from bridgescore.dealer.hand import SHAPE_STRIDES
from bridgescore.errors import ConditionError

__all__ = ["Token", "card_number", "condition_error", "shape_patterns", "tokens"]

_RANK_CHARS = "23456789TJQKA"


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # "word", "op" or "end"
    text: str
    start: int


_TOKEN = re.compile(
    r"\s+|//[^\n]*|/\*.*?\*/|#[^\n]*"
    r"|(?P<word>[A-Za-z0-9_]+)"
    r"|(?P<op>&&|\|\||==|!=|<=|>=|[-+*/%<>!?:(),=])",
    re.DOTALL,
)


def tokens(text: str) -> list[Token]:
    found: list[Token] = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            raise condition_error(
                text, position, 1, f"{text[position]!r} is not part of the language"
            )
        if match.lastgroup is not None:
            found.append(Token(match.lastgroup, match.group(), position))
        position = match.end()
    found.append(Token("end", "", len(text)))
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
