"""The night's changes on the live server: a late pair and a table the wrong way round.

- ``POST /api/live/director/add-pair`` (the director's token) ``{"from_round", ["name"],
  ["section"]}``: seat a late pair in the movement's empty place (``session add-pair
  --json``'s document, with the new tables' links); 422 for a bad body or a movement
  without an empty place, 409 when play has gone past the round.
- ``POST /api/live/director/swap`` (the director's token) ``{"table", "round",
  ["section"]}``: the pairs at that table sat in each other's seats that round
  (``session swap --json``'s document); 422 for a bad body or a table not in play then.
- ``/director/changes``: the director's page for both (CSRF as every director form).

Both go through :class:`~bridgescore.session.live.event.LiveEvent` (one road with the
commands), on the app's worker, audited as the director's.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from bridgescore.errors import BridgeError, MovementError, RecordError, StorageError
from bridgescore.movement.changes import empty_place
from bridgescore.session.live.changes import LateJoin, Swapped
from bridgescore.session.live.entry import form_number
from bridgescore.session.live.event import LiveEvent
from bridgescore.session.live.players import players_named
from bridgescore.validate import is_whole_number, quoted
from bridgescore.web.live.access import DirectorAccess, JsonObject, Refused, live_event
from bridgescore.web.live.common import (
    csrf_token,
    director_token,
    in_turn,
    live_of,
    message,
    pair_names,
    render,
    see,
    table_name,
)
from bridgescore.web.live.director import _director_form, _director_page, _login_page

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


def _keys(body: dict[str, Any], allowed: tuple[str, ...]) -> None:
    unknown = [key for key in body if key not in allowed]
    if unknown:
        raise Refused(422, f"unknown key {quoted(unknown[0])}: expected {', '.join(allowed)}")


def _whole(body: dict[str, Any], key: str, example: str) -> int:
    value = body.get(key)
    if value is None:
        raise Refused(422, f"{key}: missing: expected a number, such as {example}")
    if not is_whole_number(value, 1):
        raise Refused(422, f"{key}: {quoted(value)} is not a number: expected 1, 2, ...")
    return int(value)


def _section(body: dict[str, Any]) -> str | None:
    section = body.get("section")
    if section is not None and (not isinstance(section, str) or not section):
        raise Refused(422, f"section: {quoted(section)} is not a section name such as 'A'")
    return section


def _name(body: dict[str, Any]) -> str | None:
    name = body.get("name")
    if name is None:
        return None
    if not isinstance(name, str):
        raise Refused(422, f"name: {quoted(name)} is not the players' names: expected text")
    try:
        players_named(name)
    except BridgeError as error:
        raise Refused(422, f"name: {error}") from None
    return name


async def _changing(request: Request, work: Callable[[], LateJoin | Swapped]) -> Response:
    """Run a change on the worker: 422 for what the body asked that cannot be (a table
    not in play, no empty place), 409 for what the event's state refuses."""
    try:
        done = await in_turn(request, work)
    except StorageError:
        raise
    except RecordError as error:
        raise Refused(409, str(error)) from None
    except MovementError as error:
        raise Refused(422, str(error)) from None
    return Response(json.dumps(done.as_dict()), media_type="application/json")


@router.post("/api/live/director/add-pair")
async def add_pair(request: Request, _: DirectorAccess, body: JsonObject) -> Response:
    """Seat a late pair from a round on; the new tables' links are in the answer."""
    _keys(body, ("from_round", "name", "section"))
    live = live_event(request)
    work = partial(
        live.add_late_pair,
        from_round=_whole(body, "from_round", "3"),
        name=_name(body),
        section=_section(body),
        who="director",
    )
    return await _changing(request, work)


@router.post("/api/live/director/swap")
async def swap(request: Request, _: DirectorAccess, body: JsonObject) -> Response:
    """Exchange NS and EW at a table for a round; its results follow the pairs."""
    _keys(body, ("table", "round", "section"))
    live = live_event(request)
    work = partial(
        live.swap_table,
        table=_whole(body, "table", "3"),
        round=_whole(body, "round", "2"),
        section=_section(body),
        who="director",
    )
    return await _changing(request, work)


# ------------------------------------------------------------------ the page


def _changes_context(
    live: LiveEvent, *, joined: LateJoin | None = None, error: str = ""
) -> dict[str, Any]:
    # Every section's movement: a late pair joins one section, a swap touches one table
    # of one section. A one-section event's page names no section.
    sectioned = len(live.movements) > 1
    places: list[dict[str, str]] = []
    rows: list[dict[str, Any]] = []
    for section, movement in live.movements.items():
        # A movement with no empty place (even, full, or not a Mitchell or Howell) offers none.
        with contextlib.suppress(MovementError):
            places.append({"section": section, "pair": empty_place(movement)[0]})
        rows.extend(
            {
                "row": row,
                "section": section,
                "label": table_name(live, section, row.table),
                "switched": movement.is_arrow_switched(row.round),
            }
            for row in movement.rows
        )
    return {
        "places": places,
        "sectioned": sectioned,
        "rounds": range(1, live.movement.rounds + 1),
        "rows": rows,
        "names": pair_names(live),
        "joined": joined,
        "error": error,
    }


@router.get("/director/changes", response_class=HTMLResponse)
def changes_page(request: Request) -> Response:
    """The night's changes: seat a late pair, swap a table that sat the wrong way."""
    return _director_page(request, "director_changes.html", _changes_context)


@router.post("/director/add-pair", response_class=HTMLResponse)
async def add_pair_form(request: Request) -> Response:
    """Seat a late pair; the page shows the new tables' links (only now)."""
    form, refused = await _director_form(request)
    if refused is not None:
        return refused
    live = live_of(request)
    token = director_token(request)
    if token is None:  # _director_form checked it
        return _login_page(request)
    try:
        name = " ".join(form.get("name", "").split()) or None
        joined = await in_turn(
            request,
            partial(
                live.add_late_pair,
                from_round=form_number(form, "from_round"),
                name=name,
                section=form.get("section") or None,
                who="director",
            ),
        )
    except StorageError:
        raise
    except BridgeError as error:
        context = _changes_context(live, error=str(error))
        return render(request, "director_changes.html", 422, csrf=csrf_token(token), **context)
    context = _changes_context(live, joined=joined)
    return render(request, "director_changes.html", csrf=csrf_token(token), **context)


@router.post("/director/swap", response_class=HTMLResponse)
async def swap_form(request: Request) -> Response:
    """Exchange NS and EW at one table for one round (again: undone)."""
    form, refused = await _director_form(request)
    if refused is not None:
        return refused
    try:
        table, round_number = form_number(form, "table"), form_number(form, "round")
        live = live_of(request)
        section = form.get("section") or None
        await in_turn(
            request,
            partial(
                live.swap_table, table=table, round=round_number, section=section, who="director"
            ),
        )
    except StorageError:
        raise
    except BridgeError as error:
        return message(request, 422, "Not swapped", str(error), back="/director/changes")
    return see(f"/director/changes#t{table_name(live, section or '', table)}r{round_number}")
