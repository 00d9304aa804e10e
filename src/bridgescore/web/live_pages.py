"""The live session's HTML pages: the table page, the director's pages, the public ranking.

``router`` is included by :func:`bridgescore.web.live.create_live_app`, which keeps the
:class:`~bridgescore.session.live.LiveEvent` at ``request.app.state.live``.

- ``GET /table?token=...`` (the link on a table's card): sets the table's cookie and
  sends the phone on to ``/table``, so the token leaves the address bar. ``/table``
  shows the round's pairs and boards, one form per board; ``POST /table/check``
  shows the score for the opponents to confirm, ``POST /table/result`` stores it.
  After a round the page says where each pair moves and where the boards go.
- ``/director``: a password login, then each table's progress by round, every result
  with a change form, adjusted scores, pair names, hiding the ranking, closing the
  session, and the audit log.
- ``/ranking`` (with travellers): public, refreshed every 30 s by the page itself
  (no script), hidden while the director hides it; at the close, links to the
  report (``/report.html``) and the results site (``/results/index.html``).

Every page works without JavaScript. Cookies are HttpOnly and SameSite=Strict (and
Secure when the request came over HTTPS); every form that changes something carries
a CSRF token derived from the cookie's secret (an HMAC of it), so only a page this
server rendered for that cookie can post. A bad or missing token is a 401 page that
says to scan the table card again; a client's input is never a 5xx.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from bridgescore.errors import (
    AlreadyEnteredError,
    BridgeError,
    NotThisTableError,
    SessionClosedError,
)
from bridgescore.session.live import LiveEvent, ResultEntry
from bridgescore.session.methods import SCORING_METHODS
from bridgescore.web.live_view import (
    FORM,
    contract_words,
    current_round,
    entered_boards,
    entry_data,
    form_of,
    move_lines,
    ns_score,
    result_text,
    score_words,
)

__all__ = ["AWARDS", "DIRECTOR_COOKIE", "LOGIN_COOKIE", "TABLE_COOKIE", "csrf_token", "router"]

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=HERE / "templates")
router = APIRouter(include_in_schema=False)

TABLE_COOKIE = "bridgescore_table"
DIRECTOR_COOKIE = "bridgescore_director"
LOGIN_COOKIE = "bridgescore_login"
#: A table's cookie lasts an evening; the director's session token has its own expiry.
TABLE_COOKIE_AGE = 12 * 3600
DIRECTOR_COOKIE_AGE = 12 * 3600
REFRESH_SECONDS = 30

#: The adjusted scores the director may award (what LiveEvent.adjust reads) and their words.
AWARDS = {
    "Avg+": "Average plus to NS, average minus to EW",
    "Avg": "Average to both",
    "Avg-": "Average minus to NS, average plus to EW",
    "A+/A+": "Average plus to both",
    "A-/A-": "Average minus to both",
    "60/40": "60 % to NS, 40 % to EW",
    "50/50": "50 % to both",
    "40/60": "40 % to NS, 60 % to EW",
    "not played": "Not played (the board is left out)",
}

# No script runs on these pages; styles come only from our own stylesheet.
_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'none'; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}

_SCAN_AGAIN = (
    "This phone has no valid table link for this session. Scan the QR code on your "
    "table's card again (or type the link printed under it)."
)


def csrf_token(secret: str) -> str:
    """The CSRF token of the forms rendered for a cookie whose secret is ``secret``.

    An HMAC of the secret: a page of ours shows it, another site cannot compute it
    without the secret (which sits in an HttpOnly cookie), and it needs no storage.

    >>> csrf_token("abc") == csrf_token("abc") != csrf_token("abd")
    True
    """
    return hmac.new(secret.encode(), b"bridgescore live form", hashlib.sha256).hexdigest()


def _live(request: Request) -> LiveEvent:
    live: LiveEvent = request.app.state.live
    return live


def _render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    response = templates.TemplateResponse(request, f"live/{template}", context)
    response.status_code = status
    response.headers.update(_HEADERS)
    return response


def _message(request: Request, status: int, title: str, message: str, **extra: Any) -> HTMLResponse:
    return _render(request, "message.html", status, title=title, message=message, **extra)


def _secure(request: Request) -> bool:
    # Behind a reverse proxy uvicorn takes the scheme from X-Forwarded-Proto.
    return request.url.scheme == "https"


def _set_cookie(response: Response, request: Request, name: str, value: str, age: int) -> None:
    response.set_cookie(
        name,
        value,
        max_age=age,
        path="/",
        httponly=True,
        samesite="strict",
        secure=_secure(request),
    )


def _see(url: str) -> RedirectResponse:
    response = RedirectResponse(url, status_code=303)
    response.headers.update(_HEADERS)
    return response


async def _form(request: Request) -> dict[str, str]:
    """The posted form's text fields (a field given twice: its first value)."""
    try:
        form = await request.form()
    except Exception:  # any body the form parser cannot read is the client's error
        return {}
    fields: dict[str, str] = {}
    for key, value in form.multi_items():
        if isinstance(value, str) and key not in fields:
            fields[key] = value
    return fields


def _csrf_ok(form: Mapping[str, str], secret: str) -> bool:
    return hmac.compare_digest(form.get("csrf", "").encode(), csrf_token(secret).encode())


def _forbidden(request: Request) -> HTMLResponse:
    return _message(
        request,
        403,
        "Form refused",
        "This form did not come from this session's pages, or it has expired: "
        "go back, reload the page and send it again.",
    )


# ------------------------------------------------------------------------ tables


def _table_access(request: Request) -> tuple[str, str, int] | None:
    """The table cookie's token and its (section, table), or None."""
    token = request.cookies.get(TABLE_COOKIE, "")
    if not token:
        return None
    found = _live(request).table_for_token(token)
    if found is None:
        return None
    return token, found[0], found[1]


def _unknown_table(request: Request) -> HTMLResponse:
    response = _message(request, 401, "Scan the table card again", _SCAN_AGAIN)
    response.delete_cookie(TABLE_COOKIE, path="/")
    return response


def _names(live: LiveEvent) -> dict[str, str]:
    return dict(live.pair_names())


def _table_label(section: str, table: int) -> str:
    return f"Table {table}" if section == "A" else f"Section {section}, table {table}"


@router.get("/table", response_class=HTMLResponse)
def table_page(request: Request, token: str = "", saved: str = "") -> Response:
    """A table's page: the round's pairs and boards; with ``?token=`` (the card's
    link) it sets the table's cookie and moves on to the same page without it."""
    live = _live(request)
    if token:
        found = live.table_for_token(token)
        if found is None:
            return _unknown_table(request)
        # A page, not a redirect: a SameSite=Strict cookie set during a navigation that
        # began on another site (the phone's camera app) is not sent on its redirect.
        response = _render(
            request, "table_ready.html", label=_table_label(*found), refresh="0; url=/table"
        )
        _set_cookie(response, request, TABLE_COOKIE, token, TABLE_COOKIE_AGE)
        return response
    access = _table_access(request)
    if access is None:
        return _unknown_table(request)
    secret, section, table = access
    return _table_view(request, secret, section, table, saved=saved)


def _table_view(
    request: Request,
    secret: str,
    section: str,
    table: int,
    *,
    status: int = 200,
    error: str | None = None,
    draft: Mapping[str, str] | None = None,
    saved: str = "",
) -> HTMLResponse:
    live = _live(request)
    rounds = live.table_view(section, table)["rounds"]
    current = current_round(rounds)
    moves: list[str] = []
    done = [r for r in rounds if current is None or r["round"] < current["round"]]
    if done and (current is None or not entered_boards(current)):
        # Between rounds: the last round is complete and nothing of the next is entered.
        switched = current is not None and bool(current.get("arrow_switch"))
        moves = move_lines(table, done[-1], arrow_switch=switched)
    return _render(
        request,
        "table.html",
        status,
        label=_table_label(section, table),
        section=section,
        table=table,
        current=current,
        entered=entered_boards(current) if current else set(),
        rounds_total=len(rounds),
        moves=moves,
        moved_after=done[-1]["round"] if moves else None,
        results={item["board"]: item for item in current["results"]} if current else {},
        names=_names(live),
        closed=live.closed,
        error=error,
        draft=draft or {},
        saved=saved if saved.isdigit() else "",
        csrf=csrf_token(secret),
        form=FORM,
        score_text=score_words,
    )


def _checked_entry(
    live: LiveEvent, section: str, table: int, form: Mapping[str, str]
) -> tuple[dict[str, Any], ResultEntry]:
    data = entry_data(form)
    entry = ResultEntry.parse(data)
    view = live.table_view(section, table)
    for round_view in view["rounds"]:
        if round_view["round"] == entry.round and entry.board in round_view["boards"]:
            return data, entry
    raise NotThisTableError(
        f"board {entry.board} in round {entry.round} is not played at table {table}: "
        "check the round and board on your card"
    )


@router.post("/table/check", response_class=HTMLResponse)
async def table_check(request: Request) -> Response:
    """The score of a board's result, for the opponents to confirm before it is sent."""
    access = _table_access(request)
    if access is None:
        return _unknown_table(request)
    secret, section, table = access
    form = await _form(request)
    if not _csrf_ok(form, secret):
        return _forbidden(request)
    if form.get("action") == "change":
        return _table_view(request, secret, section, table, draft=form)
    live = _live(request)
    try:
        data, entry = _checked_entry(live, section, table, form)
    except NotThisTableError as error:
        return _table_view(request, secret, section, table, status=403, error=str(error))
    except BridgeError as error:
        return _table_view(
            request, secret, section, table, status=422, error=str(error), draft=form
        )
    score = ns_score(data)
    return _render(
        request,
        "confirm.html",
        label=_table_label(section, table),
        csrf=csrf_token(secret),
        data=data,
        fields={key: form.get(key, "") for key in _ENTRY_FIELDS},
        words=contract_words(data),
        result=result_text(data),
        score=score,
        score_words=score_words(score),
        view=_round_of(live.table_view(section, table), entry.round),
        names=_names(live),
    )


_ENTRY_FIELDS = ("round", "board", "level", "strain", "doubling", "declarer", "result", "lead")


def _round_of(view: Mapping[str, Any], round_number: int) -> Mapping[str, Any] | None:
    return next((r for r in view["rounds"] if r["round"] == round_number), None)


@router.post("/table/result", response_class=HTMLResponse)
async def table_result(request: Request) -> Response:
    """Store a confirmed result; a board already entered is the director's to change."""
    access = _table_access(request)
    if access is None:
        return _unknown_table(request)
    secret, section, table = access
    form = await _form(request)
    if not _csrf_ok(form, secret):
        return _forbidden(request)
    live = _live(request)
    if live.closed:
        return _message(
            request,
            409,
            "The session is closed",
            "The director has closed the session: ask the director to enter this result.",
        )
    try:
        _, entry = _checked_entry(live, section, table, form)
        who = f"table {table}" if section == "A" else f"table {section}{table}"
        live.enter_result(section, table, entry, who=who)
    except SessionClosedError:
        return _message(
            request,
            409,
            "The session is closed",
            "The director has closed the session: ask the director to enter this result.",
        )
    except AlreadyEnteredError:
        return _message(
            request,
            409,
            "Already entered",
            f"Board {form.get('board', '')} is already entered at this table. Only the "
            "director can change a result: ask the director.",
            back="/table",
        )
    except NotThisTableError as error:
        return _table_view(request, secret, section, table, status=403, error=str(error))
    except BridgeError as error:
        return _table_view(
            request, secret, section, table, status=422, error=str(error), draft=form
        )
    return _see(f"/table?saved={entry.board}")


# ---------------------------------------------------------------------- director


def _director_token(request: Request) -> str | None:
    token = request.cookies.get(DIRECTOR_COOKIE, "")
    if token and _live(request).director_for_token(token):
        return token
    return None


def _login_page(request: Request, status: int = 200, error: str | None = None) -> HTMLResponse:
    # Before a session there is no secret to derive the form's token from: the login
    # form's token is a random value also set as a cookie (double submit).
    token = secrets.token_urlsafe(32)
    response = _render(request, "director_login.html", status, csrf=token, error=error)
    _set_cookie(response, request, LOGIN_COOKIE, token, 3600)
    return response


@router.get("/director", response_class=HTMLResponse)
def director_page(request: Request) -> Response:
    """The director's overview: progress by table and round, late tables marked."""
    token = _director_token(request)
    if token is None:
        return _login_page(request)
    live = _live(request)
    tables = live.progress()
    rounds = sorted({int(r["round"]) for line in tables for r in line["rounds"]})
    return _render(
        request,
        "director.html",
        csrf=csrf_token(token),
        rounds=rounds,
        tables=[
            {**line, "by_round": {int(r["round"]): r for r in line["rounds"]}} for line in tables
        ],
        late=[line["table"] for line in tables if line["late"]],
        hidden=live.ranking_hidden,
        closed=live.closed,
    )


@router.post("/director/login", response_class=HTMLResponse)
async def director_login(request: Request) -> Response:
    """Check the director's password; a session cookie on success."""
    form = await _form(request)
    expected = request.cookies.get(LOGIN_COOKIE, "")
    if not expected or not hmac.compare_digest(form.get("csrf", "").encode(), expected.encode()):
        return _forbidden(request)
    throttle = getattr(request.app.state, "login_throttle", None)
    client = request.client.host if request.client else "unknown"
    if throttle is not None:
        wait = throttle.retry_after(client)
        if wait is not None:
            refused = _login_page(
                request, 429, f"Too many wrong passwords from this address: wait {wait} s."
            )
            refused.headers["Retry-After"] = str(wait)
            return refused
    live = _live(request)
    if not live.check_director_password(form.get("password", "")):
        if throttle is not None:
            throttle.failed(client)
        return _login_page(request, 401, "Wrong password.")
    if throttle is not None:
        throttle.succeeded(client)
    response = _see("/director")
    _set_cookie(
        response, request, DIRECTOR_COOKIE, live.open_director_session(), DIRECTOR_COOKIE_AGE
    )
    response.delete_cookie(LOGIN_COOKIE, path="/")
    return response


async def _director_form(request: Request) -> tuple[dict[str, str], Response | None]:
    """The posted form if it comes from a logged-in director's page, else the answer."""
    token = _director_token(request)
    if token is None:
        return {}, _login_page(request, 401, "Log in first (the session may have expired).")
    form = await _form(request)
    if not _csrf_ok(form, token):
        return form, _forbidden(request)
    return form, None


@router.post("/director/logout", response_class=HTMLResponse)
async def director_logout(request: Request) -> Response:
    _, refused = await _director_form(request)
    if refused is not None:
        return refused
    response = _see("/director")
    response.delete_cookie(DIRECTOR_COOKIE, path="/")
    return response


def _rows(live: LiveEvent) -> list[dict[str, Any]]:
    """Every table's every round, with each board's entered result (or None), by round."""
    rows: list[dict[str, Any]] = []
    for line in live.progress():
        section, table = str(line["section"]), int(line["table"])
        for round_view in live.table_view(section, table)["rounds"]:
            results = {item["board"]: item for item in round_view["results"]}
            boards = [{"board": b, "line": results.get(b)} for b in round_view["boards"]]
            rows.append(
                {"section": section, "table": table, "round": round_view["round"],
                 "ns": round_view["ns"], "ew": round_view["ew"], "boards": boards}
            )  # fmt: skip
    rows.sort(key=lambda row: (row["round"], row["section"], row["table"]))
    return rows


@router.get("/director/results", response_class=HTMLResponse)
def director_results(request: Request) -> Response:
    """Every table's results, round by round, each with a link to change it."""
    token = _director_token(request)
    if token is None:
        return _login_page(request)
    live = _live(request)
    return _render(
        request,
        "director_results.html",
        rows=_rows(live),
        names=_names(live),
        csrf=csrf_token(token),
    )


@router.get("/director/result", response_class=HTMLResponse)
def director_result(
    request: Request, table: str = "", round: str = "", board: str = "", section: str = "A"
) -> Response:
    """One board at one table: its result, a form to change it, a form to adjust it."""
    token = _director_token(request)
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
    live = _live(request)
    section = form.get("section", "A") or "A"
    try:
        table, round_number, board = (int(form.get(key, "")) for key in ("table", "round", "board"))
    except ValueError:
        return _message(
            request,
            404,
            "No such result",
            "Pick a result from the list of results.",
            back="/director/results",
        )
    row = next(
        (
            r
            for r in _rows(live)
            if (r["section"], r["table"], r["round"]) == (section, table, round_number)
        ),
        None,
    )
    line = None
    if row is not None:
        line = next((b["line"] for b in row["boards"] if b["board"] == board), None)
        if board not in [b["board"] for b in row["boards"]]:
            row = None
    if row is None:
        return _message(
            request,
            404,
            "No such result",
            f"Table {table} does not play board {board} in round {round_number}.",
            back="/director/results",
        )
    return _render(
        request,
        "director_result.html",
        status,
        csrf=csrf_token(token),
        row=row,
        board=board,
        line=line,
        names=_names(live),
        error=error,
        # A form sent back with an error keeps what was sent; else it starts from the result.
        draft=form if error is not None or line is None else form_of(str(line["result"])),
        awards=AWARDS,
        form=FORM,
    )


@router.post("/director/result", response_class=HTMLResponse)
async def director_change(request: Request) -> Response:
    """Enter or change one result (audited as the director's)."""
    form, refused = await _director_form(request)
    if refused is not None:
        return refused
    token = request.cookies.get(DIRECTOR_COOKIE, "")
    live = _live(request)
    try:
        data = entry_data(form, with_table=True)
        table = data.pop("table")
        entry = ResultEntry.parse(data)
        live.correct_result(form.get("section", "A") or "A", table, entry, who="director")
    except BridgeError as error:
        return _result_page(request, token, form, status=422, error=str(error))
    return _see(f"/director/results#t{table}r{entry.round}")


@router.post("/director/adjust", response_class=HTMLResponse)
async def director_adjust(request: Request) -> Response:
    """Award an adjusted score (or mark the board not played) at one table."""
    form, refused = await _director_form(request)
    if refused is not None:
        return refused
    token = request.cookies.get(DIRECTOR_COOKIE, "")
    award = form.get("award", "")
    if award not in AWARDS:
        return _result_page(
            request, token, form, status=422,
            error=f"award {award!r}: expected one of {', '.join(AWARDS)}",
        )  # fmt: skip
    try:
        table, round_number, board = (int(form.get(key, "")) for key in ("table", "round", "board"))
        _live(request).adjust(
            form.get("section", "A") or "A", table, round_number, board, award, who="director"
        )
    except ValueError as error:  # BridgeError is a ValueError; int() of junk too
        return _result_page(request, token, form, status=422, error=str(error))
    return _see(f"/director/results#t{table}r{round_number}")


@router.get("/director/names", response_class=HTMLResponse)
def director_names(request: Request) -> Response:
    """Every pair with a field for its players' names."""
    token = _director_token(request)
    if token is None:
        return _login_page(request)
    live = _live(request)
    return _render(
        request,
        "director_names.html",
        pairs=live.movement.pairs,
        names=_names(live),
        csrf=csrf_token(token),
    )


@router.post("/director/names", response_class=HTMLResponse)
async def director_set_names(request: Request) -> Response:
    form, refused = await _director_form(request)
    if refused is not None:
        return refused
    live = _live(request)
    names = _names(live)
    pairs = set(live.movement.pairs)
    for key, value in form.items():
        pair = key.removeprefix("name-")
        text = " ".join(value.split())[:120]
        # A blank field leaves the pair as it was: names are added or changed, never erased.
        if key.startswith("name-") and pair in pairs and text and text != names.get(pair):
            live.set_pair_name(pair, text)
    return _see("/director/names")


@router.post("/director/ranking", response_class=HTMLResponse)
async def director_visibility(request: Request) -> Response:
    """Hide the public ranking until the end, or show it."""
    form, refused = await _director_form(request)
    if refused is not None:
        return refused
    _live(request).hide_ranking(form.get("hidden") == "1")
    return _see("/director")


@router.post("/director/close", response_class=HTMLResponse)
async def director_close(request: Request) -> Response:
    """Close the session: tables can no longer enter results; the report is published."""
    form, refused = await _director_form(request)
    if refused is not None:
        return refused
    if form.get("confirm") != "yes":
        return _message(
            request,
            422,
            "Not closed",
            "Tick the box to confirm that the session is over, then close it.",
            back="/director",
        )
    _live(request).close_session()
    return _see("/director")


@router.get("/director/audit", response_class=HTMLResponse)
def director_audit(request: Request) -> Response:
    """Every result entered, changed or adjusted: who, when, old, new."""
    token = _director_token(request)
    if token is None:
        return _login_page(request)
    return _render(request, "director_audit.html", entries=_live(request).audit())


# ------------------------------------------------------------------------ public


@router.get("/ranking", response_class=HTMLResponse)
def ranking_page(request: Request) -> Response:
    """The ranking and travellers as results arrive (hidden while the director says)."""
    live = _live(request)
    director = _director_token(request) is not None
    if live.ranking_hidden and not director and not live.closed:
        return _render(request, "ranking_hidden.html", refresh=str(REFRESH_SECONDS))
    view: dict[str, Any] | None = None
    problem: str | None = None
    if any(r["entered"] for line in live.progress() for r in line["rounds"]):
        try:
            view = live.report()
        except BridgeError as error:  # a result the scoring refuses: the director's to fix
            problem = str(error)
    method = SCORING_METHODS.get(view["method"]) if view else None
    return _render(
        request,
        "ranking.html",
        view=view,
        method=method.title if method else "",
        problem=problem,
        event=live.name,
        names=_names(live),
        closed=live.closed,
        hidden=live.ranking_hidden,
        refresh=None if live.closed else str(REFRESH_SECONDS),
    )


def _not_published(request: Request) -> HTMLResponse:
    return _message(
        request,
        404,
        "Not published yet",
        "The report is published when the director closes the session.",
        back="/ranking",
    )


@router.get("/report.html", response_class=HTMLResponse)
def report_page(request: Request) -> Response:
    """The one-page report (`session report --html FILE.html`), after the close."""
    from bridgescore.session.html_report import html_report

    if not _live(request).closed:
        return _not_published(request)
    try:
        text = html_report(_live(request).score())
    except BridgeError as error:
        return _message(request, 422, "No report", str(error), back="/ranking")
    return HTMLResponse(text, headers=_HEADERS)


@router.get("/results/{page}", response_class=HTMLResponse)
def results_page(request: Request, page: str) -> Response:
    """A page of the results site (`session report --html DIR/`), after the close."""
    from bridgescore.session.site import results_site

    if not _live(request).closed:
        return _not_published(request)
    try:
        pages = results_site(_live(request).score())
    except BridgeError as error:
        return _message(request, 422, "No results site", str(error), back="/ranking")
    text = pages.get(page)
    if text is None:
        return _message(
            request, 404, "No such page", f"There is no page {page!r}.", back="/ranking"
        )
    media = "text/css" if page.endswith(".css") else "text/html"
    return Response(text, media_type=media, headers=_HEADERS)


@router.get("/live/style.css")
def stylesheet() -> FileResponse:
    """The pages' one stylesheet (served here: the live server mounts no static files)."""
    return FileResponse(HERE / "static" / "live.css", media_type="text/css")
