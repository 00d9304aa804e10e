"""``bridgescore movement ...`` and ``bridgescore vp``: output, files and bad input."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore.boardset.pdf import chromium_path
from bridgescore.cli.app import app

runner = CliRunner()

# A two-table Howell written by hand: pair 1 at both tables in round 1.
AT_TWO_TABLES = {
    "kind": "howell",
    "tables": 2,
    "rounds": 1,
    "boards_per_round": 2,
    "rows": [
        {"round": 1, "table": 1, "ns": "4", "ew": "1", "boards": [1, 2]},
        {"round": 1, "table": 2, "ns": "1", "ew": "3", "boards": [1, 2]},
    ],
}


def _write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_mitchell_json_as_the_issue_shows() -> None:
    result = runner.invoke(
        app,
        [
            *("movement", "mitchell", "--tables", "7", "--boards-per-round", "3"),
            *("--pairs", "13", "--arrow-switch", "--json"),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["kind"], data["tables"], data["rounds"], data["boards_per_round"]) == (
        "mitchell",
        7,
        7,
        3,
    )
    assert data["rows"][0] == {"round": 1, "table": 1, "ns": "1N", "ew": "1E", "boards": [1, 2, 3]}
    assert data["sitouts"][0] == {"round": 1, "pair": "7N"}
    assert data["arrow_switch"] == [7]
    # 7 rounds of 6 tables in play (one NS pair sits out each round).
    assert len(data["rows"]) == 42 and len(data["sitouts"]) == 7


def test_mitchell_as_a_table_by_round() -> None:
    result = runner.invoke(app, ["movement", "mitchell", "-t", "3", "-b", "2"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Mitchell: 3 tables, 3 rounds of 2 boards, 6 pairs, 6 boards"
    round_two = lines.index("Round 2")
    # EW up one table, boards down one: table 1 meets 3E on boards 3-4.
    assert lines[round_two + 2].split() == ["1", "1N", "3E", "3-4"]


def test_mitchell_sit_out_and_arrow_switch_in_text() -> None:
    result = runner.invoke(
        app, ["movement", "mitchell", "-t", "3", "-b", "2", "--pairs", "5", "--arrow-switch"]
    )
    assert result.exit_code == 0, result.output
    assert "Round 3 (arrow switch)" in result.stdout
    assert "  Sits out: 3N" in result.stdout.splitlines()


def test_relay_and_rounds() -> None:
    result = runner.invoke(
        app, ["movement", "mitchell", "-t", "4", "-b", "1", "--relay", "--rounds", "2", "--json"]
    )
    data = json.loads(result.stdout)
    assert data["rounds"] == 2
    first = {row["table"]: row["boards"] for row in data["rows"] if row["round"] == 1}
    assert first == {1: [1], 2: [2], 3: [4], 4: [1]}  # tables 1 and 4 share; set 3 on the bye


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["-t", "31", "-b", "3"], "tables must be a whole number from 2 to 30, got 31"),
        (["-t", "7", "-b", "3", "--relay"], "relay: a share-and-relay Mitchell needs an even"),
        (["-t", "7", "-b", "3", "--pairs", "10"], "pairs (for 7 tables) must be a whole number"),
        (["-t", "7", "-b", "3", "--rounds", "8"], "rounds must be a whole number from 1 to 7"),
        (["-t", "7", "-b", "0"], "boards per round must be a whole number from 1 up, got 0"),
    ],
)
def test_impossible_mitchells_exit_2(options: list[str], message: str) -> None:
    result = runner.invoke(app, ["movement", "mitchell", *options])
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_out_writes_asc_and_json_that_check_reads(tmp_path: Path) -> None:
    for name in ("m.asc", "m.json"):
        out = str(tmp_path / name)
        made = runner.invoke(app, ["movement", "mitchell", "-t", "5", "-b", "2", "--out", out])
        assert made.exit_code == 0, made.output
        checked = runner.invoke(app, ["movement", "check", out])
        assert checked.exit_code == 0, checked.output
        assert "Boards per pair: 10 (all 10 pairs)" in checked.stdout
        assert "Times each board is played: 5 (all 10 boards)" in checked.stdout
        # 5 NS pairs meet 5 EW pairs once: 25 twos meet, the other 45 - 25 = 20 never.
        assert "Twos of pairs that meet never: 20, once: 25" in checked.stdout
    assert (tmp_path / "m.asc").read_text().startswith("10 5 5 5 0\n 1- 6 1   2- 7 2   3- 8 3")


def test_out_needs_a_movement_suffix(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["movement", "mitchell", "-t", "5", "-b", "2", "--out", str(tmp_path / "m.txt")]
    )
    assert result.exit_code == 2
    assert "expected a file name ending in .json or .asc" in result.stderr
    missing = runner.invoke(
        app, ["movement", "mitchell", "-t", "5", "-b", "2", "--out", "/no/such/dir/m.json"]
    )
    assert missing.exit_code == 2 and "does not exist" in missing.stderr


def test_check_refuses_a_pair_at_two_tables(tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.json", json.dumps(AT_TWO_TABLES))
    result = runner.invoke(app, ["movement", "check", path])
    assert result.exit_code == 1
    assert "error: unsound movement: round 1, table 2: pair 1 is also at table 1" in result.stderr
    assert "  round 1, table 2: pair 1 is also at table 1 this round" in result.stdout
    assert "Traceback" not in result.output


def test_check_json_report(tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.json", json.dumps(AT_TWO_TABLES))
    result = runner.invoke(app, ["movement", "check", path, "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)  # one JSON document, even when unsound
    assert data["sound"] is False
    assert data["problems"] == [
        {"round": 1, "table": 2, "message": "pair 1 is also at table 1 this round"}
    ]
    assert data["boards_per_pair"] == {"1": 4, "3": 2, "4": 2}
    assert data["times_played"] == {"1": 2, "2": 2}
    assert {"pairs": ["1", "4"], "times": 1} in data["meetings"]
    assert {"pairs": ["3", "4"], "times": 0} in data["meetings"]


def test_check_a_board_played_twice_in_an_asc_file(tmp_path: Path) -> None:
    # Round 2 gives table 1 group A again: pairs 1 and 2 meet board group A twice.
    path = _write(tmp_path, "bad.asc", "4 2 2 2 0\n1-2 A 3-4 B\n1-2 A 3-4 B\n")
    result = runner.invoke(app, ["movement", "check", path, "-b", "3"])
    assert result.exit_code == 1
    assert "round 2, table 1: pair 1 plays boards 1, 2, 3 again (first in round 1)" in result.stderr


def test_check_a_foreign_asc_without_its_group_size(tmp_path: Path) -> None:
    path = _write(tmp_path, "howell.asc", "4 2 3 3 0\n4-1 A 2-3 A\n4-2 B 3-1 B\n4-3 C 1-2 C\n")
    result = runner.invoke(app, ["movement", "check", path])
    assert result.exit_code == 0, result.output
    assert "counted as one board (give --boards-per-round)" in result.stderr
    assert "Boards per pair: 3 (all 4 pairs)" in result.stdout
    sized = runner.invoke(app, ["movement", "check", path, "--boards-per-round", "7"])
    assert "Boards per pair: 21 (all 4 pairs)" in sized.stdout and sized.stderr == ""


@pytest.mark.parametrize(
    ("name", "text", "code", "message"),
    [
        ("junk.json", "{not json", 1, "junk.json: a movement file must be JSON"),
        ("short.json", '{"kind": "mitchell"}', 1, "the movement has no 'tables' field"),
        ("club.txt", "4 1 1 1 0\n1-2 A\n", 2, "or a movement file ending in .json or .asc"),
        ("bad.asc", "4 1 1\n", 1, "line 1: the .ASC header '4 1 1' must be five numbers"),
        ("empty.json", "", 1, "no boards found"),
    ],
)
def test_check_bad_files(tmp_path: Path, name: str, text: str, code: int, message: str) -> None:
    path = _write(tmp_path, name, text)
    result = runner.invoke(app, ["movement", "check", path])
    assert result.exit_code == code, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_check_json_error_object(tmp_path: Path) -> None:
    path = _write(tmp_path, "junk.json", "[1, 2]")
    result = runner.invoke(app, ["movement", "check", path, "--json"])
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {
        "error": f"{path}: the movement must be a JSON object, got [1, 2]",
        "exit_code": 1,
    }


def test_cards_html_of_a_generated_mitchell(tmp_path: Path) -> None:
    out = tmp_path / "cards.html"
    result = runner.invoke(
        app,
        [
            *("movement", "cards", "mitchell", "-t", "3", "-b", "2", "--html", str(out)),
            *("--event", "Tuesday pairs"),
        ],
    )
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    # One guide card per pair (6), one table card per table (3).
    assert page.count('<article class="card guide"') == 6
    assert page.count('<article class="card table-card"') == 3
    assert "Tuesday pairs" in page
    assert "cards for 6 pairs and 3 tables written to" in result.stderr


def test_cards_refuse_an_unsound_file_before_writing(tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.json", json.dumps(AT_TWO_TABLES))
    out = tmp_path / "cards.html"
    result = runner.invoke(app, ["movement", "cards", path, "--html", str(out)])
    assert result.exit_code == 1
    assert "round 1, table 2" in result.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ([], "give --pdf OUT.pdf and/or --html OUT.html"),
        (["--pdf", "/no/such/dir/c.pdf"], "the folder '/no/such/dir' does not exist"),
        (["--pdf", "cards.html"], "--pdf 'cards.html': expected a file name ending in .pdf"),
        (["--html", "c.html", "--paper", "a3"], "--paper 'a3': expected a4 or letter"),
    ],
)
def test_cards_outputs_checked_first(options: list[str], message: str) -> None:
    result = runner.invoke(app, ["movement", "cards", "mitchell", "-t", "3", "-b", "2", *options])
    assert result.exit_code == 2
    assert message in result.stderr


def test_cards_file_and_generator_options(tmp_path: Path) -> None:
    path = _write(tmp_path, "m.json", json.dumps(AT_TWO_TABLES))
    result = runner.invoke(
        app, ["movement", "cards", path, "--tables", "3", "--html", str(tmp_path / "c.html")]
    )
    assert result.exit_code == 2
    assert "--tables is an option of a generated movement" in result.stderr
    missing = runner.invoke(app, ["movement", "cards", "mitchell", "-b", "2", "--html", "c.html"])
    assert missing.exit_code == 2 and "a Mitchell needs --tables" in missing.stderr


@pytest.mark.skipif(
    chromium_path() is None or shutil.which("pdftotext") is None,
    reason="needs headless Chromium and pdftotext (poppler-utils) to test the PDF",
)
def test_cards_pdf_read_back_with_pdftotext(tmp_path: Path) -> None:
    out = tmp_path / "cards.pdf"
    result = runner.invoke(
        app,
        ["movement", "cards", "mitchell", "-t", "3", "-b", "2", "--pairs", "5", "--pdf", str(out)],
    )
    assert result.exit_code == 0, result.output
    text = subprocess.run(
        ["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True, check=True
    ).stdout
    for pair in ("1N", "2N", "3N", "1E", "2E"):
        assert pair in text
    assert "3E" not in text  # the missing pair has no card and no seat


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["10", "--boards", "10"], {"winner": 13.43, "loser": 6.57}),
        (["-10", "--boards", "10"], {"winner": 13.43, "loser": 6.57}),
        (["--boards", "8", "1"], {"winner": 10.44, "loser": 9.56}),
        (["43", "--boards", "8"], {"winner": 20.0, "loser": 0.0}),
        (["0", "--boards", "8"], {"winner": 10.0, "loser": 10.0}),
    ],
)
def test_vp_json_published_values(words: list[str], expected: dict[str, float]) -> None:
    # The WBF's published scales: 8 boards, 1 IMP 10.44 and 43 IMPs 20.00; 10 boards,
    # 10 IMPs 13.43. A negative margin is the same match from the losing side.
    result = runner.invoke(app, ["vp", *words, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == expected


def test_vp_text_says_which_side() -> None:
    lost = runner.invoke(app, ["vp", "-5", "--boards", "8"])
    assert lost.stdout.strip() == (
        "5 IMPs over 8 boards: winner 12.05 VP, loser 7.95 VP (your side lost: 7.95)"
    )
    won = runner.invoke(app, ["vp", "5", "-n", "8"])
    assert won.stdout.strip().endswith("(your side won: 12.05)")


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["ten", "--boards", "8"], "margin 'ten': expected a whole number of IMPs"),
        (["1.5", "--boards", "8"], "margin '1.5': expected a whole number of IMPs"),
        (["3", "--boards", "0"], "boards must be a whole number from 1 up, got 0"),
        (["3", "4", "--boards", "8"], "expected one margin, got 2 words: '3 4'"),
        (["--bogus", "3", "--boards", "8"], "No such option: --bogus"),
        (["3"], "Missing option '--boards'"),
    ],
)
def test_vp_bad_input(words: list[str], message: str) -> None:
    result = runner.invoke(app, ["vp", *words])
    assert result.exit_code == 2
    assert message in result.stderr


def _doc_examples() -> list[tuple[str, str]]:
    """(command, output) of each ``$ bridgescore`` example in docs/movements.md: the
    indented lines after it, up to the next command or the end of the block."""
    page = Path(__file__).resolve().parents[2] / "docs" / "movements.md"
    examples: list[tuple[str, list[str]]] = []
    open_block = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("    $ bridgescore "):
            examples.append((line[6:], []))
            open_block = True
        elif open_block and (line.startswith("    ") or not line):
            examples[-1][1].append(line[4:])
        else:
            open_block = False
    return [(command, "\n".join(out).strip()) for command, out in examples]


@pytest.mark.parametrize(("command", "expected"), _doc_examples())
def test_the_examples_of_the_movements_page(
    command: str, expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    # club.asc is the page's 4-table, 7-pair, arrow-switched Mitchell;
    club = ["-t", "4", "-b", "2", "--pairs", "7", "--arrow-switch", "--out", "club.asc"]
    made = runner.invoke(app, ["movement", "mitchell", *club])
    assert made.exit_code == 0
    # h.json is the page's 4-table Howell of 3 boards a round.
    made = runner.invoke(app, ["movement", "howell", "-t", "4", "-b", "3", "--out", "h.json"])
    assert made.exit_code == 0
    # indy.json is the page's 8-player individual of 2 boards a round.
    indy = ["--players", "8", "-b", "2", "--out", "indy.json"]
    made = runner.invoke(app, ["movement", "individual", *indy])
    assert made.exit_code == 0
    result = runner.invoke(app, command.split()[1:])
    assert result.exit_code == 0, result.output
    if expected.startswith("{"):
        assert json.loads(result.stdout) == json.loads(expected)
    elif "movement howell" in command or "movement individual" in command:
        assert result.stdout.startswith(expected + "\n")  # the page shows the first rounds
    else:
        assert result.stdout.strip() == expected


def test_howell_four_tables_complete_and_balanced() -> None:
    result = runner.invoke(app, ["movement", "howell", "--tables", "4", "-b", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["kind"], data["tables"], data["rounds"]) == ("howell", 4, 7)
    rows = data["rows"]
    pairs = [str(n) for n in range(1, 9)]
    # Every round: four tables, each pair once.
    for r in range(1, 8):
        seated = [p for row in rows if row["round"] == r for p in (row["ns"], row["ew"])]
        assert sorted(seated, key=int) == pairs
    # A complete Howell: every two pairs meet once, every pair plays all 14 boards once.
    meetings = sorted(tuple(sorted((row["ns"], row["ew"]), key=int)) for row in rows)
    assert len(meetings) == 28 == len(set(meetings))
    for pair in pairs:
        boards = [b for row in rows if pair in (row["ns"], row["ew"]) for b in row["boards"]]
        assert sorted(boards) == list(range(1, 15))
    # Balanced (the issue's words): every two pairs hold the same cards on as many boards.
    holders: dict[int, list[tuple[str, str]]] = {}
    for row in rows:
        for board in row["boards"]:
            holders.setdefault(board, []).extend([(row["ns"], "NS"), (row["ew"], "EW")])
    same: dict[tuple[str, str], int] = {}
    for seats in holders.values():
        for i, (first, side) in enumerate(seats):
            for second, other in seats[i + 1 :]:
                if side == other:
                    key = (min(first, second), max(first, second))
                    same[key] = same.get(key, 0) + 1
    assert len(same) == 28 and len(set(same.values())) == 1


def test_howell_for_an_odd_number_of_pairs_and_its_file(tmp_path: Path) -> None:
    out = tmp_path / "h.asc"
    result = runner.invoke(
        app, ["movement", "howell", "--pairs", "7", "-b", "3", "--json", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    # One pair sits out each round; the sit-out plays nowhere that round.
    assert [s["round"] for s in data["sitouts"]] == list(range(1, data["rounds"] + 1))
    for sitout in data["sitouts"]:
        rows = [row for row in data["rows"] if row["round"] == sitout["round"]]
        assert len(rows) == 3  # 6 of the 7 pairs play at 3 tables
        assert sitout["pair"] not in {p for row in rows for p in (row["ns"], row["ew"])}
    assert out.read_text().splitlines()[0].split()[:3] == ["7", "3", str(data["rounds"])]
    assert runner.invoke(app, ["movement", "check", str(out)]).exit_code == 0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["-b", "2"], "a Howell needs --tables or --pairs"),
        (["-t", "4", "--pairs", "8", "-b", "2"], "a Howell needs exactly one of tables and pairs"),
        (["-t", "4", "-b", "2", "--rounds", "8"], "must be a whole number from 1 to 7, got 8"),
    ],
)
def test_impossible_howells_exit_2(options: list[str], message: str) -> None:
    result = runner.invoke(app, ["movement", "howell", *options])
    assert result.exit_code == 2
    assert message in result.stderr


def test_cards_of_a_howell(tmp_path: Path) -> None:
    out = tmp_path / "h.html"
    result = runner.invoke(
        app, ["movement", "cards", "howell", "-t", "3", "-b", "2", "--html", str(out)]
    )
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert page.count('<article class="card guide"') == 6
    assert page.count('<article class="card table-card"') == 3
    relay = runner.invoke(
        app, ["movement", "cards", "howell", "-t", "3", "-b", "2", "--relay", "--html", str(out)]
    )
    assert relay.exit_code == 2 and "--relay is an option of a Mitchell" in relay.stderr


def test_suggest_json_fits_the_field() -> None:
    result = runner.invoke(
        app, ["movement", "suggest", "--pairs", "14", "--boards", "24", "--json"]
    )
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert found, "14 pairs and 24 boards fit a 7-table Mitchell of 6 x 4 or 8 x 3"
    for item in found:
        assert item["boards"] == item["rounds"] * item["boards_per_round"]
        assert abs(item["boards"] - 24) <= 3  # within an eighth of the boards asked for
        # 7.5 minutes a board and 2 minutes for each change of round (the documented rule).
        assert item["minutes"] == item["boards"] * 7.5 + (item["rounds"] - 1) * 2
        assert item["kind"] in ("mitchell", "howell")
    shapes = {(i["kind"], i["rounds"], i["boards_per_round"], i["arrow_switch"]) for i in found}
    assert ("mitchell", 6, 4, False) in shapes and ("howell", 13, 2, False) in shapes
    # Best fit first: no suggestion is further from 24 boards than one after it.
    misses = [abs(item["boards"] - 24) for item in found]
    assert misses == sorted(misses)


@pytest.mark.parametrize(("pairs", "boards"), [(14, 24), (9, 27), (20, 26)])
def test_every_suggested_command_makes_that_movement(pairs: int, boards: int) -> None:
    result = runner.invoke(
        app, ["movement", "suggest", "--pairs", str(pairs), "--boards", str(boards)]
    )
    assert result.exit_code == 0, result.output
    commands = [
        line.strip() for line in result.stdout.splitlines() if "bridgescore movement" in line
    ]
    assert commands
    for command in commands:
        made = runner.invoke(app, [*command.split()[1:], "--json"])
        assert made.exit_code == 0, (command, made.output)
        movement = json.loads(made.stdout)
        assert len({p for row in movement["rows"] for p in (row["ns"], row["ew"])}) == pairs
        assert abs(movement["rounds"] * movement["boards_per_round"] - boards) <= max(
            1, boards // 8
        )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--pairs", "2", "--boards", "24"], "pairs must be a whole number from 3 to 60, got 2"),
        (["--pairs", "14", "--boards", "24", "--minutes-per-board", "0"], "minutes per board"),
    ],
)
def test_suggest_bad_input(options: list[str], message: str) -> None:
    result = runner.invoke(app, ["movement", "suggest", *options])
    assert result.exit_code == 2
    assert message in result.stderr
