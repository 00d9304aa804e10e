"""Running studies with the real DDS: shards, par, resume, SIGKILL, extension, Dask.

Sizes are small (chunks of 2 deals) because DDS solves only a few tables a second
per core here; BRIDGESCORE_FULL=1 makes the study larger.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bridgescore.ddtable import DDTable
from bridgescore.dealer.dealing import deal_many
from bridgescore.errors import StudyError
from bridgescore.parscore import par
from bridgescore.solver import solve_many
from bridgescore.study.report import study_report
from bridgescore.study.runner import run_study
from bridgescore.study.shards import PAR_COLUMNS, shard_name, shard_tables
from conftest import HoldPoints, MakeHoldPoints, nth

FULL = os.environ.get("BRIDGESCORE_FULL") == "1"
SEED = 8
CHUNK = 4 if FULL else 2
DEALS = 41 if FULL else 11  # the last chunk is partial on purpose


def shards(directory: Path) -> dict[str, pa.Table]:
    """Every shard's full contents, schema metadata included, by file name."""
    return {p.name: pq.read_table(p) for p in sorted(directory.glob("chunk-*.parquet"))}


def same_shards(a: Path, b: Path) -> None:
    left, right = shards(a), shards(b)
    assert list(left) == list(right)
    for name in left:
        assert left[name].equals(right[name], check_metadata=True), name


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An uninterrupted run with the local pool (two workers)."""
    directory = tmp_path_factory.mktemp("reference") / "study"
    summary = run_study(directory, deals=DEALS, seed=SEED, chunk_size=CHUNK, workers=2)
    assert (summary.computed, summary.skipped, summary.deals_computed) == (
        -(-DEALS // CHUNK),
        0,
        DEALS,
    )
    return directory


def test_shards_hold_the_planned_deals(reference: Path) -> None:
    chunks = -(-DEALS // CHUNK)
    assert list(shards(reference)) == [shard_name(i) for i in range(chunks)]
    rows = 0
    for i, table in enumerate(shards(reference).values()):
        # A study seeded s holds deal_many's deals, cut into chunks.
        expected = deal_many(DEALS, seed=SEED)[i * CHUNK : (i + 1) * CHUNK]
        assert table.column("deal").to_pylist() == [d.to_pbn() for d in expected]
        rows += table.num_rows
    assert rows == DEALS
    assert leftovers(reference) == []


def test_stored_tables_are_the_dds_tables_of_the_stored_deals(reference: Path) -> None:
    table = pq.read_table(reference / shard_name(0))
    solved = solve_many(table.column("deal").to_pylist(), threads=1)
    assert [DDTable.from_array(t) for t in shard_tables(table)] == solved


def test_par_in_shards_equals_par_of_the_stored_tables(reference: Path) -> None:
    checked = 0
    for table in shards(reference).values():
        tables = shard_tables(table)
        for vulnerability, column in PAR_COLUMNS.items():
            stored = table.column(column).to_pylist()
            expected = [par(DDTable.from_array(t), vulnerability).score for t in tables]
            assert stored == expected
            checked += len(stored)
    assert checked == 4 * DEALS


def test_rerun_skips_every_finished_chunk(reference: Path, tmp_path: Path) -> None:
    copy = tmp_path / "study"
    shutil.copytree(reference, copy)
    before = {p.name: p.stat().st_mtime_ns for p in copy.glob("chunk-*")}
    summary = run_study(copy, deals=DEALS, seed=SEED, chunk_size=CHUNK, workers=2)
    assert (summary.computed, summary.skipped) == (0, -(-DEALS // CHUNK))
    assert {p.name: p.stat().st_mtime_ns for p in copy.glob("chunk-*")} == before


def test_more_deals_extends_and_completes_the_partial_chunk(
    reference: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "study"
    shutil.copytree(reference, copy)
    last = shard_name(DEALS // CHUNK)
    old_last = pq.read_table(copy / last)
    untouched = {p.name: p.stat().st_mtime_ns for p in copy.glob("chunk-*") if p.name != last}
    bigger = (DEALS // CHUNK + 1) * CHUNK  # the partial last chunk becomes full
    summary = run_study(copy, deals=bigger, seed=SEED, chunk_size=CHUNK, workers=1)
    # Only the deals added to the partial chunk are solved; the ones there are kept.
    assert summary.computed == 1
    assert summary.deals_computed == CHUNK - old_last.num_rows
    assert summary.deals_reused == old_last.num_rows
    new_last = pq.read_table(copy / last)
    assert new_last.num_rows == CHUNK
    # The deals already there stay, with the same tables and pars.
    assert new_last.slice(0, old_last.num_rows).to_pylist() == (old_last.to_pylist())
    assert {p.name: p.stat().st_mtime_ns for p in copy.glob("chunk-*") if p.name != last} == (
        untouched
    )
    assert study_report(copy).deals == bigger


def partial_study(directory: Path, seed: int, chunk_size: int, deals: int) -> pa.Table:
    """A study whose one, partial chunk holds its true deals with made-up tables and pars.

    No deal has an all-zero double-dummy table (in each strain North and East take 13
    tricks between them), so rows solved again could never equal these.
    """
    from bridgescore.core import Vulnerability
    from bridgescore.study.manifest import Manifest, save_manifest
    from bridgescore.study.shards import build_shard, write_shard

    directory.mkdir()
    save_manifest(directory, Manifest(seed=seed, chunk_size=chunk_size, deals=deals))
    pbn = [deal.to_pbn() for deal in deal_many(deals, seed=seed)]
    pars = {v: np.arange(1, deals + 1) * 1000 + int(v) for v in Vulnerability}
    table = build_shard(0, pbn, np.zeros((deals, 4, 5), dtype=int), pars)
    write_shard(directory, seed=seed, chunk_size=chunk_size, chunk=0, table=table)
    return pq.read_table(directory / shard_name(0))


def test_extending_solves_only_the_deals_added_to_a_partial_chunk(tmp_path: Path) -> None:
    directory = tmp_path / "study"
    before = partial_study(directory, seed=SEED, chunk_size=3, deals=2)
    summary = run_study(directory, deals=3, seed=SEED, chunk_size=3, workers=1)
    assert (summary.computed, summary.deals_computed, summary.deals_reused) == (1, 1, 2)
    after = pq.read_table(directory / shard_name(0))
    # The two deals already there kept their (made-up) rows: they were not solved again.
    assert after.slice(0, 2).to_pylist() == before.to_pylist()
    # The third is the chunk's third deal, with its real table and par.
    third = deal_many(3, seed=SEED)[2]
    assert after.column("deal").to_pylist()[2] == third.to_pbn()
    assert after.column("index").to_pylist() == [0, 1, 2]
    (solved,) = solve_many([third], threads=1)
    assert DDTable.from_array(shard_tables(after)[2]) == solved
    for vulnerability, column in PAR_COLUMNS.items():
        assert after.column(column).to_pylist()[2] == par(solved, vulnerability).score
    assert study_report(directory).deals == 3


def test_compute_chunk_gives_dds_only_the_deals_not_yet_solved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bridgescore.solver
    from bridgescore.distributed import table_to_ipc
    from bridgescore.study.runner import ChunkTask, compute_chunk

    before = partial_study(tmp_path / "study", seed=SEED, chunk_size=4, deals=3)
    given: list[str] = []
    real_solve_many = bridgescore.solver.solve_many

    def counting(deals: list[Any], **options: Any) -> list[DDTable]:
        given.extend(deal.to_pbn() for deal in deals)
        return real_solve_many(deals, **options)  # the real DDS, only counted

    monkeypatch.setattr(bridgescore.solver, "solve_many", counting)
    rows = compute_chunk(ChunkTask(SEED, 4, 0, 4, 1, table_to_ipc(before)))
    assert given == [deal_many(4, seed=SEED)[3].to_pbn()]
    assert rows.num_rows == 4 and rows.slice(0, 3).to_pylist() == before.to_pylist()
    given.clear()
    compute_chunk(ChunkTask(SEED, 4, 0, 4, 1))
    assert given == [deal.to_pbn() for deal in deal_many(4, seed=SEED)]


def test_a_partial_shard_of_other_deals_is_solved_again(tmp_path: Path) -> None:
    from bridgescore.study.shards import build_shard, write_shard

    directory = tmp_path / "study"
    partial_study(directory, seed=SEED, chunk_size=3, deals=2)
    # Same study and chunk in its metadata, but not the chunk's deals.
    strangers = [deal.to_pbn() for deal in deal_many(2, seed=SEED + 1)]
    pars = {v: np.zeros(2, dtype=int) for v in PAR_COLUMNS}
    table = build_shard(0, strangers, np.zeros((2, 4, 5), dtype=int), pars)
    write_shard(directory, seed=SEED, chunk_size=3, chunk=0, table=table)
    notices: list[str] = []
    summary = run_study(directory, deals=3, seed=SEED, chunk_size=3, workers=1,
                        notice=notices.append)  # fmt: skip
    assert (summary.deals_computed, summary.deals_reused) == (3, 0)
    assert notices == [
        f"{str(directory / shard_name(0))!r} does not hold the deals of chunk 0: "
        "its chunk is solved again in full"
    ]
    after = pq.read_table(directory / shard_name(0))
    assert after.column("deal").to_pylist() == [d.to_pbn() for d in deal_many(3, seed=SEED)]
    assert [DDTable.from_array(t) for t in shard_tables(after)] == solve_many(
        deal_many(3, seed=SEED), threads=1
    )


def test_other_seed_chunk_size_or_fewer_deals_are_refused(reference: Path, tmp_path: Path) -> None:
    copy = tmp_path / "study"
    shutil.copytree(reference, copy)
    with pytest.raises(StudyError, match=f"seed {SEED}, not 9"):
        run_study(copy, deals=DEALS, seed=9, chunk_size=CHUNK)
    with pytest.raises(StudyError, match=f"chunks of {CHUNK} deals, not 3"):
        run_study(copy, deals=DEALS, seed=SEED, chunk_size=3)
    with pytest.raises(StudyError, match="would shrink it"):
        run_study(copy, deals=DEALS - 1, seed=SEED, chunk_size=CHUNK)
    same_shards(copy, reference)


def test_corrupt_and_foreign_files_are_reported_and_not_trusted(
    reference: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "study"
    shutil.copytree(reference, copy)
    (copy / shard_name(1)).write_bytes(b"PAR1" + b"\0" * 100)
    (copy / "notes.txt").write_text("not a shard")
    notices: list[str] = []
    summary = run_study(
        copy, deals=DEALS, seed=SEED, chunk_size=CHUNK, workers=1, notice=notices.append
    )
    assert summary.computed == 1
    assert any("chunk-000001.parquet' is not a readable Parquet file" in n for n in notices)
    assert any("notes.txt': foreign file" in n for n in notices)
    (copy / "notes.txt").unlink()
    same_shards(copy, reference)


def test_a_directory_that_is_not_a_study_is_refused(tmp_path: Path) -> None:
    (tmp_path / "thesis.tex").write_text("x")
    with pytest.raises(StudyError, match=r"not empty and holds no study\.json"):
        run_study(tmp_path, deals=2, seed=1, chunk_size=2)


def test_a_directory_in_use_is_refused(tmp_path: Path) -> None:
    with (tmp_path / ".lock").open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        with pytest.raises(StudyError, match="in use by another `study run`"):
            run_study(tmp_path, deals=2, seed=1, chunk_size=2)


def _cli(directory: Path) -> list[str]:
    return [
        sys.executable,
        "-c",
        "from bridgescore.cli import main; main()",
        "study",
        "run",
        "--deals",
        str(DEALS),
        "--seed",
        str(SEED),
        "--chunk",
        str(CHUNK),
        "--workers",
        "1",
        "--out",
        str(directory),
        "--no-progress",
    ]


def _interruptible() -> None:
    # A shell ignores SIGINT in the jobs it starts in the background, and the ignored
    # disposition is inherited: give the command Ctrl-C back, as a terminal would.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(directory: Path, points: HoldPoints) -> subprocess.Popen[str]:
    # Its own session, so a signal to the group reaches the worker too (as kill of a job).
    return subprocess.Popen(
        _cli(directory),
        start_new_session=True,
        preexec_fn=_interruptible,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **points.environment},
    )


def test_sigkill_then_resume_gives_the_uninterrupted_study(
    reference: Path, tmp_path: Path, hold_points: MakeHoldPoints
) -> None:
    directory = tmp_path / "study"
    points = hold_points(nth("shard-written", 2))
    process = _start(directory, points)
    held = points.next(alive=lambda: process.poll() is None)
    # The run is stopped right after writing its second shard: kill -9 lands mid-run.
    os.killpg(process.pid, signal.SIGKILL)
    process.communicate()
    held.release()
    assert process.returncode == -signal.SIGKILL
    assert len(list(directory.glob("chunk-*.parquet"))) == 2

    resumed = subprocess.run(_cli(directory), capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert "2 already finished" in resumed.stdout
    same_shards(directory, reference)
    assert leftovers(directory) == []
    assert study_report(directory).as_dict() == study_report(reference).as_dict()


def test_local_cluster_gives_the_same_shards_as_the_pool(reference: Path, tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    directory = tmp_path / "study"
    # Worker threads behind a tcp:// scheduler: the run's own client still reaches the
    # scheduler over TCP. Worker processes are tests/study/test_cluster.py's (a real
    # `dask scheduler` and `dask worker`s); two process workers here cost 5 s of CPU.
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=False,
            protocol="tcp://",
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        # By address, as `--scheduler tcp://...` does: the run opens its own client.
        address = cluster.scheduler_address
        assert address.startswith("tcp://")
        summary = run_study(directory, deals=DEALS, seed=SEED, chunk_size=CHUNK, scheduler=address)
        workers = set(client.scheduler_info()["workers"])
    assert summary.deals_computed == DEALS
    assert len(workers) == 2
    same_shards(directory, reference)
    assert study_report(directory).as_dict() == study_report(reference).as_dict()


def test_ctrl_c_keeps_finished_shards_and_removes_temporaries(
    reference: Path, tmp_path: Path, hold_points: MakeHoldPoints
) -> None:
    directory = tmp_path / "study"
    points = hold_points(nth("shard-written", 1))
    process = _start(directory, points)
    held = points.next(alive=lambda: process.poll() is None)
    os.killpg(process.pid, signal.SIGINT)  # Ctrl-C while the first shard is the only one
    _, err = process.communicate(timeout=600)
    held.release()
    assert process.returncode == 130, err
    assert "run the same command again to resume" in err
    assert leftovers(directory) == []
    kept = shards(directory)
    assert list(kept) == [shard_name(held.chunk)]
    for name, table in kept.items():
        assert table.equals(pq.read_table(reference / name), check_metadata=True)


def test_a_dead_worker_stops_the_run_with_a_clear_error(
    tmp_path: Path, hold_points: MakeHoldPoints
) -> None:
    directory = tmp_path / "study"
    points = hold_points(nth("chunk-started", 2))
    process = _start(directory, points)
    held = points.next(alive=lambda: process.poll() is None)
    assert held.pid != process.pid  # announced by the pool's worker, not the command
    os.kill(held.pid, signal.SIGKILL)  # the worker dies in the middle of its second chunk
    held.release()
    _, err = process.communicate(timeout=600)
    assert process.returncode == 2, err
    assert "a worker process died" in err and "run again to resume" in err
    assert leftovers(directory) == []
