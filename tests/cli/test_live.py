"""``bridgescore session live``: a real uvicorn server in a subprocess.

What only a real server shows: its access log (tokens redacted), the warning when it
listens beyond this machine, many tables entering at once over HTTP, and a kill -9
that loses no acknowledged result.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app as cli_app
from bridgescore.session.live.creation import NewEvent, create_event
from live_serving import THREE_TABLES, live_server, mitchell

pytest.importorskip("uvicorn", reason="session live needs the web extra")

FULL = os.environ.get("BRIDGESCORE_FULL") == "1"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# Every board the same: 3NT by South, made: +400, or +600 when NS are vulnerable, which in
# boards 1-16 they are on 2, 4, 5, 7, 10, 12, 13 and 15 (Law 2's cycle, repeated from 17).
PLAYED = {"contract": "3NT", "declarer": "S", "result": "="}
NS_VULNERABLE = {2, 4, 5, 7, 10, 12, 13, 15}


def expected_score(board: int) -> int:
    return 600 if (board - 1) % 16 + 1 in NS_VULNERABLE else 400


def test_a_missing_event_file_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli_app, ["session", "live", str(tmp_path / "none.db")])
    assert result.exit_code == 1
    assert "none.db" in result.output
    assert "is not an event file" in result.output
    assert not (tmp_path / "none.db").exists()


def test_a_file_that_is_no_live_event_is_refused(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_text("these are not the results you are looking for\n")
    result = CliRunner().invoke(cli_app, ["session", "live", str(junk)])
    assert result.exit_code == 1
    assert "junk.db" in result.output
    assert "Traceback" not in result.output


def test_listening_beyond_this_machine_warns_that_tls_belongs_in_front(tmp_path: Path) -> None:
    path = tmp_path / "club.db"
    create_event(path, THREE_TABLES)
    with live_server(path, "--host", "0.0.0.0") as server:
        started = "".join(server.lines)
    assert "warning: listening on 0.0.0.0" in started
    assert "TLS" in started
    assert "docs/live-server.md" in started


def test_the_server_log_never_shows_a_token(tmp_path: Path) -> None:
    path = tmp_path / "club.db"
    created = create_event(path, THREE_TABLES)
    table = created.tables[0].token
    with live_server(path) as server:
        with httpx.Client(base_url=server.base, timeout=60) as client:
            answer = client.get("/api/live/table", headers=bearer(table))
            assert answer.status_code == 200
            # A table's link carries its token in the query string: the access log prints
            # the query string (even on a 401 or a 404).
            client.get("/api/live/table", params={"token": table})
            client.get("/table", params={"token": table, "round": 2})
            # However the name is spelt, the server reads it as "token": so does the log.
            client.get(f"/table?%74oken={table}")
            client.get(f"/api/live/table?T%4FKEN={table}&round=1")
            client.post("/api/live/director/login", json={"password": created.director_password})
        server.process.terminate()
        log = server.output
    assert "/api/live/table" in log  # the access log was on
    assert "token=[redacted]" in log
    assert table not in log
    assert created.director_password not in log


def _enter_all(
    base: str,
    created: NewEvent,
    plan: dict[int, list[dict[str, Any]]],
    acknowledged: Callable[[int, dict[str, Any]], None],
) -> list[BaseException]:
    """Every table posts its plan at once, one thread a table; returns the errors."""
    errors: list[BaseException] = []

    def one_table(table: int) -> None:
        token = next(access.token for access in created.tables if access.table == table)
        with httpx.Client(base_url=base, headers=bearer(token), timeout=120) as client:
            for body in plan[table]:
                try:
                    answer = client.post("/api/live/results", json=body)
                except httpx.TransportError as error:
                    errors.append(error)
                    return
                if answer.status_code != 201:
                    errors.append(
                        AssertionError(f"table {table}: {answer.status_code} {answer.text}")
                    )
                    return
                acknowledged(table, body)

    with ThreadPoolExecutor(max_workers=len(plan)) as pool:
        list(pool.map(one_table, plan))
    return errors


def _plan(movement: Any) -> dict[int, list[dict[str, Any]]]:
    plan: dict[int, list[dict[str, Any]]] = {}
    for row in movement.rows:
        for board in row.boards:
            body = {"round": row.round, "board": board, **PLAYED}
            plan.setdefault(row.table, []).append(body)
    return plan


def _entered(base: str, created: NewEvent) -> set[tuple[int, int, int]]:
    """(table, round, board) of every result the server has, read through each table's view;
    each stored score checked on the way."""
    found = set()
    with httpx.Client(base_url=base, timeout=60) as client:
        for access in created.tables:
            view = client.get("/api/live/table", headers=bearer(access.token)).json()
            for round_view in view["rounds"]:
                found.update((access.table, round_view["round"], b) for b in round_view["entered"])
                for shown in round_view["results"]:
                    assert shown["score_ns"] == expected_score(shown["board"]), shown
    return found


@pytest.mark.slow
def test_ten_tables_enter_five_rounds_at_once(tmp_path: Path) -> None:
    tables, rounds, boards = (10, 5, 3) if FULL else (10, 5, 2)
    movement = mitchell(tables, rounds, boards)
    path = tmp_path / "club.db"
    created = create_event(path, movement)
    plan = _plan(movement)
    lock = threading.Lock()
    done: list[tuple[int, int, int]] = []

    def acknowledged(table: int, body: dict[str, Any]) -> None:
        with lock:
            done.append((table, body["round"], body["board"]))

    with live_server(path, "--no-access-log") as server:
        errors = _enter_all(server.base, created, plan, acknowledged)
        assert errors == []
        expected = {(row.table, row.round, b) for row in movement.rows for b in row.boards}
        assert len(expected) == tables * rounds * boards
        assert set(done) == expected
        assert _entered(server.base, created) == expected
        ranking = httpx.get(server.base + "/api/live/ranking", timeout=60).json()
        # Every board the same result: every pair on an average, 50 %.
        assert {line["percent"] for line in ranking["ranking"]} == {50}


def test_a_kill_9_loses_no_acknowledged_result(tmp_path: Path) -> None:
    movement = mitchell(5, 3, 2)
    path = tmp_path / "club.db"
    created = create_event(path, movement)
    plan = _plan(movement)
    wanted = 12  # of 30: the kill comes while the tables are still entering
    acknowledged: list[tuple[int, int, int]] = []
    lock = threading.Lock()
    with live_server(path, "--no-access-log") as server:

        def count(table: int, body: dict[str, Any]) -> None:
            with lock:
                acknowledged.append((table, body["round"], body["board"]))
                if len(acknowledged) == wanted:
                    # Killed at once, while other tables' requests are in flight.
                    os.kill(server.process.pid, signal.SIGKILL)

        _enter_all(server.base, created, plan, count)
        server.process.wait()
        assert server.process.returncode == -signal.SIGKILL
    assert len(acknowledged) >= wanted
    with live_server(path, "--no-access-log") as restarted:
        stored = _entered(restarted.base, created)
    # Every result acknowledged before the kill is there; a request in flight may or may not be.
    assert set(acknowledged) <= stored
    assert stored <= {(row.table, row.round, b) for row in movement.rows for b in row.boards}


def test_one_board_sent_from_eight_phones_at_once_is_stored_once(tmp_path: Path) -> None:
    # A table's two players (and their retries) may send the same board together.
    path = tmp_path / "club.db"
    created = create_event(path, THREE_TABLES)
    table = created.tables[0].token
    body = {"round": 1, "board": 1, "contract": "4S", "declarer": "N", "result": "="}
    start = threading.Barrier(8)

    with live_server(path, "--no-access-log") as server:

        def send(_: int) -> int:
            with httpx.Client(base_url=server.base, headers=bearer(table), timeout=60) as client:
                start.wait()
                return client.post("/api/live/results", json=body).status_code

        with ThreadPoolExecutor(max_workers=8) as pool:
            statuses = sorted(pool.map(send, range(8)))
        assert statuses == [201] + [409] * 7
        with httpx.Client(base_url=server.base, timeout=60) as client:
            login = client.post(
                "/api/live/director/login", json={"password": created.director_password}
            )
            audit = client.get("/api/live/audit", headers=bearer(login.json()["token"])).json()
    assert [(line["who"], line["board"], line["new"]) for line in audit] == [("table 1", 1, "4SN=")]
