"""An event file's one schema (the live session's tables included) and opening a
file at it: :class:`EventFile` checks what the file is, opens it in a mode
(:data:`OpenMode`) and brings an older file's tables up to date when it may write."""

from __future__ import annotations

import json
import sqlite3
import stat
from abc import ABC, abstractmethod
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path
from types import TracebackType
from typing import Literal, Self

from bridgescore.errors import RecordError
from bridgescore.session.scoring.event import EVENT_KINDS, EventKind
from bridgescore.session.store.audit import upgrade_audit
from bridgescore.session.store.writable import check_writable, storage_errors

__all__ = [
    "BUSY_TIMEOUT_SECONDS",
    "OPEN_MODES",
    "SCHEMA_VERSION",
    "SQLITE_MAGIC",
    "Closing",
    "EventFile",
    "OpenMode",
    "check_kind",
    "file_state",
    "is_sqlite_file",
]

# 2 added the members table (players of pairs and teams); 3 the audit log; 4 the
# movement, the live session's table tokens, director password and logins, and the
# audit log's 'who' column; 5 the boards' dealer and vulnerability as the files state
# them. An older file opened for writing gets the missing tables and columns, empty,
# and is marked 5: nothing else changed, so nothing is rewritten. Opened for reading
# it is left as it is and the missing tables and columns read as empty (a board then
# follows its number, as it always did in that file).
SCHEMA_VERSION = "5"
SQLITE_MAGIC = b"SQLite format 3\x00"
# A database holds at least one page, and a page is 512 bytes at the least: SQLite
# itself reads a shorter file as an empty database, whatever it holds.
_SMALLEST_DATABASE = 512
# SQLite's answers to a probe that say nothing about whether the file is a database.
_SAYS_NOTHING = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_CANTOPEN})
# SQLite's own files beside a database: never an event, whatever they hold.
SIDE_FILES = ("-wal", "-shm", "-journal")
# The boards' columns schema 5 added.
_STATED_COLUMNS = frozenset({"dealer", "vulnerable"})
OpenMode = Literal["create", "write", "read"]
"""``create``: open an event file, making it when missing (what an import needs);
``write``: an existing event only; ``read``: an existing event, never written."""
OPEN_MODES: tuple[OpenMode, ...] = ("create", "write", "read")
# How long a writer waits for another process's import to commit: imports into
# one event file queue up instead of failing with "database is locked".
BUSY_TIMEOUT_SECONDS = 300.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS boards (
    number INTEGER PRIMARY KEY,
    deal TEXT,
    dd_tricks TEXT,
    source TEXT,
    line INTEGER,
    dealer TEXT,
    vulnerable TEXT
);
CREATE TABLE IF NOT EXISTS results (
    section TEXT NOT NULL,
    board INTEGER NOT NULL,
    ns TEXT NOT NULL,
    ew TEXT NOT NULL,
    variant TEXT NOT NULL,
    outcome TEXT NOT NULL,
    source TEXT,
    line INTEGER,
    PRIMARY KEY (section, board, ns, ew)
);
CREATE TABLE IF NOT EXISTS members (
    participant TEXT NOT NULL,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    number TEXT NOT NULL,
    PRIMARY KEY (participant, position)
);
-- A live session's secrets, as digests only (see session/store/access.py).
CREATE TABLE IF NOT EXISTS table_tokens (
    section TEXT NOT NULL,
    table_no INTEGER NOT NULL,
    digest TEXT NOT NULL,
    PRIMARY KEY (section, table_no)
);
-- The opening lead a table entered with its result (optional, shown on travellers).
CREATE TABLE IF NOT EXISTS leads (
    section TEXT NOT NULL,
    board INTEGER NOT NULL,
    ns TEXT NOT NULL,
    ew TEXT NOT NULL,
    card TEXT NOT NULL,
    PRIMARY KEY (section, board, ns, ew)
);
CREATE TABLE IF NOT EXISTS director_logins (
    digest TEXT PRIMARY KEY,
    expires TEXT NOT NULL
);
"""
# The audit log (session/store/audit.py reads and appends to it).
_AUDIT_SCHEMA = """
CREATE TABLE IF NOT EXISTS audit (
    entry INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL,
    action TEXT NOT NULL,
    section TEXT NOT NULL,
    board INTEGER NOT NULL,
    ns TEXT NOT NULL,
    ew TEXT NOT NULL,
    old_variant TEXT NOT NULL,
    old_outcome TEXT NOT NULL,
    new_variant TEXT NOT NULL,
    new_outcome TEXT NOT NULL,
    source TEXT NOT NULL,
    line INTEGER NOT NULL,
    reason TEXT NOT NULL,
    who TEXT NOT NULL DEFAULT ''
);
-- Append-only in the file itself, not only in this module: no program can
-- quietly rewrite or drop what a director changed.
CREATE TRIGGER IF NOT EXISTS audit_no_update BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_no_delete BEFORE DELETE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
"""


class Closing(ABC):
    """A thing holding an open file, used as a context manager: the ``with`` block
    closes it however it ends (EventStore, LiveEvent)."""

    @abstractmethod
    def close(self) -> None:
        """Let the file go; a second call does nothing."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


class EventFile(Closing):
    """An event kept in one SQLite file (``":memory:"`` for a throw-away one).

    ``mode`` (see :data:`OpenMode`): ``create`` makes the file when it is missing
    (an import); ``write`` and ``read`` open an existing event and raise a
    :class:`RecordError` naming the file when there is none (``no event in
    'x.db'``) or when the file is something else (``'x.txt' is not a bridgescore
    event file``). ``read`` never writes, not even to bring an older file's
    tables up to date. Use as a context manager, or call :meth:`close`.

    ``who`` is whom the audit log names for a change made through this file when
    the change itself names no one (``session import --replace`` from the shell).
    """

    def __init__(self, path: str | Path, *, mode: OpenMode = "create", who: str = "") -> None:
        self.who = who
        if mode not in OPEN_MODES:
            raise RecordError(f"unknown open mode {mode!r}: expected create, write or read")
        self.path = str(path)
        self.mode: OpenMode = mode
        memory = self.path == ":memory:"
        if memory and mode != "create":
            raise RecordError("':memory:' holds no event to open: open it in create mode")
        state = "missing" if memory else file_state(Path(self.path))
        if mode != "create" and state in ("missing", "empty"):
            why = "the file does not exist" if state == "missing" else "the file is empty"
            raise RecordError(
                f"no event in {self.path!r}: {why} (an event file is made by importing "
                "results into it)"
            )
        folder = Path(self.path).parent
        if not memory and state == "missing" and not folder.is_dir():
            raise RecordError(f"cannot create {self.path!r}: there is no folder {str(folder)!r}")
        if mode == "write" and state == "sqlite":
            check_writable(self.path)
        try:
            # check_same_thread off: a live session's server calls one store from its
            # worker threads, one at a time under LiveEvent's lock.
            if mode == "create":
                self._db = sqlite3.connect(
                    self.path, timeout=BUSY_TIMEOUT_SECONDS, check_same_thread=False
                )
            else:
                # mode=rw never creates the file; query_only refuses every write, yet
                # the connection may still tidy the WAL's side files away on close.
                uri = Path(self.path).resolve().as_uri() + "?mode=rw"
                self._db = sqlite3.connect(
                    uri, uri=True, timeout=BUSY_TIMEOUT_SECONDS, check_same_thread=False
                )
            try:
                with storage_errors(self.path):
                    self._open(new=state in ("missing", "empty"))
            except BaseException:
                self._db.close()
                raise
        except sqlite3.DatabaseError as error:
            raise RecordError(f"{self.path!r} is not a bridgescore event file: {error}") from None

    def _open(self, *, new: bool) -> None:
        version = self._schema_version(new=new)
        if self.mode == "read":
            self._db.execute("PRAGMA query_only = ON")
            return
        if version > int(SCHEMA_VERSION):
            raise RecordError(
                f"{self.path!r} is an event file of version {version}, newer than this "
                f"bridgescore writes ({SCHEMA_VERSION}): upgrade bridgescore to change it"
            )
        # WAL and FULL: a commit is on disk (in the log) before it returns, and
        # readers (a results page) never wait for an import.
        if self.path != ":memory:":
            self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = FULL")
        with self._db:
            self._db.executescript(_SCHEMA + _AUDIT_SCHEMA)
            upgrade_audit(self._db)
            for column in _STATED_COLUMNS - self._board_columns():
                self._db.execute(f"ALTER TABLE boards ADD COLUMN {column} TEXT")
            self._db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
            self._db.execute(
                "UPDATE meta SET value = ? WHERE key = 'schema' AND value IN ('1', '2', '3', '4')",
                (SCHEMA_VERSION,),
            )

    def _schema_version(self, *, new: bool) -> int:
        """The file's schema version (0 for a new file); raises if it holds no event."""
        tables = self._tables()
        if not tables and (new or self.mode == "create"):
            return 0
        if not tables:
            raise RecordError(f"no event in {self.path!r}: the database holds no tables")
        row = None
        if "meta" in tables:
            row = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None or not str(row[0]).isdigit():
            raise RecordError(
                f"{self.path!r} is not a bridgescore event file: an SQLite database "
                f"without bridgescore's tables (it holds {', '.join(sorted(tables)[:5])})"
            )
        return int(row[0])

    def _board_columns(self) -> set[str]:
        return {str(row[1]) for row in self._db.execute("PRAGMA table_info(boards)")}

    def _tables(self) -> set[str]:
        rows = self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        return {str(name) for (name,) in rows}

    @property
    def read_only(self) -> bool:
        return self.mode == "read"

    def _writing(self) -> None:
        if self.read_only:
            raise RecordError(f"{self.path!r} is open read-only: open it in write mode")

    def close(self) -> None:
        self._db.close()

    def _meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def _set_meta(self, info: Mapping[str, str | None]) -> None:
        for key, value in info.items():
            if value is not None:
                self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    # ------------------------------------------------------------------ meta

    @property
    def name(self) -> str:
        return self._meta("name") or ""

    @property
    def club(self) -> str:
        """The club that ran the event (``session new --club``), or ``""``."""
        return self._meta("club") or ""

    @property
    def kind(self) -> EventKind:
        kind = self._meta("kind") or "pairs"
        return "teams" if kind == "teams" else "pairs"

    @property
    def method(self) -> str | None:
        """The scoring method the event's results file named (``mp``, ``imps``...), if any."""
        return self._meta("method")

    @property
    def sections_across(self) -> bool | None:
        """How the event's sections are compared, as ``session new`` chose it: ``True``
        across the field (``--score-across``), ``False`` within each section, ``None``
        when the event made no choice (an imported event: the scorer's own default)."""
        text = self._meta("sections_scored")
        return None if text is None else text == "across"

    def set_sections_across(self, across: bool) -> None:
        """Keep how the event's sections are compared (:attr:`sections_across`)."""
        self._writing()
        with self._db:
            self._set_meta({"sections_scored": "across" if across else "per section"})

    @property
    def segment(self) -> str:
        """The segment of a teams match the event holds (a vugraph header's), if any."""
        return self._meta("segment") or ""

    @property
    def carry_over(self) -> dict[str, Decimal]:
        """The scores each team carried into the event's first segment (none: ``{}``)."""
        text = self._meta("carry_over")
        if not text:
            return {}
        try:
            values = json.loads(text)
            return {str(team): Decimal(str(value)) for team, value in values.items()}
        except (ValueError, AttributeError, ArithmeticError):
            raise RecordError(
                f"{self.path!r}: carried-over scores {text[:60]!r} cannot be read: expected "
                'a JSON object of team -> score, such as {"Lions": "12.5"}'
            ) from None

    @property
    def carry_over_from(self) -> int | None:
        """The first board of the segment whose carried-over scores the event keeps."""
        text = self._meta("carry_over_from")
        return int(text) if text and text.isdigit() else None

    def set_info(
        self,
        *,
        name: str | None = None,
        kind: str | None = None,
        method: str | None = None,
        club: str | None = None,
    ) -> None:
        """Set the event's name, kind (pairs or teams), default scoring method or club."""
        check_kind(kind)
        self._writing()
        with self._db:
            self._set_meta({"name": name, "kind": kind, "method": method, "club": club})


def file_state(path: Path) -> Literal["missing", "empty", "sqlite"]:
    """Whether the file is missing, empty or an SQLite database; anything else
    (a directory, a text file) is refused with the file's name.

    Only SQLite opens the file (see :func:`is_sqlite_file`)."""
    try:
        status = path.stat()
    except FileNotFoundError:
        return "missing"
    except OSError as error:
        raise RecordError(f"cannot read {str(path)!r}: {error.strerror or error}") from None
    if stat.S_ISDIR(status.st_mode):
        raise RecordError(f"{str(path)!r} is not a bridgescore event file: it is a directory")
    if status.st_size == 0:
        return "empty"
    if status.st_size < _SMALLEST_DATABASE or not is_sqlite_file(path):
        raise RecordError(
            f"{str(path)!r} is not a bridgescore event file: it is not an SQLite database "
            "(an event file is made by 'bridgescore session import')"
        )
    return "sqlite"


def is_sqlite_file(path: Path) -> bool:
    """Whether SQLite reads ``path`` as a database (``False`` for any other file).

    Asked of SQLite, never by reading the header with ``open()``: SQLite's locks are
    POSIX advisory locks, which belong to the process, and closing *any* descriptor
    of the file drops every lock the process holds on it. A header check in a process
    holding a connection (the live server opening its second connection) once let the
    next process to close its connection (a read-only ``session log``) believe it was
    the last: it checkpointed and deleted the write-ahead log under the server, and
    every result the server then acknowledged went into a deleted file. SQLite itself
    keeps a descriptor open while another connection of the process holds locks.
    """
    if path.name.endswith(SIDE_FILES):
        return False
    try:
        if path.stat().st_size < _SMALLEST_DATABASE:
            return False
    except OSError:
        return False
    try:
        # mode=rw (read-only where the file is): a read-only connection would leave
        # the -wal and -shm files it made behind; this one tidies them away when it is
        # the file's last. It only reads.
        probe = sqlite3.connect(path.resolve().as_uri() + "?mode=rw", uri=True)
    except sqlite3.Error:
        return False
    try:
        probe.execute("PRAGMA schema_version").fetchone()
    except sqlite3.DatabaseError as error:
        # A lock or a journal that cannot be opened says nothing about what the file
        # is (the real connection reports it); any other error says it is no database.
        code = getattr(error, "sqlite_errorcode", sqlite3.SQLITE_NOTADB) & 0xFF
        return code in _SAYS_NOTHING
    finally:
        probe.close()
    return True


def check_kind(kind: str | None) -> None:
    """Refuse an event kind other than pairs or teams (``None``: not given)."""
    if kind is not None and kind not in EVENT_KINDS:
        raise RecordError(f"unknown event kind {kind!r}: expected pairs or teams")
