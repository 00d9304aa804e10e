"""Correcting stored results on purpose: ``session correct``, ``session import --replace``
and the event's append-only audit log (schema 3), on real SQLite files."""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.errors import RecordError
from bridgescore.session.importers.csv import parse_table_result
from bridgescore.session.scoring.event import TableResult
from bridgescore.session.store import audit as audit_module
from bridgescore.session.store.events import EventStore, Origin

runner = CliRunner()
DATA = Path(__file__).parents[2] / "data"
# Five tables, boards 1-4; board 1 (none vulnerable) at all five tables:
#   1 v 6 3NTN+1 (+430), 2 v 7 3NTN= (+400), 3 v 8 4SE-1 (+50), 4 v 9 Pass, 5 v 10 -110.
MITCHELL = DATA / "session_mitchell.csv"


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["session", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def imported(tmp_path: Path) -> Path:
    event = tmp_path / "club.db"
    code, _, err = run("import", event, MITCHELL)
    assert code == 0, err
    return event


def board_1_matchpoints(event: Path) -> dict[tuple[str, str], float]:
    code, out, err = run("report", event, "--json", "--no-par")
    assert code == 0, err
    board = next(t for t in json.loads(out)["travellers"] if t["board"] == 1)
    return {(line["ns"], line["ew"]): line["ns_points"] for line in board["results"]}


def test_correct_changes_the_result_logs_it_and_reports_score_the_new_one(
    tmp_path: Path,
) -> None:
    event = imported(tmp_path)
    # Before: +430 beats the four others on a top of 8 (2 MP each): 8; +400 beats three: 6.
    before = board_1_matchpoints(event)
    assert (before[("1", "6")], before[("2", "7")]) == (8, 6)
    started = datetime.now(UTC).replace(microsecond=0)
    code, out, err = run(
        "correct", event, "1", "1", "6", "3NTN=", "--reason", "scorer's slip: 9 tricks"
    )
    assert code == 0, err
    assert out.strip() == f"{event}: board 1 1 v 6: 3NTN+1 -> 3NTN= (audit log entry #1)"
    # After: +400 twice: each beats +50, Pass and -110 (6) and ties the other (1): 7.
    after = board_1_matchpoints(event)
    assert (after[("1", "6")], after[("2", "7")]) == (7, 7)
    assert (after[("3", "8")], after[("4", "9")], after[("5", "10")]) == (4, 2, 0)

    code, out, _ = run("log", event, "--json")
    assert code == 0
    [entry] = json.loads(out)
    stamp = datetime.fromisoformat(entry.pop("at"))
    assert started <= stamp <= datetime.now(UTC)
    assert entry == {
        "entry": 1,
        "action": "correct",
        "section": "",
        "board": 1,
        "ns": "1",
        "ew": "6",
        "old": "3NTN+1",
        "new": "3NTN=",
        "source": None,
        "reason": "scorer's slip: 9 tricks",
        "who": "director (command line)",  # made from the shell, and the log says so
    }
    code, out, _ = run("log", event)
    assert re.fullmatch(
        r"#1 \S+ correct by director \(command line\): board 1 1 v 6: "
        r"3NTN\+1 -> 3NTN=: scorer's slip: 9 tricks\n",
        out,
    )


@pytest.mark.parametrize(
    ("words", "shown"),
    [
        (["4S", "E", "-2"], "4SE-2"),  # contract, declarer, result: the 6-field CSV line
        (["4S", "E", "8"], "4SE-2"),  # tricks taken
        (["4SE", "-2"], "4SE-2"),  # declarer inside the contract
        (["4SE-2"], "4SE-2"),  # a whole result
        (["+100"], "+100"),
        (["EW 50"], "-50"),
        (["Pass"], "Pass"),
        (["A+"], "A+/A-"),
    ],
)
def test_correct_takes_the_result_as_a_traveller_line_does(
    tmp_path: Path, words: list[str], shown: str
) -> None:
    event = imported(tmp_path)
    code, out, err = run("correct", event, "1", "3", "8", *words, "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert (answer["old"], answer["new"], answer["changed"]) == ("4SE-1", shown, True)


def test_correcting_to_the_stored_result_changes_nothing(tmp_path: Path) -> None:
    event = imported(tmp_path)
    code, out, _ = run("correct", event, "1", "2", "7", "3NT", "N", "=")
    assert code == 0
    assert out.strip() == f"{event}: board 1 2 v 7 already has 3NTN=: nothing changed"
    assert run("log", event)[1].strip() == f"{event}: no result has been changed"


def test_correct_refuses_what_it_cannot_find_or_read(tmp_path: Path) -> None:
    event = imported(tmp_path)
    code, _, err = run("correct", event, "1", "1", "7", "3NTN=")
    assert code == 2
    assert "no result of board 1 with NS '1' and EW '7'" in err
    assert "expected one of 1 v 6, 2 v 7, 3 v 8, 4 v 9, 5 v 10" in err
    code, _, err = run("correct", event, "9", "1", "6", "3NTN=")
    assert code == 2 and "the event has no board 9" in err
    code, _, err = run("correct", event, "x", "1", "6", "3NTN=")
    assert code == 2 and "board 'x' is not a board number" in err
    code, _, err = run("correct", event, "1", "1", "6", "4S+8")
    assert code == 2 and "'4S+8'" in err
    code, _, err = run("correct", event, "1", "1", "6", "4S", "N", "+1", "x")
    assert code == 2 and "'4S N +1 x' is not a result" in err
    code, _, err = run("correct", tmp_path / "missing.db", "1", "1", "6", "3NTN=")
    assert code == 2 and "no event in" in err and "missing.db" in err
    assert not (tmp_path / "missing.db").exists()
    assert run("log", event)[1].strip() == f"{event}: no result has been changed"


def test_a_fouled_boards_correction_keeps_its_version_unless_told(tmp_path: Path) -> None:
    with EventStore(tmp_path / "e.db") as store:
        store.add_results([(TableResult.played(2, "1", "5", "4SN=", variant="B"), Origin())])
    code, _, err = run("correct", tmp_path / "e.db", "2", "1", "5", "4SN+1")
    assert code == 0, err
    with EventStore(tmp_path / "e.db", mode="read") as store:
        assert store.results() == [TableResult.played(2, "1", "5", "4SN+1", variant="B")]
        log = store.audit_log()
    assert (log[0].old, log[0].new) == ("4SN= (fouled version 'B')", "4SN+1 (fouled version 'B')")


def test_import_replace_replaces_a_different_result_and_logs_it(tmp_path: Path) -> None:
    event = imported(tmp_path)
    fix = tmp_path / "fix.csv"
    fix.write_text("board,ns,ew,contract,declarer,result\n1,1,6,3NT,N,=\n", encoding="utf-8")
    code, out, err = run("import", event, fix)
    assert code == 1
    assert "conflicts with 3NTN+1" in err and "session correct" in err and "--replace" in err
    assert board_1_matchpoints(event)[("1", "6")] == 8  # kept: nothing replaced silently
    code, out, err = run("import", event, fix, "--replace")
    assert code == 0, err
    assert f"replaced: {fix}:2: board 1 1 v 6: 3NTN= replaces 3NTN+1 from {MITCHELL}:3" in err
    assert out.strip().endswith("0 conflict(s); 0 bad line(s); 1 replaced")
    assert board_1_matchpoints(event)[("1", "6")] == 7
    code, out, _ = run("log", event, "--json")
    [entry] = json.loads(out)
    assert (entry["action"], entry["old"], entry["new"]) == ("replace", "3NTN+1", "3NTN=")
    assert entry["source"] == f"{fix}:2"
    # Importing the same file again, with or without --replace, changes nothing more.
    assert run("import", event, fix, "--replace")[0] == 0
    assert run("import", event, fix)[0] == 0
    assert len(json.loads(run("log", event, "--json")[1])) == 1


def test_replace_never_moves_a_pair_seated_against_someone_else(tmp_path: Path) -> None:
    with EventStore(tmp_path / "e.db") as store:
        store.add_results([(TableResult.played(1, "1", "6", "3NTN+1"), Origin("a.csv", 2))])
        report = store.add_results(
            [(TableResult.played(1, "1", "7", "3NTN="), Origin("b.csv", 2))], replace=True
        )
        assert report.replaced == [] and len(report.conflicts) == 1
        assert store.results() == [TableResult.played(1, "1", "6", "3NTN+1")]
        assert store.audit_log() == []


def test_a_conflict_after_a_correction_names_the_log_entry() -> None:
    with EventStore(":memory:") as store:
        store.add_results([(TableResult.played(1, "1", "6", "3NTN+1"), Origin("a.csv", 2))])
        entry = store.correct(TableResult.played(1, "1", "6", "3NTN="), reason="slip")
        assert entry is not None and (entry.entry, entry.action) == (1, "correct")
        report = store.add_results(
            [(TableResult.played(1, "1", "6", "3NTN+1"), Origin("a.csv", 2))]
        )
        assert str(report.conflicts[0]) == (
            "a.csv:2: board 1 1 v 6: 3NTN+1 conflicts with 3NTN= from correction #1 (kept)"
        )


def test_the_audit_log_is_append_only_in_the_file_itself(tmp_path: Path) -> None:
    event = imported(tmp_path)
    assert run("correct", event, "1", "1", "6", "3NTN=")[0] == 0
    db = sqlite3.connect(event)
    for statement in ("UPDATE audit SET reason = 'nothing happened'", "DELETE FROM audit"):
        with pytest.raises(sqlite3.DatabaseError, match="the audit log is append-only"):
            db.execute(statement)
    assert db.execute("SELECT count(*) FROM audit").fetchone() == (1,)
    db.close()


def test_the_file_is_in_wal_mode_and_commits_are_synchronous(tmp_path: Path) -> None:
    event = imported(tmp_path)
    db = sqlite3.connect(event)
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    db.close()
    with EventStore(event, mode="write") as store:
        # 2 is FULL: the log is synced at every commit, so a result is on disk when
        # the import (or the correction) says so.
        assert store._db.execute("PRAGMA synchronous").fetchone() == (2,)


def version_2_file(path: Path) -> None:
    """An event file as bridgescore wrote it before the audit log (schema 2)."""
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE boards (number INTEGER PRIMARY KEY, deal TEXT, dd_tricks TEXT,
                             source TEXT, line INTEGER);
        CREATE TABLE results (section TEXT NOT NULL, board INTEGER NOT NULL,
            ns TEXT NOT NULL, ew TEXT NOT NULL, variant TEXT NOT NULL,
            outcome TEXT NOT NULL, source TEXT, line INTEGER,
            PRIMARY KEY (section, board, ns, ew));
        CREATE TABLE members (participant TEXT NOT NULL, position INTEGER NOT NULL,
            name TEXT NOT NULL, number TEXT NOT NULL, PRIMARY KEY (participant, position));
        INSERT INTO meta VALUES ('schema', '2'), ('name', 'Old club night');
        INSERT INTO results VALUES ('', 1, '1', '2', '', 'R:4SN=', 'old.csv', 2);
        INSERT INTO results VALUES ('', 1, '3', '4', '', 'R:4SN+1', 'old.csv', 3);
        """
    )
    db.commit()
    db.close()


def test_aversion_2_file_is_read_as_it_is_and_gets_the_log_when_corrected(
    tmp_path: Path,
) -> None:
    event = tmp_path / "old.db"
    version_2_file(event)
    original = event.read_bytes()
    # Reading changes nothing: no table added, no version bumped, no side file left.
    assert run("score", event)[0] == 0
    assert run("log", event)[1].strip() == f"{event}: no result has been changed"
    assert event.read_bytes() == original
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.db"]
    code, out, err = run("correct", event, "1", "1", "2", "4SN+1", "--reason", "misscored")
    assert code == 0, err
    db = sqlite3.connect(event)
    assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("5",)
    db.close()
    # 4SN+1 twice on a top of 2: a tie, 1 MP each (it was 0 and 2).
    code, out, _ = run("report", event, "--json", "--no-par")
    lines = json.loads(out)["travellers"][0]["results"]
    assert [(line["ns"], line["ns_points"]) for line in lines] == [("1", 1), ("3", 1)]
    assert json.loads(run("log", event, "--json")[1])[0]["reason"] == "misscored"


def test_a_newer_file_is_read_but_not_written(tmp_path: Path) -> None:
    event = tmp_path / "new.db"
    version_2_file(event)
    db = sqlite3.connect(event)
    with db:
        db.execute("UPDATE meta SET value = '9' WHERE key = 'schema'")
    db.close()
    assert run("score", event)[0] == 0
    code, _, err = run("correct", event, "1", "1", "2", "4SN+1")
    assert code == 2 and "version 9, newer than this bridgescore writes (5)" in err


def test_a_read_only_store_refuses_to_write(tmp_path: Path) -> None:
    event = imported(tmp_path)
    with EventStore(event, mode="read") as store:
        with pytest.raises(RecordError, match="open read-only"):
            store.correct(TableResult.played(1, "1", "6", "3NTN="))
        with pytest.raises(RecordError, match="open read-only"):
            store.set_info(name="x")


def test_parse_table_result_reads_the_fields_after_board_ns_ew() -> None:
    assert parse_table_result("3", "1", "8", ["4H", "W", "+1"]) == TableResult.played(
        3, "1", "8", "4HW+1"
    )
    # 60 % and 40 % of the board are average plus and average minus (Law 12C2).
    assert parse_table_result("3", "1", "8", ["60/40"]).describe() == "60/40"


def test_audit_entries_read_back_as_written() -> None:
    with EventStore(":memory:") as store:
        store.add_results([(TableResult(2, "1", "5", score=-100, section="A"), Origin())])
        store.correct(TableResult(2, "1", "5", score=-200, section="A"), reason="doubled")
        [entry] = store.audit_log()
    assert str(entry).endswith("correct: board 2 section A 1 v 5: -100 -> -200: doubled")
    assert audit_module.AuditEntry.__doc__


def test_correct_reads_minus_words_as_score_does(tmp_path: Path) -> None:
    # One rule for words starting with '-' (cli/words.py, issue 23): '-2' is part of the
    # result, a mistyped option is still a usage error naming it.
    event = imported(tmp_path)
    code, _, err = run("correct", event, "1", "3", "8", "4S", "E", "-2", "--reasn", "slip")
    assert code == 2
    assert "No such option: --reasn (did you mean --reason" in err
    code, out, err = run("correct", event, "1", "3", "8", "4S", "E", "-2", "--reason", "slip")
    assert code == 0, err
    assert "4SE-1 -> 4SE-2" in out
