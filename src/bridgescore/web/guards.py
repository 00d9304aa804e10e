"""What every answer of both servers carries, and which requests ``serve`` refuses outright.

:class:`SameSiteOnly` refuses a request that changes something (``POST``, ``PUT``,
``PATCH``, ``DELETE``) when the browser says it comes from another site: a
``Sec-Fetch-Site`` other than ``same-origin`` or ``none`` (typed by the user), or,
from a browser too old to send that header, an ``Origin`` other than this server's
own. Any page the user visits could otherwise post to ``/upload`` and store events;
a command-line client sends neither header and is not affected. Forms need no token
for this: browsers have sent one header or the other on every cross-site post for
years.

:class:`SecurityHeaders` is the one security-header middleware of ``serve`` and of
the live server (``session live``): it adds :data:`SECURITY_HEADERS` (``serve``) or
:data:`LIVE_SECURITY_HEADERS` (the live server) to every answer that lacks them,
``/docs`` and errors included. The API documentation (Swagger UI) starts from a
short inline script, so its pages get a policy allowing exactly that script, by
its SHA-256, and nothing else inline.

:func:`error_answer` is the one shape of an error on both servers: ``{"detail":
message}`` to the JSON API, a page of the site (each server draws its own) to a
browser. :func:`answering` makes the exception handler of one kind of error from it;
a client's bad input is a 4xx this way, never a 5xx.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Awaitable, Callable, Mapping
from http import HTTPStatus

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from bridgescore.web.limits import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "LIVE_SECURITY_HEADERS",
    "NO_SCRIPT_POLICY",
    "SECURITY_HEADERS",
    "ErrorPage",
    "SameSiteOnly",
    "SecurityHeaders",
    "answering",
    "docs_policy",
    "error_answer",
    "http_error",
    "is_api",
]

_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src {scripts}; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
#: Sent with every answer of both servers unless a page sets its own. Pages only load
#: their own script and style; nothing inline runs, and no other site may frame them
#: (frame-ancestors, and X-Frame-Options for browsers before CSP 2), open them in a
#: window it can reach (COOP) or embed their answers (CORP). ``no-referrer`` matters
#: most for the live server: a table's link carries its token, which a Referer header
#: would hand to any other site.
SECURITY_HEADERS = {
    "Content-Security-Policy": _POLICY.format(scripts="'self'"),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
#: The policy of pages that run no script at all (the live server's).
NO_SCRIPT_POLICY = _POLICY.format(scripts="'none'")
#: The live server's: the same, and no caching. Its scores and tokens change under the
#: client's feet and must not sit in shared caches; ``serve``'s assets and Swagger UI's
#: files do not change while it runs, so a browser may keep them.
LIVE_SECURITY_HEADERS = {**SECURITY_HEADERS, "Cache-Control": "no-store"}
_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_FETCHED_HERE = frozenset({b"same-origin", b"none"})
_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL)


def docs_policy(page: bytes) -> str:
    """The Content-Security-Policy of an API documentation page: this server's scripts
    and the page's own inline scripts, each named by its SHA-256.

    >>> docs_policy(b"<script>go()</script>").split("; ")[3]
    "script-src 'self' 'sha256-5KYv+PUboo5h+0+YAtGRPbwv5d/QxzHslP4YGnUaxRw='"
    """
    hashes = [
        "'sha256-" + base64.b64encode(hashlib.sha256(script).digest()).decode("ascii") + "'"
        for script in _INLINE_SCRIPT.findall(page)
    ]
    return _POLICY.format(scripts=" ".join(["'self'", *hashes]))


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            found: bytes = value
            return found
    return None


def _own_origin(scope: Scope) -> bytes:
    host = _header(scope, b"host") or b""
    scheme: str = scope.get("scheme", "http")
    return scheme.encode("ascii") + b"://" + host.lower()


class SameSiteOnly:
    """ASGI middleware: a changing request from another site is a 403 with a message."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in _CHANGING:
            reason = self._cross_site(scope)
            if reason is not None:
                await _refuse(send, reason)
                return
        await self.app(scope, receive, send)

    @staticmethod
    def _cross_site(scope: Scope) -> str | None:
        fetched = _header(scope, b"sec-fetch-site")
        if fetched is not None:
            # The browser's own word, which no page can set, comes first: under this
            # server's Referrer-Policy (no-referrer) a browser sends "Origin: null" even
            # for a form posted from its own page.
            if fetched.lower() in _FETCHED_HERE:
                return None
            return (
                f"refused: the browser says this request comes from another site "
                f"(Sec-Fetch-Site: {fetched.decode('latin-1')[:40]}); use this server's "
                "own pages, or a client that sends no Origin"
            )
        origin = _header(scope, b"origin")
        if origin is not None and origin.lower() != _own_origin(scope):
            return (
                f"refused: the request comes from the page of another site "
                f"(Origin: {origin.decode('latin-1')[:80]}); use this server's own pages, "
                "or a client that sends no Origin"
            )
        return None


async def _refuse(send: Send, detail: str) -> None:
    body = json.dumps({"detail": detail}, separators=(",", ":")).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *_ENCODED,
    ]
    await send({"type": "http.response.start", "status": 403, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _encoded(headers: Mapping[str, str]) -> list[tuple[bytes, bytes]]:
    return [(name.lower().encode(), value.encode()) for name, value in headers.items()]


_ENCODED = _encoded(SECURITY_HEADERS)


class SecurityHeaders:
    """ASGI middleware adding ``headers`` (:data:`SECURITY_HEADERS` unless told) to
    every answer lacking them.

    With ``docs`` (``serve`` has the API documentation; the live server has none),
    answers under ``/docs`` get :func:`docs_policy` instead of the pages' policy: the
    body is read whole first (a few kilobytes).
    """

    def __init__(
        self, app: ASGIApp, headers: Mapping[str, str] = SECURITY_HEADERS, *, docs: bool = True
    ) -> None:
        self.app = app
        self.headers = _encoded(headers)
        self.docs = docs

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        if self.docs and (
            path == "/docs" or (path.startswith("/docs/") and not path.startswith("/docs/assets"))
        ):
            await self._docs(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = _added(list(message.get("headers", ())), self.headers)
            await send(message)

        await self.app(scope, receive, with_headers)

    async def _docs(self, scope: Scope, receive: Receive, send: Send) -> None:
        start: Message | None = None
        chunks: list[bytes] = []

        async def collect(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
                return
            if message["type"] != "http.response.body":
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body", False) or start is None:
                return
            page = b"".join(chunks)
            policy = docs_policy(page).encode()
            own = [(b"content-security-policy", policy)]
            headers = _added(_added(list(start.get("headers", ())), own), self.headers)
            await send({**start, "headers": headers})
            await send({"type": "http.response.body", "body": page})

        await self.app(scope, receive, collect)


def _added(
    headers: list[tuple[bytes, bytes]], extra: list[tuple[bytes, bytes]]
) -> list[tuple[bytes, bytes]]:
    present = {name.lower() for name, _ in headers}
    return headers + [(name, value) for name, value in extra if name not in present]


#: How a server draws an error as a page: (request, status, message, headers) to a response.
ErrorPage = Callable[[Request, int, str, Mapping[str, str]], Response]


def is_api(request: Request) -> bool:
    """Whether a request is for a JSON API (answered JSON) rather than a page (HTML).

    Decided by path alone: a browser's Accept header asks for HTML even when a
    script fetches the API, and a client must get the same answer either way.
    """
    path: str = request.scope.get("path", "")
    return path in ("/api", "/openapi.json") or path.startswith("/api/")


def error_answer(
    request: Request,
    status: int,
    message: str,
    page: ErrorPage,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """An error as both servers answer it: ``{"detail": message}`` with ``status`` to
    the API, ``page`` (the server's own error page) to a browser."""
    if is_api(request):
        return JSONResponse({"detail": message}, status_code=status, headers=dict(headers or {}))
    return page(request, status, message, headers or {})


def answering(status: int, page: ErrorPage) -> Callable[[Request, Exception], Awaitable[Response]]:
    """The exception handler answering an error with ``status`` and its own message."""

    async def handler(request: Request, error: Exception) -> Response:
        return error_answer(request, status, str(error), page)

    return handler


def _shown(path: str) -> str:
    return repr(path if len(path) <= 80 else path[:77] + "...")


def _http_message(request: Request, error: HTTPException, api_index: str | None) -> str:
    """The routing's bare phrases ("Not Found") said with the path and what would work."""
    status = error.status_code
    detail = str(error.detail)
    try:
        generic = detail == HTTPStatus(status).phrase
    except ValueError:
        generic = False
    if not generic:
        return detail
    path = _shown(request.scope.get("path", ""))
    if status == 404:
        if not is_api(request):
            return f"there is no page at {path} here"
        listed = f": the endpoints are listed at {api_index}" if api_index else ""
        return f"no API endpoint at {path}{listed}"
    if status == 405:
        allowed = (error.headers or {}).get("Allow", "")
        return f"{request.method} is not allowed on {path}: expected " + (
            " or ".join(allowed.split(", ")) if allowed else "another method"
        )
    return detail


def http_error(
    page: ErrorPage, api_index: str | None = None
) -> Callable[[Request, Exception], Awaitable[Response]]:
    """The handler of the routing's own errors (no such page, a method not allowed, a
    body that is not JSON) in :func:`error_answer`'s shape; ``api_index`` is where the
    server lists its endpoints, named in a 404 of the API."""

    async def handler(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        status = error.status_code
        if status == 400:
            # FastAPI's answer to a body it cannot decode; to a client it is bad input.
            status = 422
            message = f"the request body is not valid JSON text in UTF-8 ({error.detail})"
        else:
            message = _http_message(request, error, api_index)
        return error_answer(request, status, message, page, error.headers)

    return handler
