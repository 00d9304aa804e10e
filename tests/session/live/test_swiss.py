"""A Swiss teams event live: ``session new --movement swiss``, ``session draw``,
``POST /api/live/director/draw`` and the director's page, with results entered through
the API. Every VP below is worked from the WBF continuous scale written here, every
draw from the rule of docs/movements.md ("Swiss teams") by hand, in the comments."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.web.live.app import create_live_app

runner = CliRunner()

BOARDS = 2  # boards a round: the first decides the match, the second is passed out


def wbf_vp(imps: int, boards: int = BOARDS) -> tuple[float, float]:
    """The WBF continuous scale (2013): the winner's VPs rounded to 0.01, the loser's
    20 less them."""
    tau = (math.sqrt(5) - 1) / 2
    won = min(
        20.0, 10 + 10 * (1 - tau ** (3 * abs(imps) / (15 * math.sqrt(boards)))) / (1 - tau**3)
    )
    winner = round(won, 2)
    home = winner if imps >= 0 else round(20 - winner, 2)
    return home, round(20 - home, 2)


# A margin in IMPs from one board: 1NT by North, made with overtricks, at one table and
# passed out at the other (a partscore scores the same at any vulnerability).
# 1NT= 90: 3 IMPs; 1NT+2 150: 4; 1NT+3 180: 5; 1NT+5 240: 6; 1NT+6 270: 7 (the IMP
# scale: 90-120 3, 130-160 4, 170-210 5, 220-260 6, 270-310 7).
OVERTRICKS = {3: "=", 4: "+2", 5: "+3", 6: "+5", 7: "+6"}


def new_swiss(path: Path, teams: int, rounds: int, *extra: str) -> dict[str, Any]:
    made = runner.invoke(
        app,
        ["session", "new", str(path), "--movement", "swiss", "--teams", str(teams),
         "--rounds", str(rounds), "--boards-per-round", str(BOARDS), "--json", *extra],
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    document: dict[str, Any] = json.loads(made.output)
    return document


def draw(path: Path) -> tuple[int, Any]:
    answer = runner.invoke(app, ["session", "draw", str(path), "--json"])
    if answer.exit_code != 0:
        return answer.exit_code, answer.output
    return 0, json.loads(answer.output)


def pairings(document: dict[str, Any]) -> list[tuple[str, str]]:
    return [(m["teams"][0], m["teams"][1]) for m in document["matches"]]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def play_round(
    client: TestClient,
    tokens: dict[int, str],
    round_number: int,
    margins: list[int],
    skip: frozenset[int] = frozenset(),
) -> None:
    """Enter round ``round_number``: match k (tables 2k-1 and 2k, the home team NS at
    the first) won by its home team by ``margins[k-1]`` IMPs (lost when negative)."""
    first_board = (round_number - 1) * BOARDS + 1
    for number, margin in enumerate(margins, start=1):
        for table in (2 * number - 1, 2 * number):
            if table in skip:
                continue
            # The home team sits NS at the first table, the away team at the second.
            plays = margin != 0 and (margin > 0) == (table % 2 == 1)
            for board in range(first_board, first_board + BOARDS):
                body: dict[str, Any] = {"round": round_number, "board": board, "contract": "PASS"}
                if board == first_board and plays:
                    body = {**body, "contract": "1NT", "declarer": "N"}
                    body["result"] = OVERTRICKS[abs(margin)]
                answer = client.post("/api/live/results", json=body, headers=bearer(tokens[table]))
                assert answer.status_code == 201, answer.text


def tokens_of(made: dict[str, Any]) -> dict[int, str]:
    return {access["table"]: access["token"] for access in made["tables"]}


def director_login(client: TestClient, made: dict[str, Any]) -> dict[str, str]:
    login = client.post("/api/live/director/login", json={"password": made["director_password"]})
    return bearer(login.json()["token"])


def totals(client: TestClient) -> dict[str, float]:
    ranking = client.get("/api/live/ranking").json()
    return {row["name"]: row["total"] for row in ranking["ranking"]}


@pytest.fixture
def eight(tmp_path: Path) -> Iterator[tuple[Path, dict[str, Any], TestClient]]:
    path = tmp_path / "swiss.db"
    made = new_swiss(path, 8, 4)
    with TestClient(create_live_app(path)) as client:
        yield path, made, client


def test_an_eight_team_swiss_over_four_rounds(
    eight: tuple[Path, dict[str, Any], TestClient],
) -> None:
    path, made, client = eight
    tokens = tokens_of(made)
    # Round 1 by seeding order, 8 tables (two a match).
    assert pairings(made["round"]) == [("1", "2"), ("3", "4"), ("5", "6"), ("7", "8")]
    assert sorted(tokens) == list(range(1, 9)) and made["round"]["bye"] is None
    play_round(client, tokens, 1, [6, -3, 5, -4])
    # Six IMPs is 14.39-5.61 over 2 boards; 1 beats 2 by 6 (1NT+5 is 240: 6 IMPs)...
    assert wbf_vp(6) == (14.39, 5.61) and wbf_vp(-3) == (7.58, 12.42)
    # 1 14.39, 5 13.78, 8 13.12, 4 12.42, 3 7.58, 7 6.88, 6 6.22, 2 5.61: top-down,
    # 1 v 5, 8 v 4, 3 v 7, 6 v 2 (no one meets a team it has met).
    code, second = draw(path)
    assert code == 0, second
    assert second["round"] == 2
    assert pairings(second) == [("1", "5"), ("8", "4"), ("3", "7"), ("6", "2")]
    play_round(client, tokens, 2, [-7, -3, 3, -5])
    # 5: 13.78 + 14.96 = 28.74; 4: 12.42 + 12.42 = 24.84; 8: 13.12 + 7.58 = 20.70;
    # 3: 7.58 + 12.42 = 20.00; 1: 14.39 + 5.04 = 19.43; 2: 5.61 + 13.78 = 19.39;
    # 7: 6.88 + 7.58 = 14.46; 6: 6.22 + 6.22 = 12.44.
    expected = {
        "5": wbf_vp(5)[0] + wbf_vp(-7)[1], "4": wbf_vp(-3)[1] + wbf_vp(-3)[1],
        "8": wbf_vp(-4)[1] + wbf_vp(-3)[0], "3": wbf_vp(-3)[0] + wbf_vp(3)[0],
        "1": wbf_vp(6)[0] + wbf_vp(-7)[0], "2": wbf_vp(6)[1] + wbf_vp(-5)[1],
        "7": wbf_vp(-4)[0] + wbf_vp(3)[1], "6": wbf_vp(5)[1] + wbf_vp(-5)[0],
    }  # fmt: skip
    assert expected == pytest.approx(
        {"5": 28.74, "4": 24.84, "8": 20.70, "3": 20.00, "1": 19.43, "2": 19.39,
         "7": 14.46, "6": 12.44}
    )  # fmt: skip
    assert totals(client) == pytest.approx(expected)
    # Top-down: 5 v 4, 8 v 3, then 1's first opponent not met is 7 (it met 2), which
    # leaves 2 v 6, who met in round 2: backtracking from the bottom, 1 takes its next
    # opponent, 6, and 2 meets 7.
    code, third = draw(path)
    assert code == 0, third
    assert pairings(third) == [("5", "4"), ("8", "3"), ("1", "6"), ("2", "7")]
    play_round(client, tokens, 3, [3, -5, 7, 0])
    # 5: 28.74 + 12.42 = 41.16; 4: 24.84 + 7.58 = 32.42; 3: 20.00 + 13.78 = 33.78;
    # 8: 20.70 + 6.22 = 26.92; 1: 19.43 + 14.96 = 34.39; 6: 12.44 + 5.04 = 17.48;
    # 2 and 7: + 10 = 29.39 and 24.46. Ranked 5, 1, 3, 4, 2, 8, 7, 6.
    # 5 v 1 is a repeat (round 2): 5 v 3. 1 v 4 (new), 2 v 8 (new), 7 v 6 (new).
    code, fourth = draw(path)
    assert code == 0, fourth
    assert pairings(fourth) == [("5", "3"), ("1", "4"), ("2", "8"), ("7", "6")]
    # Every pairing so far is new: no two teams meet twice.
    met = [frozenset(p) for d in (made["round"], second, third, fourth) for p in pairings(d)]
    assert len(set(met)) == len(met) == 16
    # The table view shows round 4's opponents: table 3 (match 2, open room) has 1 NS v 4.
    view = client.get("/api/live/table", headers=bearer(tokens[3])).json()
    last = view["rounds"][-1]
    assert (last["round"], last["ns"], last["ew"], last["boards"]) == (4, "1", "4", [7, 8])
    play_round(client, tokens, 4, [0, 0, 0, 0])
    # Past the last round: a clear refusal.
    code, text = draw(path)
    assert code == 1 and "all 4 rounds of this Swiss are drawn" in text
    # The audit log records each draw and who made it.
    audit = client.get("/api/live/audit", headers=director_login(client, made)).json()
    draws = [entry for entry in audit if entry["action"] == "draw"]
    assert len(draws) == 3
    assert "round 3: 5 v 4, 8 v 3, 1 v 6, 2 v 7" in json.dumps(draws[1])
    assert "command line" in json.dumps(draws[0])


def test_a_draw_before_the_round_is_in_names_the_missing_tables(
    eight: tuple[Path, dict[str, Any], TestClient],
) -> None:
    path, made, client = eight
    director = director_login(client, made)
    play_round(client, tokens_of(made), 1, [3, 3, 3, 3], skip=frozenset({2, 7}))
    answer = client.post("/api/live/director/draw", headers=director)
    assert answer.status_code == 409
    assert "table(s) 2, 7 still have boards without a result" in answer.json()["detail"]
    code, text = draw(path)
    assert code == 1 and "table(s) 2, 7 still have boards" in text
    # Only the director draws.
    assert client.post("/api/live/director/draw").status_code == 401


def test_the_api_draws_and_the_tables_see_their_next_opponents(
    eight: tuple[Path, dict[str, Any], TestClient],
) -> None:
    _, made, client = eight
    tokens = tokens_of(made)
    director = director_login(client, made)
    play_round(client, tokens, 1, [3, 5, 7, -3])
    # 1 12.42, 3 13.78, 5 14.96, 8 12.42 (-3 for 7: 8 wins by 3); 1 and 8 level on VPs
    # and IMPs: seeding puts 1 first. Ranked 5, 3, 1, 8, 2, 7, 4, 6.
    answer = client.post("/api/live/director/draw", headers=director)
    assert answer.status_code == 200, answer.text
    drawn = answer.json()
    assert pairings(drawn) == [("5", "3"), ("1", "8"), ("2", "7"), ("4", "6")]
    assert drawn["matches"][1]["tables"] == [3, 4]
    # Table 4 (match 2's closed room) now has round 2: 8 NS v 1 EW on boards 3 and 4.
    view = client.get("/api/live/table", headers=bearer(tokens[4])).json()
    assert [(r["round"], r["ns"], r["ew"], r["boards"]) for r in view["rounds"]] == [
        (1, "4", "3", [1, 2]),
        (2, "8", "1", [3, 4]),
    ]


def test_a_seven_team_swiss_gives_byes(tmp_path: Path) -> None:
    path = tmp_path / "seven.db"
    made = new_swiss(path, 7, 3)
    # Six tables: three matches and a bye to the lowest seed.
    assert pairings(made["round"]) == [("1", "2"), ("3", "4"), ("5", "6")]
    assert made["round"]["bye"] == "7" and len(made["tables"]) == 6
    with TestClient(create_live_app(path)) as client:
        play_round(client, tokens_of(made), 1, [3, 5, 0])
        ranking = client.get("/api/live/ranking").json()
        page = client.get("/ranking")
    # The public ranking page lists the bye with its VPs.
    assert page.status_code == 200
    assert "<tr><td>1</td><td></td><td>7 bye</td><td></td><td>12.00</td></tr>" in page.text
    # The bye scores 12 VPs (docs/movements.md) and shows as a match of its own.
    byes = [m for m in ranking["matches"] if m.get("bye")]
    assert byes == [
        {"round": 1, "section": "", "teams": ["7"], "bye": True, "boards": 0,
         "imps": [0.0], "vp": [12.0]}
    ]  # fmt: skip
    # 3 13.78, 1 12.42, 7 12.00 (bye), 5 and 6 10.00 (0 IMPs: seeding), 2 7.58, 4 6.22.
    assert [(row["name"], row["total"]) for row in ranking["ranking"]] == [
        ("3", 13.78), ("1", 12.42), ("7", 12.0), ("5", 10.0), ("6", 10.0), ("2", 7.58),
        ("4", 6.22),
    ]  # fmt: skip
    # The bye goes to the lowest team without one, 4; the rest top-down.
    code, second = draw(path)
    assert code == 0, second
    assert pairings(second) == [("3", "1"), ("7", "5"), ("6", "2")]
    assert second["bye"] == "4"


def test_session_new_swiss_usage_errors(tmp_path: Path) -> None:
    base = ["session", "new", str(tmp_path / "s.db"), "--movement", "swiss"]
    missing = runner.invoke(app, [*base, "--teams", "8", "--boards-per-round", "2"])
    assert missing.exit_code == 2 and "a Swiss needs --rounds" in missing.output
    too_many = runner.invoke(app, [*base, "--teams", "4", "--rounds", "4", "-b", "2"])
    assert too_many.exit_code == 2 and "4 teams can play 1 to 3 Swiss rounds" in too_many.output
    seed = runner.invoke(app, ["session", "new", str(tmp_path / "m.db"), "--movement",
                               "mitchell", "-t", "3", "-b", "2", "--seed", "1"])  # fmt: skip
    assert seed.exit_code == 2 and "--seed is an option of a Swiss" in seed.output
    assert not (tmp_path / "s.db").exists()


def test_a_seeded_first_round_is_the_shuffled_seeding(tmp_path: Path) -> None:
    import random

    order = [str(team) for team in range(1, 7)]
    random.Random(11).shuffle(order)  # the seeding the seed gives, as Python specifies it
    made = new_swiss(tmp_path / "seeded.db", 6, 2, "--seed", "11")
    assert pairings(made["round"]) == [tuple(order[0:2]), tuple(order[2:4]), tuple(order[4:6])]


def test_the_director_page_draws(eight: tuple[Path, dict[str, Any], TestClient]) -> None:
    path, made, client = eight
    page = client.get("/director")
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert csrf is not None
    login = client.post(
        "/director/login",
        data={"csrf": csrf.group(1), "password": made["director_password"]},
        follow_redirects=False,
    )
    assert login.status_code == 303
    overview = client.get("/director").text
    assert "Round 1 of 4 is drawn." in overview and 'id="draw"' in overview
    form_csrf = re.search(r'action="/director/draw"[^>]*>\s*<input type="hidden" name="csrf" '
                          r'value="([^"]+)"', overview)  # fmt: skip
    assert form_csrf is not None
    refused = client.post("/director/draw", data={"csrf": form_csrf.group(1)})
    assert refused.status_code == 409 and "table(s) 1, 2, 3, 4, 5, 6, 7, 8" in refused.text
    play_round(client, tokens_of(made), 1, [3, 3, 3, 3])
    drawn = client.post("/director/draw", data={"csrf": form_csrf.group(1)})
    assert drawn.status_code == 200 and "Round 2 of 4 is drawn." in drawn.text
    # 1, 3, 5, 7 won by 3 IMPs each (12.42, level; seeding): 1 v 3, 5 v 7, 2 v 4, 6 v 8.
    ranking = client.get("/api/live/ranking").json()
    assert ranking["ranking"][0]["total"] == 12.42
    view = client.get("/api/live/table", headers=bearer(tokens_of(made)[1])).json()
    assert [(r["round"], r["ns"], r["ew"]) for r in view["rounds"]] == [
        (1, "1", "2"),
        (2, "1", "3"),
    ]
    # A round drawn from the shell while the server runs: the overview follows it.
    play_round(client, tokens_of(made), 2, [3, 3, 3, 3])
    assert draw(path)[0] == 0
    overview = client.get("/director").text
    assert "Round 3 of 4 is drawn." in overview and "Draw round 4" in overview


def test_a_round_drawn_meanwhile_is_not_drawn_twice(tmp_path: Path) -> None:
    from bridgescore.errors import RecordError
    from bridgescore.session.store.live import LiveStore

    path = tmp_path / "race.db"
    made = new_swiss(path, 4, 3)
    with TestClient(create_live_app(path)) as client:
        play_round(client, tokens_of(made), 1, [3, 3])
    with LiveStore(path, mode="write") as store:
        seen = store.movement_text
        movement = store.movement
    assert seen is not None and movement is not None
    assert draw(path)[0] == 0  # another window draws round 2 first
    with LiveStore(path, mode="write") as store:
        with pytest.raises(RecordError, match="was drawn meanwhile"):
            store.draw_round(movement, "round 2: 1 v 3, 2 v 4", who="late", drawn_from=movement)
        assert store.movement is not None and store.movement.rounds == 2
        assert [e.action for e in store.audit_log()].count("draw") == 1


def test_only_a_swiss_is_drawn(tmp_path: Path) -> None:
    path = tmp_path / "rr.db"
    made = runner.invoke(
        app, ["session", "new", str(path), "--movement", "teams", "--teams", "4", "-b", "2"]
    )
    assert made.exit_code == 0, made.output
    code, text = draw(path)
    assert code == 1 and "is not a Swiss event" in text
    code, text = draw(tmp_path / "none.db")
    assert code == 1 and "is not an event file" in text


def test_session_new_says_what_it_made(tmp_path: Path) -> None:
    path = tmp_path / "club.db"
    made = runner.invoke(
        app,
        ["session", "new", str(path), "--movement", "swiss", "--teams", "5", "--rounds", "4",
         "-b", "3"],
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    assert (
        f"{path}: club, a Swiss teams: 4 table(s), 4 round(s) of 3 board(s), 5 teams" in made.output
    )
    # Round 1 by seeding: 1 v 2, 3 v 4, the bye to 5.
    assert (
        "round 1:\n  team 1 v team 2  (tables 1 and 2)\n  team 3 v team 4  (tables 3 and 4)\n"
        in made.output
    )
    assert "  team 5 has the bye\n" in made.output


def test_a_swiss_plan_that_cannot_be_read_is_a_record_error() -> None:
    from bridgescore.errors import RecordError
    from bridgescore.session.scoring.swiss import SwissPlan

    plan = SwissPlan(("1", "2", "3"), 3, 2, 12.0)
    assert SwissPlan.from_json(plan.to_json()) == plan
    with pytest.raises(RecordError, match="Swiss plan cannot be read"):
        SwissPlan.from_json('{"teams": ["1"]}')
