"""The study manifest: written atomically, read back, and guarding seed and chunk size."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bridgescore.errors import StudyError
from bridgescore.study.manifest import (
    MANIFEST_NAME,
    Manifest,
    check_compatible,
    load_manifest,
    save_manifest,
)


def test_round_trip(tmp_path: Path) -> None:
    manifest = Manifest(seed=7, chunk_size=256, deals=1000)
    save_manifest(tmp_path, manifest)
    assert load_manifest(tmp_path) == manifest
    data = json.loads((tmp_path / MANIFEST_NAME).read_text())
    assert data["format"] == "bridgescore-par-study/2"
    assert (data["seed"], data["chunk_size"], data["deals"]) == (7, 256, 1000)
    assert data["convention"] == "neutral"
    assert {"python", "bridgescore", "numpy", "pyarrow", "endplay"} <= set(data["versions"])
    assert [p.name for p in tmp_path.iterdir()] == [MANIFEST_NAME]


def test_chunks_rounds_up() -> None:
    assert Manifest(seed=1, chunk_size=256, deals=1000).chunks == 4
    assert Manifest(seed=1, chunk_size=250, deals=1000).chunks == 4
    assert Manifest(seed=1, chunk_size=1, deals=3).chunks == 3


def test_no_manifest_is_none(tmp_path: Path) -> None:
    assert load_manifest(tmp_path) is None


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("{not json", "not JSON"),
        ('{"format": "something else"}', "not a bridgescore par study"),
        ('{"format": "bridgescore-par-study/2", "seed": 1}', "damaged"),
        ('{"format": "bridgescore-par-study/1", "seed": 1}', "damaged"),
        ("[1, 2]", "not a bridgescore par study"),
    ],
)
def test_foreign_or_damaged_manifests_are_refused(tmp_path: Path, text: str, word: str) -> None:
    (tmp_path / MANIFEST_NAME).write_text(text)
    with pytest.raises(StudyError, match=word):
        load_manifest(tmp_path)


def test_other_seed_chunk_size_or_fewer_deals_are_refused(tmp_path: Path) -> None:
    existing = Manifest(seed=5, chunk_size=64, deals=640)
    check_compatible(existing, tmp_path, seed=5, chunk_size=64, deals=640)
    check_compatible(existing, tmp_path, seed=5, chunk_size=64, deals=6400)
    with pytest.raises(StudyError, match=r"seed 5, not 6: use --seed 5"):
        check_compatible(existing, tmp_path, seed=6, chunk_size=64, deals=640)
    with pytest.raises(StudyError, match=r"chunks of 64 deals, not 128: use --chunk 64"):
        check_compatible(existing, tmp_path, seed=5, chunk_size=128, deals=640)
    with pytest.raises(StudyError, match=r"640 deals; --deals 100 would shrink it"):
        check_compatible(existing, tmp_path, seed=5, chunk_size=64, deals=100)


def test_a_study_of_the_retired_dealer_is_read_but_not_resumed(tmp_path: Path) -> None:
    # Format /1 studies were dealt by a study-only dealer: reports still read them,
    # but their chunks would not match today's deals, so runs refuse them.
    data = {
        "format": "bridgescore-par-study/1",
        "seed": 5,
        "chunk_size": 64,
        "deals": 640,
        "convention": "neutral",
        "created": "2026-11-22T04:01:46+00:00",
        "updated": "2026-11-22T04:01:46+00:00",
        "versions": {"python": "3.12.3"},
    }
    (tmp_path / MANIFEST_NAME).write_text(json.dumps(data))
    old = load_manifest(tmp_path)
    assert old is not None and (old.dealing, old.deals) == (1, 640)
    with pytest.raises(StudyError, match=r"format bridgescore-par-study/1.*another --out"):
        check_compatible(old, tmp_path, seed=5, chunk_size=64, deals=640)
    save_manifest(tmp_path, old)  # written back as it was read: still format /1
    assert json.loads((tmp_path / MANIFEST_NAME).read_text())["format"] == data["format"]


def test_extended_keeps_seed_and_creation(tmp_path: Path) -> None:
    manifest = Manifest(seed=3, chunk_size=8, deals=16, created="2020-01-01T00:00:00+00:00")
    bigger = manifest.extended(40)
    assert (bigger.seed, bigger.chunk_size, bigger.deals) == (3, 8, 40)
    assert bigger.created == "2020-01-01T00:00:00+00:00"
