"""Files from the field: PBN, LIN and JSON, read into and written from one board record.

:func:`read_records` takes a path (or ``-`` for standard input) or text, picks
the format (by the file's extension, then by its content) and streams
:class:`BoardRecord` values; :func:`format_records` writes records back in any
format. Callers never sniff formats themselves.

>>> records = list(read_records(text='[Board "1"]\\n[Contract "3NT"]\\n[Declarer "S"]\\n'))
>>> records[0].board, str(records[0].contract)
(1, '3NTS')
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from bridgescore.errors import NotationError
from bridgescore.formats.batches import in_batches
from bridgescore.formats.check import CheckedRecord, check_record
from bridgescore.formats.json import format_json, read_json
from bridgescore.formats.lin import format_lin, handviewer_link, read_lin
from bridgescore.formats.pbn import decode_line, format_pbn
from bridgescore.formats.pbnrecord import read_pbn, record_pairs
from bridgescore.formats.record import (
    PLAIN_CALLS,
    BoardRecord,
    MatchHeader,
    Problem,
    RecordedCall,
    Source,
)

__all__ = [
    "FORMATS",
    "PLAIN_CALLS",
    "BoardRecord",
    "CheckedRecord",
    "MatchHeader",
    "Problem",
    "RecordedCall",
    "Source",
    "check_record",
    "decode_text",
    "detect_format",
    "format_records",
    "handviewer_link",
    "read_records",
    "read_text",
]

FORMATS = ("pbn", "lin", "json")
"""The formats read and written, by their usual file extension."""

_LIN_START = re.compile(r"\s*[A-Za-z]{2}\|")


def detect_format(name: str | None, text: str) -> str:
    """``pbn``, ``lin`` or ``json``: from the file name's extension, else the text.

    Raises :class:`~bridgescore.NotationError` when neither says.
    """
    if name:
        suffix = Path(name).suffix.lower().lstrip(".")
        if suffix in FORMATS:
            return suffix
    start = text.lstrip("\ufeff \t\r\n")
    if start.startswith("{") or re.match(r"\[\s*[{\]]", start):
        return "json"
    if start.startswith(("[", "%")):
        return "pbn"
    if _LIN_START.match(start) or ("lin=" in start[:2000] and "://" in start[:200]):
        return "lin"
    shown = start[:30]
    raise NotationError(
        f"cannot tell the format of {name or 'the text'} (it starts {shown!r}): expected PBN "
        '([Tag "value"]), LIN (tag|value|), a handviewer link or JSON; '
        "name the file .pbn, .lin or .json"
    )


def decode_text(data: bytes) -> str:
    """A file's bytes as text, as :func:`read_records` reads them: UTF-8 (with or
    without a byte order mark), else Windows-1252, else Latin-1, line by line."""
    # Line by line, so that one Latin-1 line does not change how the others read.
    data = data.removeprefix(b"\xef\xbb\xbf")
    return "".join(decode_line(line) for line in data.splitlines(keepends=True))


def read_text(
    text: str, format: str | None = None, file: str | None = None
) -> Iterator[BoardRecord]:
    """Records of ``text`` in ``format`` (``None``: detected from ``file`` and the text)."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    chosen = format or detect_format(file, text)
    # A batch at a time, with the cycle collector paused: see formats/batches.py.
    if chosen == "pbn":
        return in_batches(read_pbn(text, file))
    if chosen == "lin":
        return in_batches(read_lin(text, file))
    if chosen == "json":
        return in_batches(read_json(text, file))
    raise NotationError(f"unknown format {chosen!r}: expected one of {', '.join(FORMATS)}")


def read_records(
    path: str | Path | None = None, *, text: str | None = None, format: str | None = None
) -> Iterator[BoardRecord]:
    """Records of a file (``"-"``: standard input) or of ``text``, in file order.

    Bytes are read as UTF-8 (with or without a byte order mark), else Windows-1252,
    else Latin-1, line by line; CRLF and CR line ends read as LF. Raises
    :class:`~bridgescore.NotationError` when the format cannot be told and
    ``OSError`` when the file cannot be read; problems inside the file go on the
    records and never stop the reading.
    """
    if text is not None:
        return read_text(text, format)
    if path is None:
        raise NotationError("read_records needs a path or text")
    if str(path) == "-":
        return read_text(decode_text(sys.stdin.buffer.read()), format, None)
    data = Path(path).read_bytes()
    return read_text(decode_text(data), format, str(path))


def format_records(records: Iterable[BoardRecord], format: str) -> str:
    """Records as a whole file in ``format`` (``pbn``, ``lin``, ``json``).

    Raises a :class:`~bridgescore.BridgeError` for a record the format cannot hold.
    """
    if format == "pbn":
        return format_pbn(record_pairs(record) for record in records)
    if format == "lin":
        return "".join(format_lin(record) + "\n" for record in records)
    if format == "json":
        return format_json(records)
    raise NotationError(f"unknown format {format!r}: expected one of {', '.join(FORMATS)}")
