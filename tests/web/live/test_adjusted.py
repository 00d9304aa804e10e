"""The director's PUT with adjusted and weighted scores and a reason, and the live
ranking of a teams round robin in VPs, through the live server's JSON API.

The field: four tables play board 1 (none vulnerable) in one round. Tables 1-3 enter
4S= (+420), 4S+1 (+450) and 3NT= (+400) (Law 77); table 4 is the director's. The top
is 3 comparisons x 2 = 6 matchpoints.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bridgescore.movement.model import Movement, Row
from bridgescore.movement.teams import round_robin
from bridgescore.session.live.creation import NewEvent, create_event
from bridgescore.web.live.app import create_live_app

FOUR_TABLES = Movement(
    "mitchell", 4, 1, 1, tuple(Row(1, t, f"{t}N", f"{t}E", (1,)) for t in range(1, 5))
)
TOP = 6


@pytest.fixture
def event(tmp_path: Path) -> NewEvent:
    return create_event(tmp_path / "club.db", FOUR_TABLES, name="Tuesday")


@pytest.fixture
def client(event: NewEvent) -> Iterator[TestClient]:
    with TestClient(create_live_app(Path(event.event))) as test_client:
        yield test_client


def bearer(value: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {value}"}


@pytest.fixture
def director(client: TestClient, event: NewEvent) -> dict[str, str]:
    for access, (contract, result) in zip(
        event.tables, [("4S", "="), ("4S", "+1"), ("3NT", "=")], strict=False
    ):
        body = {"round": 1, "board": 1, "contract": contract, "declarer": "N", "result": result}
        answer = client.post("/api/live/results", json=body, headers=bearer(access.token))
        assert answer.status_code == 201, answer.text
    login = client.post("/api/live/director/login", json={"password": event.director_password})
    return bearer(login.json()["token"])


def totals(client: TestClient, director: dict[str, str]) -> dict[str, tuple[float, float]]:
    ranking = client.get("/api/live/ranking", headers=director).json()
    return {row["name"]: (row["total"], row["percent"]) for row in ranking["ranking"]}


def put(client: TestClient, director: dict[str, str], **body: Any) -> Any:
    return client.put("/api/live/results", json={"table": 4, **body}, headers=director)


def test_60_40_is_60_percent_of_the_top_with_its_reason(
    client: TestClient, director: dict[str, str]
) -> None:
    answer = put(client, director, round=1, board=1, adjusted="60/40", reason="slow play")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"score_ns": None, "adjusted": "60/40"}
    found = totals(client, director)
    # 60 % and 40 % of the top of 6, in tenths of a matchpoint.
    assert found["4N"] == (3.6, 60.0) and found["4E"] == (2.4, 40.0)
    (audit,) = [e for e in client.get("/api/live/audit", headers=director).json()
                if e["who"] == "director"]  # fmt: skip
    assert (audit["action"], audit["new"], audit["reason"]) == ("adjust", "60/40", "slow play")


@pytest.mark.parametrize(
    ("adjusted", "ns", "ew"),
    [("A+/A+", 60.0, 60.0), ("A-/A-", 40.0, 40.0), ("A-/A+", 40.0, 60.0), ("A", 50.0, 50.0)],
)
def test_each_artificial_score(
    client: TestClient, director: dict[str, str], adjusted: str, ns: float, ew: float
) -> None:
    assert put(client, director, round=1, board=1, adjusted=adjusted).status_code == 200
    found = totals(client, director)
    assert (found["4N"][1], found["4E"][1]) == (ns, ew)


def test_a_weighted_score_through_the_api(client: TestClient, director: dict[str, str]) -> None:
    weighted = [
        {"weight": 0.5, "contract": "4S", "declarer": "N", "result": "="},
        {"weight": "1/2", "contract": "4S", "declarer": "N", "result": "-1"},
    ]
    answer = put(client, director, round=1, board=1, weighted=weighted, reason="misinformation")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"score_ns": None, "weighted": "1/2 4SN=; 1/2 4SN-1"}
    # Worked by hand, 2 MP a score beaten and 1 a tie: 4S= (+420) v the field
    # [420, 450, 400] is 3, 4S-1 (-50) is 0: table 4 gets 1.5. Table 1 (+420) gets 3
    # and 4 (1/2 each): 3.5; table 2 (+450) 6; table 3 (+400) 0 and 2: 1.
    expected = {"4N": Fraction(3, 2), "1N": Fraction(7, 2), "2N": Fraction(6), "3N": Fraction(1)}
    found = totals(client, director)
    assert {pair: found[pair][0] for pair in expected} == {p: float(v) for p, v in expected.items()}
    assert found["4E"][0] == TOP - 1.5
    audit = client.get("/api/live/audit", headers=director).json()
    assert audit[-1]["reason"] == "misinformation"
    assert audit[-1]["new"] == "1/2 4SN=; 1/2 4SN-1"


def test_a_corrected_result_keeps_its_reason(client: TestClient, director: dict[str, str]) -> None:
    body = {"round": 1, "board": 1, "contract": "4S", "declarer": "N", "result": "-1"}
    answer = put(client, director, **body, reason="claim disputed")
    assert answer.json() == {"score_ns": -50}
    assert client.get("/api/live/audit", headers=director).json()[-1]["reason"] == "claim disputed"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"adjusted": "60/40", "colour": "red"}, "unknown key 'colour'"),
        ({"adjusted": "70/30"}, "adjusted: '70/30' is not an adjusted score"),
        ({"adjusted": "60/40", "contract": "4S"}, "adjusted and contract given together"),
        ({"adjusted": "60/40", "weighted": []}, "adjusted and weighted given together"),
        (
            {
                "weighted": [
                    {"weight": "1/2", "contract": "4S", "declarer": "N", "result": "="},
                    {"weight": "1/3", "contract": "4S", "declarer": "N", "result": "-1"},
                ]
            },
            "must sum to 1, got 5/6",
        ),
        ({"adjusted": "60/40", "reason": 7}, "reason: 7 is not text"),
    ],
)
def test_a_bad_put_is_422_and_changes_nothing(
    client: TestClient, director: dict[str, str], body: dict[str, Any], message: str
) -> None:
    before = client.get("/api/live/audit", headers=director).json()
    ranking = totals(client, director)
    answer = put(client, director, round=1, board=1, **body)
    assert answer.status_code == 422
    assert message in answer.json()["detail"]
    assert client.get("/api/live/audit", headers=director).json() == before
    assert totals(client, director) == ranking


def test_not_played_leaves_the_board_out(client: TestClient, director: dict[str, str]) -> None:
    answer = put(client, director, round=1, board=1, adjusted="not played", reason="late")
    assert answer.json() == {"score_ns": None, "adjusted": "not played"}
    assert "4N" not in totals(client, director)


def test_a_round_robin_is_ranked_live_in_vps(tmp_path: Path) -> None:
    movement = round_robin(3, boards_per_round=8)
    made = create_event(tmp_path / "rr.db", movement, name="Teams")
    with TestClient(create_live_app(Path(made.event))) as client:
        tokens = {access.table: access.token for access in made.tables}
        # Round 1, board 1 (none vul): 3NT+1 (+430) in the open room, 3NT= (+400) in
        # the closed: the open room's NS team wins 30, 1 IMP; the rest passed out.
        for row in movement.rows_in_round(1):
            for board in row.boards:
                body: dict[str, Any] = {"round": 1, "board": board, "contract": "PASS"}
                if board == 1:
                    result = "+1" if row.table == 1 else "="
                    body = {**body, "contract": "3NT", "declarer": "N", "result": result}
                answer = client.post(
                    "/api/live/results", json=body, headers=bearer(tokens[row.table])
                )
                assert answer.status_code == 201, answer.text
        ranking = client.get("/api/live/ranking").json()
        page = client.get("/ranking").text
    assert ranking["ranking_unit"] == "VP"
    home = next(row.ns for row in movement.rows_in_round(1) if row.table == 1)
    (match,) = ranking["matches"]
    won = match["teams"].index(home)
    assert match["round"] == 1 and match["boards"] == 8
    assert (match["imps"][won], match["imps"][1 - won]) == (1, 0)
    assert (match["vp"][won], match["vp"][1 - won]) == (10.44, 9.56)  # WBF, 8 boards
    assert {row["name"]: row["total"] for row in ranking["ranking"]}[home] == 10.44
    # The live page: the totals in VPs, no percentage column, and the match with its VPs.
    assert '<th class="n">Total VP</th>' in page and ">%</th>" not in page
    shown = "10.44-9.56" if won == 0 else "9.56-10.44"  # the match's teams in their order
    assert 'id="matches"' in page and f"<td>{shown}</td>" in page
