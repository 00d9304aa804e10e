"""The event file: its one schema (the live session's tables included), opening a file
at it (:class:`EventFile` checks what the file is, opens it in a mode, :data:`OpenMode`,
and brings an older file's tables up to date when it may write), and the event it holds
(:class:`EventStore`: stdlib :mod:`sqlite3`, one file per event).

Each batch of results is added in one transaction. Adding a result that is
already stored, identically, changes nothing (so importing a file twice does not
double it); a *different* result for the same board and pairs -- or a pair
already seen on that board against someone else -- is reported as a
:class:`Conflict` and the stored result is kept, never silently replaced.
A director changes a stored result on purpose with :meth:`EventStore.correct`
(or an import with ``replace=True``); each change is appended to the event's
audit log (:meth:`EventStore.audit_log`) with the old and the new result.

The file is in WAL mode with full synchronous commits: a result is on disk
before :meth:`EventStore.add` returns. An event opened with ``mode="read"``
is never written, and neither it nor ``mode="write"`` creates a file.

>>> with EventStore(":memory:") as store:
...     report = store.add_results([(TableResult.played(1, "1", "2", "4SN="), Origin("t.csv", 2))])
...     again = store.add_results([(TableResult.played(1, "1", "2", "4SN="), Origin("t.csv", 2))])
...     (report.added, again.added, again.unchanged)
(1, 0, 1)
"""

from __future__ import annotations

import json
import sqlite3
import stat
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from types import TracebackType
from typing import Literal, Self

from bridgescore.auction import Call
from bridgescore.board import Board
from bridgescore.core import Seat, Vulnerability
from bridgescore.ddtable import DDTable
from bridgescore.deal import Card, Deal
from bridgescore.errors import BridgeError, RecordError
from bridgescore.movement.model import Movement
from bridgescore.movement.text import movement_from_json, movement_to_json
from bridgescore.session.scoring.event import EVENT_KINDS, Event, EventKind, Member, TableResult
from bridgescore.session.store.audit import AuditEntry, append_entry, read_entries, upgrade_audit
from bridgescore.session.store.outcomes import (
    EVENT_CHANGE,
    NOT_PLAYED,
    decode_outcome,
    encode_outcome,
    outcome_pair,
    shown_outcome,
    shown_result,
    stored_outcome,
)
from bridgescore.session.store.writable import check_writable, storage_errors
from bridgescore.validate import date_text

__all__ = [
    "BUSY_TIMEOUT_SECONDS",
    "OPEN_MODES",
    "SCHEMA_VERSION",
    "SQLITE_MAGIC",
    "AddReport",
    "Closing",
    "Conflict",
    "EventFile",
    "EventStore",
    "OpenMode",
    "Origin",
    "Replacement",
    "TablePlay",
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
# follows its number, as it always did in that file). The table_play table (each
# result's auction and play) came within 5 the same way: a file without it has none.
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
-- The auction and play a table entered with its result (a scoring database's
-- BiddingData and PlayData), for the morning after's review (bridgescore analyse).
CREATE TABLE IF NOT EXISTS table_play (
    section TEXT NOT NULL,
    board INTEGER NOT NULL,
    ns TEXT NOT NULL,
    ew TEXT NOT NULL,
    auction TEXT NOT NULL,
    play TEXT NOT NULL,
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


@dataclass(frozen=True, slots=True)
class TablePlay:
    """The calls and the cards one table entered with its result, in their order."""

    auction: tuple[Call, ...] = ()
    play: tuple[Card, ...] = ()

    @property
    def auction_text(self) -> str:
        """The calls as the event file keeps them: ``1NT Pass 3NT Pass Pass Pass``."""
        return " ".join(str(call) for call in self.auction)

    @property
    def play_text(self) -> str:
        """The cards as the event file keeps them: ``DK D2 D4 DA``."""
        return " ".join(str(card) for card in self.play)

    @classmethod
    def parse(cls, auction: str, play: str) -> TablePlay:
        """The value of the two texts :attr:`auction_text` and :attr:`play_text` write."""
        return cls(
            tuple(Call.parse(call) for call in auction.split()),
            tuple(Card.parse(card) for card in play.split()),
        )


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

    def data_version(self) -> int:
        """SQLite's counter of changes committed by other connections to this file: when
        it moves, another process (``session reissue``, ``session correct``) has changed
        it. Asking opens no transaction, so a writer is never held up by it."""
        return int(self._db.execute("PRAGMA data_version").fetchone()[0])

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
    def date(self) -> str:
        """The day the event was played (``2026-11-16``), as ``session new``, ``session
        import --date`` or the imported file (a USEBIO ``DATE``, a Bridgemate session's
        ``Date``) gave it; ``""`` when nothing said. A meta key of every schema: a file
        without it reads as undated."""
        return self._meta("date") or ""

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
        date: str | None = None,
    ) -> None:
        """Set the event's name, kind (pairs or teams), default scoring method, club or
        date (year-month-day, checked: :func:`~bridgescore.validate.date_text`)."""
        check_kind(kind)
        if date is not None:
            date = date_text(date, "the event's date", error=RecordError)
        self._writing()
        with self._db:
            self._set_meta(
                {"name": name, "kind": kind, "method": method, "club": club, "date": date}
            )


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
    if not is_sqlite_file(path):
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


# ------------------------------------------------------------ the event

# The movement's JSON is parsed once per text, not on every read of a live event (it was
# a quarter of a live ranking's time); a Movement is immutable, so sharing it is safe.
_stored_movement = lru_cache(maxsize=64)(movement_from_json)


def _movement_text(movement: Movement) -> str:
    return json.dumps(movement_to_json(movement), separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a record came from: a file and a 1-based line number."""

    source: str = ""
    line: int = 0

    def __str__(self) -> str:
        if not self.source:
            return "(input)"
        return f"{self.source}:{self.line}" if self.line else self.source


@dataclass(frozen=True, slots=True)
class Conflict:
    """A record that disagrees with one already stored (the stored one is kept)."""

    what: str
    stored: str
    stored_origin: Origin
    new: str
    new_origin: Origin

    def __str__(self) -> str:
        return (
            f"{self.new_origin}: {self.what}: {self.new} conflicts with {self.stored} "
            f"from {self.stored_origin} (kept)"
        )


@dataclass(frozen=True, slots=True)
class Replacement:
    """A stored result an import replaced on purpose (``replace=True``)."""

    what: str
    old: str
    old_origin: Origin
    new: str
    new_origin: Origin

    def __str__(self) -> str:
        return (
            f"{self.new_origin}: {self.what}: {self.new} replaces {self.old} from {self.old_origin}"
        )


@dataclass(slots=True)
class AddReport:
    """What one batch did: records added, records already stored identically,
    conflicts, and stored results replaced (only when asked to)."""

    added: int = 0
    unchanged: int = 0
    conflicts: list[Conflict] = field(default_factory=list)
    replaced: list[Replacement] = field(default_factory=list)

    def merge(self, other: AddReport) -> None:
        self.added += other.added
        self.unchanged += other.unchanged
        self.conflicts.extend(other.conflicts)
        self.replaced.extend(other.replaced)


class EventStore(EventFile):
    """An event kept in one SQLite file (``":memory:"`` for a throw-away one): its
    name and kind, members, movement, results (each change in the audit log) and
    boards. Opened as :class:`EventFile` says."""

    # --------------------------------------------------------------- members

    def set_members(self, members: Mapping[str, tuple[Member, ...]], *, who: str = "") -> None:
        """Keep the players of each pair or team named: a participant's players are
        those of the last file that named any (a corrected file replaces them). Each
        change is in the audit log (action ``names``), with ``who`` (else the file's
        :attr:`who`)."""
        self._writing()
        with self._db:
            self._set_members(members, who=who)

    def _set_members(
        self, members: Mapping[str, tuple[Member, ...]], *, who: str = "", logged: bool = True
    ) -> None:
        """``logged``: each change gets its own line in the audit log (off where the
        change that names the players is logged whole: a late pair joining)."""
        held = self.members()
        for participant, players in members.items():
            if not players or held.get(participant) == tuple(players):
                continue
            self._db.execute("DELETE FROM members WHERE participant = ?", (participant,))
            self._db.executemany(
                "INSERT INTO members VALUES (?, ?, ?, ?)",
                [(participant, i, m.name, m.number) for i, m in enumerate(players)],
            )
            if logged:
                named = " & ".join(m.name for m in players)
                self._log_event_change("names", f"{participant}: {named}", who=who or self.who)

    def _log_event_change(
        self, action: str, what: str, *, who: str, reason: str = "", section: str = ""
    ) -> AuditEntry:
        """Log a change to the event itself (no board: board 0, no pairs) inside the
        caller's transaction; the log shows ``what`` as the new state."""
        entry = AuditEntry(0, "", action, section, 0, "", "", "", what, "", reason, who)
        return append_entry(self._db, entry, ("", ""), (EVENT_CHANGE, what))

    def members(self) -> dict[str, tuple[Member, ...]]:
        """The players of each pair or team, in the order the file listed them."""
        if "members" not in self._tables():  # a version 1 file opened read-only
            return {}
        rows = self._db.execute(
            "SELECT participant, name, number FROM members ORDER BY participant, position"
        ).fetchall()
        out: dict[str, list[Member]] = {}
        for participant, name, number in rows:
            out.setdefault(str(participant), []).append(Member(str(name), str(number)))
        return {participant: tuple(players) for participant, players in out.items()}

    # -------------------------------------------------------------- movement

    @property
    def movement_text(self) -> str | None:
        """The stored movement as the file keeps it (JSON), or ``None``."""
        return self._meta("movement")

    @property
    def movement(self) -> Movement | None:
        """The movement the event was made from (``session new``), or ``None``."""
        text = self._meta("movement")
        if text is None:
            return None
        try:
            return _stored_movement(text)
        except BridgeError as error:
            raise RecordError(
                f"{self.path!r}: the stored movement cannot be read: {error}"
            ) from None

    @property
    def movements(self) -> dict[str, Movement]:
        """Each section's movement by its name, in order (``session new --sections``);
        an event of one section (every file made before sections) holds one: its
        :attr:`movement`'s. ``{}`` without a movement."""
        text = self._meta("sections")
        if text is None:
            movement = self.movement
            return {} if movement is None else {movement.section: movement}
        try:
            return {name: _stored_movement(own) for name, own in json.loads(text).items()}
        except (BridgeError, ValueError, AttributeError) as error:
            raise RecordError(
                f"{self.path!r}: the stored sections' movements cannot be read: {error}"
            ) from None

    def set_movements(self, movements: Mapping[str, Movement]) -> None:
        """Keep every section's movement (each named by its own ``section``); the first
        is :attr:`movement`. One section is kept exactly as :meth:`set_movement` keeps it."""
        self._writing()
        with self._db:
            self._set_movements(movements)

    def _set_movements(self, movements: Mapping[str, Movement]) -> None:
        texts = {m.section: _movement_text(m) for m in movements.values()}
        if len(texts) > 1:
            self._set_meta({"sections": json.dumps(texts, separators=(",", ":"))})
        for movement in movements.values():  # the first is also "movement"
            self._keep_movement(movement)

    @property
    def swiss_plan(self) -> str | None:
        """A Swiss event's plan (JSON: its teams in seeding order, rounds, boards a round,
        a bye's VPs; :mod:`~bridgescore.session.live.swiss` reads it), or ``None``."""
        return self._meta("swiss")

    def set_movement(self, movement: Movement) -> None:
        """Keep ``movement`` with the event; a teams movement makes a teams event."""
        self._writing()
        with self._db:
            self._keep_movement(movement)

    def _keep_movement(self, movement: Movement) -> None:
        # Inside the caller's transaction. "movement" is the first section's; an event
        # of several sections keeps each section's movement under "sections" too.
        text = _movement_text(movement)
        stored = self._meta("sections")
        sections: dict[str, str] = {} if stored is None else json.loads(stored)
        if not sections or movement.section == next(iter(sections)):
            kind = "teams" if movement.kind == "teams" else "pairs"
            self._set_meta({"movement": text, "kind": kind})
        if movement.section in sections:
            sections[movement.section] = text
            self._set_meta({"sections": json.dumps(sections, separators=(",", ":"))})

    # --------------------------------------------------------------- results

    def add(
        self,
        boards: Iterable[tuple[Board, Origin]],
        results: Iterable[tuple[TableResult, Origin]],
        *,
        info: Mapping[str, str | None] | None = None,
        members: Mapping[str, tuple[Member, ...]] | None = None,
        replace: bool = False,
        movements: Mapping[str, Movement] | None = None,
        leads: Mapping[tuple[str, int, str, str], Card] | None = None,
        plays: Mapping[tuple[str, int, str, str], TablePlay] | None = None,
    ) -> tuple[AddReport, AddReport]:
        """Add hand records and results together, in one transaction.

        ``info`` (``name``, ``kind``, ``method``) is set in the same transaction,
        so a killed import leaves neither its results nor its event settings;
        so are ``members`` (see :meth:`set_members`), ``movements`` (:meth:`set_movements`)
        and the opening ``leads`` and the auctions and ``plays`` of the results stored,
        by key. With ``replace``, a result
        that differs from the one stored for its board and pairs replaces it (a
        :class:`Replacement`, written to the audit log) instead of being a
        :class:`Conflict`; a pair already seated against someone else on the
        board stays a conflict.
        """
        check_kind((info or {}).get("kind"))
        self._writing()
        board_report, result_report = AddReport(), AddReport()
        with self._db:
            # Take the write lock first: two imports then queue, where a deferred
            # transaction that read before writing could fail with "locked".
            self._db.execute("BEGIN IMMEDIATE")
            self._set_meta(info or {})
            self._set_members(members or {})
            self._set_movements(movements or {})
            leads = leads or {}
            plays = plays or {}
            for board, origin in boards:
                board_report.merge(self._add_board(board, origin))
            for result, origin in results:
                replaced = self._replace_result(result, origin) if replace else None
                added = replaced or self._add_result(result, origin)
                result_report.merge(added)
                if result.key in leads and not added.conflicts:
                    row = (*result.key, str(leads[result.key]))
                    self._db.execute("INSERT OR REPLACE INTO leads VALUES (?, ?, ?, ?, ?)", row)
                if result.key in plays and not added.conflicts:
                    played = plays[result.key]
                    self._db.execute(
                        "INSERT OR REPLACE INTO table_play VALUES (?, ?, ?, ?, ?, ?)",
                        (*result.key, played.auction_text, played.play_text),
                    )
        return board_report, result_report

    def leads(self) -> dict[tuple[str, int, str, str], str]:
        """The opening lead entered (live) or imported (a scoring database) with each
        result that has one, by its key."""
        if "leads" not in self._tables():
            return {}
        rows = self._db.execute("SELECT section, board, ns, ew, card FROM leads").fetchall()
        return {(s, b, ns, ew): card for s, b, ns, ew, card in rows}

    def table_play(self) -> dict[tuple[str, int, str, str], TablePlay]:
        """The auction and play stored with each result that has them, by the result's
        key (empty for a file made before they were kept)."""
        if "table_play" not in self._tables():
            return {}
        rows = self._db.execute(
            "SELECT section, board, ns, ew, auction, play FROM table_play"
        ).fetchall()
        found = {}
        for section, board, ns, ew, auction, play in rows:
            try:
                found[(section, board, ns, ew)] = TablePlay.parse(auction, play)
            except BridgeError as error:
                raise RecordError(
                    f"the stored play of board {board} ({ns} v {ew}) cannot be read: {error}"
                ) from None
        return found

    def add_results(
        self, records: Iterable[tuple[TableResult, Origin]], *, replace: bool = False
    ) -> AddReport:
        """Add results in one transaction; see the module docstring for duplicates."""
        return self.add((), records, replace=replace)[1]

    def _replace_result(self, result: TableResult, origin: Origin) -> AddReport | None:
        """Replace a different stored result of the same board and pairs (logged);
        ``None`` when there is none to replace."""
        section, board, ns, ew = result.key
        row = self._db.execute(
            "SELECT variant, outcome, source, line FROM results "
            "WHERE section = ? AND board = ? AND ns = ? AND ew = ?",
            (section, board, ns, ew),
        ).fetchone()
        if row is None or (row[0], row[1]) == (result.variant, encode_outcome(result)):
            return None
        self._change(
            result.key, (row[0], row[1]), outcome_pair(result), origin, action="replace", reason=""
        )
        label = f"board {board}" + (f" section {section}" if section else "")
        replaced = Replacement(
            f"{label} {ns} v {ew}",
            shown_outcome((row[0], row[1]), result.key),
            Origin(row[2] or "", row[3] or 0),
            shown_result(result),
            origin,
        )
        return AddReport(replaced=[replaced])

    def _add_result(self, result: TableResult, origin: Origin) -> AddReport:
        outcome = encode_outcome(result)
        section, board, ns, ew = result.key
        label = f"board {board}" + (f" section {section}" if section else "")
        row = self._db.execute(
            "SELECT variant, outcome, source, line FROM results "
            "WHERE section = ? AND board = ? AND ns = ? AND ew = ?",
            (section, board, ns, ew),
        ).fetchone()
        if row is not None:
            if (row[0], row[1]) == (result.variant, outcome):
                return AddReport(unchanged=1)
            return AddReport(
                conflicts=[
                    Conflict(
                        f"{label} {ns} v {ew}",
                        shown_outcome((row[0], row[1]), result.key),
                        Origin(row[2] or "", row[3] or 0),
                        shown_result(result),
                        origin,
                    )
                ]
            )
        seated = self._seat_taken(result.key)
        if seated is not None:
            return AddReport(
                conflicts=[
                    Conflict(
                        seated[0],
                        seated[1],
                        seated[2],
                        f"{ns} v {ew} {shown_result(result)}",
                        origin,
                    )
                ]
            )
        self._db.execute(
            "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (section, board, ns, ew, result.variant, outcome, origin.source, origin.line),
        )
        return AddReport(added=1)

    def _seat_taken(self, key: tuple[str, int, str, str]) -> tuple[str, str, Origin] | None:
        """What already seats one of ``key``'s pairs in its direction on the board (a pair
        plays a board once in each direction at most): (what, stored, origin), or None."""
        section, board, ns, ew = key
        other = self._db.execute(
            "SELECT ns, ew, outcome, source, line FROM results WHERE section = ? AND board = ? "
            "AND (ns = ? OR ew = ?) LIMIT 1",
            (section, board, ns, ew),
        ).fetchone()
        if other is None:
            return None
        label = f"board {board}" + (f" section {section}" if section else "")
        seat_taken = ns if other[0] == ns else ew
        outcome = "not played" if other[2] == NOT_PLAYED else other[2][2:]
        return (
            f"{label}: {seat_taken!r} already has a result in that direction",
            f"{other[0]} v {other[1]} {outcome}",
            Origin(other[3] or "", other[4] or 0),
        )

    def correct(self, result: TableResult, *, reason: str = "", who: str = "") -> AuditEntry | None:
        """Replace the stored result of ``result``'s section, board and pairs with
        ``result``, and append the change to the audit log, in one transaction.

        Returns the log entry, or ``None`` when that very result is already
        stored (nothing changes, nothing is logged). Raises :class:`RecordError`
        when the event holds no result for that board and pairs, naming those it
        holds for the board.
        """
        self._writing()
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            row = self._stored_row(result.key)
            if row is None:
                raise RecordError(self._no_result(result.key))
            if row == outcome_pair(result):
                return None
            return self._change(
                result.key,
                row,
                outcome_pair(result),
                Origin(),
                action="correct",
                reason=reason,
                who=who,
            )

    def stored_result(self, key: tuple[str, int, str, str]) -> TableResult:
        """The stored result of (section, board, NS, EW): :attr:`TableResult.key`.
        Raises :class:`RecordError` naming the pairs the board has when there is none."""
        section, board, ns, ew = key
        row = self._stored_row(key)
        if row is None:
            raise RecordError(self._no_result(key))
        if row[1] == NOT_PLAYED:
            raise RecordError(
                f"board {board} {ns} v {ew} is marked not played in {self.path!r}: it has "
                "no result to change"
            )
        return decode_outcome(row[1], board, ns, ew, section, row[0])

    def _stored_row(self, key: tuple[str, int, str, str]) -> tuple[str, str] | None:
        """The (variant, outcome) row of (section, board, NS, EW), or ``None``."""
        row = self._db.execute(
            "SELECT variant, outcome FROM results "
            "WHERE section = ? AND board = ? AND ns = ? AND ew = ?",
            key,
        ).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def _no_result(self, key: tuple[str, int, str, str]) -> str:
        section, board, ns, ew = key
        where = f"board {board}" + (f" section {section!r}" if section else "")
        rows = self._db.execute(
            "SELECT section, ns, ew FROM results WHERE board = ? ORDER BY section, ns, ew",
            (board,),
        ).fetchall()
        held = [f"{n} v {e}" + (f" (section {s})" if s else "") for s, n, e in rows]
        return f"no result of {where} with NS {ns!r} and EW {ew!r} in {self.path!r}: " + (
            f"expected one of {', '.join(held)}" if held else f"the event has no {where}"
        )

    def _change(
        self,
        key: tuple[str, int, str, str],
        old: tuple[str, str] | None,
        new: tuple[str, str],
        origin: Origin,
        *,
        action: str,
        reason: str,
        who: str = "",
    ) -> AuditEntry:
        """Log the change, then make it (inside the caller's transaction); ``old`` and
        ``new`` are stored (variant, outcome) pairs, ``old`` None for a first result."""
        section, board, ns, ew = key
        who = who or self.who
        entry = append_entry(
            self._db,
            AuditEntry(
                0,
                "",
                action,
                section,
                board,
                ns,
                ew,
                "" if old is None else shown_outcome(old, key),
                shown_outcome(new, key),
                str(origin) if origin.source else "",
                reason,
                who,
            ),
            ("", "") if old is None else old,
            new,
        )
        if old is None:
            self._db.execute(
                "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    section,
                    board,
                    ns,
                    ew,
                    *new,
                    origin.source or f"entry #{entry.entry}",
                    origin.line,
                ),
            )
            return entry
        # A corrected result's origin is its log entry: a later conflict names it.
        stored = origin if origin.source else Origin(f"correction #{entry.entry}")
        self._db.execute(
            "UPDATE results SET variant = ?, outcome = ?, source = ?, line = ? "
            "WHERE section = ? AND board = ? AND ns = ? AND ew = ?",
            (*new, stored.source, stored.line, *key),
        )
        return entry

    def audit_log(self) -> list[AuditEntry]:
        """Every result entered or changed, oldest first (empty for a file made
        before the log existed)."""
        if "audit" not in self._tables():
            return []
        return read_entries(
            self._db, lambda outcome, variant, key: shown_outcome((variant, outcome), key)
        )

    def results(self) -> list[TableResult]:
        """Every stored result; boards the director marked not played are left out."""
        rows = self._db.execute(
            "SELECT section, board, ns, ew, variant, outcome FROM results "
            "WHERE outcome != ? ORDER BY section, board, ns, ew",
            (NOT_PLAYED,),
        ).fetchall()
        return [stored_outcome(o, b, ns, ew, s, v) for s, b, ns, ew, v, o in rows]

    # ---------------------------------------------------------------- boards

    def add_boards(self, records: Iterable[tuple[Board, Origin]]) -> AddReport:
        """Add hand records in one transaction; a different deal for a board is a conflict."""
        return self.add(records, ())[0]

    def _add_board(self, board: Board, origin: Origin) -> AddReport:
        # The file keeps the hand record as PBN text: the deal and DoubleDummyTricks,
        # the dealer and vulnerability where the file stated them (NULL: by the number).
        deal = None if board.deal is None else board.deal.to_pbn()
        dd_tricks = None if board.dd_table is None else str(board.dd_table)
        dealer = None if board.dealer_seat is None else board.dealer_seat.letter
        vulnerable = None if board.vulnerable is None else board.vulnerable.to_pbn()
        row = self._db.execute(
            "SELECT deal, dd_tricks, source, line, dealer, vulnerable FROM boards WHERE number = ?",
            (board.number,),
        ).fetchone()
        if row is None:
            self._db.execute(
                "INSERT INTO boards (number, deal, dd_tricks, source, line, dealer, vulnerable) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (board.number, deal, dd_tricks, origin.source, origin.line, dealer, vulnerable),
            )
            return AddReport(added=1)
        stored_origin = Origin(row[2] or "", row[3] or 0)
        conflicts = [
            Conflict(f"board {board.number} {what}", old, stored_origin, new, origin)
            for what, old, new in (
                ("deal", row[0], deal),
                ("dealer", row[4], dealer),
                ("vulnerability", row[5], vulnerable),
            )
            if old is not None and new is not None and old != new
        ]
        if conflicts:
            return AddReport(conflicts=conflicts)
        new_values = (deal, dd_tricks, dealer, vulnerable)
        old_values = (row[0], row[1], row[4], row[5])
        if any(old is None and new for old, new in zip(old_values, new_values, strict=True)):
            self._db.execute(
                "UPDATE boards SET deal = coalesce(deal, ?), dd_tricks = coalesce(dd_tricks, ?), "
                "dealer = coalesce(dealer, ?), vulnerable = coalesce(vulnerable, ?) "
                "WHERE number = ?",
                (*new_values, board.number),
            )
            return AddReport(added=1)
        return AddReport(unchanged=1)

    def set_dd_table(self, number: int, table: DDTable) -> None:
        """Cache a board's double-dummy table (computed once, from its deal)."""
        self._writing()
        with self._db:
            self._db.execute(
                "UPDATE boards SET dd_tricks = ? WHERE number = ?", (str(table), number)
            )

    def boards(self) -> dict[int, Board]:
        """The hand records, read into values; a record that does not read is a RecordError."""
        # A file older than schema 5 opened read-only has no dealer and vulnerable columns.
        stated = "dealer, vulnerable" if "vulnerable" in self._board_columns() else "NULL, NULL"
        rows = self._db.execute(f"SELECT number, deal, dd_tricks, {stated} FROM boards").fetchall()
        boards: dict[int, Board] = {}
        for number, deal, dd_tricks, dealer, vulnerable in rows:
            try:
                boards[number] = Board(
                    number,
                    None if deal is None else Deal.from_pbn(deal),
                    None if dd_tricks is None else DDTable.parse(dd_tricks),
                    dealer_seat=None if dealer is None else Seat.parse(dealer),
                    vulnerable=None if vulnerable is None else Vulnerability.parse(vulnerable),
                )
            except BridgeError as error:
                raise RecordError(
                    f"the stored hand record of board {number} cannot be read: {error}"
                ) from None
        return boards

    def load(self) -> Event:
        """The whole event, as values."""
        try:
            return Event(self.name, self.kind, self.boards(), tuple(self.results()), self.members())
        except BridgeError as error:
            raise RecordError(
                f"{self.path!r} holds a record that cannot be read: {error}"
            ) from None
