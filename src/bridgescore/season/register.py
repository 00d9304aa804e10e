"""The club file: the register of players and the season's events, in one SQLite file.

Its own schema (``meta`` says ``kind`` ``bridgescore club`` and the schema's version,
:data:`CLUB_SCHEMA`), apart from the event files: an event is read from its own file
and what the season needs of it is kept here, so the club file answers a player's
history, the ladder and the grades without opening any event again.

- ``players``: membership number (the key), name, email;
- ``events``: each event added, its file, name, day and the fingerprint of its results
  (an event added twice, or from a copy of its file, is added once; its file added again
  after its results changed replaces what was kept of it);
- ``places``: each pair's field, rank, percentage and boards in an event;
- ``seats``: each pair's players as the event names them, with the register number
  each was matched to (``""``: unmatched; see :mod:`.matching`).

>>> with ClubFile(":memory:", name="Riverside") as club:
...     report = club.update_players([ClubMember("1010", "Ann Archer")])
...     club.name, report.added, [p.name for p in club.players().values()]
('Riverside', 1, ['Ann Archer'])
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Literal, Self

from bridgescore.errors import RecordError
from bridgescore.season.matching import Matched, match_players
from bridgescore.season.summary import EventSummary, PairPlace
from bridgescore.session.scoring.event import Member, natural_key
from bridgescore.session.store.writable import check_writable, storage_errors

__all__ = [
    "CLUB_SCHEMA",
    "AddedEvent",
    "ClubFile",
    "ClubMember",
    "HistoryLine",
    "PlayersReport",
    "SeasonSession",
]

CLUB_SCHEMA = "1"
_KIND = "bridgescore club"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    number TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    fingerprint TEXT NOT NULL UNIQUE,
    path TEXT NOT NULL,
    name TEXT NOT NULL,
    date TEXT NOT NULL,
    method TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS places (
    event INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    section TEXT NOT NULL,
    pair TEXT NOT NULL,
    field TEXT NOT NULL,
    rank TEXT NOT NULL,
    percent REAL NOT NULL,
    boards INTEGER NOT NULL,
    field_size INTEGER NOT NULL,
    PRIMARY KEY (event, section, pair)
);
CREATE TABLE IF NOT EXISTS seats (
    event INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    section TEXT NOT NULL,
    pair TEXT NOT NULL,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    given_number TEXT NOT NULL,
    number TEXT NOT NULL,
    PRIMARY KEY (event, section, pair, position)
);
CREATE INDEX IF NOT EXISTS seats_by_number ON seats (number);
"""
ClubMode = Literal["create", "write", "read"]


@dataclass(frozen=True, slots=True)
class ClubMember:
    """A player of the register: membership number, name and (optionally) email."""

    number: str
    name: str
    email: str = ""


@dataclass(slots=True)
class PlayersReport:
    """What :meth:`ClubFile.update_players` did: numbers added, changed, left as they
    were, and the players of events already added that the register now matches."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    rematched: int = 0  # players of the season's events matched now, unmatched before


@dataclass(slots=True)
class AddedEvent:
    """One event given to :meth:`ClubFile.add_event`: ``status`` ``added``, ``replaced``
    (its file was added before, with other results) or ``unchanged`` (added already);
    each player as matched."""

    path: str
    name: str
    date: str
    status: Literal["added", "replaced", "unchanged"]
    pairs: int
    matched: list[Matched] = field(default_factory=list)
    unmatched: list[tuple[str, Matched]] = field(default_factory=list)  # (pair, player)

    @property
    def by_name(self) -> int:
        """How many players were matched by name (the event gave no number the register holds)."""
        return sum(m.how == "name" for m in self.matched)


@dataclass(frozen=True, slots=True)
class SeasonSession:
    """An event of the season, with every pair's line (its players matched to the
    register: :attr:`PairPlace.numbers`), in the order it was played."""

    id: int
    name: str
    date: str
    path: str
    pairs: tuple[PairPlace, ...]


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One event of a player's history: the day, the event, the partner(s), the pair's
    percentage and its rank among ``field_size`` pairs."""

    date: str
    event: str
    pair: str
    partners: tuple[str, ...]
    percent: float
    rank: str
    field_size: int
    boards: int


class ClubFile:
    """A club file, opened to make (``create``, with ``name``), to change (``write``)
    or to read (``read``: never written). Use as a context manager.

    Raises :class:`RecordError` naming the file when it is missing (``write``,
    ``read``), exists already (``create``) or is no club file (an event file, any other
    database, a newer schema); :class:`~bridgescore.errors.StorageError` when it cannot
    be written.
    """

    def __init__(self, path: str | Path, *, mode: ClubMode = "create", name: str = "") -> None:
        self.path = str(path)
        memory = self.path == ":memory:"
        where = Path(self.path)
        if not memory:
            exists = where.exists() or where.is_symlink()
            if mode == "create" and exists:
                raise RecordError(
                    f"{self.path!r} already exists: a club file is made once (choose "
                    "another name, or use this one)"
                )
            if mode != "create" and not where.is_file():
                raise RecordError(
                    f"no club file {self.path!r}: expected one made by 'bridgescore club new'"
                )
            if mode == "write":
                check_writable(self.path)
        uri = f"file:{where.absolute()}?mode=ro" if mode == "read" and not memory else None
        with storage_errors(self.path):
            self._db = (
                sqlite3.connect(uri, uri=True) if uri is not None else sqlite3.connect(self.path)
            )
        self.read_only = mode == "read"
        self._db.execute("PRAGMA foreign_keys = ON")
        try:
            if mode == "create":
                with storage_errors(self.path), self._db:
                    self._db.executescript(_SCHEMA)
                    self._db.executemany(
                        "INSERT INTO meta VALUES (?, ?)",
                        [("kind", _KIND), ("schema", CLUB_SCHEMA), ("name", name)],
                    )
            else:
                self._check()
        except BaseException:
            self._db.close()
            raise

    def _check(self) -> None:
        try:
            rows = dict(self._db.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.DatabaseError:
            rows = {}
        if rows.get("kind") != _KIND:
            what = "an event file" if "schema" in rows else "not a club file"
            raise RecordError(
                f"{self.path!r} is {what}: expected a club file made by 'bridgescore club new'"
            )
        if rows.get("schema") != CLUB_SCHEMA:
            raise RecordError(
                f"{self.path!r} is a club file of schema {rows.get('schema')!r}: this "
                f"bridgescore reads schema {CLUB_SCHEMA!r} (a newer bridgescore made it)"
            )

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # ------------------------------------------------------------------ register

    @property
    def name(self) -> str:
        row = self._db.execute("SELECT value FROM meta WHERE key = 'name'").fetchone()
        return str(row[0]) if row else ""

    def players(self) -> dict[str, ClubMember]:
        """The register, by membership number, in number order (2 before 10)."""
        rows = self._db.execute("SELECT number, name, email FROM players").fetchall()
        found = [ClubMember(str(n), str(name), str(email)) for n, name, email in rows]
        return {p.number: p for p in sorted(found, key=lambda p: natural_key(p.number))}

    def update_players(self, players: Iterable[ClubMember]) -> PlayersReport:
        """Add each player not in the register and update the name or email of each
        that is (an email left blank keeps the one held), in one transaction."""
        self._writing()
        report = PlayersReport()
        with storage_errors(self.path), self._db:
            held = self.players()
            for player in players:
                before = held.get(player.number)
                email = player.email or (before.email if before else "")
                now = ClubMember(player.number, player.name, email)
                if before == now:
                    report.unchanged += 1
                    continue
                self._db.execute(
                    "INSERT OR REPLACE INTO players VALUES (?, ?, ?)",
                    (now.number, now.name, now.email),
                )
                held[now.number] = now
                if before is None:
                    report.added += 1
                else:
                    report.updated += 1
            report.rematched = self._rematch({p.number: p.name for p in held.values()})
        return report

    def add_new_players(self, players: Iterable[ClubMember]) -> PlayersReport:
        """Add each player whose number the register does not hold, and leave every
        number it holds as it is (``unchanged``: a name an event spells otherwise never
        replaces the register's), in one transaction."""
        self._writing()
        report = PlayersReport()
        with storage_errors(self.path), self._db:
            held = self.players()
            for player in players:
                if player.number in held:
                    report.unchanged += 1
                    continue
                self._db.execute(
                    "INSERT INTO players VALUES (?, ?, ?)",
                    (player.number, player.name, player.email),
                )
                held[player.number] = player
                report.added += 1
            report.rematched = self._rematch({p.number: p.name for p in held.values()})
        return report

    def _rematch(self, register: dict[str, str]) -> int:
        """Match again every player an event left unmatched, now that the register has
        changed (inside the caller's transaction); a matched player stays as matched.
        Returns how many are matched now."""
        rows = self._db.execute(
            "SELECT event, section, pair, position, name, given_number FROM seats WHERE number = ''"
        ).fetchall()
        found = 0
        for event, section, pair, position, name, given in rows:
            matched = match_players([Member(str(name), str(given))], register)[0]
            if matched.number:
                found += 1
                self._db.execute(
                    "UPDATE seats SET number = ? WHERE event = ? AND section = ? AND pair = ? "
                    "AND position = ?",
                    (matched.number, event, section, pair, position),
                )
        return found

    def _writing(self) -> None:
        if self.read_only:
            raise RecordError(f"{self.path!r} is open read-only")

    # ------------------------------------------------------------------ events

    def add_event(self, summary: EventSummary, path: str) -> AddedEvent:
        """Add an event to the season, its players matched to the register.

        The same results (the summary's fingerprint) are added once; the same file
        with other results (a corrected or a later live event) replaces what was kept
        of it. Unmatched players are kept unmatched, and listed in the answer.
        """
        self._writing()
        register = {p.number: p.name for p in self.players().values()}
        shown = str(path)
        stored = str(Path(path).absolute()) if path != ":memory:" else path
        added = AddedEvent(shown, summary.name, summary.date, "added", len(summary.places))
        for place in summary.places:
            for matched in match_players(place.players, register):
                if matched.number:
                    added.matched.append(matched)
                else:
                    added.unmatched.append((place.pair, matched))
            if not place.players:
                added.unmatched.append(
                    (place.pair, Matched(Member(""), "", "", "the event names no players"))
                )
        with storage_errors(self.path), self._db:
            same = self._db.execute(
                "SELECT id FROM events WHERE fingerprint = ?", (summary.fingerprint,)
            ).fetchone()
            if same is not None:
                added.status = "unchanged"
                return added
            before = self._db.execute("SELECT id FROM events WHERE path = ?", (stored,)).fetchone()
            if before is not None:
                self._db.execute("DELETE FROM events WHERE id = ?", (before[0],))
                added.status = "replaced"
            cursor = self._db.execute(
                "INSERT INTO events (fingerprint, path, name, date, method) VALUES (?, ?, ?, ?, ?)",
                (summary.fingerprint, stored, summary.name, summary.date, summary.method),
            )
            event = cursor.lastrowid
            for place in summary.places:
                self._db.execute(
                    "INSERT INTO places VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        event,
                        place.section,
                        place.pair,
                        place.field,
                        place.rank,
                        place.percent,
                        place.boards,
                        place.field_size,
                    ),
                )
                for position, matched in enumerate(match_players(place.players, register)):
                    self._db.execute(
                        "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (
                            event,
                            place.section,
                            place.pair,
                            position,
                            matched.member.name,
                            matched.member.number,
                            matched.number,
                        ),
                    )
        return added

    def sessions(self, *, start: str = "", end: str = "") -> list[SeasonSession]:
        """The season's events from ``start`` to ``end`` (days, both included; ``""``:
        no bound), in the order they were played (by day, then as added)."""
        events = self._db.execute(
            "SELECT id, name, date, path FROM events WHERE date >= ? AND (? = '' OR date <= ?) "
            "ORDER BY date, id",
            (start, end, end),
        ).fetchall()
        seats: dict[tuple[int, str, str], list[tuple[Member, str]]] = {}
        for event, section, pair, name, given, number in self._db.execute(
            "SELECT event, section, pair, name, given_number, number FROM seats "
            "ORDER BY event, section, pair, position"
        ):
            seats.setdefault((event, section, pair), []).append(
                (Member(str(name), str(given)), str(number))
            )
        places: dict[int, list[PairPlace]] = {}
        for event, section, pair, field_name, rank, percent, boards, size in self._db.execute(
            "SELECT event, section, pair, field, rank, percent, boards, field_size FROM places"
        ):
            held = seats.get((event, section, pair), [])
            places.setdefault(event, []).append(
                PairPlace(
                    str(section),
                    str(pair),
                    str(field_name),
                    str(rank),
                    float(percent),
                    int(boards),
                    int(size),
                    tuple(m for m, _ in held),
                    tuple(n for _, n in held),
                )
            )
        return [
            SeasonSession(
                int(event),
                str(name),
                str(date),
                str(path),
                tuple(sorted(places.get(event, []), key=_place_order)),
            )
            for event, name, date, path in events
        ]

    def history(self, number: str) -> list[HistoryLine]:
        """The events of the register's player ``number``, in the order played; raises
        :class:`RecordError` for a number the register does not hold."""
        players = self.players()
        if number not in players:
            raise RecordError(
                f"player {number!r} is not in the register of {self.path!r}: expected a "
                "membership number 'club players' added"
            )
        out: list[HistoryLine] = []
        for session in self.sessions():
            for pair in session.pairs:
                if number not in pair.numbers:
                    continue
                partners = tuple(
                    players[n].name if n else member.name or "(unnamed)"
                    for member, n in zip(pair.players, pair.numbers, strict=True)
                    if n != number
                )
                out.append(
                    HistoryLine(
                        session.date,
                        session.name,
                        pair.pair,
                        partners,
                        pair.percent,
                        pair.rank,
                        pair.field_size,
                        pair.boards,
                    )
                )
        return out


def _place_order(pair: PairPlace) -> tuple[str, int, tuple[tuple[int, object], ...]]:
    rank = pair.rank.rstrip("=")
    return (pair.field, int(rank) if rank.isdigit() else 0, natural_key(pair.pair))
