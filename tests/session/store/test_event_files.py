"""Reading commands never write: ``session score|report|export|log`` open an existing
event read-only, create no file, and name the file that holds no event."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.errors import RecordError
from bridgescore.session.store.events import EventStore
from bridgescore.session.workflow import score_stored_event

runner = CliRunner()
DATA = Path(__file__).parents[2] / "data"
READERS = [["score"], ["report"], ["report", "--html", "out.html"], ["export", "-"], ["log"]]


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["session", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def digest(folder: Path) -> dict[str, str]:
    """Every file in the folder with a hash of its bytes."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


@pytest.mark.parametrize("command", READERS)
def test_an_empty_file_stays_empty(tmp_path: Path, command: list[str]) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    code, _, err = run(command[0], empty, *command[1:])
    assert code == 2
    assert f"no event in {str(empty)!r}: the file is empty" in err
    assert empty.read_bytes() == b""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.txt"]


@pytest.mark.parametrize("command", READERS)
def test_a_missing_file_is_not_created(tmp_path: Path, command: list[str]) -> None:
    missing = tmp_path / "club.db"
    code, _, err = run(command[0], missing, *command[1:])
    assert code == 2
    assert f"no event in {str(missing)!r}: the file does not exist" in err
    assert list(tmp_path.iterdir()) == []


def test_files_that_are_not_events_are_named_and_left_alone(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("board,ns,ew,score\n1,1,2,+420\n", encoding="utf-8")
    other = tmp_path / "other.sqlite"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE songs (title TEXT)")
    db.commit()
    db.close()
    before = digest(tmp_path)
    code, _, err = run("score", text)
    assert code == 2
    assert f"{str(text)!r} is not a bridgescore event file: it is not an SQLite database" in err
    code, _, err = run("report", other)
    assert code == 2
    assert f"{str(other)!r} is not a bridgescore event file: an SQLite database" in err
    assert "songs" in err
    code, _, err = run("score", tmp_path)
    assert code == 2 and "it is a directory" in err
    # Importing into another program's database is refused too: nothing is added to it.
    code, _, err = run("import", other, DATA / "session_mitchell.csv")
    assert code == 2 and "is not a bridgescore event file" in err
    assert digest(tmp_path) == before


def test_reading_an_event_changes_no_byte_and_leaves_no_side_file(tmp_path: Path) -> None:
    event = tmp_path / "club.db"
    assert run("import", event, DATA / "session_mitchell.csv")[0] == 0
    before = digest(tmp_path)
    assert before.keys() == {"club.db"}  # the WAL is folded back in when the import ends
    for command in (["score"], ["report", "--no-par"], ["report"], ["export", "-"], ["log"]):
        code, _, err = run(command[0], event, *command[1:])
        assert code == 0, err
    assert digest(tmp_path) == before


def test_a_report_caches_the_tables_it_solves_and_a_read_only_event_is_not_written(
    tmp_path: Path,
) -> None:
    pytest.importorskip("endplay")
    event = tmp_path / "club.db"
    assert run("import", event, DATA / "session_mitchell.csv", DATA / "session_hands.pbn")[0] == 0
    # Board 1's hand record has no DoubleDummyTricks: solving it is the one write a
    # report makes, and only to an event it may write.
    before = digest(tmp_path)
    with EventStore(event, mode="read") as store:
        scored = score_stored_event(store, pars="solve")
    assert f"1 double-dummy table(s) solved but not cached: {str(event)!r} is open read-only" in (
        scored.notes
    )
    assert digest(tmp_path) == before
    code, _, err = run("report", event)
    assert code == 0, err
    with EventStore(event, mode="read") as store:
        assert all(board.dd_table is not None for board in store.boards().values())


def test_import_into_a_missing_folder_names_it(tmp_path: Path) -> None:
    code, _, err = run("import", tmp_path / "nowhere" / "club.db", DATA / "session_mitchell.csv")
    assert code == 2
    assert f"there is no folder {str(tmp_path / 'nowhere')!r}" in err
    assert list(tmp_path.iterdir()) == []


def test_store_modes() -> None:
    with pytest.raises(RecordError, match="':memory:' holds no event"):
        EventStore(":memory:", mode="read")
    with pytest.raises(RecordError, match="unknown open mode 'append'"):
        EventStore(":memory:", mode="append")  # type: ignore[arg-type]


def test_the_web_pages_read_an_older_event_without_writing_it(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from bridgescore.web.app import WebSettings, create_app
    from session.store.test_corrections import version_2_file

    events = tmp_path / "events"
    events.mkdir()
    version_2_file(events / "old.db")  # named 'Old club night', no audit table
    before = digest(events)
    settings = WebSettings(events=events, solver_workers=1, warm_solver=False)
    with TestClient(create_app(settings)) as client:
        assert "Old club night" in client.get("/session").text
        assert client.get("/session/old.db").status_code == 200
        assert client.get("/results/old.db/index.html").status_code == 200
    assert digest(events) == before
