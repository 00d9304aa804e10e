"""The formats benchmark still runs: at a small size, both ways of reading.

It checks, inside, that our readers give back exactly the boards written and
that endplay's find every board; the timings it prints are not asserted.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "formats.py"
# "LIN  0.0 MB, CPU : bridgescore   9,122 games/s  endplay   2,589 games/s  ratio  3.5x"
_RACE = re.compile(
    r"(?P<format>PBN|LIN|vugraph|real-shaped PBN) +[0-9.]+ MB, (?P<clock>wall|CPU) *: "
    r"bridgescore +(?P<ours>[0-9,]+) games/s +endplay[^0-9]* +(?P<theirs>[0-9,]+) games/s "
    r"+ratio +(?P<ratio>[0-9.]+)x"
)
_CHAMPIONSHIP = re.compile(
    r"championship PBN +[0-9.]+ MB, (?P<games>[0-9,]+) games: read and scored .*"
)


@pytest.mark.parametrize("extra", [[], ["--collector-as-usual"]])
def test_formats_benchmark_runs_at_a_small_size(extra: list[str]) -> None:
    pytest.importorskip("endplay.parsers.pbn")
    command = [sys.executable, str(SCRIPT), "--boards", "40", "--repeat", "1"]
    command += ["--championship-bytes", "20000", *extra]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "40 boards, best of 1" in done.stdout
    races = [found for line in lines if (found := _RACE.fullmatch(line))]
    # Every format raced on both clocks, each ratio the quotient of the two rates shown.
    assert sorted((r["format"], r["clock"]) for r in races) == sorted(
        (name, clock)
        for name in ("PBN", "LIN", "vugraph", "real-shaped PBN")
        for clock in ("wall", "CPU")
    )
    for race in races:
        ours, theirs = (int(race[key].replace(",", "")) for key in ("ours", "theirs"))
        assert ours > 0 and theirs > 0
        assert abs(float(race["ratio"]) - ours / theirs) <= 0.051 + ours / theirs * 0.01, race[0]
    (championship,) = [found for line in lines if (found := _CHAMPIONSHIP.fullmatch(line))]
    assert int(championship["games"].replace(",", "")) > 0
    assert ("collector as usual" in done.stdout) == bool(extra)
