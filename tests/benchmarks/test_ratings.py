"""The ratings benchmark still runs: at a tiny size, its report's shape."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "ratings.py"


def test_ratings_benchmark_runs_at_a_tiny_size() -> None:
    command = [sys.executable, str(SCRIPT), "--players", "12", "--sessions", "3", "--seeds", "2"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].startswith("12 players, 3 sessions, seeds 0-1")
    assert [line.split(":")[0] for line in lines[2:4]] == ["seed 0", "seed 1"]
    assert lines[-2].startswith("ratio: the plain mean misses")
    assert lines[-1].startswith("target (at least 0.9 at 40 players, 30 sessions):")
