"""The chunk runner's interface, and studies kept in an object store (fsspec ``memory://``).

``memory://`` is fsspec's in-process store: an in-process Dask cluster (threads)
shares it with the client, so its workers write their shards there directly, as
workers on a real cluster write to ``s3://``. Shards, resume, extension and the
report must be those of a local directory with the same seed.
"""

from __future__ import annotations

import shutil
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bridgescore.distributed import ChunkDone, run_chunks
from bridgescore.errors import StudyError
from bridgescore.study.report import study_report
from bridgescore.study.runner import run_study
from bridgescore.study.shards import shard_name

distributed = pytest.importorskip("distributed")
fsspec = pytest.importorskip("fsspec")

SEED = 21
CHUNK = 2
DEALS = 3  # two chunks, the last one partial


# --- run_chunks with a toy workflow -------------------------------------------------


@dataclass(frozen=True)
class Squares:
    """A toy job: the squares of ``start`` .. ``start + size - 1``."""

    chunk: int
    size: int

    @property
    def start(self) -> int:
        return self.chunk * 10


def squares(job: Squares, progress: Any) -> pa.Table:
    values = list(range(job.start, job.start + job.size))
    if progress is not None:
        progress(job.size, job.size)
    return pa.table({"n": values, "square": [v * v for v in values]})


def refuse(job: Squares, progress: Any) -> pa.Table:
    raise ValueError(f"chunk {job.chunk} refused")


# What recorders were given, by recorder: a copy of a recorder shipped to an
# in-process Dask worker (the task is pickled) still records here.
RECORDED: dict[str, tuple[dict[int, pa.Table], set[str]]] = {}


class Recorder:
    """A shard writer that keeps what it is given and the thread that gave it."""

    def __init__(self) -> None:
        self.token = uuid.uuid4().hex
        RECORDED[self.token] = ({}, set())

    @property
    def written(self) -> dict[int, pa.Table]:
        return RECORDED[self.token][0]

    @property
    def threads(self) -> set[str]:
        return RECORDED[self.token][1]

    def write(self, chunk: int, table: pa.Table) -> None:
        self.written[chunk] = table
        self.threads.add(threading.current_thread().name)


def expected_squares(job: Squares) -> pa.Table:
    values = [job.start + i for i in range(job.size)]
    return pa.table({"n": values, "square": [v**2 for v in values]})


JOBS = [Squares(0, 3), Squares(1, 2), Squares(2, 4)]


@pytest.fixture(scope="module")
def threads_cluster() -> Iterator[Any]:
    """An in-process Dask cluster: two workers, one thread each."""
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def test_pool_workers_send_rows_and_the_client_writes() -> None:
    recorder = Recorder()
    finished: list[ChunkDone] = []
    run_chunks(JOBS, squares, recorder, workers=2, finished=finished.append)
    assert sorted(recorder.written) == [0, 1, 2]
    for job in JOBS:
        assert recorder.written[job.chunk].equals(expected_squares(job))
    assert recorder.threads == {threading.current_thread().name}
    assert sorted((done.chunk, done.rows) for done in finished) == [(0, 3), (1, 2), (2, 4)]


def test_dask_workers_write_directly_when_asked(threads_cluster: Any) -> None:
    recorder = Recorder()
    run_chunks(JOBS, squares, recorder, scheduler=threads_cluster, direct=True)
    for job in JOBS:
        assert recorder.written[job.chunk].equals(expected_squares(job))
    assert threading.current_thread().name not in recorder.threads  # the workers wrote

    by_client = Recorder()
    run_chunks(JOBS, squares, by_client, scheduler=threads_cluster)
    assert by_client.threads == {threading.current_thread().name}


def test_a_failing_chunk_function_reaches_the_caller() -> None:
    with pytest.raises(ValueError, match=r"chunk \d refused"):
        run_chunks(JOBS, refuse, Recorder(), workers=1)


# --- studies in memory:// -----------------------------------------------------------


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("local") / "study"
    run_study(directory, deals=DEALS, seed=SEED, chunk_size=CHUNK, workers=1)
    return directory


def remote_shards(url: str) -> dict[str, pa.Table]:
    filesystem, root = fsspec.core.url_to_fs(url)
    names = sorted(p.rsplit("/", 1)[-1] for p in filesystem.ls(root, detail=False))
    return {
        name: pq.read_table(filesystem.open(f"{root}/{name}", "rb"))
        for name in names
        if name.startswith("chunk-")
    }


def assert_same(url: str, reference: Path, deals: int = DEALS) -> None:
    ours = remote_shards(url)
    local = {p.name: pq.read_table(p) for p in sorted(reference.glob("chunk-*.parquet"))}
    assert list(ours) == [shard_name(i) for i in range(-(-deals // CHUNK))]
    assert list(ours) == list(local)
    for name in ours:
        assert ours[name].equals(local[name], check_metadata=True), name


def test_a_study_in_an_object_store_equals_the_local_one(
    reference: Path, tmp_path: Path, threads_cluster: Any
) -> None:
    url = f"memory://bridgescore-{uuid.uuid4().hex}/study"
    summary = run_study(url, deals=DEALS, seed=SEED, chunk_size=CHUNK, scheduler=threads_cluster)
    assert (summary.computed, summary.deals_computed) == (2, DEALS)
    assert_same(url, reference)
    assert study_report(url).as_dict() == study_report(reference).as_dict()

    again = run_study(url, deals=DEALS, seed=SEED, chunk_size=CHUNK, scheduler=threads_cluster)
    assert (again.computed, again.skipped) == (0, 2)

    # Extending completes the partial last chunk, as it does in a local directory.
    bigger = DEALS + 1
    extended = run_study(url, deals=bigger, seed=SEED, chunk_size=CHUNK, workers=1)
    assert (extended.skipped, extended.computed) == (1, 1)
    local = tmp_path / "bigger"
    shutil.copytree(reference, local)
    run_study(local, deals=bigger, seed=SEED, chunk_size=CHUNK, workers=1)
    assert_same(url, local, bigger)
    assert study_report(url).as_dict() == study_report(local).as_dict()

    with pytest.raises(StudyError, match=f"seed {SEED}, not 1"):
        run_study(url, deals=bigger, seed=1, chunk_size=CHUNK)


def test_foreign_objects_in_the_store_are_reported_not_read(reference: Path) -> None:
    url = f"memory://bridgescore-{uuid.uuid4().hex}/study"
    run_study(url, deals=DEALS, seed=SEED, chunk_size=CHUNK, workers=1)
    filesystem, root = fsspec.core.url_to_fs(url)
    filesystem.pipe_file(f"{root}/{shard_name(1)}", b"PAR1" + b"\0" * 40)
    filesystem.pipe_file(f"{root}/notes.txt", b"mine")
    report = study_report(url)
    assert report.missing_chunks == (1,)
    assert any(
        f"{url}/{shard_name(1)}' is not a readable Parquet file" in p for p in report.problems
    )
    assert any(f"{url}/notes.txt': foreign file" in p for p in report.problems)
    notices: list[str] = []
    rerun = run_study(
        url, deals=DEALS, seed=SEED, chunk_size=CHUNK, workers=1, notice=notices.append
    )
    assert rerun.computed == 1
    filesystem.rm_file(f"{root}/notes.txt")
    assert_same(url, reference)


def test_an_empty_but_foreign_location_is_refused() -> None:
    url = f"memory://bridgescore-{uuid.uuid4().hex}/thesis"
    filesystem, root = fsspec.core.url_to_fs(url)
    filesystem.pipe_file(f"{root}/chapter1.tex", b"x")
    with pytest.raises(StudyError, match=r"not empty and holds no study\.json"):
        run_study(url, deals=2, seed=1, chunk_size=2)
