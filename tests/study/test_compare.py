"""Ours against the published study: total variation, chi-square, verdict."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import chi2

from bridgescore.core import Vulnerability
from bridgescore.study.compare import (
    compare_distributions,
    compare_report,
    format_comparison,
    load_published,
)
from bridgescore.study.manifest import Manifest
from bridgescore.study.report import ParStats, StudyReport


def test_published_figures_are_consistent() -> None:
    published = load_published()
    assert published.deals == 10_485_760
    for name in ("None", "NS", "EW", "Both"):
        assert sum(published.distributions[name].values()) == published.deals


def test_identical_proportions_are_within_noise() -> None:
    result = compare_distributions("None", {100: 50, 420: 50}, {100: 5000, 420: 5000})
    assert result.total_variation == 0.0
    assert result.p_value == pytest.approx(1.0)
    assert result.within_noise
    assert result.verdict == "within sampling noise"


def test_total_variation_by_hand() -> None:
    # Proportions (0.3, 0.7, 0) against (0.5, 0.4, 0.1): half of 0.2 + 0.3 + 0.1.
    result = compare_distributions(
        "NS", {100: 30, 420: 70}, {100: 50, 420: 40, 1430: 10}, simulations=10
    )
    assert result.total_variation == pytest.approx(0.3)
    assert result.only_published == (1430,)
    assert result.only_ours == ()


def test_chi_square_against_the_textbook_formula() -> None:
    # 2 x 2 homogeneity: sum of (observed - expected)^2 / expected, 1 degree of freedom.
    ours, theirs = {100: 60, 420: 40}, {100: 500, 420: 500}
    table = np.array([[60, 40], [500, 500]], dtype=float)
    expected = table.sum(1, keepdims=True) * table.sum(0, keepdims=True) / table.sum()
    statistic = float(((table - expected) ** 2 / expected).sum())
    result = compare_distributions("EW", ours, theirs)
    assert result.chi_square == pytest.approx(statistic)
    assert result.degrees_of_freedom == 1
    assert result.p_value == pytest.approx(float(chi2.sf(statistic, 1)))


def test_rare_scores_are_pooled_for_the_test() -> None:
    # 1430 expects 0.5 of our 100 deals and 2220 expects 0.1: pooled into one cell.
    result = compare_distributions(
        "Both", {100: 50, 420: 50}, {100: 4940, 420: 4950, 1430: 50, 2220: 10}
    )
    assert result.degrees_of_freedom == 2


def test_too_few_deals_to_test() -> None:
    # Two deals: every cell expects fewer than 5, so everything pools into one cell.
    result = compare_distributions("None", {100: 1, 420: 1}, {100: 500, 420: 400, 1430: 100})
    assert result.degrees_of_freedom == 0
    assert result.verdict == "too few deals to test"


def test_a_clear_difference_is_not_within_noise() -> None:
    result = compare_distributions("None", {100: 700, 420: 300}, {100: 500_000, 420: 500_000})
    assert result.p_value < 1e-9
    assert not result.within_noise
    assert result.verdict.startswith("NOT within sampling noise")
    assert result.total_variation == pytest.approx(0.2)
    assert result.noise_total_variation < 0.05


def test_noise_yardstick_matches_sampling_theory() -> None:
    # Two equal cells, n deals: TV = |X/n - 1/2| with X binomial; its 95th percentile
    # is about 1.96 * sqrt(1/(4n)).
    n = 10_000
    result = compare_distributions("None", {100: n // 2, 420: n // 2}, {100: 1, 420: 1})
    assert result.noise_total_variation == pytest.approx(1.96 * math.sqrt(0.25 / n), rel=0.15)


def test_a_sample_of_the_published_distribution_is_within_noise() -> None:
    published = load_published()
    rng = np.random.default_rng(5)
    stats = {}
    for vulnerability, name in zip(Vulnerability, ("None", "NS", "EW", "Both"), strict=True):
        counts = published.distributions[name]
        scores = np.array(sorted(counts))
        p = np.array([counts[s] for s in scores]) / published.deals
        drawn = rng.choice(scores, size=5000, p=p)
        signs = rng.choice([-1, 1], size=5000)
        stats[vulnerability] = ParStats.from_scores(drawn * signs)
    report = StudyReport(Manifest(seed=1, chunk_size=1000, deals=5000), stats, chunks=5)
    comparisons = compare_report(report)
    assert list(comparisons) == ["None", "NS", "EW", "Both"]
    assert all(c.within_noise for c in comparisons.values())
    assert all(c.total_variation < 0.05 for c in comparisons.values())
    text = format_comparison(report, comparisons)
    assert text.count("within sampling noise") == 4
    assert "Compared with: Richard Pavlicek" in text


def test_json_form(tmp_path: Path) -> None:
    data = compare_distributions("None", {100: 3, 420: 1}, {100: 1, 420: 1}).as_dict()
    assert set(data) >= {"total_variation", "p_value", "within_noise", "verdict"}
    assert data["total_variation"] == 0.25
