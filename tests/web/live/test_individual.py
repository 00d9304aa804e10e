"""An individual night through a real ``bridgescore session live`` server (issue 47 §5):
``session new --movement individual``, every result entered over HTTP by the tables'
phones, and the live ranking player by player, each figure worked here from the results
(Law 78A matchpoints over the tops of the boards each player played)."""

from __future__ import annotations

import json
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from live_serving import live_server

pytest.importorskip("uvicorn")

runner = CliRunner()

# 1NT by South with k overtricks: 90 + 30k at any vulnerability.
OVERTRICKS = {0: "=", 1: "+1", 2: "+2"}


def overtricks(round_number: int, table: int) -> int:
    return (2 * round_number + table) % 3


def test_an_eight_player_individual_live(tmp_path: Path) -> None:
    path = tmp_path / "indy.db"
    made = runner.invoke(
        app,
        ["session", "new", str(path), "--movement", "individual", "--players", "8",
         "--boards-per-round", "2", "--json"],
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    document: dict[str, Any] = json.loads(made.output)
    tokens = {access["table"]: access["token"] for access in document["tables"]}
    assert sorted(tokens) == [1, 2]
    # Played by hand: (round, table) -> the four players N, S, E, W, from the tables'
    # own view of the movement below; NS scores board by board.
    seats: dict[tuple[int, int], tuple[str, str, str, str]] = {}
    ns_scores: dict[int, list[tuple[int, tuple[str, str, str, str]]]] = defaultdict(list)
    with (
        live_server(path, "--no-access-log") as server,
        httpx.Client(base_url=server.base, timeout=60) as phone,
    ):
        for table, token in tokens.items():
            auth = {"Authorization": f"Bearer {token}"}
            view = phone.get("/api/live/table", headers=auth).json()
            assert len(view["rounds"]) == 7
            for entry in view["rounds"]:
                north, south = entry["ns"].split("-")
                east, west = entry["ew"].split("-")
                seats[(entry["round"], table)] = (north, south, east, west)
                for board in entry["boards"]:
                    k = overtricks(entry["round"], table)
                    body = {"round": entry["round"], "board": board, "contract": "1NT",
                            "declarer": "S", "result": OVERTRICKS[k]}  # fmt: skip
                    answer = phone.post("/api/live/results", json=body, headers=auth)
                    assert answer.status_code == 201, answer.text
                    ns_scores[board].append((90 + 30 * k, seats[(entry["round"], table)]))
        ranking = phone.get("/api/live/ranking").json()
        page = phone.get("/ranking")
    # Table 1 round 1 seats player 8 North, 1 South, 2 East and 7 West (the stationary
    # player 8 and the cyclic rotation: docs/movements.md).
    assert seats[(1, 1)] == ("8", "1", "2", "7")
    # Each player partnered each of the other seven once, and played each board once.
    partners = defaultdict(set)
    for north, south, east, west in seats.values():
        partners[north].add(south), partners[south].add(north)
        partners[east].add(west), partners[west].add(east)
    assert all(len(partners[p]) == 7 for p in map(str, range(1, 9)))
    earned: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for lines in ns_scores.values():
        assert len(lines) == 2  # two tables play each board: the top is 2
        (first, first_seats), (second, second_seats) = lines
        first_ns = 2 if first > second else 1 if first == second else 0
        for score_seats, ns_points in ((first_seats, first_ns), (second_seats, 2 - first_ns)):
            north, south, east, west = score_seats
            for player, points in ((north, ns_points), (south, ns_points),
                                   (east, 2 - ns_points), (west, 2 - ns_points)):  # fmt: skip
                earned[player][0] += points
                earned[player][1] += 1
                earned[player][2] += 2
    expected = {}
    for player, (points, boards, tops) in earned.items():
        percent = int(Fraction(100 * points, tops) * 100 + Fraction(1, 2)) / 100
        expected[player] = (float(points), boards, percent)
    assert ranking["kind"] == "individual" and ranking["method"] == "mp"
    found = {
        row["name"]: (row["total"], row["boards"], row["percent"]) for row in ranking["ranking"]
    }
    assert found == expected
    assert [row["percent"] for row in ranking["ranking"]] == sorted(
        (p for _, _, p in expected.values()), reverse=True
    )
    assert page.status_code == 200 and "<th>Player</th>" in page.text
    # The shell scores the file as the server did.
    scored = runner.invoke(app, ["session", "score", str(path), "--json"])
    assert scored.exit_code == 0, scored.output
    assert json.loads(scored.output)["ranking"] == ranking["ranking"]


def test_the_table_page_tells_each_player_where_to_go(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from bridgescore.web.live.app import create_live_app

    path = tmp_path / "indy.db"
    made = runner.invoke(
        app, ["session", "new", str(path), "--movement", "individual", "--players", "8",
              "-b", "1", "--json"],
    )  # fmt: skip
    token = json.loads(made.output)["tables"][0]["token"]
    with TestClient(create_live_app(path)) as phone:
        body = {"round": 1, "board": 1, "contract": "PASS"}
        answer = phone.post(
            "/api/live/results", json=body, headers={"Authorization": f"Bearer {token}"}
        )
        assert answer.status_code == 201, answer.text
        assert phone.get(f"/table?token={token}").status_code == 200
        page = phone.get("/table").text
    # Round 1 at table 1: 8 N, 1 S, 2 E, 7 W; round 2 seats 8-2 v 3-1 at table 1 and
    # 4-7 v 5-6 at table 2 (the rotation by hand: every player but 8 moves on one).
    for line in ("North 8: stay at table 1, North", "South 1: go to table 1, West",
                 "East 2: go to table 1, South", "West 7: go to table 2, South"):  # fmt: skip
        assert line in page


def test_the_director_names_each_player(tmp_path: Path) -> None:
    pytest.importorskip("multipart", reason="python-multipart is not installed")
    from fastapi.testclient import TestClient

    from bridgescore.web.live.app import create_live_app
    from live_pages_helpers import csrf_of

    path = tmp_path / "indy.db"
    made = runner.invoke(
        app, ["session", "new", str(path), "--movement", "individual", "--players", "8",
              "-b", "1", "--json"],
    )  # fmt: skip
    document = json.loads(made.output)
    token = document["tables"][0]["token"]
    with TestClient(create_live_app(path)) as client:
        form = client.get("/director")
        answer = client.post(
            "/director/login",
            data={"csrf": csrf_of(form.text), "password": document["director_password"]},
            follow_redirects=False,
        )
        assert answer.status_code == 303, answer.text
        csrf = csrf_of(client.get("/director").text)
        page = client.get("/director/names").text
        # One field a player, by number: no partnership is named.
        assert 'name="player-8-1"' in page and 'name="player-8-2"' not in page
        assert 'name="player-8-1-1"' not in page
        answer = client.post(
            "/director/names",
            data={"csrf": csrf, "player-8-1": "Ann Archer", "player-1-1": "Bob Baker"},
            follow_redirects=False,
        )
        assert answer.status_code == 303, answer.text
        auth = {"Authorization": f"Bearer {token}"}
        body = {"round": 1, "board": 1, "contract": "PASS"}
        assert client.post("/api/live/results", json=body, headers=auth).status_code == 201
        ranking = client.get("/api/live/ranking").json()
        assert client.get(f"/table?token={token}").status_code == 200
        table_page = client.get("/table").text
    players = {row["name"]: row.get("players") for row in ranking["ranking"]}
    assert players["8"] == [{"name": "Ann Archer", "number": None}]
    assert players["1"] == [{"name": "Bob Baker", "number": None}]
    # The table page shows round 2's partnership 8-2 by its players: Ann and player 2.
    assert "Ann Archer &amp; 2" in table_page
