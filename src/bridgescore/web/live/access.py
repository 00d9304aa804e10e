"""Who is asking the live API: a table's token or the director's (FastAPI dependencies),
the JSON body, and the refusals (:class:`Refused`) the app answers with."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool

from bridgescore.session.live.event import LiveEvent
from bridgescore.validate import is_whole_number, quoted

__all__ = [
    "NO_TOKEN",
    "UNAUTHORISED",
    "DirectorAccess",
    "JsonObject",
    "Refused",
    "TableAccess",
    "bearer",
    "director",
    "director_target",
    "is_director",
    "json_object",
    "live_event",
    "table_of",
]


class Refused(Exception):
    """An answer other than success, raised from a dependency or an endpoint."""

    def __init__(self, status: int, detail: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.headers = headers or {}


NO_TOKEN = (
    "this needs a token: send 'Authorization: Bearer <token>' with your table's token "
    "(from its card) or the director's (from POST /api/live/director/login)"
)
UNAUTHORISED = {"WWW-Authenticate": "Bearer"}


def live_event(request: Request) -> LiveEvent:
    live: LiveEvent = request.app.state.live
    return live


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


async def table_of(request: Request) -> tuple[str, int]:
    """The (section, table) whose token the request carries; 401 without a valid one,
    403 for the director's token."""
    # Run on the event loop: a valid table token is found in memory, so the common case
    # takes no trip through the thread pool; only "is it the director's?" reads the file.
    token = bearer(request)
    if token is None:
        raise Refused(401, NO_TOKEN, UNAUTHORISED)
    live = live_event(request)
    found = live.table_for_token(token)
    if found is None:
        if await run_in_threadpool(live.director_for_token, token):
            raise Refused(403, "this needs a table's token; the director's is not one")
        raise Refused(401, "the token is not a table's token for this session", UNAUTHORISED)
    return found


def director(request: Request) -> None:
    """Pass only with a valid director session token: 401 without one, 403 for a table's."""
    token = bearer(request)
    if token is None:
        raise Refused(401, NO_TOKEN, UNAUTHORISED)
    live = live_event(request)
    if live.director_for_token(token):
        return
    if live.table_for_token(token) is not None:
        raise Refused(403, "only the director may do this; a table's token may not")
    raise Refused(
        401,
        "the token is not a director's session token (or it has expired): "
        "log in again at POST /api/live/director/login",
        UNAUTHORISED,
    )


def is_director(request: Request) -> bool:
    token = bearer(request)
    return token is not None and live_event(request).director_for_token(token)


async def json_object(request: Request) -> dict[str, Any]:
    """The request body as a JSON object, or 422 saying what is wrong with it."""
    raw = await request.body()
    if not raw.strip():
        raise Refused(422, "the request body is empty: expected a JSON object")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise Refused(422, "the request body is not UTF-8 text: expected a JSON object") from None
    except (ValueError, RecursionError) as error:
        # ValueError covers bad JSON and integers past Python's digit limit;
        # RecursionError, arrays nested thousands deep.
        reason = str(error) if isinstance(error, ValueError) else "nested too deeply"
        raise Refused(422, f"the request body is not valid JSON ({reason})") from None
    if not isinstance(data, dict):
        raise Refused(422, f"the request body must be a JSON object, got a JSON {_json_kind(data)}")
    return data


def _json_kind(value: object) -> str:
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if value is True or value is False:
        return "boolean"
    if value is None:
        return "null"
    return "number"


def director_target(live: LiveEvent, body: dict[str, Any]) -> tuple[str, int, dict[str, Any]]:
    """The section and table a director's body names, and the rest of the body."""
    rest = dict(body)
    table = rest.pop("table", None)
    section = rest.pop("section", None)
    if table is None:
        raise Refused(422, "table: missing: expected the table number, such as 3")
    if not is_whole_number(table, 1):
        raise Refused(422, f"table: {quoted(table)} is not a table number: expected 1, 2, ...")
    names = list(live.movements)
    if section is None:
        if len(names) > 1:
            raise Refused(
                422,
                f"section: missing: this event has {len(names)} sections, "
                f"{', '.join(names)}: expected one of them, such as {names[0]!r}",
            )
        # An event of one section: the body need not name it.
        section = names[0]
    if not isinstance(section, str) or section not in names:
        raise Refused(
            422,
            f"section: {quoted(section)} is not a section of this event: expected "
            + ("one of " if len(names) > 1 else "")
            + ", ".join(repr(name) for name in names),
        )
    return section, table, rest


TableAccess = Annotated[tuple[str, int], Depends(table_of)]
DirectorAccess = Annotated[None, Depends(director)]
JsonObject = Annotated[dict[str, Any], Depends(json_object)]
