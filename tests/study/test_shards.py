"""Parquet shards: written whole or not at all, and checked before they are trusted."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bridgescore.core import Seat, Strain, Vulnerability
from bridgescore.deal import random_deals
from bridgescore.errors import StudyError
from bridgescore.study.manifest import Manifest, save_manifest
from bridgescore.study.shards import (
    DD_COLUMNS,
    ShardInfo,
    build_shard,
    inspect_shard,
    read_shard,
    remove_temporaries,
    scan_directory,
    shard_name,
    shard_pars,
    shard_tables,
    write_shard,
)

SEED, SIZE = 11, 4


def hand_made(chunk: int, n: int) -> pa.Table:
    """A chunk with made-up tables and pars (the shard layer does not judge them)."""
    deals = [deal.to_pbn() for deal in random_deals(n, seed=chunk)]
    tables = (np.arange(n * 20).reshape(n, 4, 5) + chunk) % 14
    pars = {v: np.array([(i + 1) * 10 * (1 + int(v)) for i in range(n)]) for v in Vulnerability}
    return build_shard(chunk, deals, tables, pars)


@pytest.fixture
def study(tmp_path: Path) -> tuple[Path, Manifest]:
    manifest = Manifest(seed=SEED, chunk_size=SIZE, deals=3 * SIZE)
    save_manifest(tmp_path, manifest)
    return tmp_path, manifest


def write(directory: Path, chunk: int, n: int = SIZE, seed: int = SEED) -> Path:
    return write_shard(
        directory, seed=seed, chunk_size=SIZE, chunk=chunk, table=hand_made(chunk, n)
    )


def test_column_layout() -> None:
    assert DD_COLUMNS[:6] == ("dd_N_C", "dd_N_D", "dd_N_H", "dd_N_S", "dd_N_NT", "dd_E_C")
    assert len(DD_COLUMNS) == 20
    assert shard_name(12) == "chunk-000012.parquet"


def test_round_trip_of_rows(study: tuple[Path, Manifest]) -> None:
    directory, manifest = study
    path = write(directory, 1)
    assert path.name == "chunk-000001.parquet"
    assert oct(path.stat().st_mode & 0o777) == "0o644"
    info = inspect_shard(path, manifest, 1)
    assert info == ShardInfo(1, SIZE, path)
    table = read_shard(info)
    assert table.column("chunk").to_pylist() == [1, 1, 1, 1]
    assert table.column("index").to_pylist() == [0, 1, 2, 3]
    assert table.column("deal").to_pylist() == [d.to_pbn() for d in random_deals(4, seed=1)]
    tables = shard_tables(table)
    assert tables.shape == (4, 4, 5)
    # Row 2, West's notrump: element 2*20 + 3*5 + 4 of arange, plus the chunk, mod 14.
    assert tables[2, Seat.WEST, Strain.NOTRUMP] == (40 + 15 + 4 + 1) % 14
    pars = shard_pars(table)
    assert pars[Vulnerability.BOTH].tolist() == [40, 80, 120, 160]
    assert pars[Vulnerability.NONE].tolist() == [10, 20, 30, 40]


def test_write_leaves_no_temporary(study: tuple[Path, Manifest]) -> None:
    directory, _ = study
    write(directory, 0)
    write(directory, 0)  # rewriting replaces in one step
    assert sorted(p.name for p in directory.iterdir()) == ["chunk-000000.parquet", "study.json"]


def test_a_failed_write_removes_its_temporary(study: tuple[Path, Manifest]) -> None:
    directory, _ = study
    # Parquet has no union type: pyarrow fails part-way, after the temp file exists.
    union = pa.UnionArray.from_sparse(
        pa.array([0], type=pa.int8()), [pa.array([1]), pa.array(["a"])]
    )
    with pytest.raises(pa.ArrowException):
        write_shard(directory, seed=SEED, chunk_size=SIZE, chunk=0, table=pa.table({"u": union}))
    assert sorted(p.name for p in directory.iterdir()) == ["study.json"]


def test_truncated_file_is_not_trusted(study: tuple[Path, Manifest]) -> None:
    directory, manifest = study
    path = write(directory, 0)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(StudyError, match="not a readable Parquet file"):
        inspect_shard(path, manifest, 0)


def test_garbage_file_is_not_trusted(study: tuple[Path, Manifest]) -> None:
    directory, manifest = study
    path = directory / shard_name(0)
    path.write_bytes(os.urandom(3000))
    with pytest.raises(StudyError, match="not a readable Parquet file"):
        inspect_shard(path, manifest, 0)


def test_foreign_parquet_is_not_trusted(study: tuple[Path, Manifest]) -> None:
    directory, manifest = study
    path = directory / shard_name(0)
    pq.write_table(pa.table({"deal": ["x"], "par": [1]}), path)
    with pytest.raises(StudyError, match="foreign schema"):
        inspect_shard(path, manifest, 0)


def test_shard_of_another_study_or_chunk_is_not_trusted(study: tuple[Path, Manifest]) -> None:
    directory, manifest = study
    other = write(directory, 0, seed=SEED + 1)
    with pytest.raises(StudyError, match=r"another study or chunk \(seed 12"):
        inspect_shard(other, manifest, 0)
    moved = directory / shard_name(2)
    write(directory, 1).rename(moved)
    with pytest.raises(StudyError, match=r"chunk 1\); expected .* chunk 2"):
        inspect_shard(moved, manifest, 2)


def test_rows_that_contradict_the_footer_are_not_trusted(study: tuple[Path, Manifest]) -> None:
    directory, manifest = study
    # Rows of chunk 5 stamped as chunk 1: the footer passes, the data do not.
    path = write_shard(directory, seed=SEED, chunk_size=SIZE, chunk=1, table=hand_made(5, SIZE))
    info = inspect_shard(path, manifest, 1)
    with pytest.raises(StudyError, match="rows do not match chunk 1"):
        read_shard(info)


def test_scan_sorts_shards_temporaries_and_problems(study: tuple[Path, Manifest]) -> None:
    directory, manifest = study
    write(directory, 0)
    write(directory, 2, n=2)
    (directory / shard_name(1)).write_bytes(b"PAR1 not really")
    (directory / "notes.txt").write_text("hello")
    (directory / "sub").mkdir()
    write_shard(directory, seed=SEED, chunk_size=SIZE, chunk=7, table=hand_made(7, SIZE))
    (directory / ".chunk-000001.abc123.tmp").write_bytes(b"half")
    scan = scan_directory(directory, manifest)
    assert sorted(scan.shards) == [0, 2]
    assert scan.shards[2].deals == 2
    assert scan.deals == 6
    assert scan.bad_chunks == {1}
    assert [p.name for p in scan.temporaries] == [".chunk-000001.abc123.tmp"]
    assert len(scan.problems) == 4
    joined = "\n".join(scan.problems)
    assert "chunk-000001.parquet' is not a readable Parquet file" in joined
    assert "notes.txt': foreign file" in joined
    assert "sub': foreign directory" in joined
    assert "chunk 7 is beyond the study's 3 chunks" in joined
    assert remove_temporaries(scan) == 1
    assert not (directory / ".chunk-000001.abc123.tmp").exists()


def test_build_refuses_mismatched_shapes() -> None:
    deals = [d.to_pbn() for d in random_deals(2, seed=1)]
    pars = {v: np.zeros(2, dtype=int) for v in Vulnerability}
    with pytest.raises(StudyError, match=r"expected \(2, 4, 5\)"):
        build_shard(0, deals, np.zeros((3, 4, 5), dtype=int), pars)
    with pytest.raises(StudyError, match="par_ns shaped"):
        build_shard(
            0, deals, np.zeros((2, 4, 5), dtype=int), {**pars, Vulnerability.NS: np.zeros(3)}
        )
