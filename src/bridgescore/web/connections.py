"""Connections that do not finish their request are dropped, and connections being
served never are: a guard around uvicorn's HTTP protocol, for both servers (``serve``
and ``session live``).

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
  body trickled a few bytes at a time, or half sent and left, is). An answer must keep
  leaving too: a client that stops reading it for ``read_timeout`` is dropped;
- one address holds at most ``per_address`` connections that owe the server a request
  (nothing sent yet, part of a head, part of a body; IPv6: one /64, what one machine
  is given). Past that, the address's oldest such connection is closed, once it has
  had :data:`GRACE` seconds to send (a phone that opened several at once has not
  written on all of them yet); a new one is never refused. Connections the server is
  answering (a request in the app, or waiting for the event's one writer) and
  connections kept alive between requests are not counted: sixty tables and forty
  readers behind one address (a proxy, a shared NAT) are all served, whatever their
  number, while 600 half-open sockets from that address leave ``per_address``;
- the server as a whole holds at most ``capacity`` connections waiting for their
  client: past that, each new one closes the oldest waiting connection of the address
  that holds the most (half-open before kept-alive), without a grace, so a flood from
  many sockets cannot take the room of the connections being served;
- a request's head (its line and headers) may take at most ``max_head`` bytes: past
  them the connection is answered 431 and closed (httptools, uvicorn's parser when
  installed, would gather headers without end until the deadline);
- the address of a reverse proxy named by the user (``trusted``) is not capped per
  address: every phone comes through it, and the proxy reads whole requests before
  passing them on (its connections still meet the deadlines).

A connection whose request bytes the system holds unread is never closed as waiting:
the server is late then, not the client (a busy event loop reads late).

A guard at this layer, rather than in the ASGI app, because the app only sees a
request once its headers are complete, which is exactly what these sockets never do.
"""

from __future__ import annotations

import array
import asyncio
import enum
import ipaddress
import time
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Protocol

__all__ = [
    "BODY_PROGRESS",
    "DEFAULT_CAPACITY",
    "DEFAULT_MAX_HEAD",
    "DEFAULT_PER_ADDRESS",
    "DEFAULT_READ_TIMEOUT",
    "GRACE",
    "ConnectionGuard",
    "GuardedHTTP",
    "Waiting",
]

#: Seconds a request may take to arrive whole (headers and body) once it has begun.
DEFAULT_READ_TIMEOUT = 15.0
#: Connections one address may hold that owe the server a request (a browser opens up
#: to six per server, and sends on each within moments).
DEFAULT_PER_ADDRESS = 32
#: Connections waiting for their client the whole server holds before it closes the
#: oldest at once (below ``session live``'s 500 in all, where uvicorn answers 503).
DEFAULT_CAPACITY = 400
#: Seconds a new connection has to begin its request before the cap of its address may
#: close it: a client opening many at once writes on each a little later, and a phone
#: on Wi-Fi sends its request one round trip after the connection is made.
GRACE = 1.0
#: Bytes of a body that earn it a new read timeout: 16 KiB in 15 s is about 1 KB/s, slower
#: than any phone's link, and a trickle below it is dropped.
BODY_PROGRESS = 16 * 1024
#: Bytes a request's line and headers may take (a phone's are under 2 KiB).
DEFAULT_MAX_HEAD = 32 * 1024

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


class Waiting(enum.Enum):
    """Whom a connection waits for: what the guard may close, and what it never does."""

    #: The server: a whole request is in the app (or waits for the event's writer), or
    #: its answer is leaving. Never closed by a cap.
    SERVER = "server"
    #: The client, for a request it owes: nothing sent yet, part of a head, part of a
    #: body. What a half-open socket is; the first closed under a cap.
    REQUEST = "request"
    #: The client, between requests on a kept-alive connection: closed by uvicorn's
    #: keep-alive timeout, and by the guard only when the whole server is full.
    NEXT = "next"


class Watched(Protocol):
    """What the guard asks of a connection (:class:`GuardedHTTP` answers it)."""

    key: str | None
    #: When it began to wait for its client (opened, or its last answer sent).
    since: float

    def waiting(self) -> Waiting: ...

    def unread(self) -> int: ...

    def drop(self) -> None: ...


class ConnectionGuard:
    """The limits on connections, and the count of each address's open ones.

    ``protocol()`` is the class to hand uvicorn (``uvicorn.Config(http=...)``);
    every connection it makes shares this guard's counts. ``clock`` gives seconds
    (tests pass their own).
    """

    def __init__(
        self,
        read_timeout: float = DEFAULT_READ_TIMEOUT,
        per_address: int = DEFAULT_PER_ADDRESS,
        trusted: Iterable[str] = (),
        max_head: int = DEFAULT_MAX_HEAD,
        capacity: int = DEFAULT_CAPACITY,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.read_timeout = read_timeout
        self.per_address = max(1, per_address)
        self.max_head = max_head
        self.capacity = max(1, capacity)
        self.clock = clock
        # A head's deadline is the grace's bound too: no connection waits past it anyway.
        self.grace = min(GRACE, read_timeout)
        self.trusted = frozenset(filter(None, (address_key((t, 0)) for t in trusted)))
        # Each address's open connections, oldest first; ``total`` counts every one.
        self.open: dict[str, dict[Watched, None]] = {}
        self.total = 0
        # The addresses with a trim waiting for a connection's grace to end.
        self.trims: dict[str, asyncio.TimerHandle] = {}

    def admit(self, connection: Watched) -> None:
        """Count ``connection`` under its address, then make room: past ``capacity``
        connections in all, the oldest waiting one of the address holding the most is
        closed; past ``per_address`` owing a request from this address, its oldest
        whose grace is over (the rest once theirs is)."""
        key = connection.key
        if key is None:
            return
        self.open.setdefault(key, {})[connection] = None
        self.total += 1
        if self.total > self.capacity:
            self._make_room(connection)
        if key not in self.trusted:
            self.trim(key)

    def release(self, connection: Watched) -> None:
        """``connection`` has closed."""
        key = connection.key
        held = self.open.get(key or "")
        if held is None or connection not in held:
            return
        del held[connection]
        self.total -= 1
        if not held:
            del self.open[key or ""]
            timer = self.trims.pop(key or "", None)
            if timer is not None:
                timer.cancel()

    def trim(self, key: str) -> None:
        """Close ``key``'s oldest connections owing a request, past ``per_address`` of
        them, each once its grace is over and nothing of its request lies unread; when
        some are still in their grace, try again as the first one's ends."""
        self.trims.pop(key, None)
        owing = [c for c in self.open.get(key, ()) if c.waiting() is Waiting.REQUEST]
        excess = len(owing) - self.per_address
        if excess <= 0:
            return
        now = self.clock()
        young: list[float] = []
        for connection in sorted(owing, key=lambda c: c.since):
            if excess == 0:
                break
            if now - connection.since < self.grace:
                young.append(connection.since)
            elif connection.unread() == 0:
                self._close(connection)
                excess -= 1
        if excess > 0 and young:
            delay = max(0.0, min(young) + self.grace - now)
            with_loop = asyncio.get_running_loop()
            self.trims[key] = with_loop.call_later(delay, self.trim, key)

    def _make_room(self, newcomer: Watched) -> None:
        # The address holding the most waiting connections gives its oldest: a flood
        # from one address pays for itself, and connections being served pay nothing.
        def waiting(held: dict[Watched, None]) -> list[Watched]:
            return [c for c in held if c is not newcomer and c.waiting() is not Waiting.SERVER]

        holders = sorted(self.open.values(), key=lambda held: -len(waiting(held)))
        for held in holders:
            order = sorted(waiting(held), key=lambda c: (c.waiting() is Waiting.NEXT, c.since))
            for connection in order:
                if connection.unread() == 0:
                    self._close(connection)
                    return

    def _close(self, connection: Watched) -> None:
        # Counted out now: its transport reports the loss later, and until then it
        # must not be counted (or closed) a second time.
        connection.drop()
        self.release(connection)

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
        self.since = self.guard.clock()
        self.admitted = False
        self.deadline: asyncio.TimerHandle | None = None
        # Set while the client leaves the answer unread (the transport's buffer is full).
        self.write_deadline: asyncio.TimerHandle | None = None
        # The bytes received of the head now on its way, and the exchange it follows.
        self.head_bytes = 0
        self.head_after: object = None
        # The last bytes of the head read so far: its blank line may span two reads.
        self.head_tail = b""
        # The body's bytes since its deadline was last set (BODY_PROGRESS earns a new one).
        self.body_bytes = 0
        # uvicorn hands each exchange the protocol's ``on_response_complete`` when the
        # exchange begins: ours, from here on, marks when the wait for the client began.
        answered = getattr(self.inner, "on_response_complete", None)
        if answered is not None:

            def on_response_complete() -> None:
                self.since = self.guard.clock()
                answered()

            setattr(self.inner, "on_response_complete", on_response_complete)  # noqa: B010

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        self.key = address_key(transport.get_extra_info("peername"))
        self.admitted = True
        self.inner.connection_made(transport)
        self._arm()
        self.guard.admit(self)

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
        self._unread_answer_taken()
        if not self.admitted:
            return
        self.admitted = False
        self.guard.release(self)
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self.admitted:
            # The client has stopped taking the answer: it has ``read_timeout`` to go on.
            if self.write_deadline is None:
                self.write_deadline = self.loop.call_later(self.guard.read_timeout, self.drop)
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        self._unread_answer_taken()
        if self.admitted:
            self.inner.resume_writing()

    def _unread_answer_taken(self) -> None:
        if self.write_deadline is not None:
            self.write_deadline.cancel()
            self.write_deadline = None

    def receiving(self) -> bool:
        """Whether a request is on its way in: none begun, or the last one answered
        (so bytes now are the next one's), or its body not yet whole."""
        cycle = getattr(self.inner, "cycle", None)
        if cycle is None or cycle.response_complete:
            return True
        return bool(cycle.more_body)

    def waiting(self) -> Waiting:
        """Whom the connection waits for (see :class:`Waiting`)."""
        cycle = getattr(self.inner, "cycle", None)
        if cycle is None:
            return Waiting.REQUEST  # no head whole yet: the first request is owed
        if not cycle.response_complete:
            return Waiting.REQUEST if cycle.more_body else Waiting.SERVER
        # Answered: owing the next request once a byte of its head has come.
        return Waiting.REQUEST if self.head_bytes and self.head_after is cycle else Waiting.NEXT

    def unread(self) -> int:
        """Bytes the system holds for this connection that the server has not read yet
        (0 when the system cannot say)."""
        return unread_bytes(self.transport)

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


def unread_bytes(transport: Any) -> int:
    """Bytes waiting in ``transport``'s socket for the server to read (``FIONREAD``);
    0 when there is no socket or the system cannot say (no ``fcntl`` on Windows)."""
    try:
        import fcntl
        import termios

        descriptor = transport.get_extra_info("socket").fileno()
        count = array.array("i", [0])
        fcntl.ioctl(descriptor, termios.FIONREAD, count)
    except (AttributeError, ImportError, OSError, ValueError):
        return 0
    return int(count[0])
