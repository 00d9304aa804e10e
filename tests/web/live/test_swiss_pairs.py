"""A Swiss pairs night through a real ``bridgescore session live`` server (issue 47 §6):
``session new --movement swiss-pairs``, results entered over HTTP by the tables' phones,
round 2 drawn by ``session draw`` beside the server and round 3 by the director's API.

Every figure is worked here: the scores by Law 77 (3NT by South), the datum by its rule
(the field's NS scores, highest and lowest left out, the mean rounded to 10), the IMP
scale, the WBF continuous VP scale written out below, the bye's 12 VPs, and each draw by
the rule of docs/movements.md (top-down by VPs, then IMPs, then seeding; no two pairs
meeting twice; the bye to the lowest pair without one)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from live_serving import live_server

pytest.importorskip("uvicorn")

runner = CliRunner()

IMP_STEPS = [10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890, 1090,
             1290, 1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990]  # fmt: skip
# 3NT by South (Law 77): made 400 / 600 vulnerable, +1 430 / 630, -1 -50 / -100, -2
# -100 / -200. NS are vulnerable on boards 2, 4, 5 and 7 of the first eight.
NS_VULNERABLE = {2, 4, 5, 7}
SCORES = {
    False: {"=": 400, "+1": 430, "-1": -50, "-2": -100},
    True: {"=": 600, "+1": 630, "-1": -100, "-2": -200},
}
BOARDS = 2


def imps(difference: int) -> int:
    sign = 1 if difference >= 0 else -1
    return sign * sum(abs(difference) > step for step in IMP_STEPS)


def datum(scores: list[int]) -> int:
    kept = sorted(scores)[1:-1] if len(scores) >= 3 else sorted(scores)
    mean = sum(kept) / len(kept)
    return int(math.copysign(math.floor(abs(mean) / 10 + 0.5) * 10, mean))


def wbf(margin: int) -> tuple[float, float]:
    tau = (math.sqrt(5) - 1) / 2
    won = 10 + 10 * (1 - tau ** (3 * abs(margin) / (15 * math.sqrt(BOARDS)))) / (1 - tau**3)
    winner = round(min(20.0, won), 2)
    home = winner if margin >= 0 else round(20 - winner, 2)
    return home, round(20 - home, 2)


def margins(round_number: int, played: dict[int, tuple[str, str]]) -> dict[int, int]:
    """Each table's NS pair's Butler IMPs over the round (``played``: table -> the
    results of the round's two boards)."""
    first = (round_number - 1) * BOARDS + 1
    found = dict.fromkeys(played, 0)
    for offset in range(BOARDS):
        board = first + offset
        scores = {t: SCORES[board in NS_VULNERABLE][r[offset]] for t, r in played.items()}
        par = datum(list(scores.values()))
        for table, score in scores.items():
            found[table] += imps(score - par)
    return found


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def enter(phone: httpx.Client, tokens: dict[int, str], rnd: int, played: dict[int, Any]) -> None:
    first = (rnd - 1) * BOARDS + 1
    for table, results in played.items():
        for offset, result in enumerate(results):
            body = {"round": rnd, "board": first + offset, "contract": "3NT",
                    "declarer": "S", "result": result}  # fmt: skip
            answer = phone.post("/api/live/results", json=body, headers=bearer(tokens[table]))
            assert answer.status_code == 201, answer.text


def pairings(drawn: dict[str, Any]) -> list[tuple[str, str]]:
    return [(m["pairs"][0], m["pairs"][1]) for m in drawn["matches"]]


def test_a_seven_pair_swiss_over_three_rounds(tmp_path: Path) -> None:
    path = tmp_path / "swiss-pairs.db"
    made = runner.invoke(
        app,
        ["session", "new", str(path), "--movement", "swiss-pairs", "--pairs", "7",
         "--rounds", "3", "--boards-per-round", str(BOARDS), "--json"],
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    document: dict[str, Any] = json.loads(made.output)
    # Round 1 by seeding: 1 v 2 at table 1, 3 v 4 at 2, 5 v 6 at 3; 7 (the lowest) has
    # the bye. One table a match: three tables.
    assert pairings(document["round"]) == [("1", "2"), ("3", "4"), ("5", "6")]
    assert document["round"]["bye"] == "7"
    assert [m["tables"] for m in document["round"]["matches"]] == [[1], [2], [3]]
    tokens = {access["table"]: access["token"] for access in document["tables"]}
    assert sorted(tokens) == [1, 2, 3]
    vps: dict[str, float] = dict.fromkeys("1234567", 0.0)
    met: list[frozenset[str]] = []

    def score_round(rnd: int, drawn: list[tuple[str, str]], played: dict[int, Any]) -> None:
        for (home, away), (_, margin) in zip(drawn, sorted(margins(rnd, played).items())):
            home_vp, away_vp = wbf(margin)
            vps[home] = round(vps[home] + home_vp, 2)
            vps[away] = round(vps[away] + away_vp, 2)
            met.append(frozenset((home, away)))

    with (
        live_server(path, "--no-access-log") as server,
        httpx.Client(base_url=server.base, timeout=60) as phone,
    ):
        # Board 1 (none vulnerable): 400, 430, -50: the datum is the middle one, 400.
        # Board 2 (NS vulnerable): 630, 600, -200: 600. 1 v 2: 0 + 1 (30 over) = 1;
        # 3 v 4: 1 + 0 = 1; 5 v 6: -10 (450 under) - 13 (800 under) = -23.
        first = {1: ("=", "+1"), 2: ("+1", "="), 3: ("-1", "-2")}
        assert margins(1, first) == {1: 1, 2: 1, 3: -23}
        enter(phone, tokens, 1, first)
        score_round(1, [("1", "2"), ("3", "4"), ("5", "6")], first)
        vps["7"] += 12.0  # the bye
        # One IMP over two boards is 10.86-9.14; 23 IMPs is 20-0.
        assert wbf(1) == (10.86, 9.14) and wbf(-23) == (0.0, 20.0)
        ranking = phone.get("/api/live/ranking").json()
        assert ranking["method"] == "butler-vp" and ranking["ranking_unit"] == "VP"
        assert {r["name"]: r["total"] for r in ranking["ranking"]} == vps
        # The matches of a round in table order, as drawn, then the bye.
        assert [tuple(m["pairs"]) for m in ranking["matches"]] == [
            ("1", "2"), ("3", "4"), ("5", "6"), ("7",)
        ]  # fmt: skip
        matches = {tuple(m["pairs"]): (m["imps"], m["vp"]) for m in ranking["matches"]}
        assert matches[("5", "6")] == ([0.0, 23.0], [0.0, 20.0])
        assert matches[("7",)] == ([0.0], [12.0])
        traveller = phone.get("/api/live/traveller/2", headers=bearer(tokens[1])).json()
        assert traveller["datum"] == 600
        # The public page lists the matches, pair against pair, and the bye.
        page = phone.get("/ranking").text
        assert "<th>Pairs</th>" in page
        assert "<tr><td>1</td><td></td><td>7 bye</td><td></td><td>12.00</td></tr>" in page
        assert "<td>5 v 6</td><td>0-23</td><td>0.00-20.00</td>" in page
        # 6 20, 7 12 (bye), 1 and 3 10.86 (level on IMPs too: seeding puts 1 first), 2
        # and 4 9.14, 5 0. The bye to 5, the lowest without one; then top-down: 6 v 7,
        # 1 v 3, 2 v 4, none met before. Drawn by the shell beside the server.
        drawn = runner.invoke(app, ["session", "draw", str(path), "--json"])
        assert drawn.exit_code == 0, drawn.output
        second = json.loads(drawn.output)
        assert pairings(second) == [("6", "7"), ("1", "3"), ("2", "4")]
        assert second["bye"] == "5"
        # The server shows table 1 its next opponents at once: 6 NS v 7 on boards 3-4.
        view = phone.get("/api/live/table", headers=bearer(tokens[1])).json()
        last = view["rounds"][-1]
        assert (last["round"], last["ns"], last["ew"], last["boards"]) == (2, "6", "7", [3, 4])
        # Board 3 (NS not vulnerable): -50, 430, 400: 400. Board 4 (NS vulnerable):
        # 600, 630, -100: 600. 6 v 7: -10 + 0; 1 v 3: 1 + 1; 2 v 4: 0 - 12 (700 under).
        played = {1: ("-1", "="), 2: ("+1", "+1"), 3: ("=", "-1")}
        assert margins(2, played) == {1: -10, 2: 2, 3: -12}
        enter(phone, tokens, 2, played)
        score_round(2, [("6", "7"), ("1", "3"), ("2", "4")], played)
        vps["5"] += 12.0
        # 7 12 + 16.46 = 28.46; 4 9.14 + 17.31 = 26.45; 6 20 + 3.54 = 23.54; 1 10.86 +
        # 11.67 = 22.53; 3 10.86 + 8.33 = 19.19; 5 0 + 12 = 12; 2 9.14 + 2.69 = 11.83.
        assert vps == pytest.approx(
            {"7": 28.46, "4": 26.45, "6": 23.54, "1": 22.53, "3": 19.19, "5": 12.0,
             "2": 11.83}
        )  # fmt: skip
        ranking = phone.get("/api/live/ranking").json()
        assert {r["name"]: r["total"] for r in ranking["ranking"]} == pytest.approx(vps)
        assert [r["name"] for r in ranking["ranking"]] == ["7", "4", "6", "1", "3", "5", "2"]
        # Round 3 by the director's API: the bye to 2 (the lowest without one); 7 v 4
        # (new), 6's best not met is 1, then 3 v 5.
        login = phone.post(
            "/api/live/director/login", json={"password": document["director_password"]}
        )
        answer = phone.post("/api/live/director/draw", headers=bearer(login.json()["token"]))
        assert answer.status_code == 200, answer.text
        third = answer.json()
        assert pairings(third) == [("7", "4"), ("6", "1"), ("3", "5")] and third["bye"] == "2"
        assert not {frozenset(p) for p in pairings(third)} & set(met)
        played = {1: ("+1", "+1"), 2: ("-2", "="), 3: ("=", "=")}
        enter(phone, tokens, 3, played)
        score_round(3, [("7", "4"), ("6", "1"), ("3", "5")], played)
        vps["2"] += 12.0
        final = phone.get("/api/live/ranking").json()
    assert {r["name"]: r["total"] for r in final["ranking"]} == pytest.approx(vps, abs=1e-9)
    # Every pair met three different pairs or had a bye; no bye twice.
    byes = [m["pairs"][0] for m in final["matches"] if m.get("bye")]
    assert sorted(byes) == ["2", "5", "7"]
    assert len(met) == len(set(met)) == 9
    # The shell scores the file as the server did; a fourth draw is refused.
    scored = runner.invoke(app, ["session", "score", str(path), "--json"])
    assert json.loads(scored.output)["ranking"] == final["ranking"]
    refused = runner.invoke(app, ["session", "draw", str(path)])
    assert refused.exit_code == 1 and "all 3 rounds of this Swiss are drawn" in refused.output


def test_session_new_swiss_pairs_usage_errors(tmp_path: Path) -> None:
    base = ["session", "new", str(tmp_path / "s.db"), "--movement", "swiss-pairs"]
    missing = runner.invoke(app, [*base, "--pairs", "8", "--boards-per-round", "2"])
    assert missing.exit_code == 2 and "a Swiss pairs needs --rounds" in missing.output
    teams = runner.invoke(app, [*base, "--teams", "8", "--rounds", "3", "-b", "2"])
    assert teams.exit_code == 2 and "--teams is not an option of a Swiss pairs" in teams.output
    too_many = runner.invoke(app, [*base, "--pairs", "6", "--rounds", "6", "-b", "2"])
    assert too_many.exit_code == 2
    assert "6 pairs can play 1 to 5 Swiss rounds" in too_many.output
    shown = runner.invoke(app, [*base, "--pairs", "5", "--rounds", "2", "-b", "3"])
    assert shown.exit_code == 0, shown.output
    assert "a Swiss pairs: 2 table(s), 2 round(s) of 3 board(s), 5 pairs" in shown.output
    assert "  pair 1 v pair 2  (table 1)" in shown.output
    assert "  pair 5 has the bye" in shown.output
