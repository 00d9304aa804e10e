"""Shared fixtures: a real Dask cluster, and the test side of the hold points.

``bridgescore.distributed`` announces ``chunk-started`` (in a worker, before a
chunk) and ``shard-written`` (in the client, after a shard) to the Unix socket
named by ``BRIDGESCORE_TEST_HOLD`` and waits for an answer. :class:`HoldPoints`
listens there, answers at once every message the test does not want to hold,
and hands the held ones to the test, which acts (SIGINT, SIGKILL, ...) while the
run is stopped at a known point and then releases it. No sleeps, no guessing.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import json
import os
import queue
import shutil
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import typer.testing
from hypothesis import settings

from bridgescore.distributed import HOLD_VARIABLE
from bridgescore.session.store import access

# No test depends on the machine's speed: hypothesis's deadline (200 ms an example) is a
# timing assertion, and CI runs on a loaded 2-core machine where one example of a
# round trip through four formats took 256 ms. Every test inherits this profile; the
# sizes (max_examples) stay each test's own.
settings.register_profile("bridgescore", deadline=None)
settings.load_profile("bridgescore")

# --- the director password's scrypt at a test's cost ----------------------------------
#
# Every event file made holds an scrypt hash of its director password, and every login
# checks one: at the product's cost (n = 2**14, 16 MiB, 35 ms a hash on the 2-core
# machine) that was about 29 s of CPU in tests/session, tests/web/live and tests/cli
# alone. The tests hash at n = 2**8: the same code and the same checks, the cost stored
# in each hash as always, so a server or a command in a process of its own (at the
# product's cost) checks the tests' hashes at theirs. The product's cost is tested by
# tests/session/store/test_access.py, which puts it back (the product_scrypt fixture).
# (A fixture, not a line run at import: a test module's "from conftest import" runs this
# file a second time, under another name.)


@pytest.fixture(autouse=True, scope="session")
def suite_scrypt_cost() -> Iterator[int]:
    """The suite's lower scrypt cost; gives the product's."""
    product = access.SCRYPT_N
    access.SCRYPT_N = 2**8
    yield product
    access.SCRYPT_N = product


@pytest.fixture
def product_scrypt(suite_scrypt_cost: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The product's scrypt cost, for the one test of it."""
    monkeypatch.setattr(access, "SCRYPT_N", suite_scrypt_cost)


# --- one Click command per Typer app -------------------------------------------------
#
# Typer's CliRunner.invoke builds the whole Click command tree from the Typer app on every
# call (typer.main.get_command): 38 ms of the 40 ms an invocation of `bridgescore score`
# takes, and the suite invokes the command line in-process some thousands of times. The
# tree is built from the app's declarations alone and holds no state of an invocation
# (Click makes a fresh Context each time, as it does for a script run twice), so each app
# is built once per process. The installed `bridgescore` script builds it once too.
typer.testing._get_command = functools.cache(typer.testing._get_command)

# --- the garbage collector during collection -----------------------------------------
#
# Collecting the suite imports every test module and builds some 6,000 test items, and all
# of it lives until the process ends. The cyclic garbage collector would go over that
# growing heap again and again while it is built (about 6 s of the 16 s a process spends
# collecting) and over all of it at each full collection while the tests run. So what is
# built so far is moved out of its sight (gc.freeze) after each module is collected and
# once at the end of collection; what a test makes is collected as always. Only reference
# cycles made while collecting are never freed, and they are few and small.


def pytest_collectreport(report: pytest.CollectReport) -> None:
    gc.freeze()


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.freeze()


# --- a real Dask cluster, for the cluster tests of the study and of simulate ---------

DASK = Path(sys.executable).with_name("dask")
# A bound on a hang (a cluster that never comes up), not a wait for an event.
START_TIMEOUT = "300s"


def can_unshare() -> str | None:
    """Why a private mount namespace is not available here, or None if it is."""
    if shutil.which("unshare") is None:
        return "no unshare(1) on this machine"
    trial = subprocess.run(
        ["unshare", "-m", "sh", "-c", "mount -t tmpfs tmpfs /mnt"], capture_output=True
    )
    if trial.returncode != 0:
        return f"unshare -m with a tmpfs mount is not permitted here: {trial.stderr.decode()}"
    return None


@contextmanager
def cluster(
    tmp_path: Path, workers: list[list[str]], environment: dict[str, str]
) -> Iterator[tuple[object, list[subprocess.Popen[bytes]]]]:
    """A ``dask scheduler`` and one ``dask worker`` per prefix (e.g. an unshare command).

    Yields a connected client and the worker processes.
    """
    if not DASK.exists():
        pytest.skip(f"no dask command next to {sys.executable}")
    tmp_path.mkdir(parents=True, exist_ok=True)
    scheduler_file = tmp_path / "scheduler.json"
    common = ["--no-dashboard"]
    processes: list[subprocess.Popen[bytes]] = []
    logs = (tmp_path / "cluster.log").open("wb")
    env = {**os.environ, **environment}
    try:
        processes.append(
            subprocess.Popen(
                [
                    str(DASK),
                    "scheduler",
                    "--port",
                    "0",
                    "--scheduler-file",
                    str(scheduler_file),
                    *common,
                ],
                stdout=logs,
                stderr=logs,
            )
        )
        worker_processes = []
        for prefix in workers:
            command = [
                *prefix,
                str(DASK),
                "worker",
                "--scheduler-file",
                str(scheduler_file),
                "--nthreads",
                "1",
                "--no-nanny",
                *common,
            ]
            worker = subprocess.Popen(command, env=env, stdout=logs, stderr=logs)
            processes.append(worker)
            worker_processes.append(worker)
        import distributed

        client = distributed.Client(scheduler_file=str(scheduler_file), timeout=START_TIMEOUT)
        try:
            client.wait_for_workers(len(workers), timeout=START_TIMEOUT)
            yield client, worker_processes
        finally:
            client.close()
    finally:
        # Workers first, each gone before the next, the scheduler last: a worker told
        # to stop (SIGTERM) just as its scheduler closes can lose its own shutdown and
        # linger, retrying the scheduler for ever (seen with distributed 2026.8).
        for process in reversed(processes):
            _stop(process)
        logs.close()


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=60)  # a bound on a hang, not a wait for an event
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def blind_to(hidden: Path) -> list[str]:
    """A command prefix running a worker in its own mount namespace with an empty
    tmpfs over ``hidden``: it can neither see nor write the client's files there."""
    return ["unshare", "-m", "--propagation", "private", "sh", "-c",
            f'mount -t tmpfs tmpfs "{hidden}" && exec "$@"', "sh"]  # fmt: skip


# --- hold points --------------------------------------------------------------------

# How long a test waits for a run to reach a hold point (or to finish after it) before
# it gives up. It is a bound on a hang (a bug), not a synchronisation: a healthy run
# arrives in seconds even on a loaded machine. BRIDGESCORE_HOLD_TIMEOUT overrides it
# (seconds), to see a suspected hang sooner.
HOLD_TIMEOUT = float(os.environ.get("BRIDGESCORE_HOLD_TIMEOUT", "300"))


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
        """The next held message.

        Fails the test, listing every announcement seen so far, if ``alive()`` turns
        false first or if nothing is held within ``HOLD_TIMEOUT`` seconds: a bound on
        a hang (a lost announcement, a run stuck elsewhere), not a synchronisation.
        """
        deadline = time.monotonic() + HOLD_TIMEOUT
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                pytest.fail(
                    f"nothing reached the hold point in {HOLD_TIMEOUT:.0f} s "
                    f"(a hang bound); {self.announced()}"
                )
            try:
                return self._held.get(timeout=min(1.0, remaining))
            except queue.Empty:
                if not alive():
                    pytest.fail(f"the run ended before reaching the hold point; {self.announced()}")

    def announced(self) -> str:
        """Every announcement seen so far, in arrival order, for a failure message."""
        with self._lock:
            seen = [f"{held.event} {held.chunk} from pid {held.pid}" for held in self.seen]
        return "announced so far: " + (", ".join(seen) if seen else "nothing")

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
