"""Issue 38's evenings end to end through the CLI (and the live API where a phone would
enter): two sections scored across and per section, a 13-pair Mitchell joined by a late
pair at round 3, and a table that sat the wrong way round. Every total is worked out by
hand below, from the Laws' scores and the matchpoint rule (2 for each result beaten, 1
for each tied; Neuberg where a board has fewer results), never read back from the code.

Board vulnerability follows the usual cycle: board 1 none, 2 NS, 3 EW, 4 both, ...
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.session.store.events import EventStore
from bridgescore.web.live.app import create_live_app

runner = CliRunner()


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["session", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def ok(*args: str | Path) -> str:
    code, out, err = run(*args)
    assert code == 0, (args, out, err)
    return out


def score_json(event: Path, *options: str) -> list[dict[str, Any]]:
    ranking: list[dict[str, Any]] = json.loads(ok("score", event, "--json", *options))["ranking"]
    return ranking


def import_lines(event: Path, tmp_path: Path, lines: list[str]) -> None:
    travellers = tmp_path / f"{event.stem}-{len(lines)}.csv"
    travellers.write_text("table,round,board,contract,declarer,result\n" + "\n".join(lines) + "\n")
    ok("import", event, travellers)


# A 3-table Mitchell, one board a round, two rounds (NS stay, EW up a table, boards down):
#   round 1: T1 1N-1E board 1, T2 2N-2E board 2, T3 3N-3E board 3
#   round 2: T1 1N-3E board 2, T2 2N-1E board 3, T3 3N-2E board 1
SMALL = ["--movement", "mitchell", "--tables", "3", "--boards-per-round", "1", "--rounds", "2"]
# (table, round, board, contract, declarer, result) and the NS score by Law 77.
SECTION_A = [
    (1, 1, 1, "4S", "N", "="),  # +420
    (3, 2, 1, "4S", "N", "+1"),  # +450
    (2, 1, 2, "3NT", "N", "="),  # +600 (NS vulnerable)
    (1, 2, 2, "3NT", "N", "-1"),  # -100
    (3, 1, 3, "2H", "E", "="),  # -110 (EW vulnerable)
    (2, 2, 3, "2H", "E", "+1"),  # -140
]
SECTION_B = [
    (1, 1, 1, "4S", "N", "="),  # +420
    (3, 2, 1, "4S", "N", "="),  # +420
    (2, 1, 2, "3NT", "N", "+1"),  # +630
    (1, 2, 2, "3NT", "N", "="),  # +600
    (3, 1, 3, "2H", "E", "-1"),  # +100
    (2, 2, 3, "2H", "E", "="),  # -110
]
# Per section (two results a board, top 2):
#   A: b1 450 (3N) 2, 420 (1N) 0; b2 600 (2N) 2, -100 (1N) 0; b3 -110 (3N) 2, -140 (2N) 0
#   B: b1 420 = 420: 1 each; b2 630 (2N) 2, 600 (1N) 0; b3 +100 (3N) 2, -110 (2N) 0
PER_SECTION = {
    ("A", "1N"): 0, ("A", "2N"): 2, ("A", "3N"): 4,
    ("A", "1E"): 4, ("A", "2E"): 0, ("A", "3E"): 2,
    ("B", "1N"): 1, ("B", "2N"): 2, ("B", "3N"): 3,
    ("B", "1E"): 3, ("B", "2E"): 1, ("B", "3E"): 2,
}  # fmt: skip
# Across (four results a board, top 6):
#   b1: 450 (A3N) 6; 420 x3 (A1N, B1N, B3N) 2 each. EW: A2E 0, A1E 4, B1E 4, B2E 4
#   b2: 630 (B2N) 6; 600 x2 (A2N, B1N) 3 each; -100 (A1N) 0. EW: B2E 0, A2E 3, B3E 3, A3E 6
#   b3: +100 (B3N) 6; -110 x2 (A3N, B2N) 3 each; -140 (A2N) 0. EW: B3E 0, A3E 3, B1E 3, A1E 6
ACROSS = {
    ("A", "1N"): 2, ("A", "2N"): 3, ("A", "3N"): 9,
    ("A", "1E"): 10, ("A", "2E"): 3, ("A", "3E"): 9,
    ("B", "1N"): 5, ("B", "2N"): 9, ("B", "3N"): 8,
    ("B", "1E"): 7, ("B", "2E"): 4, ("B", "3E"): 3,
}  # fmt: skip


def totals(ranking: list[dict[str, Any]]) -> dict[tuple[str, str], float]:
    return {(line["section"], line["name"]): line["total"] for line in ranking}


def enter_by_phone(event: Path, made: dict[str, Any]) -> None:
    """Each table of each section enters its results through the live API, round by round."""
    tokens = {(t["section"], t["table"]): t["token"] for t in made["tables"]}
    assert set(tokens) == {(s, t) for s in "AB" for t in (1, 2, 3)}
    with TestClient(create_live_app(event)) as client:
        for section, results in (("A", SECTION_A), ("B", SECTION_B)):
            for table, rnd, board, contract, declarer, result in sorted(
                results, key=lambda r: (r[1], r[0])
            ):
                headers = {"Authorization": f"Bearer {tokens[(section, table)]}"}
                view = client.get("/api/live/table", headers=headers).json()
                assert view["section"] == section and view["table"] == table
                answer = client.post(
                    "/api/live/results",
                    json={
                        "round": rnd,
                        "board": board,
                        "contract": contract,
                        "declarer": declarer,
                        "result": result,
                    },
                    headers=headers,
                )
                assert answer.status_code == 201, answer.text


def test_two_sections_entered_by_phone_scored_per_section_and_across(tmp_path: Path) -> None:
    event = tmp_path / "congress.db"
    enter_by_phone(event, json.loads(ok("new", event, *SMALL, "--sections", "2", "--json")))
    # Per section is the default; the event may be scored across offline.
    assert totals(score_json(event)) == PER_SECTION
    assert totals(score_json(event, "--per-section")) == PER_SECTION
    assert totals(score_json(event, "--across")) == ACROSS


def test_an_event_made_to_score_across_does_so_until_told_otherwise(tmp_path: Path) -> None:
    event = tmp_path / "congress.db"
    made = ok("new", event, *SMALL, "--sections", "2", "--score-across", "--json")
    enter_by_phone(event, json.loads(made))
    assert totals(score_json(event)) == ACROSS
    assert totals(score_json(event, "--per-section")) == PER_SECTION


# The 13-pair Mitchell on 7 tables, one board a round, 7 rounds: NS pair t stays at
# table t; EW pair e sits at table (e + r - 2) mod 7 + 1 in round r; table t plays board
# (t + r - 2) mod 7 + 1. Pair 7E is missing: its opponent sits out. 7E arrives for
# round 3 and takes its place: table (7 + r - 2) mod 7 + 1 = r - 1, board (2r - 3) mod 7 + 1.
LATE_ROWS = {(3, 2, "2N", 4), (4, 3, "3N", 6), (5, 4, "4N", 1), (6, 5, "5N", 3), (7, 6, "6N", 5)}


def test_a_late_pair_joins_a_thirteen_pair_mitchell_at_round_three(tmp_path: Path) -> None:
    event = tmp_path / "tuesday.db"
    made = json.loads(
        ok(
            "new",
            event,
            "--movement",
            "mitchell",
            "--tables",
            "7",
            "--pairs",
            "13",
            "--boards-per-round",
            "1",
            "--json",
        )
    )
    joined = json.loads(ok("add-pair", event, "--from-round", "3", "--name", "Late & Later",
                           "--json"))  # fmt: skip
    assert "7E" in json.dumps(joined)
    movement = EventStore(event, mode="read").movement
    assert movement is not None
    late = {(row.round, row.table, row.ns, row.boards[0]) for row in movement.rows_of_pair("7E")}
    assert late == LATE_ROWS
    # Rounds 1 and 2: 7E sits out, and so do the NS pairs it would have met.
    assert movement.sitting_out(1) == ("7N", "7E")
    assert movement.sitting_out(2) == ("1N", "7E")
    assert all(not movement.sitting_out(r) for r in range(3, 8))
    # Table 2's phone shows round 3 against 7E.
    token = next(t["token"] for t in made["tables"] if t["table"] == 2)
    with TestClient(create_live_app(event)) as client:
        view = client.get("/api/live/table", headers={"Authorization": f"Bearer {token}"})
        assert view.status_code == 200, view.text
        round3 = next(r for r in view.json()["rounds"] if r["round"] == 3)
        assert (round3["ns"], round3["ew"], round3["boards"]) == ("2N", "7E", [4])
    # Every table bids 3NT by North and makes it, but against 7E, who beat it by a trick.
    lines = [
        f"{row.table},{row.round},{row.boards[0]},3NT,N,{'-1' if row.ew == '7E' else '='}"
        for row in movement.rows
    ]
    assert len(lines) == 47  # 7 x 7 less the two sit-outs of rounds 1 and 2
    import_lines(event, tmp_path, lines)
    ranking = {line["name"]: line for line in score_json(event)}
    # Boards 1, 3, 4, 5, 6 (7E's): seven results, top 12: the lone -1 scores 12 for
    # 7E and 0 for its opponent; the six makes tie, beating one: 7 for NS, 5 for EW.
    # Boards 2 and 7: six tied results, 5 each of top 10, Neuberg'd to seven results:
    # (5 + 1) x 7 / 6 - 1 = 6 (of 12).
    expected = {
        "7E": (60, 5),  # 5 boards x 12
        "1E": (37, 7), "2E": (37, 7), "3E": (37, 7), "4E": (37, 7), "5E": (37, 7),
        "6E": (37, 7),  # 5 x 5 + 2 x 6
        "1N": (41, 6),  # sat out round 2 (board 2): 5 x 7 + 6 (board 7)
        "7N": (41, 6),  # sat out round 1 (board 7): 5 x 7 + 6 (board 2)
        "2N": (40, 7), "3N": (40, 7), "4N": (40, 7), "5N": (40, 7), "6N": (40, 7),
    }  # fmt: skip
    assert {n: (line["total"], line["boards"]) for n, line in ranking.items()} == expected
    # A pair that played fewer boards is ranked on its own boards' top, as any other.
    assert ranking["7E"]["percent"] == 100.0
    assert ranking["1N"]["percent"] == round(100 * 41 / 72, 2)
    assert ranking["2N"]["percent"] == round(100 * 40 / 84, 2)


def small_pairs(event: Path) -> dict[str, float]:
    """Each pair's matchpoints over all its lines (a pair that sat the wrong way holds a
    line in the other direction too)."""
    found: dict[str, float] = {}
    for line in score_json(event):
        found[line["name"]] = found.get(line["name"], 0) + line["total"]
    return found


def test_a_table_that_sat_the_wrong_way_is_credited_as_it_played(tmp_path: Path) -> None:
    event = tmp_path / "club.db"
    ok("new", event, *SMALL)
    import_lines(event, tmp_path, [f"{t},{r},{b},{c},{d},{x}" for t, r, b, c, d, x in SECTION_A])
    as_moved = {"1N": 0, "2N": 2, "3N": 4, "1E": 4, "2E": 0, "3E": 2}
    assert small_pairs(event) == as_moved
    ok("swap", event, "--table", "1", "--round", "1")
    # 1E held the North-South cards at table 1 in round 1: board 1's +420 is theirs as
    # NS (0 of 2: beaten by +450), and 1N's as EW (2). 1N: 2 + 0 (board 2's -100);
    # 1E: 0 + 2 (board 3 as EW against -140).
    with EventStore(event, mode="read") as store:
        keys = {(r.board, r.ns, r.ew) for r in store.load().results}
        actions = [entry.action for entry in store.audit_log()]
    assert (1, "1E", "1N") in keys and (1, "1N", "1E") not in keys
    assert "swap" in actions
    assert small_pairs(event) == {**as_moved, "1N": 2, "1E": 2}
    # Still a two-winner Mitchell: each pair ranked in its home direction's field with
    # all its boards, the wrong-way board included.
    fields = {(line["direction"], line["name"]): line["total"] for line in score_json(event)}
    assert fields == {
        ("NS", "1N"): 2, ("NS", "2N"): 2, ("NS", "3N"): 4,
        ("EW", "1E"): 2, ("EW", "2E"): 0, ("EW", "3E"): 2,
    }  # fmt: skip
    ok("swap", event, "--table", "1", "--round", "1")  # the same call undoes it
    assert small_pairs(event) == as_moved
