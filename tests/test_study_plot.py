"""The plot of the four distributions is a real PNG."""

from __future__ import annotations

from pathlib import Path

from bridgescore.core import Vulnerability
from bridgescore.study.compare import load_published
from bridgescore.study.manifest import Manifest
from bridgescore.study.plot import plot_report
from bridgescore.study.report import ParStats, StudyReport


def test_plot_writes_a_png(tmp_path: Path) -> None:
    stats = {v: ParStats.from_scores([100, -420, 420, 140 + int(v) * 10]) for v in Vulnerability}
    report = StudyReport(Manifest(seed=1, chunk_size=4, deals=4), stats, chunks=1)
    for published in (None, load_published().distributions):
        path = tmp_path / f"par-{published is None}.png"
        assert plot_report(report, path, published) == path
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert len(data) > 20_000
