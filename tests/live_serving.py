"""For the live server's tests: the hand-written movements, and a real
``bridgescore session live`` server in a subprocess.

This is a test helper module, not a test module (pytest collects ``test_*.py``).
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bridgescore.movement.model import Movement
from live_movements import club_mitchell, three_table_mitchell

#: The 3-table Mitchell of live_movements, written out there as a table card lists it:
#:   round 1: T1 1N-1E boards 1-2, T2 2N-2E 3-4, T3 3N-3E 5-6
#:   round 2: T1 1N-3E boards 3-4, T2 2N-1E 5-6, T3 3N-2E 1-2
#:   round 3: T1 1N-2E boards 5-6, T2 2N-3E 1-2, T3 3N-1E 3-4
THREE_TABLES = three_table_mitchell()


def mitchell(tables: int, rounds: int, boards_per_round: int) -> Movement:
    """NS stay, EW move up one table, boards down one (live_movements.club_mitchell):
    EW pair e meets board set e + 2r - 3 in round r, so sound while 2 (rounds - 1) < tables."""
    return club_mitchell(tables, boards_per_round, rounds)


CLI = [sys.executable, "-c", "from bridgescore.cli import main; main()"]
_SERVING = re.compile(r"serving .* on (http://\S+?)/? \(Ctrl\+C to stop\)")


@dataclass
class Server:
    """A running ``session live`` process, its base URL and everything it has printed."""

    process: subprocess.Popen[str]
    base: str
    lines: list[str] = field(default_factory=list)
    drained: threading.Thread | None = None

    @property
    def output(self) -> str:
        """What the server printed, complete once it has exited."""
        if self.drained is not None:
            self.drained.join()
        return "".join(self.lines)


@contextlib.contextmanager
def live_server(event: Path, *options: str, prefix: Sequence[str] = ()) -> Iterator[Server]:
    """``bridgescore session live EVENT --port 0`` in a subprocess, yielding once it listens
    (run by ``prefix``, such as an ``unshare`` command, when given).

    The command binds and listens before it prints where it serves, so the line is
    the synchronisation: a connection made after it waits in the listen queue.
    Its output is drained on a thread (a full pipe would stall the server).
    """
    process = subprocess.Popen(
        [*prefix, *CLI, "session", "live", str(event), "--port", "0", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    lines: list[str] = []
    base = None
    for line in process.stdout:
        lines.append(line)
        found = _SERVING.search(line)
        if found:
            base = found.group(1)
            break
    if base is None:
        process.wait()
        pytest.fail("bridgescore session live did not start:\n" + "".join(lines))
    server = Server(process, base, lines)
    stream = process.stdout

    def drain() -> None:
        for rest in stream:
            lines.append(rest)

    server.drained = threading.Thread(target=drain, daemon=True)
    server.drained.start()
    try:
        yield server
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait()
        server.drained.join()
        stream.close()
