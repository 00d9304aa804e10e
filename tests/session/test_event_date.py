"""The day an event was played: kept by the event file, from the files or the shell."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.errors import RecordError
from bridgescore.session.importers.bws import bws_event
from bridgescore.session.importers.importer import import_files
from bridgescore.session.store.events import EventStore

DATA = Path(__file__).parents[1] / "data"
runner = CliRunner()


def test_a_usebio_date_is_kept(tmp_path: Path) -> None:
    with EventStore(tmp_path / "e.db") as store:
        assert store.date == ""
        import_files(store, [DATA / "usebio_pairs.xml"])  # <DATE>16/11/2026</DATE>
        assert store.date == "2026-11-16"
        # A date the event has is kept: the next file does not change it.
        import_files(store, [DATA / "usebio_teams.xml"])
        assert store.date == "2026-11-16"


def test_a_bridgemate_sessions_date() -> None:
    tables = {"Session": [{"ID": 1, "Name": "Club", "Date": "2026-01-19 00:00:00"}]}
    assert bws_event(tables, "club.bws").date == "2026-01-19"
    odd = bws_event({"Session": [{"ID": 1, "Date": "soon"}]}, "club.bws")
    assert odd.date == "" and "Date 'soon' is not a date" in odd.parsed.notes[0]


def test_set_info_checks_the_date(tmp_path: Path) -> None:
    with EventStore(tmp_path / "e.db") as store:
        store.set_info(date=" 2026-03-02 ")
        assert store.date == "2026-03-02"
        with pytest.raises(RecordError, match="the event's date '2026-02-30' is not a date"):
            store.set_info(date="2026-02-30")


def test_the_shell_gives_the_date(tmp_path: Path) -> None:
    event = tmp_path / "e.db"
    result = runner.invoke(
        app,
        [
            "session",
            "import",
            str(event),
            str(DATA / "session_mitchell.csv"),
            "--date",
            "2026-11-17",
        ],
    )
    assert result.exit_code == 0
    with EventStore(event, mode="read") as store:
        assert store.date == "2026-11-17"
    result = runner.invoke(
        app,
        [
            "session",
            "import",
            str(event),
            str(DATA / "session_mitchell.csv"),
            "--date",
            "17/11/2026",
        ],
    )
    assert result.exit_code == 2 and "is not a date: expected year-month-day" in result.stderr


def test_a_new_event_is_dated_today_unless_told(tmp_path: Path) -> None:
    common = ["--movement", "mitchell", "--tables", "3", "--boards-per-round", "2", "--json"]
    today = datetime.now(UTC).date().isoformat()
    assert runner.invoke(app, ["session", "new", str(tmp_path / "a.db"), *common]).exit_code == 0
    told = ["session", "new", str(tmp_path / "b.db"), *common, "--date", "2026-03-02"]
    assert runner.invoke(app, told).exit_code == 0
    with (
        EventStore(tmp_path / "a.db", mode="read") as a,
        EventStore(tmp_path / "b.db", mode="read") as b,
    ):
        # The day the test started, or the next if it ran past midnight.
        assert a.date in (today, datetime.now(UTC).date().isoformat())
        assert b.date == "2026-03-02"
    bad = runner.invoke(app, ["session", "new", str(tmp_path / "c.db"), *common, "--date", "x"])
    assert bad.exit_code == 2 and not (tmp_path / "c.db").exists()
