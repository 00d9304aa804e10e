"""One rule for a command-line argument that is a deal or a file of deals.

``solve``, ``par`` and ``handrecord`` read the words after the command the same way:

1. ``-`` alone is standard input;
2. words that name an existing file (joined by spaces, so an unquoted name
   with a space still counts) are that file;
3. anything else is the text of one deal: PBN (``N:AKQ.. ...``, quoted or as
   its words), one LIN record or a BBO handviewer link (either form); a LIN
   record or a link keeps the dealer, vulnerability and board number it states
   (:func:`read_board`).

Text that is neither a file nor a deal, and does not look like an attempt at a
deal either (``sesion.pbn``), is reported as a missing file, since that is what
it most likely was meant to be.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bridgescore.cli.common import fail
from bridgescore.deal import Deal
from bridgescore.errors import BridgeError, NotationError

if TYPE_CHECKING:
    from bridgescore.formats import BoardRecord

__all__ = [
    "DealOrFile",
    "board_of_text",
    "deal_of_text",
    "deal_or_file",
    "looks_like_deal",
    "read_board",
    "read_deal",
]

# "N:", "e :": PBN's first seat; the other forms of a deal are told by detect_format.
_PBN_START = re.compile(r"\s*[NESW]\s*:", re.IGNORECASE)
# Hands without their first seat ("KJ52.K7.T85.AJ87 AQ7..."): ranks, dots and spaces only.
_HANDS = re.compile(r"[\s.\-2-9TJQKA10]+", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class DealOrFile:
    """What the words were: a file (``path``, ``-`` for standard input) or a deal's ``text``."""

    path: str | None = None
    text: str | None = None


def deal_or_file(words: list[str] | None) -> DealOrFile | None:
    """The words after a command, by the rule of this module; ``None`` for no words."""
    joined = " ".join(words or ()).strip()
    if not joined:
        return None
    if joined == "-" or _exists(joined):
        return DealOrFile(path=joined)
    return DealOrFile(text=joined)


def _exists(name: str) -> bool:
    try:
        return Path(name).exists()
    except (OSError, ValueError):  # a name too long for the system, or holding NUL
        return False


def looks_like_deal(text: str) -> bool:
    """Whether ``text`` was meant as a deal (PBN, LIN or a link), right or wrong."""
    if _PBN_START.match(text):
        return True
    if text.count(".") >= 3 and _HANDS.fullmatch(text):
        return True  # a deal short of its first seat: the deal's own message says so
    from bridgescore.formats import detect_format

    try:
        detect_format(None, text)
    except BridgeError:
        return False
    return True


def read_deal(text: str) -> Deal:
    """A PBN deal, or the deal of one LIN record or BBO handviewer link.

    Raises :class:`~bridgescore.BridgeError` naming the text and its problem.
    """
    deal = read_board(text).deal
    assert deal is not None  # read_board raises for a record without its deal
    return deal


def read_board(text: str) -> BoardRecord:
    """The board of a PBN deal (the deal alone), or of one LIN record or BBO
    handviewer link (either form): its deal, and the board number, dealer and
    vulnerability the record states (``md``'s digit and ``sv``; a link's ``d``,
    ``v`` and ``b``), so that par and hand records keep them.

    Raises :class:`~bridgescore.BridgeError` naming the text and its problem.
    """
    from bridgescore.formats import BoardRecord

    try:
        return BoardRecord(deal=Deal.from_pbn(text))
    except BridgeError as error:
        pbn_error = error
    from bridgescore.formats import detect_format, read_records

    try:
        format = detect_format(None, text)
    except BridgeError:
        raise pbn_error from None
    records = list(read_records(text=text, format=format))
    if len(records) != 1 or records[0].deal is None:
        problems = "; ".join(str(p) for r in records for p in r.problems)
        raise NotationError(
            f"expected one deal: {text[:60]!r} gives {len(records)} record(s)"
            + (f" ({problems})" if problems else "")
        )
    return records[0]


def _shown(text: str) -> str:
    # A file name is quoted whole (it is what the user must correct); only text too
    # long to be one is cut.
    return text if len(text) <= 300 else text[:60] + "..."


def deal_of_text(text: str, *, other: str = "") -> Deal:
    """:func:`read_deal` for a command: exit 1 naming the problem of a bad deal, or
    exit 2 as for a missing file when the text was not meant as a deal at all.

    ``other`` names what else the command accepts, for that message.
    """
    deal = board_of_text(text, other=other).deal
    assert deal is not None
    return deal


def board_of_text(text: str, *, other: str = "") -> BoardRecord:
    """:func:`read_board` for a command, as :func:`deal_of_text` answers a bad deal."""
    if not looks_like_deal(text):
        raise fail(
            f"cannot read {_shown(text)!r}: no such file, and it is not a deal either "
            f"(expected a file, {other}or a deal such as "
            "'N:AKQJ.T98.765.432 ...', a LIN record or a BBO handviewer link)",
            code=2,
        )
    try:
        return read_board(text)
    except BridgeError as error:
        raise fail(error) from None
