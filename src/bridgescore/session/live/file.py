"""The event file open for a live evening: one connection under one lock, who is
asking (a table's token, the director's password and logins), and the event's
names, players and flags. :class:`~bridgescore.session.live.event.LiveEvent` adds
the tables' results, the director's changes and the scores on top."""

from __future__ import annotations

import hmac
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from bridgescore.core import Vulnerability
from bridgescore.errors import MovementError, RecordError
from bridgescore.movement.flow import next_stops
from bridgescore.movement.model import Movement
from bridgescore.session.live.documents import SwissProgress
from bridgescore.session.live.players import club_name, players_named
from bridgescore.session.live.sections import stored_section, which_section
from bridgescore.session.scoring.event import Member, participant_key, players_of
from bridgescore.session.store.access import new_token, token_digest
from bridgescore.session.store.live import LiveStore
from bridgescore.session.store.schema import Closing
from bridgescore.session.store.writable import storage_errors
from bridgescore.validate import quoted

if TYPE_CHECKING:
    # Loaded when the director changes the night, not when a table's phone enters a result.
    from bridgescore.session.live.changes import LateJoin, Swapped
    from bridgescore.session.live.swiss import SwissDrawn

__all__ = ["LiveFile"]

# A director stays logged in for an evening; a stolen login token is worthless after.
DIRECTOR_LOGIN_HOURS = 12


class LiveFile(Closing):
    """An event file opened for a live session: the connection, who is asking, the
    event's names, players and flags (:class:`~bridgescore.session.live.event.LiveEvent`
    is the whole of it).

    Every method may be called from any thread: they run one at a time on one
    connection. Use as a context manager, or call :meth:`close`.
    """

    def __init__(self, path: str | Path) -> None:
        self._lock = threading.RLock()
        self._store = LiveStore(path, mode="write")
        try:
            movements = self._store.movements
            if not movements:
                raise RecordError(
                    f"{str(path)!r} has no movement: a live session runs on an event made "
                    "by 'bridgescore session new'"
                )
        except BaseException:
            self._store.close()
            raise
        self.path = str(path)
        self._closed = False
        # Each section's movement by name (one section: the event's one movement);
        # ``movement`` is the first section's.
        self.movements: dict[str, Movement] = movements
        self.movement: Movement = next(iter(movements.values()))
        # The tokens are kept in memory and compared in constant time. They are reread
        # when another process (``session reissue``) may have changed them: SQLite's
        # data_version on a reading connection of its own moves with every commit, so
        # the check never waits for the writer's lock (the server asks on its event loop).
        self._token_lock = threading.Lock()
        try:
            self._watch = LiveStore(path, mode="read")
        except BaseException:
            self._store.close()
            raise
        self._tokens = self._watch.table_token_digests()
        self._seen_version = self._watch.data_version()
        self._stops = next_stops(self.movement)
        # A Swiss grows its movement a round at a time ('session draw'), and a late pair
        # or a swapped table changes it ('session add-pair', 'session swap'), maybe in
        # another process: the movement is reread whenever the file changes.
        self._swiss = self._watch.swiss_plan is not None

    def _follow_changes(self) -> None:
        """The movement and tokens as the file has them now (another process may have
        drawn a round, seated a late pair or swapped a table)."""
        with self._token_lock:
            if self._closed:
                return
            version = self._watch.data_version()
            if version != self._seen_version:
                self._tokens = self._watch.table_token_digests()
                self._seen_version = version
                self._reread_movement()

    def _reread_movement(self) -> None:
        movements = self._watch.movements
        if movements and movements != self.movements:
            first = next(iter(movements.values()))
            self._stops, self.movement, self.movements = next_stops(first), first, movements

    def _use_movement(self, movement: Movement) -> None:
        # One assignment each: a reader sees the old movement or the new one. The boards'
        # stops are the same in every section (the same movement on the same boards).
        movements = {**self.movements, movement.section: movement}
        if movement.section == next(iter(movements)):
            self._stops, self.movement = next_stops(movement), movement
        self.movements = movements

    def movement_of(self, section: str) -> Movement:
        """The movement of ``section``; a :class:`~bridgescore.errors.NotThisTableError`
        naming the event's sections for any other."""
        return which_section(self.movements, section)

    def stored_section(self, section: str) -> str:
        """The section name ``section``'s results are stored under: ``""`` in an event
        of one section, else its own name."""
        return stored_section(self.movements, section)

    def swiss_progress(self) -> SwissProgress | None:
        """A Swiss's rounds drawn and rounds to play (a :class:`SwissProgress`), or
        ``None`` for any other event."""
        if not self._swiss:
            return None
        from bridgescore.session.scoring.swiss import SwissPlan

        self._follow_changes()
        with self._using() as store:
            text = store.swiss_plan
        if text is None:
            return None
        return SwissProgress(self.movement.rounds, SwissPlan.from_json(text).rounds)

    def draw_swiss_round(self, *, who: str) -> SwissDrawn:
        """Draw the next round of a Swiss teams event
        (:func:`~bridgescore.session.live.swiss.draw_next_round`): the round drawn (its
        ``as_dict()``: as ``session draw --json`` prints it). The tables see it at once."""
        from bridgescore.session.live.swiss import draw_next_round

        with self._using() as store:
            movement, drawn = draw_next_round(store, who=who)
            self._use_movement(movement)
        return drawn

    def add_late_pair(
        self, *, from_round: int, name: str | None = None, section: str | None = None, who: str
    ) -> LateJoin:
        """Seat a late pair (:func:`~bridgescore.session.live.changes.add_late_pair`): the
        pair seated (its ``as_dict()``: ``session add-pair --json``'s document). The
        tables see it at once."""
        from bridgescore.session.live.changes import add_late_pair

        with self._using() as store:
            movement, joined = add_late_pair(
                store, from_round=from_round, name=name, section=section, who=who
            )
            self._use_movement(movement)
        return joined

    def swap_table(
        self, *, table: int, round: int, section: str | None = None, who: str
    ) -> Swapped:
        """Exchange NS and EW at a table for a round, its results credited to the pairs as
        they sat (:func:`~bridgescore.session.live.changes.swap_table`): the table swapped
        (its ``as_dict()``: ``session swap --json``'s document)."""
        from bridgescore.session.live.changes import swap_table

        with self._using() as store:
            movement, swapped = swap_table(
                store, table=table, round=round, section=section, who=who
            )
            self._use_movement(movement)
        return swapped

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._store.close()
                with self._token_lock:
                    self._watch.close()

    @contextmanager
    def _using(self) -> Iterator[LiveStore]:
        """The store, under the lock; a closed LiveEvent is an error, not a crash."""
        with self._lock:
            if self._closed:
                raise RecordError(f"the live event {self.path!r} has been closed")
            # A full disk or a file made read-only mid-session: a StorageError, and the
            # write's transaction rolled back (nothing of it stored).
            with storage_errors(self.path):
                yield self._store

    # ------------------------------------------------------------ who is asking

    def version(self) -> int:
        """A number that changes whenever anything is committed to the event file, by
        this process or another (SQLite's ``data_version``): a page drawn from the file
        stays right while it does not change. Read without waiting for the writer."""
        with self._token_lock:
            if self._closed:
                raise RecordError(f"the live event {self.path!r} has been closed")
            return self._watch.data_version()

    def table_for_token(self, token: str) -> tuple[str, int] | None:
        """The (section, table) whose token this is, or ``None``. Every stored digest
        is compared, in constant time, so the answer's timing tells nothing."""
        if not isinstance(token, str) or not token:
            return None
        digest = token_digest(token)
        found = None
        with self._token_lock:
            if self._closed:
                return None
            version = self._watch.data_version()
            if version != self._seen_version:
                self._tokens = self._watch.table_token_digests()
                self._seen_version = version
                self._reread_movement()
            tokens = self._tokens
        for table, stored in tokens.items():
            if hmac.compare_digest(digest, stored):
                found = table
        return found

    def check_director_password(self, password: str) -> bool:
        """Whether ``password`` is the director's (scrypt, constant-time compare)."""
        with self._using():
            stored = self._store.director_password
        return stored is not None and isinstance(password, str) and stored.verify(password)

    def open_director_session(self) -> str:
        """A new director login token (kept hashed), valid for 12 hours."""
        token = new_token()
        expires = datetime.now(UTC) + timedelta(hours=DIRECTOR_LOGIN_HOURS)
        with self._using():
            self._store.add_director_login(
                token_digest(token), expires.isoformat(timespec="seconds")
            )
        return token

    def end_director_session(self, token: str) -> None:
        """Log the director out: the login token is refused from now on."""
        if not isinstance(token, str) or not token:
            return
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self._using():
            self._store.expire_director_login(token_digest(token), now)

    def director_for_token(self, token: str) -> bool:
        """Whether ``token`` is a director login that has not expired."""
        if not isinstance(token, str) or not token:
            return False
        self._follow_changes()  # the director's pages show the movement as the file has it
        with self._using():
            expires = self._store.director_login_expiry(token_digest(token))
        if expires is None:
            return False
        return datetime.now(UTC) < datetime.fromisoformat(expires)

    # ------------------------------------------------------------ the event

    def set_pair_name(
        self,
        pair: str,
        name: str | Sequence[str],
        section: str | None = None,
        *,
        who: str = "director",
    ) -> None:
        """Name the players of a pair (or team) of ``section`` (``None``: the first, the
        only one of a one-section event): ``["Ann Smith", "Bob Jones"]`` (players.py).
        Kept under :func:`~bridgescore.session.scoring.event.participant_key`: section
        B's pair 1N as ``B:1N``, a one-section event's as ``1N``."""
        movement = self.movement if section is None else self.movement_of(section)
        if pair not in movement.pairs:
            whose = f"section {movement.section}'s" if len(self.movements) > 1 else "the"
            raise MovementError(
                f"pair {quoted(pair)} is not in {whose} movement: expected one of "
                f"{', '.join(movement.pairs)}"
            )
        key = participant_key(self.stored_section(movement.section), pair)
        with self._using():
            self._store.set_members({key: players_named(name)}, who=who)

    def players(self) -> dict[str, tuple[Member, ...]]:
        """Every pair's (or team's) players as the file keeps them, by
        :func:`~bridgescore.session.scoring.event.participant_key` (``B:1N``, ``1N``)."""
        with self._using():
            return self._store.members()

    def section_players(self, section: str | None = None) -> dict[str, tuple[Member, ...]]:
        """The players of each named pair of ``section`` (``None``: the first), by the
        pair's label in its movement (``1N``)."""
        movement = self.movement if section is None else self.movement_of(section)
        stored = self.stored_section(movement.section)
        members = self.players()
        named = {pair: players_of(members, stored, pair) for pair in movement.pairs}
        return {pair: players for pair, players in named.items() if players}

    def pair_names(self, section: str | None = None) -> dict[str, str]:
        """Each named pair of ``section`` (``None``: the first) and its players as the
        pages show them: ``{"1N": "Ann Smith & Bob Jones"}``."""
        return {
            pair: " & ".join(map(str, players))
            for pair, players in self.section_players(section).items()
        }

    @property
    def club(self) -> str:
        with self._using():
            return self._store.club

    def set_club(self, club: str) -> None:
        with self._using():
            self._store.set_info(club=club_name(club))

    def hide_ranking(self, hidden: bool = True) -> None:
        with self._using():
            self._store.set_flags(ranking_hidden=hidden)

    def close_session(self, *, who: str = "director", reason: str = "") -> bool:
        """Close the session: tables can enter nothing more (the director still can).
        Logged with ``who``; False when it was closed already."""
        with self._using():
            return self._store.close_session(who=who, reason=reason)

    def reopen_session(self, *, who: str = "director", reason: str = "") -> bool:
        """Open a closed session again, logged with ``who`` and ``reason``; False when
        it was not closed."""
        with self._using():
            return self._store.reopen(who=who, reason=reason)

    @property
    def closed(self) -> bool:
        with self._using():
            return self._store.closed

    @property
    def ranking_hidden(self) -> bool:
        with self._using():
            return self._store.ranking_hidden

    @property
    def name(self) -> str:
        with self._using():
            return self._store.name or Path(self.path).stem

    def vulnerability(self, board: int) -> Vulnerability:
        """The board's vulnerability: its hand record's when the event holds one that
        states it, else its number's."""
        with self._using():
            boards = self._store.boards()
        return boards[board].vulnerability if board in boards else Vulnerability.from_board(board)
