"""Limits that keep the server answering: a body-size cap, a bounded solver queue, and a
throttle on password guessing.

:class:`BodySizeLimit` is a plain ASGI middleware (no per-request task, so it
costs next to nothing on the fast paths) that refuses request bodies over a
byte budget with 413. :class:`SolverLimiter` runs CPU-heavy double-dummy jobs in
a small process pool, at most one job per worker at a time, with a bounded
number of callers waiting; past that it raises :class:`SolverBusy`, which the
app turns into 503 with ``Retry-After``. :class:`LoginThrottle` counts each
client's wrong passwords in a sliding window and refuses it for a while past a limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import math
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

__all__ = ["MAX_BODY_BYTES", "BodySizeLimit", "LoginThrottle", "SolverBusy", "SolverLimiter"]

MAX_BODY_BYTES = 64 * 1024

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Any]
Send = Callable[[Message], Any]
ASGIApp = Callable[[Scope, Receive, Send], Any]

T = TypeVar("T")


class BodySizeLimit:
    """Refuse HTTP request bodies over ``limit`` bytes with 413 and a JSON detail.

    A declared ``Content-Length`` over the limit is refused before reading; a
    chunked body is read up to the limit and refused as soon as it passes it.
    Bodies within the limit are buffered (at most ``limit`` bytes) and replayed
    to the app unchanged.

    >>> BodySizeLimit(lambda scope, receive, send: None, limit=10).limit
    10
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await _reply(send, 400, "Content-Length is not a number")
                    return
                if declared > self.limit:
                    await _reply(send, 413, self._message(declared))
                    return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                # The client went away before sending its body; nothing to answer.
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await _reply(send, 413, self._message(size))
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            # After the body, pass through so the app still sees a disconnect.
            message: Message = await receive()
            return message

        await self.app(scope, replay, send)

    def _message(self, size: int) -> str:
        return f"request body of {size} bytes is too large: the limit is {self.limit} bytes"


async def _reply(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class SolverBusy(Exception):
    """Every solver worker is busy and the waiting queue is full (or a worker died).

    ``status`` is the answer's HTTP status: 503, or 429 when the client asking
    already holds its share of the queue.
    """

    def __init__(
        self, retry_after: int, reason: str = "the solver is busy", status: int = 503
    ) -> None:
        super().__init__(f"{reason}; retry after {retry_after} s")
        self.retry_after = retry_after
        self.status = status


def _init_worker() -> None:
    # Solver workers yield the CPU to the server process, so quick requests
    # (scores, par from a table) stay quick while a burst of solves runs.
    with contextlib.suppress(OSError):
        os.nice(5)
    # Ctrl+C reaches the whole process group; the server shuts the pool down itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class SolverLimiter:
    """At most ``workers`` jobs at once (one per core), at most ``queue`` more waiting,
    and at most ``per_client`` of them from any one client.

    Jobs are picklable module-level functions run in a process pool created on
    first use, so a DDS call never blocks the event loop or holds its GIL. A job
    counts against the limits until its worker has really finished it, even if
    the client that asked for it has gone away (so hanging up and asking again
    gains nothing). The share per client keeps one client from filling the queue:
    with the defaults (two workers, 16 waiting, 4 per client) at least five
    clients always find room.

    >>> SolverLimiter(workers=2, queue=8).capacity
    10
    """

    def __init__(
        self,
        workers: int | None = None,
        queue: int = 16,
        retry_after: int = 2,
        per_client: int = 4,
    ) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.queue = max(0, queue)
        self.retry_after = retry_after
        self.per_client = max(1, per_client)
        self._admitted = 0
        self._by_client: dict[str, int] = {}
        self._lock = threading.Lock()
        self._executor: Executor | None = None

    @property
    def capacity(self) -> int:
        """Jobs running plus jobs waiting before new ones are refused."""
        return self.workers + self.queue

    @property
    def admitted(self) -> int:
        """Jobs running or waiting now."""
        return self._admitted

    def _pool(self) -> Executor:
        if self._executor is None:
            # "spawn": forking a process that runs an event loop and threads is unsafe.
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=context, initializer=_init_worker
            )
        return self._executor

    def held_by(self, client: str) -> int:
        """Jobs running or waiting now for ``client``."""
        return self._by_client.get(client, 0)

    def _release(self, client: str | None, _: object = None) -> None:
        with self._lock:
            self._admitted -= 1
            if client is not None:
                left = self._by_client[client] - 1
                if left:
                    self._by_client[client] = left
                else:
                    del self._by_client[client]

    async def run(self, function: Callable[..., T], *args: Any, client: str | None = None) -> T:
        """Run ``function(*args)`` in a worker for ``client`` (an address; None: no share).

        Raises :class:`SolverBusy`: 503 when the queue is full, 429 when ``client``
        already holds ``per_client`` jobs.
        """
        with self._lock:
            if client is not None and self._by_client.get(client, 0) >= self.per_client:
                raise SolverBusy(
                    self.retry_after,
                    f"this client already has {self.per_client} solver jobs running or "
                    "waiting, its share of the queue",
                    status=429,
                )
            if self._admitted >= self.capacity:
                raise SolverBusy(self.retry_after)
            self._admitted += 1
            if client is not None:
                self._by_client[client] = self._by_client.get(client, 0) + 1
        try:
            # The pool itself runs at most ``workers`` jobs; the rest wait in its queue.
            job = self._pool().submit(function, *args)
        except BrokenProcessPool:
            self._release(client)
            raise self._replace_pool() from None
        except BaseException:
            self._release(client)
            raise
        job.add_done_callback(functools.partial(self._release, client))
        try:
            return await asyncio.wrap_future(job)
        except BrokenProcessPool:
            raise self._replace_pool() from None

    def _replace_pool(self) -> SolverBusy:
        # A worker died (killed, or out of memory): start a fresh pool for later jobs.
        broken, self._executor = self._executor, None
        if broken is not None:
            broken.shutdown(wait=False, cancel_futures=True)
        return SolverBusy(self.retry_after, "a solver worker stopped unexpectedly")

    def warm(self, function: Callable[[], object]) -> None:
        """Start every worker now, each running ``function`` (say, importing the solver).

        Without this the first solve requests would also pay for starting the
        worker processes. Warm-up jobs do not count against the queue.
        """
        pool = self._pool()
        for _ in range(self.workers):
            pool.submit(function)

    def close(self) -> None:
        """Stop the worker processes, dropping waiting jobs."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


class LoginThrottle:
    """At most ``failures`` password tries per client in any ``window`` seconds,
    counting every try that did not log in.

    :meth:`attempt` takes a try's slot before the password is checked, counted as a
    failure from that moment: twenty guesses sent at once find five slots and fifteen
    refusals, however long each check takes. A right password gives the slot back
    (:meth:`succeeded` forgets the client). A client that has used its slots is
    refused (before its password is even checked, so a right guess gains nothing)
    until its oldest counted try leaves the window. ``clock`` gives seconds; tests
    pass their own. At most ``max_clients`` clients are remembered: past that, the
    ones whose failures have all expired are forgotten first, then the oldest.

    >>> now = [0.0]
    >>> throttle = LoginThrottle(2, 60.0, clock=lambda: now[0])
    >>> throttle.attempt("10.0.0.7"), throttle.attempt("10.0.0.7")
    (None, None)
    >>> throttle.attempt("10.0.0.7")
    60
    >>> now[0] = 60.0
    >>> throttle.retry_after("10.0.0.7") is None
    True
    """

    def __init__(
        self,
        failures: int = 5,
        window: float = 300.0,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_clients: int = 10_000,
    ) -> None:
        self.failures = max(1, failures)
        self.window = window
        self.clock = clock
        self.max_clients = max_clients
        self._seen: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, client: str, now: float) -> deque[float]:
        times = self._seen.get(client)
        if times is None:
            return deque()
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self._seen[client]
        return times

    def retry_after(self, client: str) -> int | None:
        """Whole seconds ``client`` must wait before trying again, or None if it may try now."""
        with self._lock:
            now = self.clock()
            times = self._recent(client, now)
            if len(times) < self.failures:
                return None
            # Refused until enough failures leave the window to fall under the limit.
            release = times[len(times) - self.failures] + self.window
            return max(1, math.ceil(release - now))

    def attempt(self, client: str) -> int | None:
        """Take a slot for one password try from ``client``: None if it may try now
        (the try counts as a failure unless :meth:`succeeded` follows), else the whole
        seconds it must wait. The check and the count are one step under the lock."""
        with self._lock:
            now = self.clock()
            times = self._recent(client, now)
            if len(times) >= self.failures:
                release = times[len(times) - self.failures] + self.window
                return max(1, math.ceil(release - now))
            self._count(client, times, now)
            return None

    def failed(self, client: str) -> None:
        """Count a wrong password from ``client``."""
        with self._lock:
            now = self.clock()
            self._count(client, self._recent(client, now), now)

    def _count(self, client: str, times: deque[float], now: float) -> None:
        # Called under the lock.
        if client not in self._seen:
            self._make_room(now)
            self._seen[client] = times
        times.append(now)
        # Only the latest ``failures`` matter for the limit.
        while len(times) > self.failures:
            times.popleft()

    def succeeded(self, client: str) -> None:
        """Forget ``client``'s failures: it knows the password."""
        with self._lock:
            self._seen.pop(client, None)

    def _make_room(self, now: float) -> None:
        if len(self._seen) < self.max_clients:
            return
        for client in list(self._seen):
            self._recent(client, now)
        while len(self._seen) >= self.max_clients:
            oldest = min(self._seen, key=lambda name: self._seen[name][-1])
            del self._seen[oldest]
