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


def test_a_pbn_date_tag_is_kept(tmp_path: Path) -> None:
    # online_teams.pbn: [Date "2026.11.20"] on every game.
    with EventStore(tmp_path / "e.db") as store:
        import_files(store, [DATA / "online_teams.pbn"])
        assert store.date == "2026-11-20"


@pytest.mark.parametrize(
    ("written", "kept", "noted"),
    [
        ("2026.03.02", "2026-03-02", False),
        ("2026.??.??", "", False),  # PBN's unknown: nothing to keep, nothing to say
        ("?", "", False),
        ("2026.11.??", "", False),  # only part of a date: PBN's way to say so
        ("2026.02.30", "", True),  # no such day
    ],
)
def test_a_pbn_date_is_read_as_pbn_writes_it(
    tmp_path: Path, written: str, kept: str, noted: bool
) -> None:
    path = tmp_path / "night.pbn"
    path.write_text(
        f'[Event "Club"]\n[Date "{written}"]\n[Board "1"]\n[Deal "N:AKQJ.AKQ.AKQ.AKQ '
        '5432.5432.5432.5 T987.T987.T987.T 6.J6.J6.J98765432"]\n'
        '[Declarer "N"]\n[Contract "3NT"]\n[Result "9"]\n[North "1"]\n[East "2"]\n\n',
        encoding="utf-8",
    )
    with EventStore(tmp_path / "e.db") as store:
        report = import_files(store, [path])
        assert store.date == kept
    said = [note for note in report.notes if "is not a date" in note]
    assert bool(said) == noted
    if noted:
        assert said[0] == (
            f"{path}: Date '{written}' is not a date: expected year.month.day "
            "(2026.11.20); the event is left undated (give --date)"
        )
