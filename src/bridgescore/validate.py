"""Small checks on plain Python values, written once for every layer.

``bool`` is a subclass of ``int`` in Python, so ``isinstance(True, int)`` holds;
a trick count, level or board number given as ``True`` is a mistake, never a 1.

:func:`enum_arg` is the one rule by which every public function reads a seat,
strain, vulnerability or side: the member itself, its text, or its number.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TypeGuard, TypeVar, cast

import numpy as np

from bridgescore.errors import NotationError

__all__ = ["enum_arg", "is_whole_number"]

_Member = TypeVar("_Member", bound=enum.IntEnum)


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


def enum_arg(kind: type[_Member], value: object, name: str) -> _Member:
    """``value`` as a member of ``kind`` (``Seat``, ``Strain``, ``Vulnerability``, ``Side``).

    Accepted: the member itself; its text, as ``kind.parse`` reads it (``"N"`` or
    ``"north"`` for a seat, ``"NT"`` or ``"♠"`` for a strain, ``"Both"``, ``"NS"``,
    ``"None"`` or ``"-"`` for a vulnerability); or its number, the enum value that
    indexes arrays (a Python or numpy integer). A member of another enum is refused
    even though it is a number too: ``Seat.SOUTH`` is no strain. ``name`` is the
    argument's name, for the message of the :class:`~bridgescore.NotationError`
    raised otherwise, which quotes the value and lists the accepted words.

    >>> from bridgescore.core import Seat, Vulnerability
    >>> enum_arg(Seat, "n", "dealer"), enum_arg(Vulnerability, "Both", "vulnerability")
    (Seat.NORTH, Vulnerability.BOTH)
    >>> enum_arg(Seat, "Q", "dealer")
    Traceback (most recent call last):
    ...
    bridgescore.errors.NotationError: dealer must be N, E, S or W, got 'Q'
    """
    if isinstance(value, kind):
        return value
    if isinstance(value, str):
        # Each enum's parse knows its own words (aliases, suit symbols); only its
        # message is replaced, so that it names the argument. (getattr: the IntEnum
        # bound cannot say that every one of these enums has a parse.)
        parse = cast(Callable[[str], _Member], getattr(kind, "parse"))  # noqa: B009
        try:
            return parse(value)
        except NotationError:
            pass
    elif not isinstance(value, enum.Enum) and is_whole_number(value, numpy=True):
        try:
            return kind(int(value))
        except ValueError:
            pass
    raise NotationError(f"{name} must be {_words(kind)}, got {value!r}")


def _words(kind: type[enum.IntEnum]) -> str:
    """The members' text forms in words: ``N, E, S or W``."""
    *others, last = (str(member) for member in kind)
    return f"{', '.join(others)} or {last}" if others else last
