"""The event file of a live session: its secrets, flags and entries, on :class:`EventStore`.

:class:`LiveStore` is the :class:`~bridgescore.session.store.events.EventStore` a live session
(:mod:`bridgescore.session.live.event`) writes through. Beside the results it keeps the table
tokens' and director logins' digests and the director password's scrypt hash (see
:mod:`~bridgescore.session.store.access`: never a secret itself), the "ranking hidden" and
"closed" flags, and the opening leads; and it stores a table's first result of a board
(:meth:`LiveStore.enter`; several tables' at once, :meth:`LiveStore.enter_all`) and the
director's changes (:meth:`LiveStore.set_outcome`), each with its audit log entry saying
who, in one transaction committed before the method returns. The tables are in every
event file of schema 4 (schema.py makes them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from bridgescore.deal import Card
from bridgescore.errors import AlreadyEnteredError, BridgeError, RecordError
from bridgescore.movement.model import Movement
from bridgescore.session.scoring.event import Member, TableResult
from bridgescore.session.store.access import PasswordHash
from bridgescore.session.store.audit import AuditEntry
from bridgescore.session.store.events import EventStore, Origin
from bridgescore.session.store.outcomes import (
    NOT_PLAYED,
    decode_outcome,
    outcome_pair,
    shown_outcome,
)

__all__ = ["Entering", "LiveStore", "ResultKey"]

#: A stored result's key: (section, board, NS, EW).
ResultKey = tuple[str, int, str, str]


def _no_check() -> None:
    return None


@dataclass(frozen=True, slots=True)
class Entering:
    """A table's result waiting to be stored by :meth:`LiveStore.enter_all`, with who
    entered it, its opening lead, and ``check``: called in the transaction just before
    it is stored (it sees the results stored before it), it refuses the result by
    raising a :class:`~bridgescore.errors.BridgeError` (the session closed, an earlier
    round still open)."""

    result: TableResult
    who: str
    lead: Card | None = None
    check: Callable[[], None] = _no_check


class LiveStore(EventStore):
    """An event file opened for a live session (``mode`` as :class:`EventStore`'s)."""

    # ------------------------------------------------------------- flags

    @property
    def ranking_hidden(self) -> bool:
        """Whether the director hides the live ranking until the end."""
        return self._meta("ranking_hidden") == "1"

    @property
    def closed(self) -> bool:
        """Whether the director closed the session: tables enter nothing more."""
        return self._meta("closed") == "1"

    def set_flags(self, *, ranking_hidden: bool) -> None:
        """Hide the live ranking until the end, or show it. (Closing and reopening are
        :meth:`close_session` and :meth:`reopen`, each audited.)"""
        self._writing()
        with self._db:
            self._set_meta({"ranking_hidden": "1" if ranking_hidden else "0"})

    def close_session(self, *, who: str, reason: str = "") -> bool:
        """Close the session (tables enter nothing more), logged with ``who``; False when
        it was closed already (nothing logged then)."""
        self._writing()
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            if self.closed:
                return False
            self._set_meta({"closed": "1"})
            self._log_event_change("close", "session closed", who=who, reason=reason)
        return True

    def log_backup(self, out: str, *, who: str) -> AuditEntry:
        """Log that a backup of the event was written to ``out``."""
        self._writing()
        with self._db:
            return self._log_event_change("backup", f"backed up to {out}", who=who)

    def reopen(self, *, who: str, reason: str = "") -> bool:
        """Open a closed session again (tables may enter once more), logged with ``who``;
        False when it was not closed."""
        self._writing()
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            if not self.closed:
                return False
            self._set_meta({"closed": "0"})
            self._log_event_change("reopen", "session reopened", who=who, reason=reason)
        return True

    @property
    def url_base(self) -> str | None:
        """Where the tables' phones reach the server, as ``session new`` was told."""
        return self._meta("url_base")

    def set_url_base(self, url_base: str) -> None:
        self._writing()
        with self._db:
            self._set_meta({"url_base": url_base})

    def set_swiss_plan(self, plan: str) -> None:
        self._writing()
        with self._db:
            self._set_meta({"swiss": plan})

    def draw_round(self, movement: Movement, what: str, *, who: str, drawn_from: Movement) -> None:
        """Keep ``movement`` (the Swiss movement with its new round) and log ``what`` was
        drawn and by whom, in one transaction (:meth:`change_movement`): no round is drawn
        without its record. ``drawn_from`` is the stored movement the draw was made from:
        if another process drew meanwhile, the draw is refused rather than made twice."""
        self.change_movement(
            movement,
            what,
            action="draw",
            who=who,
            changed_from=drawn_from,
            meanwhile=f"round {movement.rounds} was drawn meanwhile (by another window or "
            "command): look at the event again before drawing",
        )

    def change_movement(
        self,
        movement: Movement,
        what: str,
        *,
        action: str,
        who: str,
        changed_from: Movement,
        tokens: Mapping[int, str] | None = None,
        members: Mapping[str, tuple[Member, ...]] | None = None,
        relabel: Sequence[tuple[ResultKey, ResultKey]] = (),
        meanwhile: str = "",
    ) -> AuditEntry:
        """Keep a section's changed movement (a late pair seated, a table swapped) with
        what goes with it, and log ``what`` as ``action`` by ``who``, in one transaction:
        ``tokens``, the token digests of tables that come into play; ``members``, the
        players' names; ``relabel``, (old, new) result keys whose stored results and
        leads move to the new key (both ways when both are stored: the primary key
        stays unique). ``changed_from`` is the section's movement the change was made
        from: if another process changed it meanwhile, nothing is kept (a
        :class:`~bridgescore.errors.RecordError`, its message ``meanwhile`` when given)."""
        self._writing()
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            if self._section_movement(movement.section) != changed_from:
                raise RecordError(
                    meanwhile
                    or f"the movement of section {movement.section} was changed meanwhile (by "
                    "another window or command): look at the event again"
                )
            self._keep_movement(movement)
            if tokens:
                self._db.executemany(
                    "INSERT OR REPLACE INTO table_tokens VALUES (?, ?, ?)",
                    [(movement.section, table, digest) for table, digest in tokens.items()],
                )
            self._set_members(members or {}, logged=False)
            for old, new in relabel:
                self._exchange(old, new)
            return self._log_event_change(action, what, who=who, section=movement.section)

    def _section_movement(self, section: str) -> Movement | None:
        return self.movements.get(section)

    def _exchange(self, old: ResultKey, new: ResultKey) -> None:
        """Move what is stored under ``old`` to ``new`` and back, results and leads."""
        where = "WHERE section = ? AND board = ? AND ns = ? AND ew = ?"
        for table, columns in (("results", "variant, outcome, source, line"), ("leads", "card")):
            held = {
                key: self._db.execute(f"SELECT {columns} FROM {table} {where}", key).fetchone()
                for key in (old, new)
            }
            for key in (old, new):
                self._db.execute(f"DELETE FROM {table} {where}", key)
            marks = ", ".join("?" * (4 + columns.count(",") + 1))
            for key, other in ((new, old), (old, new)):
                if held[other] is not None:
                    self._db.execute(f"INSERT INTO {table} VALUES ({marks})", (*key, *held[other]))

    # ----------------------------------------------------------- secrets

    def replace_table_token(
        self, section: str, table: int, digest: str, *, who: str, reason: str = ""
    ) -> None:
        """Give one table a new token digest (the old token is refused from now on) and
        log it, in one transaction."""
        self._writing()
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "INSERT OR REPLACE INTO table_tokens VALUES (?, ?, ?)", (section, table, digest)
            )
            self._log_event_change(
                "reissue", f"table {table}: new link", who=who, reason=reason, section=section
            )

    def replace_director_password(
        self, password: PasswordHash, *, who: str, reason: str = ""
    ) -> None:
        """Set a new director password and end every director login, logged, in one
        transaction: whoever had the old password is out."""
        self._writing()
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._set_meta({"director_password": password.to_json()})
            self._db.execute("DELETE FROM director_logins")
            self._log_event_change("password", "new director password", who=who, reason=reason)

    def set_table_tokens(self, section: str, digests: Mapping[int, str]) -> None:
        """Keep each table's token digest
        (:func:`~bridgescore.session.store.access.token_digest`)."""
        self._writing()
        with self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO table_tokens VALUES (?, ?, ?)",
                [(section, table, digest) for table, digest in digests.items()],
            )

    def table_token_digests(self) -> dict[tuple[str, int], str]:
        """Each table's token digest, by (section, table)."""
        if "table_tokens" not in self._tables():
            return {}
        rows = self._db.execute("SELECT section, table_no, digest FROM table_tokens").fetchall()
        return {(str(section), int(table)): str(digest) for section, table, digest in rows}

    @property
    def director_password(self) -> PasswordHash | None:
        text = self._meta("director_password")
        return None if text is None else PasswordHash.from_json(text)

    def set_director_password(self, password: PasswordHash) -> None:
        self._writing()
        with self._db:
            self._set_meta({"director_password": password.to_json()})

    def add_director_login(self, digest: str, expires: str) -> None:
        """Keep a director login's token digest until ``expires`` (UTC, ISO 8601)."""
        self._writing()
        with self._db:
            self._db.execute("INSERT INTO director_logins VALUES (?, ?)", (digest, expires))

    def expire_director_login(self, digest: str, at: str) -> None:
        """End a director login now (``at``): its row is kept, expired."""
        self._writing()
        with self._db:
            self._db.execute(
                "UPDATE director_logins SET expires = ? WHERE digest = ? AND expires > ?",
                (at, digest, at),
            )

    def director_login_expiry(self, digest: str) -> str | None:
        """When the director login with this token digest expires, or ``None``."""
        if "director_logins" not in self._tables():
            return None
        row = self._db.execute(
            "SELECT expires FROM director_logins WHERE digest = ?", (digest,)
        ).fetchone()
        return None if row is None else str(row[0])

    # ------------------------------------------------------------ entries

    def enter(
        self,
        result: TableResult,
        *,
        who: str,
        origin: Origin | None = None,
        lead: Card | None = None,
    ) -> AuditEntry:
        """Store a table's first result for its board and pairs, and log it (action
        ``enter``), in one transaction committed before this returns.

        Raises :class:`~bridgescore.errors.AlreadyEnteredError` when the board and
        pairs already have a result, and :class:`RecordError` when one of the pairs
        already has a result on the board in that direction against someone else.
        """
        self._writing()
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            return self._enter_now(result, who=who, origin=origin or Origin(), lead=lead)

    def enter_all(self, waiting: Sequence[Entering]) -> list[AuditEntry | BridgeError]:
        """Store each waiting result as :meth:`enter` does, in order, all in one
        transaction committed (one fsync) before this returns: the answer for each is
        its log entry, or the :class:`~bridgescore.errors.BridgeError` that refused it.

        Each is checked (its own ``check`` first) after the ones before it are stored,
        so two results of one table in one batch are checked as if they came one by one;
        a refused one is rolled back to its savepoint and the others stand. Any other
        error (the disk full) stores none of them and passes through.
        """
        self._writing()
        answers: list[AuditEntry | BridgeError] = []
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            for item in waiting:
                self._db.execute("SAVEPOINT entering")
                try:
                    item.check()
                    answers.append(
                        self._enter_now(item.result, who=item.who, origin=Origin(), lead=item.lead)
                    )
                except BridgeError as refused:
                    self._db.execute("ROLLBACK TO entering")
                    answers.append(refused)
                self._db.execute("RELEASE entering")
        return answers

    def _enter_now(
        self, result: TableResult, *, who: str, origin: Origin, lead: Card | None
    ) -> AuditEntry:
        # Inside the caller's transaction: check, then store and log.
        row = self._stored_row(result.key)
        if row is not None:
            raise AlreadyEnteredError(
                f"board {result.board} {result.ns} v {result.ew} already has "
                f"{shown_outcome(row, result.key)}: only the director can change it"
            )
        seated = self._seat_taken(result.key)
        if seated is not None:
            raise RecordError(f"{seated[0]}: {seated[1]} (from {seated[2]})")
        self._set_lead(result.key, lead)
        return self._change(
            result.key, None, outcome_pair(result), origin, action="enter", reason="", who=who
        )

    def set_outcome(
        self,
        key: tuple[str, int, str, str],
        result: TableResult | None,
        *,
        action: str,
        who: str,
        reason: str = "",
        lead: Card | None = None,
    ) -> AuditEntry | None:
        """The director's change: store ``result`` (``None``: the board was not played)
        for ``key``, whether or not the board had a result, and log it with ``action``
        and ``who``, in one transaction. ``None`` when that very outcome is stored."""
        self._writing()
        new = ("", NOT_PLAYED) if result is None else outcome_pair(result)
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            row = self._stored_row(key)
            self._set_lead(key, lead)
            if row == new:
                return None
            if row is None:
                seated = self._seat_taken(key)
                if seated is not None:
                    raise RecordError(f"{seated[0]}: {seated[1]} (from {seated[2]})")
            return self._change(key, row, new, Origin(), action=action, reason=reason, who=who)

    def _set_lead(self, key: tuple[str, int, str, str], lead: Card | None) -> None:
        if lead is not None:
            self._db.execute(
                "INSERT OR REPLACE INTO leads VALUES (?, ?, ?, ?, ?)", (*key, str(lead))
            )

    def has_results(self) -> bool:
        """Whether the event has a result to score (a board not played is none)."""
        row = self._db.execute(
            "SELECT 1 FROM results WHERE outcome != ? LIMIT 1", (NOT_PLAYED,)
        ).fetchone()
        return row is not None

    def outcomes_of(
        self, keys: Iterable[tuple[str, int, str, str]]
    ) -> dict[tuple[str, int, str, str], TableResult | None]:
        """The stored result of each key that has one (``None``: marked not played);
        keys with nothing stored are left out. One indexed look-up a key."""
        found: dict[tuple[str, int, str, str], TableResult | None] = {}
        for key in keys:
            row = self._stored_row(key)
            if row is not None:
                section, board, ns, ew = key
                found[key] = (
                    None
                    if row[1] == NOT_PLAYED
                    else decode_outcome(row[1], board, ns, ew, section, row[0])
                )
        return found

    def stored_among(
        self, keys: Iterable[tuple[str, int, str, str]]
    ) -> set[tuple[str, int, str, str]]:
        """Those of ``keys`` that have a stored outcome (not-played boards included): one
        indexed look-up a key, where :meth:`stored_keys` reads them all."""
        return {key for key in keys if self._stored_row(key) is not None}

    def stored_keys(self) -> set[tuple[str, int, str, str]]:
        """The (section, board, NS, EW) of every stored outcome, not-played boards included."""
        rows = self._db.execute("SELECT section, board, ns, ew FROM results").fetchall()
        return {(s, b, ns, ew) for s, b, ns, ew in rows}

    def outcome_text(self, key: tuple[str, int, str, str]) -> str | None:
        """What is stored for (section, board, NS, EW) as the audit log shows it
        (``4SN+1``, ``A+/A-``, ``not played``), or ``None`` when nothing is."""
        row = self._stored_row(key)
        return None if row is None else shown_outcome(row, key)

    def stored_outcomes(self) -> dict[tuple[str, int, str, str], str]:
        """Every stored outcome's text by (section, board, NS, EW), not-played boards
        included (``not played``)."""
        rows = self._db.execute(
            "SELECT section, board, ns, ew, variant, outcome FROM results"
        ).fetchall()
        return {
            (s, b, ns, ew): shown_outcome((v, o), (s, b, ns, ew)) for s, b, ns, ew, v, o in rows
        }
