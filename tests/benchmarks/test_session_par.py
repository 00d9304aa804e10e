"""The session and par benchmarks still run: at a small size.

Both check, inside, that the two sides they time give the same answers (score_event's
totals against the naive loop's; par_array against par and DDS); the timings they
print are not asserted.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _run(script: str, *arguments: str) -> str:
    command = [sys.executable, str(BENCHMARKS / script), *arguments]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_session_benchmark_runs_at_a_small_size() -> None:
    out = _run("session.py", "--boards", "12", "--results", "8", "--repeat", "1")
    assert "whole event, matchpoints (96 contracts" in out
    assert "whole event, teams IMPs (96 contracts" in out
    assert "club session, 30 tables x 27 boards (810 results)" in out


def test_par_benchmark_runs_at_a_small_size() -> None:
    pytest.importorskip("endplay")
    out = _run("par.py", "--tables", "50", "--array-tables", "30000", "--repeat", "1")
    assert "par_array dealer-first" in out and "numpy only" in out
