"""Upload a session file and browse its results site (the pages of
``bridgescore session report EV --html DIR/``), served by the web app.

- ``GET /upload``: the form. ``POST /upload``: a PBN, LIN (vugraph archive),
  USEBIO or CSV session file (multipart),
  bounded in size (:class:`UploadBodyLimit`), read with the session importer and
  stored as a new event file in the configured events directory under a name
  the server chooses (``upload-<time>-<random>.db``); nothing the client sends
  becomes part of a path. Missing double-dummy tables are solved once, in the
  solver pool, and cached in the event file.
- The results site of each event, page by page: :mod:`bridgescore.web.results`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio.to_thread
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from bridgescore.ddtable import DDTable
from bridgescore.errors import BridgeError
from bridgescore.web.api import client_address
from bridgescore.web.jobs import solve_tables
from bridgescore.web.limits import ASGIApp, BodySizeLimit, Receive, Scope, Send, SolverBusy
from bridgescore.web.pages import _page

__all__ = [
    "IMPORTS_WAITING",
    "MAX_UPLOADED_EVENTS",
    "MAX_UPLOAD_BYTES",
    "ImportQueue",
    "UploadBodyLimit",
    "UploadRefused",
    "router",
]

MAX_UPLOAD_BYTES = 2 * 1024 * 1024
MAX_UPLOADED_EVENTS = 200
IMPORTS_WAITING = 4
_UPLOADED = re.compile(r"upload-\d{8}-\d{6}-[0-9a-f]{8}\.db")
UPLOAD_PATH = "/upload"
_KINDS = ("pairs", "teams")
_ACCEPTED = "PBN, LIN, USEBIO or CSV"
_SUFFIXES = (".pbn", ".lin", ".xml", ".csv", ".txt")

router = APIRouter(include_in_schema=False)


class UploadBodyLimit:
    """The app's body limit, with a larger one for the upload form only."""

    def __init__(self, app: ASGIApp, limit: int, upload_limit: int = MAX_UPLOAD_BYTES) -> None:
        self.default = BodySizeLimit(app, limit)
        self.upload = BodySizeLimit(app, upload_limit)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        chosen = self.upload if scope.get("path") == UPLOAD_PATH else self.default
        await chosen(scope, receive, send)


def _form(request: Request, status: int = 200, **context: Any) -> HTMLResponse:
    configured = request.app.state.settings.events is not None
    response = _page(request, "upload.html", active="session", configured=configured, **context)
    response.status_code = status
    return response


@router.get(UPLOAD_PATH, response_class=HTMLResponse)
def upload_page(request: Request) -> HTMLResponse:
    """The upload form."""
    return _form(request)


class UploadRefused(Exception):
    """An upload refused before it is read: no room for it (409), or too many waiting (503)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class ImportQueue:
    """Uploads read one at a time, ``waiting`` more queued, ``quota`` uploaded events kept.

    Reading a file is CPU work in a thread; two at once would only share the CPU
    (and the interpreter's lock) and slow every page. The quota counts the events
    this server stored (``upload-*.db``) and those being stored now; past it an
    upload is refused and nothing is dropped: an event is removed only by whoever
    runs the server (the oldest files first, by their names' times, if they like).
    """

    def __init__(self, quota: int = MAX_UPLOADED_EVENTS, waiting: int = IMPORTS_WAITING) -> None:
        self.quota = max(0, quota)
        self.waiting = max(0, waiting)
        self._storing = 0
        self._queued = 0
        self._lock = asyncio.Lock()

    @contextlib.contextmanager
    def reserve(self, root: Path) -> Iterator[None]:
        """Room for one more uploaded event in ``root``, kept while it is stored."""
        stored = sum(1 for entry in root.iterdir() if _UPLOADED.fullmatch(entry.name))
        if stored + self._storing >= self.quota:
            raise UploadRefused(
                409,
                f"this server keeps at most {self.quota} uploaded events and holds "
                f"{stored + self._storing}: nothing was stored (the events directory's "
                "upload-*.db files can be removed by whoever runs the server)",
            )
        self._storing += 1
        try:
            yield
        finally:
            self._storing -= 1

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """Wait for this upload's turn to be read; refused when too many are waiting."""
        if self._queued > self.waiting:
            raise UploadRefused(
                503,
                f"the server is reading {self._queued} other uploads: nothing was stored; "
                "send the file again in a minute",
            )
        self._queued += 1
        try:
            async with self._lock:
                yield
        finally:
            self._queued -= 1


def _new_event_path(root: Path) -> tuple[Path, Path]:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    name = f"upload-{stamp}-{secrets.token_hex(4)}.db"
    # Built under a hidden name (never listed) and renamed once complete.
    return root / f".{name}.part", root / name


@dataclass(frozen=True, slots=True)
class _Imported:
    """What an import stored in the building file, read back in the worker thread."""

    added: int
    boards: int
    name: str
    problems: list[str]
    unsolved: dict[int, Any]  # board number -> deal, for boards without a DD table


def _import_upload(
    building: Path, data: bytes, source: str, title: str, kind: str, client_name: str
) -> _Imported:
    """Read the upload into a new event file at ``building`` (runs in a worker thread)."""
    from bridgescore.distributed import hold
    from bridgescore.session.importers.importer import import_data
    from bridgescore.session.store.events import EventStore

    with EventStore(building) as store:
        store.set_info(name=title or None, kind=kind)
        hold("upload-import", 0)  # the test hook (docs/testing.md): the import is here
        report = import_data(store, data, source)
        if not store.name:
            store.set_info(name=Path(client_name).stem[:80] or "Session")
        problems = [
            f"line {problem.line}: {problem.message}" if problem.line else problem.message
            for problem in report.problems
        ]
        unsolved = {
            number: board.deal
            for number, board in store.boards().items()
            if board.deal and board.dd_table is None
        }
        return _Imported(report.results.added, report.boards.added, store.name, problems, unsolved)


def _keep_tables(building: Path, tables: dict[int, str]) -> None:
    """Store solved DD tables in the event file (runs in a worker thread)."""
    from bridgescore.session.store.events import EventStore

    with EventStore(building, mode="write") as store:
        for number, table in tables.items():
            store.set_dd_table(number, DDTable.parse(table))


@router.post(UPLOAD_PATH, response_class=HTMLResponse)
async def upload(request: Request) -> HTMLResponse:
    """Store an uploaded session file as a new event and link to its results."""
    root: Path | None = request.app.state.settings.events
    if root is None:
        return _form(request, 400, error="This server has no events directory (serve --events).")
    form = await request.form()
    upload_file = form.get("file")
    if upload_file is None or isinstance(upload_file, str):
        return _form(request, 422, error=f"Choose a {_ACCEPTED} file to upload.")
    client_name = upload_file.filename or ""
    data = await upload_file.read()
    kind = str(form.get("kind") or "pairs")
    if kind not in _KINDS:
        return _form(request, 422, error=f"event kind {kind!r}: expected pairs or teams")
    # The name a user typed wins; else the file's own (PBN Event, USEBIO event name,
    # vugraph title: the importer reads it), else the uploaded file's name, as on the CLI.
    title = str(form.get("name") or "").strip()[:80]
    # The importer picks the reader by content (USEBIO, LIN, PBN, CSV); the file's own
    # extension only helps it, and the name the problems quote is the server's.
    suffix = Path(client_name).suffix.lower()
    source = "upload" + (suffix if suffix in _SUFFIXES else "")
    imports: ImportQueue = request.app.state.imports
    try:
        root.mkdir(parents=True, exist_ok=True)
        with imports.reserve(root):
            building, final = _new_event_path(root)
            try:
                async with imports.turn():
                    # In a thread: a 2 MB file takes seconds to read, and the event
                    # loop must answer every other request meanwhile.
                    imported = await anyio.to_thread.run_sync(
                        _import_upload, building, data, source, title, kind, client_name
                    )
                if not imported.added:
                    building.unlink(missing_ok=True)
                    return _form(
                        request,
                        422,
                        error=f"{client_name or 'the file'} holds no results to score",
                        problems=imported.problems,
                    )
                notes = await _solve_missing(request, building, imported.unsolved)
                os.replace(building, final)
            finally:
                building.unlink(missing_ok=True)
    except UploadRefused as refused:
        response = _form(request, refused.status, error=str(refused))
        if refused.status == 503:
            response.headers["Retry-After"] = "60"
        return response
    except (BridgeError, OSError) as error:
        return _form(request, 422, error=f"could not store the event: {error}")
    return _form(
        request,
        200,
        stored=final.name,
        event_name=imported.name,
        results=imported.added,
        boards=imported.boards,
        problems=imported.problems,
        notes=notes,
    )


async def _solve_missing(request: Request, building: Path, unsolved: dict[int, Any]) -> list[str]:
    if not unsolved:
        return []
    try:
        tables = await request.app.state.solver.run(
            solve_tables, list(unsolved.values()), client=client_address(request)
        )
    except (ImportError, SolverBusy, BridgeError) as error:
        return [f"double-dummy tables not solved ({error}): hand records show no DD table or par"]
    await anyio.to_thread.run_sync(_keep_tables, building, dict(zip(unsolved, tables, strict=True)))
    return []
