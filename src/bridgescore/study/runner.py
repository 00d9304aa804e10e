"""Running a par study: chunks dealt, solved (DDS), scored for par and written as shards.

:func:`compute_chunk` does one chunk from start to finish and returns only its
metadata; the local process pool (one DDS per process) and the Dask backend both
run that same function, so a chunk is the same wherever it is computed.
:func:`run_study` checks the directory, skips finished chunks, runs the rest and
reports progress through a callback.
"""

from __future__ import annotations

import concurrent.futures as futures
import contextlib
import fcntl
import multiprocessing
import os
import signal
import socket
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bridgescore.core import Vulnerability
from bridgescore.study.chunks import deal_chunk, plan_chunks
from bridgescore.study.errors import StudyError
from bridgescore.study.manifest import (
    MANIFEST_NAME,
    Manifest,
    check_compatible,
    load_manifest,
    save_manifest,
)
from bridgescore.study.shards import (
    LOCK_NAME,
    build_shard,
    remove_temporaries,
    scan_directory,
    write_shard,
)
from bridgescore.validate import is_whole_number

__all__ = [
    "ChunkResult",
    "ChunkTask",
    "Progress",
    "RunSummary",
    "compute_chunk",
    "default_workers",
    "run_study",
]

Progress = Callable[[int, int], None]
"""``progress(done_deals, total_deals)``, called as chunks advance."""


@dataclass(frozen=True, slots=True)
class ChunkTask:
    """Everything a worker needs to compute one chunk and write its shard."""

    directory: str
    seed: int
    chunk_size: int
    chunk: int
    deals: int
    threads: int = 1


@dataclass(frozen=True, slots=True)
class ChunkResult:
    """What comes back from a worker: metadata only, never the rows."""

    chunk: int
    deals: int
    seconds: float
    worker: str


def compute_chunk(task: ChunkTask, progress: Progress | None = None) -> ChunkResult:
    """Deal, solve, score par under the four vulnerabilities and write one shard.

    ``progress(done, total)`` reports deals solved within this chunk.
    """
    from bridgescore.pararray import par_array
    from bridgescore.solver import solve_many

    start = time.perf_counter()
    deals = deal_chunk(task.seed, task.chunk, task.deals)
    solved = solve_many(deals, threads=task.threads, progress=progress)
    tables = np.stack([table.to_array() for table in solved])
    pars = {vulnerability: par_array(tables, vulnerability) for vulnerability in Vulnerability}
    shard = build_shard(task.chunk, [deal.to_pbn() for deal in deals], tables, pars)
    write_shard(
        Path(task.directory),
        seed=task.seed,
        chunk_size=task.chunk_size,
        chunk=task.chunk,
        table=shard,
    )
    seconds = time.perf_counter() - start
    return ChunkResult(task.chunk, task.deals, seconds, f"{socket.gethostname()}:{os.getpid()}")


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


@dataclass(slots=True)
class RunSummary:
    """What a run did: chunks found finished, chunks computed now, time taken."""

    directory: Path
    manifest: Manifest
    chunks: int
    skipped: int = 0
    computed: int = 0
    deals_computed: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    removed_temporaries: int = 0

    @property
    def deals_per_second(self) -> float:
        return self.deals_computed / self.seconds if self.seconds > 0 else 0.0


@contextlib.contextmanager
def _locked(directory: Path) -> Iterator[None]:
    # One run per directory at a time: two would race on the same chunks.
    with (directory / LOCK_NAME).open("a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StudyError(
                f"{str(directory)!r} is in use by another `study run`; wait for it to finish"
            ) from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _open_study(directory: Path, *, deals: int, seed: int, chunk_size: int) -> Manifest:
    existing = load_manifest(directory)
    if existing is None:
        strangers = [p.name for p in directory.iterdir() if p.name != LOCK_NAME]
        if strangers:
            raise StudyError(
                f"{str(directory)!r} is not empty and holds no {MANIFEST_NAME} "
                f"(found {', '.join(sorted(strangers)[:3])}): give an empty or new directory"
            )
        manifest = Manifest(seed=seed, chunk_size=chunk_size, deals=deals)
        save_manifest(directory, manifest)
        return manifest
    check_compatible(existing, directory, seed=seed, chunk_size=chunk_size, deals=deals)
    if deals > existing.deals:
        extended = existing.extended(deals)
        save_manifest(directory, extended)
        return extended
    return existing


def run_study(
    directory: Path | str,
    *,
    deals: int,
    seed: int,
    chunk_size: int = 256,
    workers: int | None = None,
    scheduler: Any = None,
    threads: int = 1,
    progress: Progress | None = None,
    notice: Callable[[str], None] | None = None,
) -> RunSummary:
    """Run (or resume, or extend) the study in ``directory`` up to ``deals`` deals.

    ``workers`` processes each run one DDS with ``threads`` threads (default: one
    process per core). With ``scheduler`` (a ``tcp://host:port`` address or a
    ``distributed.Client``) the chunks go to that Dask cluster instead; its workers
    must see ``directory`` (shared storage). Problems found in the directory are
    passed to ``notice``. On KeyboardInterrupt, chunks in flight are abandoned,
    their temporary files removed, finished shards kept, and the interrupt re-raised.

    Raises :class:`StudyError` for a directory that cannot be used as asked.
    """
    from bridgescore.study.chunks import chunk_seed  # validates the seed early

    chunk_seed(seed, 0)
    planned = plan_chunks(deals, chunk_size)
    if not is_whole_number(threads, 1):
        raise StudyError(f"threads {threads!r} is not usable: expected 1 or more")
    if workers is not None and (isinstance(workers, bool) or workers < 1):
        raise StudyError(f"workers {workers!r} is not usable: expected 1 or more")
    root = Path(directory).resolve()
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StudyError(f"cannot create {str(root)!r}: {error.strerror}") from None
    if not root.is_dir():
        raise StudyError(f"{str(root)!r} is not a directory")

    with _locked(root):
        manifest = _open_study(root, deals=deals, seed=seed, chunk_size=chunk_size)
        scan = scan_directory(root, manifest)
        summary = RunSummary(root, manifest, chunks=len(planned), problems=list(scan.problems))
        summary.removed_temporaries = remove_temporaries(scan)
        for problem in scan.problems:
            if notice is not None:
                notice(problem)
        # A shard of the right size is finished; a shorter one is a partial last
        # chunk of a study since extended, so it is recomputed in full.
        todo = [
            chunk
            for chunk in planned
            if chunk.id not in scan.shards or scan.shards[chunk.id].deals != chunk.deals
        ]
        summary.skipped = len(planned) - len(todo)
        done = sum(chunk.deals for chunk in planned if chunk not in todo)
        if progress is not None:
            progress(done, deals)
        tasks = [
            ChunkTask(str(root), seed, chunk_size, chunk.id, chunk.deals, threads) for chunk in todo
        ]
        start = time.perf_counter()
        tracker = _Tracker(done, deals, progress)

        def finished(result: ChunkResult) -> None:
            summary.computed += 1
            summary.deals_computed += result.deals
            summary.seconds = time.perf_counter() - start
            tracker.finished(result.chunk, result.deals)

        if not tasks:
            pass
        elif scheduler is not None:
            _run_dask(scheduler, tasks, finished)
        else:
            _run_pool(root, tasks, workers or default_workers(), finished, tracker)
        summary.seconds = time.perf_counter() - start
        return summary


class _Tracker:
    """Deals done: finished chunks plus the solved part of chunks in flight."""

    def __init__(self, done: int, total: int, progress: Progress | None) -> None:
        self.done = done
        self.total = total
        self.partial: dict[int, int] = {}
        self.progress = progress

    def _report(self) -> None:
        if self.progress is not None:
            self.progress(self.done + sum(self.partial.values()), self.total)

    def advanced(self, chunk: int, solved: int) -> None:
        self.partial[chunk] = solved
        self._report()

    def finished(self, chunk: int, deals: int) -> None:
        self.partial.pop(chunk, None)
        self.done += deals
        self._report()


# --- local process pool -------------------------------------------------------------

_progress_queue: Any = None


def _init_worker(queue: Any) -> None:
    # Ctrl-C is the parent's business: it stops the workers itself, so a worker
    # never dies half-way through writing a file on SIGINT.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _progress_queue
    _progress_queue = queue


def _pool_chunk(task: ChunkTask) -> ChunkResult:
    queue = _progress_queue

    def report(solved: int, total: int) -> None:
        if queue is not None:
            queue.put((task.chunk, solved))

    return compute_chunk(task, progress=report)


def _stop_pool(executor: futures.ProcessPoolExecutor) -> None:
    processes = list((executor._processes or {}).values())
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=10)
    executor.shutdown(wait=False, cancel_futures=True)


def _run_pool(
    root: Path,
    tasks: Sequence[ChunkTask],
    workers: int,
    finished: Callable[[ChunkResult], None],
    tracker: _Tracker,
) -> None:
    # Spawned (not forked) workers: each starts its own DDS with nothing inherited.
    context = multiprocessing.get_context("spawn")
    queue = context.SimpleQueue()
    executor = futures.ProcessPoolExecutor(
        max_workers=min(workers, len(tasks)),
        mp_context=context,
        initializer=_init_worker,
        initargs=(queue,),
    )
    pending = {executor.submit(_pool_chunk, task) for task in tasks}
    try:
        while pending:
            ready, pending = futures.wait(
                pending, timeout=0.25, return_when=futures.FIRST_COMPLETED
            )
            while not queue.empty():
                chunk, solved = queue.get()
                tracker.advanced(chunk, solved)
            for future in ready:
                finished(future.result())
    except BaseException as error:
        _stop_pool(executor)
        # Workers are gone: their half-written files are leftovers of this run.
        remove_temporaries(_scan_temporaries(root))
        if isinstance(error, BrokenProcessPool):
            raise StudyError(
                f"a worker process died ({error}); finished shards in {str(root)!r} are kept: "
                "run again to resume"
            ) from None
        raise
    executor.shutdown(wait=True)


def _scan_temporaries(root: Path) -> Any:
    manifest = load_manifest(root)
    assert manifest is not None
    return scan_directory(root, manifest)


# --- Dask distributed ---------------------------------------------------------------


def _run_dask(
    scheduler: Any, tasks: Sequence[ChunkTask], finished: Callable[[ChunkResult], None]
) -> None:
    try:
        from distributed import Client, as_completed
    except ImportError:  # pragma: no cover - depends on what is installed
        raise StudyError(
            "--scheduler needs dask.distributed: pip install 'bridgescore[study]'"
        ) from None
    own = not isinstance(scheduler, Client)
    try:
        client = Client(scheduler, timeout="30s") if own else scheduler  # type: ignore[no-untyped-call]
    except OSError as error:
        raise StudyError(f"cannot reach the Dask scheduler {scheduler!r}: {error}") from None
    submitted: list[Any] = []
    try:
        submitted = client.map(
            compute_chunk,
            tasks,
            key=[f"bridgescore-chunk-{task.seed}-{task.chunk_size}-{task.chunk}" for task in tasks],
            pure=False,
        )
        for future in as_completed(submitted):  # type: ignore[no-untyped-call]
            finished(future.result())
    except BaseException:
        with contextlib.suppress(Exception):
            client.cancel(submitted)
        raise
    finally:
        if own:
            client.close()
