"""Connections that do not finish their request are dropped: a guard around uvicorn's
HTTP protocol, for both servers (``serve`` and ``session live``).

uvicorn times out a connection only while it is idle between requests (keep-alive):
one that has sent half a request's headers, or a body's first bytes, is kept for ever,
and its ``limit_concurrency`` counts it, so a few hundred such sockets from one phone
on the club's Wi-Fi made every other phone get 503 for as long as they stayed open.

:class:`ConnectionGuard` makes the protocol class uvicorn runs (``Config(http=...)``):
uvicorn's own (httptools, else h11), wrapped so that

- a request's head must arrive whole within ``read_timeout`` seconds of its first byte
  (or of the connection's opening): a deadline, not an idle timer, so a byte every few
  seconds does not keep a connection either; past it, the connection is closed. A body
  must keep coming: each :data:`BODY_PROGRESS` bytes of it earn a new ``read_timeout``
  (a 2 MB upload over a slow link, or read slowly by a busy server, is not cut off; a
  body trickled a few bytes at a time, or half sent and left, is);
- one address holds at most ``per_address`` connections at once (IPv6: one /64, what
  one machine is given); a new one past that takes the place of the address's oldest
  connection that is still waiting for its request (closed at once), so a phone
  sharing an address with the sockets gets in; only when every one of them is busy
  with a request is the new one answered 503 and closed, before uvicorn counts it;
- a request's head (its line and headers) may take at most ``max_head`` bytes: past
  them the connection is answered 431 and closed (httptools, uvicorn's parser when
  installed, would gather headers without end until the deadline);
- the address of a reverse proxy named by the user (``trusted``) is not capped: every
  phone comes through it, and the proxy reads whole requests before passing them on.

A guard at this layer, rather than in the ASGI app, because the app only sees a
request once its headers are complete, which is exactly what these sockets never do.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Iterable
from typing import Any, ClassVar

__all__ = [
    "BODY_PROGRESS",
    "DEFAULT_MAX_HEAD",
    "DEFAULT_PER_ADDRESS",
    "DEFAULT_READ_TIMEOUT",
    "ConnectionGuard",
    "GuardedHTTP",
]

#: Seconds a request may take to arrive whole (headers and body) once it has begun.
DEFAULT_READ_TIMEOUT = 15.0
#: Connections one address may hold open at once (a browser opens up to six per server).
DEFAULT_PER_ADDRESS = 32
#: Bytes of a body that earn it a new read timeout: 16 KiB in 15 s is about 1 KB/s, slower
#: than any phone's link, and a trickle below it is dropped.
BODY_PROGRESS = 16 * 1024
#: Bytes a request's line and headers may take (a phone's are under 2 KiB).
DEFAULT_MAX_HEAD = 32 * 1024

_TOO_MANY = (
    b"HTTP/1.1 503 Service Unavailable\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\n"
    b"Retry-After: 5\r\n"
    b"Connection: close\r\n"
    b"Content-Length: 56\r\n"
    b"\r\n"
    b"too many connections from this address: try again later\n"
)
_HEAD_TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\n"
    b"Connection: close\r\n"
    b"Content-Length: 37\r\n"
    b"\r\n"
    b"the request's headers are too large\n"
)


def address_key(peer: object) -> str | None:
    """The key an address's connections are counted under: the IPv4 address, or the
    /64 network of an IPv6 one (one machine may use any address in it); None for a
    peer with no IP address (a Unix socket).

    >>> address_key(("192.0.2.7", 5000)), address_key(("2001:db8::1:2", 5000, 0, 0))
    ('192.0.2.7', '2001:db8::/64')
    """
    if not isinstance(peer, tuple) or not peer or not isinstance(peer[0], str):
        return None
    try:
        address = ipaddress.ip_address(peer[0].split("%", 1)[0])
    except ValueError:
        return None
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


class ConnectionGuard:
    """The limits on connections, and the count of each address's open ones.

    ``protocol()`` is the class to hand uvicorn (``uvicorn.Config(http=...)``);
    every connection it makes shares this guard's counts.
    """

    def __init__(
        self,
        read_timeout: float = DEFAULT_READ_TIMEOUT,
        per_address: int = DEFAULT_PER_ADDRESS,
        trusted: Iterable[str] = (),
        max_head: int = DEFAULT_MAX_HEAD,
    ) -> None:
        self.read_timeout = read_timeout
        self.per_address = max(1, per_address)
        self.max_head = max_head
        self.trusted = frozenset(filter(None, (address_key((t, 0)) for t in trusted)))
        self.open: dict[str, dict[GuardedHTTP, None]] = {}

    def admit(self, connection: GuardedHTTP) -> bool:
        """Count ``connection`` under its address, making room by closing the address's
        oldest connection still waiting for its request; False (nothing counted) when
        the address has ``per_address`` connections all busy with requests."""
        key = connection.key
        if key is None or key in self.trusted:
            return True
        held = self.open.setdefault(key, {})
        if len(held) >= self.per_address:
            oldest = next((c for c in held if c.receiving()), None)
            if oldest is None:
                return False
            del held[oldest]
            oldest.drop()
        held[connection] = None
        return True

    def release(self, connection: GuardedHTTP) -> None:
        """``connection`` has closed."""
        held = self.open.get(connection.key or "")
        if held is not None:
            held.pop(connection, None)
            if not held:
                del self.open[connection.key or ""]

    def protocol(self) -> type[asyncio.Protocol]:
        """The protocol class for uvicorn: its own, guarded by this guard."""
        return type("GuardedHTTP", (GuardedHTTP,), {"guard": self})


def _uvicorn_protocol() -> type[asyncio.Protocol]:
    # What uvicorn's "auto" picks: httptools when it is installed, else h11.
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        from uvicorn.protocols.http.h11_impl import H11Protocol

        return H11Protocol
    return HttpToolsProtocol


class GuardedHTTP(asyncio.Protocol):
    """uvicorn's HTTP protocol for one connection, under a :class:`ConnectionGuard`.

    Made by uvicorn with its own arguments, which go to the protocol inside; every
    event of the connection passes through to it.
    """

    guard: ClassVar[ConnectionGuard]

    def __init__(self, **arguments: Any) -> None:
        self.inner: Any = _uvicorn_protocol()(**arguments)
        self.loop = asyncio.get_running_loop()
        # Any: uvloop's transports (uvicorn's loop when installed) are no asyncio classes.
        self.transport: Any = None
        self.key: str | None = None
        self.admitted = False
        self.deadline: asyncio.TimerHandle | None = None
        # The bytes received of the head now on its way, and the exchange it follows.
        self.head_bytes = 0
        self.head_after: object = None
        # The last bytes of the head read so far: its blank line may span two reads.
        self.head_tail = b""
        # The body's bytes since its deadline was last set (BODY_PROGRESS earns a new one).
        self.body_bytes = 0

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        self.key = address_key(transport.get_extra_info("peername"))
        if not self.guard.admit(self):
            transport.write(_TOO_MANY)
            transport.close()
            return
        self.admitted = True
        self.inner.connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if not self.admitted:
            return
        cycle = getattr(self.inner, "cycle", None)
        if cycle is None or cycle.response_complete:
            # A head on its way (uvicorn starts a new exchange once the head is whole).
            if cycle is not self.head_after:
                self.head_after, self.head_bytes, self.head_tail = cycle, 0, b""
            self.head_bytes += self._head_part(data)
            if self.head_bytes > self.guard.max_head:
                self._disarm()
                self.transport.write(_HEAD_TOO_LARGE)
                self.transport.close()
                return
        self.inner.data_received(data)
        if self.transport is None or self.transport.is_closing() or not self.receiving():
            self._disarm()
            return
        if self.in_body():
            self.body_bytes += len(data)
            if self.body_bytes >= BODY_PROGRESS:
                self._disarm()  # a body still coming at a fair pace: a new deadline
        self._arm()

    def eof_received(self) -> bool | None:
        if not self.admitted:
            return None
        answer: bool | None = self.inner.eof_received()
        return answer

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if not self.admitted:
            return
        self.admitted = False
        self.guard.release(self)
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self.admitted:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.admitted:
            self.inner.resume_writing()

    def receiving(self) -> bool:
        """Whether a request is on its way in: none begun, or the last one answered
        (so bytes now are the next one's), or its body not yet whole."""
        cycle = getattr(self.inner, "cycle", None)
        if cycle is None or cycle.response_complete:
            return True
        return bool(cycle.more_body)

    def _head_part(self, data: bytes) -> int:
        """How many of ``data``'s bytes belong to the head: up to the blank line that ends
        it. A read may bring the head and much of the body at once (a busy server reads
        late): only the head's bytes count against ``max_head``."""
        window = self.head_tail + data
        ends = [at + len(mark) for mark in (b"\r\n\r\n", b"\n\n") if (at := window.find(mark)) >= 0]
        self.head_tail = window[-3:]
        if not ends:
            return len(data)
        return max(0, min(ends) - len(window) + len(data))

    def in_body(self) -> bool:
        """Whether the request's head is whole and its body is on its way."""
        cycle = getattr(self.inner, "cycle", None)
        return cycle is not None and not cycle.response_complete and bool(cycle.more_body)

    def _arm(self) -> None:
        # Armed once per request: later bytes do not move the deadline.
        if self.deadline is None:
            self.deadline = self.loop.call_later(self.guard.read_timeout, self._expired)

    def _disarm(self) -> None:
        self.body_bytes = 0
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _expired(self) -> None:
        self.deadline = None
        if self.receiving():
            self.drop()

    def drop(self) -> None:
        """Close the connection now: nothing of ours is on its way to the client, so
        there is nothing to wait for (and it may never read)."""
        self._disarm()
        if self.transport is not None and not self.transport.is_closing():
            self.transport.abort()
