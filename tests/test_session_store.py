"""SQLite storage: transactions, idempotent re-import, conflicts never silently replaced."""

from __future__ import annotations

import doctest
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from bridgescore.ddtable import DDTable
from bridgescore.deal import Deal
from bridgescore.errors import RecordError
from bridgescore.session import store as store_module
from bridgescore.session.event import Adjusted, Board, TableResult
from bridgescore.session.store import EventStore, Origin

R1 = TableResult.played(1, "1", "5", "4SN=")
R2 = TableResult.played(1, "2", "6", "3NTS+1", section="A")
R3 = TableResult(2, "1", "5", adjusted=Adjusted.parse("A+/A"))
R4 = TableResult(2, "2", "6", score=-1100, variant="fouled")
R5 = TableResult.played(3, "2", "6", "Pass")
ALL = [R1, R2, R3, R4, R5]
# Each hand one whole suit: A has N spades, E hearts, S diamonds, W clubs; B is A turned.
DEAL_A = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
DEAL_B = "N:.AKQJT98765432.. AKQJT98765432... ...AKQJT98765432 ..AKQJT98765432."


def at(line: int) -> Origin:
    return Origin("t.csv", line)


def test_round_trip_through_a_file(tmp_path: Path) -> None:
    path = tmp_path / "event.db"
    with EventStore(path) as store:
        store.set_info(name="Club", kind="pairs")
        report = store.add_results((r, at(i)) for i, r in enumerate(ALL, start=2))
        assert (report.added, report.unchanged, report.conflicts) == (5, 0, [])
        store.add_boards([(Board(1, Deal.from_pbn(DEAL_A)), at(1))])
    with EventStore(path) as store:
        event = store.load()
    assert event.name == "Club" and event.kind == "pairs"
    assert sorted(event.results, key=lambda r: r.key) == sorted(ALL, key=lambda r: r.key)
    assert event.boards[1] == Board(1, Deal.from_pbn(DEAL_A))  # values again, dd_table None


def test_importing_twice_adds_nothing(tmp_path: Path) -> None:
    with EventStore(tmp_path / "e.db") as store:
        store.add_results((r, at(1)) for r in ALL)
        again = store.add_results((r, at(1)) for r in ALL)
        assert (again.added, again.unchanged, again.conflicts) == (0, 5, [])
        count = store._db.execute("SELECT count(*) FROM results").fetchone()[0]
    assert count == 5


def test_a_different_result_is_a_conflict_and_the_stored_one_is_kept() -> None:
    with EventStore(":memory:") as store:
        store.add_results([(R1, Origin("first.csv", 3))])
        changed = TableResult.played(1, "1", "5", "4SN+1")
        report = store.add_results([(changed, Origin("second.csv", 7))])
        assert report.added == 0 and len(report.conflicts) == 1
        text = str(report.conflicts[0])
        assert "second.csv:7" in text and "first.csv:3" in text
        assert "4SN+1" in text and "4SN=" in text and "kept" in text
        assert store.results() == [R1]


def test_a_pair_cannot_play_a_board_twice_in_one_direction() -> None:
    with EventStore(":memory:") as store:
        store.add_results([(R1, at(2))])
        report = store.add_results([(TableResult.played(1, "1", "7", "4SN="), at(3))])
        assert len(report.conflicts) == 1 and "'1' already has a result" in str(report.conflicts[0])
        # Teams: the same two teams at the other table, directions swapped, is fine.
        other = store.add_results([(TableResult.played(1, "5", "1", "4SN="), at(4))])
        assert other.added == 1


def test_board_conflicts_and_updates() -> None:
    deal_a = Deal.from_pbn(DEAL_A)
    deal_b = Deal.from_pbn(DEAL_B)
    table = DDTable.parse("0d0d00d0d000d0d00d0d")
    with EventStore(":memory:") as store:
        assert store.add_boards([(Board(1, deal_a), at(1))]).added == 1
        assert store.add_boards([(Board(1, deal_a), at(1))]).unchanged == 1
        report = store.add_boards([(Board(1, deal_b), at(9))])
        assert len(report.conflicts) == 1 and "board 1 deal" in str(report.conflicts[0])
        # A known table can be added to a known deal, and cached.
        assert store.add_boards([(Board(1, deal_a, table), at(2))]).added == 1
        assert store.boards()[1] == Board(1, deal_a, table)
        # A solved table is cached as PBN DoubleDummyTricks.
        store.add_boards([(Board(2, deal_b), at(3))])
        store.set_dd_table(2, table)
        assert store.boards()[2] == Board(2, deal_b, table)
        stored = store._db.execute("SELECT deal, dd_tricks FROM boards WHERE number = 2").fetchone()
        assert stored == (DEAL_B, "0d0d00d0d000d0d00d0d")


def test_the_file_keeps_hand_records_as_pbn_text_and_reads_them_back_as_values(
    tmp_path: Path,
) -> None:
    path = tmp_path / "e.db"
    # A deal written loosely (lower case, East first) is stored in the strict form.
    loose = "E:.akqjt98765432.. ..AKQJT98765432. ...AKQJT98765432 AKQJT98765432..."
    with EventStore(path) as store:
        store.add_boards([(Board(1, Deal.from_pbn(loose)), at(1))])
        assert store._db.execute("SELECT deal FROM boards").fetchone() == (DEAL_A,)
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE boards SET deal = 'N:AKQ... x'")
    db.close()
    with EventStore(path) as store, pytest.raises(RecordError, match="board 1") as error:
        store.load()
    assert "'N:AKQ... x'" in str(error.value)


def test_a_failed_batch_is_rolled_back(tmp_path: Path) -> None:
    def records() -> Iterator[tuple[TableResult, Origin]]:
        yield R1, at(1)
        raise RuntimeError("disk gone")

    with EventStore(tmp_path / "e.db") as store:
        with pytest.raises(RuntimeError):
            store.add_results(records())
        assert store.results() == []


def test_not_an_event_file(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(RecordError, match=r"junk\.db"):
        EventStore(path)


def test_unreadable_stored_record(tmp_path: Path) -> None:
    path = tmp_path / "e.db"
    with EventStore(path) as store:
        store.add_results([(R1, at(1))])
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE results SET outcome = 'Q:nonsense'")
    db.close()
    with EventStore(path) as store, pytest.raises(RecordError, match="Q:nonsense"):
        store.load()


def test_kind_is_checked() -> None:
    with EventStore(":memory:") as store:
        assert (store.kind, store.name) == ("pairs", "")
        store.set_info(kind="teams")
        assert store.load().kind == "teams"
        with pytest.raises(RecordError, match="'rubber'"):
            store.set_info(kind="rubber")


def test_doctests() -> None:
    assert doctest.testmod(store_module).failed == 0
