"""The HTML pages: Score, Deal, Study and Session, rendered on the server.

The pages work without JavaScript (forms submit to the same page and the
server renders the answer); ``static/app.js`` makes them update as you type by
calling the JSON API. Study and session pages read only the directories given
to the server, and only entries the server listed itself: a name in a URL is
looked up among those entries, never joined to a path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from http import HTTPStatus
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from bridgescore.errors import BridgeError
from bridgescore.web import api, views
from bridgescore.web.guards import SECURITY_HEADERS

__all__ = ["error_page", "list_entries", "router", "templates"]

templates = Jinja2Templates(directory=Path(__file__).parent / "templates")
router = APIRouter(include_in_schema=False)

# Every answer gets these from the app's middleware too; pages set them themselves so
# that a page is safe whichever app serves it.
_HEADERS = SECURITY_HEADERS


def _page(request: Request, template: str, **context: Any) -> HTMLResponse:
    response = templates.TemplateResponse(request, template, context)
    response.headers.update(_HEADERS)
    return response


def list_entries(
    root: Path | None, *, files: bool = False, accept: Callable[[Path], bool] | None = None
) -> dict[str, Path]:
    """Entries directly inside ``root``: sub-directories (or files, with ``files=True``).

    The names come from the file system, so a request can only pick one of
    them; hidden entries and symbolic links are left out, and ``accept`` may
    filter further.

    >>> list_entries(None)
    {}
    """
    if root is None or not root.is_dir():
        return {}
    found: dict[str, Path] = {}
    for entry in sorted(root.iterdir()):
        if entry.name.startswith(".") or entry.is_symlink():
            continue
        if (entry.is_file() if files else entry.is_dir()) and (accept is None or accept(entry)):
            found[entry.name] = entry
    return found


def _studies(request: Request) -> dict[str, Path]:
    root: Path | None = request.app.state.settings.studies
    return list_entries(root, accept=lambda entry: (entry / "study.json").is_file())


def _events(request: Request) -> dict[str, Path]:
    root: Path | None = request.app.state.settings.events
    return list_entries(root, files=True, accept=views.is_event_file)


def _event_names(found: dict[str, Path]) -> dict[str, str]:
    """What the session list shows for each event file: the event's name (read-only),
    else the file's name (an event no file named, or a file that cannot be read)."""
    from bridgescore.session.store.events import EventStore

    names: dict[str, str] = {}
    for entry, path in found.items():
        try:
            with EventStore(path, mode="read") as store:
                names[entry] = store.name.strip() or entry
        except BridgeError:
            names[entry] = entry
    return names


@router.get("/", response_class=HTMLResponse)
def score_page(
    request: Request, result: str = "", vul: str = "", vulnerability: str = ""
) -> HTMLResponse:
    """The score calculator; ``?result=4DX+%2B1&vul=on`` renders an answer without JavaScript."""
    answer: dict[str, Any] | None = None
    error: str | None = None
    text = result[:200]
    if text.strip():
        try:
            answer = api.score_result(text, vul == "on", vulnerability=vulnerability or None)
        except BridgeError as problem:
            error = str(problem)
    return _page(
        request,
        "score.html",
        active="score",
        result=text,
        vulnerable=vul == "on",
        answer=answer,
        error=error,
        tables={False: api.made_exactly(False), True: api.made_exactly(True)},
        levels=range(1, 8),
    )


@router.get("/deal", response_class=HTMLResponse)
def deal_page(request: Request) -> HTMLResponse:
    """The deal analyser: paste a PBN deal or ask for a random one."""
    return _page(request, "deal.html", active="deal")


@router.get("/study", response_class=HTMLResponse)
def study_page(request: Request) -> HTMLResponse:
    """Par studies found under ``--studies``."""
    return _listing(request, "study", _studies(request), request.app.state.settings.studies)


@router.get("/study/{name}", response_class=HTMLResponse)
def study_detail_page(request: Request, name: str) -> HTMLResponse:
    """One study: report tables, the four distributions, and the published figures."""
    return _detail(request, "study", _studies(request), name, views.study_view)


@router.get("/session", response_class=HTMLResponse)
def session_page(request: Request) -> HTMLResponse:
    """Events found under ``--events``, listed by their names."""
    found = _events(request)
    return _listing(
        request, "session", found, request.app.state.settings.events, _event_names(found)
    )


@router.get("/session/{name}", response_class=HTMLResponse)
def session_detail_page(request: Request, name: str) -> HTMLResponse:
    """One event: ranking and travellers."""
    found = _events(request)
    return _detail(request, "session", found, name, views.session_view, _event_names(found))


# The study and session pages share one template shape: the entries found in the
# configured directory ("studies" or "events") and, once one is chosen, its view.
_ENTRIES = {"study": "studies", "session": "events"}


def _listing(
    request: Request,
    kind: str,
    found: dict[str, Path],
    directory: Path | None,
    labels: dict[str, str] | None = None,
) -> HTMLResponse:
    return _page(
        request,
        f"{kind}.html",
        active=kind,
        configured=directory is not None,
        chosen=None,
        labels=labels or {},
        **{_ENTRIES[kind]: list(found)},
    )


def _detail(
    request: Request,
    kind: str,
    found: dict[str, Path],
    name: str,
    build_view: Callable[[Path], dict[str, Any]],
    labels: dict[str, str] | None = None,
) -> HTMLResponse:
    path = found.get(name)  # a name the server listed, never a path from the request
    if path is None:
        return _not_found(request, kind, name)
    view: dict[str, Any] | None = None
    error: str | None = None
    try:
        view = build_view(path)
    except (BridgeError, ImportError) as problem:
        error = str(problem)
    return _page(
        request,
        f"{kind}.html",
        active=kind,
        configured=True,
        chosen=name,
        view=view,
        error=error,
        labels=labels or {},
        **{_ENTRIES[kind]: list(found)},
    )


def _not_found(request: Request, active: str, name: str) -> HTMLResponse:
    response = _page(request, "missing.html", active=active, name=name)
    response.status_code = 404
    return response


def error_page(
    request: Request, status: int, message: str, headers: Mapping[str, str] | None = None
) -> HTMLResponse:
    """An error answered to a browser as a page of the site (the API answers JSON)."""
    try:
        title = HTTPStatus(status).phrase
    except ValueError:
        title = "Error"
    response = _page(request, "error.html", active="", title=title, message=message)
    response.status_code = status
    response.headers.update(headers or {})
    return response
