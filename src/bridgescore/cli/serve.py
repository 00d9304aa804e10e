"""``bridgescore serve``: the web page and JSON API on this machine."""

from __future__ import annotations

import errno
import ipaddress
import socket
from pathlib import Path
from typing import Annotated

import typer

from bridgescore.cli.common import fail

__all__ = ["serve_command"]


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _directory(option: str, path: Path | None) -> Path | None:
    if path is None:
        return None
    if not path.is_dir():
        raise fail(f"{option} {str(path)!r} is not a directory: expected an existing directory", 2)
    return path.resolve()


def _listening_sockets(host: str, port: int) -> list[socket.socket]:
    """Sockets bound to every address of ``host`` on ``port`` (the system's pick for 0).

    The server binds before it says where it serves, so a port that is taken is
    reported once, plainly, and uvicorn is handed these very sockets: nothing can
    take the port between the check and the serving.
    """
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise fail(
            f"--host {host!r} is not an address of this machine ({reason}): "
            "expected an IP address such as 127.0.0.1 or a host name",
            1,
        ) from None
    bound: list[socket.socket] = []
    addresses = list(dict.fromkeys((family, address[0]) for family, *_, address in found))
    try:
        for family, address in addresses:
            try:
                listener = socket.socket(family, socket.SOCK_STREAM)
            except OSError:
                continue  # an address family this system does not offer, as asyncio skips it
            bound.append(listener)
            # As uvicorn does: a restart need not wait for the old connections' TIME_WAIT
            # (on Linux this never lets two servers share a port someone listens on).
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                listener.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                listener.bind((address, port))
            except OSError as error:
                if error.errno == errno.EADDRNOTAVAIL and len(addresses) > 1:
                    # "localhost" may name ::1 on a system without IPv6: serve the rest.
                    bound.pop().close()
                    continue
                raise
            port = listener.getsockname()[1]  # --port 0: every address gets the port picked
    except OSError as error:
        for listener in bound:
            listener.close()
        if error.errno == errno.EADDRINUSE:
            message = (
                f"port {port} on {host} is taken: another program is listening there; "
                "stop it or pass another --port"
            )
        else:
            message = f"cannot listen on {host} port {port}: {error.strerror or error}"
        raise fail(message, 1) from None
    if not bound:
        raise fail(f"cannot listen on {host} port {port}: no usable address", 1)
    return bound


def serve_command(
    host: Annotated[
        str, typer.Option(help="Address to listen on; the default serves this machine only.")
    ] = "127.0.0.1",
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
) -> None:
    """Serve the score calculator, deal analyser and JSON API (docs at /docs).

    \b
    Examples:
      bridgescore serve
      bridgescore serve --port 8080 --studies studies/ --events events/
    """
    try:
        import uvicorn

        from bridgescore.web import WebSettings, create_app
    except ImportError as error:
        missing = getattr(error, "name", None) or str(error)
        raise fail(
            f"serve needs {missing!r}: install it with: pip install 'bridgescore[web]'", 2
        ) from None
    settings = WebSettings(
        studies=_directory("--studies", studies),
        events=_directory("--events", events),
        solver_workers=solver_workers,
        solver_queue=solver_queue,
    )
    listeners = _listening_sockets(host, port)
    port = listeners[0].getsockname()[1]
    if not _is_loopback(host):
        typer.echo(f"warning: listening on {host}: other machines can reach this server", err=True)
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"bridgescore: serving on http://{shown}:{port}/ (Ctrl+C to stop)", err=True)
    config = uvicorn.Config(create_app(settings), host=host, port=port, log_level="warning")
    server = uvicorn.Server(config)
    try:
        server.run(sockets=listeners)
    except KeyboardInterrupt:
        pass
    finally:
        for listener in listeners:
            listener.close()
    if not server.started:
        # uvicorn has logged why (the app's startup failed); its own exit code for that.
        raise typer.Exit(3)
