"""Shared fixtures: the test side of the chunk runner's hold points.

``bridgescore.distributed`` announces ``chunk-started`` (in a worker, before a
chunk) and ``shard-written`` (in the client, after a shard) to the Unix socket
named by ``BRIDGESCORE_TEST_HOLD`` and waits for an answer. :class:`HoldPoints`
listens there, answers at once every message the test does not want to hold,
and hands the held ones to the test, which acts (SIGINT, SIGKILL, ...) while the
run is stopped at a known point and then releases it. No sleeps, no guessing.
"""

from __future__ import annotations

import contextlib
import json
import queue
import socket
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from bridgescore.distributed import HOLD_VARIABLE

# How long a test waits for a run to reach a hold point before it gives up. It is a
# bound on a hang (a bug), not a synchronisation: a healthy run arrives much sooner.
HOLD_TIMEOUT = 600.0


@dataclass
class Held:
    """One announcement from a run: ``event``, ``chunk`` and the announcing ``pid``."""

    event: str
    chunk: int
    pid: int
    connection: socket.socket = field(repr=False)

    def release(self) -> None:
        """Let the announcing process go on (nothing happens if it is gone)."""
        with contextlib.suppress(OSError):
            self.connection.sendall(b"go\n")
        with contextlib.suppress(OSError):
            self.connection.close()


class HoldPoints:
    """Listens on an abstract Unix socket; holds the messages ``wanted`` says to hold."""

    def __init__(self, wanted: Callable[[Held], bool]) -> None:
        self.wanted = wanted
        self.address = f"@bridgescore-hold-{uuid.uuid4().hex}"
        self.seen: list[Held] = []
        self._held: queue.Queue[Held] = queue.Queue()
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind("\0" + self.address[1:])
        self._listener.listen(64)
        self._lock = threading.Lock()
        self._open: list[Held] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def environment(self) -> dict[str, str]:
        """The variable to give a run (or a Dask worker) so that it announces itself here."""
        return {HOLD_VARIABLE: self.address}

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self._listener.accept()
            except OSError:
                return  # closed by close()
            threading.Thread(target=self._handle, args=(connection,), daemon=True).start()

    def _handle(self, connection: socket.socket) -> None:
        line = connection.makefile("rb").readline()
        if not line:
            connection.close()
            return
        data: dict[str, Any] = json.loads(line)
        held = Held(data["event"], data["chunk"], data["pid"], connection)
        with self._lock:
            self.seen.append(held)
            hold = self.wanted(held)
            if hold:
                self._open.append(held)
        if hold:
            self._held.put(held)
        else:
            held.release()

    def next(self, alive: Callable[[], bool] = lambda: True) -> Held:
        """The next held message; fails the test if ``alive()`` turns false first."""
        waited = 0.0
        while waited < HOLD_TIMEOUT:
            try:
                return self._held.get(timeout=1.0)
            except queue.Empty:
                waited += 1.0
                if not alive():
                    pytest.fail("the run ended before reaching the hold point")
        pytest.fail(f"the run did not reach the hold point in {HOLD_TIMEOUT:.0f} s")

    def events(self, event: str) -> list[int]:
        """Chunk ids announced with ``event`` so far, in arrival order."""
        with self._lock:
            return [held.chunk for held in self.seen if held.event == event]

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()
        with self._lock:
            for held in self._open:
                held.release()


MakeHoldPoints = Callable[[Callable[[Held], bool]], HoldPoints]


@pytest.fixture
def hold_points() -> Iterator[MakeHoldPoints]:
    """``hold_points(wanted)`` -> a listening :class:`HoldPoints`, closed after the test."""
    made: list[HoldPoints] = []

    def make(wanted: Callable[[Held], bool]) -> HoldPoints:
        points = HoldPoints(wanted)
        made.append(points)
        return points

    yield make
    for points in made:
        points.close()


def nth(event: str, n: int) -> Callable[[Held], bool]:
    """A ``wanted`` rule holding only the ``n``-th (1-based) message of ``event``."""
    count = 0

    def wanted(held: Held) -> bool:
        nonlocal count
        if held.event != event:
            return False
        count += 1
        return count == n

    return wanted
