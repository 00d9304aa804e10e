"""SQLite storage of an event: one file per event (stdlib :mod:`sqlite3`).

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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from bridgescore.core import Seat, Vulnerability
from bridgescore.ddtable import DDTable
from bridgescore.deal import Card, Deal
from bridgescore.errors import BridgeError, RecordError
from bridgescore.formats.board import Board
from bridgescore.movement.model import Movement
from bridgescore.movement.text import movement_from_json, movement_to_json
from bridgescore.session.scoring.event import Event, Member, TableResult
from bridgescore.session.store.audit import AuditEntry, append_entry, read_entries
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
from bridgescore.session.store.schema import EventFile, check_kind

# The movement's JSON is parsed once per text, not on every read of a live event (it was
# a quarter of a live ranking's time); a Movement is immutable, so sharing it is safe.
_stored_movement = lru_cache(maxsize=64)(movement_from_json)


def _movement_text(movement: Movement) -> str:
    return json.dumps(movement_to_json(movement), separators=(",", ":"))


__all__ = [
    "AddReport",
    "Conflict",
    "EventStore",
    "Origin",
    "Replacement",
]


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
    boards. Opened as :class:`~bridgescore.session.store.schema.EventFile` says."""

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
    ) -> tuple[AddReport, AddReport]:
        """Add hand records and results together, in one transaction.

        ``info`` (``name``, ``kind``, ``method``) is set in the same transaction,
        so a killed import leaves neither its results nor its event settings;
        so are ``members`` (see :meth:`set_members`), ``movements`` (:meth:`set_movements`)
        and the opening ``leads`` of the results stored, by key. With ``replace``, a result
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
            for board, origin in boards:
                board_report.merge(self._add_board(board, origin))
            for result, origin in results:
                replaced = self._replace_result(result, origin) if replace else None
                added = replaced or self._add_result(result, origin)
                result_report.merge(added)
                if result.key in leads and not added.conflicts:
                    row = (*result.key, str(leads[result.key]))
                    self._db.execute("INSERT OR REPLACE INTO leads VALUES (?, ?, ?, ?, ?)", row)
        return board_report, result_report

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
