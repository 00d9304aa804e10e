"""The audit log of an event file: every change of a stored result, appended.

A director changes a stored result on purpose (``bridgescore session correct``,
or an import with ``--replace``); the store writes one :class:`AuditEntry` per
change, in the transaction that makes it, with the old and the new result, the
time (UTC), where the new result came from and the director's reason. The table
refuses updates and deletes itself (SQLite triggers), so the log only grows.

A live session (:mod:`bridgescore.session.live.event`) also logs every result a table
enters (action ``enter``, no old result) and every adjusted score (``adjust``),
each with who did it: ``table 3`` or ``director`` (the ``who`` column, added in
schema 4; older entries have none).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime

__all__ = ["AuditEntry", "append_entry", "read_entries", "upgrade_audit"]


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One change of a stored result: its number and time (UTC, ISO 8601), how
    (``correct``: ``session correct`` or the director's page; ``replace``: an import
    with ``--replace``; ``enter``: a table's first result, whose ``old`` is ``""``;
    ``adjust``: an adjusted score; ``reissue``, ``password``, ``reopen``, ``draw`` (a Swiss
    round drawn), ``add-pair`` (a late pair seated), ``swap`` (a table's NS and EW
    exchanged for a round): a change to the
    event itself, with board 0 and no pairs), which result (section, board, pairs), the old and
    the new outcome as :meth:`~bridgescore.session.scoring.event.TableResult.describe` shows
    them (``not played`` for a board the director cancelled), where the new one came
    from (``file:line``, or ``""``), the director's reason, and who (``table 3``,
    ``director``; ``""`` before schema 4)."""

    entry: int
    at: str
    action: str
    section: str
    board: int
    ns: str
    ew: str
    old: str
    new: str
    origin: str = ""
    reason: str = ""
    who: str = ""

    def __str__(self) -> str:
        where = f" section {self.section}" if self.section else ""
        by = f" by {self.who}" if self.who else ""
        if not self.board:
            # A change to the event itself (a new link, a new password, reopened).
            text = f"#{self.entry} {self.at} {self.action}{by}:{where} {self.new}"
            return text + (f": {self.reason}" if self.reason else "")
        text = (
            f"#{self.entry} {self.at} {self.action}{by}: board {self.board}{where} "
            f"{self.ns} v {self.ew}: {self.old or '(none)'} -> {self.new}"
        )
        if self.origin:
            text += f" (from {self.origin})"
        return text + (f": {self.reason}" if self.reason else "")


def append_entry(
    db: sqlite3.Connection,
    entry: AuditEntry,
    old: tuple[str, str],
    new: tuple[str, str],
) -> AuditEntry:
    """Append ``entry`` (its number and time are given here) with the old and new
    (variant, stored outcome text); the caller holds the transaction."""
    at = datetime.now(UTC).isoformat(timespec="seconds")
    source, _, line = entry.origin.rpartition(":")
    if not line.isdigit():
        source, line = entry.origin, "0"
    cursor = db.execute(
        "INSERT INTO audit (at, action, section, board, ns, ew, old_variant, old_outcome, "
        "new_variant, new_outcome, source, line, reason, who) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            at,
            entry.action,
            entry.section,
            entry.board,
            entry.ns,
            entry.ew,
            *old,
            *new,
            source,
            int(line),
            entry.reason,
            entry.who,
        ),
    )
    return replace(entry, entry=int(cursor.lastrowid or 0), at=at)


def read_entries(
    db: sqlite3.Connection, shown: Callable[[str, str, tuple[str, int, str, str]], str]
) -> list[AuditEntry]:
    """Every entry, oldest first; ``shown(outcome, variant, key)`` turns a stored
    outcome text into what the entry shows."""
    # A schema-3 file opened read-only has no 'who' column: its entries name nobody.
    who = "who" if _has_who(db) else "''"
    rows = db.execute(
        "SELECT entry, at, action, section, board, ns, ew, old_variant, old_outcome, "
        f"new_variant, new_outcome, source, line, reason, {who} FROM audit ORDER BY entry"
    ).fetchall()
    entries = []
    for row in rows:
        number, at, action, section, board, ns, ew, ov, oo, nv, no, source, line, why, by = row
        key = (section, board, ns, ew)
        origin = f"{source}:{line}" if source and line else source
        entries.append(
            AuditEntry(
                number,
                at,
                action,
                section,
                board,
                ns,
                ew,
                shown(oo, ov, key),
                shown(no, nv, key),
                origin,
                why,
                by,
            )
        )
    return entries


def upgrade_audit(db: sqlite3.Connection) -> None:
    """Give a schema-3 log its ``who`` column (the caller holds the transaction).
    Adding a column rewrites no row, so the append-only triggers are not touched."""
    if not _has_who(db):
        db.execute("ALTER TABLE audit ADD COLUMN who TEXT NOT NULL DEFAULT ''")


def _has_who(db: sqlite3.Connection) -> bool:
    columns = db.execute("PRAGMA table_info(audit)").fetchall()
    return any(column[1] == "who" for column in columns)
