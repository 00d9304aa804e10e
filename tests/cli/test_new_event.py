"""``bridgescore session new`` (an event from a movement) and ``session import`` of table
scorers' CSV lines, which name the table, round and board but not the pairs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.session.live.event import LiveEvent
from bridgescore.session.store.events import EventStore

runner = CliRunner()


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["session", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def three_table_json(arrow_switch: list[int] | None = None) -> dict[str, Any]:
    """The 3-table Mitchell of tests/live_movements.py, written out as its JSON form."""
    card = {
        1: [("1N", "1E", [1, 2]), ("2N", "2E", [3, 4]), ("3N", "3E", [5, 6])],
        2: [("1N", "3E", [3, 4]), ("2N", "1E", [5, 6]), ("3N", "2E", [1, 2])],
        3: [("1N", "2E", [5, 6]), ("2N", "3E", [1, 2]), ("3N", "1E", [3, 4])],
    }
    return {
        "kind": "mitchell",
        "tables": 3,
        "rounds": 3,
        "boards_per_round": 2,
        "rows": [
            {"round": r, "table": t, "ns": ns, "ew": ew, "boards": boards}
            for r, tables in card.items()
            for t, (ns, ew, boards) in enumerate(tables, start=1)
        ],
        "sitouts": [],
        "arrow_switch": arrow_switch or [],
    }


def new_event(tmp_path: Path, arrow_switch: list[int] | None = None) -> Path:
    movement = tmp_path / "three.json"
    movement.write_text(json.dumps(three_table_json(arrow_switch)))
    event = tmp_path / "club.db"
    code, _, err = run("new", event, "--movement", movement, "--name", "Club")
    assert code == 0, err
    return event


def test_session_new_json_prints_the_event_password_and_table_links(tmp_path: Path) -> None:
    event = tmp_path / "club.db"
    code, out, err = run(
        "new", event, "--movement", "mitchell", "--tables", "5", "--boards-per-round", "3",
        "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert list(data) == ["event", "director_password", "tables"]
    assert data["event"] == str(event)
    assert [(t["section"], t["table"]) for t in data["tables"]] == [("A", n) for n in range(1, 6)]
    for table in data["tables"]:
        assert list(table) == ["section", "table", "token", "url"]
        assert table["url"] == f"http://127.0.0.1:8000/table?token={table['token']}"
    with LiveEvent(event) as live:
        assert live.check_director_password(data["director_password"])
        assert [live.table_for_token(t["token"]) for t in data["tables"]] == [
            ("A", n) for n in range(1, 6)
        ]
        # A 5-table Mitchell: 5 rounds of 3 boards, 10 pairs 1N-5N and 1E-5E.
        assert (live.movement.tables, live.movement.rounds) == (5, 5)
        assert len(live.movement.pairs) == 10
        assert live.name == "club"


def test_session_new_text_says_to_keep_the_password(tmp_path: Path) -> None:
    code, out, _ = run(
        "new", tmp_path / "club.db", "--movement", "mitchell", "--tables", "3",
        "--boards-per-round", "2", "--name", "Tuesday", "--url-base", "https://bridge.example",
    )  # fmt: skip
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == (
        f"{tmp_path / 'club.db'}: Tuesday, a mitchell movement: 3 table(s), 3 round(s) of 2 "
        "board(s), 6 pairs"
    )
    assert lines[1].startswith("director password: ")
    assert "keep it: it is shown only this once" in lines[2]
    assert [line.split()[0] for line in lines[4:]] == ["A1", "A2", "A3"]
    assert all(
        line.split()[1].startswith("https://bridge.example/table?token=") for line in lines[4:]
    )


def test_session_new_never_overwrites(tmp_path: Path) -> None:
    event = new_event(tmp_path)
    before = event.read_bytes()
    code, out, err = run("new", event, "--movement", tmp_path / "three.json", "--json")
    assert code == 1
    assert f"{str(event)!r} already exists" in err
    assert json.loads(out)["exit_code"] == 1
    assert event.read_bytes() == before


def test_session_new_from_a_movement_file(tmp_path: Path) -> None:
    event = new_event(tmp_path, arrow_switch=[3])
    with EventStore(event, mode="read") as store:
        movement = store.movement
        assert movement is not None and movement.arrow_switch == (3,)
        assert store.name == "Club" and store.kind == "pairs"


def test_an_unsound_movement_file_is_refused_naming_round_and_table(tmp_path: Path) -> None:
    broken = three_table_json()
    broken["rows"][1]["ns"] = "1N"  # round 1: pair 1N at tables 1 and 2
    broken["rows"][1]["ew"] = "2E"
    movement = tmp_path / "broken.json"
    movement.write_text(json.dumps(broken))
    code, _, err = run("new", tmp_path / "e.db", "--movement", movement)
    assert code == 2
    assert "round 1, table 2: pair 1N is also at table 1" in err
    assert not (tmp_path / "e.db").exists()


def test_session_new_refuses_options_a_movement_file_says_itself(tmp_path: Path) -> None:
    movement = tmp_path / "three.json"
    movement.write_text(json.dumps(three_table_json()))
    code, _, err = run("new", tmp_path / "e.db", "--movement", movement, "--tables", "4")
    assert code == 2 and "--tables is an option of a generated movement (mitchell, howell)" in err
    code, _, err = run("new", tmp_path / "e.db", "--movement", "mitchell", "--tables", "4")
    assert code == 2 and "a Mitchell needs --boards-per-round" in err
    code, _, err = run("new", tmp_path / "e.db", "--movement", tmp_path / "none.json")
    assert code == 2 and "none.json" in err and "No such file" in err
    code, _, err = run("new", tmp_path / "e.db", "--movement", "scrambled")
    assert code == 2 and "'scrambled': expected mitchell, howell or a movement file" in err
    code, _, err = run(
        "new", tmp_path / "e.db", "--movement", "mitchell", "--tables", "40",
        "--boards-per-round", "2",
    )  # fmt: skip
    assert code == 2 and "tables" in err
    assert not (tmp_path / "e.db").exists()


# ---------------------------------------------------- CSV lines by table, round, board


def test_table_scorers_csv_is_seated_through_the_movement(tmp_path: Path) -> None:
    event = new_event(tmp_path, arrow_switch=[3])
    lines = tmp_path / "scorer.csv"
    lines.write_text(
        "table,round,board,contract,declarer,result\n"
        "1,1,1,4S,N,=\n"  # 1N v 1E: +420 (board 1, none vulnerable)
        "2,1,3,3NT,S,+1\n"  # 2N v 2E: +430 (board 3, EW vulnerable)
        "2,1,1,3NT,S,+1\n"  # line 4: table 2 plays boards 3-4 in round 1
        "1,2,3,2H,E,-1\n"  # 1N v 3E: +100 (board 3, EW vulnerable: one down is 100)
        "3,3,3,3NT,N,=\n"  # round 3 is arrow-switched: 1E holds the NS cards v 3N: +400
        "9,1,1,2H,E,-1\n"  # line 7: no table 9
        "1,1,2,4H,E,-1\n"  # 1N v 1E: +50 (board 2, NS vulnerable, EW not)
    )
    code, out, err = run("import", event, lines)
    assert code == 1
    assert "5 result(s) added" in out and "2 bad line(s)" in out
    assert f"{lines}:4: board 1 is not played at table 2 in round 1" in err
    assert f"{lines}:7: table 9 is not a table of the movement" in err
    with EventStore(event, mode="read") as store:
        stored = {(r.board, r.ns, r.ew): (r.describe(), r.ns_score()) for r in store.results()}
    assert stored == {
        (1, "1N", "1E"): ("4SN=", 420),
        (3, "2N", "2E"): ("3NTS+1", 430),
        (3, "1N", "3E"): ("2HE-1", 100),
        (3, "1E", "3N"): ("3NTN=", 400),
        (2, "1N", "1E"): ("4HE-1", 50),
    }


def test_a_line_naming_other_pairs_than_the_movement_is_reported(tmp_path: Path) -> None:
    event = new_event(tmp_path)
    lines = tmp_path / "scorer.csv"
    lines.write_text(
        "table,round,board,ns,ew,contract,declarer,result\n"
        "1,1,1,1N,1E,4S,N,=\n"
        "1,1,2,1N,2E,4S,N,=\n"  # line 3: the movement seats 1N v 1E there
    )
    code, out, err = run("import", event, lines)
    assert code == 1 and "1 result(s) added" in out
    assert (
        f"{lines}:3: board 2: the line names 1N v 2E, but the movement seats 1N v 1E at "
        "table 1 in round 1"
    ) in err


def test_table_and_round_without_a_movement_are_reported(tmp_path: Path) -> None:
    lines = tmp_path / "scorer.csv"
    lines.write_text("table,round,board,contract,declarer,result\n1,1,1,4S,N,=\n")
    code, _, err = run("import", tmp_path / "plain.db", lines)
    assert code == 1
    assert f"{lines}:2: table '1', round '1': the event has no movement" in err


def test_lines_naming_pairs_the_movement_never_seats_on_the_board_are_reported(
    tmp_path: Path,
) -> None:
    event = new_event(tmp_path)
    lines = tmp_path / "travellers.csv"
    lines.write_text(
        "board,ns,ew,contract,declarer,result\n"
        "1,1N,1E,4S,N,=\n"  # round 1, table 1
        "1,3N,2E,4S,N,=\n"  # round 2, table 3
        "1,2N,1E,4S,N,=\n"  # line 4: 2N and 1E never meet on board 1
        "7,1N,1E,4S,N,=\n"  # line 5: the movement has no board 7
    )
    code, out, err = run("import", event, lines)
    assert code == 1 and "2 result(s) added" in out
    assert (
        f"{lines}:4: board 1: 2N v 1E do not play it in the event's movement: it is played "
        "by 1N v 1E at table 1 in round 1; 3N v 2E at table 3 in round 2; 2N v 3E at table 2 "
        "in round 3"
    ) in err
    assert f"{lines}:5: board 7: 1N v 1E do not play it in the event's movement: no table" in err


def test_session_new_howell(tmp_path: Path) -> None:
    event = tmp_path / "howell.db"
    code, out, err = run(
        "new", event, "--movement", "howell", "--pairs", "7", "--boards-per-round", "3", "--json"
    )
    assert code == 0, err
    # 7 pairs play the Howell of 8 with one pair sitting out each round: 3 tables in play
    # each round, one link for each table that plays.
    tables = json.loads(out)["tables"]
    assert len(tables) == 3
    with EventStore(event, mode="read") as store:
        movement = store.movement
        assert movement is not None and movement.kind == "howell"
        assert movement.rounds == 7 and len(movement.pairs) == 7
        assert all(len(movement.sitting_out(r)) == 1 for r in range(1, 8))
        assert all(len(movement.rows_in_round(r)) == 3 for r in range(1, 8))
        assert {row.table for row in movement.rows} == {t["table"] for t in tables}
    code, _, err = run("new", tmp_path / "h2.db", "--movement", "howell", "--boards-per-round", "3")
    assert code == 2 and "a Howell needs --tables or --pairs" in err
    code, _, err = run(
        "new", tmp_path / "h3.db", "--movement", "howell", "--tables", "4",
        "--boards-per-round", "3", "--relay",
    )  # fmt: skip
    assert code == 2 and "--relay is an option of a Mitchell, not of a Howell" in err


def test_session_new_from_an_asc_file(tmp_path: Path) -> None:
    # A 2-table Howell in .ASC: 4 pairs, 2 tables, 3 rounds, 3 board groups.
    asc = tmp_path / "howell2.asc"
    asc.write_text("4 2 3 3 0\n1-2 1 3-4 1\n1-3 2 4-2 2\n1-4 3 2-3 3\n")
    event = tmp_path / "asc.db"
    code, _, err = run("new", event, "--movement", asc, "--boards-per-round", "2")
    assert code == 0, err
    with EventStore(event, mode="read") as store:
        movement = store.movement
        assert movement is not None
        assert [(r.round, r.table, r.ns, r.ew, r.boards) for r in movement.rows] == [
            (1, 1, "1", "2", (1, 2)),
            (1, 2, "3", "4", (1, 2)),
            (2, 1, "1", "3", (3, 4)),
            (2, 2, "4", "2", (3, 4)),
            (3, 1, "1", "4", (5, 6)),
            (3, 2, "2", "3", (5, 6)),
        ]


def test_session_log_shows_who_entered_and_changed_each_result(tmp_path: Path) -> None:
    from bridgescore.notation import Result
    from bridgescore.session.live.entry import ResultEntry

    event = new_event(tmp_path)
    with LiveEvent(event) as live:
        live.enter_result("A", 1, ResultEntry(1, 1, Result.parse("4SN=")), who="table 1")
        live.correct_result("A", 1, ResultEntry(1, 1, Result.parse("4SN+1")))
    code, out, _ = run("log", event, "--json")
    assert code == 0
    assert [(e["action"], e["who"], e["old"], e["new"]) for e in json.loads(out)] == [
        ("enter", "table 1", None, "4SN="),
        ("correct", "director", "4SN=", "4SN+1"),
    ]
    code, out, _ = run("log", event)
    lines = out.splitlines()
    assert lines[0].endswith(" enter by table 1: board 1 1N v 1E: (none) -> 4SN=")
    assert lines[1].endswith(" correct by director: board 1 1N v 1E: 4SN= -> 4SN+1")


def test_new_prints_the_cards_with_each_tables_link(tmp_path: Path) -> None:
    import shutil
    import subprocess

    import pytest

    from bridgescore.boardset.pdf import chromium_path

    movement = tmp_path / "three.json"
    movement.write_text(json.dumps(three_table_json()))
    event, html = tmp_path / "club.db", tmp_path / "cards.html"
    code, out, err = run(
        "new", event, "--movement", movement, "--url-base", "https://club.example",
        "--cards-html", html, "--json",
    )  # fmt: skip
    assert code == 0, err
    made = json.loads(out)  # the JSON document alone on standard output
    page = html.read_text(encoding="utf-8")
    for access in made["tables"]:
        url = access["url"]
        assert url.startswith("https://club.example/table?token=")
        assert url in page  # printed under its QR code (whose modules test_session_cards checks)
    assert page.count("<svg") == 3
    # A folder that does not exist is refused before the event is made.
    code, _, err = run("new", tmp_path / "two.db", "--movement", movement, "--cards", "/nope/x.pdf")
    assert code == 2 and "/nope" in err and not (tmp_path / "two.db").exists()
    if chromium_path() is None or shutil.which("pdftotext") is None:
        pytest.skip("Chromium or pdftotext is not installed: the PDF is not read")
    pdf = tmp_path / "cards.pdf"
    code, _, err = run("new", tmp_path / "three.db", "--movement", movement, "--cards", pdf)
    assert code == 0, err
    text = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert text.count("table?token=") == 3


def test_session_new_takes_the_movement_commands_generator_options(tmp_path: Path) -> None:
    """`session new` declares the generator's options as `movement mitchell` does: the
    short -t and -b too. A Mitchell of 4 tables, 2 boards a round, played for 3 rounds
    with an arrow switch: 8 pairs (4N..., 4E...), 3 rounds of 2 boards."""
    event = tmp_path / "club.db"
    code, _, err = run(
        "new", event, "--movement", "mitchell", "-t", "4", "-b", "2", "--rounds", "3",
        "--arrow-switch",
    )  # fmt: skip
    assert code == 0, err
    with EventStore(event, mode="read") as store:
        movement = store.movement
        assert movement is not None and movement.kind == "mitchell"
        assert movement.tables == 4 and movement.rounds == 3
        assert movement.boards_per_round == 2 and len(movement.pairs) == 8
        assert movement.arrow_switch
    help_text = runner.invoke(app, ["session", "new", "--help"]).stdout
    assert "-t, --tables" in help_text and "-b, --boards-per-round" in help_text
