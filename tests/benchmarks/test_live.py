"""The live session benchmark still runs: a small evening with a few readers.

The benchmark's figures are timings and are not asserted; what is asserted is that
every request it makes was answered as a club's phones need (every result stored,
every page served, no error) and that it counted what it says it counted.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_live_benchmark_runs_at_a_small_size() -> None:
    command = [
        sys.executable, str(BENCHMARKS / "live.py"), "--json",
        "--tables", "5", "--rounds", "3", "--boards", "2", "--ranking-times", "3",
        "--readers", "4", "--phones", "3", "--every", "0.05",
        "--recompute-tables", "7", "--recompute-times", "2",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)

    # 5 tables x 3 rounds x 2 boards: 30 results, each entered once over HTTP.
    assert (figures["tables"], figures["rounds"], figures["boards"]) == (5, 3, 2)
    assert figures["results"] == 30
    assert figures["alone"]["count"] == 30
    assert figures["alone"]["errors"] == 0
    assert figures["ranking_after_a_result"]["count"] == 3

    crowd = figures["with_readers"]
    assert (crowd["readers"], crowd["phones"]) == (4, 3)
    assert crowd["errors"] == 0
    assert crowd["entries"]["count"] == 30
    # Every reader loads its page at least once: before the first result and until the last.
    assert crowd["ranking_page"]["count"] >= 4
    assert crowd["table_page"]["count"] >= 3
    for name in ("entries", "ranking_page", "table_page"):
        spread = crowd[name]
        assert 0 < spread["p50"] <= spread["p99"] <= spread["max"]

    # A Mitchell of 7 tables, 3 rounds of 2 boards: 42 results, 7 NS and 7 EW pairs.
    recompute = figures["recompute"]
    assert (recompute["tables"], recompute["boards"], recompute["results"]) == (7, 6, 42)
    assert recompute["pairs"] == 14
    assert recompute["ranking"]["count"] == recompute["report"]["count"] == 2


def test_live_benchmark_runs_two_sections() -> None:
    command = [
        sys.executable, str(BENCHMARKS / "live.py"), "--json", "--sections", "2",
        "--tables", "3", "--rounds", "3", "--boards", "2", "--ranking-times", "2",
        "--readers", "2", "--phones", "2", "--every", "0.05",
        "--recompute-tables", "5", "--recompute-times", "1",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    # Two sections of 3 tables x 3 rounds x 2 boards: 36 results, each entered once.
    assert (figures["sections"], figures["tables"]) == (2, 6)
    assert figures["results"] == figures["alone"]["count"] == 36
    assert figures["alone"]["errors"] == figures["with_readers"]["errors"] == 0
    assert figures["with_readers"]["entries"]["count"] == 36


@pytest.fixture(scope="module")
def beside_the_shell() -> dict[str, Any]:
    """One small run from one address, with the shell's loops beside the server."""
    command = [
        sys.executable, str(BENCHMARKS / "live.py"), "--json", "--one-address",
        "--shell-readers", "--tables", "5", "--rounds", "3", "--boards", "2",
        "--ranking-times", "2", "--readers", "3", "--phones", "2", "--every", "0.05",
        "--recompute-tables", "5", "--recompute-times", "1",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


def test_live_benchmark_runs_from_one_address_beside_the_shell(
    beside_the_shell: dict[str, Any],
) -> None:
    figures = beside_the_shell
    # Every client from 127.0.0.1: 5 tables x 3 rounds x 2 boards = 30 results, none refused.
    assert figures["one_address"] is True
    assert figures["alone"]["count"] == figures["with_readers"]["entries"]["count"] == 30
    assert figures["alone"]["errors"] == figures["with_readers"]["errors"] == 0
    shell = figures["beside_the_shell"]
    assert shell["entries"]["count"] == shell["acknowledged"] == 30 and shell["errors"] == 0
    # Both loops ran before the tables began (at least once each) and none failed.
    assert shell["scores"] + shell["empty_scores"] >= 1 and shell["backups"] >= 1
    assert shell["shell_failures"] == []
    # Counted from the file after kill -9, whatever it holds.
    assert 0 <= shell["stored"] <= 30


def test_after_kill_every_result_acknowledged_beside_the_shell_is_stored(
    beside_the_shell: dict[str, Any],
) -> None:
    shell = beside_the_shell["beside_the_shell"]
    assert shell["stored"] == shell["acknowledged"] == 30
