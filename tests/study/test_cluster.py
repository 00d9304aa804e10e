"""Studies on a real Dask cluster whose workers share no disk with the client.

``dask scheduler`` and ``dask worker`` run as separate processes, as on a real
cluster. One worker runs in its own mount namespace with an empty tmpfs over the
study's parent directory, so it cannot see (or write) the client's files; the
study it computes must equal, shard for shard, a local run of the same seed.
A worker killed (SIGKILL) in the middle of a chunk costs that chunk only.
Runs are stopped at exact points through the runner's hold hook, never timed.
"""

from __future__ import annotations

import os
import signal
import threading
from collections import Counter
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bridgescore.study.report import study_report
from bridgescore.study.runner import RunSummary, run_study
from bridgescore.study.shards import shard_name
from conftest import HOLD_TIMEOUT, MakeHoldPoints, blind_to, can_unshare, cluster, nth

distributed = pytest.importorskip("distributed")

SEED = 13
CHUNK = 2
DEALS = 7  # four chunks, the last one partial


def shards(directory: Path) -> dict[str, pa.Table]:
    return {p.name: pq.read_table(p) for p in sorted(directory.glob("chunk-*.parquet"))}


def same_shards(a: Path, b: Path) -> None:
    left, right = shards(a), shards(b)
    assert list(left) == [shard_name(i) for i in range(-(-DEALS // CHUNK))]
    assert list(left) == list(right)
    for name in left:
        assert left[name].equals(right[name], check_metadata=True), name


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same study run by the local pool."""
    directory = tmp_path_factory.mktemp("local") / "study"
    run_study(directory, deals=DEALS, seed=SEED, chunk_size=CHUNK, workers=1)
    return directory


def test_a_worker_that_cannot_see_the_directory_gives_the_local_study(
    reference: Path, tmp_path: Path
) -> None:
    reason = can_unshare()
    if reason is not None:
        pytest.skip(reason)
    hidden = tmp_path / "client"
    directory = hidden / "study"
    hidden.mkdir()
    (hidden / "only-the-client-sees-this").write_text("x")
    # The worker's own mount namespace, with an empty tmpfs over the client's directory.
    blind = blind_to(hidden)
    with cluster(tmp_path / "cluster", [blind], {}) as (client, _):
        seen = client.run(os.listdir, str(hidden))  # type: ignore[attr-defined]
        assert list(seen.values()) == [[]], "the worker must not see the client's directory"
        summary = run_study(
            directory,
            deals=DEALS,
            seed=SEED,
            chunk_size=CHUNK,
            scheduler=client.scheduler.address,  # type: ignore[attr-defined]
        )
        assert list(client.run(os.listdir, str(hidden)).values()) == [[]]  # type: ignore[attr-defined]
    assert summary.deals_computed == DEALS
    same_shards(directory, reference)
    assert study_report(directory).as_dict() == study_report(reference).as_dict()


def test_a_worker_killed_mid_chunk_costs_that_chunk_only(
    reference: Path, tmp_path: Path, hold_points: MakeHoldPoints
) -> None:
    directory = tmp_path / "study"
    points = hold_points(nth("chunk-started", 1))
    with cluster(tmp_path / "cluster", [[], []], points.environment) as (client, workers):
        pids = {worker.pid for worker in workers}
        address = client.scheduler.address  # type: ignore[attr-defined]
        outcome: list[object] = []

        def run() -> None:
            try:
                outcome.append(
                    run_study(
                        directory, deals=DEALS, seed=SEED, chunk_size=CHUNK, scheduler=address
                    )
                )
            except BaseException as error:  # handed to the test below
                outcome.append(error)

        runner = threading.Thread(target=run)
        runner.start()
        held = points.next(alive=runner.is_alive)
        assert held.pid in pids
        os.kill(held.pid, signal.SIGKILL)  # the worker dies with the chunk in hand
        held.release()
        runner.join(HOLD_TIMEOUT)
        assert not runner.is_alive(), "the run did not finish"
    assert len(outcome) == 1 and isinstance(outcome[0], RunSummary), outcome
    started = Counter(points.events("chunk-started"))
    # Every chunk started once, except the one in the killed worker's hands: twice.
    assert sorted(started) == list(range(-(-DEALS // CHUNK)))
    assert started[held.chunk] == 2
    assert sum(started.values()) == -(-DEALS // CHUNK) + 1
    same_shards(directory, reference)
