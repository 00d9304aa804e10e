"""A new event file appears whole or not at all, and never replaces one.

Three commands write a new SQLite file: ``session new`` (a live event), ``session sim``
(a simultaneous pairs) and ``session backup`` (a copy). Each writes under a temporary
name beside the target and then links it into place: a hard link refuses to replace a
file made meanwhile, where a rename would silently overwrite it. A file system without
hard links (FAT, some network shares) gets a rename, after one more look.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bridgescore.errors import RecordError

__all__ = ["check_new_file", "new_file"]

# SQLite's side files: the write-ahead log, its index, a rollback journal.
_SIDE_FILES = ("-wal", "-shm", "-journal")


def check_new_file(target: Path, exists: str) -> None:
    """Refuse a target that exists (``exists`` says why that matters) or whose folder
    does not, before any work is done."""
    if target.exists() or target.is_symlink():
        raise RecordError(f"{str(target)!r} already exists: {exists}")
    if not target.parent.is_dir():
        raise RecordError(
            f"cannot create {str(target)!r}: there is no folder {str(target.parent)!r}"
        )


@contextmanager
def new_file(target: Path, exists: str) -> Iterator[Path]:
    """The temporary path to write, linked into place at ``target`` when the ``with``
    block ends without an error; whatever happens, no temporary file is left behind.

    Raises :class:`~bridgescore.errors.RecordError` when ``target`` exists (before the
    block, with ``exists`` as the reason, or after it: made meanwhile) or its folder
    does not.
    """
    check_new_file(target, exists)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(8)}.new")
    try:
        yield temporary
        _link(temporary, target)
    finally:
        for leftover in (temporary, *(Path(f"{temporary}{side}") for side in _SIDE_FILES)):
            leftover.unlink(missing_ok=True)


def _link(temporary: Path, target: Path) -> None:
    try:
        os.link(temporary, target)
    except FileExistsError:
        raise RecordError(f"{str(target)!r} already exists: it was made meanwhile") from None
    except OSError:
        if target.exists():
            raise RecordError(f"{str(target)!r} already exists: it was made meanwhile") from None
        try:
            os.rename(temporary, target)
        except OSError as error:
            raise RecordError(f"cannot create {str(target)!r}: {error.strerror}") from None
