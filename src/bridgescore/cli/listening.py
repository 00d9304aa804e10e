"""Listening for a server command (``serve``, ``session live``): the sockets bound
before the server says where it serves, the warning for an address other machines
reach, and the run that ends quietly on Ctrl+C, every connection under the guard of
:mod:`bridgescore.web.connections` and forwarded addresses trusted only from a proxy
the user names."""

from __future__ import annotations

import errno
import ipaddress
import socket
from typing import Annotated, Any

import typer

from bridgescore.cli.common import fail

__all__ = [
    "ForwardedAllowIps",
    "Host",
    "announce",
    "is_loopback",
    "listening_sockets",
    "proxy_addresses",
    "run_server",
    "web_extra_missing",
]

Host = Annotated[
    str, typer.Option(help="Address to listen on; the default serves this machine only.")
]


ForwardedAllowIps = Annotated[
    str | None,
    typer.Option(
        "--forwarded-allow-ips",
        "--behind-proxy",
        metavar="ADDRESSES",
        help="The IP address of the reverse proxy in front (such as 127.0.0.1; several "
        "separated by commas): each client's address and scheme are read from the "
        "X-Forwarded-For and X-Forwarded-Proto headers it sets, and from no one else's, "
        "and the limits per address count the client's. --behind-proxy is the same option.",
    ),
]


def proxy_addresses(text: str | None) -> list[str]:
    """``--forwarded-allow-ips``'s addresses, checked: IP addresses only, never ``*`` or
    a network (trusting every sender's X-Forwarded-For lets anyone claim any address).

    >>> proxy_addresses("127.0.0.1, ::1")
    ['127.0.0.1', '::1']
    """
    if text is None:
        return []
    found = []
    for part in text.split(","):
        try:
            found.append(str(ipaddress.ip_address(part.strip())))
        except ValueError:
            raise fail(
                f"--forwarded-allow-ips {text!r}: {part.strip()!r} is not an IP address: "
                "expected the proxy's address as it connects to this server, such as "
                "127.0.0.1 (several separated by commas)",
                2,
            ) from None
    return list(dict.fromkeys(found))


def web_extra_missing(command: str, error: ImportError) -> typer.Exit:
    """The error for a server command run without the web extra (exit 2)."""
    missing = getattr(error, "name", None) or str(error)
    return fail(f"{command} needs {missing!r}: install it with: pip install 'bridgescore[web]'", 2)


def is_loopback(host: str) -> bool:
    """Whether ``host`` serves this machine only (``localhost``, ``127.0.0.1``, ``::1``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def listening_sockets(host: str, port: int) -> list[socket.socket]:
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


def announce(host: str, port: int, warning: str, what: str = "") -> None:
    """Say where the server listens (``what``: the event it serves, if any), after
    ``warning`` (with ``{host}`` filled in) when other machines can reach it."""
    if not is_loopback(host):
        typer.echo(warning.format(host=host), err=True)
    shown = f"[{host}]" if ":" in host else host
    serving = f"serving {what} on" if what else "serving on"
    typer.echo(f"bridgescore: {serving} http://{shown}:{port}/ (Ctrl+C to stop)", err=True)


def run_server(
    config: Any,
    listeners: list[socket.socket],
    *,
    proxies: list[str] | None = None,
    guard: Any = None,
) -> None:
    """Run uvicorn with ``config`` on ``listeners`` until Ctrl+C, then close them.

    Every connection runs under ``guard`` (a :class:`~bridgescore.web.connections.
    ConnectionGuard`; the default limits when None): a request must arrive whole
    within its read timeout, and one address holds a bounded number of connections
    owing a request. ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are read only from
    ``proxies`` (uvicorn would trust them from 127.0.0.1 whoever asked), whose
    connections are not capped per address.

    Exits 3 when the server never started: uvicorn has logged why (the app's startup
    failed), and 3 is uvicorn's own exit code for that.
    """
    import uvicorn

    from bridgescore.web.connections import ConnectionGuard

    trusted = list(proxies or ())
    config.proxy_headers = bool(trusted)
    config.forwarded_allow_ips = trusted
    if guard is None:
        guard = ConnectionGuard(trusted=trusted)
    config.http = guard.protocol()
    server = uvicorn.Server(config)
    try:
        server.run(sockets=listeners)
    except KeyboardInterrupt:
        pass
    finally:
        for listener in listeners:
            listener.close()
    if not server.started:
        raise typer.Exit(3)
