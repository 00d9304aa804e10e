"""Small checks on plain Python values, written once for every layer.

``bool`` is a subclass of ``int`` in Python, so ``isinstance(True, int)`` holds;
a trick count, level or board number given as ``True`` is a mistake, never a 1.
The checks that tell the two apart live here and nowhere else: :func:`is_number`
and :func:`is_whole_number` answer yes or no; :func:`whole_number_arg` and
:func:`bool_arg` return the value or raise a :class:`~bridgescore.BridgeError`
(of the class the caller names) whose message quotes it in words.
:func:`whole_number_text` is the one reader of a small whole number written as text
(a web form's field, a query parameter): ASCII digits only, bounded.
:func:`quoted` is how every message quotes what it refuses. :func:`date_text` is the
one reader of a calendar date written by a user (``2026-11-16``).

:func:`enum_arg` is the one rule by which every public function reads a seat,
strain, vulnerability or side: the member itself, its text, or its number.
"""

from __future__ import annotations

import datetime
import enum
import re
from collections.abc import Callable
from types import UnionType
from typing import TypeGuard, TypeVar, cast

import numpy as np

from bridgescore.errors import ArgumentTypeError, BridgeError, InvalidArgumentError, NotationError

__all__ = [
    "bool_arg",
    "date_text",
    "enum_arg",
    "is_number",
    "is_whole_number",
    "quoted",
    "whole_number_arg",
    "whole_number_text",
]

_Member = TypeVar("_Member", bound=enum.IntEnum)

# A message quotes enough of a value to recognise it, never a whole request body.
_QUOTED = 40


def quoted(value: object) -> str:
    """``value`` as a message quotes it: its repr, at most 40 characters (a longer
    one cut, ending ``...``).

    >>> quoted("4SX"), quoted(7), quoted("x" * 50)[-5:], len(quoted("x" * 50))
    ("'4SX'", '7', 'xx...', 40)
    """
    text = repr(value)
    return text if len(text) <= _QUOTED else text[: _QUOTED - 3] + "..."


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


def is_number(value: object, kinds: type | UnionType) -> bool:
    """``isinstance(value, kinds)``, except that a ``bool`` is never a number.

    >>> is_number(2.5, int | float), is_number(True, int), is_number(np.bool_(True), int)
    (True, False, False)
    """
    return isinstance(value, kinds) and not isinstance(value, bool | np.bool_)


def whole_number_arg(
    value: object,
    name: str,
    low: int | None = None,
    high: int | None = None,
    *,
    numpy: bool = False,
    error: type[BridgeError] = InvalidArgumentError,
) -> int:
    """``value`` as an ``int`` when :func:`is_whole_number` accepts it, else ``error``.

    ``name`` says what the number is for (``"count"``, ``"board 3: score"``); the
    message gives it, the range in words and the value as written. ``error`` is the
    :class:`~bridgescore.BridgeError` subclass that fits the caller's layer (an
    :class:`~bridgescore.InvalidArgumentError` unless it says otherwise).

    >>> whole_number_arg(np.int64(5), "count", 0, numpy=True)
    5
    >>> whole_number_arg(-1, "count", 0)
    Traceback (most recent call last):
    ...
    bridgescore.errors.InvalidArgumentError: count must be a whole number from 0 up, got -1
    >>> whole_number_arg(True, "level", 1, 7, error=NotationError)
    Traceback (most recent call last):
    ...
    bridgescore.errors.NotationError: level must be a whole number from 1 to 7, got True
    """
    if is_whole_number(value, low, high, numpy=numpy):
        return int(value)
    raise error(f"{name} must be a whole number{_range_words(low, high)}, got {value!r}")


def whole_number_text(
    text: str,
    name: str,
    low: int,
    high: int,
    *,
    error: type[BridgeError] = InvalidArgumentError,
) -> int:
    """The whole number from ``low`` to ``high`` that ``text`` writes in ASCII digits
    (spaces around it allowed), else ``error`` naming ``name``, the range and the text.

    ``int()`` is no reader for text from a client: it takes ``'²'``-like characters
    that ``str.isdigit`` calls digits only to raise on them, reads other scripts'
    digits (``'٣'`` is 3) and underscores (``'1_0'``), and spends time quadratic in
    the length. Here only ``0``-``9`` count, and no more of them than ``high`` has.

    >>> whole_number_text(" 12 ", "board", 1, 9999)
    12
    >>> whole_number_text("²", "round", 1, 9999)
    Traceback (most recent call last):
    ...
    bridgescore.errors.InvalidArgumentError: round must be a whole number from 1 to 9999, got '²'
    """
    shown = text if len(text) <= 20 else text[:17] + "..."
    digits = text.strip()
    if (
        digits.isascii()
        and digits.isdigit()
        and len(digits) <= len(str(high))
        and low <= int(digits) <= high
    ):
        return int(digits)
    raise error(f"{name} must be a whole number{_range_words(low, high)}, got {shown!r}")


_ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def date_text(text: str, name: str, *, error: type[BridgeError] = InvalidArgumentError) -> str:
    """The calendar date ``text`` writes as year, month and day (``2026-11-16``, spaces
    around it allowed), in that form; else ``error`` naming ``name`` and the text.

    >>> date_text(" 2026-11-16 ", "--from")
    '2026-11-16'
    >>> date_text("2026-02-30", "--from")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bridgescore.errors.InvalidArgumentError: --from '2026-02-30' is not a date: expected ...
    """
    found = _ISO_DATE.fullmatch(text.strip()) if isinstance(text, str) else None
    if found is not None:
        try:
            return datetime.date(*map(int, found.groups())).isoformat()
        except ValueError:
            pass
    raise error(f"{name} {quoted(text)} is not a date: expected year-month-day, such as 2026-11-16")


def bool_arg(
    value: object, name: str, *, numpy: bool = False, error: type[BridgeError] = ArgumentTypeError
) -> bool:
    """``value`` when it is ``True`` or ``False`` (numpy's too with ``numpy=True``), else ``error``.

    A 1, a ``"yes"`` or ``None`` is refused rather than read as true or false: a
    switch given as anything else is a mistake whose reading would be a guess.

    >>> bool_arg(np.bool_(False), "honors", numpy=True)
    False
    >>> bool_arg("yes", "honors")
    Traceback (most recent call last):
    ...
    bridgescore.errors.ArgumentTypeError: honors must be True or False, got 'yes'
    """
    if isinstance(value, bool) or (numpy and isinstance(value, np.bool_)):
        return bool(value)
    raise error(f"{name} must be True or False, got {value!r}")


def _range_words(low: int | None, high: int | None) -> str:
    """`` from 1 to 7``, `` from 0 up``, `` up to 13`` or nothing."""
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None:
        return f" from {low} up"
    return "" if high is None else f" up to {high}"


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
