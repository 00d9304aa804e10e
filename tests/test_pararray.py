"""par_array: the same scores as the scalar par, table by table, for whole arrays.

Expected values: the shared vectors (equal to DDS's DealerPar) and, on many
random tables, the scalar :func:`bridgescore.parscore` (itself checked against the
vectors, the worked deals of docs/par-definition.md and DDS in tests/test_parscore.py).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

import bridgescore.pararray as pararray
from bridgescore import (
    DDTable,
    InvalidTableError,
    NotationError,
    Seat,
    Vulnerability,
    par,
    par_array,
)

VECTORS = Path(__file__).parent / "data" / "par_vectors.jsonl"
FULL = os.environ.get("BRIDGESCORE_FULL") == "1"
COUNT = 50_000 if FULL else 10_000


def random_tables(seed: int, count: int) -> npt.NDArray[np.int64]:
    """Half shaped like real deals' tables, half anything at all (0-13 each)."""
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 14, size=(count, 5))
    tables = np.empty((count, 4, 5), dtype=np.int64)
    tables[:, [Seat.NORTH, Seat.SOUTH]] = base[:, None, :]
    tables[:, [Seat.EAST, Seat.WEST]] = 13 - base[:, None, :]
    tables = np.clip(tables + rng.integers(-2, 3, size=(count, 4, 5)), 0, 13)
    half = count // 2
    tables[:half] = rng.integers(0, 14, size=(half, 4, 5))
    result: npt.NDArray[np.int64] = tables
    return result


TABLES = random_tables(7, COUNT)
DD_TABLES = [DDTable.from_array(table) for table in TABLES]


@pytest.fixture(autouse=True, params=["numpy", "kernel"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Every test runs on both paths: numpy alone, and the compiled kernel (numba, the
    ``fast`` extra) for every array, however small."""
    if request.param == "kernel":
        pytest.importorskip("numba", reason="the compiled kernel needs the fast extra")
        monkeypatch.setattr(pararray, "_KERNEL_FROM", 0)
        assert pararray._kernel() is not None
    else:
        monkeypatch.setattr(pararray, "_KERNEL_FROM", 1 << 62)
    yield request.param


@cache
def scalar_scores(vulnerability: Vulnerability, dealer: Seat | None) -> list[int]:
    return [par(table, vulnerability, dealer).score for table in DD_TABLES]


@pytest.mark.parametrize("dealer", [None, *Seat])
@pytest.mark.parametrize("vulnerability", list(Vulnerability))
def test_equals_scalar_par(vulnerability: Vulnerability, dealer: Seat | None) -> None:
    scores = par_array(TABLES, vulnerability, dealer)
    assert scores.shape == (COUNT,)
    assert scores.tolist() == scalar_scores(vulnerability, dealer)


@pytest.mark.parametrize("dealer", [None, Seat.EAST])
def test_one_vulnerability_per_table(dealer: Seat | None) -> None:
    vulnerabilities = np.random.default_rng(8).integers(0, 4, size=COUNT)
    scores = par_array(TABLES, vulnerabilities, dealer)
    expected = [
        par(table, int(vul), dealer).score
        for table, vul in zip(DD_TABLES, vulnerabilities, strict=True)
    ]
    assert scores.tolist() == expected


def test_par_vectors() -> None:
    records = [json.loads(line) for line in VECTORS.read_text().splitlines()]
    tables = np.stack([DDTable.parse(record["dd"]).to_array() for record in records])
    for vulnerability in Vulnerability:
        key = str(vulnerability)
        for convention, dealer in (
            ("neutral", None),
            ("dealer N", Seat.NORTH),
            ("dealer E", Seat.EAST),
        ):
            expected = [record["par"][key][convention]["score"] for record in records]
            assert par_array(tables, vulnerability, dealer).tolist() == expected


def test_input_forms() -> None:
    tables = TABLES[:50]
    expected = par_array(tables, Vulnerability.EW)
    assert expected.dtype == np.int32
    assert par_array(tables.astype(np.uint8), 2).tolist() == expected.tolist()
    assert par_array(tables.tolist(), "EW").tolist() == expected.tolist()
    assert par_array(tables, np.full(50, 2)).tolist() == expected.tolist()
    assert (
        par_array(tables, Vulnerability.EW, 1).tolist()
        == par_array(tables, Vulnerability.EW, Seat.EAST).tolist()
    )
    assert par_array(np.zeros((0, 4, 5), dtype=np.int8), 0).shape == (0,)


@pytest.mark.parametrize(
    ("tables", "vulnerability", "dealer", "error", "words"),
    [
        (np.zeros((4, 5), dtype=int), 0, None, InvalidTableError, "shaped (n, 4, 5)"),
        (np.zeros((2, 5, 4), dtype=int), 0, None, InvalidTableError, "(2, 5, 4)"),
        (np.zeros((2, 4, 5)), 0, None, InvalidTableError, "float64"),
        (np.full((2, 4, 5), 14), 0, None, InvalidTableError, "tables[0, 0, 0] = 14"),
        (np.full((2, 4, 5), -1), 0, None, InvalidTableError, "= -1"),
        ([["x"]], 0, None, InvalidTableError, "shaped"),
        (np.zeros((2, 4, 5), dtype=int), 4, None, NotationError, "vulnerability[0] = 4"),
        (np.zeros((2, 4, 5), dtype=int), [0, 1, 2], None, NotationError, "does not match 2"),
        (np.zeros((2, 4, 5), dtype=int), 0.5, None, NotationError, "0.5"),
        (np.zeros((2, 4, 5), dtype=int), "sideways", None, NotationError, "sideways"),
        (np.zeros((2, 4, 5), dtype=int), 0, 7, NotationError, "dealer must be N, E, S or W, got 7"),
        (
            np.zeros((2, 4, 5), dtype=int),
            0,
            "Q",
            NotationError,
            "dealer must be N, E, S or W, got 'Q'",
        ),
    ],
)
def test_bad_input(
    tables: object, vulnerability: object, dealer: object, error: type, words: str
) -> None:
    with pytest.raises(error) as raised:
        par_array(tables, vulnerability, dealer)  # type: ignore[arg-type]
    assert words in str(raised.value)


def test_numpy_only_keeps_to_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BRIDGESCORE_NUMPY_ONLY", "1")
    pararray._kernel.cache_clear()
    try:
        assert pararray._kernel() is None
    finally:
        pararray._kernel.cache_clear()


def test_strided_and_odd_typed_input() -> None:
    # A view (every other table, seats reordered back) reaches the kernel contiguous.
    tables = np.ascontiguousarray(TABLES[::-1])[::2][:, [0, 1, 2, 3]].astype(np.int16)
    expected = [par(DDTable.from_array(t), Vulnerability.NS).score for t in tables]
    assert par_array(tables, Vulnerability.NS).tolist() == expected
