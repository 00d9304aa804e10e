"""Running a par study: chunks dealt, solved (DDS), scored for par and written as shards.

:func:`compute_chunk` does one chunk's work and returns its rows; the local
process pool (one DDS per process) and the Dask backend both run that same
function through :func:`bridgescore.distributed.run_chunks`, so a chunk is the
same wherever it is computed, and the workers send the rows back for this
process to write (they need no access to the study directory).
:func:`run_study` checks the directory, skips finished chunks, runs the rest and
reports progress through a callback; a short chunk of an extended study keeps the
deals it holds and only the deals added to it are solved.
"""

from __future__ import annotations

import contextlib
import fcntl
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from bridgescore.core import Vulnerability
from bridgescore.distributed import (
    ChunkDone,
    Progress,
    ShardWriter,
    WorkerLost,
    default_workers,
    run_chunks,
    table_from_ipc,
    table_to_ipc,
)
from bridgescore.errors import BridgeError, StudyError
from bridgescore.study.chunks import Chunk, check_seed, chunk_deals, plan_chunks
from bridgescore.study.manifest import (
    MANIFEST_NAME,
    Manifest,
    check_compatible,
    load_manifest,
    save_manifest,
)
from bridgescore.study.remote import RemoteStudy, is_remote
from bridgescore.study.shards import (
    LOCK_NAME,
    SCHEMA,
    RemoteShardWriter,
    ShardInfo,
    build_shard,
    read_shard,
    remove_temporaries,
    scan_directory,
    write_shard,
)
from bridgescore.validate import is_whole_number, whole_number_arg

__all__ = [
    "ChunkTask",
    "Progress",
    "RunSummary",
    "StudyShardWriter",
    "compute_chunk",
    "default_workers",
    "run_study",
]


@dataclass(frozen=True, slots=True)
class ChunkTask:
    """Everything a worker needs to compute one chunk: the study, the chunk, DDS threads.

    ``solved`` holds the rows (Arrow IPC bytes) of the chunk's first deals when a
    shorter shard of the chunk is being completed (a study extended past a partial
    last chunk): those deals are kept as they are and only the rest are solved.
    """

    seed: int
    chunk_size: int
    chunk: int
    deals: int
    threads: int = 1
    solved: bytes = b""

    @property
    def size(self) -> int:
        """Deals in the chunk (the unit of progress)."""
        return self.deals


def compute_chunk(task: ChunkTask, progress: Progress | None = None) -> pa.Table:
    """Deal, solve and score par under the four vulnerabilities: the chunk's shard rows.

    Deals already in ``task.solved`` are not solved again: their rows come first,
    as they were. ``progress(done, total)`` reports deals solved now within this chunk.
    """
    from bridgescore.pararray import par_array
    from bridgescore.solver import solve_many

    kept = table_from_ipc(task.solved).cast(SCHEMA) if task.solved else None
    start = 0 if kept is None else kept.num_rows
    deals = chunk_deals(task.seed, task.chunk, task.deals, task.chunk_size)[start:]
    solved = solve_many(deals, threads=task.threads, progress=progress)
    tables = np.stack([table.to_array() for table in solved])
    pars = {vulnerability: par_array(tables, vulnerability) for vulnerability in Vulnerability}
    rows = build_shard(task.chunk, [deal.to_pbn() for deal in deals], tables, pars, first=start)
    return rows if kept is None else pa.concat_tables([kept, rows])


@dataclass(frozen=True, slots=True)
class StudyShardWriter:
    """Writes a chunk's rows into a study directory, stamped with the study (temp, rename)."""

    directory: Path
    seed: int
    chunk_size: int

    def write(self, chunk: int, table: pa.Table) -> None:
        write_shard(
            self.directory, seed=self.seed, chunk_size=self.chunk_size, chunk=chunk, table=table
        )


@dataclass(slots=True)
class RunSummary:
    """What a run did: chunks found finished, chunks computed now, time taken.

    ``deals_computed`` counts the deals solved by this run; ``deals_reused`` the
    deals of a shorter shard that an extended chunk kept instead of solving again.
    """

    directory: Path | RemoteStudy
    manifest: Manifest
    chunks: int
    skipped: int = 0
    computed: int = 0
    deals_computed: int = 0
    deals_reused: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    removed_temporaries: int = 0

    @property
    def deals_per_second(self) -> float:
        return self.deals_computed / self.seconds if self.seconds > 0 else 0.0


@contextlib.contextmanager
def _locked(directory: Path) -> Iterator[None]:
    # One run per directory at a time: two would race on the same chunks.
    try:
        handle = (directory / LOCK_NAME).open("a")
    except OSError as error:
        raise StudyError(f"cannot write in {str(directory)!r}: {error.strerror}") from None
    with handle:
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


def _open_study(
    directory: Path | RemoteStudy, *, deals: int, seed: int, chunk_size: int
) -> Manifest:
    existing = load_manifest(directory)
    if existing is None:
        if isinstance(directory, RemoteStudy):
            strangers = [name for name, _ in directory.entries()]
        else:
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


def _local_root(directory: Path | str) -> Path:
    root = Path(str(directory).removeprefix("file://")).resolve()
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StudyError(f"cannot create {str(root)!r}: {error.strerror}") from None
    if not root.is_dir():
        raise StudyError(f"{str(root)!r} is not a directory")
    return root


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
    need not see ``directory``: they send each chunk's rows back and this process
    writes the shards. ``directory`` may also be an fsspec URL (``s3://bucket/study``)
    that every machine reaches: the workers then store their shards there themselves,
    each in one put (see :mod:`bridgescore.study.remote`). Problems found in the
    directory are passed to ``notice``.
    On KeyboardInterrupt, chunks in flight are abandoned, temporary files removed,
    finished shards kept, and the interrupt re-raised.

    Raises :class:`StudyError` for a directory that cannot be used as asked.
    """
    check_seed(seed)
    planned = plan_chunks(deals, chunk_size)
    if not is_whole_number(threads, 1):
        raise StudyError(f"threads {threads!r} is not usable: expected 1 or more")
    if workers is not None:
        whole_number_arg(workers, "workers", 1, error=StudyError)
    if is_remote(directory):
        remote = RemoteStudy(str(directory))
        remote.prepare()
        return _run(remote, planned, deals, seed, chunk_size, workers, scheduler, threads,
                    progress, notice)  # fmt: skip
    root = _local_root(directory)
    with _locked(root):
        return _run(root, planned, deals, seed, chunk_size, workers, scheduler, threads,
                    progress, notice)  # fmt: skip


def _run(
    root: Path | RemoteStudy,
    planned: list[Chunk],
    deals: int,
    seed: int,
    chunk_size: int,
    workers: int | None,
    scheduler: Any,
    threads: int,
    progress: Progress | None,
    notice: Callable[[str], None] | None,
) -> RunSummary:
    manifest = _open_study(root, deals=deals, seed=seed, chunk_size=chunk_size)
    scan = scan_directory(root, manifest)
    summary = RunSummary(root, manifest, chunks=len(planned), problems=list(scan.problems))
    summary.removed_temporaries = remove_temporaries(scan)
    for problem in scan.problems:
        if notice is not None:
            notice(problem)
    # A shard of the right size is finished; a shorter one is the partial last chunk
    # of a study since extended: its deals are the chunk's first (dealing is
    # sequential within a chunk), so they are kept and only the rest are solved.
    todo = [
        chunk
        for chunk in planned
        if chunk.id not in scan.shards or scan.shards[chunk.id].deals != chunk.deals
    ]
    summary.skipped = len(planned) - len(todo)
    kept: dict[int, pa.Table] = {}
    for chunk in todo:
        if chunk.id in scan.shards and scan.shards[chunk.id].deals < chunk.deals:
            rows = _rows_to_keep(scan.shards[chunk.id], seed, chunk_size, notice)
            if rows is not None:
                kept[chunk.id] = rows
    summary.deals_reused = sum(rows.num_rows for rows in kept.values())
    done = sum(chunk.deals for chunk in planned if chunk not in todo) + summary.deals_reused
    if progress is not None:
        progress(done, deals)
    tasks = [
        ChunkTask(
            seed,
            chunk_size,
            chunk.id,
            chunk.deals,
            threads,
            table_to_ipc(kept[chunk.id]) if chunk.id in kept else b"",
        )
        for chunk in todo
    ]
    start = time.perf_counter()
    tracker = _Tracker(done, deals, progress)

    def finished(result: ChunkDone) -> None:
        solved_now = result.rows - (kept[result.chunk].num_rows if result.chunk in kept else 0)
        summary.computed += 1
        summary.deals_computed += solved_now
        summary.seconds = time.perf_counter() - start
        tracker.finished(result.chunk, solved_now)

    writer: ShardWriter
    if isinstance(root, RemoteStudy):
        writer = RemoteShardWriter(root, seed, chunk_size)
        # Workers store their shards themselves, except in fsspec's in-process memory
        # store, which local worker processes do not share (Dask threads do).
        direct = scheduler is not None or root.protocol != "memory"
    else:
        writer, direct = StudyShardWriter(root, seed, chunk_size), False
    try:
        run_chunks(
            tasks,
            compute_chunk,
            writer,
            workers=workers,
            scheduler=scheduler,
            direct=direct,
            finished=finished,
            advanced=tracker.advanced,
        )
    except BaseException as error:
        # A stop can catch this process between writing a temporary and renaming it.
        if isinstance(root, Path):
            for temporary in root.glob(".chunk-*.tmp"):
                temporary.unlink(missing_ok=True)
        if isinstance(error, WorkerLost):
            raise StudyError(
                f"{error}; finished shards in {str(root)!r} are kept: run again to resume"
            ) from None
        if isinstance(error, BridgeError) and not isinstance(error, StudyError):
            raise StudyError(str(error)) from None
        raise
    summary.seconds = time.perf_counter() - start
    return summary


def _rows_to_keep(
    info: ShardInfo, seed: int, chunk_size: int, notice: Callable[[str], None] | None
) -> pa.Table | None:
    """The rows of a shorter shard of a chunk, if they hold the chunk's first deals."""
    try:
        rows = read_shard(info)
    except StudyError as error:
        if notice is not None:
            notice(f"{error}: its chunk is solved again in full")
        return None
    expected = [deal.to_pbn() for deal in chunk_deals(seed, info.chunk, info.deals, chunk_size)]
    if rows.column("deal").to_pylist() != expected:
        if notice is not None:
            notice(
                f"{str(info.path)!r} does not hold the deals of chunk {info.chunk}: "
                "its chunk is solved again in full"
            )
        return None
    return rows


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
