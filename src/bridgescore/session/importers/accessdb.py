"""An Access (Jet) database's tables as plain rows: the thin reader of a BWS file.

Bridgemate's scoring database (BWS) is a Microsoft Access file. This module reads the
tables :mod:`bridgescore.session.importers.bws` needs through the pure-Python
``access-parser`` package (the ``bws`` extra) and gives each as plain rows, so that
what the rows mean is read by a pure function that tests feed with rows written by hand.
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta

from bridgescore.errors import RecordError
from bridgescore.validate import is_number, is_whole_number, quoted

__all__ = [
    "TABLES",
    "Cell",
    "cell_number",
    "cell_text",
    "cell_whole",
    "looks_like_bws",
    "read_bws_tables",
]

#: A cell of a table as :func:`read_bws_tables` gives it.
Cell = str | int | float | bool | None

#: The tables :func:`~bridgescore.session.importers.bws.bws_event` reads, and so the
#: ones :func:`read_bws_tables` reads.
TABLES = (
    "Section",
    "Session",
    "RoundData",
    "ReceivedData",
    "PlayerNumbers",
    "PlayerNames",
    "HandRecord",
    "BiddingData",
    "PlayData",
)

# Jet 3/4 (.mdb, .bws) and ACE (.accdb) files name their engine at byte 4.
_JET_MAGIC = (b"Standard Jet DB", b"Standard ACE DB")


def looks_like_bws(data: bytes) -> bool:
    """Whether a file's first bytes are those of an Access (Jet or ACE) database.

    >>> looks_like_bws(b"\\x00\\x01\\x00\\x00Standard Jet DB\\x00"), looks_like_bws(b"[Board")
    (True, False)
    """
    return bytes(data[4:19]) in _JET_MAGIC


def read_bws_tables(data: bytes, source: str = "") -> dict[str, list[dict[str, Cell]]]:
    """The tables of a BWS file that :func:`bws_event` reads, as plain rows.

    ``data`` is the file's bytes. A table the file lacks is an empty list, and so is
    ``PlayerNames`` when every player in ``PlayerNumbers`` has a name. Dates and
    times are ISO text rounded to the second (Access keeps them as fractions of a day,
    so 10:13:19 is stored as 10:13:18.9955); ``(Empty Date)`` is ``""``.

    Raises ImportError when the ``access-parser`` package (``bridgescore[bws]``) is
    missing, and :class:`~bridgescore.errors.RecordError` naming ``source`` for a file
    that is not an Access database or whose rows cannot be read whole.
    """
    try:
        from access_parser import AccessParser
    except ImportError as error:
        raise ImportError(
            "reading a Bridgemate database (BWS) needs the access-parser package: "
            "pip install 'bridgescore[bws]'",
            name="access_parser",
        ) from error
    where = source or "the BWS file"
    if not looks_like_bws(data):
        raise RecordError(f"{where} is not a Microsoft Access database (a Bridgemate BWS file)")
    out: dict[str, list[dict[str, Cell]]] = {}
    with _quiet_parser() as messages, _file_of(data) as path:
        try:
            database = AccessParser(path)
        except Exception as error:  # the parser's own errors are of every kind
            raise RecordError(f"{where}: cannot read the Access database: {error}") from None
        # Its catalog's extra properties (column formats) need not parse for the rows to.
        messages.clear()
        for name in TABLES:
            if name not in database.catalog or (name == "PlayerNames" and _all_named(out)):
                out[name] = []
                continue
            try:
                columns = database.parse_table(name)
            except Exception as error:
                raise RecordError(f"{where}: table {name} cannot be read: {error}") from None
            if messages:
                raise RecordError(f"{where}: table {name} cannot be read whole: {messages[0]}")
            out[name] = _rows(columns, name, where)
    return out


def _all_named(tables: Mapping[str, Sequence[Mapping[str, Cell]]]) -> bool:
    """Whether every player in PlayerNumbers has a name. The national list in
    PlayerNames (14,000 members in a real file) then need not be read: it is most of
    the reading's time, and only a number without a name is looked up in it."""
    return all(
        cell_text(row.get("Name")) or not cell_text(row.get("Number"))
        for row in tables.get("PlayerNumbers", ())
    )


@contextmanager
def _quiet_parser() -> Iterator[list[str]]:
    """The parser's complaints, collected instead of printed: a row it could not read
    would otherwise be a warning on standard error and a table with a row missing."""
    logger = logging.getLogger("access_parser")
    messages: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.WARNING:
                messages.append(record.getMessage())

    handler = Collect()
    propagate = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield messages
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


@contextmanager
def _file_of(data: bytes) -> Iterator[str]:
    """A temporary file holding ``data``: the parser opens a path, and an upload has none."""
    handle, path = tempfile.mkstemp(suffix=".bws")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        yield path
    finally:
        os.unlink(path)


def _rows(columns: Mapping[str, object], name: str, where: str) -> list[dict[str, Cell]]:
    """The parser's columns (name -> values) as rows; columns of unequal length mean a
    row was read in part, which is refused rather than misaligned."""
    lists = {column: list(values) for column, values in columns.items() if isinstance(values, list)}
    lengths = {len(values) for values in lists.values()}
    if len(lengths) > 1:
        raise RecordError(
            f"{where}: table {name} cannot be read whole: its columns differ in length"
        )
    count = lengths.pop() if lengths else 0
    return [{column: _cell(values[i]) for column, values in lists.items()} for i in range(count)]


def _cell(value: object) -> Cell:
    if value is None or is_number(value, int | float) or value is True or value is False:
        return value  # type: ignore[return-value]
    text = str(value)
    if text in ("(Empty Date)", "(Invalid Date)"):
        return ""
    if re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?", text):
        moment = datetime.fromisoformat(text) + timedelta(microseconds=500_000)
        return moment.replace(microsecond=0).isoformat(sep=" ")
    return text


def cell_text(value: object) -> str:
    """A cell as text, stripped (Access pads fixed-width text: a section ``"A  "``)."""
    return "" if value is None else str(value).strip()


def cell_number(row: Mapping[str, Cell], column: str) -> int | None:
    """A cell's whole number (a number column's, or digits as text), else ``None``."""
    value = row.get(column)
    if is_whole_number(value):
        return value
    if is_number(value, float) and float(value).is_integer():  # type: ignore[arg-type]
        return int(value)  # type: ignore[arg-type]
    text = cell_text(value)
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def cell_whole(row: Mapping[str, Cell], column: str, where: str) -> int:
    """A cell's whole number from 0 up; a :class:`~bridgescore.errors.RecordError`
    naming the row (``where``, when given), the column and the value otherwise."""
    value = cell_number(row, column)
    if value is None or value < 0:
        named = f"{where}: " if where else ""
        raise RecordError(f"{named}{column} {quoted(row.get(column))}: expected a whole number")
    return value
