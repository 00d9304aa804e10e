"""A small live club night for the live pages' tests: a 3-table Mitchell, 3 rounds of 2 boards.

The movement is written here from the Mitchell rule itself (NS pairs stay, EW pairs
move up one table, boards move down one table), not read from a generator, so the
tests' expected moves are independent of the code under test:

    round 1: table 1 1N v 1E boards 1-2, table 2 2N v 2E boards 3-4, table 3 3N v 3E boards 5-6
    round 2: table 1 1N v 3E boards 3-4, table 2 2N v 1E boards 5-6, table 3 3N v 2E boards 1-2
    round 3: table 1 1N v 2E boards 5-6, table 2 2N v 3E boards 1-2, table 3 3N v 1E boards 3-4
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

TABLES = 3
ROUNDS = 3


def mitchell_rows() -> list[tuple[int, int, str, str, tuple[int, int]]]:
    rows = []
    for round_number in range(1, ROUNDS + 1):
        for table in range(1, TABLES + 1):
            ew = (table - round_number) % TABLES + 1  # came up one table each round
            board_set = (table + round_number - 2) % TABLES  # went down one table each round
            boards = (2 * board_set + 1, 2 * board_set + 2)
            rows.append((round_number, table, f"{table}N", f"{ew}E", boards))
    return rows


def club_movement() -> Any:
    from bridgescore.movement.model import Movement, rows_from

    return Movement("mitchell", TABLES, ROUNDS, 2, rows_from(mitchell_rows()))


def new_event(path: Path, url_base: str = "http://127.0.0.1:8000") -> Any:
    """The event file with its movement, tokens and password (a ``NewEvent``)."""
    from bridgescore.session.live import create_event

    return create_event(path, club_movement(), name="Club night", url_base=url_base)


def token_of(created: Any, table: int) -> str:
    token: str = next(t.token for t in created.tables if t.table == table)
    return token


def csrf_of(html: str) -> str:
    """The CSRF token in a page's first form."""
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None, html
    return found[1]


@contextlib.contextmanager
def serving_live(event: Path) -> Iterator[str]:
    """``bridgescore session live EVENT`` on a free port; yields its base URL.

    Waits for the server by asking it for ``/ranking``, not by a timer; gives up only
    if it exits or a generous bound on a hang passes (a loaded 2-core machine starts
    slowly).
    """
    from web_helpers import free_port

    port = free_port()
    command = [
        sys.executable, "-c", "from bridgescore.cli import main; main()",
        "session", "live", str(event), "--port", str(port), "--no-access-log",
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        started = time.monotonic()
        while True:
            try:
                if httpx.get(base + "/ranking", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() - started > 180:
                output = process.stdout.read().decode() if process.stdout else ""
                pytest.fail(f"bridgescore session live did not start: {output}")
            time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def enter_by_api(base: str, created: Any, table: int, body: dict[str, Any]) -> int:
    """A table's result through the JSON API; its NS score."""
    answer = httpx.post(
        base + "/api/live/results",
        json=body,
        headers={"Authorization": f"Bearer {token_of(created, table)}"},
        timeout=60,
    )
    assert answer.status_code == 201, answer.text
    score: int = answer.json()["score_ns"]
    return score
