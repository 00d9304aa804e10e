"""The club file: its register, events added once, players matched, a player's history."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bridgescore.errors import RecordError
from bridgescore.season.register import CLUB_SCHEMA, ClubFile, ClubMember
from bridgescore.season.roster import read_roster
from bridgescore.season.summary import read_event_summary
from season_events import NAMES_A, NAMES_B, PERCENT, RANK, REGISTER_CSV, make_event


def club_with_register(path: Path) -> Path:
    players, problems = read_roster(REGISTER_CSV.splitlines(), "players.csv")
    assert problems == []
    with ClubFile(path, name="Riverside") as club:
        club.update_players(players)
    return path


def test_a_new_club_file_has_its_schema_and_name(tmp_path: Path) -> None:
    path = tmp_path / "club.db"
    with ClubFile(path, name="Riverside") as club:
        assert club.name == "Riverside" and club.players() == {}
    meta = dict(sqlite3.connect(path).execute("SELECT key, value FROM meta").fetchall())
    assert meta == {"kind": "bridgescore club", "schema": CLUB_SCHEMA, "name": "Riverside"}
    with pytest.raises(RecordError, match="already exists"):
        ClubFile(path, name="Again")


def test_other_files_are_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"no club file 'missing\.db'"):
        ClubFile("missing.db", mode="read")
    event = make_event(tmp_path / "a.db", NAMES_A, name="A", date="2026-01-05")
    with pytest.raises(RecordError, match="is an event file: expected a club file"):
        ClubFile(event, mode="read")
    text = tmp_path / "notes.db"
    text.write_text("hello")
    with pytest.raises(RecordError, match="is not a club file"):
        ClubFile(text, mode="write")
    newer = tmp_path / "newer.db"
    ClubFile(newer, name="x").close()
    with sqlite3.connect(newer) as db:
        db.execute("UPDATE meta SET value = '9' WHERE key = 'schema'")
    with pytest.raises(RecordError, match="schema '9'"):
        ClubFile(newer, mode="read")


def test_players_are_added_then_updated(tmp_path: Path) -> None:
    path = club_with_register(tmp_path / "club.db")
    with ClubFile(path, mode="write") as club:
        report = club.update_players(
            [
                ClubMember("1010", "Ann Archer-Smith"),
                ClubMember("1011", "Bob Baker"),
                ClubMember("1099", "Zoe"),
            ]
        )
        assert (report.added, report.updated, report.unchanged) == (1, 1, 1)
        players = club.players()
    # A blank email keeps the one held; "2" sorts before "10" would, numbers in order.
    assert players["1010"] == ClubMember("1010", "Ann Archer-Smith", "ann@example.org")
    assert list(players)[:2] == ["1010", "1011"] and list(players)[-1] == "1099"


def test_roster_lines_with_problems_are_named() -> None:
    text = "name,number\nAnn,1\n,2\nBob,1\nCy,3,extra\n"
    players, problems = read_roster(text.splitlines(), "p.csv")
    assert players == [ClubMember("1", "Ann")]
    assert [str(p) for p in problems] == [
        "p.csv:3: no name: expected number,name",
        "p.csv:4: number '1' is given at line 2 already: a number is one player's",
        "p.csv:5: 3 cells where the header names 2 columns (name,number)",
    ]
    assert "expected the columns number and name" in str(read_roster(["pair,player"], "x")[1][0])


def test_an_event_is_added_once_and_its_players_matched(tmp_path: Path) -> None:
    path = club_with_register(tmp_path / "club.db")
    event = make_event(tmp_path / "a.db", NAMES_A, name="Monday", date="2026-01-05")
    with ClubFile(path, mode="write") as club:
        added = club.add_event(read_event_summary(event), str(event))
        assert added.status == "added" and added.pairs == 6
        # 10 players named; Hugh Hale matched by name; Jack Jonse and pair 3E unmatched.
        assert len(added.matched) == 9 and added.by_name == 1
        assert sorted((pair, m.member.name) for pair, m in added.unmatched) == [
            ("2E", "Jack Jonse"),
            ("3E", ""),
        ]
        why = {pair: m.why for pair, m in added.unmatched}
        assert why == {
            "2E": "no number given, and the name 'Jack Jonse' is not in the register",
            "3E": "the event names no players",
        }
        again = club.add_event(read_event_summary(event), str(event))
        assert again.status == "unchanged"
        copy = tmp_path / "copy.db"
        copy.write_bytes(event.read_bytes())
        assert club.add_event(read_event_summary(copy), str(copy)).status == "unchanged"
        sessions = club.sessions()
    assert len(sessions) == 1
    places = {pair.pair: pair for pair in sessions[0].pairs}
    assert {pair: p.percent for pair, p in places.items()} == PERCENT
    assert {pair: p.rank for pair, p in places.items()} == RANK
    assert places["1E"].numbers == ("1040", "1041")
    assert places["2E"].numbers == ("1050", "")
    assert {p.field for p in places.values()} == {"NS", "EW"}
    assert {p.field_size for p in places.values()} == {3}


def test_an_event_file_changed_since_replaces_what_was_kept(tmp_path: Path) -> None:
    path = club_with_register(tmp_path / "club.db")
    event = make_event(tmp_path / "a.db", NAMES_A, name="Monday", date="2026-01-05")
    with ClubFile(path, mode="write") as club:
        club.add_event(read_event_summary(event), str(event))
        from bridgescore.session.store.events import EventStore

        with EventStore(event, mode="write") as store:
            store.set_info(name="Monday (corrected)")
        assert club.add_event(read_event_summary(event), str(event)).status == "replaced"
        assert [s.name for s in club.sessions()] == ["Monday (corrected)"]
    # What was kept of the first reading is gone, not left beside the second.
    with sqlite3.connect(path) as db:
        counts = [
            db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("places", "seats")
        ]
    assert counts == [6, 10]


def test_a_later_register_matches_players_left_unmatched(tmp_path: Path) -> None:
    path = club_with_register(tmp_path / "club.db")
    event = make_event(tmp_path / "a.db", NAMES_A, name="Monday", date="2026-01-05")
    with ClubFile(path, mode="write") as club:
        club.add_event(read_event_summary(event), str(event))
        report = club.update_players([ClubMember("1052", "Jack Jonse")])
        assert report.rematched == 1
        assert {p.pair: p.numbers for p in club.sessions()[0].pairs}["2E"] == ("1050", "1052")


def test_a_players_history_gives_each_event(tmp_path: Path) -> None:
    path = club_with_register(tmp_path / "club.db")
    a = make_event(tmp_path / "a.db", NAMES_A, name="Monday", date="2026-01-05")
    b = make_event(tmp_path / "b.db", NAMES_B, name="Tuesday", date="2026-01-13")
    with ClubFile(path, mode="write") as club:
        # Added out of order: the history follows the days played.
        club.add_event(read_event_summary(b), str(b))
        club.add_event(read_event_summary(a), str(a))
        history = club.history("1030")  # Eve Ellis: 3N in A, 2N in B
        assert [
            (h.date, h.event, h.partners, h.percent, h.rank, h.field_size) for h in history
        ] == [
            ("2026-01-05", "Monday", ("Fred Ford",), 37.5, "2", 3),
            ("2026-01-13", "Tuesday", ("Bob Baker",), 87.5, "1", 3),
        ]
        # An unmatched partner is named as the event names them.
        assert [h.partners for h in club.history("1050")] == [("Jack Jonse",), ("Jack Jones",)]
        with pytest.raises(RecordError, match="player '999' is not in the register"):
            club.history("999")


def test_an_event_not_scored_in_matchpoints_is_refused(tmp_path: Path) -> None:
    from bridgescore.session.store.events import EventStore

    butler = tmp_path / "butler.db"
    make_event(butler, NAMES_A, name="Cup", date="2026-01-05")
    with EventStore(butler, mode="write") as store:
        store.set_info(method="butler")
    with pytest.raises(RecordError, match="scored by butler: the season ranks matchpoint"):
        read_event_summary(butler)


def test_an_undated_event_is_filed_under_its_files_day(tmp_path: Path) -> None:
    import os

    event = make_event(tmp_path / "a.db", NAMES_A, name="Monday", date="2026-01-05")
    from bridgescore.session.store.events import EventStore

    undated = tmp_path / "undated.db"
    with EventStore(undated) as store, EventStore(event, mode="read") as source:
        from bridgescore.session.store.events import Origin

        store.add_results([(r, Origin()) for r in source.results()])
    os.utime(undated, (1767225600, 1767225600))  # 2026-01-01 00:00 UTC
    summary = read_event_summary(undated)
    assert summary.date == "2026-01-01"
    assert "keeps no date: filed under 2026-01-01" in summary.notes[0]
