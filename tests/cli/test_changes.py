"""``bridgescore session add-pair`` and ``session swap``: what they print, their JSON and
their refusals (exit 1, the JSON error object with --json)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.session.store.live import LiveStore

runner = CliRunner()


def new_event(path: Path, *options: str) -> None:
    made = runner.invoke(app, ["session", "new", str(path), *options])
    assert made.exit_code == 0, made.output


def test_add_pair_prints_the_pairs_rounds(tmp_path: Path) -> None:
    event = tmp_path / "club.db"
    new_event(event, "--movement", "mitchell", "-t", "7", "-b", "2", "--pairs", "13")
    answer = runner.invoke(
        app, ["session", "add-pair", str(event), "--from-round", "5", "--name", "Ann & Bob"]
    )
    assert answer.exit_code == 0, answer.output
    # 7E: table 4 in round 5 (set 1), table 5 in round 6 (set 3), table 6 in round 7 (set 5).
    assert answer.output == (
        "pair 7E (Ann & Bob) joins at round 5:\n"
        "  round 5: table 4, 4N NS v 7E EW, boards 1, 2\n"
        "  round 6: table 5, 5N NS v 7E EW, boards 5, 6\n"
        "  round 7: table 6, 6N NS v 7E EW, boards 9, 10\n"
    )
    log = runner.invoke(app, ["session", "log", str(event)])
    assert "add-pair by director (command line): section A pair 7E (Ann & Bob) joins at " in (
        log.output
    )


def test_add_pair_prints_a_new_tables_link_once(tmp_path: Path) -> None:
    event = tmp_path / "howell.db"
    new_event(event, "--movement", "howell", "--pairs", "5", "-b", "3",
              "--url-base", "https://club.example")  # fmt: skip
    answer = runner.invoke(app, ["session", "add-pair", str(event), "--from-round", "4"])
    assert answer.exit_code == 0, answer.output
    lines = answer.output.splitlines()
    assert lines[0] == "pair 6 joins at round 4:"
    assert lines[-2] == "new table links (shown only now; the event keeps only a hash of each):"
    assert lines[-1].startswith("  A3   https://club.example/table?token=")


def test_add_pair_json_and_refusals(tmp_path: Path) -> None:
    event = tmp_path / "club.db"
    new_event(event, "--movement", "mitchell", "-t", "3", "-b", "2", "--pairs", "5")
    answer = runner.invoke(app, ["session", "add-pair", str(event), "--from-round", "2", "--json"])
    assert answer.exit_code == 0, answer.output
    # 3E (missing from the 5-pair Mitchell) is at table r - 1 in round r; table t plays
    # set (t + r - 2) mod 3 + 1: set 2 at table 1 in round 2, set 1 at table 2 in round 3.
    assert json.loads(answer.output) == {
        "section": "A", "pair": "3E", "name": None, "from_round": 2,
        "rows": [{"round": 2, "table": 1, "ns": "1N", "ew": "3E", "boards": [3, 4]},
                 {"round": 3, "table": 2, "ns": "2N", "ew": "3E", "boards": [1, 2]}],
        "new_tables": [],
    }  # fmt: skip
    again = runner.invoke(app, ["session", "add-pair", str(event), "--from-round", "1", "--json"])
    assert again.exit_code == 1
    assert json.loads(again.stdout)["error"] == (
        "the movement's empty place is taken: pair 3E joined at round 2"
    )
    other = tmp_path / "even.db"
    new_event(other, "--movement", "mitchell", "-t", "3", "-b", "2")
    refused = runner.invoke(app, ["session", "add-pair", str(other), "--from-round", "9"])
    assert refused.exit_code == 1
    assert "the late pair's first round must be a whole number from 1 to 3, got 9" in (
        refused.output
    )
    missing = runner.invoke(app, ["session", "add-pair", str(tmp_path / "no.db"),
                                  "--from-round", "1"])  # fmt: skip
    assert missing.exit_code == 1 and "is not an event file" in missing.output


def test_swap_and_swap_back(tmp_path: Path) -> None:
    event = tmp_path / "club.db"
    new_event(event, "--movement", "mitchell", "-t", "3", "-b", "2")
    answer = runner.invoke(app, ["session", "swap", str(event), "--table", "2", "--round", "3"])
    assert answer.exit_code == 0, answer.output
    # Round 3, table 2: 2N v 3E on set 1 (boards 1, 2).
    assert answer.output == "table A2 round 3: now 3E NS v 2N EW\n"
    again = runner.invoke(
        app, ["session", "swap", str(event), "--table", "2", "--round", "3", "--json"]
    )
    assert json.loads(again.output) == {
        "section": "A", "round": 3, "table": 2, "ns": "2N", "ew": "3E", "boards": [1, 2],
        "relabelled": [],
    }  # fmt: skip
    with LiveStore(event, mode="read") as store:
        assert [e.action for e in store.audit_log()] == ["swap", "swap"]
    refused = runner.invoke(app, ["session", "swap", str(event), "--table", "4", "--round", "1"])
    assert refused.exit_code == 1
    assert "error: table must be a whole number from 1 to 3, got 4" in refused.output
