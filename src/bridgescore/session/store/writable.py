"""Whether an event file can be written, and what a failed write is: a full disk or a
read-only file is the machine's state, not a broken event, and is said as such.

SQLite reports a write that the disk cannot take as ``SQLITE_FULL`` (``ENOSPC``, or a
size limit), a read-only file as ``SQLITE_READONLY``, and a journal it cannot create
beside the file as ``SQLITE_CANTOPEN``; in each case the transaction is rolled back,
so nothing of the change is stored. :func:`storage_errors` turns these into a
:class:`~bridgescore.errors.StorageError` naming the file and the reason, and lets
every other error through unchanged.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bridgescore.errors import StorageError

__all__ = ["check_writable", "storage_errors"]

# SQLite's primary result codes (the low byte of an extended code).
_REASONS = {
    sqlite3.SQLITE_FULL: "the disk is full",
    sqlite3.SQLITE_READONLY: "it is read-only",
    sqlite3.SQLITE_CANTOPEN: "its journal cannot be created beside it",
    sqlite3.SQLITE_IOERR: "the disk refused the write",
}


@contextmanager
def storage_errors(path: str) -> Iterator[None]:
    """Run a write to the event file at ``path``; a full disk, a read-only file or a
    failed disk write raises :class:`~bridgescore.errors.StorageError` (nothing stored)."""
    try:
        yield
    except sqlite3.OperationalError as error:
        code = getattr(error, "sqlite_errorcode", None)
        reason = None if code is None else _REASONS.get(code & 0xFF)
        if reason is None:
            raise
        raise StorageError(
            f"{path!r} cannot be written: {reason} ({error}); nothing was stored"
        ) from None


def check_writable(path: str) -> None:
    """Refuse an event file that cannot be changed: the file or its folder (where SQLite
    keeps its journal, the ``-wal`` and ``-shm`` files) is read-only.

    ``os.access`` answers for the file system too: on a read-only mount even root may
    not write.
    """
    if not os.access(path, os.W_OK):
        raise StorageError(
            f"{path!r} is read-only, and changing the event means writing to it: make "
            "it writable, or copy it to a folder you can write to"
        )
    folder = str(Path(path).resolve().parent)
    if not os.access(folder, os.W_OK):
        raise StorageError(
            f"{path!r} cannot be written: its folder {folder!r} is read-only, and SQLite "
            "keeps its journal beside the file (move the file to a writable folder)"
        )
