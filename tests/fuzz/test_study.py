"""Fuzzing study directories: a damaged manifest (study.json) and damaged shards.

``study report`` on a directory whose files were truncated, flipped or replaced
must list what it cannot trust or refuse the directory with a StudyError
(a BridgeError), never let pyarrow's, json's or Python's own errors out.

The report's work grows with the number of chunks the manifest declares (it
lists the missing ones), not only with the bytes read: a manifest damaged into
declaring millions of chunks is refused by the fuzz test, not timed.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from bridgescore.core import Vulnerability
from bridgescore.deal import random_deals
from bridgescore.errors import StudyError
from bridgescore.study.manifest import MANIFEST_NAME, Manifest, load_manifest, save_manifest
from bridgescore.study.report import study_report
from bridgescore.study.shards import build_shard, shard_name, write_shard
from fuzzing import Refused, fuzz_settings, mutated_bytes, read_or_refuse

CHUNK = 3
DEALS = 7  # chunks 0 and 1 full, chunk 2 partial


def _write_study(directory: Path) -> None:
    save_manifest(directory, Manifest(seed=5, chunk_size=CHUNK, deals=DEALS))
    for chunk in range(3):
        n = min(CHUNK, DEALS - chunk * CHUNK)
        deals = [deal.to_pbn() for deal in random_deals(n, seed=chunk)]
        pars = {v: [10 * (i + int(v)) for i in range(n)] for v in Vulnerability}
        table = build_shard(chunk, deals, np.full((n, 4, 5), 6, dtype=int), pars)
        write_shard(directory, seed=5, chunk_size=CHUNK, chunk=chunk, table=table)


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("study")
    _write_study(directory)
    return directory


def test_the_undamaged_study_reports_in_full(study: Path) -> None:
    report = study_report(study)
    assert (report.deals, report.chunks, report.missing_chunks, report.problems) == (7, 3, (), ())


def _declared_chunks(data: bytes) -> int:
    try:
        record = json.loads(data)
        return -(-int(record["deals"]) // int(record["chunk_size"]))
    except Exception:
        return 0


FILES = (MANIFEST_NAME, shard_name(0), shard_name(2))


@fuzz_settings(examples=60)
@given(st.data())
def test_damaged_study_is_reported_or_refused(study: Path, data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(FILES), label="file")
    damaged = data.draw(mutated_bytes((study / name).read_bytes(), max_mutations=3))
    if name == MANIFEST_NAME:
        assume(_declared_chunks(damaged) <= 10_000)
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "study"
        shutil.copytree(study, copy)
        (copy / name).write_bytes(damaged)
        outcome = read_or_refuse(study_report, copy, base=2_000_000)
        if not isinstance(outcome, Refused):
            # What is reported is only what could be trusted.
            assert outcome.chunks + len(outcome.missing_chunks) >= 1
            assert outcome.deals <= outcome.manifest.deals


_MANIFEST_TEXT = json.dumps(Manifest(seed=5, chunk_size=CHUNK, deals=DEALS).as_dict(), indent=2)


@fuzz_settings(examples=150)
@given(mutated_bytes(_MANIFEST_TEXT))
def test_damaged_manifest_reads_or_is_refused(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / MANIFEST_NAME).write_bytes(data)
        read_or_refuse(
            lambda path: load_manifest(Path(path)), folder, base=20_000 + 400 * len(data)
        )


# -- regression tests: the minimal inputs that crashed a reader --------------------


def _manifest_with(tmp_path: Path, **changes: object) -> Path:
    record = Manifest(seed=5, chunk_size=CHUNK, deals=DEALS).as_dict() | changes
    (tmp_path / MANIFEST_NAME).write_text(json.dumps(record), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"chunk_size": 0}, "chunks of 0 is not a study"),  # was ZeroDivisionError
        ({"deals": 10**30, "chunk_size": 1}, "at most 4294967296 chunks"),  # was a hang
    ],
)
def test_former_crash_manifest_numbers_are_refused(
    tmp_path: Path, changes: dict[str, object], words: str
) -> None:
    _manifest_with(tmp_path, **changes)
    (tmp_path / shard_name(0)).write_bytes(b"not parquet")
    # Under the work budget: 10**30 deals used to plan 10**30 chunks (a hang).
    outcome = read_or_refuse(study_report, tmp_path)
    assert isinstance(outcome, Refused) and isinstance(outcome.error, StudyError)
    assert words in str(outcome.error)


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"format": {"a": 1}}, "not a bridgescore par study"),  # was TypeError (unhashable)
        ({"format": ["bridgescore-par-study/2"]}, "not a bridgescore par study"),
        ({"created": 7}, "created 7 is not text"),
        ({"convention": ["neutral"]}, "convention"),
        ({"versions": {"bridgescore": 1}}, "versions"),
    ],
)
def test_former_crash_manifest_fields_are_refused(
    tmp_path: Path, changes: dict[str, object], words: str
) -> None:
    with pytest.raises(StudyError, match=words):
        load_manifest(_manifest_with(tmp_path, **changes))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (b'{"format": "\xff"}', "is not UTF-8 text"),  # was UnicodeDecodeError
        (b"[" * 100_000, "is not JSON"),  # was RecursionError
        (b'{"seed": ' + b"7" * 5000 + b"}", "is not JSON"),  # was ValueError (int digits)
    ],
)
def test_former_crash_manifest_text_is_refused(tmp_path: Path, text: bytes, words: str) -> None:
    (tmp_path / MANIFEST_NAME).write_bytes(text)
    with pytest.raises(StudyError, match=words):
        load_manifest(tmp_path)
