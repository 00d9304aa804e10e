"""The app factory: :func:`create_app` builds the FastAPI app from :class:`WebSettings`.

>>> app = create_app(WebSettings())
>>> app.title
'bridgescore'
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException

from bridgescore import __version__
from bridgescore.errors import BridgeError
from bridgescore.web import api, jobs, pages, results, upload
from bridgescore.web import simulate as simulate_web
from bridgescore.web.guards import (
    SameSiteOnly,
    SecurityHeaders,
    answering,
    error_answer,
    http_error,
)
from bridgescore.web.limits import MAX_BODY_BYTES, SolverBusy, SolverLimiter
from bridgescore.web.schemas import MAX_WEB_DEALS

__all__ = ["WebSettings", "create_app"]

HERE = Path(__file__).parent
# Swagger UI's script and style, served from the fastapi-offline package.
DOCS_ASSETS = "/docs/assets"


@dataclass(frozen=True, slots=True)
class WebSettings:
    """What the server may read and how hard it may work.

    ``studies`` and ``events`` are the only directories the server lists or
    reads; requests name entries the server found there itself, never paths.
    ``solver_workers`` defaults to one per core; ``solver_queue`` is how many
    more solve requests may wait before new ones get 503, and ``solver_per_client``
    how many of those jobs (running or waiting) one client address may hold: more
    get 429. ``warm_solver`` starts the solver processes with the app, so the first
    solve is not slow. ``max_upload`` caps an uploaded file's bytes and
    ``max_uploaded_events`` the events uploads may store (more are refused; nothing
    is dropped). ``max_simulate_deals`` caps the deals of one simulation request and
    ``max_simulate_searches`` its double-dummy searches
    (:func:`bridgescore.web.simulate.searches`).
    """

    studies: Path | None = None
    events: Path | None = None
    solver_workers: int | None = None
    solver_queue: int = 16
    solver_per_client: int = 4
    retry_after: int = 2
    warm_solver: bool = True
    max_body: int = MAX_BODY_BYTES
    max_upload: int = upload.MAX_UPLOAD_BYTES
    max_uploaded_events: int = upload.MAX_UPLOADED_EVENTS
    max_simulate_deals: int = MAX_WEB_DEALS
    max_simulate_searches: int = simulate_web.MAX_WEB_SEARCHES


def _describe(error: dict[str, Any]) -> str:
    where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
    message = str(error.get("msg", "invalid value"))
    if "input" in error and error.get("type") not in ("missing", "json_invalid"):
        shown = repr(error["input"])
        if len(shown) > 60:
            shown = shown[:57] + "..."
        message += f" (got {shown})"
    return f"{where}: {message}" if where else message


async def _validation_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, RequestValidationError)
    detail = "; ".join(_describe(item) for item in error.errors()) or "invalid request"
    return error_answer(request, 422, detail, pages.error_page)


async def _solver_busy(request: Request, error: Exception) -> Response:
    assert isinstance(error, SolverBusy)
    headers = {"Retry-After": str(error.retry_after)}
    return error_answer(request, error.status, str(error), pages.error_page, headers)


def create_app(settings: WebSettings | None = None) -> FastAPI:
    """The bridgescore web app: the page, the JSON API and their limits."""
    settings = settings or WebSettings()
    limiter = SolverLimiter(
        settings.solver_workers,
        settings.solver_queue,
        settings.retry_after,
        settings.solver_per_client,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.warm_solver:
            limiter.warm(jobs.warm_up)
        try:
            yield
        finally:
            limiter.close()

    # FastAPI's /docs loads its script from a CDN, so offline it is blank; fastapi-offline
    # serves the same Swagger UI from its package instead. No /redoc: ReDoc's sidebar still
    # loads its maker's logo from another host.
    app = FastAPIOffline(
        redoc_url=None,
        title="bridgescore",
        version=__version__,
        description="Exact contract bridge scoring, double-dummy tables and par.",
        lifespan=lifespan,
        static_url=DOCS_ASSETS,
        # Swagger UI would otherwise send the schema to an online validator for a badge.
        swagger_ui_parameters={"validatorUrl": None},
    )
    app.state.settings = settings
    app.state.solver = limiter
    app.state.sites = results.SiteCache()
    app.state.imports = upload.ImportQueue(settings.max_uploaded_events)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(
        StarletteHTTPException, http_error(pages.error_page, api_index="/docs")
    )
    app.add_exception_handler(BridgeError, answering(422, pages.error_page))
    app.add_exception_handler(SolverBusy, _solver_busy)
    # A solver or extra not installed here: the server's lack, not the client's input.
    app.add_exception_handler(jobs.FeatureMissing, answering(503, pages.error_page))
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(upload.router)
    app.include_router(results.router)
    app.include_router(results.api_router)
    app.include_router(simulate_web.api_router)
    app.include_router(simulate_web.page_router)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    # The last added runs first: headers on every answer, then cross-site changes refused
    # before their bodies are read, then the body limits.
    app.add_middleware(
        upload.UploadBodyLimit, limit=settings.max_body, upload_limit=settings.max_upload
    )
    app.add_middleware(SameSiteOnly)
    app.add_middleware(SecurityHeaders)
    return app
