"""Test data for the web tests: a tiny real par study and a tiny real event file."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

VECTORS = Path(__file__).parent / "data" / "par_vectors.jsonl"

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
NO_CHROMIUM = (
    "Debian's chromium is not installed at /usr/bin/chromium "
    "(`make test` installs it with apt-get install chromium)"
)
NO_PLAYWRIGHT = "playwright is not installed (pip install -e '.[test]')"


def screenshots_folder(folder: Path) -> Path | None:
    """``folder`` (one of docs/img's), made if need be, when ``BRIDGESCORE_SCREENSHOTS=1``
    asks to refresh its pictures; otherwise ``None``: no picture is taken."""
    if os.environ.get("BRIDGESCORE_SCREENSHOTS") != "1":
        return None
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def screenshot(page: Any, folder: Path | None, name: str, *, full_page: bool = False) -> None:
    """Refresh the picture ``name`` in ``folder`` (:func:`screenshots_folder`); with
    ``None`` do nothing. A picture no one looks at checks nothing, and a full page's
    costs Chromium about 0.3 s of CPU (19 of them in the suite)."""
    if folder is not None:
        page.screenshot(path=str(folder / name), full_page=full_page)


@contextlib.contextmanager
def chromium(*extra_args: str) -> Iterator[Any]:
    """Debian's chromium, driven by Playwright, with ``extra_args`` after the usual
    ones; the test is skipped when either is missing."""
    if not CHROMIUM.exists():
        pytest.skip(NO_CHROMIUM)
    sync_api = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT)
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, *extra_args]
        )
        try:
            yield launched
        finally:
            launched.close()


# Three boards, three tables: (NS pair, EW pair, result). Matchpoints on a top of 4
# (2 per pair beaten, 1 per tie), worked by hand from Law 77 scores:
#   board 1 (none vul):  1NTN+1 +120 -> 4, 2SE-1 +50 -> 2, 3NTS-1 -50 -> 0
#   board 2 (NS vul):    4HS= +620 -> 2, 4HS+1 +650 -> 4, 2HS+2 +170 -> 0
#   board 3 (EW vul):    3NTW= -600 -> 2, 4SE-2 +200 -> 4, 3NTW+1 -630 -> 0
EVENT_RESULTS = {
    1: [("1", "4", "1NTN+1"), ("2", "5", "2SE-1"), ("3", "6", "3NTS-1")],
    2: [("1", "5", "4HS="), ("2", "6", "4HS+1"), ("3", "4", "2HS+2")],
    3: [("1", "6", "3NTW="), ("2", "4", "4SE-2"), ("3", "5", "3NTW+1")],
}
NS_MATCHPOINTS = {"1": 4 + 2 + 2, "2": 2 + 4 + 4, "3": 0}
EW_MATCHPOINTS = {"4": 0 + 4 + 0, "5": 2 + 2 + 4, "6": 4 + 0 + 2}


def vectors(count: int) -> list[dict[str, Any]]:
    """The first ``count`` DDS reference deals (deal, dd, par)."""
    with VECTORS.open() as stream:
        return [json.loads(line) for _, line in zip(range(count), stream, strict=False)]


def make_event(path: Path) -> Path:
    """A three-board pairs event with hand records, stored like `session import` does."""
    from bridgescore.ddtable import DDTable
    from bridgescore.deal import Deal
    from bridgescore.session.scoring.event import Board, TableResult
    from bridgescore.session.store.events import EventStore, Origin

    deals = vectors(3)
    with EventStore(path) as store:
        store.set_info(name="Tuesday pairs", kind="pairs")
        boards = [
            (
                Board(number, Deal.from_pbn(vector["deal"]), DDTable.parse(vector["dd"])),
                Origin("hands.pbn", number),
            )
            for number, vector in enumerate(deals, start=1)
        ]
        results = [
            (TableResult.played(board, ns, ew, text), Origin("travellers.csv", line))
            for board, rows in EVENT_RESULTS.items()
            for line, (ns, ew, text) in enumerate(rows, start=2)
        ]
        store.add(boards, results)
    return path


def make_study(directory: Path, deals: int = 4) -> Path:
    """A real (small) par study, solved with DDS."""
    from bridgescore.study import run_study

    run_study(directory, deals=deals, seed=1, chunk_size=4, workers=1)
    return directory


def run_after(gate: Any, function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)`` once ``gate`` (a manager Event) is set; a solver job held by a test."""
    gate.wait()
    return function(*args)


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _started(process: subprocess.Popen[bytes], url: str) -> str | None:
    """``None`` once the server answers ``url``; its output if it exits first (or a
    generous bound on a hang passes: a loaded 2-core machine starts slowly)."""
    started = time.monotonic()
    while True:
        try:
            if httpx.get(url, timeout=5).status_code == 200:
                return None
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() - started > 180:
            if process.poll() is None:
                process.kill()
                process.wait()
            return process.stdout.read().decode() if process.stdout else ""
        time.sleep(0.2)  # polling the server's answer, not standing in for it


@contextlib.contextmanager
def serving(options: list[str], ready: str = "/") -> Iterator[str]:
    """``bridgescore serve`` with ``options`` on a free port; yields its base URL.

    Waits for the server by asking it for ``ready``, not by a timer; gives up only
    if it exits or a generous bound on a hang passes (a loaded 2-core machine
    starts slowly).
    """
    # The free port may be taken by another program between the probe and the
    # server's bind (other tests start servers too): then a new port is tried.
    for _attempt in range(5):
        port = free_port()
        command = [
            sys.executable, "-c", "from bridgescore.cli import main; main()",
            "serve", "--port", str(port), *options,
        ]  # fmt: skip
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        output = _started(process, base + ready)
        if output is None:
            break
        if "is taken" not in output:
            pytest.fail(f"bridgescore serve did not start: {output}")
    else:
        pytest.fail(f"bridgescore serve found no free port in five tries: {output}")
    try:
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
