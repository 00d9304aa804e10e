"""The live club session's server: the JSON API the tables and the director use.

:func:`create_live_app` serves one event file (made by ``bridgescore session new``)
through :class:`bridgescore.session.live.event.LiveEvent`, kept at ``app.state.live`` for
the HTML pages (:mod:`bridgescore.web.live.tables`) too:

- ``GET /api/live/table`` (a table's token): the table's rounds, pairs, boards and
  the boards already entered.
- ``POST /api/live/results`` (a table's token): one board's result, 201 with
  ``score_ns`` once it is on disk; 403 for a round or board that is not this
  table's, 409 for a board already entered there (changing it is the director's job)
  or for a round while an earlier round of the table still has a board to enter.
- ``POST /api/live/director/login``: the director's password (an ``application/json``
  body; 415 otherwise) for a session token; each try takes one of a client's five
  slots before the password is checked, and past them it is refused with 429 for a while.
- ``POST /api/live/director/logout`` (the director's token): 204, and the token is
  refused from then on.
- ``PUT /api/live/results`` (the director's token): enter or change any table's result,
  or give it an adjusted score (``adjusted``: ``60/40``, ``A+``, ``not played``...;
  ``weighted``: results with weights), always with an optional ``reason``; an unknown key
  is refused (422) and changes nothing.
- ``POST /api/live/director/draw`` (the director's token): draw a Swiss teams event's
  next round (``session draw``'s document); 409 naming the tables still missing
  results, or once every round is drawn.
- ``POST /api/live/director/add-pair`` and ``/swap`` (the director's token): a late
  pair, a table the wrong way round (:mod:`bridgescore.web.live.changes`).
- ``GET /api/live/audit`` (the director's token): every result entered, changed or
  adjusted: who, when, old, new.
- ``GET /api/live/ranking``: the document ``bridgescore session score EVENT --json``
  prints (without travellers); 403 to anyone but the director while the director
  hides the ranking.
- ``GET /api/live/traveller/{board}`` (a table's token or the director's): the board's
  traveller so far, with the hand record when the event has it; a table sees it once
  it has entered the board (403 before), the director always.

Tokens travel in ``Authorization: Bearer <token>``: browsers never send that header
on their own, so no other site can make a visitor's browser act on the API, and
without CORS headers no other site's script can read its answers. Every answer
carries security headers
(:data:`~bridgescore.web.guards.LIVE_SECURITY_HEADERS`); request bodies are capped
(:class:`~bridgescore.web.limits.BodySizeLimit`); :class:`RedactSecrets` keeps
tokens out of the access log. Nothing here is ever a 5xx for a client's input; a
write the disk cannot take is a 507 saying that nothing was stored.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from http import HTTPStatus
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from bridgescore import __version__
from bridgescore.errors import (
    AlreadyEnteredError,
    BridgeError,
    MovementError,
    NotThisTableError,
    RecordError,
    RoundOpenError,
    SessionClosedError,
    StorageError,
)
from bridgescore.session.live.entry import ResultEntry
from bridgescore.session.live.event import LiveEvent
from bridgescore.session.scoring.adjustment import read_adjusted, read_reason, read_weighted
from bridgescore.session.scoring.weighted import Weighted
from bridgescore.validate import quoted
from bridgescore.web.guards import (
    LIVE_SECURITY_HEADERS,
    SecurityHeaders,
    answering,
    error_answer,
    http_error,
)
from bridgescore.web.limits import BodySizeLimit, LoginThrottle
from bridgescore.web.live import changes, tables
from bridgescore.web.live.access import (
    NO_TOKEN,
    UNAUTHORISED,
    DirectorAccess,
    JsonObject,
    Refused,
    TableAccess,
    bearer,
    director_target,
    is_director,
    json_object,
    live_event,
)
from bridgescore.web.live.common import (
    ResultQueue,
    enter_table_result,
    in_turn,
    log_director_in,
    message,
)
from bridgescore.web.live.guards import guard_access_log
from bridgescore.web.live.ranking import Drawn, PublicRanking, public_ranking

__all__ = [
    "LIVE_MAX_BODY",
    "LiveSettings",
    "create_live_app",
]

#: A result is a few dozen bytes; a login a password. Anything near this is not a client of ours.
LIVE_MAX_BODY = 4 * 1024


@dataclass(frozen=True, slots=True)
class LiveSettings:
    """Limits of the live server.

    ``login_failures`` wrong passwords from one client within ``login_window``
    seconds make it wait (429) until the oldest of them is out of the window.
    ``clock`` gives seconds (monotonic); tests pass their own.
    """

    max_body: int = LIVE_MAX_BODY
    login_failures: int = 5
    login_window: float = 300.0
    clock: Callable[[], float] = time.monotonic


router = APIRouter(prefix="/api/live", tags=["live session"])


@router.get("/table")
async def table_view(request: Request, access: TableAccess) -> Response:
    """The table's rounds: pairs, boards, and the boards already entered."""
    section, table = access
    live = live_event(request)
    view = await in_turn(request, partial(live.table_view, section, table))
    return _json(view.as_dict())


@router.post("/results", status_code=201)
async def enter_result(
    request: Request,
    access: TableAccess,
    body: JsonObject,
) -> Response:
    """A table enters one board's result; 201 ``{"score_ns"}`` once it is stored."""
    section, table = access
    score = await enter_table_result(request, section, table, ResultEntry.from_json(body))
    return _json({"score_ns": score}, 201)


#: The keys a director's PUT body may hold; any other is refused (422), changing nothing.
PUT_KEYS = (
    "table", "section", "round", "board", "contract", "declarer", "result", "lead",
    "adjusted", "weighted", "reason",
)  # fmt: skip
_RESULT_KEYS = ("contract", "declarer", "result", "lead")


@router.put("/results")
async def correct_result(
    request: Request,
    _: DirectorAccess,
    body: JsonObject,
) -> Response:
    """The director enters or changes any table's result, or gives it an adjusted score
    (``adjusted``: artificial, ``weighted``: weighted), with a ``reason`` (audited)."""
    live = live_event(request)
    unknown = [key for key in body if key not in PUT_KEYS]
    if unknown:
        raise Refused(422, f"unknown key {quoted(unknown[0])}: expected {', '.join(PUT_KEYS)}")
    section, table, rest = director_target(live, body)
    reason = read_reason(rest.pop("reason", None))
    decision = _decision(rest)
    try:
        if decision is None:
            entry = ResultEntry.from_json(rest)
            score = await in_turn(
                request,
                partial(live.correct_result, section, table, entry, who="director", reason=reason),
            )
            answer: dict[str, Any] = {"score_ns": score}
        else:
            key, award = decision
            # Checked by adjust as a table's round and board are: a RecordError names them.
            round_number: Any = rest.get("round")
            board: Any = rest.get("board")
            shown = await in_turn(
                request,
                partial(
                    live.adjust, section, table, round_number, board, award,
                    who="director", reason=reason,
                ),
            )  # fmt: skip
            answer = {"score_ns": None, key: shown}
    except NotThisTableError as error:
        # Not the director's access at fault: the body names a board the table does not play.
        raise Refused(422, str(error)) from None
    return _json(answer)


def _decision(rest: dict[str, Any]) -> tuple[str, str | Weighted] | None:
    """The adjusted score a director's body gives instead of a contract (``("adjusted",
    "60/40")``, ``("weighted", Weighted)``), or ``None`` for a result; 422 for a body
    giving two of them."""
    given = [key for key in ("adjusted", "weighted") if key in rest]
    if not given:
        return None
    extra = [key for key in (*given[1:], *_RESULT_KEYS) if key in rest]
    if extra:
        raise Refused(
            422,
            f"{given[0]} and {extra[0]} given together: give a contract with its declarer and "
            "result, or 'adjusted', or 'weighted'",
        )
    if given[0] == "adjusted":
        award = rest["adjusted"]
        read_adjusted(award)  # refused (422) here, before the queue, naming the words
        return ("adjusted", award)
    return ("weighted", read_weighted(rest["weighted"]))


@router.post("/director/login")
async def director_login(request: Request) -> Response:
    """The director's password for a session token; throttled per client.

    Only an ``application/json`` body is read (415 otherwise, not counted as a try): a
    page on another site can make a browser post ``text/plain`` here without asking,
    and those posts must not use up the director's tries.
    """
    kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if kind != "application/json":
        raise Refused(
            415,
            f"the login takes a JSON body: send 'Content-Type: application/json', "
            f"not {quoted(kind or 'none')}",
        )
    body = await json_object(request)
    password = body.get("password")
    if not isinstance(password, str) or not password:
        raise Refused(422, f"password: {quoted(password)} is not a password: expected a string")
    outcome = await log_director_in(request, password)
    if outcome.wait is not None:
        raise Refused(
            429,
            f"too many wrong passwords from this address: try again in {outcome.wait} s",
            {"Retry-After": str(outcome.wait)},
        )
    if outcome.token is None:
        raise Refused(401, "wrong password")
    return _json({"token": outcome.token})


@router.post("/director/logout", status_code=204)
async def director_logout(request: Request, _: DirectorAccess) -> Response:
    """End the director's session: the token is refused (401) from now on."""
    token = bearer(request) or ""
    await run_in_threadpool(live_event(request).end_director_session, token)
    return Response(status_code=204)


@router.post("/director/draw")
async def director_draw(request: Request, _: DirectorAccess) -> Response:
    """Draw a Swiss event's next round (the director's token): the round drawn; 409
    naming the tables whose results are not all in, or once every round is drawn."""
    live = live_event(request)
    try:
        drawn = await in_turn(request, partial(live.draw_swiss_round, who="director"))
    except (RecordError, MovementError) as error:
        # Not the client's input at fault: the event's state refuses the draw.
        raise Refused(409, str(error)) from None
    return _json(drawn.as_dict())


@router.get("/audit")
def audit(request: Request, _: DirectorAccess) -> Response:
    """Every result entered, changed or adjusted, oldest first."""
    return _json([line.as_dict() for line in live_event(request).audit()])


@router.get("/traveller/{board}")
async def traveller(request: Request, board: str) -> Response:
    """One board's traveller: a table's once it has entered the board (403 before, as
    a Bridgemate shows it), the director's always; 401 without a token."""
    token = bearer(request)
    if token is None:
        raise Refused(401, NO_TOKEN, UNAUTHORISED)
    live = live_event(request)
    found = live.table_for_token(token)
    if found is None and not await run_in_threadpool(live.director_for_token, token):
        raise Refused(401, "the token is not this session's table or director token", UNAUTHORISED)
    # 0 is no board: anything that is not a whole number is not found.
    number = int(board) if board.isascii() and board.isdigit() and len(board) <= 6 else 0
    if number not in live.movement.boards:
        raise Refused(404, f"board {quoted(board)} is not a board of this event")
    if found is not None:
        section, table = found
        if not await in_turn(request, partial(live.has_entered, section, table, number)):
            raise Refused(
                403,
                f"table {table} has not entered board {number}: its traveller is shown to "
                "the table once the table has entered it",
            )
    own_section = None if found is None else found[0]
    drawn = await in_turn(request, partial(live.traveller, number, own_section))
    return _json(drawn.as_dict())


@router.get("/ranking")
async def ranking(request: Request) -> Response:
    """The ranking as ``session score --json`` prints it (the director's eyes only while hidden)."""
    live = live_event(request)

    def refused() -> bool:
        return live.ranking_hidden and not is_director(request)

    if await run_in_threadpool(refused):
        raise Refused(403, "the director has hidden the ranking until the end of the session")
    drawn = await public_ranking(request).document(request, live)
    return Response(drawn.body, drawn.status, media_type="application/json")


def _ranking_document(request: Request) -> Drawn:
    return Drawn(200, json.dumps(live_event(request).ranking().as_dict()).encode())


def _json(data: object, status: int = 200) -> Response:
    # Straight to bytes: FastAPI's encoder would walk every value of a ranking again.
    return Response(json.dumps(data), status_code=status, media_type="application/json")


def _error_page(request: Request, status: int, text: str, headers: Mapping[str, str]) -> Response:
    try:
        title = HTTPStatus(status).phrase
    except ValueError:
        title = "Error"
    page = message(request, status, title, text)
    page.headers.update(headers)
    return page


def _refused(request: Request, error: Exception) -> Response:
    assert isinstance(error, Refused)
    return error_answer(request, error.status, error.detail, _error_page, error.headers)


async def _not_stored(request: Request, error: Exception) -> Response:
    # 507 Insufficient Storage: the server's state, not the client's input, and a phone
    # must be told plainly that what it sent is not kept, so that it sends it again.
    text = (
        f"This was NOT stored, and nothing else has changed: {error}. Tell the director; "
        "once the server can write again, send it again."
    )
    return error_answer(request, 507, text, _not_stored_page)


def _not_stored_page(
    request: Request, status: int, text: str, headers: Mapping[str, str]
) -> Response:
    return message(request, status, "Not stored", text)


def create_live_app(event_path: Path | str, *, settings: LiveSettings | None = None) -> FastAPI:
    """The live session server for the event file at ``event_path``.

    The event is opened here (a :class:`~bridgescore.BridgeError` if it is not a
    live event) and closed when the app shuts down.
    """
    settings = settings or LiveSettings()
    live = LiveEvent(event_path)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Score once before the first phone asks: the scoring modules load now, so the
        # first ranking is as quick as the rest. An event that cannot be scored still
        # serves its tables; GET /api/live/ranking says why.
        with contextlib.suppress(BridgeError):
            await run_in_threadpool(live.ranking)
        try:
            yield
        finally:
            app.state.worker.shutdown(wait=True)
            live.close()

    app = FastAPI(
        lifespan=lifespan,
        title="bridgescore live session",
        version=__version__,
        description="Table entry, director and ranking API of a live club session.",
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    app.state.live = live
    app.state.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-event")
    app.state.results = ResultQueue(live, app.state.worker)
    app.state.public_ranking = PublicRanking(tables.public_page, _ranking_document)
    app.state.settings = settings
    app.state.login_throttle = LoginThrottle(
        settings.login_failures, settings.login_window, clock=settings.clock
    )
    app.add_exception_handler(StarletteHTTPException, http_error(_error_page))
    app.add_exception_handler(Refused, _refused)
    app.add_exception_handler(NotThisTableError, answering(403, _error_page))
    app.add_exception_handler(AlreadyEnteredError, answering(409, _error_page))
    app.add_exception_handler(SessionClosedError, answering(409, _error_page))
    app.add_exception_handler(RoundOpenError, answering(409, _error_page))
    app.add_exception_handler(BridgeError, answering(422, _error_page))
    app.add_exception_handler(StorageError, _not_stored)
    app.include_router(router)
    app.include_router(tables.router)
    app.include_router(changes.router)  # a late pair, a swapped table
    app.add_middleware(BodySizeLimit, limit=settings.max_body)
    app.add_middleware(SecurityHeaders, headers=LIVE_SECURITY_HEADERS, docs=False)
    guard_access_log()
    return app
