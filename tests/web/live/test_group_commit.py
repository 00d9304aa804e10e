"""Group commit of the tables' results (issue 37 item 2): the results waiting in the live
event's queue are stored in one transaction, each checked as if it came alone, each
answered with its own score or its own refusal, and none lost when another is refused.

The movement is the 3-table Mitchell of tests/live_movements.py (round 1: table 1 1N v 1E
boards 1-2, table 2 2N v 2E boards 3-4, table 3 3N v 3E boards 5-6; round 2: table 1
1N v 3E boards 3-4). The scores are the Laws' (Law 77) for the board's vulnerability
(board 1 none, 2 NS, 3 EW, 4 both, 5 NS):

- board 1, 4S by N making 11 tricks, not vulnerable: 420 + 30 = +450;
- board 2, 2D by W making 9 tricks, EW not vulnerable: 60 + 50 = 110 to EW, -110;
- board 3, 3NT by S making, NS not vulnerable: 100 + 300 = +400;
- board 3, 1NT by N making, NS not vulnerable: 40 + 50 = +90;
- board 5, 4H by E two down, EW not vulnerable: 2 x 50 = +100 to NS.

The worker is held (a job waiting on an event) while results are queued, so they are
all waiting at once: no sleeps.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bridgescore.errors import (
    AlreadyEnteredError,
    NotThisTableError,
    RoundOpenError,
    SessionClosedError,
)
from bridgescore.session.live.entry import ResultEntry
from bridgescore.session.live.event import LiveEvent, TableEntry
from bridgescore.session.store.live import LiveStore
from live_pages_helpers import new_event, token_of


def entry(round_number: int, board: int, text: str) -> ResultEntry:
    contract, declarer, result = text.split()
    return ResultEntry.from_json(
        {
            "round": round_number,
            "board": board,
            "contract": contract,
            "declarer": declarer,
            "result": result,
        }
    )


def at(table: int, round_number: int, board: int, text: str) -> TableEntry:
    return TableEntry("A", table, entry(round_number, board, text), f"table {table}")


def on_disk(path: Path) -> dict[tuple[str, int, str, str], str]:
    """What a new connection reads from the file: what was committed."""
    with LiveStore(path, mode="read") as store:
        return store.stored_outcomes()


def audit_who(path: Path) -> list[tuple[str, str, int]]:
    with LiveStore(path, mode="read") as store:
        return [(e.who, e.action, e.board) for e in store.audit_log()]


@pytest.fixture()
def path(tmp_path: Path) -> Path:
    new_event(tmp_path / "club.db")
    return tmp_path / "club.db"


# ------------------------------------------------------------- the event's batch


def test_every_result_of_a_batch_is_stored_and_answered_with_its_own_score(path: Path) -> None:
    with LiveEvent(path) as live:
        answers = live.enter_results(
            [
                at(1, 1, 1, "4S N +1"),
                at(2, 1, 3, "3NT S ="),
                at(3, 1, 5, "4H E -2"),
                at(1, 1, 2, "2D W +1"),
            ]
        )
    assert answers == [450, 400, 100, -110]
    assert on_disk(path) == {
        ("", 1, "1N", "1E"): "4SN+1",
        ("", 3, "2N", "2E"): "3NTS=",
        ("", 5, "3N", "3E"): "4HE-2",
        ("", 2, "1N", "1E"): "2DW+1",
    }
    assert audit_who(path) == [
        ("table 1", "enter", 1),
        ("table 2", "enter", 3),
        ("table 3", "enter", 5),
        ("table 1", "enter", 2),
    ]


def test_a_refused_result_leaves_the_others_of_its_batch_stored(path: Path) -> None:
    with LiveEvent(path) as live:
        assert live.enter_result("A", 1, entry(1, 1, "4S N +1"), who="table 1") == 450
        answers = live.enter_results(
            [
                at(2, 1, 3, "3NT S ="),
                at(1, 1, 1, "3NT N ="),  # board 1 is already entered at table 1
                at(1, 2, 3, "1NT N ="),  # round 1's board 2 is still open at table 1
                at(3, 1, 5, "4H E -2"),
                at(4, 1, 1, "4S N ="),  # there is no table 4
            ]
        )
    assert answers[0] == 400 and answers[3] == 100
    assert isinstance(answers[1], AlreadyEnteredError)
    assert "board 1 1N v 1E already has 4SN+1" in str(answers[1])
    assert isinstance(answers[2], RoundOpenError)
    assert "round 1 is still open at table 1: board 2 has no result" in str(answers[2])
    assert isinstance(answers[4], NotThisTableError)
    assert on_disk(path) == {
        ("", 1, "1N", "1E"): "4SN+1",
        ("", 3, "2N", "2E"): "3NTS=",
        ("", 5, "3N", "3E"): "4HE-2",
    }
    assert audit_who(path) == [
        ("table 1", "enter", 1),
        ("table 2", "enter", 3),
        ("table 3", "enter", 5),
    ]


def test_a_tables_results_in_one_batch_are_checked_in_the_order_they_came(path: Path) -> None:
    with LiveEvent(path) as live:
        # Round 2 after round 1 in the same batch: round 1 is complete by then.
        assert live.enter_results(
            [at(1, 1, 1, "4S N +1"), at(1, 1, 2, "2D W +1"), at(1, 2, 3, "1NT N =")]
        ) == [450, -110, 90]
    assert on_disk(path)[("", 3, "1N", "3E")] == "1NTN="


def test_round_two_before_round_one_in_one_batch_is_refused_alone(path: Path) -> None:
    with LiveEvent(path) as live:
        answers = live.enter_results(
            [at(1, 2, 3, "1NT N ="), at(1, 1, 1, "4S N +1"), at(1, 1, 2, "2D W +1")]
        )
    assert isinstance(answers[0], RoundOpenError)
    assert "boards 1, 2 have no result" in str(answers[0])
    assert answers[1:] == [450, -110]
    assert set(on_disk(path)) == {("", 1, "1N", "1E"), ("", 2, "1N", "1E")}


def test_the_same_board_twice_in_a_batch_keeps_the_first(path: Path) -> None:
    with LiveEvent(path) as live:
        answers = live.enter_results([at(1, 1, 1, "4S N +1"), at(1, 1, 1, "3NT N =")])
    assert answers[0] == 450
    assert isinstance(answers[1], AlreadyEnteredError)
    assert on_disk(path) == {("", 1, "1N", "1E"): "4SN+1"}


def test_a_closed_session_refuses_the_whole_batch(path: Path) -> None:
    with LiveEvent(path) as live:
        live.close_session()
        answers = live.enter_results([at(1, 1, 1, "4S N +1"), at(2, 1, 3, "3NT S =")])
    assert [type(answer) for answer in answers] == [SessionClosedError, SessionClosedError]
    assert on_disk(path) == {}


# --------------------------------------------------------------- the worker's queue


class Held:
    """The worker thread held by a job waiting for :meth:`release`."""

    def __init__(self, worker: ThreadPoolExecutor) -> None:
        self._gate = threading.Event()
        started = threading.Event()

        def hold() -> None:
            started.set()
            self._gate.wait()

        worker.submit(hold)
        started.wait()

    def release(self) -> None:
        self._gate.set()


def counted(live: LiveEvent) -> list[int]:
    """The size of each batch ``live`` stores from now on."""
    sizes: list[int] = []
    enter_results = live.enter_results

    def counting(waiting: Sequence[TableEntry]) -> list[Any]:
        sizes.append(len(waiting))
        return enter_results(waiting)

    live.enter_results = counting  # type: ignore[method-assign]
    return sizes


def test_results_waiting_together_are_one_batch_each_with_its_own_answer(path: Path) -> None:
    from bridgescore.web.live.common import ResultQueue

    async def evening(live: LiveEvent, worker: ThreadPoolExecutor) -> list[Any]:
        queue = ResultQueue(live, worker)
        held = Held(worker)
        futures = [
            queue.put(at(1, 1, 1, "4S N +1")),
            queue.put(at(1, 1, 1, "3NT N =")),
            queue.put(at(2, 1, 3, "3NT S =")),
            queue.put(at(3, 1, 5, "4H E -2")),
        ]
        held.release()
        return await asyncio.gather(*futures, return_exceptions=True)

    with LiveEvent(path) as live, ThreadPoolExecutor(1) as worker:
        sizes = counted(live)
        answers = asyncio.run(evening(live, worker))
    assert sizes == [4]
    assert answers[0] == 450 and answers[2:] == [400, 100]
    assert isinstance(answers[1], AlreadyEnteredError)
    assert set(on_disk(path)) == {("", 1, "1N", "1E"), ("", 3, "2N", "2E"), ("", 5, "3N", "3E")}


def test_other_work_on_the_worker_closes_the_batch(path: Path) -> None:
    """A result queued after the director closes the session is stored after the close
    (refused), one queued before it is stored: the batch does not jump the queue."""
    from bridgescore.web.live.common import ResultQueue

    async def evening(live: LiveEvent, worker: ThreadPoolExecutor) -> list[Any]:
        queue = ResultQueue(live, worker)
        held = Held(worker)
        before = queue.put(at(1, 1, 1, "4S N +1"))
        queue.close_batch()
        closing = asyncio.get_running_loop().run_in_executor(worker, live.close_session)
        after = queue.put(at(2, 1, 3, "3NT S ="))
        held.release()
        return await asyncio.gather(before, closing, after, return_exceptions=True)

    with LiveEvent(path) as live, ThreadPoolExecutor(1) as worker:
        sizes = counted(live)
        before, _, after = asyncio.run(evening(live, worker))
    assert sizes == [1, 1]
    assert before == 450
    assert isinstance(after, SessionClosedError)
    assert on_disk(path) == {("", 1, "1N", "1E"): "4SN+1"}


def test_phones_posting_at_once_share_one_commit_over_http(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    import httpx

    from bridgescore.web.live.app import create_live_app
    from bridgescore.web.live.common import ResultQueue

    created = new_event(tmp_path / "club.db")
    app = create_live_app(tmp_path / "club.db")
    phones = {1: (1, 1, "4S N +1"), 2: (1, 3, "3NT S ="), 3: (1, 5, "4H E -2")}

    class Watched(ResultQueue):
        """Says when every phone's result is waiting in the queue."""

        def __init__(self) -> None:
            super().__init__(app.state.live, app.state.worker)
            self.all_waiting = asyncio.Event()
            self.waiting = 0

        def put(self, waiting: TableEntry) -> asyncio.Future[int]:
            future = super().put(waiting)
            self.waiting += 1
            if self.waiting == len(phones):
                self.all_waiting.set()
            return future

    async def evening() -> list[httpx.Response]:
        queue = app.state.results = Watched()
        held = Held(app.state.worker)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://club") as client:
            posts = [
                asyncio.create_task(
                    client.post(
                        "/api/live/results",
                        json=dict(zip(("round", "board"), (round_number, board), strict=True))
                        | dict(zip(("contract", "declarer", "result"), text.split(), strict=True)),
                        headers={"Authorization": f"Bearer {token_of(created, table)}"},
                    )
                )
                for table, (round_number, board, text) in phones.items()
            ]
            await queue.all_waiting.wait()
            held.release()
            return await asyncio.gather(*posts)

    sizes = counted(app.state.live)
    try:
        answers = asyncio.run(evening())
    finally:
        app.state.worker.shutdown(wait=True)
        app.state.live.close()
    assert sizes == [3]
    assert [(a.status_code, a.json()) for a in answers] == [
        (201, {"score_ns": 450}),
        (201, {"score_ns": 400}),
        (201, {"score_ns": 100}),
    ]
    assert len(on_disk(tmp_path / "club.db")) == 3
