"""The plot of the four distributions: our bars in every panel, the published markers
only when asked, and the titles and scores written on it."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from bridgescore.core import Vulnerability
from bridgescore.study.compare import load_published
from bridgescore.study.manifest import Manifest
from bridgescore.study.plot import plot_report
from bridgescore.study.report import ParStats, StudyReport

BARS = (0x48, 0x78, 0xA8)  # #4878a8, our bars
MARKERS = (0xC0, 0x39, 0x2B)  # #c0392b, the published proportions


def _report() -> StudyReport:
    stats = {v: ParStats.from_scores([100, -420, 420, 140 + int(v) * 10]) for v in Vulnerability}
    return StudyReport(Manifest(seed=1, chunk_size=4, deals=4), stats, chunks=1)


def _pixels_of(image: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    rgb = np.rint(image[:, :, :3] * 255).astype(int)
    return np.all(np.abs(rgb - np.array(colour)) <= 2, axis=2)


def test_the_png_has_our_bars_in_four_panels_and_the_markers_only_when_asked(
    tmp_path: Path,
) -> None:
    import matplotlib.image

    for published in (None, load_published().distributions):
        path = tmp_path / f"par-{published is None}.png"
        assert plot_report(_report(), path, published) == path
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        image = matplotlib.image.imread(path)
        assert image.shape[:2] == (900, 1400)  # 14 x 9 inches at 100 dots an inch
        bars = _pixels_of(image, BARS)
        # Bars in each quarter of the figure: one panel a vulnerability.
        for rows in (slice(0, 450), slice(450, 900)):
            for columns in (slice(0, 700), slice(700, 1400)):
                assert bars[rows, columns].sum() > 500
        assert bool(_pixels_of(image, MARKERS).any()) == (published is not None)


def test_the_svg_names_each_vulnerability_and_every_score(tmp_path: Path) -> None:
    path = plot_report(_report(), tmp_path / "par.svg")
    text = path.read_text(encoding="utf-8")
    # Matplotlib writes each text it draws as a comment before its glyphs.
    written = set(re.findall(r"<!-- (.*?) -->", text))
    for name in ("None", "NS", "EW", "Both"):
        assert f"{name} vulnerable" in written
    # The absolute par scores: 100 and 420 in every panel, 140 + 10 v in panel v.
    for score in ("100", "420", "140", "150", "160", "170"):
        assert score in written
    assert "Neutral par scores of 4 random deals (seed 1)" in written
