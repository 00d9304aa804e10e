"""Board numbers as a board set names them (``1-36``, ``1-4,9``); the board itself
is :class:`bridgescore.Board`."""

from __future__ import annotations

import re

from bridgescore.errors import NotationError

__all__ = ["parse_board_range"]

_RANGE_PART = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")
_MAX_BOARDS = 10_000  # far beyond any session; stops "1-999999999" eating memory


def parse_board_range(text: str) -> list[int]:
    """Board numbers from ``1-36``, ``5`` or ``1-4,9,13-16`` (in the order given).

    >>> parse_board_range("1-3,7")
    [1, 2, 3, 7]
    """
    numbers: list[int] = []
    for part in text.split(","):
        match = _RANGE_PART.match(part)
        if match is None:
            raise NotationError(
                f"board range {text!r}: {part.strip()!r} is not a board or range: "
                "expected numbers like 1-36 or 1-4,9"
            )
        first = int(match[1])
        last = int(match[2]) if match[2] else first
        if first < 1 or last < first:
            raise NotationError(
                f"board range {text!r}: {part.strip()!r} is empty or starts below 1: "
                "expected a range like 1-36"
            )
        numbers.extend(range(first, last + 1))
        if len(numbers) > _MAX_BOARDS:
            raise NotationError(f"board range {text!r} has over {_MAX_BOARDS} boards")
    if len(set(numbers)) != len(numbers):
        raise NotationError(f"board range {text!r} names a board twice")
    return numbers
