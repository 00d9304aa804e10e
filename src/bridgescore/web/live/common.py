"""What the live session's pages share: templates, cookies, CSRF tokens, forms, messages.

The pages (:mod:`bridgescore.web.live.tables`, :mod:`bridgescore.web.live.director`) take
the :class:`~bridgescore.session.live.event.LiveEvent` from ``request.app.state.live``.
Cookies are HttpOnly and SameSite=Strict, and Secure when the request came over HTTPS
(behind a reverse proxy uvicorn takes the scheme from ``X-Forwarded-Proto``). A form
that changes something carries :func:`csrf_token` of the cookie's secret.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from fastapi import Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from bridgescore.session.live.entry import ResultEntry
from bridgescore.session.live.event import LiveEvent, TableEntry
from bridgescore.web.guards import LIVE_SECURITY_HEADERS, NO_SCRIPT_POLICY

__all__ = [
    "DIRECTOR_COOKIE",
    "HEADERS",
    "LOGIN_COOKIE",
    "REFRESH_SECONDS",
    "SCAN_AGAIN",
    "TABLE_COOKIE",
    "LoginOutcome",
    "ResultQueue",
    "client_address",
    "csrf_ok",
    "csrf_token",
    "director_token",
    "enter_table_result",
    "forbidden",
    "in_turn",
    "live_of",
    "log_director_in",
    "message",
    "pair_names",
    "read_form",
    "render",
    "see",
    "set_cookie",
    "table_name",
    "table_who",
]

# The templates (templates/live/) and the stylesheet sit with the serve app's, in web/.
HERE = Path(__file__).parents[1]
templates = Jinja2Templates(directory=HERE / "templates")

TABLE_COOKIE = "bridgescore_table"
DIRECTOR_COOKIE = "bridgescore_director"
LOGIN_COOKIE = "bridgescore_login"
#: How often the public ranking reloads itself (a meta refresh: no script).
REFRESH_SECONDS = 30

# The live server's headers, and a stricter policy: no script runs on these pages;
# styles come only from our own stylesheet.
HEADERS = {**LIVE_SECURITY_HEADERS, "Content-Security-Policy": NO_SCRIPT_POLICY}

SCAN_AGAIN = (
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


def live_of(request: Request) -> LiveEvent:
    """The evening's event, which ``create_live_app`` keeps at ``app.state.live``."""
    live: LiveEvent = request.app.state.live
    return live


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    """``templates/live/TEMPLATE`` with the pages' security headers."""
    response = templates.TemplateResponse(request, f"live/{template}", context)
    response.status_code = status
    response.headers.update(HEADERS)
    return response


def message(request: Request, status: int, title: str, text: str, **extra: Any) -> HTMLResponse:
    """A page that says one thing (an error, a refusal), with an optional ``back`` link."""
    return render(request, "message.html", status, title=title, message=text, **extra)


def is_secure(request: Request) -> bool:
    # Behind a reverse proxy uvicorn takes the scheme from X-Forwarded-Proto.
    return request.url.scheme == "https"


def set_cookie(response: Response, request: Request, name: str, value: str, age: int) -> None:
    response.set_cookie(
        name,
        value,
        max_age=age,
        path="/",
        httponly=True,
        samesite="strict",
        secure=is_secure(request),
    )


def see(url: str) -> RedirectResponse:
    response = RedirectResponse(url, status_code=303)
    response.headers.update(HEADERS)
    return response


async def read_form(request: Request) -> dict[str, str]:
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


def csrf_ok(form: Mapping[str, str], secret: str) -> bool:
    return hmac.compare_digest(form.get("csrf", "").encode(), csrf_token(secret).encode())


def forbidden(request: Request) -> HTMLResponse:
    return message(
        request,
        403,
        "Form refused",
        "This form did not come from this session's pages, or it has expired: "
        "go back, reload the page and send it again.",
    )


def pair_names(live: LiveEvent) -> dict[str, dict[str, str]]:
    """Each section's named pairs and their players, as the pages show them:
    ``{"A": {"1N": "Ann Smith & Bob Jones"}, "B": {...}}`` (section A's 1N and section
    B's 1N are two pairs). The macro ``pair(label, names, section)`` of
    ``templates/live/_pair.html`` shows a label with its section's names."""
    return {section: live.pair_names(section) for section in live.movements}


def director_token(request: Request) -> str | None:
    """The director's session token from the cookie, if it is a valid one."""
    token = request.cookies.get(DIRECTOR_COOKIE, "")
    if token and live_of(request).director_for_token(token):
        return token
    return None


def client_address(request: Request) -> str:
    """The address a request came from: the socket's, or the one a proxy named with
    ``session live --forwarded-allow-ips`` forwards (uvicorn trusts that proxy alone)."""
    return request.client.host if request.client else "unknown"


@dataclass(frozen=True, slots=True)
class LoginOutcome:
    """A director's login try: the new session ``token`` when the password was right,
    ``wait`` (seconds) when this address has used up its tries, else neither (wrong)."""

    token: str | None = None
    wait: int | None = None


async def log_director_in(request: Request, password: str) -> LoginOutcome:
    """The one road of a director's login, from the page's form and from the JSON API.

    The try takes its slot in ``app.state.login_throttle`` before the password is
    checked, so concurrent guesses cannot pass the limit; scrypt (tens of milliseconds
    of CPU, by design) runs on a worker thread, so a burst of logins never holds up the
    phones' requests on the event loop.
    """
    throttle = getattr(request.app.state, "login_throttle", None)
    client = client_address(request)
    if throttle is not None:
        wait = throttle.attempt(client)
        if wait is not None:
            return LoginOutcome(wait=wait)
    live = live_of(request)
    if not await run_in_threadpool(live.check_director_password, password):
        return LoginOutcome()
    if throttle is not None:
        throttle.succeeded(client)
    return LoginOutcome(token=await run_in_threadpool(live.open_director_session))


_T = TypeVar("_T")


class ResultQueue:
    """The tables' results waiting for the event's worker thread, stored together.

    Each result used to be its own job on the worker, and its own transaction: with 30
    tables sending at once, a result waited for the commit (an fsync) of every result
    ahead of it. Now the first result to arrive puts one job on the worker, the ones
    arriving before that job starts join it, and the job stores them all in one
    transaction (:meth:`LiveEvent.enter_results`): one fsync for the lot, and each
    phone is answered once that transaction is on disk, as before.

    Any other work given to the worker (:func:`in_turn`) closes the batch first, so a
    result sent after a director's change is still stored after it.
    """

    def __init__(self, live: LiveEvent, worker: ThreadPoolExecutor) -> None:
        self._live = live
        self._worker = worker
        self._lock = threading.Lock()
        self._open: list[tuple[TableEntry, asyncio.Future[int]]] | None = None

    def put(self, waiting: TableEntry) -> asyncio.Future[int]:
        """Queue ``waiting``: the future is its NS score, or the error that refused it,
        once the batch holding it is committed. Call on the event loop."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        with self._lock:
            batch = self._open
            if batch is None:
                batch = []
                # Submitted before it is opened: a worker already shut down (the server
                # stopping) raises here, and no later result joins a batch never stored.
                self._worker.submit(self._store, batch)
                self._open = batch
            batch.append((waiting, future))
        return future

    def close_batch(self) -> None:
        """Results queued from now on go in a new batch, after the worker's next job."""
        with self._lock:
            self._open = None

    def _store(self, batch: list[tuple[TableEntry, asyncio.Future[int]]]) -> None:
        # On the worker thread. From here on nothing joins this batch.
        with self._lock:
            if self._open is batch:
                self._open = None
        try:
            answers: list[int | BaseException] = list(
                self._live.enter_results([waiting for waiting, _ in batch])
            )
        except BaseException as failed:  # nothing of the batch stored: each is told why
            answers = [failed] * len(batch)
        for (_, future), answer in zip(batch, answers, strict=True):
            future.get_loop().call_soon_threadsafe(_settle, future, answer)


def _settle(future: asyncio.Future[int], answer: int | BaseException) -> None:
    # A phone that went away has its future cancelled: its result is stored all the same.
    if future.done():
        return
    if isinstance(answer, BaseException):
        future.set_exception(answer)
    else:
        future.set_result(answer)


async def in_turn(request: Request, work: Callable[[], _T]) -> _T:
    """Run ``work`` (a call on the event file) on the app's one worker thread, in the
    order the requests came.

    The event takes one writer at a time. Thirty phones sending at once, each on a
    thread of its own waiting for the event's lock, were served in whatever order the
    lock happened to be taken, and a few waited for most of the others (p99 ten times
    the p50); one thread taking the work first come, first served keeps every wait
    near the queue's length times one result.
    """
    worker: ThreadPoolExecutor = request.app.state.worker
    results: ResultQueue | None = getattr(request.app.state, "results", None)
    if results is not None:
        results.close_batch()
    return await asyncio.get_running_loop().run_in_executor(worker, work)


def table_who(section: str, table: int, *, sectioned: bool = False) -> str:
    """Who a table is in the audit log: ``table 3`` (``table B3`` in section B, and
    ``table A3`` too in an event of several sections: ``sectioned``)."""
    return f"table {table}" if section == "A" and not sectioned else f"table {section}{table}"


def table_name(live: LiveEvent, section: str, table: int) -> str:
    """A table as the director's pages name it: ``3`` in an event of one section,
    ``B3`` in an event of several."""
    return str(table) if len(live.movements) == 1 else f"{section}{table}"


async def enter_table_result(request: Request, section: str, table: int, entry: ResultEntry) -> int:
    """The one road of a table's result, from its phone's form or the JSON API: the
    event's checks and store (:meth:`LiveEvent.enter_results`) in the worker's queue
    (:class:`ResultQueue`, stored with the results waiting beside it),
    the audit's "who" (:func:`table_who`). Returns
    the NS score; the event's errors pass through for each caller to answer."""
    results: ResultQueue = request.app.state.results
    sectioned = len(live_of(request).movements) > 1
    who = table_who(section, table, sectioned=sectioned)
    return await results.put(TableEntry(section, table, entry, who))
