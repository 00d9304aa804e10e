"""``bridgescore rubber`` and ``bridgescore chicago``: the pad, JSON, bad lines with
their numbers and the exit code (the line grammar is tested in tests/pads/test_padlines.py)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bridgescore.cli.app import app

runner = CliRunner()

WORKED_EXAMPLE = "2H+1 NS\n3NT= EW\n# play stops after the next deal\n4HX-1 EW\n"


def test_rubber_worked_example_from_stdin() -> None:
    result = runner.invoke(app, ["rubber", "--finish"], input=WORKED_EXAMPLE)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("line   1  deal 1  2H+1")
    assert "Law 80: EW 300 unfinished rubber: game" in result.stdout
    assert "       290 |    400" in lines
    assert lines[-1].endswith("EW win by 110")


def test_rubber_from_a_file_with_json(tmp_path: Path) -> None:
    path = tmp_path / "deals.txt"
    path.write_text(WORKED_EXAMPLE, encoding="utf-8")
    result = runner.invoke(app, ["rubber", str(path), "--json", "--finish", "--pbn"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["totals"] == {"NS": 290, "EW": 400}
    assert data["games"] == {"NS": 0, "EW": 1}
    assert data["finished"] is True and data["winner"] == "EW"
    assert [entry["line"] for entry in data["entries"]] == [1, 2, 4]
    first = data["entries"][0]
    assert first["input"] == "2H+1 NS"
    assert first["below"] == {"NS": 60, "EW": 0}
    assert first["above"] == [{"side": "NS", "points": 30, "kind": "overtricks"}]
    assert data["settlement"] == [{"side": "EW", "points": 300, "kind": "unfinished rubber: game"}]
    assert data["pbn"][2]["ScoreRubberHistory"] == "NS 0 30/60 0 EW 0 0/100 0"
    assert data["errors"] == []


def test_unfinished_rubber_without_finish_is_left_open() -> None:
    result = runner.invoke(app, ["rubber", "--json"], input="2S= NS\n")
    data = json.loads(result.stdout)
    assert data["finished"] is False and data["totals"] == {"NS": 60, "EW": 0}


def test_law80_options_on_the_command_line() -> None:
    text = "2D= NS\n2H= EW\n"
    plain = json.loads(runner.invoke(app, ["rubber", "--finish", "--json"], input=text).stdout)
    assert plain["settlement"] == []
    each = runner.invoke(
        app, ["rubber", "--finish", "--each-side", "--partscore-bonus", "50", "--json"], input=text
    )
    assert json.loads(each.stdout)["totals"] == {"NS": 40 + 50, "EW": 60 + 50}


def test_bad_lines_are_reported_and_the_rest_recorded() -> None:
    text = (
        "2S= NS\n"  # 1
        "4Z+1 NS\n"  # 2: bad strain
        "3C= EW\n"  # 3
        "1NT+2 EW\n"  # 4: EW 40 + 60: game
        "honours EW 150\n"  # 5: four aces at notrump, for the deal on line 4
        "honors NS 100\n"  # 6: that deal already has honours
        "4S=\n"  # 7: who declared?
        "4HX+1 EW honours NS 100\n"  # 8: EW's second game
        "1C= NS\n"  # 9: after the end: the first deal of the next rubber
    )
    result = runner.invoke(app, ["rubber", "--json"], input=text)
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert [error["line"] for error in data["errors"]] == [2, 6, 7]
    assert "'4Z+1'" in data["errors"][0]["error"]
    assert [entry["line"] for entry in data["entries"]] == [1, 3, 4, 8, 9]
    assert [entry["rubber"] for entry in data["entries"]] == [1, 1, 1, 1, 2]
    assert data["entries"][2]["honors"] == "EW 150"
    # Rubber 1: EW 60 + 40 + 60 + 150, then vulnerable 240 + 200 + 50 + 700 (2-0);
    # NS 60 + 100. Rubber 2: NS 1C= is 20 below, nobody vulnerable.
    assert [r["totals"] for r in data["rubbers"]] == [{"NS": 160, "EW": 1500}, {"NS": 20, "EW": 0}]
    assert data["totals"] == {"NS": 160 + 20, "EW": 1500}
    assert "line 2:" in result.stderr and "3 line(s) could not be recorded" in result.stderr


def test_unreadable_file_and_bad_options() -> None:
    assert runner.invoke(app, ["rubber", "/no/such/file"]).exit_code == 2
    assert runner.invoke(app, ["rubber", "--rules", "1935"], input="").exit_code == 2
    assert runner.invoke(app, ["rubber", "--we", "NE"], input="").exit_code == 2


def test_chicago_worked_example() -> None:
    text = "2H= NS\n2S= NS\npass\n3NT-1 EW\n2C= EW\n"
    result = runner.invoke(app, ["chicago"], input=text)
    assert result.exit_code == 0, result.output
    assert "line   3  deal 3  passed out" in result.stdout
    assert "[S deals, vul NS]" in result.stdout
    assert result.stdout.splitlines()[-1] == "round over: NS 470 EW 140"


def test_chicago_options_and_json() -> None:
    text = "2S= NS\n2S= NS\n"
    args = ["chicago", "--schedule", "switched", "--first-dealer", "N", "--json"]
    data = json.loads(runner.invoke(app, args, input=text).stdout)
    assert data["totals"] == {"NS": 620, "EW": 0}  # 60 + 60 + 500: NS vulnerable on deal 2
    assert data["schedule"] == "switched"
    dup = runner.invoke(app, ["chicago", "--variant", "duplicate", "--json"], input=text)
    assert json.loads(dup.stdout)["totals"] == {"NS": 220, "EW": 0}  # 110 + 110


def test_chicago_honours_flag_and_records_after_the_end() -> None:
    text = "4S= NS honors EW 100\n1C-1 NS\n1C-1 NS\n1C-1 NS\n1C= EW\n"
    result = runner.invoke(app, ["chicago", "--json"], input=text)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["errors"] == []
    # Round 1: NS 120 + 300 (game, deal 1 nv), EW 100 honours + 50 (NS nv on deal 2)
    # + 100 + 100 (NS vul on deals 3 and 4). Line 5 opens round 2: EW 20 on deal 1.
    assert [(e["line"], e["round"], e["deal"]) for e in data["entries"]][-2:] == [
        (4, 1, 4),
        (5, 2, 1),
    ]
    assert [r["totals"] for r in data["rounds"]] == [{"NS": 420, "EW": 350}, {"NS": 0, "EW": 20}]
    assert data["totals"] == {"NS": 420, "EW": 370}
    off = runner.invoke(app, ["chicago", "--no-honors", "--json"], input=text)
    off_data = json.loads(off.stdout)
    # Line 1 is refused, so line 5 becomes deal 4: EW 50 + 50 + 100 (NS V on deal 3)
    # in undertricks, then 1C= for 20 + 100.
    assert [error["line"] for error in off_data["errors"]] == [1]
    assert off_data["totals"] == {"NS": 0, "EW": 320}


# An evening: NS win rubber 1 2-0 (4S= 120 game; vulnerable 3NT+1: 100 game, 30 over,
# 700 rubber: 950). Rubber 2: EW 2H= 60 below; one passed out; EW 4HX-1 not
# vulnerable: 100 to NS. Law 80: EW 100 for the only partscore in the unfinished game.
EVENING = "4S= NS\n3NT+1 NS\n2H= EW\npass\n4HX-1 EW\n"


def test_rubber_evening_in_text() -> None:
    result = runner.invoke(app, ["rubber", "--finish", "--first-dealer", "N"], input=EVENING)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "rubber 1"
    assert "rubber 1 over: games NS 2 EW 0; points NS 950 EW 0; NS win by 950" in lines
    second = lines.index("rubber 2")
    # Rubber 2 starts afresh: deal 1, nobody vulnerable, dealt by South (deal 3 of the
    # evening: N, E, then S).
    assert lines[second + 1].startswith("line   3  deal 1  2H=")
    assert lines[second + 1].endswith("[S deals, vul None]")
    assert "Law 80: EW 100 unfinished rubber: partscore" in lines
    assert (
        "rubber 2 over: settled by Law 80: games NS 0 EW 0; points NS 100 EW 160; EW win by 60"
    ) in lines
    assert lines[-4:] == [
        "rubber        NS      EW   running NS   running EW",
        "1            950       0          950            0",
        "2            100     160         1050          160",
        "evening: 2 rubbers; NS 1050 EW 160; NS ahead by 890",
    ]


def test_rubber_evening_in_json() -> None:
    result = runner.invoke(app, ["rubber", "--finish", "--json", "--pbn"], input=EVENING)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["totals"] == {"NS": 950 + 100, "EW": 60 + 100}
    assert [(e["line"], e["rubber"], e["deal"]) for e in data["entries"]] == [
        (1, 1, 1),
        (2, 1, 2),
        (3, 2, 1),
        (4, 2, 2),
        (5, 2, 3),
    ]
    rubbers = data["rubbers"]
    assert [r["totals"] for r in rubbers] == [{"NS": 950, "EW": 0}, {"NS": 100, "EW": 160}]
    assert [r["running_totals"] for r in rubbers] == [
        {"NS": 950, "EW": 0},
        {"NS": 1050, "EW": 160},
    ]
    assert [r["winner"] for r in rubbers] == ["NS", "EW"]
    assert rubbers[1]["settlement"] == [
        {"side": "EW", "points": 100, "kind": "unfinished rubber: partscore"}
    ]
    # PBN history of rubber 2 starts from rubber 1's 730 above the line for NS.
    assert data["pbn"][2]["ScoreRubberHistory"] == "NS 730 0/0 EW 0 0/0"
    assert data["errors"] == []


def test_a_single_rubber_prints_no_evening_summary() -> None:
    result = runner.invoke(app, ["rubber"], input="4S= NS\n4S= NS\n")
    lines = result.stdout.splitlines()
    assert lines[0].startswith("line   1  deal 1  4S=")
    assert lines[-1] == "rubber over: games NS 2 EW 0; points NS 940 EW 0; NS win by 940"
    assert not any(line.startswith("evening") for line in lines)


def test_chicago_evening_in_text_and_json() -> None:
    # Round 1 is the worked example (NS 470, EW 140); round 2 starts with North
    # dealing again, nobody vulnerable: NS 1NT= is 40 below, no premium.
    text = "2H= NS\n2S= NS\npass\n3NT-1 EW\n2C= EW\n1NT= NS\n"
    result = runner.invoke(app, ["chicago"], input=text)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "round 1" and "round 1 over: NS 470 EW 140" in lines
    assert lines[lines.index("round 2") + 1].endswith("[N deals, vul None]")
    assert "round 2: 1 of 4 deals played: NS 40 EW 0" in lines
    assert lines[-1] == "evening: 2 rounds; NS 510 EW 140; NS ahead by 370"
    data = json.loads(runner.invoke(app, ["chicago", "--json"], input=text).stdout)
    assert [r["running_totals"] for r in data["rounds"]] == [
        {"NS": 470, "EW": 140},
        {"NS": 510, "EW": 140},
    ]
    assert data["totals"] == {"NS": 510, "EW": 140} and data["deals_played"] == 1
