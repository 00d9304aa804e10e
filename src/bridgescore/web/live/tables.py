"""The live session's HTML pages: the table page, the director's pages, the public ranking.

``router`` (with the director's pages of :mod:`bridgescore.web.live.director`) is
included by :func:`bridgescore.web.live.app.create_live_app`, which keeps the
:class:`~bridgescore.session.live.event.LiveEvent` at ``request.app.state.live``.

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

import threading
from collections.abc import Mapping
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, HTMLResponse, Response
from markupsafe import Markup

from bridgescore.errors import (
    AlreadyEnteredError,
    BridgeError,
    NotThisTableError,
    RoundOpenError,
    SessionClosedError,
    StorageError,
)
from bridgescore.session.live.entry import MAX_FORM_NUMBER, ResultEntry
from bridgescore.session.live.event import LiveEvent
from bridgescore.session.reports.travellers import TravellerTable, traveller_table
from bridgescore.session.scoring.display import RankingTable, ranking_tables
from bridgescore.session.scoring.matches import MATCH_HEADERS, match_headers, match_rows
from bridgescore.session.scoring.methods import SCORING_METHODS
from bridgescore.session.scoring.scored import SessionScore
from bridgescore.validate import whole_number_text
from bridgescore.web.live import director as director_pages
from bridgescore.web.live.common import (
    DIRECTOR_COOKIE,
    HEADERS,
    REFRESH_SECONDS,
    SCAN_AGAIN,
    TABLE_COOKIE,
    csrf_ok,
    csrf_token,
    director_token,
    enter_table_result,
    forbidden,
    live_of,
    message,
    pair_names,
    read_form,
    render,
    see,
    set_cookie,
)
from bridgescore.web.live.ranking import Drawn, public_ranking
from bridgescore.web.live.views import (
    FORM,
    contract_words,
    current_round,
    move_lines,
    ns_score,
    player_move_lines,
    score_words,
)

__all__ = ["public_page", "router"]

# The templates (templates/live/) and the stylesheet sit with the serve app's, in web/.
HERE = Path(__file__).parents[1]
router = APIRouter(include_in_schema=False)
router.include_router(director_pages.router)

#: A table's cookie lasts an evening.
TABLE_COOKIE_AGE = 12 * 3600


# ------------------------------------------------------------------------ tables


def _table_access(request: Request) -> tuple[str, str, int] | None:
    """The table cookie's token and its (section, table), or None."""
    token = request.cookies.get(TABLE_COOKIE, "")
    if not token:
        return None
    found = live_of(request).table_for_token(token)
    if found is None:
        return None
    return token, found[0], found[1]


def _unknown_table(request: Request) -> HTMLResponse:
    response = message(request, 401, "Scan the table card again", SCAN_AGAIN)
    response.delete_cookie(TABLE_COOKIE, path="/")
    return response


def _table_label(live: LiveEvent, section: str, table: int) -> str:
    # An event of several sections names section A too.
    if section == "A" and len(live.movements) == 1:
        return f"Table {table}"
    return f"Section {section}, table {table}"


@router.get("/table", response_class=HTMLResponse)
def table_page(request: Request, token: str = "", saved: str = "") -> Response:
    """A table's page: the round's pairs and boards; with ``?token=`` (the card's
    link) it sets the table's cookie and moves on to the same page without it."""
    live = live_of(request)
    if token:
        found = live.table_for_token(token)
        if found is None:
            return _unknown_table(request)
        # A page, not a redirect: a SameSite=Strict cookie set during a navigation that
        # began on another site (the phone's camera app) is not sent on its redirect.
        response = render(
            request, "table_ready.html", label=_table_label(live, *found), refresh="0; url=/table"
        )
        set_cookie(response, request, TABLE_COOKIE, token, TABLE_COOKIE_AGE)
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
    live = live_of(request)
    rounds = live.table_view(section, table).rounds
    current = current_round(rounds)
    moves: list[str] = []
    done = [r for r in rounds if current is None or r.round < current.round]
    if done and (current is None or not current.results):
        # Between rounds: the last round is complete and nothing of the next is entered.
        switched = current is not None and current.arrow_switch
        movement = live.movement_of(section)
        if movement.kind == "individual":
            moves = player_move_lines(movement, table, done[-1])
        else:
            moves = move_lines(table, done[-1], arrow_switch=switched)
    played = sorted({board for r in rounds for board in r.entered})
    shown: int | None = _board_number(saved)
    shown = shown if shown in played else None
    return render(
        request,
        "table.html",
        status,
        played=played,
        # Right after a board is entered, its traveller (as a Bridgemate shows it).
        saved_traveller=None if shown is None else _drawn_traveller(live, shown, section),
        record_html=None if shown is None else _record_html(live, shown),
        lead_note=None if shown is None else _lead_note(live, section, table, shown),
        label=_table_label(live_of(request), section, table),
        section=section,
        table=table,
        current=current,
        entered=set(current.entered) if current else set(),
        rounds_total=len(rounds),
        moves=moves,
        moved_after=done[-1].round if moves else None,
        results={item.board: item for item in current.results} if current else {},
        names=pair_names(live),
        closed=live.closed,
        error=error,
        draft=draft or {},
        # "Board N is entered." only for a board this table has entered.
        saved="" if shown is None else str(shown),
        csrf=csrf_token(secret),
        form=FORM,
        score_text=score_words,
    )


def _board_number(text: str) -> int:
    """The board a query or path names, or 0 (no board) for anything but a plain whole
    number of the forms' range (``²``, a thousand digits): not found, never a 500."""
    try:
        return whole_number_text(text, "board", 1, MAX_FORM_NUMBER)
    except BridgeError:
        return 0


def _checked_entry(
    live: LiveEvent, section: str, table: int, form: Mapping[str, str]
) -> ResultEntry:
    """The form's entry, checked as the API checks it (:meth:`LiveEvent.check_entry`):
    the table's round and board, the rounds in order."""
    entry = ResultEntry.from_form(form)
    live.check_entry(section, table, entry)
    return entry


async def _table_form(
    request: Request,
) -> tuple[tuple[str, str, int], dict[str, str], Response | None]:
    """The table's access (token, section, table) and its posted form, or the answer
    to a phone without a valid table cookie or with a form this server did not render."""
    access = _table_access(request)
    if access is None:
        return ("", "", 0), {}, _unknown_table(request)
    form = await read_form(request)
    if not csrf_ok(form, access[0]):
        return access, form, forbidden(request)
    return access, form, None


def _entry_refused(
    request: Request, access: tuple[str, str, int], form: Mapping[str, str], error: BridgeError
) -> HTMLResponse:
    """The table's page again with why an entry was refused: a board not played at
    this table (403) shows the round afresh, anything else (422) keeps what was sent."""
    secret, section, table = access
    if isinstance(error, NotThisTableError):
        return _table_view(request, secret, section, table, status=403, error=str(error))
    if isinstance(error, RoundOpenError):
        return _table_view(request, secret, section, table, status=409, error=str(error))
    return _table_view(request, secret, section, table, status=422, error=str(error), draft=form)


def _session_closed(request: Request) -> HTMLResponse:
    return message(
        request,
        409,
        "The session is closed",
        "The director has closed the session: ask the director to enter this result.",
    )


@router.post("/table/check", response_class=HTMLResponse)
async def table_check(request: Request) -> Response:
    """The score of a board's result, for the opponents to confirm before it is sent."""
    access, form, refused = await _table_form(request)
    if refused is not None:
        return refused
    secret, section, table = access
    if form.get("action") == "change":
        return _table_view(request, secret, section, table, draft=form)
    live = live_of(request)
    try:
        entry = _checked_entry(live, section, table, form)
    except BridgeError as error:
        return _entry_refused(request, access, form, error)
    score = ns_score(entry, live.vulnerability(entry.board))
    return render(
        request,
        "confirm.html",
        label=_table_label(live_of(request), section, table),
        section=section,  # the pairs' names are their section's
        csrf=csrf_token(secret),
        entry=entry,
        fields={key: form.get(key, "") for key in _ENTRY_FIELDS},
        words=contract_words(entry),
        result=str(entry.result),
        score=score,
        score_words=score_words(score),
        view=live.table_view(section, table).round_of(entry.round),
        names=pair_names(live),
    )


_ENTRY_FIELDS = ("round", "board", "level", "strain", "doubling", "declarer", "result", "lead")


@router.post("/table/result", response_class=HTMLResponse)
async def table_result(request: Request) -> Response:
    """Store a confirmed result; a board already entered is the director's to change."""
    access, form, refused = await _table_form(request)
    if refused is not None:
        return refused
    _, section, table = access
    try:
        # The JSON API's road: the same checks, queue, audit and ranking cache.
        entry = ResultEntry.from_form(form)
        await enter_table_result(request, section, table, entry)
    except SessionClosedError:
        return _session_closed(request)
    except StorageError:
        raise  # the app's 507 page: not the form's fault
    except AlreadyEnteredError:
        return message(
            request,
            409,
            "Already entered",
            f"Board {form.get('board', '')} is already entered at this table. Only the "
            "director can change a result: ask the director.",
            back="/table",
        )
    except BridgeError as error:
        return _entry_refused(request, access, form, error)
    return see(f"/table?saved={entry.board}")


def _drawn_traveller(live: LiveEvent, board: int, section: str | None = None) -> TravellerTable:
    """The board's traveller so far, as every report draws it (``section``'s, when
    the event's sections are scored each on its own)."""
    scored, traveller = live.scored_traveller(board, section)
    return traveller_table(scored, traveller)


def _record_html(live: LiveEvent, board: int) -> Markup | None:
    """The board's hand record as the results site draws it, or None without a deal."""
    from bridgescore.boardset.handrecord import board_html

    record = live.hand_record(board)
    return None if record is None else Markup(board_html(record, anchor=f"record-{board}"))


def _lead_note(live: LiveEvent, section: str, table: int, board: int) -> str | None:
    """What the table's opening lead on the board cost double dummy, in a sentence
    (None without a lead, a contract or a hand record)."""
    cost = live.lead_cost(section, table, board)
    return None if cost is None else f"Your opening lead: {cost.words()}."


@router.get("/table/traveller/{board}", response_class=HTMLResponse)
def table_traveller(request: Request, board: str) -> Response:
    """A board's traveller and hand record, for a table that has entered the board."""
    access = _table_access(request)
    if access is None:
        return _unknown_table(request)
    _, section, table = access
    live = live_of(request)
    number = _board_number(board)
    if not live.has_entered(section, table, number):
        return message(
            request,
            403,
            "Not yet",
            f"This table has not entered board {board}: a board's traveller is shown to a "
            "table once it has entered the board.",
            back="/table",
        )
    return render(
        request,
        "table_traveller.html",
        label=_table_label(live_of(request), section, table),
        t=_drawn_traveller(live, number, section),
        record_html=_record_html(live, number),
        lead_note=_lead_note(live, section, table, number),
    )


# ------------------------------------------------------------------------ public


@router.get("/ranking", response_class=HTMLResponse)
async def ranking_page(request: Request) -> Response:
    """The ranking and travellers as results arrive (hidden while the director says)."""
    if request.cookies.get(DIRECTOR_COOKIE) and await run_in_threadpool(director_token, request):
        return await run_in_threadpool(_ranking_view, request, True)
    drawn = await public_ranking(request).page(request, live_of(request))
    return Response(drawn.body, drawn.status, headers=HEADERS, media_type="text/html")


def public_page(request: Request) -> Drawn:
    """The ranking page as the public sees it, for the one cache of the public ranking."""
    response = _ranking_view(request, False)
    return Drawn(response.status_code, bytes(response.body))


def _ranking_view(request: Request, director: bool) -> HTMLResponse:
    """The ranking page as the director (every board) or the public sees it."""
    live = live_of(request)
    if live.ranking_hidden and not director and not live.closed:
        return render(request, "ranking_hidden.html", refresh=str(REFRESH_SECONDS))
    view: SessionScore | None = None
    problem: str | None = None
    rankings: list[RankingTable] = []
    travellers: list[TravellerTable] = []
    matches: list[tuple[str, ...]] = []
    headers: tuple[str, ...] = MATCH_HEADERS
    if any(r.entered for line in live.progress() for r in line.rounds):
        try:
            # A board still to be played somewhere is the director's to see, no one else's.
            scored = live.score() if director else live.public_score()
            view = scored
            rankings = ranking_tables(scored)
            travellers = [traveller_table(scored, t) for t in scored.travellers]
            matches = match_rows(scored.matches)
            headers = match_headers(scored.matches)
        except BridgeError as error:  # a result the scoring refuses: the director's to fix
            problem = str(error)
    unplayed = [] if director else sorted(set(live.movement.boards) - live.played_boards())
    method = SCORING_METHODS.get(view.method) if view else None
    return render(
        request,
        "ranking.html",
        view=view,
        rankings=rankings,
        travellers=travellers,
        matches=matches,
        match_headers=headers,
        method=method.title if method else "",
        problem=problem,
        event=live.name,
        closed=live.closed,
        hidden=live.ranking_hidden,
        unplayed=unplayed,
        refresh=None if live.closed else str(REFRESH_SECONDS),
    )


def _not_published(request: Request) -> HTMLResponse:
    return message(
        request,
        404,
        "Not published yet",
        "The report is published when the director closes the session.",
        back="/ranking",
    )


@router.get("/report.html", response_class=HTMLResponse)
def report_page(request: Request) -> Response:
    """The one-page report (`session report --html FILE.html`), after the close."""
    from bridgescore.session.reports.html import html_report

    if not live_of(request).closed:
        return _not_published(request)
    try:
        text = html_report(live_of(request).public_score())
    except BridgeError as error:
        return message(request, 422, "No report", str(error), back="/ranking")
    return HTMLResponse(text, headers=HEADERS)


@router.get("/results/{page}", response_class=HTMLResponse)
def results_page(request: Request, page: str) -> Response:
    """A page of the results site (`session report --html DIR/`), after the close."""
    if not live_of(request).closed:
        return _not_published(request)
    try:
        pages = _published_site(request)
    except BridgeError as error:
        return message(request, 422, "No results site", str(error), back="/ranking")
    text = pages.get(page)
    if text is None:
        return message(request, 404, "No such page", f"There is no page {page!r}.", back="/ranking")
    media = "text/css" if page.endswith(".css") else "text/html"
    return Response(text, media_type=media, headers=HEADERS)


# One build of the published site at a time (see _published_site).
_SITE_BUILDING = threading.Lock()


def _published_site(request: Request) -> Mapping[str, str]:
    """The closed session's results site, built once per version of the event file: at
    the close every phone opens it, and each page of it used to build all of it again."""
    from bridgescore.session.reports.site import results_site

    live = live_of(request)
    # One request builds it while the others wait for that build: the field's leads
    # are solved double dummy (seconds for a night's boards), once, not once a phone.
    with _SITE_BUILDING:
        version = live.version()  # read before building: a change meanwhile builds it again
        built: tuple[int, Mapping[str, str]] | None = getattr(
            request.app.state, "results_site", None
        )
        if built is None or built[0] != version:
            scored = live.public_score()
            built = (version, results_site(scored, leads=live.field_leads(scored)))
            request.app.state.results_site = built
    return built[1]


@router.get("/live/hand-record.css")
def hand_record_stylesheet() -> Response:
    """The hand record's style, as the results site has it."""
    from bridgescore.boardset.handrecord import hand_record_css

    return Response(hand_record_css(), media_type="text/css")


@router.get("/live/style.css")
def stylesheet() -> FileResponse:
    """The pages' one stylesheet (served here: the live server mounts no static files)."""
    return FileResponse(HERE / "static" / "live.css", media_type="text/css")
