"""``bridgescore session import|score|report`` end to end, on real SQLite files."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.session.store.events import EventStore

runner = CliRunner()
DATA = Path(__file__).parents[1] / "data"


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["session", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def test_import_score_and_report(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    code, out, err = run("import", db, DATA / "session_mitchell.csv", "--name", "Club night")
    assert code == 0, err
    assert "19 result(s) added" in out
    code, out, _ = run("import", db, DATA / "session_mitchell.csv", "--json")
    assert code == 0
    assert json.loads(out)["results_added"] == 0 and json.loads(out)["results_unchanged"] == 19

    code, out, _ = run("score", db)
    assert code == 0
    assert out.splitlines()[0] == "Club night - matchpoints"
    assert ["1", "3", "4", "24.6", "76.88"] in [line.split() for line in out.splitlines()]

    code, out, _ = run("score", db, "--method", "butler", "--json")
    data = json.loads(out)
    assert data["method"] == "butler" and "travellers" not in data
    assert {r["name"]: r["total"] for r in data["ranking"] if r["direction"] == "NS"}["1"] == 7

    html, lines_csv = tmp_path / "club.html", tmp_path / "lines.csv"
    code, out, _ = run("report", db, "--html", html, "--csv", lines_csv, "--no-par")
    assert code == 0 and f"wrote {html}" in out
    assert html.read_text().startswith("<!DOCTYPE html>")
    assert lines_csv.read_text().count("\n") == 20

    code, out, _ = run("report", db, "--json", "--no-par")
    assert len(json.loads(out)["travellers"]) == 4


def test_import_reports_bad_lines_and_exits_1(tmp_path: Path) -> None:
    code, out, err = run("import", tmp_path / "e.db", DATA / "session_bad.csv")
    assert code == 1
    assert "3 result(s) added" in out and "9 bad line(s)" in out
    assert f"{DATA / 'session_bad.csv'}:3:" in err and "18 tricks" in err


def test_conflicts_are_reported(tmp_path: Path) -> None:
    db = tmp_path / "e.db"
    first = tmp_path / "a.csv"
    first.write_text("1,1,2,4S,N,=\n")
    second = tmp_path / "b.csv"
    second.write_text("1,1,2,4S,N,+1\n")
    assert run("import", db, first)[0] == 0
    code, out, err = run("import", db, second)
    assert code == 1 and "1 conflict(s)" in out
    assert "conflict:" in err and "b.csv:1" in err and "a.csv:1" in err


def test_teams_match(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    assert run("import", db, DATA / "session_teams.csv", "--teams")[0] == 0
    code, out, _ = run("score", db)  # IMPs by default for teams
    assert code == 0 and ["1", "Lions", "4", "7", "1.75"] in [x.split() for x in out.splitlines()]
    code, out, _ = run("score", db, "-m", "bam")
    assert ["1", "Lions", "4", "3.5", "0.88"] in [x.split() for x in out.splitlines()]
    code, _, err = run("score", db, "-m", "mp")
    assert code == 1 and "teams event" in err


def test_report_with_par_from_hand_records(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    assert run("import", db, DATA / "session_mitchell.csv")[0] == 0
    hands = tmp_path / "hands.pbn"
    # Only board 2, whose table is in the file, so no solving is needed.
    text = (DATA / "session_hands.pbn").read_text()
    hands.write_text(text[text.index('[Event "Club night"]\n[Board "2"]') :])
    assert run("import", db, hands)[0] == 0
    code, out, _ = run("report", db, "--json")
    assert code == 0
    board2 = json.loads(out)["travellers"][1]
    assert board2["par"] == -1510
    # +650 against -1510: a difference of 2160, 19 IMPs.
    assert board2["results"][0]["imps_vs_par"] == 19


def test_usage_errors(tmp_path: Path) -> None:
    code, _, err = run("score", tmp_path / "none.db")
    assert code == 2 and "none.db" in err
    db = tmp_path / "e.db"
    run("import", db, DATA / "session_mitchell.csv")
    code, _, err = run("score", db, "--scale", "3/1")
    assert code == 2 and "'3/1'" in err
    code, _, err = run("score", db, "-m", "swiss")
    assert code == 2 and "'swiss'" in err


def test_import_reads_standard_input_once(tmp_path: Path) -> None:
    # '-' is read once: before, the check before the import took the data and the
    # import found standard input empty.
    db = tmp_path / "stdin.db"
    data = (DATA / "session_mitchell.csv").read_bytes()
    result = runner.invoke(app, ["session", "import", str(db), "-"], input=data)
    assert result.exit_code == 0, result.output
    with EventStore(db, mode="read") as store:
        piped = {str(r) for r in store.results()}
    db2 = tmp_path / "file.db"
    code, _, err = run("import", db2, DATA / "session_mitchell.csv")
    assert code == 0, err
    with EventStore(db2, mode="read") as store:
        from_file = {str(r) for r in store.results()}
    assert piped == from_file and len(piped) == 19
