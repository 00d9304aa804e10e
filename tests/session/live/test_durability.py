"""Nothing acknowledged is lost: a live session killed mid-entry keeps every result it
acknowledged, and 30 tables entering at once meet no error ("database is locked" included).

Synchronised on what the processes and threads say (lines on a pipe, a barrier), never
on sleeps or timeouts.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

from bridgescore.notation import Result
from bridgescore.session.live.creation import create_event
from bridgescore.session.live.entry import ResultEntry
from bridgescore.session.live.event import LiveEvent
from bridgescore.session.store.events import EventStore
from live_movements import club_mitchell

SOURCE = Path(__file__).resolve().parents[3] / "src"

# Enters every board of the movement, round by round, and acknowledges each result on
# standard output once enter_result has returned (as the server's 201 would).
ENTERING = """
import sys
from bridgescore.notation import Result
from bridgescore.session.live.event import LiveEvent
from bridgescore.session.live.entry import ResultEntry

live = LiveEvent(sys.argv[1])
movement = live.movement
for row in movement.rows:
    for board in row.boards:
        entry = ResultEntry(row.round, board, Result.parse("3NTS="))
        score = live.enter_result(movement.section, row.table, entry, who=f"table {row.table}")
        print(row.table, row.round, board, score, flush=True)
print("done", flush=True)
"""

# Law 2's vulnerability of boards 1-16 (then again from 17): None, NS, EW or Both.
VULNERABLE = [
    "-",
    "NS",
    "EW",
    "B",
    "NS",
    "EW",
    "B",
    "-",
    "EW",
    "B",
    "-",
    "NS",
    "B",
    "-",
    "NS",
    "EW",
]


def three_nt_making(board: int) -> int:
    """3NT by South making nine tricks: 100 + 500 game bonus vulnerable, 300 not."""
    return 600 if VULNERABLE[(board - 1) % 16] in ("NS", "B") else 400


def test_a_kill_9_loses_no_acknowledged_result(tmp_path: Path) -> None:
    event = create_event(tmp_path / "club.db", club_mitchell(7, 3, rounds=7)).event
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        [str(SOURCE), *filter(None, [environment.get("PYTHONPATH")])]
    )
    child = subprocess.Popen(
        [sys.executable, "-c", ENTERING, event],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    acknowledged: list[tuple[int, int, int, int]] = []
    assert child.stdout is not None
    try:
        for line in child.stdout:
            assert line.strip() != "done", "the child finished before it was killed"
            table, round_number, board, score = map(int, line.split())
            acknowledged.append((table, round_number, board, score))
            if len(acknowledged) == 40:
                break
    finally:
        child.kill()  # SIGKILL: no clean-up of any kind in the child
        child.wait()
        child.stdout.close()
        assert child.stderr is not None
        child.stderr.close()
    assert len(acknowledged) == 40
    assert all(score == three_nt_making(board) for _, _, board, score in acknowledged)

    db = sqlite3.connect(event)
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    db.close()
    with LiveEvent(event) as live:
        for table, round_number, board, _ in acknowledged:
            view = live.table_view("A", table)
            this_round = view.round_of(round_number)
            assert this_round is not None and board in this_round.entered, (
                table,
                round_number,
                board,
            )
        entered = len(live.audit())
        # The evening resumes where every table was: the rest can be entered.
        remaining = 0
        for row in live.movement.rows:
            done = live.table_view("A", row.table).rounds[row.round - 1].entered
            for board in row.boards:
                if board not in done:
                    entry = ResultEntry(row.round, board, Result(None))
                    live.enter_result("A", row.table, entry, who=f"table {row.table}")
                    remaining += 1
        assert entered >= 40 and entered + remaining == 7 * 7 * 3
        assert live.progress()[0].current_round is None


def test_30_tables_entering_at_once_meet_no_error(tmp_path: Path) -> None:
    event = create_event(tmp_path / "club.db", club_mitchell(30, 3, rounds=3)).event
    errors: list[BaseException] = []
    start = threading.Barrier(30 + 2)

    with LiveEvent(event) as live:
        movement = live.movement

        def table(number: int) -> None:
            start.wait()
            try:
                for row in movement.rows:
                    if row.table != number:
                        continue
                    for board in row.boards:
                        entry = ResultEntry(row.round, board, Result.parse("4SN="))
                        live.enter_result("A", number, entry, who=f"table {number}")
            except BaseException as error:
                errors.append(error)

        def director() -> None:
            # The director's pages read while the tables write.
            start.wait()
            try:
                for _ in range(5):
                    live.progress()
                    live.ranking()
            except BaseException as error:
                errors.append(error)

        threads = [threading.Thread(target=table, args=(n,)) for n in range(1, 31)]
        threads += [threading.Thread(target=director) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert len(live.audit()) == 30 * 3 * 3
        assert all(table.current_round is None for table in live.progress())
    with EventStore(event, mode="read") as store:
        assert len(store.results()) == 270


def test_two_servers_on_one_event_file_queue_instead_of_failing(tmp_path: Path) -> None:
    # Two LiveEvent objects (two connections, as two server processes would have) write
    # at once: SQLite's busy timeout makes the second wait for the first's commit.
    event = create_event(tmp_path / "club.db", club_mitchell(5, 2, rounds=3)).event
    errors: list[BaseException] = []
    start = threading.Barrier(2)
    with LiveEvent(event) as first, LiveEvent(event) as second:

        def enter(live: LiveEvent, tables: tuple[int, ...]) -> None:
            start.wait()
            try:
                for row in live.movement.rows:
                    if row.table in tables:
                        for board in row.boards:
                            entry = ResultEntry(row.round, board, Result(None))
                            live.enter_result("A", row.table, entry, who="t")
            except BaseException as error:
                errors.append(error)

        threads = [
            threading.Thread(target=enter, args=(first, (1, 2))),
            threading.Thread(target=enter, args=(second, (3, 4, 5))),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert errors == []
    with EventStore(event, mode="read") as store:
        assert len(store.results()) == 5 * 3 * 2
