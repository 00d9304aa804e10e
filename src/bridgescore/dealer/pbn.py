"""PBN ``Deal`` text for many deals at once, built in bulk from owner arrays.

A deal's line has a fixed width: ``N:`` and four hands of 13 ranks and 3 dots,
separated by spaces (69 characters). Sorting each deal's cards by seat
(:func:`cards_by_seat`) gives every seat's cards in order,
and a card's place in the line follows from its seat, its rank among the seat's
cards and its suit, so all ranks are written with one scatter.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["cards_by_seat", "pbn_lines", "pbn_strings"]

_WIDTH = 69
_BLOCK = 4096
_RANK_BYTES = np.frombuffer(b"23456789TJQKA" * 4, dtype=np.uint8)
_SUIT_OF = (np.arange(52) // 13).astype(np.intp)
# After a stable sort by seat, column 13 s + i holds seat s's i-th lowest card. PBN
# shows a hand spades first, high to low, so that card is the (12 - i)-th shown,
# after one dot for each suit above its own (3 - suit): its place in row k of a block
# is 70 k + 2 + 17 s + (12 - i) + 3 - suit.
_COLUMN = np.arange(52)
_CARD_KEYS = _COLUMN.astype(np.int16)
_PLACE = (np.arange(_BLOCK, dtype=np.intp) * (_WIDTH + 1))[:, None] + (
    2 + 17 * (_COLUMN // 13) + 12 - _COLUMN % 13 + 3
)
_BLANK = np.frombuffer(b"N:" + b" ".join([b"." * 16] * 4) + b"\n", dtype=np.uint8)


def _text(owners: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.uint8]:
    """The lines of at most ``_BLOCK`` deals as bytes shaped (n, 70), each ending with a newline."""
    n = owners.shape[0]
    by_seat = cards_by_seat(owners)
    text = np.broadcast_to(_BLANK, (n, _WIDTH + 1)).copy()
    text.reshape(-1)[_PLACE[:n] - _SUIT_OF[by_seat]] = _RANK_BYTES[by_seat]
    return text


def cards_by_seat(owners: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.intp]:
    """Each row's card numbers sorted by owner, then by card: North's 13 cards
    ascending, then East's, South's and West's (a stable argsort of the row).

    One key a card, ``owner * 64 + card``, sorted in place: three times faster than
    the argsort, and the same, for no two keys of a row are equal.
    """
    key = (np.asarray(owners).astype(np.int16) << 6) | _CARD_KEYS
    key.sort(axis=1)
    key &= 63
    return key.astype(np.intp)


def pbn_lines(owners: npt.NDArray[np.integer[Any]]) -> bytes:
    """PBN ``Deal`` strings of owner arrays shaped (n, 52), one a line, as ASCII bytes."""
    owners = np.asarray(owners)
    # A few thousand deals at a time keep the work arrays in cache (measured 30% faster).
    return b"".join(
        _text(owners[start : start + _BLOCK]).tobytes()
        for start in range(0, owners.shape[0], _BLOCK)
    )


def pbn_strings(owners: npt.NDArray[np.integer[Any]]) -> list[str]:
    """PBN ``Deal`` strings (``N:...``) of owner arrays shaped (n, 52), built in bulk.

    Equal to ``Deal.from_array(row).to_pbn()`` for each row, without building Deals.
    """
    return pbn_lines(owners).decode("ascii").splitlines()
