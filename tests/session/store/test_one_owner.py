"""One owner of an event file: a process that holds a connection to it never opens the file
except through SQLite (issue 43).

SQLite's locks are POSIX advisory locks: they belong to the process, and closing *any*
descriptor of the file drops every lock the process holds on it. A header check with a
plain ``open()`` in the live server (its second connection) once let the next process to
close its connection believe it was the last: it checkpointed and deleted the write-ahead
log under the server.
"""

from __future__ import annotations

import builtins
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app as cli_app
from bridgescore.errors import RecordError
from bridgescore.notation import Result
from bridgescore.session.live.creation import create_event
from bridgescore.session.live.entry import ResultEntry
from bridgescore.session.live.event import LiveEvent
from bridgescore.session.store.events import file_state, is_sqlite_file
from live_movements import three_table_mitchell

SOURCE = Path(__file__).resolve().parents[3] / "src"


@pytest.fixture()
def no_plain_open(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every plain open of a file whose name starts ``club.db`` in this process is
    recorded (and still made, so the code under test runs as it would)."""
    opened: list[str] = []

    def watched(real: Any) -> Any:
        def opening(file: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(file, str | os.PathLike) and Path(file).name.startswith("club.db"):
                opened.append(str(file))
            return real(file, *args, **kwargs)

        return opening

    monkeypatch.setattr(builtins, "open", watched(builtins.open))
    monkeypatch.setattr(io, "open", watched(io.open))
    monkeypatch.setattr(os, "open", watched(os.open))
    yield opened


def test_opening_and_using_a_live_event_opens_the_file_through_sqlite_alone(
    tmp_path: Path, no_plain_open: list[str]
) -> None:
    path = tmp_path / "club.db"
    create_event(path, three_table_mitchell(), name="Club")
    runner = CliRunner()
    with LiveEvent(path) as live:
        live.enter_result("A", 1, ResultEntry(1, 1, Result.parse("4SN=")), who="table 1")
        for words in (
            ["session", "score", str(path), "--json"],
            ["session", "report", str(path), "--json"],
            ["session", "log", str(path)],
            ["session", "correct", str(path), "1", "1N", "1E", "4SN+1"],
            ["session", "backup", str(path), str(tmp_path / "copy.db")],
        ):
            done = runner.invoke(cli_app, words)
            assert done.exit_code == 0, (words, done.output)
        live.ranking()
    assert no_plain_open == []


def test_a_shell_reader_closing_leaves_the_servers_log_in_place(tmp_path: Path) -> None:
    """The server's process holds the file; a real 'session log' process opens and closes
    it. The write-ahead log must still be there, and the server's later results with it."""
    path = tmp_path / "club.db"
    create_event(path, three_table_mitchell(), name="Club")
    environment = dict(os.environ, PYTHONPATH=str(SOURCE))
    with LiveEvent(path) as live:
        live.enter_result("A", 1, ResultEntry(1, 1, Result.parse("4SN=")), who="table 1")
        wal = path.with_name("club.db-wal")
        before = wal.stat().st_ino
        done = subprocess.run(
            [sys.executable, "-c", "from bridgescore.cli import main; main()", "session", "log",
             str(path)],
            capture_output=True, text=True, env=environment,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert wal.stat().st_ino == before  # not deleted (and made anew) under the server


def test_what_a_file_is_is_asked_of_sqlite(tmp_path: Path) -> None:
    assert file_state(tmp_path / "none.db") == "missing"
    (tmp_path / "empty.db").write_bytes(b"")
    assert file_state(tmp_path / "empty.db") == "empty"
    # SQLite reads a file shorter than one page as an empty database: not an event file.
    (tmp_path / "short.db").write_bytes(b"SQLite format 3\x00")
    (tmp_path / "text.db").write_text("board,ns,ew,result\n" * 40)
    for name in ("short.db", "text.db"):
        assert not is_sqlite_file(tmp_path / name)
        with pytest.raises(RecordError, match="it is not an SQLite database"):
            file_state(tmp_path / name)
    with pytest.raises(RecordError, match="it is a directory"):
        file_state(tmp_path)
    create_event(tmp_path / "club.db", three_table_mitchell(), name="Club")
    assert is_sqlite_file(tmp_path / "club.db")
    assert file_state(tmp_path / "club.db") == "sqlite"
