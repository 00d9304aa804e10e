"""What a director replaces when it is lost: a table's link, the director password, a copy.

Each works on the event file while ``bridgescore session live`` serves it from
another process. The file is SQLite in WAL mode, so a second writer simply queues
for a moment, and the server reads what was committed:

- :func:`reissue_table` gives one table a new token. The old token is refused at
  once: the server rereads the tokens whenever the file has changed
  (:meth:`~bridgescore.session.live.event.LiveEvent.table_for_token`).
- :func:`reset_director_password` sets a new password, and ends every director
  login made with the old one (a lost password may be a stolen one). Whoever can
  write the event file is the director: the file itself is the proof.
- :func:`backup_event` writes a complete, consistent copy through SQLite's online
  backup. A plain file copy taken while the server runs is not one: the latest
  results live in the ``-wal`` file beside the event until a checkpoint, so a copy
  of the main file alone can miss them all.

Each change is in the audit log, with who (``director (command line)``).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from bridgescore.errors import NotThisTableError, RecordError, StorageError
from bridgescore.session.live.sections import which_section
from bridgescore.session.store.access import PasswordHash, new_password, new_token, token_digest
from bridgescore.session.store.events import BUSY_TIMEOUT_SECONDS, EventStore
from bridgescore.session.store.live import LiveStore
from bridgescore.session.store.newfile import check_new_file, new_file
from bridgescore.validate import is_whole_number

__all__ = [
    "COMMAND_LINE",
    "Reissued",
    "backup_event",
    "reissue_table",
    "reset_director_password",
]

# Who the audit log names for a change made with the event file in hand.
COMMAND_LINE = "director (command line)"


@dataclass(frozen=True, slots=True)
class Reissued:
    """A table's new secret: its section, number, token and link (as ``session new`` lists
    a table)."""

    section: str
    table: int
    token: str
    url: str

    def as_dict(self) -> dict[str, object]:
        """The ``session reissue --json`` document."""
        return {"section": self.section, "table": self.table, "token": self.token, "url": self.url}


def _live_store(path: str | Path) -> LiveStore:
    store = LiveStore(path, mode="write")
    if store.movement is None:
        store.close()
        raise RecordError(
            f"{str(path)!r} has no movement: tables and a director password belong to an "
            "event made by 'bridgescore session new'"
        )
    return store


def reissue_table(
    path: str | Path,
    table: int,
    *,
    section: str | None = None,
    url_base: str | None = None,
) -> Reissued:
    """Give ``table`` (of ``section``: needed when the event has several) a new token and
    return it with its link; the old token is refused from now on. ``url_base``
    defaults to the one ``session new`` was given (``http://127.0.0.1:8000`` for an
    event made before it was kept).

    Raises :class:`~bridgescore.errors.NotThisTableError` for a table or section the
    movement does not have, :class:`~bridgescore.errors.RecordError` for a file that
    is not a live event.
    """
    from bridgescore.session.live.creation import DEFAULT_URL_BASE, check_url_base, table_url

    with _live_store(path) as store:
        movements = store.movements
        if section is None and len(movements) > 1:
            raise NotThisTableError(
                f"the event has {len(movements)} sections, {', '.join(movements)}: name "
                "the table's section"
            )
        chosen = next(iter(movements)) if section is None else section
        movement = which_section(movements, chosen)
        if not is_whole_number(table):
            raise NotThisTableError(f"table {table!r} is not a table number")
        tables = sorted({row.table for row in movement.rows})
        if table not in tables:
            raise NotThisTableError(
                f"table {table} plays no round in this movement: expected one of "
                f"{', '.join(map(str, tables))}"
            )
        base = url_base if url_base is not None else store.url_base or DEFAULT_URL_BASE
        check_url_base(base)
        token = new_token()
        store.replace_table_token(chosen, table, token_digest(token), who=COMMAND_LINE)
    return Reissued(chosen, table, token, table_url(base, token))


def reset_director_password(path: str | Path) -> str:
    """Set a new director password for the event at ``path`` and return it (shown once:
    only its scrypt hash is kept). The old password is refused from now on, and every
    director login made with it ends."""
    password = new_password()
    with _live_store(path) as store:
        store.replace_director_password(PasswordHash.make(password), who=COMMAND_LINE)
    return password


def backup_event(path: str | Path, out: str | Path, *, who: str = COMMAND_LINE) -> bool:
    """Write a complete, consistent copy of the event at ``path`` to ``out`` (which must
    not exist), safe while a live session writes to it: SQLite's online backup copies
    every committed result, those still in the write-ahead log included. The copy
    appears whole or not at all.

    The backup is then logged in the event's audit log with ``who`` (the copy holds
    the log as it was before); returns False when the event file is read-only, so the
    copy was written but could not be logged."""
    target = Path(out)
    never = "a backup never overwrites a file"
    check_new_file(target, never)
    # Opened read-only first: a file that is not an event is refused by name.
    EventStore(path, mode="read").close()
    source = sqlite3.connect(
        Path(path).resolve().as_uri() + "?mode=ro", uri=True, timeout=BUSY_TIMEOUT_SECONDS
    )
    try:
        with new_file(target, never) as temporary:
            copy = sqlite3.connect(temporary)
            try:
                with copy:
                    source.backup(copy)
                # One self-contained file: the copy needs no -wal beside it.
                copy.execute("PRAGMA journal_mode = DELETE")
            finally:
                copy.close()
    except sqlite3.Error as error:
        raise RecordError(f"cannot back up {str(path)!r} to {str(target)!r}: {error}") from None
    finally:
        source.close()
    try:
        with LiveStore(path, mode="write") as store:
            store.log_backup(str(target), who=who)
    except StorageError:
        return False
    return True
