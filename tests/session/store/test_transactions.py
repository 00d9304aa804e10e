"""Session imports are one transaction each and concurrent imports all land.

The runs are stopped at exact points, never timed: the import's own
``EventStore._add_result`` is wrapped (by the test, in the importing process) so
that it announces itself and waits after writing a row, while its transaction
is open. A ``kill -9`` there must leave the event as it was; a second import
must complete it; and a second import started while the first holds its open
transaction must wait for it and land too.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bridgescore.session.importers.importer import import_files
from bridgescore.session.scoring.event import TableResult
from bridgescore.session.store.events import EventStore
from conftest import HOLD_TIMEOUT, MakeHoldPoints, nth

DATA = Path(__file__).parents[2] / "data"
MITCHELL = DATA / "session_mitchell.csv"  # 5 tables x 4 boards: 20 results
SECTIONS = DATA / "session_sections.csv"

# Run in a child process: wrap _add_result so that, after writing its third row
# (inside the import's transaction), the import announces itself on the hold
# socket and waits; then run the real command line.
DRIVER = """
import json, os, socket, sys
from bridgescore.session.store.events import EventStore

original = EventStore._add_result
written = 0

def add_result(self, result, origin):
    global written
    report = original(self, result, origin)
    written += report.added
    if written == 3 and report.added:
        address = os.environ["BRIDGESCORE_TEST_HOLD"]
        with socket.socket(socket.AF_UNIX) as channel:
            channel.connect("\\0" + address[1:])
            message = {"event": "row-written", "chunk": written, "pid": os.getpid()}
            channel.sendall(json.dumps(message).encode() + b"\\n")
            channel.makefile("rb").readline()
    return report

EventStore._add_result = add_result
from bridgescore.cli import main
sys.argv = ["bridgescore", *sys.argv[1:]]
main()
"""


def cli(*arguments: str | Path) -> list[str]:
    return [sys.executable, "-c", "from bridgescore.cli import main; main()", *map(str, arguments)]


def stored(path: Path) -> list[TableResult]:
    with EventStore(path) as store:
        return store.results()


def rows_in(path: Path) -> int:
    """Data lines of a CSV traveller: neither comments, nor blank, nor a header."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return sum(1 for line in lines if line.strip() and not line.startswith(("#", "board")))


def test_kill_9_mid_import_leaves_the_event_as_it_was(
    tmp_path: Path, hold_points: MakeHoldPoints
) -> None:
    event = tmp_path / "club.db"
    first = subprocess.run(cli("session", "import", event, SECTIONS), capture_output=True)
    assert first.returncode == 0, first.stderr
    before = stored(event)
    assert len(before) == rows_in(SECTIONS)

    points = hold_points(nth("row-written", 1))
    process = subprocess.Popen(
        [sys.executable, "-c", DRIVER, "session", "import", str(event), str(MITCHELL)],
        env={**os.environ, **points.environment},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    held = points.next(alive=lambda: process.poll() is None)
    assert held.pid == process.pid
    os.kill(process.pid, signal.SIGKILL)  # three rows written, transaction open
    process.communicate()
    held.release()
    assert process.returncode == -signal.SIGKILL

    assert stored(event) == before  # the three rows were never committed

    again = subprocess.run(cli("session", "import", event, MITCHELL), capture_output=True)
    assert again.returncode == 0, again.stderr
    after = stored(event)
    assert len(after) == len(before) + rows_in(MITCHELL)
    reference = tmp_path / "reference.db"
    with EventStore(reference) as store:
        assert import_files(store, [SECTIONS, MITCHELL]).ok
    assert after == stored(reference)


def _holding(
    store: EventStore, after_rows: int, reached: threading.Event, go: threading.Event
) -> None:
    # Wraps this store's _add_result: after ``after_rows`` rows, signal and wait for ``go``.
    original: Callable[..., Any] = store._add_result
    written = 0

    def add_result(result: TableResult, origin: Any) -> Any:
        nonlocal written
        report = original(result, origin)
        written += report.added
        if written == after_rows and report.added:
            reached.set()
            assert go.wait(HOLD_TIMEOUT), "the test never released the import"
        return report

    store._add_result = add_result  # type: ignore[method-assign]


def _two_imports(event: Path, second_opens_late: bool) -> tuple[dict[str, Any], list[Any]]:
    """Import MITCHELL ("first") and SECTIONS ("second") into ``event`` at once.

    The first import is held with its write transaction open (one row written).
    The second opens the event file before the first starts and begins its import
    (its first SQL statement) while the first is held; or, with
    ``second_opens_late``, it starts opening the file while the first is held.
    Only then is the first released: the second has to wait for it, for as long
    as it takes, and land.
    """
    reports: dict[str, Any] = {}
    errors: list[BaseException] = []
    first_reached, first_go = threading.Event(), threading.Event()
    second_opened, second_go = threading.Event(), threading.Event()
    second_started = threading.Event()

    def started(statement: str) -> None:
        second_started.set()

    def run_first() -> None:
        try:
            with EventStore(event) as store:
                _holding(store, 1, first_reached, first_go)
                reports["first"] = import_files(store, [MITCHELL])
        except BaseException as error:  # reported by the main thread
            errors.append(error)
            first_reached.set()

    def run_second() -> None:
        try:
            if second_opens_late:
                second_started.set()  # about to open the file the first import is writing
            with EventStore(event) as store:
                second_opened.set()
                assert second_go.wait(HOLD_TIMEOUT)
                store._db.set_trace_callback(started)
                reports["second"] = import_files(store, [SECTIONS])
        except BaseException as error:
            errors.append(error)
            second_opened.set()
            second_started.set()

    first = threading.Thread(target=run_first)
    second = threading.Thread(target=run_second)
    if not second_opens_late:
        second.start()
        assert second_opened.wait(HOLD_TIMEOUT)
    first.start()
    try:
        assert first_reached.wait(HOLD_TIMEOUT)
        if second_opens_late:
            second.start()
        second_go.set()
        assert second_started.wait(HOLD_TIMEOUT)
    finally:
        first_go.set()
        second_go.set()
        first.join(HOLD_TIMEOUT)
        second.join(HOLD_TIMEOUT)
    assert not first.is_alive() and not second.is_alive()
    return reports, errors


@pytest.mark.parametrize("second_opens_late", [False, True], ids=["opened-before", "opened-during"])
def test_two_imports_at_once_both_land(tmp_path: Path, second_opens_late: bool) -> None:
    event = tmp_path / "club.db"
    EventStore(event).close()
    reports, errors = _two_imports(event, second_opens_late)
    assert errors == []
    assert reports["first"].ok and reports["second"].ok
    assert reports["first"].results.added == rows_in(MITCHELL)
    assert reports["second"].results.added == rows_in(SECTIONS)
    assert len(stored(event)) == rows_in(MITCHELL) + rows_in(SECTIONS)


def test_readers_see_the_event_as_it_was_during_an_import(tmp_path: Path) -> None:
    # While an import's transaction is open, another connection reads the event as it was.
    event = tmp_path / "club.db"
    EventStore(event).close()
    reached, go = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def run() -> None:
        try:
            with EventStore(event) as store:
                _holding(store, 2, reached, go)
                import_files(store, [MITCHELL])
        except BaseException as error:
            failures.append(error)
            reached.set()

    worker = threading.Thread(target=run)
    worker.start()
    try:
        assert reached.wait(HOLD_TIMEOUT)
        with sqlite3.connect(event) as reader:
            assert reader.execute("SELECT count(*) FROM results").fetchone() == (0,)
    finally:
        go.set()
        worker.join(HOLD_TIMEOUT)
    assert failures == []
    assert len(stored(event)) == rows_in(MITCHELL)


pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
