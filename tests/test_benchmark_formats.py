"""The formats benchmark still runs: at a small size, both ways of reading.

It checks, inside, that our readers give back exactly the boards written and
that endplay's find every board; the timings it prints are not asserted.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "formats.py"


@pytest.mark.parametrize("extra", [[], ["--collector-as-usual"]])
def test_formats_benchmark_runs_at_a_small_size(extra: list[str]) -> None:
    pytest.importorskip("endplay.parsers.pbn")
    command = [sys.executable, str(SCRIPT), "--boards", "40", "--repeat", "1"]
    command += ["--championship-bytes", "20000", *extra]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("PBN ") and "ratio" in line for line in lines)
    assert any(line.startswith("LIN ") and "ratio" in line for line in lines)
    assert any(line.startswith("vugraph ") and "ratio" in line for line in lines)
    assert any(line.startswith("championship PBN") for line in lines)
    assert ("collector as usual" in done.stdout) == bool(extra)
