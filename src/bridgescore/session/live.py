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

Results map to pairs through the movement (:func:`~bridgescore.session.seating.pairs_at`):
in an arrow-switch round the result is stored for the pairs as they played (the
pair whose home seat is EW held the NS cards). A one-section event stores its
results without a section name, as an imported one does.

Thread safety: one SQLite connection per :class:`LiveEvent`, used under one lock,
the file in WAL mode with synchronous=FULL: each result is committed (on disk)
before :meth:`~LiveEvent.enter_result` returns, and 30 tables entering at once
queue on the lock instead of meeting "database is locked".

>>> from bridgescore.movement.model import Movement, Row
>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> m = Movement("mitchell", 1, 1, 2, (Row(1, 1, "1N", "1E", (1, 2)),))
>>> made = create_event(os.path.join(folder, "club.db"), m, name="Club")
>>> with LiveEvent(made.event) as live:
...     section, table = live.table_for_token(made.tables[0].token)
...     live.enter_result(section, table, ResultEntry(1, 1, "4S", "N", "+1"), who="table 1")
450
"""

from __future__ import annotations

import hmac
import os
import re
import secrets
import statistics
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bridgescore.core import Contract, Seat, Vulnerability
from bridgescore.deal import Card
from bridgescore.errors import (
    BridgeError,
    MovementError,
    NotThisTableError,
    RecordError,
    RoundOpenError,
    SessionClosedError,
)
from bridgescore.formats.board import Board
from bridgescore.movement.flow import NextStop, next_stops
from bridgescore.movement.model import Movement, Row
from bridgescore.notation import Result, means_passed_out, parse_result
from bridgescore.session.players import club_name, players_named
from bridgescore.session.scoring.adjustment import read_adjusted, read_reason
from bridgescore.session.scoring.event import Member, TableResult
from bridgescore.session.scoring.weighted import Weighted
from bridgescore.session.seating import pairs_at
from bridgescore.session.store.access import (
    PasswordHash,
    new_password,
    new_token,
    token_digest,
)
from bridgescore.session.store.events import Closing
from bridgescore.session.store.live import LiveStore
from bridgescore.session.store.writable import storage_errors
from bridgescore.session.visibility import has_entered, open_round, played_boards
from bridgescore.validate import is_whole_number

if TYPE_CHECKING:
    from bridgescore.session.scoring.workflow import ParSource

__all__ = [
    "DEFAULT_URL_BASE",
    "LiveEvent",
    "NewEvent",
    "ResultEntry",
    "TableAccess",
    "check_url_base",
    "create_event",
    "table_url",
]

DEFAULT_URL_BASE = "http://127.0.0.1:8000"
# A director stays logged in for an evening; a stolen login token is worthless after.
DIRECTOR_LOGIN_HOURS = 12
# How much of a rejected field a message quotes: enough to see it, never a whole body.
_QUOTED = 40
_LONGEST_FIELD = 20
_RESULT = re.compile(r"=|[+-][0-9]{1,2}")


@dataclass(frozen=True, slots=True)
class TableAccess:
    """One table's secret: its section and number, its token and the link to its page."""

    section: str
    table: int
    token: str
    url: str


@dataclass(frozen=True, slots=True)
class NewEvent:
    """What :func:`create_event` made: the event file, the director password (shown
    once: only its hash is kept) and each table's access."""

    event: str
    director_password: str
    tables: tuple[TableAccess, ...]

    def as_dict(self) -> dict[str, Any]:
        """The ``session new --json`` document."""
        return {
            "event": self.event,
            "director_password": self.director_password,
            "tables": [
                {"section": t.section, "table": t.table, "token": t.token, "url": t.url}
                for t in self.tables
            ],
        }


def table_url(url_base: str, token: str) -> str:
    """The link a table's phone opens: ``{url_base}/table?token=...``.

    >>> table_url("https://club.example/", "abc")
    'https://club.example/table?token=abc'
    """
    return f"{url_base.rstrip('/')}/table?token={token}"


def check_url_base(url_base: object) -> None:
    """Refuse a URL base the tables' phones could not open (a :class:`RecordError`)."""
    if not isinstance(url_base, str) or not re.fullmatch(r"https?://[^\s?#]+", url_base):
        raise RecordError(
            f"URL base {_quoted(url_base)} is not a web address: expected http://host:port "
            "or https://host (where the tables' phones reach the live server)"
        )


def create_event(
    path: str | Path,
    movement: Movement,
    *,
    name: str | None = None,
    url_base: str = DEFAULT_URL_BASE,
) -> NewEvent:
    """Make a new event file at ``path`` from ``movement``, with a token for each table
    that plays and a director password.

    The file appears whole or not at all (it is written under a temporary name and
    linked into place), and an existing file is never overwritten: a
    :class:`~bridgescore.errors.RecordError` names it. A teams movement makes a
    teams event.
    """
    if not isinstance(movement, Movement):
        raise MovementError(f"expected a Movement, got {type(movement).__name__}")
    check_url_base(url_base)
    target = Path(path)
    if target.exists() or target.is_symlink():
        raise RecordError(
            f"{str(target)!r} already exists: an event is made once (choose another file, "
            "or remove this one if it is no longer wanted)"
        )
    if not target.parent.is_dir():
        raise RecordError(
            f"cannot create {str(target)!r}: there is no folder {str(target.parent)!r}"
        )
    tables = sorted({row.table for row in movement.rows})
    tokens = {table: new_token() for table in tables}
    password = new_password()
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(8)}.new")
    try:
        with LiveStore(temporary, mode="create") as store:
            store.set_movement(movement)
            store.set_info(name=name or target.stem)
            store.set_url_base(url_base)
            store.set_table_tokens(
                movement.section, {table: token_digest(token) for table, token in tokens.items()}
            )
            store.set_director_password(PasswordHash.make(password))
        try:
            # link, not rename: it refuses to replace a file made meanwhile.
            os.link(temporary, target)
        except FileExistsError:
            raise RecordError(f"{str(target)!r} already exists: it was made meanwhile") from None
        except OSError:
            # A file system without hard links (FAT, some network shares): rename, which
            # could only replace a file made in the instant since the check above.
            _rename_new(temporary, target)
    finally:
        for leftover in (temporary, *(Path(f"{temporary}{s}") for s in ("-wal", "-shm"))):
            leftover.unlink(missing_ok=True)
    access = tuple(
        TableAccess(movement.section, table, token, table_url(url_base, token))
        for table, token in tokens.items()
    )
    return NewEvent(str(path), password, access)


def _rename_new(temporary: Path, target: Path) -> None:
    if target.exists():
        raise RecordError(f"{str(target)!r} already exists: it was made meanwhile")
    try:
        os.rename(temporary, target)
    except OSError as error:
        raise RecordError(f"cannot create {str(target)!r}: {error.strerror}") from None


@dataclass(frozen=True, slots=True)
class ResultEntry:
    """One board as a table enters it: round, board, contract (``4SX``, ``3NT``,
    ``PASS``), declarer (``N``/``E``/``S``/``W``; ``None`` for ``PASS``), result
    (``=``, ``+1``, ``-2``; ``None`` for ``PASS``) and the opening lead (``HQ``).

    Made with :meth:`parse` from a request's JSON, or directly (checked the same way).
    """

    round: int
    board: int
    contract: str
    declarer: str | None
    result: str | None
    lead: str | None = None

    def __post_init__(self) -> None:
        # One check for both ways in: the normalised fields replace what was given.
        checked = _checked(self.as_dict())
        for name, value in checked.items():
            object.__setattr__(self, name, value)

    @classmethod
    def parse(cls, data: Mapping[str, object]) -> ResultEntry:
        """The entry a request body gives; a :class:`~bridgescore.errors.RecordError`
        naming the field for anything malformed or impossible (``7NT`` ``+1``,
        ``1S`` ``-8``, a declarer missing for a contract or given for ``PASS``)."""
        if not isinstance(data, Mapping):
            raise RecordError(
                f"a result must be a JSON object with round, board, contract, declarer and "
                f"result, got {type(data).__name__}"
            )
        return cls(
            data.get("round"),  # type: ignore[arg-type]
            data.get("board"),  # type: ignore[arg-type]
            data.get("contract"),  # type: ignore[arg-type]
            data.get("declarer"),  # type: ignore[arg-type]
            data.get("result"),  # type: ignore[arg-type]
            data.get("lead"),  # type: ignore[arg-type]
        )

    @property
    def played(self) -> Result:
        """The result as a value: ``Result.parse('4SN+1')``, or a passed-out board."""
        if self.declarer is None:
            return Result(None)
        return parse_result(f"{self.contract}{self.declarer}{self.result}")

    def table_result(self, ns: str, ew: str, *, section: str = "") -> TableResult:
        return TableResult(self.board, ns, ew, result=self.played, section=section)

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "board": self.board,
            "contract": self.contract,
            "declarer": self.declarer,
            "result": self.result,
            "lead": self.lead,
        }


def _quoted(value: object) -> str:
    return repr(value)[:_QUOTED]


def _whole(value: object, field: str) -> int:
    # JSON numbers and digit strings; never a bool (True is an int to Python).
    number = None
    if is_whole_number(value):
        number = value
    elif isinstance(value, str):
        text = value.strip()
        number = int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else None
    if number is None or number < 1 or number > 999_999:
        raise RecordError(
            f"{field}: {_quoted(value)} is not a {field} number: expected a whole number "
            "from 1 to 999999"
        )
    return number


def _text(value: object, field: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise RecordError(f"{field}: {_quoted(value)} is not text")
    # No contract, seat, result or card is longer; a message never quotes a whole body.
    if len(value) > _LONGEST_FIELD:
        raise RecordError(f"{field}: {_quoted(value)}... is too long to be a {field}")
    return value.strip() or None


def _checked(data: Mapping[str, object]) -> dict[str, Any]:
    round_number = _whole(data.get("round"), "round")
    board = _whole(data.get("board"), "board")
    contract_text = _text(data.get("contract"), "contract")
    declarer = _text(data.get("declarer"), "declarer")
    result = _text(data.get("result"), "result")
    lead = _text(data.get("lead"), "lead")
    if contract_text is None:
        raise RecordError("contract: missing: expected a contract such as 4SX or 3NT, or PASS")
    if means_passed_out(contract_text):
        for field, value in (("declarer", declarer), ("result", result), ("lead", lead)):
            if value is not None:
                raise RecordError(
                    f"{field}: {_quoted(value)} given for a passed-out board: PASS has no {field}"
                )
        return {
            "round": round_number,
            "board": board,
            "contract": "PASS",
            "declarer": None,
            "result": None,
            "lead": None,
        }
    try:
        contract = Contract.parse(contract_text)
    except BridgeError as error:
        raise RecordError(f"contract: {error}") from None
    if contract.declarer is not None:
        raise RecordError(
            f"contract: {_quoted(contract_text)} names its declarer: give the contract alone "
            "(4SX) and the declarer in 'declarer'"
        )
    if declarer is None:
        raise RecordError(f"declarer: missing for {contract}: expected N, E, S or W")
    if declarer.upper() not in ("N", "E", "S", "W"):
        raise RecordError(f"declarer: {_quoted(declarer)} is not a seat: expected N, E, S or W")
    seat = Seat.parse(declarer)
    if result is None:
        raise RecordError(f"result: missing for {contract}: expected =, +1, -2 ...")
    if not _RESULT.fullmatch(result):
        raise RecordError(
            f"result: {_quoted(result)} is not a result: expected = (made exactly), +k "
            "(overtricks) or -k (undertricks)"
        )
    outcome = "=" if result in ("=", "+0", "-0", "+00", "-00") else f"{int(result):+d}"
    try:
        parse_result(f"{contract}{seat}{outcome}")
    except BridgeError as error:
        raise RecordError(f"result: {error}") from None
    card = None
    if lead is not None:
        try:
            card = str(Card.parse(lead))
        except BridgeError as error:
            raise RecordError(f"lead: {error}") from None
    return {
        "round": round_number,
        "board": board,
        "contract": str(contract),
        "declarer": str(seat),
        "result": outcome,
        "lead": card,
    }


class LiveEvent(Closing):
    """An event file opened for a live session (made by :func:`create_event`).

    Every method may be called from any thread: they run one at a time on one
    connection. Use as a context manager, or call :meth:`close`.
    """

    def __init__(self, path: str | Path) -> None:
        self._lock = threading.RLock()
        self._store = LiveStore(path, mode="write")
        try:
            movement = self._store.movement
            if movement is None:
                raise RecordError(
                    f"{str(path)!r} has no movement: a live session runs on an event made "
                    "by 'bridgescore session new'"
                )
        except BaseException:
            self._store.close()
            raise
        self.path = str(path)
        self._closed = False
        self.movement: Movement = movement
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
        self._stops = next_stops(movement)

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
        with self._using():
            expires = self._store.director_login_expiry(token_digest(token))
        if expires is None:
            return False
        return datetime.now(UTC) < datetime.fromisoformat(expires)

    # ---------------------------------------------------------------- tables

    def _check_table(self, section: str, table: int) -> None:
        if section != self.movement.section:
            raise NotThisTableError(
                f"section {_quoted(section)} is not this event's: expected "
                f"{self.movement.section!r}"
            )
        if not is_whole_number(table):
            raise NotThisTableError(f"table {_quoted(table)} is not a table number")
        if not any(row.table == table for row in self.movement.rows):
            raise NotThisTableError(f"table {table} plays no round in this movement")

    def table_view(self, section: str, table: int) -> dict[str, Any]:
        """The table's rounds: ``{"section", "table", "rounds": [{"round", "ns", "ew",
        "boards", "entered", "arrow_switch", "results", "next"}]}``.

        ``ns``/``ew`` are the pairs' home seats (as the table card shows them);
        ``arrow_switch`` says they play the other direction's cards that round;
        ``entered`` lists the boards with a stored outcome; ``results`` shows each
        (``{"board", "result", "score_ns", "lead"}``, ``score_ns`` ``None`` for an
        adjusted score or a board not played); ``next`` says where the NS pair and the
        EW pair go for the next round (``{"table", "direction"}``, ``None`` when sitting
        out) and where the boards go: ``boards_to``, the table that plays them next
        (``None``: none does), and ``boards``, each set's stop (``[{"boards", "to",
        "tables"}]``, ``to`` being ``table 4``, ``relay: tables 3 and 4``, ``bye stand``
        or ``collect``);
        ``next`` is ``None`` after the last round.
        """
        self._check_table(section, table)
        rows = [row for row in self.movement.rows if row.table == table]
        keys = {
            (row.round, board): ("", board, *pairs_at(self.movement, table, row.round, board))
            for row in rows
            for board in row.boards
        }
        with self._using():
            stored = self._store.outcomes_of(keys.values())
            leads = self._store.leads()
            boards = self._store.boards()
        rounds = []
        for row in rows:
            shown = []
            for board in row.boards:
                key = keys[(row.round, board)]
                if key in stored:
                    result = stored[key]
                    shown.append(
                        {
                            "board": board,
                            "result": "not played" if result is None else result.describe(),
                            "score_ns": None
                            if result is None
                            else result.ns_score(_vulnerability(boards, board)),
                            "lead": leads.get(key),
                        }
                    )
            rounds.append(
                {
                    "round": row.round,
                    "ns": row.ns,
                    "ew": row.ew,
                    "boards": list(row.boards),
                    "entered": [item["board"] for item in shown],
                    "arrow_switch": self.movement.is_arrow_switched(row.round),
                    "results": shown,
                    "next": self._next(row, self._stops),
                }
            )
        return {"section": section, "table": table, "rounds": rounds}

    def _next(self, row: Row, stops: Mapping[tuple[int, int], tuple[NextStop, ...]]) -> Any:
        if row.round >= self.movement.rounds:
            return None
        following = self.movement.rows_in_round(row.round + 1)

        def seat_of(pair: str) -> dict[str, Any] | None:
            for place in following:
                if pair in place.pairs:
                    return {"table": place.table, "direction": "NS" if place.ns == pair else "EW"}
            return None

        stops_here = stops.get((row.round, row.table), ())
        return {
            "ns": seat_of(row.ns),
            "ew": seat_of(row.ew),
            # The first table the boards go to (a relay's first), None: the bye stand or
            # collected; "boards" says it all, set by set.
            "boards_to": next((stop.tables[0] for stop in stops_here if stop.tables), None),
            "boards": [
                {"boards": list(stop.boards), "to": str(stop), "tables": list(stop.tables)}
                for stop in stops_here
            ],
        }

    def check_entry(self, section: str, table: int, entry: ResultEntry) -> None:
        """Whether the table may enter ``entry`` now; the error :meth:`enter_result`
        would raise (but for a board already entered), without storing anything: the
        confirmation page asks before it shows the score."""
        self._check_table(section, table)
        pairs_at(self.movement, table, entry.round, entry.board)
        with self._using():
            self._refuse_now(table, entry.round)

    def _refuse_now(self, table: int, round_number: int) -> None:
        # Under the lock: the session closed, or an earlier round of this table still open.
        if self._store.closed:
            raise SessionClosedError(
                "the session is closed: results are entered by the director now"
            )
        found = open_round(self.movement, table, round_number, self._store.stored_keys())
        if found is not None:
            earlier, missing = found
            listed = ", ".join(str(board) for board in missing)
            boards = f"board {listed} has" if len(missing) == 1 else f"boards {listed} have"
            raise RoundOpenError(
                f"round {earlier} is still open at table {table}: {boards} no result "
                f"yet; enter round {earlier} before round {round_number} (or ask the director)"
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
        self._check_table(section, table)
        ns, ew = pairs_at(self.movement, table, entry.round, entry.board)
        result = entry.table_result(ns, ew)
        with self._using():
            self._refuse_now(table, entry.round)
            self._store.enter(result, who=who, lead=entry.lead)
            boards = self._store.boards()
        return _score(result, _vulnerability(boards, result.board))

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
        self._check_table(section, table)
        reason = read_reason(reason)
        ns, ew = pairs_at(self.movement, table, entry.round, entry.board)
        result = entry.table_result(ns, ew)
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
        self._check_table(section, table)
        round_number = _whole(round, "round")
        board = _whole(board, "board")
        reason = read_reason(reason)
        ns, ew = pairs_at(self.movement, table, round_number, board)
        result: TableResult | None
        if isinstance(award, Weighted):
            result = TableResult(board, ns, ew, weighted=award)
        else:
            adjusted = read_adjusted(award)
            result = None if adjusted is None else TableResult(board, ns, ew, adjusted=adjusted)
        shown = "not played" if result is None else result.describe()
        with self._using():
            self._store.set_outcome(
                ("", board, ns, ew), result, action="adjust", who=who, reason=reason
            )
        return shown

    # -------------------------------------------------------------- director

    def progress(self) -> list[dict[str, Any]]:
        """Each table's progress: ``{"section", "table", "current_round", "late",
        "rounds": [{"round", "entered", "due"}]}``. ``current_round`` is the first round
        with a board still to enter (``None`` once all are in); a table is ``late``
        when it is a round or more behind the median table."""
        with self._using():
            outcomes = self._store.stored_keys()
        tables: dict[int, list[dict[str, int]]] = {}
        for row in self.movement.rows:
            entered = sum(
                ("", board, *pairs_at(self.movement, row.table, row.round, board)) in outcomes
                for board in row.boards
            )
            tables.setdefault(row.table, []).append(
                {"round": row.round, "entered": entered, "due": len(row.boards)}
            )
        current = {
            table: next((r["round"] for r in rounds if r["entered"] < r["due"]), None)
            for table, rounds in tables.items()
        }
        # A finished table counts as one round past the last, so it is never "behind".
        position = {t: self.movement.rounds + 1 if c is None else c for t, c in current.items()}
        median = statistics.median(position.values()) if position else 0
        return [
            {
                "section": self.movement.section,
                "table": table,
                "current_round": current[table],
                "late": median - position[table] >= 1,
                "rounds": rounds,
            }
            for table, rounds in sorted(tables.items())
        ]

    def audit(self) -> list[dict[str, Any]]:
        """The audit log, oldest first: ``{"entry", "at", "who", "action", "board",
        "ns", "ew", "old", "new", "reason"}`` (``old`` ``None`` for a first entry)."""
        with self._using():
            entries = self._store.audit_log()
        return [
            {
                "entry": e.entry,
                "at": e.at,
                "who": e.who,
                "action": e.action,
                "section": e.section,
                "board": e.board,
                "ns": e.ns,
                "ew": e.ew,
                "old": e.old or None,
                "new": e.new,
                "reason": e.reason,
            }
            for e in entries
        ]

    def score(self, *, pars: ParSource = "none") -> Any:
        """The event scored as ``bridgescore session score`` scores it (a
        :class:`~bridgescore.session.scoring.scorer.SessionScore`); before the first result,
        an empty ranking (where ``session score`` says there is nothing to score).
        ``pars="stored"``: the boards' pars from the double-dummy tables in the file."""
        from bridgescore.session.scoring.methods import ScoringOptions
        from bridgescore.session.scoring.scorer import SessionScore
        from bridgescore.session.scoring.workflow import score_stored_event, stored_method

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

    def ranking(self) -> dict[str, Any]:
        """Exactly the document ``bridgescore session score EVENT --json`` prints."""
        from bridgescore.session.reports.text import as_dict

        # The travellers are left out before as_dict writes them, not after.
        data = as_dict(replace(self.score(), travellers=()))
        del data["travellers"]
        return data

    def report(self, *, public: bool = False) -> dict[str, Any]:
        """The ranking and the travellers: ``bridgescore session report EVENT --json``
        without pars; ``public``: only the travellers of :meth:`played_boards`."""
        from bridgescore.session.reports.text import as_dict

        return as_dict(self.public_score() if public else self.score())

    def public_score(self) -> Any:
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
            return played_boards(self.movement, self._store.stored_keys())

    def has_entered(self, section: str, table: int, board: int) -> bool:
        """Whether ``table`` has a result (or a director's decision) for ``board``: from
        then on it may see the board's traveller."""
        self._check_table(section, table)
        with self._using():
            return has_entered(self.movement, table, board, self._store.stored_keys())

    def traveller(self, board: int) -> dict[str, Any]:
        """One board's traveller as the JSON report writes it
        (:func:`~bridgescore.session.reports.text.traveller_dict`): each line so far with its
        points (in ``unit``: ``MP``, ``IMP``...), and the deal, its double-dummy table
        and par when the event has the hand record. A board no one has entered yet has
        no lines. A :class:`~bridgescore.errors.RecordError` for a board the movement
        does not have."""
        from bridgescore.session.reports.text import traveller_dict
        from bridgescore.session.scoring.pars import board_pars
        from bridgescore.session.scoring.scorer import Traveller

        record = self.hand_record(board)
        scored = self.score(pars="stored")
        found = next((t for t in scored.travellers if t.board.number == board), None)
        if found is None:
            from bridgescore.formats.board import Board

            known = board_pars({board: record or Board(board)}, solve=False).pars.get(board)
            found = Traveller(
                record or Board(board),
                "",
                (),
                par=None if known is None else known.score,
                par_text="" if known is None else known.text,
            )
        return {**traveller_dict(found), "unit": scored.unit}

    def hand_record(self, board: int) -> Any:
        """The board's hand record (a :class:`~bridgescore.formats.board.Board` with its
        double-dummy table and par, as the results site shows it), or ``None`` when the
        event has no deal for it. A missing double-dummy table is solved once (DDS,
        when installed) and kept in the event file."""
        from bridgescore.session.reports.site import hand_record
        from bridgescore.session.scoring.pars import board_pars

        if not any(board in row.boards for row in self.movement.rows):
            raise RecordError(f"board {_quoted(board)} is not a board of this event")
        with self._using():
            record = self._store.boards().get(board)
            if record is not None and record.deal is not None and record.dd_table is None:
                for number, table in board_pars({board: record}).solved.items():
                    self._store.set_dd_table(number, table)
                record = self._store.boards().get(board)
        return None if record is None else hand_record(record)

    def set_pair_name(self, pair: str, name: str | Sequence[str]) -> None:
        """Name the players of a pair (or team): ``["Ann Smith", "Bob Jones"]`` (players.py)."""
        if pair not in self.movement.pairs:
            raise MovementError(
                f"pair {_quoted(pair)} is not in the movement: expected one of "
                f"{', '.join(self.movement.pairs)}"
            )
        with self._using():
            self._store.set_members({pair: players_named(name)})

    def players(self) -> dict[str, tuple[Member, ...]]:
        with self._using():
            return self._store.members()

    def pair_names(self) -> dict[str, str]:
        return {pair: " & ".join(map(str, players)) for pair, players in self.players().items()}

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

    def close_session(self) -> None:
        """Close the session: tables can enter nothing more (the director still can)."""
        with self._using():
            self._store.set_flags(closed=True)

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


def _vulnerability(boards: Mapping[int, Board], number: int) -> Vulnerability | None:
    """The board's vulnerability where the event's hand records state it (else None:
    the number's)."""
    board = boards.get(number)
    return None if board is None else board.vulnerable


def _score(result: TableResult, vulnerability: Vulnerability | None) -> int:
    # A played or passed-out board always has a score; adjusted ones never come here.
    score = result.ns_score(vulnerability)
    return 0 if score is None else score
