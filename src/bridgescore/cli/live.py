"""``bridgescore session live``: serve a live club session from its event file."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Annotated, Any

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
from bridgescore.errors import BridgeError

__all__ = ["live_command", "log_config"]

TLS_WARNING = (
    "warning: listening on {host}: other machines can reach this server, and plain HTTP "
    "shows the tables' tokens and the director's password to anyone on the network. "
    "Put TLS in front: a reverse proxy with HTTPS such as Caddy or nginx "
    "(see docs/live-server.md, 'Behind a reverse proxy')"
)


def log_config(access_log: bool) -> dict[str, Any]:
    """uvicorn's logging configuration with tokens and passwords redacted from every line."""
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact"] = {"()": "bridgescore.web.live.guards.RedactSecrets"}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("redact")
    if not access_log:
        config["loggers"]["uvicorn.access"]["level"] = "WARNING"
    return config


def live_command(
    event: Annotated[Path, typer.Argument(help="The event file made by 'session new'.")],
    host: Host = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="TCP port (0: any free port).")
    ] = 8000,
    access_log: Annotated[
        bool,
        typer.Option(help="Log every request (tokens and passwords are always redacted)."),
    ] = True,
    forwarded_allow_ips: ForwardedAllowIps = None,
    connections_per_address: Annotated[
        int,
        typer.Option(
            min=1,
            max=10_000,
            help="Connections one address may hold that have not sent a whole request "
            "(half-open ones: past it, its oldest is closed). Connections being served, "
            "or kept alive between requests, do not count.",
        ),
    ] = 32,
    read_timeout: Annotated[
        float,
        # For tests: a request slower than this is dropped (docs/live-server.md).
        typer.Option(min=0.01, max=300.0, hidden=True),
    ] = 15.0,
) -> None:
    """Serve the live session: table entry, the director's pages, the live ranking.

    Results are on disk before a table sees them acknowledged; stop with Ctrl+C and
    start again at any time, nothing entered is lost.

    \b
    Examples:
      bridgescore session live club.db
      bridgescore session live club.db --host 0.0.0.0 --port 8080
      bridgescore session live club.db --forwarded-allow-ips 127.0.0.1
    """
    proxies = proxy_addresses(forwarded_allow_ips)
    try:
        import uvicorn

        from bridgescore.web.connections import ConnectionGuard
        from bridgescore.web.live.app import create_live_app
    except ImportError as error:
        raise web_extra_missing("session live", error) from None
    if not event.is_file():
        raise fail(
            f"{str(event)!r} is not an event file: make one with "
            "'bridgescore session new EVENT --movement ...'",
            1,
        )
    try:
        app = create_live_app(event)
    except BridgeError as error:
        raise fail(error) from None
    listeners = listening_sockets(host, port)
    for listener in listeners:
        # Listening before saying so: a phone (or a test) that connects at once waits in the
        # queue until the server accepts, rather than being refused.
        listener.listen(2048)
    port = listeners[0].getsockname()[1]
    announce(host, port, TLS_WARNING, what=str(event))
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_config=log_config(access_log),
        access_log=access_log,
        # More connections than a club's phones need; past it, 503 rather than exhausting the host.
        limit_concurrency=500,
    )
    try:
        guard = ConnectionGuard(read_timeout, connections_per_address, proxies)
        run_server(config, listeners, proxies=proxies, guard=guard)
    finally:
        app.state.live.close()
