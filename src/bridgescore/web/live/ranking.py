"""The public ranking, drawn once per version of the event file however many phones ask.

One cache holds both of its drawings: the page (``GET /ranking``) and the JSON document
(``GET /api/live/ranking``). Each is keyed on :meth:`LiveEvent.version
<bridgescore.session.live.event.LiveEvent.version>`, SQLite's ``data_version``, which moves
with every commit to the file, whoever makes it: this server's writer, the director, or
a shell command in another process (``session correct``). So a drawing is never stale
and never needs forgetting: the first request after any change draws it again. (A time
limit, as the document once had, showed a shell's correction only when the limit ran
out, and scored the event again every second while nothing changed.)

Each phone refreshing the page used to score the event and draw its 100-200 KB under
the event's lock, and the tables' results waited behind them: at 30 tables with 100
phones on the page a result's p99 was 8 s (docs/performance.md). While a newer drawing
is under way, phones get the last one (right as of the drawing before), so only a phone
asking when no drawing is under way waits for one, and then sees every result stored
before it asked.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from fastapi import Request
from fastapi.concurrency import run_in_threadpool

from bridgescore.session.live.event import LiveEvent

__all__ = ["Drawn", "PublicRanking", "public_ranking"]


@dataclass(frozen=True, slots=True)
class Drawn:
    """One drawing: the answer's status and body."""

    status: int
    body: bytes


class _Drawing:
    """One drawing of the ranking, redrawn when the event's version moves."""

    def __init__(self, draw: Callable[[Request], Drawn]) -> None:
        self._draw_now = draw
        self.version: int | None = None
        self.drawn = Drawn(200, b"")
        self.drawing: asyncio.Future[None] | None = None

    async def get(self, request: Request, live: LiveEvent) -> Drawn:
        version = live.version()
        if self.version != version:
            if self.drawing is None:
                self.drawing = asyncio.ensure_future(self._draw(request, version))
                await asyncio.shield(self.drawing)
            elif self.version is None:
                await asyncio.shield(self.drawing)  # nothing drawn yet to show meanwhile
        return self.drawn

    async def _draw(self, request: Request, version: int) -> None:
        # The version is read before the drawing: a result stored while it is drawn
        # makes the next request draw again, never the reverse.
        try:
            drawn = await run_in_threadpool(self._draw_now, request)
            self.version, self.drawn = version, drawn
        finally:
            self.drawing = None


class PublicRanking:
    """The public ranking's page and JSON document, each drawn once per version of the
    event file. ``page`` and ``document`` draw them (on a worker thread); a drawing that
    raises is answered as its error to the request that started it, and the next
    request tries again."""

    def __init__(self, page: Callable[[Request], Drawn], document: Callable[[Request], Drawn]):
        self._page = _Drawing(page)
        self._document = _Drawing(document)

    async def page(self, request: Request, live: LiveEvent) -> Drawn:
        """The ranking page as the public sees it."""
        return await self._page.get(request, live)

    async def document(self, request: Request, live: LiveEvent) -> Drawn:
        """The ranking as ``session score --json`` prints it (without travellers)."""
        return await self._document.get(request, live)


def public_ranking(request: Request) -> PublicRanking:
    """The app's one cache of the public ranking (``app.state.public_ranking``)."""
    ranking: PublicRanking = request.app.state.public_ranking
    return ranking
