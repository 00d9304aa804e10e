"""Simulated seasons: reproducible, real events, and written to event files."""

from __future__ import annotations

from pathlib import Path

import pytest

from bridgescore.errors import InvalidArgumentError
from bridgescore.season.simulate import simulated_season, write_season
from bridgescore.season.summary import read_event_summary
from bridgescore.session.scoring.event import Event


def test_a_seed_gives_the_same_season() -> None:
    one, two = (
        simulated_season(players=8, sessions=2, seed=5),
        simulated_season(players=8, sessions=2, seed=5),
    )
    assert one == two
    assert one != simulated_season(players=8, sessions=2, seed=6)


def test_each_session_seats_every_player_once() -> None:
    season = simulated_season(players=12, sessions=3, seed=1)
    assert season.dates == ("2026-01-05", "2026-01-12", "2026-01-19")
    for event in season.events:
        assert isinstance(event, Event)
        seated = sorted(m.number for players in event.members.values() for m in players)
        assert seated == sorted(season.strengths)
        # A 3-table Mitchell: 3 rounds of 3 boards, each board at every table.
        assert len(event.results) == 3 * 3 * 3


def test_written_events_read_back_dated(tmp_path: Path) -> None:
    season = simulated_season(players=8, sessions=2, seed=2)
    paths = write_season(season, tmp_path / "season")
    assert [p.name for p in paths] == ["session-01.db", "session-02.db"]
    register = (tmp_path / "season" / "players.csv").read_text().splitlines()
    assert register[0] == "number,name" and len(register) == 9
    assert register[1] == f"{min(season.strengths)},Player {min(season.strengths)}"
    summary = read_event_summary(paths[1])
    assert summary.date == "2026-01-12" and len(summary.places) == 4


def test_a_player_count_that_fills_no_tables_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="multiple of 4"):
        simulated_season(players=10)
