"""The sim benchmark still runs: at a small size, its two answers checked equal inside.

The benchmark asserts that the sim's totals and outliers are the direct loop's; the
timings it prints are not asserted.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "sim.py"


def test_sim_benchmark_runs_at_a_small_size() -> None:
    command = [sys.executable, str(SCRIPT), "--clubs", "5", "--tables", "3", "--boards", "4"]
    done = subprocess.run(
        [*command, "--repeat", "1"], capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # 5 clubs x 3 tables x 4 boards: 60 results.
    assert lines[0].startswith("5 clubs x 3 tables x 4 boards: 60 results, best of 1;")
    assert re.fullmatch(r"direct loop \(.*\): +[0-9.]+ s", lines[1])
    assert re.fullmatch(r"session sim \(.*\): +[0-9.]+ s", lines[2])
    assert re.fullmatch(r"ratio \(direct / sim\) [0-9.]+x; [0-9]+ outliers found", lines[3])
