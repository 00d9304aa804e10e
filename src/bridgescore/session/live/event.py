"""A live club session: tables enter results by round and board, the director corrects.

The workflow the live web server (``bridgescore session live``) stands on; it has no
HTTP in it. :func:`create_event` makes an event file from a movement, with one
secret token per table and a director password (both shown once, stored hashed:
see :mod:`~bridgescore.session.store.access`). :class:`LiveEvent` opens it for the
evening:

- a table, known by its token (:meth:`LiveEvent.table_for_token`), sees its rounds
  (:meth:`~LiveEvent.table_view`) and enters each board once
  (:meth:`~LiveEvent.enter_result`);
- the director, known by the password and then a login token, corrects results,
  gives adjusted scores, names pairs, hides the ranking, closes the session;
- every result entered, changed or adjusted is in the append-only audit log, with
  who did it.

Results map to pairs through the movement (:func:`~bridgescore.session.live.seating.pairs_at`):
in an arrow-switch round the result is stored for the pairs as they played (the
pair whose home seat is EW held the NS cards). A one-section event stores its
results without a section name, as an imported one does.

Thread safety: one SQLite connection per :class:`LiveEvent`, used under one lock,
the file in WAL mode with synchronous=FULL: each result is committed (on disk)
before :meth:`~LiveEvent.enter_result` returns, and 30 tables entering at once
queue on the lock instead of meeting "database is locked". The server stores the
results waiting together in one transaction (:meth:`~LiveEvent.enter_results`): one
fsync for the lot instead of one each.

>>> from bridgescore.movement.model import Movement, Row
>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> m = Movement("mitchell", 1, 1, 2, (Row(1, 1, "1N", "1E", (1, 2)),))
>>> from bridgescore.session.live.creation import create_event
>>> from bridgescore.notation import Result
>>> made = create_event(os.path.join(folder, "club.db"), m, name="Club")
>>> with LiveEvent(made.event) as live:
...     section, table = live.table_for_token(made.tables[0].token)
...     live.enter_result(section, table, ResultEntry(1, 1, Result.parse("4SN+1")), who="table 1")
450
"""

from __future__ import annotations

import hmac
import statistics
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from bridgescore.board import Board
from bridgescore.core import Vulnerability
from bridgescore.deal import Card
from bridgescore.errors import (
    BridgeError,
    MovementError,
    NotThisTableError,
    RecordError,
    RoundOpenError,
    SessionClosedError,
)
from bridgescore.movement.flow import next_stops
from bridgescore.movement.model import Movement, partnership_players
from bridgescore.session.leads import FieldLead, LeadCost
from bridgescore.session.live.documents import (
    AuditLine,
    EnteredResult,
    LiveReport,
    LiveTraveller,
    NextMove,
    RoundProgress,
    SwissProgress,
    TableProgress,
    TableRound,
    TableView,
)
from bridgescore.session.live.entry import ResultEntry, whole_number
from bridgescore.session.live.players import club_name, players_named
from bridgescore.session.live.seating import pairs_at
from bridgescore.session.live.sections import stored_section, which_section
from bridgescore.session.live.visibility import has_entered, open_round, played_boards
from bridgescore.session.scoring.adjustment import read_adjusted, read_reason
from bridgescore.session.scoring.event import Member, TableResult, participant_key, players_of
from bridgescore.session.scoring.weighted import Weighted
from bridgescore.session.store.access import new_token, token_digest
from bridgescore.session.store.events import Closing
from bridgescore.session.store.live import Entering, LiveStore
from bridgescore.session.store.writable import storage_errors
from bridgescore.validate import is_whole_number, quoted

if TYPE_CHECKING:
    # Loaded when the director changes the night, not when a table's phone enters a result.
    from bridgescore.session.live.changes import LateJoin, Swapped
    from bridgescore.session.live.swiss import SwissDrawn
    from bridgescore.session.scoring.scored import ScoredBoard, SessionScore
    from bridgescore.session.workflow import ParSource


__all__ = ["LiveEvent", "TableEntry"]

# A director stays logged in for an evening; a stolen login token is worthless after.
DIRECTOR_LOGIN_HOURS = 12


@dataclass(frozen=True, slots=True)
class TableEntry:
    """A table's result waiting to be stored (:meth:`LiveEvent.enter_results`): the
    section and table, what the table entered, and who the audit log names."""

    section: str
    table: int
    entry: ResultEntry
    who: str


class LiveEvent(Closing):
    """An event file opened for a live session (made by :func:`create_event`): the
    connection, who is asking (a table's token, the director's password and logins),
    the event's names, players and flags, the tables' results, the director's changes
    and the scores.

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

    def _follow_changes(self) -> dict[tuple[str, int], str] | None:
        """The movement and tokens as the file has them now (another process may have
        drawn a round, seated a late pair, swapped a table or reissued a link): the
        tokens' digests, or ``None`` once the event is closed."""
        with self._token_lock:
            if self._closed:
                return None
            version = self._watch.data_version()
            if version != self._seen_version:
                self._tokens = self._watch.table_token_digests()
                self._seen_version = version
                self._reread_movement()
            return self._tokens

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
        tokens = self._follow_changes()
        if tokens is None:
            return None
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
        B's pair 1N as ``B:1N``, a one-section event's as ``1N``. An individual's players
        are named one by one, by number (``"3"``, ``["Cy Dee"]``)."""
        movement = self.movement if section is None else self.movement_of(section)
        named = movement.players if movement.kind == "individual" else movement.pairs
        if pair not in named:
            whose = f"section {movement.section}'s" if len(self.movements) > 1 else "the"
            what = "player" if movement.kind == "individual" else "pair"
            raise MovementError(
                f"{what} {quoted(pair)} is not in {whose} movement: expected one of "
                f"{', '.join(named)}"
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
        pair's label in its movement (``1N``); an individual's named players by number."""
        movement = self.movement if section is None else self.movement_of(section)
        stored = self.stored_section(movement.section)
        members = self.players()
        labels = movement.players if movement.kind == "individual" else movement.pairs
        named = {pair: players_of(members, stored, pair) for pair in labels}
        return {pair: players for pair, players in named.items() if players}

    def pair_names(self, section: str | None = None) -> dict[str, str]:
        """Each named pair of ``section`` (``None``: the first) and its players as the
        pages show them: ``{"1N": "Ann Smith & Bob Jones"}``; an individual's
        partnerships by their players' names (``{"8-1": "Ann Smith & 1"}``)."""
        named = {
            pair: " & ".join(map(str, players))
            for pair, players in self.section_players(section).items()
        }
        movement = self.movement if section is None else self.movement_of(section)
        if movement.kind != "individual" or not named:
            return named
        partnerships = {}
        for pair in movement.pairs:
            players = partnership_players(pair) or ()
            if any(player in named for player in players):
                partnerships[pair] = " & ".join(named.get(player, player) for player in players)
        return {**named, **partnerships}

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

    # ---------------------------------------------------------------- tables

    def _check_table(self, section: str, table: int) -> Movement:
        """The movement of the table's section; refused for a table it does not have."""
        movement = self.movement_of(section)
        if not is_whole_number(table):
            raise NotThisTableError(f"table {quoted(table)} is not a table number")
        if not any(row.table == table for row in movement.rows):
            raise NotThisTableError(f"table {table} plays no round in this movement")
        return movement

    def table_view(self, section: str, table: int) -> TableView:
        """The table's rounds (a :class:`TableView`; ``as_dict()``: ``{"section",
        "table", "rounds": [{"round", "ns", "ew", "boards", "entered", "arrow_switch",
        "results", "next"}]}``, as ``GET /api/live/table`` sends it).

        Each :class:`TableRound` has the pairs' home seats (as the table card shows
        them), whether they play the other direction's cards that round
        (``arrow_switch``), the boards with a stored outcome (``results``, each an
        :class:`EnteredResult` whose ``score_ns`` is ``None`` for an adjusted score or a
        board not played) and the :class:`NextMove` after it: where the NS pair and the
        EW pair go for the next round (``None`` when sitting out) and where the boards
        go; ``None`` after the last round.
        """
        movement = self._check_table(section, table)
        stored_as = self.stored_section(section)
        rows = [row for row in movement.rows if row.table == table]
        keys = {
            (row.round, board): (stored_as, board, *pairs_at(movement, table, row.round, board))
            for row in rows
            for board in row.boards
        }
        with self._using():
            stored = self._store.outcomes_of(keys.values())
            leads = self._store.leads()
            boards = self._store.boards()
        stops = self._stops if movement is self.movement else next_stops(movement)

        def entered(key: tuple[str, int, str, str]) -> EnteredResult:
            result = stored[key]
            return EnteredResult(
                key[1],
                "not played" if result is None else result.describe(),
                None if result is None else result.ns_score(_vulnerability(boards, key[1])),
                leads.get(key),
            )

        rounds = tuple(
            TableRound(
                row.round,
                row.ns,
                row.ew,
                tuple(row.boards),
                movement.is_arrow_switched(row.round),
                tuple(
                    entered(keys[(row.round, board)])
                    for board in row.boards
                    if keys[(row.round, board)] in stored
                ),
                NextMove.after(movement, row, stops),
            )
            for row in rows
        )
        return TableView(section, table, rounds)

    def check_entry(self, section: str, table: int, entry: ResultEntry) -> None:
        """Whether the table may enter ``entry`` now; the error :meth:`enter_result`
        would raise (but for a board already entered), without storing anything: the
        confirmation page asks before it shows the score."""
        movement = self._check_table(section, table)
        pairs_at(movement, table, entry.round, entry.board)
        with self._using():
            self._refuse_now(section, table, entry.round)

    def _refuse_now(self, section: str, table: int, round_number: int) -> None:
        # Under the lock: the session closed, or an earlier round of this table still open.
        if self._store.closed:
            raise SessionClosedError(
                "the session is closed: results are entered by the director now"
            )
        # Only this table's earlier boards are looked up (by key), not every stored result.
        movement, stored_as = self.movement_of(section), self.stored_section(section)
        earlier = [
            (stored_as, board, *pairs_at(movement, table, row.round, board))
            for row in movement.rows
            if row.table == table and row.round < round_number
            for board in row.boards
        ]
        found = open_round(
            movement, table, round_number, self._store.stored_among(earlier), section=stored_as
        )
        if found is not None:
            earlier_round, missing = found
            listed = ", ".join(str(board) for board in missing)
            boards = f"board {listed} has" if len(missing) == 1 else f"boards {listed} have"
            raise RoundOpenError(
                f"round {earlier_round} is still open at table {table}: {boards} no result "
                f"yet; enter round {earlier_round} before round {round_number} (or ask the "
                "director)"
            )

    def enter_result(self, section: str, table: int, entry: ResultEntry, *, who: str) -> int:
        """Store a table's result (committed before this returns) and log it; returns
        the NS score.

        Raises :class:`~bridgescore.errors.NotThisTableError` for a round or board
        that is not this table's, :class:`~bridgescore.errors.RoundOpenError` while
        an earlier round of the table has a board with no result (a table moves
        through its rounds in order), :class:`~bridgescore.errors.AlreadyEnteredError`
        when the board is already entered there (changing it is the director's),
        :class:`~bridgescore.errors.SessionClosedError` once the session is closed.
        """
        (answer,) = self.enter_results([TableEntry(section, table, entry, who)])
        if isinstance(answer, BridgeError):
            raise answer
        return answer

    def enter_results(self, waiting: Sequence[TableEntry]) -> list[int | BridgeError]:
        """Store several tables' results as :meth:`enter_result` stores one, in order,
        in one transaction committed (one fsync) before this returns: a group commit.
        The answer for each is its NS score, or the error :meth:`enter_result` would
        have raised for it; a refused result leaves the others stored."""
        answers: list[int | BridgeError | None] = []
        entering: list[Entering] = []
        for item in waiting:
            try:
                result = self._table_result(item.section, item.table, item.entry)
            except BridgeError as refused:
                answers.append(refused)
                continue
            answers.append(None)
            check = partial(self._refuse_now, item.section, item.table, item.entry.round)
            entering.append(Entering(result, item.who, item.entry.lead, check))
        with self._using():
            stored = iter(self._store.enter_all(entering) if entering else [])
            boards = self._store.boards()
        results = iter(entering)
        scores: list[int | BridgeError] = []
        for answer in answers:
            if answer is not None:
                scores.append(answer)
                continue
            result = next(results).result
            outcome = next(stored)
            scores.append(
                outcome
                if isinstance(outcome, BridgeError)
                else _score(result, _vulnerability(boards, result.board))
            )
        return scores

    def _table_result(self, section: str, table: int, entry: ResultEntry) -> TableResult:
        """The result ``entry`` makes at the table, for the pairs seated there, under the
        name its section's results are stored under."""
        movement = self._check_table(section, table)
        ns, ew = pairs_at(movement, table, entry.round, entry.board)
        return entry.table_result(ns, ew, section=self.stored_section(section))

    def correct_result(
        self,
        section: str,
        table: int,
        entry: ResultEntry,
        *,
        who: str = "director",
        reason: str = "",
    ) -> int:
        """The director enters or changes a table's result (logged as ``correct``, or
        ``enter`` when the board had none, with the director's ``reason``); returns the
        NS score. Works after the session is closed."""
        reason = read_reason(reason)
        result = self._table_result(section, table, entry)
        with self._using():
            had = self._store.outcome_text(result.key) is not None
            self._store.set_outcome(
                result.key,
                result,
                action="correct" if had else "enter",
                who=who,
                reason=reason,
                lead=entry.lead,
            )
            boards = self._store.boards()
        return _score(result, _vulnerability(boards, result.board))

    def adjust(
        self,
        section: str,
        table: int,
        round: int,
        board: int,
        award: str | Weighted,
        *,
        who: str = "director",
        reason: str = "",
    ) -> str:
        """Give the board at this table an adjusted score, logged with the director's
        ``reason``: an artificial one in the words of
        :func:`~bridgescore.session.scoring.adjustment.read_adjusted` (``A+``, ``60/40``,
        ``A+/A+``, ``not played``: the board is left out of the scoring; ``Avg+`` is
        ``A+``), or a :class:`~bridgescore.session.scoring.weighted.Weighted` score (Law 12C1c).
        Returns the outcome stored, as the audit log shows it."""
        movement = self._check_table(section, table)
        round_number = whole_number(round, "round")
        board = whole_number(board, "board")
        reason = read_reason(reason)
        ns, ew = pairs_at(movement, table, round_number, board)
        stored_as = self.stored_section(section)
        result: TableResult | None
        if isinstance(award, Weighted):
            result = TableResult(board, ns, ew, weighted=award, section=stored_as)
        else:
            adjusted = read_adjusted(award)
            result = (
                None
                if adjusted is None
                else TableResult(board, ns, ew, adjusted=adjusted, section=stored_as)
            )
        shown = "not played" if result is None else result.describe()
        with self._using():
            self._store.set_outcome(
                (stored_as, board, ns, ew), result, action="adjust", who=who, reason=reason
            )
        return shown

    # -------------------------------------------------------------- director

    def progress(self) -> tuple[TableProgress, ...]:
        """Each table's progress (a :class:`TableProgress`; ``as_dict()``: ``{"section",
        "table", "current_round", "late", "rounds": [{"round", "entered", "due"}]}``), in
        section and table order. ``current_round`` is the first round with a board still
        to enter (``None`` once all are in); a table is ``late`` when it is a round or
        more behind the median table."""
        with self._using():
            outcomes = self._store.stored_keys()
        tables: dict[tuple[str, int], list[RoundProgress]] = {}
        for section, movement in self.movements.items():
            stored_as = self.stored_section(section)
            for row in movement.rows:
                entered = sum(
                    (stored_as, board, *pairs_at(movement, row.table, row.round, board)) in outcomes
                    for board in row.boards
                )
                tables.setdefault((section, row.table), []).append(
                    RoundProgress(row.round, entered, len(row.boards))
                )
        current = {
            place: next((r.round for r in rounds if r.entered < r.due), None)
            for place, rounds in tables.items()
        }
        # A finished table counts as one round past the last, so it is never "behind";
        # the median is the whole room's, every section's tables together.
        position = {
            place: self.movements[place[0]].rounds + 1 if c is None else c
            for place, c in current.items()
        }
        median = statistics.median(position.values()) if position else 0
        return tuple(
            TableProgress(
                section,
                table,
                current[(section, table)],
                median - position[(section, table)] >= 1,
                tuple(rounds),
            )
            for (section, table), rounds in sorted(tables.items())
        )

    def audit(self) -> tuple[AuditLine, ...]:
        """The audit log, oldest first (:class:`AuditLine`: ``old`` ``None`` for a first
        entry)."""
        with self._using():
            entries = self._store.audit_log()
        return tuple(AuditLine.from_entry(entry) for entry in entries)

    def score(self, *, pars: ParSource = "none") -> SessionScore:
        """The event scored as ``bridgescore session score`` scores it (a
        :class:`~bridgescore.session.scoring.scored.SessionScore`); before the first result,
        an empty ranking (where ``session score`` says there is nothing to score).
        ``pars="stored"``: the boards' pars from the double-dummy tables in the file."""
        from bridgescore.session.scoring.methods import ScoringOptions
        from bridgescore.session.scoring.scored import SessionScore
        from bridgescore.session.workflow import score_stored_event, stored_method

        with self._using():
            if self._store.has_results():
                return score_stored_event(self._store, pars=pars)
            kind, members = self._store.kind, self._store.members()
            method = stored_method(self._store)
            return SessionScore(
                self._store.name or Path(self.path).stem,
                kind,
                method.name,
                method.unit,
                ScoringOptions(),
                (),
                (),
                ("no results yet",),
                method,
                members,
            )

    def ranking(self) -> LiveReport:
        """The ranking: its ``as_dict()`` is exactly the document ``bridgescore session
        score EVENT --json`` prints."""
        # The travellers are left out before they are written, not after.
        return LiveReport(replace(self.score(), travellers=()), travellers=False)

    def report(self, *, public: bool = False) -> LiveReport:
        """The ranking and the travellers (``as_dict()``: ``bridgescore session report
        EVENT --json`` without pars); ``public``: only the travellers of
        :meth:`played_boards`."""
        return LiveReport(self.public_score() if public else self.score())

    def public_score(self) -> SessionScore:
        """:meth:`score` with the travellers of :meth:`played_boards` only: what the
        public pages (the ranking, the report, the results site) may show."""
        played = self.played_boards()
        scored = self.score()
        return replace(
            scored, travellers=tuple(t for t in scored.travellers if t.board.number in played)
        )

    def played_boards(self) -> frozenset[int]:
        """The boards that every table due to play them has a result (or a director's
        decision) for. Another board's results are hidden from the public, as a
        Bridgemate hides them: a player must not read a board before playing it."""
        with self._using():
            return played_boards(self.movements, self._store.stored_keys())

    def has_entered(self, section: str, table: int, board: int) -> bool:
        """Whether ``table`` has a result (or a director's decision) for ``board``: from
        then on it may see the board's traveller."""
        movement = self._check_table(section, table)
        stored_as = self.stored_section(section)
        with self._using():
            stored = self._store.stored_keys()
        return has_entered(movement, table, board, stored, section=stored_as)

    def field_leads(self, scored: SessionScore) -> dict[tuple[str, int], tuple[FieldLead, ...]]:
        """The opening leads made at the tables of each of ``scored``'s travellers, with
        their double-dummy costs (:func:`~bridgescore.session.leads.field_leads`), for
        the results site."""
        from bridgescore.session.leads import field_leads

        with self._using():
            leads = self._store.leads()
            boards = self._store.boards()
        return field_leads(scored.travellers, leads, boards)

    def lead_cost(self, section: str, table: int, board: int) -> LeadCost | None:
        """What the opening lead ``table`` entered with its result on ``board`` cost,
        double dummy (a :class:`~bridgescore.session.leads.LeadCost`), or ``None``: no
        lead entered, no contract (passed out, an adjusted score) or no hand record.
        Solved when first asked (one DDS all-cards search) and kept in memory, never
        in the file."""
        from bridgescore.session.leads import lead_cost

        movement = self._check_table(section, table)
        stored_as = self.stored_section(section)
        keys = [
            (stored_as, board, *pairs_at(movement, table, row.round, board))
            for row in movement.rows
            if row.table == table and board in row.boards
        ]
        with self._using():
            stored = self._store.outcomes_of(keys)
            leads = self._store.leads()
            record = self._store.boards().get(board)
        for key in keys:
            result, lead = stored.get(key), leads.get(key)
            if result is None or lead is None or result.result is None:
                continue
            contract = result.result.contract
            if contract is None or record is None or record.deal is None:
                return None
            return lead_cost(record.deal, contract, Card.parse(lead))
        return None

    def traveller(self, board: int, section: str | None = None) -> LiveTraveller:
        """One board's traveller so far (``as_dict()``: as the JSON report writes it,
        :func:`~bridgescore.session.reports.text.traveller_dict`): each line with its
        points (in ``unit``: ``MP``, ``IMP``...), and the deal, its double-dummy table
        and par when the event has the hand record. A board no one has entered yet has
        no lines. A :class:`~bridgescore.errors.RecordError` for a board the movement
        does not have. ``section``: that section's traveller when the event's sections
        are scored each on its own (else the board's one traveller, every section's lines)."""
        scored, found = self.scored_traveller(board, section)
        return LiveTraveller(found, scored.unit)

    def scored_traveller(
        self, board: int, section: str | None = None
    ) -> tuple[SessionScore, ScoredBoard]:
        """The event scored with its stored pars (a
        :class:`~bridgescore.session.scoring.scored.SessionScore`) and the board's
        :class:`~bridgescore.session.scoring.scored.ScoredBoard` in it: :meth:`traveller`'s
        lines, for the pages to draw."""
        from bridgescore.session.pars import board_pars
        from bridgescore.session.scoring.scored import ScoredBoard

        record = self.hand_record(board)
        scored = self.score(pars="stored")
        # Scored per section, each section has its own traveller of the board.
        wanted = {"", self.stored_section(section)} if section is not None else None
        found = next(
            (
                t
                for t in scored.travellers
                if t.board.number == board and (wanted is None or t.section in wanted)
            ),
            None,
        )
        if found is None:
            known = board_pars({board: record or Board(board)}, solve=False).pars.get(board)
            found = ScoredBoard(
                record or Board(board),
                "",
                (),
                par=None if known is None else known.score,
                par_text="" if known is None else known.text,
            )
        return scored, found

    def hand_record(self, board: int) -> Board | None:
        """The board's hand record (a :class:`~bridgescore.Board` with its
        double-dummy table and par, as the results site shows it), or ``None`` when the
        event has no deal for it. A missing double-dummy table is solved once (DDS,
        when installed) and kept in the event file."""
        from bridgescore.session.pars import board_pars
        from bridgescore.session.reports.site import hand_record

        if board not in self.movement.boards:
            raise RecordError(f"board {quoted(board)} is not a board of this event")
        with self._using():
            record = self._store.boards().get(board)
            if record is not None and record.deal is not None and record.dd_table is None:
                for number, table in board_pars({board: record}).solved.items():
                    self._store.set_dd_table(number, table)
                record = self._store.boards().get(board)
        return None if record is None else hand_record(record)


def _vulnerability(boards: Mapping[int, Board], number: int) -> Vulnerability | None:
    """The board's vulnerability where the event's hand records state it (else None:
    the number's)."""
    board = boards.get(number)
    return None if board is None else board.vulnerable


def _score(result: TableResult, vulnerability: Vulnerability | None) -> int:
    # A played or passed-out board always has a score; adjusted ones never come here.
    score = result.ns_score(vulnerability)
    return 0 if score is None else score
