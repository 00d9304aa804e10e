"""``bridgescore game``: text and JSON output, problems with line numbers, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bridgescore.cli.app import app

DATA = Path(__file__).parents[1] / "data"


# -- the `bridgescore game` command ------------------------------------------------------------


def test_cli_game_text() -> None:
    result = CliRunner().invoke(app, ["game", str(DATA / "games_export.pbn")])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 4
    assert lines[0].split() == [
        "board",
        "3",
        "3NT",
        "by",
        "S",
        "9",
        "tricks",
        "3NTS=",
        "NS",
        "+400",
    ]
    assert lines[2].split() == ["board", "5", "passed", "out", "NS", "+0"]
    assert lines[3].split()[-1] == "+700"


def test_cli_game_problems_exit_1_with_lines() -> None:
    result = CliRunner().invoke(app, ["game", str(DATA / "games_bad.pbn")])
    assert result.exit_code == 1
    assert "  line 11: Auction: East's 1H is illegal" in result.stdout
    assert "  line 24: Play: North to play: SA is illegal" in result.stdout
    assert "13 problem(s) in 8 game(s)" in result.stderr


def test_cli_game_json() -> None:
    result = CliRunner().invoke(app, ["game", str(DATA / "games_bad.pbn"), "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert len(data) == 8
    assert data[0]["score_ns"] == 80 and data[0]["contract"] == "1S"
    assert data[0]["problems"][0]["line"] == 11
    assert data[4]["board"] == 8 and data[4]["score_ns"] is None
    assert [problem["line"] for problem in data[4]["problems"]] == [50, 50]
    result = CliRunner().invoke(app, ["game", str(DATA / "games_import.pbn"), "--json"])
    assert result.exit_code == 0
    assert [game["score_ns"] for game in json.loads(result.stdout)] == [400, 680, 100]


def test_cli_game_missing_file_and_empty_input() -> None:
    result = CliRunner().invoke(app, ["game", "no-such-file.pbn"])
    assert result.exit_code == 2 and "no-such-file.pbn" in result.stderr
    result = CliRunner().invoke(app, ["game", "-"], input="% nothing here\n")
    assert result.exit_code == 1 and result.stderr == "error: no boards found in standard input\n"


def test_cli_game_reads_latin1_and_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "latin.pbn"
    path.write_bytes(
        b'\xef\xbb\xbf% PBN 2.1\r\n[Event "Caf\xe9"]\r\n[Board "1"]\r\n'
        b'[Contract "1NT"]\r\n[Declarer "N"]\r\n[Result "7"]\r\n'
    )
    result = CliRunner().invoke(app, ["game", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)[0]["score_ns"] == 90


def test_cli_game_reads_realbridge_scoreimp_naming_both_sides() -> None:
    # Issue 46: RealBridge writes ScoreIMP "NS 6 EW -6"; each was "not a number of IMPs".
    # The file's values are right (board 1: 420 against 170, 250 = 6 IMPs; board 2: 600
    # against -100, 700 = 12 IMPs), so there is nothing to report.
    result = CliRunner().invoke(app, ["game", str(DATA / "realbridge_teams.pbn")])
    assert result.exit_code == 0, result.output
    assert [line.split()[-1] for line in result.stdout.splitlines()] == [
        "+420",
        "+170",
        "+600",
        "-100",
    ]
    assert "problem" not in result.stderr


def test_cli_game_still_reports_a_scoreimp_that_disagrees(tmp_path: Path) -> None:
    text = (DATA / "realbridge_teams.pbn").read_text().replace("NS 6 EW -6", "NS 7 EW -7")
    path = tmp_path / "match.pbn"
    path.write_text(text)
    result = CliRunner().invoke(app, ["game", str(path)])
    assert result.exit_code == 1
    assert "the file's ScoreIMP 'NS 7 EW -7' disagrees with ours, NS +6" in result.stdout
    assert "1 problem(s) in 4 game(s)" in result.stderr


HAND_RECORD = """% PBN 2.1
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:43.954.QJ7652.J8 75.AK76.K83.AQ76 KJT86..A9.T95432 AQ92.QJT832.T4.K"]
[Contract ""]
[Declarer ""]
[Result ""]

[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[Deal "E:AKQ94.Q5.AT842.7 T8653.T3.953.QT6 J.KJ874.KQ76.J94 72.A962.J.AK8532"]
"""


def test_cli_game_on_a_hand_record_says_it_is_one(tmp_path: Path) -> None:
    # Issue 46: every board of a hand record was "cannot be scored", exit 1.
    path = tmp_path / "set.pbn"
    path.write_text(HAND_RECORD)
    result = CliRunner().invoke(app, ["game", str(path)])
    assert result.exit_code == 0, result.output
    assert [line.split() for line in result.stdout.splitlines()] == [
        ["board", "1", "a", "hand", "record:", "no", "result"],
        ["board", "2", "a", "hand", "record:", "no", "result"],
    ]
    assert f"{path} is a hand record: 2 board(s), no results to score" in result.stderr
    data = json.loads(CliRunner().invoke(app, ["game", str(path), "--json"]).stdout)
    assert [(board["board"], board["problems"]) for board in data] == [(1, []), (2, [])]


def test_cli_game_a_board_without_its_result_among_results_is_still_a_problem(
    tmp_path: Path,
) -> None:
    # A game that gives tricks but no contract is a result gone wrong, not a hand record.
    path = tmp_path / "results.pbn"
    path.write_text(HAND_RECORD.replace('[Result ""]', '[Result "10"]'))
    result = CliRunner().invoke(app, ["game", str(path)])
    assert result.exit_code == 1
    assert "no contract: expected a complete auction or Contract and Declarer" in result.stdout
