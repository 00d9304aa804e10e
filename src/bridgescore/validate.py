"""Small checks on plain Python values, written once for every layer.

``bool`` is a subclass of ``int`` in Python, so ``isinstance(True, int)`` holds;
a trick count, level or board number given as ``True`` is a mistake, never a 1.
"""

from __future__ import annotations

from typing import TypeGuard

import numpy as np

__all__ = ["is_whole_number"]


def is_whole_number(
    value: object,
    low: int | None = None,
    high: int | None = None,
    *,
    numpy: bool = False,
) -> TypeGuard[int]:
    """Whether ``value`` is an ``int`` (never a ``bool``) from ``low`` to ``high``.

    Either bound may be left out. With ``numpy=True`` numpy integer scalars count
    too. The caller raises its own error, so each message can say what the
    number was for.

    >>> is_whole_number(3, 1, 7), is_whole_number(True), is_whole_number(8, 1, 7)
    (True, False, False)
    >>> is_whole_number(np.int64(5), 0), is_whole_number(np.int64(5), 0, numpy=True)
    (False, True)
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer) if numpy else int):
        return False
    number = int(value)
    return (low is None or number >= low) and (high is None or number <= high)
