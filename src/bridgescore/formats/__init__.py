"""Files from the field: PBN, LIN, JSON and CSV, read into and written from one board record.

:func:`read_records` takes a path (or ``-`` for standard input), an open file or
text, picks
the format (by the file's extension, then by its content) and streams
:class:`BoardRecord` values; :func:`format_records` writes records back in any
format; :func:`file_format` says what a file is (USEBIO included). Callers never
sniff formats themselves. Each format with more than one job is a package:
:mod:`.pbn`, :mod:`.lin`, :mod:`.usebio`.

>>> records = list(read_records(text='[Board "1"]\\n[Contract "3NT"]\\n[Declarer "S"]\\n'))
>>> records[0].board, str(records[0].contract)
(1, '3NTS')
"""

from __future__ import annotations

import gc
import io
import re
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import TypeVar

from bridgescore.errors import (
    ArgumentTypeError,
    BinaryInputError,
    EmptyInputError,
    InvalidArgumentError,
    NotationError,
)
from bridgescore.formats.check import CheckedRecord, check_record
from bridgescore.formats.csv import format_csv, looks_like_csv, read_csv
from bridgescore.formats.duplimate import (
    DEALING_FORMATS,
    format_dlm,
    format_dup,
    looks_like_dlm,
    looks_like_dup,
    read_dlm,
    read_dup,
)
from bridgescore.formats.json import format_json, read_json
from bridgescore.formats.lin import format_lin, handviewer_link, read_lin
from bridgescore.formats.lin.reader import is_hand_link
from bridgescore.formats.pbn import decode_line, format_pbn, read_pbn, record_pairs
from bridgescore.formats.record import (
    PLAIN_CALLS,
    BoardRecord,
    MatchHeader,
    Problem,
    RecordedCall,
    Source,
)
from bridgescore.formats.sources import (
    InputSource,
    path_given_as_text,
    source_bytes,
    source_name,
)
from bridgescore.validate import quoted

__all__ = [
    "FORMATS",
    "PLAIN_CALLS",
    "BoardRecord",
    "CheckedRecord",
    "MatchHeader",
    "Problem",
    "RecordedCall",
    "Source",
    "check_input",
    "check_record",
    "checked_text",
    "decode_text",
    "detect_format",
    "file_format",
    "format_records",
    "handviewer_link",
    "input_name",
    "is_binary",
    "no_boards",
    "read_records",
    "read_text",
]

FORMATS = ("pbn", "lin", "json", "csv")
"""The formats read and written, by their usual file extension (CSV holds board sets:
see :mod:`bridgescore.formats.csv`)."""

_LIN_START = re.compile(r"\s*[A-Za-z]{2}\|")


def detect_format(name: str | None, text: str) -> str:
    """``pbn``, ``lin``, ``json`` or ``csv``, or a dealing machine's ``dlm`` or ``dup``
    (:mod:`.duplimate`): from the file name's extension, else the text.

    Raises :class:`~bridgescore.NotationError` when neither says.
    """
    if name:
        suffix = Path(name).suffix.lower().lstrip(".")
        if suffix in FORMATS or suffix in DEALING_FORMATS:
            return suffix
    start = text.lstrip("\ufeff \t\r\n")
    if looks_like_dlm(start):
        return "dlm"  # before PBN: its first line is "[Document]"
    if looks_like_dup(text):
        return "dup"
    if start.startswith("{") or re.match(r"\[\s*[{\]]", start):
        return "json"
    if start.startswith(("[", "%")):
        return "pbn"
    if _LIN_START.match(start) or ("lin=" in start[:2000] and "://" in start[:200]):
        return "lin"
    if is_hand_link(start):
        return "lin"  # BBO's other link form, read by the LIN reader
    if looks_like_csv(start):
        return "csv"
    shown = start[:30]
    raise NotationError(
        f"cannot tell the format of {name or 'the text'} (it starts {shown!r}): expected PBN "
        '([Tag "value"]), LIN (tag|value|), a handviewer link, JSON, a board-set CSV '
        "(board,dealer,...) or a Duplimate DLM or DUP file; name the file .pbn, .lin, .json, "
        ".csv, .dlm or .dup"
    )


def file_format(data: bytes | str, name: str | None = None) -> str:
    """What a file is: ``usebio`` (a USEBIO XML results file, told by its content), else
    ``pbn``, ``lin``, ``json`` or ``csv`` as :func:`detect_format` tells them from the
    name's extension, then the text.

    ``data`` is the file's bytes (decoded as every reader decodes them) or its text.
    Raises :class:`~bridgescore.NotationError` when nothing says.

    >>> file_format(b'<?xml version="1.0"?><USEBIO Version="1.2"/>'), file_format('[Board "1"]')
    ('usebio', 'pbn')
    """
    from bridgescore.formats.usebio import looks_like_usebio

    if looks_like_usebio(data):
        return "usebio"
    return detect_format(name, data if isinstance(data, str) else decode_text(data))


def decode_text(data: bytes) -> str:
    """A file's bytes as text, as :func:`read_records` reads them: UTF-8 (with or
    without a byte order mark), else Windows-1252, else Latin-1, line by line."""
    # Line by line, so that one Latin-1 line does not change how the others read.
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8")  # the whole file is UTF-8: each line is
    except UnicodeDecodeError:
        pass
    # A Windows-1252 file in one go: when the bytes hold no character written in
    # UTF-8 (what UTF-8 decoding keeps of them is ASCII), no line but an ASCII one is
    # UTF-8, so every line with a byte over 127 reads as Windows-1252 on its own, and
    # ASCII lines read alike in every encoding.
    if data.decode("utf-8", "ignore").isascii():
        try:
            return data.decode("cp1252")
        except UnicodeDecodeError:
            pass  # one of the five bytes Windows-1252 leaves out: that line is Latin-1
    return "".join(decode_line(line) for line in data.splitlines(keepends=True))


# Control bytes that turn up in text files: tab, line feed, vertical tab, form feed,
# carriage return, Ctrl-Z (the end-of-file mark of old DOS programs) and escape.
_TEXT_CONTROLS = frozenset(b"\t\n\v\f\r\x1a\x1b")
_ODD_BYTES = bytes(sorted(frozenset(range(32)) - _TEXT_CONTROLS | {0x7F}))
_SAMPLE = 8192


def input_name(path: str | Path | None) -> str:
    """How messages name an input: ``'F'`` (quoted) for a file, ``standard input`` for ``-``."""
    if path is None or str(path) == "-":
        return "standard input"
    return repr(str(path))


def is_binary(data: bytes) -> bool:
    """Whether bytes are not text: a UTF-16 or UTF-32 byte order mark, or, in the
    first 8 KiB, more than one control byte (other than tab, line ends, form feed,
    Ctrl-Z and escape) and more than one in a hundred.

    Text files have none of these bytes; images, archives, databases, PDF files and
    random bytes have about one in ten or more. One stray byte in a text file stays
    text (and is reported on its line by the reader).

    >>> is_binary(b'[Board "1"]\\n'), is_binary(b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00\\x00\\rIHDR")
    (False, True)
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    sample = data[:_SAMPLE]
    odd = len(sample) - len(sample.translate(None, _ODD_BYTES))
    return odd > 1 and odd * 100 > len(sample)


def check_input(data: bytes, name: str | Path | None) -> None:
    """The one check of every file a reader is given, before its format is guessed.

    ``name`` is the file's path (``-`` or ``None``: standard input). Raises
    :class:`~bridgescore.errors.BinaryInputError` for bytes that are not text
    (:func:`is_binary`) and :class:`~bridgescore.errors.EmptyInputError` ("no boards
    found") for a file holding nothing but white space. An XML document (USEBIO)
    names its own encoding, UTF-16 included, so it is left to its reader.
    """
    from bridgescore.formats.usebio import looks_like_usebio

    # A DUP file writes its suits as control bytes (the DOS symbols), one in ten.
    if is_binary(data) and not looks_like_usebio(data) and not looks_like_dup(data):
        raise BinaryInputError(
            f"cannot tell the format of {input_name(name)}: it holds binary data (or UTF-16 text), "
            "which is not UTF-8, Windows-1252 or Latin-1 text: expected a text file"
        )
    if not data.removeprefix(b"\xef\xbb\xbf").strip():
        raise no_boards(name)


def no_boards(name: str | Path | None) -> EmptyInputError:
    """The one error for input with no boards in it: an empty file, a file of comments
    alone, standard input closed at once (``name`` as for :func:`check_input`)."""
    return EmptyInputError(f"no boards found in {input_name(name)}")


def checked_text(data: bytes, name: str | Path | None) -> str:
    """A file's bytes as text (:func:`decode_text`), once :func:`check_input` passes them."""
    check_input(data, name)
    return decode_text(data)


# Records read a batch at a time, with Python's cycle collector paused meanwhile.
#
# A board record is a tree of small objects (its calls, hands and cards played)
# and holds no reference cycle, so the cycle collector never frees any of it.
# Yet it runs every few hundred new objects, and its full passes walk every
# object still alive: while a file of thousands of boards is read into a list,
# it walks the records read so far again and again, for nothing. Measured on
# 10,000 generated boards, that was a third of the reading time (see
# ``docs/performance.md``).
#
# So the readers' records are gathered BATCH at a time with the
# collector paused, and handed on with it running again: it then runs once for
# the batch instead of dozens of times, and no code of the caller ever runs while
# it is paused. It is paused only if it was running, and left as it was found.
BATCH = 256
"""Records read in one go while the collector is paused."""

_Item = TypeVar("_Item")


def in_batches(items: Iterable[_Item], size: int = BATCH) -> Iterator[_Item]:
    """The items of ``items`` in order, taken ``size`` at a time with the cycle
    collector paused while they are taken.

    An error raised while taking a batch is raised after the items taken before it.

    >>> list(in_batches(iter(range(5)), size=2))
    [0, 1, 2, 3, 4]
    """
    iterator = iter(items)
    while True:
        batch: list[_Item] = []
        error: Exception | None = None
        paused = gc.isenabled()
        if paused:
            gc.disable()
        try:
            batch.extend(islice(iterator, size))
        except Exception as raised:  # handed on below, after the items before it
            error = raised
        finally:
            if paused:
                gc.enable()
        yield from batch
        if error is not None:
            raise error
        if len(batch) < size:
            return


def read_text(
    text: str, format: str | None = None, file: str | None = None
) -> Iterator[BoardRecord]:
    """Records of ``text`` in ``format`` (``None``: detected from ``file`` and the text)."""
    text = text.removeprefix("\ufeff")
    if "\r" in text:
        # CRLF and CR line ends read as LF, in one pass in C (two replaces over the
        # whole text cost more); text with no CR, most of it, is not copied at all.
        text = io.IncrementalNewlineDecoder(None, translate=True).decode(text, final=True)
    chosen = format or detect_format(file, text)
    # A batch at a time, with the cycle collector paused: see in_batches above.
    if chosen == "pbn":
        return in_batches(read_pbn(text, file))
    if chosen == "lin":
        return in_batches(read_lin(text, file))
    if chosen == "json":
        return in_batches(read_json(text, file))
    if chosen == "csv":
        return in_batches(read_csv(text, file))
    if chosen == "dlm":
        return read_dlm(text, file)
    if chosen == "dup":
        return read_dup(text, file)
    raise NotationError(
        f"unknown format {chosen!r}: expected one of {', '.join((*FORMATS, *DEALING_FORMATS))}"
    )


def read_records(
    path: InputSource | None = None, *, text: str | None = None, format: str | None = None
) -> Iterator[BoardRecord]:
    """Records of a file or of ``text``, in file order.

    ``path`` is what the user holds: a path (str or ``Path``), ``"-"`` for standard
    input, or an open file, binary or text (its ``name``, when it has one, tells the
    format by its extension, as a path's does). Bytes are read as UTF-8 (with or
    without a byte order mark), else Windows-1252, else Latin-1, line by line;
    CRLF and CR line ends read as LF. ``text`` is a file's text, read as it is
    (empty text has no records).

    Raises :class:`~bridgescore.NotationError` when the format cannot be told (a file
    of binary data is :class:`~bridgescore.errors.BinaryInputError`, an empty one
    :class:`~bridgescore.errors.EmptyInputError`: :func:`check_input`) and
    :class:`~bridgescore.errors.InputFileError` when the file
    cannot be read: no such file, a directory, or a file's text given as ``path``
    (pass it as ``text=``; see :mod:`bridgescore.formats.sources`). Problems inside
    the file go on the records and never stop the reading.
    """
    if text is not None:
        if path is not None:
            raise InvalidArgumentError(
                f"read_records was given both a path ({path!r}) and text: expected one of them"
            )
        if not isinstance(text, str):
            raise ArgumentTypeError(
                f"the text to read must be a str, got a {type(text).__name__} {quoted(text)} "
                "(a file's bytes are read from an open file: read_records(io.BytesIO(data)))"
            )
        path_given_as_text(text, "read_records", "read_records(path)")
        return read_text(text, format)
    if path is None:
        raise NotationError("read_records needs a path or text")
    data = source_bytes(path, "read_records")
    name = source_name(path)
    shown = name if name is not None or str(path) == "-" else f"<{type(path).__name__}>"
    return read_text(checked_text(data, shown), format, name)


def format_records(records: Iterable[BoardRecord], format: str) -> str:
    """Records as a whole file in ``format`` (``pbn``, ``lin``, ``json``, ``csv``, or a
    dealing machine's ``dlm`` or ``dup``, which hold the deals alone and are written
    as bytes unchanged: see :mod:`.duplimate`).

    Raises a :class:`~bridgescore.BridgeError` for a record the format cannot hold.
    """
    if format == "pbn":
        return format_pbn(record_pairs(record) for record in records)
    if format == "lin":
        return "".join(format_lin(record) + "\n" for record in records)
    if format == "json":
        return format_json(records)
    if format == "csv":
        return format_csv(records)
    if format == "dlm":
        return format_dlm(records)
    if format == "dup":
        return format_dup(records)
    raise NotationError(
        f"unknown format {format!r}: expected one of {', '.join((*FORMATS, *DEALING_FORMATS))}"
    )
