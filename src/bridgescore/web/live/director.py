"""The director's pages of a live session: login, progress, results, changes, adjusted
scores, pair names, hiding the ranking, closing the session, the audit log.

The login is the director's password (a form with its own CSRF token, set as a cookie
too: there is no session yet to derive one from); it opens a director session whose
token is the ``bridgescore_director`` cookie. Every later form carries
:func:`~bridgescore.web.live.common.csrf_token` of that token. Wrong passwords count
against the client in the server's ``login_throttle`` (the JSON API's too).
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from bridgescore.errors import BridgeError, MovementError, RecordError, StorageError
from bridgescore.session.live.documents import AuditLine, EnteredResult
from bridgescore.session.live.entry import ResultEntry, form_number
from bridgescore.session.live.event import LiveEvent
from bridgescore.session.live.players import MAX_PLAYERS
from bridgescore.session.scoring.adjustment import ADJUSTED_WORDS, read_weighted
from bridgescore.session.scoring.event import participant_key
from bridgescore.session.scoring.weighted import Weighted
from bridgescore.web.live.common import (
    DIRECTOR_COOKIE,
    LOGIN_COOKIE,
    csrf_ok,
    csrf_token,
    director_token,
    forbidden,
    in_turn,
    live_of,
    log_director_in,
    message,
    pair_names,
    read_form,
    render,
    see,
    set_cookie,
    table_name,
)
from bridgescore.web.live.views import FORM, form_of

__all__ = ["AWARDS", "router"]

router = APIRouter(include_in_schema=False)

DIRECTOR_COOKIE_AGE = 12 * 3600

#: The adjusted scores the director may award (what LiveEvent.adjust reads) and their words.
AWARDS = ADJUSTED_WORDS
#: The rows of the weighted-score form (a weighted score has 2 to 6 parts; 3 is plenty).
WEIGHTED_ROWS = 3


def _login_page(request: Request, status: int = 200, error: str | None = None) -> HTMLResponse:
    # Before a session there is no secret to derive the form's token from: the login
    # form's token is a random value also set as a cookie (double submit).
    token = secrets.token_urlsafe(32)
    response = render(request, "director_login.html", status, csrf=token, error=error)
    set_cookie(response, request, LOGIN_COOKIE, token, 3600)
    return response


def _director_page(
    request: Request, template: str, context: Callable[[LiveEvent], Mapping[str, Any]]
) -> Response:
    """A director's page (``template`` with its ``context`` of the live event and the
    forms' CSRF token), or the login page for anyone not logged in: nothing of the
    event is read before the login is checked."""
    token = director_token(request)
    if token is None:
        return _login_page(request)
    return render(request, template, csrf=csrf_token(token), **context(live_of(request)))


@router.get("/director", response_class=HTMLResponse)
def director_page(request: Request) -> Response:
    """The director's overview: progress by table and round, late tables marked."""
    return _director_page(request, "director.html", _overview)


def _overview(live: LiveEvent) -> dict[str, Any]:
    swiss = live.swiss_progress()  # first: it follows a round drawn by 'session draw'
    tables = live.progress()
    return {
        "rounds": sorted({r.round for line in tables for r in line.rounds}),
        "tables": [
            {
                "label": table_name(live, line.section, line.table),
                "late": line.late,
                "current_round": line.current_round,
                "by_round": {r.round: r for r in line.rounds},
            }
            for line in tables
        ],
        "late": [table_name(live, t.section, t.table) for t in tables if t.late],
        "hidden": live.ranking_hidden,
        "closed": live.closed,
        "swiss": swiss,
    }


@router.post("/director/login", response_class=HTMLResponse)
async def director_login(request: Request) -> Response:
    """Check the director's password; a session cookie on success."""
    form = await read_form(request)
    expected = request.cookies.get(LOGIN_COOKIE, "")
    if not expected or not hmac.compare_digest(form.get("csrf", "").encode(), expected.encode()):
        return forbidden(request)
    outcome = await log_director_in(request, form.get("password", ""))
    if outcome.wait is not None:
        refused = _login_page(
            request, 429, f"Too many wrong passwords from this address: wait {outcome.wait} s."
        )
        refused.headers["Retry-After"] = str(outcome.wait)
        return refused
    if outcome.token is None:
        return _login_page(request, 401, "Wrong password.")
    response = see("/director")
    set_cookie(response, request, DIRECTOR_COOKIE, outcome.token, DIRECTOR_COOKIE_AGE)
    response.delete_cookie(LOGIN_COOKIE, path="/")
    return response


async def _director_form(request: Request) -> tuple[dict[str, str], Response | None]:
    """The posted form if it comes from a logged-in director's page, else the answer."""
    token = director_token(request)
    if token is None:
        return {}, _login_page(request, 401, "Log in first (the session may have expired).")
    form = await read_form(request)
    if not csrf_ok(form, token):
        return form, forbidden(request)
    return form, None


@router.post("/director/logout", response_class=HTMLResponse)
async def director_logout(request: Request) -> Response:
    """End the director's login: the session token is refused from now on."""
    _, refused = await _director_form(request)
    if refused is not None:
        return refused
    live_of(request).end_director_session(request.cookies.get(DIRECTOR_COOKIE, ""))
    response = see("/director")
    response.delete_cookie(DIRECTOR_COOKIE, path="/")
    return response


@dataclass(frozen=True, slots=True)
class BoardCell:
    """A board of a round on the results page: its number and its result (``None``: not
    entered yet)."""

    board: int
    line: EnteredResult | None


@dataclass(frozen=True, slots=True)
class ResultsRow:
    """A table's round on the results page: the section and table (``label`` as the
    pages name it), the round, the pairs' home seats and each board's cell."""

    section: str
    table: int
    label: str
    round: int
    ns: str
    ew: str
    boards: tuple[BoardCell, ...]

    def cell(self, board: int) -> BoardCell | None:
        """The board's cell, or ``None`` when the round does not play it."""
        return next((cell for cell in self.boards if cell.board == board), None)


def _rows(live: LiveEvent) -> list[ResultsRow]:
    """Every table's every round, with each board's entered result (or None), by round."""
    rows: list[ResultsRow] = []
    for line in live.progress():
        section, table = line.section, line.table
        label = table_name(live, section, table)
        for played in live.table_view(section, table).rounds:
            cells = tuple(BoardCell(board, played.result_of(board)) for board in played.boards)
            rows.append(
                ResultsRow(section, table, label, played.round, played.ns, played.ew, cells)
            )
    rows.sort(key=lambda row: (row.round, row.section, row.table))
    return rows


@router.get("/director/results", response_class=HTMLResponse)
def director_results(request: Request) -> Response:
    """Every table's results, round by round, each with a link to change it."""
    return _director_page(
        request,
        "director_results.html",
        lambda live: {"rows": _rows(live), "names": pair_names(live)},
    )


@router.get("/director/result", response_class=HTMLResponse)
def director_result(
    request: Request, table: str = "", round: str = "", board: str = "", section: str = ""
) -> Response:
    """One board at one table: its result, a form to change it, a form to adjust it."""
    token = director_token(request)
    if token is None:
        return _login_page(request)
    return _result_page(request, token, {"section": section, "table": table,
                                          "round": round, "board": board})  # fmt: skip


def _result_page(
    request: Request,
    token: str,
    form: Mapping[str, str],
    *,
    status: int = 200,
    error: str | None = None,
) -> HTMLResponse:
    live = live_of(request)
    section = form.get("section") or live.movement.section
    try:
        table, round_number, board = (form_number(form, key) for key in ("table", "round", "board"))
    except BridgeError:
        return message(
            request,
            404,
            "No such result",
            "Pick a result from the list of results.",
            back="/director/results",
        )
    row = next(
        (r for r in _rows(live) if (r.section, r.table, r.round) == (section, table, round_number)),
        None,
    )
    cell = None if row is None else row.cell(board)
    if row is None or cell is None:
        return message(
            request,
            404,
            "No such result",
            f"Table {table_name(live, section, table)} does not play board {board} in round "
            f"{round_number}.",
            back="/director/results",
        )
    return render(
        request,
        "director_result.html",
        status,
        csrf=csrf_token(token),
        row=row,
        board=board,
        line=cell.line,
        names=pair_names(live),
        error=error,
        # A form sent back with an error keeps what was sent; else it starts from the result.
        draft=form if error is not None or cell.line is None else form_of(cell.line.result),
        awards=AWARDS,
        form=FORM,
        weighted_rows=range(1, WEIGHTED_ROWS + 1),
        history=_history(live, board, row),
    )


def _history(live: LiveEvent, board: int, row: ResultsRow) -> list[AuditLine]:
    """The audit log's entries for this board at this table, oldest first, with reasons."""
    pairs, section = {row.ns, row.ew}, live.stored_section(row.section)
    return [
        e
        for e in live.audit()
        if e.board == board and {e.ns, e.ew} == pairs and e.section == section
    ]


@router.post("/director/result", response_class=HTMLResponse)
async def director_change(request: Request) -> Response:
    """Enter or change one result (audited as the director's)."""
    form, refused = await _director_form(request)
    if refused is not None:
        return refused
    token = request.cookies.get(DIRECTOR_COOKIE, "")
    live = live_of(request)
    try:
        table = form_number(form, "table")
        entry = ResultEntry.from_form(form)
        await in_turn(
            request,
            partial(
                live.correct_result,
                form.get("section") or live.movement.section,
                table,
                entry,
                who="director",
                reason=form.get("reason", ""),
            ),
        )
    except StorageError:
        raise  # the app's 507 page: not the form's fault
    except BridgeError as error:
        return _result_page(request, token, form, status=422, error=str(error))
    return see(f"/director/results#t{_name(request, form, table)}r{entry.round}")


@router.post("/director/adjust", response_class=HTMLResponse)
async def director_adjust(request: Request) -> Response:
    """Award an adjusted score (or mark the board not played) at one table."""
    form, refused = await _director_form(request)
    if refused is not None:
        return refused
    award = form.get("award", "")
    if award not in AWARDS:
        token = request.cookies.get(DIRECTOR_COOKIE, "")
        return _result_page(
            request, token, form, status=422,
            error=f"award {award!r}: expected one of {', '.join(AWARDS)}",
        )  # fmt: skip
    return await _decide(request, form, lambda: award)


@router.post("/director/weigh", response_class=HTMLResponse)
async def director_weigh(request: Request) -> Response:
    """Give a weighted score (Law 12C1c): the form's rows, each a weight and a result."""
    form, refused = await _director_form(request)
    if refused is not None:
        return refused
    parts = []
    for number in range(1, WEIGHTED_ROWS + 1):
        fields = {
            key: form.get(f"{key}-{number}", "").strip()
            for key in ("weight", "contract", "declarer", "result")
        }
        if any(fields.values()):
            parts.append({key: value or None for key, value in fields.items()})
    return await _decide(request, form, lambda: read_weighted(parts))


async def _decide(
    request: Request, form: dict[str, str], decision: Callable[[], str | Weighted]
) -> Response:
    """The one road of a director's decision from the result page (an adjusted or a
    weighted score): the table, round and board read by the forms' one number parser,
    the decision stored with the reason, and the form shown again with the message
    when anything in it is wrong (a full disk is the app's 507, not the form's fault)."""
    try:
        table, round_number, board = (form_number(form, key) for key in ("table", "round", "board"))
        live = live_of(request)
        await in_turn(
            request,
            partial(
                live.adjust,
                form.get("section") or live.movement.section,
                table,
                round_number,
                board,
                decision(),
                who="director",
                reason=form.get("reason", ""),
            ),
        )
    except StorageError:
        raise
    except BridgeError as error:
        token = request.cookies.get(DIRECTOR_COOKIE, "")
        return _result_page(request, token, form, status=422, error=str(error))
    return see(f"/director/results#t{_name(request, form, table)}r{round_number}")


def _name(request: Request, form: Mapping[str, str], table: int) -> str:
    """The table the form names, as the results page's anchors name it (``3``, ``B3``)."""
    live = live_of(request)
    return table_name(live, form.get("section") or live.movement.section, table)


@router.get("/director/names", response_class=HTMLResponse)
def directorpair_names(request: Request) -> Response:
    """The club's name, and every pair (team) with a field for each player's name."""
    return _director_page(request, "director_names.html", _names_context)


def _named_pairs(live: LiveEvent) -> list[tuple[str, str, str]]:
    """Every pair of every section, in order (A 1N, ..., B 1N, ...), each with its
    form's field: the key its players are kept under (``B:1N``; a one-section event's
    pair by its label, ``1N``)."""
    return [
        (section, pair, participant_key(live.stored_section(section), pair))
        for section, movement in live.movements.items()
        # An individual names each player, by number.
        for pair in (movement.players if movement.kind == "individual" else movement.pairs)
    ]


def _names_context(live: LiveEvent, error: str = "") -> dict[str, Any]:
    seats = {"teams": MAX_PLAYERS, "individual": 1}.get(live.movement.kind, 2)
    several = len(live.movements) > 1
    players = {section: live.section_players(section) for section in live.movements}
    return {
        "pairs": [
            {
                "field": field,
                "title": f"{section} {pair}" if several else pair,
                "players": [m.name for m in players[section].get(pair, ())],
            }
            for section, pair, field in _named_pairs(live)
        ],
        "seats": range(1, seats + 1),
        "club": live.club,
        "error": error,
    }


@router.post("/director/names", response_class=HTMLResponse)
async def director_setpair_names(request: Request) -> Response:
    """Save the club's name and the players' names: a blank field leaves what was there
    (names are added or changed, never erased); ``name-PAIR`` (one text, ``A & B``) too.
    A pair of an event of several sections is named by its section too: ``player-B:1N-1``,
    ``name-B:1N``."""
    form, refused = await _director_form(request)
    if refused is not None:
        return refused
    live = live_of(request)

    def save() -> None:
        stored = {section: live.section_players(section) for section in live.movements}
        club = " ".join(form.get("club", "").split())
        if club and club != live.club:
            live.set_club(club)
        for section, pair, field in _named_pairs(live):
            seats = (form.get(f"player-{field}-{i}", "") for i in range(1, MAX_PLAYERS + 1))
            typed = [name for name in seats if name.strip()]
            if not typed and form.get(f"name-{field}", "").strip():
                typed = form[f"name-{field}"].split("&")
            names = [" ".join(name.split()) for name in typed]
            if names and names != [m.name for m in stored[section].get(pair, ())]:
                live.set_pair_name(pair, names, section)

    try:
        await in_turn(request, save)
    except StorageError:
        raise
    except BridgeError as error:
        token = director_token(request) or ""
        return render(
            request, "director_names.html", status=422, csrf=csrf_token(token),
            **_names_context(live, str(error)),
        )  # fmt: skip
    return see("/director/names")


@router.post("/director/draw", response_class=HTMLResponse)
async def director_draw(request: Request) -> Response:
    """Draw a Swiss event's next round (the same draw as ``session draw``)."""
    _, refused = await _director_form(request)
    if refused is not None:
        return refused
    try:
        await in_turn(request, partial(live_of(request).draw_swiss_round, who="director"))
    except (RecordError, MovementError) as error:
        return message(request, 409, "Not drawn", str(error), back="/director")
    return see("/director")


@router.post("/director/ranking", response_class=HTMLResponse)
async def director_visibility(request: Request) -> Response:
    """Hide the public ranking until the end, or show it."""
    form, refused = await _director_form(request)
    if refused is not None:
        return refused
    await in_turn(request, partial(live_of(request).hide_ranking, form.get("hidden") == "1"))
    return see("/director")


@router.post("/director/close", response_class=HTMLResponse)
async def director_close(request: Request) -> Response:
    """Close the session: tables can no longer enter results; the report is published."""
    form, refused = await _director_form(request)
    if refused is not None:
        return refused
    if form.get("confirm") != "yes":
        return message(
            request,
            422,
            "Not closed",
            "Tick the box to confirm that the session is over, then close it.",
            back="/director",
        )
    await in_turn(request, partial(live_of(request).close_session, who="director"))
    return see("/director")


@router.post("/director/reopen", response_class=HTMLResponse)
async def director_reopen(request: Request) -> Response:
    """Reopen a closed session (a table's result came in late): logged with the reason."""
    form, refused = await _director_form(request)
    if refused is not None:
        return refused
    reason = " ".join(form.get("reason", "").split())[:200]
    await in_turn(request, partial(live_of(request).reopen_session, who="director", reason=reason))
    return see("/director")


@router.get("/director/audit", response_class=HTMLResponse)
def director_audit(request: Request) -> Response:
    """Every result entered, changed or adjusted: who, when, old, new."""
    return _director_page(request, "director_audit.html", lambda live: {"entries": live.audit()})
