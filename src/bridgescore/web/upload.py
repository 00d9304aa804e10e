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

import os
import secrets
import time
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from bridgescore.ddtable import DDTable
from bridgescore.errors import BridgeError
from bridgescore.web.api import client_address
from bridgescore.web.limits import ASGIApp, BodySizeLimit, Receive, Scope, Send, SolverBusy
from bridgescore.web.pages import _page

__all__ = ["MAX_UPLOAD_BYTES", "UploadBodyLimit", "router", "solve_tables"]

MAX_UPLOAD_BYTES = 2 * 1024 * 1024
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


def solve_tables(deals: list[str]) -> list[str]:
    """Solver job (runs in a worker process): DD tables of PBN deals, as hex text."""
    from bridgescore.solver import solve_many

    return [str(table) for table in solve_many(deals)]


def _form(request: Request, status: int = 200, **context: Any) -> HTMLResponse:
    configured = request.app.state.settings.events is not None
    response = _page(request, "upload.html", active="session", configured=configured, **context)
    response.status_code = status
    return response


@router.get(UPLOAD_PATH, response_class=HTMLResponse)
def upload_page(request: Request) -> HTMLResponse:
    """The upload form."""
    return _form(request)


def _new_event_path(root: Path) -> tuple[Path, Path]:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    name = f"upload-{stamp}-{secrets.token_hex(4)}.db"
    # Built under a hidden name (never listed) and renamed once complete.
    return root / f".{name}.part", root / name


@router.post(UPLOAD_PATH, response_class=HTMLResponse)
async def upload(request: Request) -> HTMLResponse:
    """Store an uploaded session file as a new event and link to its results."""
    from bridgescore.session.importer import import_data
    from bridgescore.session.store import EventStore

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
    root.mkdir(parents=True, exist_ok=True)
    building, final = _new_event_path(root)
    try:
        with EventStore(building) as store:
            store.set_info(name=title or None, kind=kind)
            report = import_data(store, data, source)
            if not store.name:
                store.set_info(name=Path(client_name).stem[:80] or "Session")
            problems = [
                f"line {problem.line}: {problem.message}" if problem.line else problem.message
                for problem in report.problems
            ]
            added, boards = report.results.added, report.boards.added
            event_name = store.name
            notes = await _solve_missing(request, store) if added else []
        if not added:
            Path(building).unlink(missing_ok=True)
            return _form(
                request,
                422,
                error=f"{client_name or 'the file'} holds no results to score",
                problems=problems,
            )
        os.replace(building, final)
    except (BridgeError, OSError) as error:
        Path(building).unlink(missing_ok=True)
        return _form(request, 422, error=f"could not store the event: {error}")
    return _form(
        request,
        200,
        stored=final.name,
        event_name=event_name,
        results=added,
        boards=boards,
        problems=problems,
        notes=notes,
    )


async def _solve_missing(request: Request, store: Any) -> list[str]:
    waiting = {n: b.deal for n, b in store.boards().items() if b.deal and b.dd_table is None}
    if not waiting:
        return []
    try:
        tables = await request.app.state.solver.run(
            solve_tables, list(waiting.values()), client=client_address(request)
        )
    except (ImportError, SolverBusy, BridgeError) as error:
        return [f"double-dummy tables not solved ({error}): hand records show no DD table or par"]
    for number, table in zip(waiting, tables, strict=True):
        store.set_dd_table(number, DDTable.parse(table))
    return []
