"""SQLite storage: transactions, idempotent re-import, conflicts never silently replaced."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from bridgescore.ddtable import DDTable
from bridgescore.deal import Deal
from bridgescore.errors import RecordError
from bridgescore.session.scoring.event import Adjusted, Board, TableResult
from bridgescore.session.store.events import EventStore, Origin
from bridgescore.session.store.live import LiveStore

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


# ------------------------------------------------------------- schema 4 (live sessions)


def version_3_file(path: Path) -> None:
    """An event file as bridgescore wrote it before movements and live sessions
    (schema 3): an audit log without its 'who' column, one correction in it."""
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
        CREATE TABLE audit (entry INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL,
            action TEXT NOT NULL, section TEXT NOT NULL, board INTEGER NOT NULL,
            ns TEXT NOT NULL, ew TEXT NOT NULL, old_variant TEXT NOT NULL,
            old_outcome TEXT NOT NULL, new_variant TEXT NOT NULL, new_outcome TEXT NOT NULL,
            source TEXT NOT NULL, line INTEGER NOT NULL, reason TEXT NOT NULL);
        CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
        CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
        INSERT INTO meta VALUES ('schema', '3'), ('name', 'Old club night');
        INSERT INTO results VALUES ('', 1, '1', '2', '', 'R:4SN+1', 'correction #1', 0);
        INSERT INTO audit VALUES (1, '2025-01-01T20:00:00+00:00', 'correct', '', 1, '1', '2',
            '', 'R:4SN=', '', 'R:4SN+1', '', 0, 'misscored');
        """
    )
    db.commit()
    db.close()


def test_a_schema_3_file_is_read_as_it_is(tmp_path: Path) -> None:
    event = tmp_path / "old.db"
    version_3_file(event)
    original = event.read_bytes()
    with LiveStore(event, mode="read") as store:
        [entry] = store.audit_log()
        assert (entry.old, entry.new, entry.reason, entry.who) == ("4SN=", "4SN+1", "misscored", "")
        assert store.movement is None and store.table_token_digests() == {}
        assert store.director_password is None and not store.closed
    assert event.read_bytes() == original


def test_a_schema_3_file_is_upgraded_when_opened_for_writing(tmp_path: Path) -> None:
    from live_movements import three_table_mitchell

    event = tmp_path / "old.db"
    version_3_file(event)
    with LiveStore(event, mode="write") as store:
        assert store.movement is None
        store.set_movement(three_table_mitchell())
        store.enter(TableResult.played(3, "5", "6", "3NTS="), who="table 2")
    db = sqlite3.connect(event)
    assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("5",)
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"table_tokens", "director_logins", "leads"} <= tables
    # The old entry kept, and still append-only after the column was added.
    rows = db.execute("SELECT entry, who, reason FROM audit ORDER BY entry").fetchall()
    assert rows == [(1, "", "misscored"), (2, "table 2", "")]
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("DELETE FROM audit WHERE entry = 1")
    db.close()
    with LiveStore(event, mode="read") as store:
        assert store.movement == three_table_mitchell()
        assert [(e.action, e.who, e.old, e.new) for e in store.audit_log()] == [
            ("correct", "", "4SN=", "4SN+1"),
            ("enter", "table 2", "", "3NTS="),
        ]
        assert str(store.audit_log()[1]).endswith(
            "enter by table 2: board 3 5 v 6: (none) -> 3NTS="
        )


def test_a_not_played_board_stays_in_the_file_and_out_of_the_results(tmp_path: Path) -> None:
    with LiveStore(tmp_path / "e.db") as store:
        store.enter(TableResult.played(1, "1", "2", "4SN="), who="table 1")
        entry = store.set_outcome(("", 1, "1", "2"), None, action="adjust", who="director")
        assert entry is not None and (entry.old, entry.new) == ("4SN=", "not played")
        assert store.results() == []
        assert store.stored_outcomes() == {("", 1, "1", "2"): "not played"}
        assert store.load().results == ()
        # An import of the same pairs on the board is a conflict naming what is stored.
        report = store.add_results([(TableResult.played(1, "1", "2", "4SN="), Origin("t.csv", 2))])
        assert [c.stored for c in report.conflicts] == ["not played"]
        with pytest.raises(RecordError, match="marked not played"):
            store.stored_result(("", 1, "1", "2"))
