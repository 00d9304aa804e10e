"""The results site of each listed event (``GET /results/{event}/{page}``), built once
per version of its event file; and listed events scored as one simultaneous pairs
(``GET /api/sim``).

Building a site scores the event and writes every page (one per board and per
pair: 1,100 pairs make over a thousand pages), so a page view must not do it:
:class:`SiteCache` keeps the pages built for each event file and builds them again
only when the file changes: its version as SQLite counts it (``PRAGMA data_version``
on a connection the cache keeps to each file, which moves with every commit another
connection makes), and the file's identity (a file replaced is a new event). It
keeps a few events' sites (:data:`CACHED_SITES`, and at most :data:`CACHED_CHARACTERS`
characters in all, besides the last one built), dropping the least recently read. A
2 MB upload of 1,100 pairs makes a site of 50 MB.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from bridgescore.errors import BridgeError, RecordError
from bridgescore.validate import quoted
from bridgescore.web.pages import _HEADERS, _events, _not_found, _page
from bridgescore.web.schemas import ErrorDetail

__all__ = [
    "CACHED_CHARACTERS",
    "CACHED_SITES",
    "MAX_SIM_EVENTS",
    "SiteCache",
    "api_router",
    "router",
]

CACHED_SITES = 8
CACHED_CHARACTERS = 64_000_000
# A county sim is tens of clubs; a request naming more is refused before any is read.
MAX_SIM_EVENTS = 500

router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix="/api", tags=["api"])

# What says an event file changed: the file's identity (inode) and SQLite's version of it,
# or None when SQLite cannot read it (such a file is tried again at every view).
Stamp = tuple[int, int] | None


class _Watch:
    """An event file kept open read-only (:class:`EventStore`), asked for its version.

    ``PRAGMA data_version`` moves whenever another connection commits, whatever the file's
    size or time say (a write within a second, or one that leaves the size as it was, is
    seen)."""

    def __init__(self, path: Path, inode: int) -> None:
        from bridgescore.session.store.events import EventStore

        self.inode = inode
        self.store = EventStore(path, mode="read")

    def version(self) -> int:
        return self.store.data_version()

    def close(self) -> None:
        self.store.close()


class SiteCache:
    """The results sites of event files, each built once per version of its file.

    ``builds`` counts the sites built (tests read it). Thread-safe: page views run
    in the server's threads; one lock also means one build at a time, so a burst
    of views of a new event builds its site once.
    """

    def __init__(self, size: int = CACHED_SITES, characters: int = CACHED_CHARACTERS) -> None:
        self.size = max(1, size)
        self.characters = characters
        self.builds = 0
        self._sites: OrderedDict[Path, tuple[Stamp, dict[str, str], int]] = OrderedDict()
        self._watches: dict[Path, _Watch] = {}
        self._lock = threading.Lock()

    def _stamp(self, path: Path) -> Stamp:
        watch = self._watches.get(path)
        try:
            inode = os.stat(path).st_ino
            if watch is None or watch.inode != inode:
                if watch is not None:
                    watch.close()
                    del self._watches[path]
                watch = self._watches[path] = _Watch(path, inode)
            return (inode, watch.version())
        except (OSError, sqlite3.Error, BridgeError):
            return None

    def pages(self, path: Path) -> dict[str, str]:
        """The site's pages (name -> text) for the event file at ``path``.

        Raises :class:`~bridgescore.errors.BridgeError` for an event that cannot be
        read or scored (nothing is kept then, so a fixed file is tried again).
        """
        with self._lock:
            stamp = self._stamp(path)
            kept = self._sites.get(path)
            if kept is not None and stamp is not None and kept[0] == stamp:
                self._sites.move_to_end(path)
                return kept[1]
            built = _build(path)
            self.builds += 1
            # Stamped as the file was before reading: a write during the build is seen
            # as a change at the next view, never hidden.
            size = sum(len(text) for text in built.values())
            self._sites[path] = (stamp, built, size)
            self._sites.move_to_end(path)
            while len(self._sites) > 1 and (
                len(self._sites) > self.size
                or sum(site[2] for site in self._sites.values()) > self.characters
            ):
                dropped, _ = self._sites.popitem(last=False)
                watch = self._watches.pop(dropped, None)
                if watch is not None:
                    watch.close()
            return built


def _build(path: Path) -> dict[str, str]:
    from bridgescore.session.leads import field_leads
    from bridgescore.session.reports.site import results_site
    from bridgescore.session.store.events import EventStore
    from bridgescore.session.workflow import score_stored_event

    # Scored as `session report --html` scores it (the event's method, its name or
    # else its file's); a page view never solves or writes.
    with EventStore(path, mode="read") as store:
        scored = score_stored_event(store, pars="stored")
        # The leads made at the tables, without their costs: those need DDS.
        leads = field_leads(scored.travellers, store.leads(), store.boards(), solve=False)
    return results_site(scored, leads=leads)


@router.get("/results/{event}/{page}", response_class=HTMLResponse)
def results_page(request: Request, event: str, page: str) -> Response:
    """A page of an event's results site (ranking, boards with hand records, scorecards)."""
    path = _events(request).get(event)  # a name the server listed, never a path
    if path is None:
        return _not_found(request, "session", event)
    cache: SiteCache = request.app.state.sites
    try:
        pages = cache.pages(path)
    except BridgeError as error:
        return _page(request, "missing.html", active="session", name=f"{event}: {error}")
    text = pages.get(page)
    if text is None:
        return _not_found(request, "session", f"{event}/{page}")
    media = "text/css" if page.endswith(".css") else "text/html"
    return Response(text, media_type=media, headers=_HEADERS)


_SIM_ANSWERS: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorDetail, "description": "An event the server does not list."},
    422: {"model": ErrorDetail, "description": "The events cannot be a sim; `detail` says why."},
}


@api_router.get("/sim", responses=_SIM_ANSWERS)
def sim(
    request: Request,
    event: Annotated[list[str], Query(description="A listed event file's name, once per club.")],
    name: Annotated[str, Query(max_length=200, description="The sim's name.")] = "",
) -> JSONResponse:
    """Listed events of several clubs, played on the same boards, matchpointed as one
    field (as ``session sim --json`` prints it, without writing a file): the field's
    ranking, each club's ranking and the outliers. 404 for an event the server does
    not list; 422 for fewer than two, one club twice or a board dealt two ways."""
    from bridgescore.session.sim import sim_dict, sim_of_files

    if len(event) > MAX_SIM_EVENTS:
        raise RecordError(f"a sim takes at most {MAX_SIM_EVENTS} events, got {len(event)}")
    if len(event) < 2:
        raise RecordError(f"a sim needs the events of two clubs or more, got {len(event)}")
    listed = _events(request)  # names the server listed, never paths
    missing = [entry for entry in event if entry not in listed]
    if missing:
        return JSONResponse(
            {
                "detail": f"no event {quoted(missing[0])} is listed: expected one of the "
                "event files the server shows (GET /session)"
            },
            status_code=404,
        )
    if len(set(event)) != len(event):
        twice = next(entry for entry in event if event.count(entry) > 1)
        raise RecordError(f"event {quoted(twice)} is named twice: each club's event once")
    return JSONResponse(sim_dict(sim_of_files([listed[entry] for entry in event], name)))
