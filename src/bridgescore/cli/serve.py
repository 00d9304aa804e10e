"""``bridgescore serve``: the web page and JSON API on this machine."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bridgescore.cli.common import fail
from bridgescore.cli.listening import (
    ForwardedAllowIps,
    Host,
    announce,
    listening_sockets,
    proxy_addresses,
    run_server,
    web_extra_missing,
)

__all__ = ["serve_command"]


def _directory(option: str, path: Path | None) -> Path | None:
    if path is None:
        return None
    if not path.is_dir():
        raise fail(f"{option} {str(path)!r} is not a directory: expected an existing directory", 2)
    return path.resolve()


def serve_command(
    host: Host = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="TCP port.")] = 8000,
    studies: Annotated[
        Path | None,
        typer.Option(help="Directory whose sub-directories are par studies to show."),
    ] = None,
    events: Annotated[
        Path | None,
        typer.Option(help="Directory of session events (SQLite files) to show."),
    ] = None,
    solver_workers: Annotated[
        int | None,
        typer.Option(min=1, help="Double-dummy jobs run at once (default: one per core)."),
    ] = None,
    solver_queue: Annotated[
        int,
        typer.Option(min=0, help="Solve requests that may wait before others get 503."),
    ] = 16,
    solver_per_client: Annotated[
        int,
        typer.Option(
            min=1, help="Solve jobs one client address may have running or waiting (429 past)."
        ),
    ] = 4,
    max_uploads: Annotated[
        int,
        typer.Option(
            min=0, help="Uploaded events the --events directory may hold (409 past; none dropped)."
        ),
    ] = 200,
    forwarded_allow_ips: ForwardedAllowIps = None,
) -> None:
    """Serve the score calculator, deal analyser and JSON API (docs at /docs).

    \b
    Examples:
      bridgescore serve
      bridgescore serve --port 8080 --studies studies/ --events events/
      bridgescore serve --forwarded-allow-ips 127.0.0.1
    """
    proxies = proxy_addresses(forwarded_allow_ips)
    try:
        import uvicorn

        from bridgescore.web import WebSettings, create_app
    except ImportError as error:
        raise web_extra_missing("serve", error) from None
    settings = WebSettings(
        studies=_directory("--studies", studies),
        events=_directory("--events", events),
        solver_workers=solver_workers,
        solver_queue=solver_queue,
        solver_per_client=solver_per_client,
        max_uploaded_events=max_uploads,
    )
    listeners = listening_sockets(host, port)
    port = listeners[0].getsockname()[1]
    announce(host, port, "warning: listening on {host}: other machines can reach this server")
    config = uvicorn.Config(create_app(settings), host=host, port=port, log_level="warning")
    run_server(config, listeners, proxies=proxies)
