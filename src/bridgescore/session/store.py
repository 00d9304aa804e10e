"""SQLite storage of an event: one file per event (stdlib :mod:`sqlite3`).

Each batch of results is added in one transaction. Adding a result that is
already stored, identically, changes nothing (so importing a file twice does not
double it); a *different* result for the same board and pairs -- or a pair
already seen on that board against someone else -- is reported as a
:class:`Conflict` and the stored result is kept, never silently replaced.

>>> with EventStore(":memory:") as store:
...     report = store.add_results([(TableResult.played(1, "1", "2", "4SN="), Origin("t.csv", 2))])
...     again = store.add_results([(TableResult.played(1, "1", "2", "4SN="), Origin("t.csv", 2))])
...     (report.added, again.added, again.unchanged)
(1, 0, 1)
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from types import TracebackType

from bridgescore.ddtable import DDTable
from bridgescore.deal import Deal
from bridgescore.errors import BridgeError, RecordError
from bridgescore.notation import parse_result
from bridgescore.session.event import (
    EVENT_KINDS,
    Adjusted,
    Board,
    Event,
    EventKind,
    Member,
    TableResult,
)

__all__ = ["AddReport", "Conflict", "EventStore", "Origin"]

# 2 added the members table (players of pairs and teams); a version 1 file gets it,
# empty, when opened, and is marked 2: nothing else changed, so nothing is rewritten.
SCHEMA_VERSION = "2"
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
    line INTEGER
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
"""


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


@dataclass(slots=True)
class AddReport:
    """What one batch did: records added, records already stored identically, conflicts."""

    added: int = 0
    unchanged: int = 0
    conflicts: list[Conflict] = field(default_factory=list)

    def merge(self, other: AddReport) -> None:
        self.added += other.added
        self.unchanged += other.unchanged
        self.conflicts.extend(other.conflicts)


def encode_outcome(result: TableResult) -> str:
    """The stored text of a table's outcome: ``R:4SXN+1``, ``R:Pass``, ``S:+450``, ``A:A+/A-``."""
    if result.result is not None:
        return f"R:{result.result}"
    if result.score is not None:
        return f"S:{result.score:+d}"
    return f"A:{result.adjusted}"


def decode_outcome(
    text: str, board: int, ns: str, ew: str, section: str, variant: str
) -> TableResult:
    tag, _, body = text.partition(":")
    if tag == "R":
        return TableResult(
            board, ns, ew, result=parse_result(body), section=section, variant=variant
        )
    if tag == "S":
        return TableResult(board, ns, ew, score=int(body), section=section, variant=variant)
    if tag == "A":
        return TableResult(
            board, ns, ew, adjusted=Adjusted.parse(body), section=section, variant=variant
        )
    raise RecordError(f"stored outcome {text!r} of board {board} is not readable")


class EventStore:
    """An event kept in one SQLite file (``":memory:"`` for a throw-away one).

    Use as a context manager, or call :meth:`close`.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            self._db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_SECONDS)
            with self._db:
                self._db.executescript(_SCHEMA)
                self._db.execute(
                    "INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,)
                )
                self._db.execute(
                    "UPDATE meta SET value = ? WHERE key = 'schema' AND value = '1'",
                    (SCHEMA_VERSION,),
                )
        except sqlite3.DatabaseError as error:
            raise RecordError(f"{self.path!r} is not a bridgescore event file: {error}") from None

    def __enter__(self) -> EventStore:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    # ------------------------------------------------------------------ meta

    def _meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    @property
    def name(self) -> str:
        return self._meta("name") or ""

    @property
    def kind(self) -> EventKind:
        kind = self._meta("kind") or "pairs"
        return "teams" if kind == "teams" else "pairs"

    @property
    def method(self) -> str | None:
        """The scoring method the event's results file named (``mp``, ``imps``...), if any."""
        return self._meta("method")

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
        self, *, name: str | None = None, kind: str | None = None, method: str | None = None
    ) -> None:
        """Set the event's name, kind (pairs or teams) or default scoring method."""
        _check_kind(kind)
        with self._db:
            self._set_meta({"name": name, "kind": kind, "method": method})

    def _set_meta(self, info: Mapping[str, str | None]) -> None:
        for key, value in info.items():
            if value is not None:
                self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    # --------------------------------------------------------------- members

    def set_members(self, members: Mapping[str, tuple[Member, ...]]) -> None:
        """Keep the players of each pair or team named: a participant's players are
        those of the last file that named any (a corrected file replaces them)."""
        with self._db:
            self._set_members(members)

    def _set_members(self, members: Mapping[str, tuple[Member, ...]]) -> None:
        for participant, players in members.items():
            if not players:
                continue
            self._db.execute("DELETE FROM members WHERE participant = ?", (participant,))
            self._db.executemany(
                "INSERT INTO members VALUES (?, ?, ?, ?)",
                [(participant, i, m.name, m.number) for i, m in enumerate(players)],
            )

    def members(self) -> dict[str, tuple[Member, ...]]:
        """The players of each pair or team, in the order the file listed them."""
        rows = self._db.execute(
            "SELECT participant, name, number FROM members ORDER BY participant, position"
        ).fetchall()
        out: dict[str, list[Member]] = {}
        for participant, name, number in rows:
            out.setdefault(str(participant), []).append(Member(str(name), str(number)))
        return {participant: tuple(players) for participant, players in out.items()}

    # --------------------------------------------------------------- results

    def add(
        self,
        boards: Iterable[tuple[Board, Origin]],
        results: Iterable[tuple[TableResult, Origin]],
        *,
        info: Mapping[str, str | None] | None = None,
        members: Mapping[str, tuple[Member, ...]] | None = None,
    ) -> tuple[AddReport, AddReport]:
        """Add hand records and results together, in one transaction.

        ``info`` (``name``, ``kind``, ``method``) is set in the same transaction,
        so a killed import leaves neither its results nor its event settings;
        so are ``members`` (see :meth:`set_members`).
        """
        _check_kind((info or {}).get("kind"))
        board_report, result_report = AddReport(), AddReport()
        with self._db:
            # Take the write lock first: two imports then queue, where a deferred
            # transaction that read before writing could fail with "locked".
            self._db.execute("BEGIN IMMEDIATE")
            self._set_meta(info or {})
            self._set_members(members or {})
            for board, origin in boards:
                board_report.merge(self._add_board(board, origin))
            for result, origin in results:
                result_report.merge(self._add_result(result, origin))
        return board_report, result_report

    def add_results(self, records: Iterable[tuple[TableResult, Origin]]) -> AddReport:
        """Add results in one transaction; see the module docstring for duplicates."""
        return self.add((), records)[1]

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
            stored = decode_outcome(row[1], board, ns, ew, section, row[0])
            return AddReport(
                conflicts=[
                    Conflict(
                        f"{label} {ns} v {ew}",
                        _shown(stored),
                        Origin(row[2] or "", row[3] or 0),
                        _shown(result),
                        origin,
                    )
                ]
            )
        # A pair plays a board once in each direction at most.
        other = self._db.execute(
            "SELECT ns, ew, outcome, source, line FROM results WHERE section = ? AND board = ? "
            "AND (ns = ? OR ew = ?) LIMIT 1",
            (section, board, ns, ew),
        ).fetchone()
        if other is not None:
            seat_taken = ns if other[0] == ns else ew
            return AddReport(
                conflicts=[
                    Conflict(
                        f"{label}: {seat_taken!r} already has a result in that direction",
                        f"{other[0]} v {other[1]} {other[2][2:]}",
                        Origin(other[3] or "", other[4] or 0),
                        f"{ns} v {ew} {_shown(result)}",
                        origin,
                    )
                ]
            )
        self._db.execute(
            "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (section, board, ns, ew, result.variant, outcome, origin.source, origin.line),
        )
        return AddReport(added=1)

    def results(self) -> list[TableResult]:
        rows = self._db.execute(
            "SELECT section, board, ns, ew, variant, outcome FROM results "
            "ORDER BY section, board, ns, ew"
        ).fetchall()
        return [decode_outcome(o, b, ns, ew, s, v) for s, b, ns, ew, v, o in rows]

    # ---------------------------------------------------------------- boards

    def add_boards(self, records: Iterable[tuple[Board, Origin]]) -> AddReport:
        """Add hand records in one transaction; a different deal for a board is a conflict."""
        return self.add(records, ())[0]

    def _add_board(self, board: Board, origin: Origin) -> AddReport:
        # The file keeps the hand record as PBN text: the deal and DoubleDummyTricks.
        deal = None if board.deal is None else board.deal.to_pbn()
        dd_tricks = None if board.dd_table is None else str(board.dd_table)
        row = self._db.execute(
            "SELECT deal, dd_tricks, source, line FROM boards WHERE number = ?", (board.number,)
        ).fetchone()
        if row is None:
            self._db.execute(
                "INSERT INTO boards VALUES (?, ?, ?, ?, ?)",
                (board.number, deal, dd_tricks, origin.source, origin.line),
            )
            return AddReport(added=1)
        if row[0] is not None and deal is not None and row[0] != deal:
            return AddReport(
                conflicts=[
                    Conflict(
                        f"board {board.number} deal",
                        row[0],
                        Origin(row[2] or "", row[3] or 0),
                        deal,
                        origin,
                    )
                ]
            )
        if (row[0] is None and deal) or (row[1] is None and dd_tricks):
            self._db.execute(
                "UPDATE boards SET deal = coalesce(deal, ?), dd_tricks = coalesce(dd_tricks, ?) "
                "WHERE number = ?",
                (deal, dd_tricks, board.number),
            )
            return AddReport(added=1)
        return AddReport(unchanged=1)

    def set_dd_table(self, number: int, table: DDTable) -> None:
        """Cache a board's double-dummy table (computed once, from its deal)."""
        with self._db:
            self._db.execute(
                "UPDATE boards SET dd_tricks = ? WHERE number = ?", (str(table), number)
            )

    def boards(self) -> dict[int, Board]:
        """The hand records, read into values; a record that does not read is a RecordError."""
        rows = self._db.execute("SELECT number, deal, dd_tricks FROM boards").fetchall()
        boards: dict[int, Board] = {}
        for number, deal, dd_tricks in rows:
            try:
                boards[number] = Board(
                    number,
                    None if deal is None else Deal.from_pbn(deal),
                    None if dd_tricks is None else DDTable.parse(dd_tricks),
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


def _check_kind(kind: str | None) -> None:
    if kind is not None and kind not in EVENT_KINDS:
        raise RecordError(f"unknown event kind {kind!r}: expected pairs or teams")


def _shown(result: TableResult) -> str:
    text = result.describe()
    return f"{text} (fouled version {result.variant!r})" if result.variant else text
