"""Report arithmetic: hand-made shards and counts, checked against figures worked by hand."""

from __future__ import annotations

import json
import statistics
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from bridgescore.core import Vulnerability
from bridgescore.deal import random_deals
from bridgescore.errors import StudyError
from bridgescore.study.manifest import Manifest, save_manifest
from bridgescore.study.report import ParStats, format_report, study_report
from bridgescore.study.shards import build_shard, shard_name, write_shard

# Ten par scores worked by hand below.
SCORES = [420, -420, 420, 100, -100, 0, 1430, 140, -140, 140]


def test_summary_figures_by_hand() -> None:
    stats = ParStats.from_scores(SCORES)
    assert stats.deals == 10
    assert (stats.plus_ns, stats.plus_ew, stats.zero) == (6, 3, 1)
    assert stats.scores == {0: 1, 100: 2, 140: 3, 420: 3, 1430: 1}
    assert stats.unique == 5
    assert (stats.minimum, stats.maximum) == (0, 1430)
    assert stats.mode == 140  # 140 and 420 both occur 3 times: the lower wins
    # Sorted: 0 100 100 140 140 | 140 420 420 420 1430: the lower median is the 5th.
    assert stats.median == 140
    assert stats.mean == pytest.approx(3310 / 10)
    # Squared deviations from 331: 109561 + 2*53361 + 3*36481 + 3*7921 + 1207801.
    assert stats.std == pytest.approx((1557290 / 10) ** 0.5)
    assert stats.std == pytest.approx(statistics.pstdev([abs(s) for s in SCORES]))


def test_score_table_rows_by_hand() -> None:
    rows = ParStats.from_scores(SCORES).rows()
    assert [value for row in rows for value in row] == pytest.approx(
        [
            value
            for row in [
                (0, 1, 10.0, 100.0, 10.0),
                (100, 2, 20.0, 90.0, 30.0),
                (140, 3, 30.0, 70.0, 60.0),
                (420, 3, 30.0, 40.0, 90.0),
                (1430, 1, 10.0, 10.0, 100.0),
            ]
            for value in row
        ]
    )


def test_odd_count_median_and_single_deal() -> None:
    assert ParStats.from_scores([-50, 600, 100]).median == 100
    one = ParStats.from_scores([-1100])
    assert (one.plus_ew, one.minimum, one.maximum, one.mode, one.median, one.std) == (
        1,
        1100,
        1100,
        1100,
        1100,
        0.0,
    )


def test_empty_statistics_say_so() -> None:
    empty = ParStats.from_counts({})
    assert empty.deals == 0
    with pytest.raises(StudyError, match="no deals"):
        _ = empty.median


def test_merged_counts_add_up() -> None:
    a, b = ParStats.from_scores(SCORES[:4]), ParStats.from_scores(SCORES[4:])
    assert a.merged(b) == ParStats.from_scores(SCORES)


@pytest.mark.parametrize("name", ["None", "NS", "EW", "Both"])
def test_published_summary_is_reproduced_from_published_counts(name: str) -> None:
    # The published study's own counts must give its own summary figures.
    path = resources.files("bridgescore") / "data" / "pavlicek_par_stats.json"
    published = json.loads(path.read_text(encoding="utf-8"))
    counts = {int(k): v for k, v in published["distributions"][name].items()}
    stats = ParStats.from_counts(counts)
    summary = published["summary"][name]
    assert stats.deals == published["deals"]
    assert stats.zero == summary["zero"]
    assert stats.unique == summary["unique"]
    assert (stats.minimum, stats.maximum) == (summary["min"], summary["max"])
    assert (stats.mode, stats.median) == (summary["mode"], summary["median"])
    assert round(stats.mean) == summary["mean"]
    assert round(stats.std) == summary["std"]


def _study(tmp_path: Path, chunks: dict[int, dict[Vulnerability, list[int]]]) -> Path:
    save_manifest(tmp_path, Manifest(seed=1, chunk_size=4, deals=10))
    for chunk, pars in chunks.items():
        n = len(pars[Vulnerability.NONE])
        deals = [deal.to_pbn() for deal in random_deals(n, seed=chunk)]
        table = build_shard(chunk, deals, np.zeros((n, 4, 5), dtype=int), pars)
        write_shard(tmp_path, seed=1, chunk_size=4, chunk=chunk, table=table)
    return tmp_path


def _pars(none: list[int]) -> dict[Vulnerability, list[int]]:
    # NS vulnerable doubles, EW vulnerable negates, Both is NS + 10: easy to check.
    return {
        Vulnerability.NONE: none,
        Vulnerability.NS: [2 * s for s in none],
        Vulnerability.EW: [-s for s in none],
        Vulnerability.BOTH: [s + 10 for s in none],
    }


def test_study_report_of_hand_made_shards(tmp_path: Path) -> None:
    _study(
        tmp_path,
        {0: _pars([420, -420, 420, 100]), 1: _pars([-100, 0, 1430, 140]), 2: _pars([-140, 140])},
    )
    report = study_report(tmp_path)
    assert report.complete and report.deals == 10 and report.problems == ()
    data = report.as_dict()
    assert data["deals"] == 10
    assert list(data["vulnerabilities"]) == ["None", "NS", "EW", "Both"]
    none = data["vulnerabilities"]["None"]
    assert none == {
        "deals": 10,
        "plus_ns": 6,
        "plus_ew": 3,
        "zero": 1,
        "unique": 5,
        "min": 0,
        "max": 1430,
        "mode": 140,
        "median": 140,
        "mean": 331.0,
        "std": round((1557290 / 10) ** 0.5, 2),
        "scores": {"0": 1, "100": 2, "140": 3, "420": 3, "1430": 1},
    }
    assert data["vulnerabilities"]["NS"]["scores"] == {
        "0": 1,
        "200": 2,
        "280": 3,
        "840": 3,
        "2860": 1,
    }
    ew = data["vulnerabilities"]["EW"]
    assert (ew["plus_ns"], ew["plus_ew"], ew["zero"]) == (3, 6, 1)
    both = data["vulnerabilities"]["Both"]
    # 0 -> 10; -100 -> -90, -140 -> -130, -420 -> -410: signs from the shifted scores.
    assert both["scores"] == {
        "10": 1,
        "90": 1,
        "110": 1,
        "130": 1,
        "150": 2,
        "410": 1,
        "430": 2,
        "1440": 1,
    }
    assert (both["plus_ns"], both["plus_ew"], both["zero"]) == (7, 3, 0)
    assert data["study"]["complete"] is True
    assert data["study"]["missing_chunks"] == []


def test_missing_and_foreign_files_are_reported_not_counted(tmp_path: Path) -> None:
    _study(tmp_path, {0: _pars([420, -420, 420, 100]), 2: _pars([-140, 140])})
    (tmp_path / "stray.parquet").write_bytes(b"not ours")
    (tmp_path / shard_name(1)).write_bytes(b"garbage in place of chunk 1")
    report = study_report(tmp_path)
    assert report.deals == 6
    assert report.missing_chunks == (1,)
    assert not report.complete
    assert len(report.problems) == 2
    assert any("stray.parquet': foreign file" in p for p in report.problems)
    assert any("chunk-000001.parquet' is not a readable Parquet file" in p for p in report.problems)
    assert report.stats[Vulnerability.NONE].scores == {100: 1, 140: 2, 420: 3}


def test_short_last_chunk_after_extension_is_missing(tmp_path: Path) -> None:
    _study(tmp_path, {0: _pars([1, 2, 3, 4]), 1: _pars([5, 6, 7, 8]), 2: _pars([9])})
    report = study_report(tmp_path)
    assert report.deals == 9
    assert report.missing_chunks == (2,)


def test_text_report_layout(tmp_path: Path) -> None:
    _study(
        tmp_path,
        {0: _pars([420, -420, 420, 100]), 1: _pars([-100, 0, 1430, 140]), 2: _pars([-140, 140])},
    )
    text = format_report(study_report(tmp_path))
    lines = text.splitlines()
    assert lines[0] == "Par scores of 10 random deals (seed 1, chunks of 4, neutral convention)"
    assert lines[2].split() == ["None", "NS", "EW", "Both"]
    assert lines[3].split() == ["Deals", "10", "10", "10", "10"]
    assert "Par plus NS" in text and "Standard deviation" in text
    # Points as players write them, no thousands separator (the rule in docs/scoring.md):
    # None's top is 1430, NS doubles it, EW negates it, Both adds 10.
    assert lines[9].split() == ["Maximum", "1430", "2860", "1430", "1440"]
    top = next(line for line in lines if line.split()[:1] == ["2860"])
    assert top.split()[:2] == ["2860", "1"]
    assert lines[lines.index("Absolute par scores, None vulnerable") + 2].split() == [
        "0",
        "1",
        "10.0000",
        "100.0000",
        "10.0000",
    ]


def test_not_a_study(tmp_path: Path) -> None:
    with pytest.raises(StudyError, match=r"no study\.json"):
        study_report(tmp_path)
    with pytest.raises(StudyError, match="is not a directory"):
        study_report(tmp_path / "nowhere")
