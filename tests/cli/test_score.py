"""``bridgescore score``: one result, batches with bad lines, the table, JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app

runner = CliRunner()


def test_single_result_with_breakdown() -> None:
    result = runner.invoke(app, ["score", "4DX +1", "--vul"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "4DX+1 vulnerable: +910"
    assert "trick score" in result.stdout and "160" in result.stdout
    assert lines[-1].split() == ["total", "910"]


def test_json_output() -> None:
    result = runner.invoke(app, ["score", "4DX +1", "--vul", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["contract"] == "4DX"
    assert data["result"] == "4DX+1"
    assert data["vulnerable"] is True
    assert data["score"] == 910
    assert data["breakdown"] == {
        "trick_score": 160,
        "overtricks": 200,
        "game_premium": 500,
        "partscore_premium": 0,
        "slam_premium": 0,
        "insult_premium": 50,
        "undertricks": 0,
    }


def test_contract_with_tricks() -> None:
    result = runner.invoke(app, ["score", "4S", "--tricks", "11", "--json"])
    assert json.loads(result.stdout)["score"] == 450


def test_pre_1987_rules_option() -> None:
    result = runner.invoke(app, ["score", "7SX-9", "--rules", "pre1987", "--json"])
    assert json.loads(result.stdout)["score"] == -1700
    result = runner.invoke(app, ["score", "7SX-9", "--rules", "1066"])
    assert result.exit_code == 2
    assert "'1066'" in result.stderr


def test_bad_result_is_an_error_naming_it() -> None:
    result = runner.invoke(app, ["score", "7NT+1"])
    assert result.exit_code == 1
    assert "'7NT+1'" in result.stderr
    assert "13" in result.stderr


def test_nothing_to_score() -> None:
    result = runner.invoke(app, ["score"])
    assert result.exit_code == 2
    assert "nothing to score" in result.stderr


BATCH = "4DX +1 vul\n3NT= nv\n\n# a comment\nfoo\n6NTXX= \n7NT+1 vul\n4S making 5 not vul\n"


def test_batch_from_stdin_goes_on_past_bad_lines() -> None:
    result = runner.invoke(app, ["score", "-"], input=BATCH)
    assert result.exit_code == 1
    rows = [line.split() for line in result.stdout.splitlines()]
    assert rows == [
        ["1", "4DX+1", "vul", "+910"],
        ["2", "3NT=", "nv", "+400"],
        ["6", "6NTXX=", "nv", "+1660"],
        ["8", "4S+1", "nv", "+450"],
    ]
    assert "line 5: " in result.stderr and "'foo'" in result.stderr
    assert "line 7: " in result.stderr and "'7NT+1'" in result.stderr
    assert "2 line(s) could not be scored" in result.stderr


def test_batch_default_vulnerability_and_json(tmp_path: Path) -> None:
    path = tmp_path / "results.txt"
    path.write_text("3NT=\n4SX-1 nv\nbad\n", encoding="utf-8")
    result = runner.invoke(app, ["score", "--file", str(path), "--vul", "--json"])
    assert result.exit_code == 1
    records = json.loads(result.stdout)
    assert [r["line"] for r in records] == [1, 2, 3]
    assert records[0]["score"] == 600
    assert records[1]["score"] == -100
    assert records[2]["input"] == "bad" and "'bad'" in records[2]["error"]


def test_batch_all_good_exits_zero(tmp_path: Path) -> None:
    path = tmp_path / "results.txt"
    path.write_text("1NT+1 v\n2C-1 vulnerable\n", encoding="utf-8")
    result = runner.invoke(app, ["score", "-f", str(path)])
    assert result.exit_code == 0
    assert [line.split()[-1] for line in result.stdout.splitlines()] == ["+120", "-100"]


def test_missing_file() -> None:
    result = runner.invoke(app, ["score", "--file", "/no/such/file.txt"])
    assert result.exit_code == 2
    assert "/no/such/file.txt" in result.stderr


def test_table_matches_rules_section_1_9() -> None:
    result = runner.invoke(app, ["score", "--table", "--vul"])
    assert result.exit_code == 0
    rows = {line.split()[0]: line.split()[1:] for line in result.stdout.splitlines()[3:]}
    # docs/rules.md §1.9, vulnerable columns: undoubled, doubled, redoubled x (minor, major, NT).
    assert rows["4"] == ["130", "620", "630", "710", "790", "810", "920", "1080", "1120"]
    assert rows["7"] == ["2140", "2210", "2220", "2330", "2470", "2490", "2660", "2940", "2980"]


def test_table_json() -> None:
    result = runner.invoke(app, ["score", "--table", "--json"])
    data = json.loads(result.stdout)
    assert data["vulnerable"] is False
    assert data["made_exactly"]["3NT"] == 400
    assert data["made_exactly"]["1CXX"] == 230
    assert len(data["made_exactly"]) == 105


def test_installed_entry_point() -> None:
    """The real console script, as a user runs it."""
    exe = Path(sys.executable).parent / "bridgescore"
    done = subprocess.run(
        [str(exe), "score", "6NTXX=", "--json"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["score"] == 1660


# Issue 23: a result typed as players say it, in words, some of them starting with '-'.
# Expected scores from Law 77's table (docs/rules.md §1): 4DX+1 vulnerable is 160 trick
# score + 500 game + 50 insult + 200 for the doubled overtrick = 910; one down
# undoubled is 50 not vulnerable, 100 vulnerable; 4S made is 120 + 300 = 420.
@pytest.mark.parametrize(
    ("words", "first_line"),
    [
        (["4DX", "+1", "--vul"], "4DX+1 vulnerable: +910"),
        (["3NT", "-1"], "3NT-1 not vulnerable: -50"),
        (["3NT", "-1", "--vul"], "3NT-1 vulnerable: -100"),
        (["3NT", "--vul", "-1"], "3NT-1 vulnerable: -100"),
        (["--vul", "3NT", "-1"], "3NT-1 vulnerable: -100"),
        (["3NT", "-1", "--nv"], "3NT-1 not vulnerable: -50"),
        (["4S", "by", "N", "making", "5"], "4SN+1 not vulnerable: +450"),
        (["4S", "-0"], "4S= not vulnerable: +420"),
        (["4S-0"], "4S= not vulnerable: +420"),
        (["4S", "-10", "--vul"], "4S-10 vulnerable: -1000"),
    ],
)
def test_result_in_words(words: list[str], first_line: str) -> None:
    result = runner.invoke(app, ["score", *words])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == first_line


def test_result_in_words_with_json_and_symbols() -> None:
    result = runner.invoke(app, ["score", "4DX", "+1", "--vul", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["score"] == 910
    shown = runner.invoke(app, ["score", "--symbols", "3NT", "-2", "--vul"])
    assert shown.stdout.splitlines()[0] == "3NT-2 vulnerable: -200"


@pytest.mark.parametrize(
    ("words", "named"),
    [
        (["3NT", "-1", "--vull"], "--vull"),
        (["3NT", "-x"], "-x"),
        (["--colour", "3NT="], "--colour"),
    ],
)
def test_an_unknown_option_among_the_words_is_still_a_usage_error(
    words: list[str], named: str
) -> None:
    result = runner.invoke(app, ["score", *words])
    assert result.exit_code == 2
    assert f"No such option: {named}" in result.stderr
    assert "Usage: " in result.stderr


def test_unknown_option_suggests_the_near_one() -> None:
    result = runner.invoke(app, ["score", "3NT", "-1", "--vull"])
    assert "did you mean --vul" in result.stderr


def test_minus_tricks_is_a_trick_count_error() -> None:
    # Issue 23: `score 4S --tricks -1` said "11 down"; the count is what is wrong.
    for count in ("-1", "14"):
        result = runner.invoke(app, ["score", "4S", "--tricks", count])
        assert result.exit_code == 1
        assert result.stderr.strip() == (
            f"error: tricks for '4S' must be a whole number from 0 to 13, got {count}"
        )
    made = runner.invoke(app, ["score", "4S", "--tricks", "13", "--json"])
    assert json.loads(made.stdout)["score"] == 510  # 120 + 300 game + 3 x 30


def test_issue_commands_through_the_installed_entry_point() -> None:
    # The real parser, not the test runner: `bridgescore score 3NT -1` and `4DX +1 --vul`.
    for words, expected in ((["3NT", "-1"], -50), (["4DX", "+1", "--vul"], 910)):
        done = subprocess.run(
            [str(Path(sys.executable).parent / "bridgescore"), "score", *words, "--json"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["score"] == expected


# -- issue 46: the vulnerability as a word, the nearest option ----------------------------------


@pytest.mark.parametrize(
    ("words", "vulnerable", "total"),
    [
        (["3NT-1", "vul"], True, -100),  # Law 77: one down vulnerable, undoubled
        (["3NT", "-1", "nv"], False, -50),
        # 4DX+1 vulnerable: tricks 160, game 500, for the insult 50, the overtrick 200.
        (["4DX", "+1", "vulnerable"], True, 910),
        (["3NT=", "NV", "--nv"], False, 400),  # the word and the flag agree
    ],
)
def test_a_trailing_vulnerability_word_as_in_score_files(
    words: list[str], vulnerable: bool, total: int
) -> None:
    result = runner.invoke(app, ["score", *words, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["vulnerable"], data["score"]) == (vulnerable, total)


def test_a_vulnerability_word_that_disagrees_with_the_flag_is_an_error() -> None:
    result = runner.invoke(app, ["score", "3NT-1", "vul", "--nv"])
    assert result.exit_code == 2
    assert "--nv and the word vul in '3NT-1 vul' disagree" in result.stderr


@pytest.mark.parametrize(
    ("words", "suggested"),
    [
        (["score", "3NT-1", "--vulnerable"], "--vul"),  # it said --table
        (["simulate", "--vulnerable", "NS"], "--vul"),  # the parser's own error
        (["deal", "--seeds", "3"], "--seed"),
    ],
)
def test_a_mistyped_option_suggests_the_option_it_starts_with(
    words: list[str], suggested: str
) -> None:
    result = runner.invoke(app, words)
    assert result.exit_code == 2
    assert f"(did you mean {suggested}?)" in result.stderr
