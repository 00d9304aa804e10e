"""The night's changes through the live server's JSON API: a 13-pair Mitchell joined by a
late pair at round 3 (seated from the shell while the server runs), and a table that sat
the wrong way round. Every matchpoint below is worked by hand in the comments: 2 for each
score beaten, 1 for each tie (docs/rules.md §4.2), Neuberg's M' = (M + 1) N / n - 1
rounded to tenths (§4.3) for a board with fewer results."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.session.store.live import LiveStore
from bridgescore.web.live.app import create_live_app

runner = CliRunner()


def new_event(path: Path, *options: str) -> dict[str, Any]:
    made = runner.invoke(
        app, ["session", "new", str(path), "--movement", "mitchell", *options, "--json"]
    )
    assert made.exit_code == 0, made.output
    document: dict[str, Any] = json.loads(made.output)
    return document


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def director_login(client: TestClient, made: dict[str, Any]) -> dict[str, str]:
    login = client.post("/api/live/director/login", json={"password": made["director_password"]})
    assert login.status_code == 200, login.text
    return bearer(login.json()["token"])


def put(client: TestClient, director: dict[str, str], table: int, round_number: int,
        board: int, contract: str, declarer: str = "N", result: str = "=",
        **extra: Any) -> None:  # fmt: skip
    body: dict[str, Any] = {"table": table, "round": round_number, "board": board}
    if contract == "not played":
        body["adjusted"] = "not played"
    elif contract == "PASS":
        body["contract"] = "PASS"
    else:
        body.update(contract=contract, declarer=declarer, result=result, **extra)
    answer = client.put("/api/live/results", json=body, headers=director)
    assert answer.status_code == 200, answer.text


def standings(client: TestClient, director: dict[str, str]) -> dict[str, dict[str, Any]]:
    ranking = client.get("/api/live/ranking", headers=director).json()
    return {line["name"]: line for line in ranking["ranking"]}


@pytest.fixture
def thirteen(tmp_path: Path) -> Iterator[tuple[Path, dict[str, Any], TestClient]]:
    path = tmp_path / "club.db"
    made = new_event(path, "--tables", "7", "--boards-per-round", "2", "--pairs", "13")
    with TestClient(create_live_app(path)) as client:
        yield path, made, client


def test_a_late_pair_joins_a_thirteen_pair_mitchell_at_round_three(
    thirteen: tuple[Path, dict[str, Any], TestClient],
) -> None:
    path, made, client = thirteen
    director = director_login(client, made)
    tokens = {t["table"]: t["token"] for t in made["tables"]}
    # Rounds 1 and 2 as played (2 boards a round; table t plays set (t + r - 2) mod 7 + 1
    # in round r, EW pair k sits at table (k + r - 2) mod 7 + 1). Board 3 (set 2, EW
    # vulnerable) at table 2 in round 1: 2N v 2E; board 7 (set 4, both vulnerable) at
    # table 4 in round 1 (4N v 4E) and at table 3 in round 2 (3N v 2E). Table 2's other
    # boards of rounds 1 and 2 were not played, so that it may enter round 3 itself.
    put(client, director, 2, 1, 3, "2S")  # 2N v 2E +110
    put(client, director, 2, 1, 4, "not played")
    put(client, director, 2, 2, 5, "not played")
    put(client, director, 2, 2, 6, "not played")
    put(client, director, 4, 1, 7, "2S", result="-1")  # 4N v 4E -100
    put(client, director, 3, 2, 7, "2S", result="+1")  # 3N v 2E +140
    # Before the pair comes, table 2 has nothing in round 3 (2N sits out).
    before = client.get("/api/live/table", headers=bearer(tokens[2])).json()
    assert [r["round"] for r in before["rounds"]] == [1, 2, 4, 5, 6, 7]

    # The pair arrives: seated from the shell while the server runs.
    added = runner.invoke(
        app,
        ["session", "add-pair", str(path), "--from-round", "3", "--name", "Ann Archer & Bob Baker",
         "--json"],
    )  # fmt: skip
    assert added.exit_code == 0, added.output
    joined = json.loads(added.output)
    assert joined["pair"] == "7E" and joined["name"] == "Ann Archer & Bob Baker"
    assert [(r["round"], r["table"], r["ns"], r["ew"], r["boards"]) for r in joined["rows"]] == [
        (3, 2, "2N", "7E", [7, 8]), (4, 3, "3N", "7E", [11, 12]), (5, 4, "4N", "7E", [1, 2]),
        (6, 5, "5N", "7E", [5, 6]), (7, 6, "6N", "7E", [9, 10]),
    ]  # fmt: skip
    assert joined["new_tables"] == []  # every table of a 13-pair Mitchell is in play already

    # Its tables see its boards from round 3 on; table 2 enters board 7 itself.
    view = client.get("/api/live/table", headers=bearer(tokens[2])).json()
    round_three = next(r for r in view["rounds"] if r["round"] == 3)
    assert (round_three["ns"], round_three["ew"], round_three["boards"]) == ("2N", "7E", [7, 8])
    view = client.get("/api/live/table", headers=bearer(tokens[4])).json()
    assert [(r["round"], r["ns"], r["ew"]) for r in view["rounds"] if r["round"] == 5] == [
        (5, "4N", "7E")
    ]
    entered = client.post(
        "/api/live/results",
        json={"round": 3, "board": 7, "contract": "1S", "declarer": "N", "result": "="},
        headers=bearer(tokens[2]),
    )
    assert entered.status_code == 201 and entered.json() == {"score_ns": 80}

    # The rest of boards 3 and 7, entered by the director.
    put(client, director, 7, 3, 3, "2S", result="+1")  # 7N v 5E +140
    put(client, director, 6, 4, 3, "2S", result="-1")  # 6N v 3E -50
    put(client, director, 5, 5, 3, "3NT")  # 5N v 1E +400
    put(client, director, 4, 6, 3, "PASS")  # 4N v 6E 0
    put(client, director, 3, 7, 3, "1S")  # 3N v 4E +80
    put(client, director, 1, 4, 7, "2S", result="+2")  # 1N v 5E +170
    put(client, director, 7, 5, 7, "2S")  # 7N v 3E +110
    put(client, director, 6, 6, 7, "3NT")  # 6N v 1E +600 (vulnerable)
    put(client, director, 5, 7, 7, "PASS")  # 5N v 6E 0

    # Board 7, seven results (top 12): 600 6N 12, 170 1N 10, 140 3N 8, 110 7N 6, 80 2N 4,
    # 0 5N 2, -100 4N 0; EW the rest: 1E 0, 5E 2, 2E 4, 3E 6, 7E 8, 6E 10, 4E 12.
    # Board 3, six results (the seventh place, table 1 in round 2, was the late pair's
    # before it came), Neuberg'd to seven: 400 5N 10 -> 11.8, 140 7N 8 -> 9.5, 110 2N 6
    # -> 7.2, 80 3N 4 -> 4.8, 0 4N 2 -> 2.5, -50 6N 0 -> 0.2; EW: 1E 0.2, 5E 2.5, 2E 4.8,
    # 4E 7.2, 6E 9.5, 3E 11.8 (M' = (M + 1) * 7 / 6 - 1).
    # Every EW pair has 24 to play for on the two boards; 7E played board 7 alone, so it
    # is ranked on 8 of 12: 66.67 %, ahead of 2E's 8.8 of 24 (36.67 %).
    ranked = standings(client, director)
    expected = {
        "6E": (19.5, 2, 81.25), "4E": (19.2, 2, 80.0), "3E": (17.8, 2, 74.17),
        "7E": (8.0, 1, 66.67), "2E": (8.8, 2, 36.67), "5E": (4.5, 2, 18.75),
        "1E": (0.2, 2, 0.83),
    }  # fmt: skip
    for name, (total, boards, percent) in expected.items():
        line = ranked[name]
        assert (line["total"], line["boards"], line["percent"]) == (total, boards, percent), name
        assert line["direction"] == "EW"
    ew = [line for line in ranked.values() if line["direction"] == "EW"]
    assert [line["name"] for line in ew] == ["6E", "4E", "3E", "7E", "2E", "5E", "1E"]
    assert ranked["7E"]["rank"] == "4"
    assert ranked["7E"]["players"] == [
        {"name": "Ann Archer", "number": None}, {"name": "Bob Baker", "number": None},
    ]  # fmt: skip
    assert (ranked["2N"]["total"], ranked["2N"]["percent"]) == (11.2, 46.67)  # 7.2 + 4

    audit = client.get("/api/live/audit", headers=director).json()
    late = [entry for entry in audit if entry["action"] == "add-pair"]
    assert len(late) == 1 and late[0]["who"] == "director (command line)"
    assert late[0]["new"] == (
        "pair 7E (Ann Archer & Bob Baker) joins at round 3, at tables 2, 3, 4, 5, 6"
    )
    # The place is taken now.
    again = client.post("/api/live/director/add-pair", json={"from_round": 4}, headers=director)
    assert again.status_code == 422
    assert "empty place is taken: pair 7E joined at round 3" in again.json()["detail"]


def test_the_api_seats_a_late_pair_and_a_new_table_gets_its_link(tmp_path: Path) -> None:
    # Seven pairs play the 3-table Howell without pair 8, whose table (4) is empty all
    # evening; pair 8 meets pair r on set r in round r (howell.py's design).
    path = tmp_path / "howell.db"
    made = runner.invoke(
        app,
        ["session", "new", str(path), "--movement", "howell", "--pairs", "7",
         "--boards-per-round", "2", "--url-base", "https://club.example", "--json"],
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    document = json.loads(made.output)
    assert [t["table"] for t in document["tables"]] == [1, 2, 3]
    with TestClient(create_live_app(path)) as client:
        director = director_login(client, document)
        answer = client.post(
            "/api/live/director/add-pair", json={"from_round": 6, "name": "Cy Cole & Di Dale"},
            headers=director,
        )  # fmt: skip
        assert answer.status_code == 200, answer.text
        joined = answer.json()
        assert [(r["round"], r["table"], r["ns"], r["ew"]) for r in joined["rows"]] == [
            (6, 4, "8", "6"), (7, 4, "8", "7"),
        ]  # fmt: skip
        (new,) = joined["new_tables"]
        assert (new["section"], new["table"]) == ("A", 4)
        assert new["url"] == f"https://club.example/table?token={new['token']}"
        view = client.get("/api/live/table", headers=bearer(new["token"]))
        assert view.status_code == 200, view.text
        assert [(r["round"], r["ns"], r["ew"], r["boards"]) for r in view.json()["rounds"]] == [
            (6, "8", "6", [11, 12]), (7, "8", "7", [13, 14]),
        ]  # fmt: skip


def test_a_table_swapped_and_swapped_back(tmp_path: Path) -> None:
    path = tmp_path / "three.db"
    made = new_event(path, "--tables", "3", "--boards-per-round", "2")
    with TestClient(create_live_app(path)) as client:
        director = director_login(client, made)
        tokens = {t["table"]: t["token"] for t in made["tables"]}
        # Board 1 (nobody vulnerable) travels: table 1 in round 1 (1N v 1E), table 3 in
        # round 2 (3N v 2E), table 2 in round 3 (2N v 3E).
        put(client, director, 1, 1, 1, "4S")  # +420
        put(client, director, 3, 2, 1, "4S", result="+1", lead="HQ")  # +450
        put(client, director, 2, 3, 1, "4S", result="-1")  # -50
        # Top 4: NS 3N 4, 1N 2, 2N 0; EW 2E 0, 1E 2, 3E 4.
        before = {name: line["total"] for name, line in standings(client, director).items()}
        assert before == {"1N": 2, "2N": 0, "3N": 4, "1E": 2, "2E": 0, "3E": 4}

        # Table 3 sat the wrong way round in round 2: 2E held the NS cards and made 4S+1.
        answer = client.post(
            "/api/live/director/swap", json={"table": 3, "round": 2}, headers=director
        )
        assert answer.status_code == 200, answer.text
        # Table 3 plays set 1 (boards 1, 2) in round 2.
        assert answer.json() == {
            "section": "A", "round": 2, "table": 3, "ns": "2E", "ew": "3N", "boards": [1, 2],
            "relabelled": [1],
        }  # fmt: skip
        with LiveStore(path, mode="read") as store:
            assert ("", 1, "2E", "3N") in store.stored_keys()
            assert ("", 1, "3N", "2E") not in store.stored_keys()
            assert store.outcome_text(("", 1, "2E", "3N")) == "4SN+1"
            assert store.leads()[("", 1, "2E", "3N")] == "HQ"
        # The +450 is 2E's now (4 of 4) and 3N's the EW side's nothing: 2E 4, 3N 0.
        after = standings(client, director)
        assert {name: line["total"] for name, line in after.items()} == {
            "1N": 2, "2N": 0, "3N": 0, "1E": 2, "2E": 4, "3E": 4,
        }  # fmt: skip
        # Still two winners: 2E's NS board counts in the EW field, its home.
        assert {name: line["direction"] for name, line in after.items()} == {
            name: "NS" if name.endswith("N") else "EW" for name in after
        }
        view = client.get("/api/live/table", headers=bearer(tokens[3])).json()
        second = next(r for r in view["rounds"] if r["round"] == 2)
        assert (second["ns"], second["ew"]) == ("2E", "3N")
        assert second["results"] == [{"board": 1, "result": "4SN+1", "score_ns": 450, "lead": "HQ"}]

        # The same call again undoes it.
        back = client.post(
            "/api/live/director/swap", json={"table": 3, "round": 2, "section": "A"},
            headers=director,
        )  # fmt: skip
        assert back.status_code == 200 and back.json()["ns"] == "3N"
        restored = {name: line["total"] for name, line in standings(client, director).items()}
        assert restored == before
        with LiveStore(path, mode="read") as store:
            assert store.leads()[("", 1, "3N", "2E")] == "HQ"
        audit = [e for e in client.get("/api/live/audit", headers=director).json()
                 if e["action"] == "swap"]  # fmt: skip
        assert [(e["who"], e["new"]) for e in audit] == [
            ("director", "table 3 round 2: NS and EW exchanged, now 2E NS v 3N EW; the results "
             "of board(s) 1 credited to them"),
            ("director", "table 3 round 2: NS and EW exchanged, now 3N NS v 2E EW; the results "
             "of board(s) 1 credited to them"),
        ]  # fmt: skip


def test_a_swap_before_the_round_credits_the_later_entries(tmp_path: Path) -> None:
    path = tmp_path / "three.db"
    made = new_event(path, "--tables", "3", "--boards-per-round", "2")
    with TestClient(create_live_app(path)) as client:
        director = director_login(client, made)
        token = next(t["token"] for t in made["tables"] if t["table"] == 1)
        answer = client.post(
            "/api/live/director/swap", json={"table": 1, "round": 1}, headers=director
        )
        assert answer.status_code == 200 and answer.json()["relabelled"] == []
        entered = client.post(
            "/api/live/results",
            json={"round": 1, "board": 1, "contract": "3NT", "declarer": "S", "result": "="},
            headers=bearer(token),
        )
        assert entered.status_code == 201, entered.text
    with LiveStore(path, mode="read") as store:
        assert store.stored_keys() == {("", 1, "1E", "1N")}


@pytest.mark.parametrize(
    ("path", "body", "status", "detail"),
    [
        ("swap", [], 422, "must be a JSON object"),
        ("swap", {"round": 1}, 422, "table: missing"),
        ("swap", {"table": 1}, 422, "round: missing"),
        ("swap", {"table": "1", "round": 1}, 422, "table: '1' is not a number"),
        ("swap", {"table": True, "round": 1}, 422, "table: True is not a number"),
        ("swap", {"table": 9, "round": 1}, 422, "table must be a whole number from 1 to 3"),
        ("swap", {"table": 1, "round": 4}, 422, "round must be a whole number from 1 to 3"),
        ("swap", {"table": 1, "round": 1, "section": "B"}, 422, "section 'B' is not one of"),
        ("swap", {"table": 1, "round": 1, "section": 7}, 422, "section: 7 is not a section"),
        ("swap", {"table": 1, "round": 1, "seat": "N"}, 422, "unknown key 'seat'"),
        ("add-pair", {}, 422, "from_round: missing"),
        ("add-pair", {"from_round": 1}, 422, "every place of its 6 pairs is taken"),
        ("add-pair", {"from_round": 1, "name": 5}, 422, "name: 5 is not the players' names"),
        ("add-pair", {"from_round": 1, "name": "x" * 200}, 422, "name: player name"),
    ],
)
def test_junk_bodies_are_refused_with_a_message(
    tmp_path: Path, path: str, body: Any, status: int, detail: str
) -> None:
    event = tmp_path / "three.db"
    made = new_event(event, "--tables", "3", "--boards-per-round", "2")
    with TestClient(create_live_app(event)) as client:
        director = director_login(client, made)
        answer = client.post(f"/api/live/director/{path}", json=body, headers=director)
        assert answer.status_code == status, answer.text
        assert detail in answer.json()["detail"]


@pytest.mark.parametrize("path", ["swap", "add-pair"])
def test_only_the_director_changes_the_night(tmp_path: Path, path: str) -> None:
    event = tmp_path / "three.db"
    made = new_event(event, "--tables", "3", "--boards-per-round", "2")
    body = {"table": 1, "round": 1, "from_round": 1}
    with TestClient(create_live_app(event)) as client:
        url = f"/api/live/director/{path}"
        assert client.post(url, json=body).status_code == 401
        assert client.post(url, json=body, headers=bearer("forged")).status_code == 401
        table = client.post(url, json=body, headers=bearer(made["tables"][0]["token"]))
        assert table.status_code == 403 and "only the director" in table.json()["detail"]
    with LiveStore(event, mode="read") as store:
        assert [e.action for e in store.audit_log()] == []


def test_a_late_pair_where_play_has_gone_past_is_refused_naming_it(
    thirteen: tuple[Path, dict[str, Any], TestClient],
) -> None:
    _, made, client = thirteen
    director = director_login(client, made)
    # 7E would meet 2N on boards 7 and 8 at table 2 in round 3; table 2 has played round 4.
    put(client, director, 2, 4, 9, "2S")
    answer = client.post("/api/live/director/add-pair", json={"from_round": 3}, headers=director)
    assert answer.status_code == 409
    assert answer.json()["detail"] == (
        "table 2 has already played round 4: a late pair seated there in round 3 would find "
        "it gone; join at a later round"
    )


def page_login(client: TestClient, made: dict[str, Any]) -> str:
    """The director logs in through the login page's form; the Changes page as it shows."""
    csrf = re.search(r'name="csrf" value="([^"]+)"', client.get("/director").text)
    assert csrf is not None
    client.post(
        "/director/login",
        data={"csrf": csrf.group(1), "password": made["director_password"]},
        follow_redirects=False,
    )
    return client.get("/director/changes").text


def test_the_changes_page_asks_for_the_login_and_its_forms_for_the_csrf_token(
    tmp_path: Path,
) -> None:
    event = tmp_path / "club.db"
    made = new_event(event, "--tables", "7", "--boards-per-round", "2", "--pairs", "13")
    with TestClient(create_live_app(event)) as client:
        assert 'id="password"' in client.get("/director/changes").text
        refused = client.post("/director/swap", data={"table": "1", "round": "2"})
        assert refused.status_code == 401
        page = page_login(client, made)
        assert "The movement has an empty place: pair 7E." in page
        form_csrf = re.search(r'name="csrf" value="([^"]+)"', page)
        assert form_csrf is not None
        forged = client.post("/director/swap", data={"table": "1", "round": "2", "csrf": "x"})
        assert forged.status_code == 403
        junk = client.post(
            "/director/swap", data={"table": "one", "round": "2", "csrf": form_csrf.group(1)}
        )
        assert junk.status_code == 422 and "table" in junk.text
        early = client.post(
            "/director/add-pair", data={"from_round": "9", "csrf": form_csrf.group(1)}
        )
        assert early.status_code == 422
        assert "the late pair&#39;s first round must be a whole number from 1 to 7" in early.text
    with LiveStore(event, mode="read") as store:
        assert store.audit_log() == []


def test_the_changes_page_of_two_sections_changes_the_section_asked(tmp_path: Path) -> None:
    # Two sections of the 5-pair Mitchell on 3 tables: each has 3E's place empty.
    event = tmp_path / "congress.db"
    made = new_event(
        event, "--tables", "3", "--boards-per-round", "2", "--pairs", "5", "--sections", "2"
    )
    with TestClient(create_live_app(event)) as client:
        page = page_login(client, made)
        assert "Section A: the movement has an empty place: pair 3E." in page
        assert "Section B: the movement has an empty place: pair 3E." in page
        # Rows are named by section and table: B2 in round 1 is 2N v 2E.
        assert 'id="tB2r1"' in page and 'id="tA2r1"' in page
        form_csrf = re.search(r'name="csrf" value="([^"]+)"', page)
        assert form_csrf is not None
        token = form_csrf.group(1)
        swapped = client.post(
            "/director/swap",
            data={"csrf": token, "section": "B", "table": "2", "round": "1"},
            follow_redirects=False,
        )
        assert swapped.status_code == 303 and swapped.headers["location"].endswith("#tB2r1")
        joined = client.post(
            "/director/add-pair",
            data={"csrf": token, "section": "B", "from_round": "2", "name": "Cy Cole & Di Dale"},
        )
        assert joined.status_code == 200, joined.text
        after = client.get("/director/changes").text
        assert "Section A: the movement has an empty place: pair 3E." in after
        assert "Section B: the movement" not in after
    with LiveStore(event, mode="read") as store:
        movements = store.movements
    # Only section B changed: its table 2 sat EW v NS in round 1, and 3E joined it.
    assert (movements["B"].row_at(1, 2).ns, movements["B"].row_at(1, 2).ew) == ("2E", "2N")  # type: ignore[union-attr]
    assert (movements["A"].row_at(1, 2).ns, movements["A"].row_at(1, 2).ew) == ("2N", "2E")  # type: ignore[union-attr]
    assert any("3E" in row.pairs for row in movements["B"].rows)
    assert not any("3E" in row.pairs for row in movements["A"].rows)
