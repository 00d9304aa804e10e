"""The one parallel runner of the workflows: local processes or a Dask cluster.

Par studies, simulations and ``bridgescore deal --processes`` run here, chosen
the same way: ``scheduler`` (a ``tcp://host:port`` address or a
``distributed.Client``, the ``--scheduler`` option) sends the work to Dask;
otherwise a pool of spawned local processes does it, ``workers`` of them
(:func:`worker_count`: 0 or None is :func:`default_workers`, one per core).
Two ways to hand work over:

- :func:`run_ordered` maps a picklable function over tasks and yields the
  results in task order, a few tasks in flight per worker (simulations, dealing);
- :func:`run_chunks` computes chunks and has a writer store each as a shard,
  with progress and resumable stops (par studies), described below.

A workflow cut into chunks (a par study) hands :func:`run_chunks`
three things and gets its shards written, with progress, resumable stops and
no shared disk between the client and the workers:

``jobs``
    picklable values, one per chunk, each with ``chunk`` (an ``int`` id, the
    shard's name) and ``size`` (its unit count, say deals, for progress);
``compute``
    a picklable module-level function ``compute(job, progress) -> pyarrow.Table``
    doing the chunk's work and returning its rows (``progress(done, size)`` may
    be None; on the local pool it reports units done within the chunk);
``writer``
    a :class:`ShardWriter` whose ``write(chunk, table)`` stores one shard
    all-or-nothing (temporary name, then rename).

Where the rows go. By default every worker, local or remote, sends its chunk's
rows back to the client as Arrow IPC bytes and the client writes the shard, so
workers need no access to the output at all. When every machine reaches the
output (an object store URL such as ``s3://``), pass ``direct=writer`` too: the
writer then travels to the workers (it must be picklable) and each writes its
own shard, returning only a few numbers; the writer must publish the final
object only when it is complete.

Stops. A KeyboardInterrupt (Ctrl-C) stops the local workers or cancels the Dask
tasks and is re-raised; shards written before it stay. A local worker that dies
ends the run with :class:`WorkerLost`; on Dask the scheduler reruns the lost
worker's chunk elsewhere, so a dead worker costs only the chunk it was computing.

Sketch of a caller (the par study's runner is the full example)::

    def compute(job: MyJob, progress: Progress | None) -> pa.Table: ...

    run_chunks(jobs, compute, MyShardWriter(out), workers=2, finished=print)

Test hook (the one place it is defined): when the environment variable
``BRIDGESCORE_TEST_HOLD`` names a Unix socket (a path, or ``@name`` for an
abstract socket), a worker announces ``chunk-started`` before computing each
chunk and the client announces ``shard-written`` after writing each shard: each
sends one JSON line (``event``, ``chunk``, ``pid``) and blocks until the test
answers with a line. Tests use it to stop, kill or interrupt a run at an exact
point instead of guessing with sleeps. Unset (always, outside tests) it costs
one environment lookup per chunk.
"""

from __future__ import annotations

import concurrent.futures as futures
import contextlib
import io
import json
import multiprocessing
import os
import signal
import socket
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from bridgescore.errors import InvalidArgumentError, ToolError, WorkerLost

__all__ = [
    "HOLD_VARIABLE",
    "ChunkDone",
    "ChunkJob",
    "Progress",
    "ShardWriter",
    "WorkerLost",
    "cancel_tasks",
    "connect_scheduler",
    "default_workers",
    "hold",
    "run_chunks",
    "run_ordered",
    "table_from_ipc",
    "table_to_ipc",
    "task_result",
    "worker_count",
]

HOLD_VARIABLE = "BRIDGESCORE_TEST_HOLD"

Progress = Callable[[int, int], None]
"""``progress(done, total)``."""


class ChunkJob(Protocol):
    """What :func:`run_chunks` needs from a job: its chunk id and its size."""

    @property
    def chunk(self) -> int: ...

    @property
    def size(self) -> int: ...


J = TypeVar("J", bound=ChunkJob)
T = TypeVar("T")
R = TypeVar("R")


class ShardWriter(Protocol):
    """Stores one chunk's rows as its shard, all or nothing."""

    def write(self, chunk: int, table: Any) -> None: ...


@dataclass(frozen=True, slots=True)
class ChunkDone:
    """A finished chunk as the client sees it: id, rows, worker time and worker name."""

    chunk: int
    rows: int
    seconds: float
    worker: str


@dataclass(frozen=True, slots=True)
class _Outcome:
    done: ChunkDone
    rows: bytes | None  # Arrow IPC stream, or None when the worker wrote the shard itself


def default_workers() -> int:
    """All the cores this process may use: the default number of local workers."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def worker_count(workers: int | None) -> int:
    """Local workers to start: ``workers``, or :func:`default_workers` for None or 0.

    >>> worker_count(3), worker_count(None) == worker_count(0) == default_workers()
    (3, True)
    """
    return workers or default_workers()


def _local_pool(
    workers: int, initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = ()
) -> futures.ProcessPoolExecutor:
    # Spawned (not forked) workers: each starts its own solver with nothing
    # inherited (DDS's threads, numpy's state).
    context = multiprocessing.get_context("spawn")
    return futures.ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=initializer, initargs=initargs
    )


# --- the test hook --------------------------------------------------------------------


def hold(event: str, chunk: int) -> None:
    """Announce ``event`` for ``chunk`` to the test hook and wait for its answer.

    Does nothing unless ``BRIDGESCORE_TEST_HOLD`` is set (see the module docstring);
    other workflows' task functions call it too, so one hook serves them all.
    """
    address = os.environ.get(HOLD_VARIABLE)
    if not address:
        return
    target = "\0" + address[1:] if address.startswith("@") else address
    message = {"event": event, "chunk": chunk, "pid": os.getpid()}
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as channel:
        channel.connect(target)
        channel.sendall(json.dumps(message).encode() + b"\n")
        # Blocks until the test answers (or closes): that is the synchronisation point.
        channel.makefile("rb").readline()


# --- Arrow rows over the wire ---------------------------------------------------------


def table_to_ipc(table: Any) -> bytes:
    """A pyarrow Table as Arrow IPC stream bytes: how rows travel between processes."""
    import pyarrow as pa

    sink = io.BytesIO()
    with pa.ipc.new_stream(sink, table.schema) as stream:
        stream.write_table(table)
    return sink.getvalue()


def table_from_ipc(data: bytes) -> Any:
    """The pyarrow Table of :func:`table_to_ipc`'s bytes."""
    import pyarrow as pa

    return pa.ipc.open_stream(data).read_all()


def _work(
    compute: Callable[[Any, Progress | None], Any],
    job: ChunkJob,
    direct: ShardWriter | None = None,
    progress: Progress | None = None,
) -> _Outcome:
    # Runs on the worker: compute the rows, then ship them or store them.
    hold("chunk-started", job.chunk)
    start = time.perf_counter()
    table = compute(job, progress)
    rows: bytes | None = None
    if direct is not None:
        direct.write(job.chunk, table)
    else:
        rows = table_to_ipc(table)
    seconds = time.perf_counter() - start
    worker = f"{socket.gethostname()}:{os.getpid()}"
    return _Outcome(ChunkDone(job.chunk, table.num_rows, seconds, worker), rows)


def _receive(outcome: _Outcome, writer: ShardWriter) -> ChunkDone:
    # Runs on the client: the shard is written here unless the worker wrote it.
    if outcome.rows is not None:
        writer.write(outcome.done.chunk, table_from_ipc(outcome.rows))
    hold("shard-written", outcome.done.chunk)
    return outcome.done


def run_chunks(
    jobs: Sequence[J],
    compute: Callable[[J, Progress | None], Any],
    writer: ShardWriter,
    *,
    workers: int | None = None,
    scheduler: Any = None,
    direct: bool = False,
    finished: Callable[[ChunkDone], None] | None = None,
    advanced: Callable[[int, int], None] | None = None,
) -> None:
    """Compute every job's chunk and have ``writer`` store it; see the module docstring.

    ``workers`` local processes (default: one per core), or the Dask cluster at
    ``scheduler`` (a ``tcp://host:port`` address or a ``distributed.Client``).
    With ``direct`` the workers call ``writer.write`` themselves. ``finished(done)``
    is called on the client after each shard is stored; ``advanced(chunk, units)``
    as a local worker progresses within a chunk.

    Raises :class:`WorkerLost` when a worker dies (locally) or a chunk fails on
    every worker tried (Dask), and re-raises KeyboardInterrupt after stopping the
    workers; exceptions raised by ``compute`` reach the caller unchanged.
    """
    if not jobs:
        return
    if scheduler is not None:
        _run_dask(scheduler, jobs, compute, writer, direct, finished)
    else:
        count = min(worker_count(workers), len(jobs))
        _run_pool(jobs, compute, writer, direct, count, finished, advanced)


def run_ordered(
    function: Callable[[T], R],
    tasks: Sequence[T],
    *,
    workers: int | None = 1,
    scheduler: Any = None,
) -> Generator[R, None, None]:
    """``function(task)`` for each task, yielded in task order.

    On Dask with ``scheduler``; else ``workers`` local processes (None or 0: one
    per core), and with 1 worker (or one task) in this process. At most two tasks
    per worker are in flight, so memory stays flat however many tasks there are.
    Closing the iterator early (or Ctrl-C while it waits) cancels tasks not
    started; a Dask worker that dies costs only the tasks it held (:func:`task_result`).
    """
    if scheduler is not None:
        yield from _ordered_dask(function, tasks, scheduler)
        return
    count = worker_count(workers)
    if count <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield function(task)
        return
    with _local_pool(count) as pool:
        pending: deque[futures.Future[R]] = deque()
        try:
            for task in tasks:
                pending.append(pool.submit(function, task))
                if len(pending) >= 2 * count:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()
            pool.shutdown(wait=False, cancel_futures=True)


# --- local process pool ---------------------------------------------------------------

_progress_queue: Any = None


def _init_worker(queue: Any) -> None:
    # Ctrl-C is the parent's business: it stops the workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _progress_queue
    _progress_queue = queue


def _pool_work(
    compute: Callable[[Any, Progress | None], Any], job: ChunkJob, direct: ShardWriter | None
) -> _Outcome:
    queue = _progress_queue

    def report(done: int, total: int) -> None:
        if queue is not None:
            queue.put((job.chunk, done))

    return _work(compute, job, direct, report)


def _stop_pool(executor: futures.ProcessPoolExecutor) -> None:
    processes = list((executor._processes or {}).values())
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=10)
    executor.shutdown(wait=False, cancel_futures=True)


def _run_pool(
    jobs: Sequence[J],
    compute: Callable[[J, Progress | None], Any],
    writer: ShardWriter,
    direct: bool,
    workers: int,
    finished: Callable[[ChunkDone], None] | None,
    advanced: Callable[[int, int], None] | None,
) -> None:
    queue = multiprocessing.get_context("spawn").SimpleQueue()
    executor = _local_pool(workers, _init_worker, (queue,))
    shipped = writer if direct else None
    pending = {executor.submit(_pool_work, compute, job, shipped) for job in jobs}
    try:
        while pending:
            # The timeout only paces the progress display; completion is an event.
            ready, pending = futures.wait(
                pending, timeout=0.25, return_when=futures.FIRST_COMPLETED
            )
            while not queue.empty():
                chunk, done = queue.get()
                if advanced is not None:
                    advanced(chunk, done)
            for future in ready:
                done_chunk = _receive(future.result(), writer)
                if finished is not None:
                    finished(done_chunk)
    except BaseException as error:
        _stop_pool(executor)
        if isinstance(error, BrokenProcessPool):
            raise WorkerLost(f"a worker process died ({error})") from None
        raise
    executor.shutdown(wait=True)


# --- Dask distributed -----------------------------------------------------------------


def connect_scheduler(scheduler: Any) -> tuple[Any, bool]:
    """A Dask client for ``scheduler`` and whether the caller owns (must close) it.

    ``scheduler`` is an address (``tcp://host:8786``) or a ``distributed.Client``,
    returned as is. Raises :class:`InvalidArgumentError` when Dask is not installed or
    the address is malformed (refused before any client is made), and
    :class:`ToolError` when the scheduler cannot be reached.
    """
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - depends on what is installed
        raise InvalidArgumentError(
            "--scheduler needs dask.distributed: pip install 'bridgescore[study]'"
        ) from None
    if isinstance(scheduler, Client):
        return scheduler, False
    _check_address(scheduler)
    try:
        return Client(scheduler, timeout="30s"), True  # type: ignore[no-untyped-call]
    except OSError as error:
        raise ToolError(f"cannot reach the Dask scheduler {scheduler!r}: {error}") from None
    except ValueError as error:  # anything else Dask refuses in the address
        raise _not_an_address(scheduler, error) from None


def _check_address(scheduler: Any) -> None:
    # Checked before a Client exists, with Dask's own parsers: a Client refused
    # mid-construction is left half-started (its IO loop thread running, status
    # "connecting"), and when the garbage collector later finalises it, its close()
    # takes a lock shared by every Dask client in the process. If that happens while
    # this thread is starting another client (which holds the lock), the thread
    # deadlocks on itself: a later Client() in the same process hangs for ever.
    from distributed.comm import registry
    from distributed.comm.addressing import parse_address

    try:
        scheme, location = parse_address(scheduler)
        backend = registry.get_backend(scheme)
        with contextlib.suppress(NotImplementedError):  # schemes without host:port
            backend.get_address_host_port(location)  # type: ignore[no-untyped-call]
    except (TypeError, ValueError) as error:
        raise _not_an_address(scheduler, error) from None


def _not_an_address(scheduler: Any, error: Exception) -> InvalidArgumentError:
    return InvalidArgumentError(
        f"{scheduler!r} is not a Dask scheduler address ({error}): expected tcp://host:port"
    )


def task_result(future: Any) -> Any:
    """A Dask future's result; :class:`WorkerLost` if its task died with every worker tried.

    A task whose worker dies is rerun elsewhere by the scheduler, so one dead
    worker costs only the tasks it held; Dask gives up (``KilledWorker``) only
    after the task has taken down several workers.
    """
    from distributed.scheduler import KilledWorker

    try:
        return future.result()
    except KilledWorker as error:
        raise WorkerLost(
            f"task {future.key!r} was lost with {error.last_worker.address} "
            "and every worker it was retried on"
        ) from None


def cancel_tasks(client: Any, futures: Sequence[Any]) -> None:
    """Cancel tasks not needed any more (Ctrl-C, an early stop); best effort.

    Called while a run is being torn down, so a scheduler already gone is no error.
    """
    if futures:
        with contextlib.suppress(Exception):
            client.cancel(list(futures))


def _run_dask(
    scheduler: Any,
    jobs: Sequence[J],
    compute: Callable[[J, Progress | None], Any],
    writer: ShardWriter,
    direct: bool,
    finished: Callable[[ChunkDone], None] | None,
) -> None:
    client, own = connect_scheduler(scheduler)
    from distributed import as_completed

    shipped = writer if direct else None
    pending: dict[str, Any] = {}
    try:
        # Keys name the work, so two clients submitting the same chunk share it.
        for job in jobs:
            key = f"bridgescore-{compute.__module__}.{compute.__name__}-{job!r}"
            pending[key] = client.submit(_work, compute, job, shipped, key=key, pure=False)
        for future in as_completed(list(pending.values())):  # type: ignore[no-untyped-call]
            outcome = task_result(future)
            # Dropped at once, so a worker holds no finished rows it might take down with it.
            del pending[future.key]
            done = _receive(outcome, writer)
            if finished is not None:
                finished(done)
    except BaseException:
        cancel_tasks(client, list(pending.values()))
        raise
    finally:
        if own:
            client.close()


def _ordered_dask(function: Callable[[T], R], tasks: Sequence[T], scheduler: Any) -> Iterator[R]:
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
