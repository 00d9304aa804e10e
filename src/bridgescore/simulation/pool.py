"""Running picklable tasks in order: in this process, on a process pool or on Dask.

Results come back in task order with at most a few tasks in flight per worker,
so memory stays flat however many tasks there are. Work is always described by
text and numbers; with ``scheduler`` (a ``tcp://`` address or a
``distributed.Client``) the same function goes to Dask's ``Client.map`` and its
results come back to this process (workers write nothing). The connection, the
lost-worker rule and cancelling are :mod:`bridgescore.distributed`'s, shared with
the par study: a worker that dies costs only the tasks it held, rerun elsewhere.
"""

from __future__ import annotations

import concurrent.futures as futures
import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from functools import partial
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from bridgescore.dealer.dealing import DEALS_PER_CHUNK, DealSpec, deal_chunk

__all__ = ["dealt_chunks", "default_processes", "run_ordered"]

T = TypeVar("T")
R = TypeVar("R")


def default_processes() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def run_ordered(
    function: Callable[[T], R],
    tasks: Sequence[T],
    *,
    processes: int = 1,
    scheduler: Any = None,
) -> Generator[R, None, None]:
    """``function(task)`` for each task, yielded in task order.

    ``processes`` 1 runs here; more uses a process pool (``0``: one per core).
    Closing the iterator early (or Ctrl-C while it waits) cancels tasks not started.
    """
    if scheduler is not None:
        yield from _run_dask(function, tasks, scheduler)
        return
    workers = default_processes() if processes == 0 else processes
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield function(task)
        return
    # "spawn" keeps DDS's threads and numpy's state out of forked children.
    context = multiprocessing.get_context("spawn")
    with futures.ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending: deque[futures.Future[R]] = deque()
        queue = iter(tasks)
        try:
            for task in queue:
                pending.append(pool.submit(function, task))
                if len(pending) >= 2 * workers:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()
            pool.shutdown(wait=False, cancel_futures=True)


def _run_dask(function: Callable[[T], R], tasks: Sequence[T], scheduler: Any) -> Iterator[R]:
    # The par study's connection, lost-worker and cancelling rules: one path for both.
    from bridgescore.distributed import cancel_tasks, connect_scheduler, task_result

    client, owned = connect_scheduler(scheduler)
    try:
        window = max(2, 2 * sum(client.nthreads().values()))
        pending: deque[Any] = deque()
        try:
            for task in tasks:
                pending.append(client.submit(function, task, pure=False))
                if len(pending) >= window:
                    yield task_result(pending.popleft())
            while pending:
                yield task_result(pending.popleft())
        finally:
            cancel_tasks(client, list(pending))
    finally:
        if owned:
            client.close()


def _deal_one(spec_json: str, seed: int, chunk_and_size: tuple[int, int]) -> npt.NDArray[np.int8]:
    chunk, size = chunk_and_size
    return deal_chunk(DealSpec.from_json(spec_json), seed, chunk, size)[0]


def dealt_chunks(
    count: int,
    *,
    seed: int,
    where: str = "",
    predeal: Sequence[str] = (),
    processes: int = 1,
    scheduler: Any = None,
) -> Iterator[npt.NDArray[np.int8]]:
    """Owner arrays of ``count`` deals under a condition, chunk after chunk, in order.

    The same deals as :func:`bridgescore.dealer.dealing.iter_deal_chunks`, dealt by
    ``processes`` processes (or on Dask).
    """
    spec = DealSpec(where, tuple(predeal))
    spec.plan()  # report a bad condition or predeal here, not in a worker
    sizes = [
        (chunk, min(DEALS_PER_CHUNK, count - first))
        for chunk, first in enumerate(range(0, count, DEALS_PER_CHUNK))
    ]
    yield from run_ordered(
        partial(_deal_one, spec.to_json(), seed), sizes, processes=processes, scheduler=scheduler
    )
