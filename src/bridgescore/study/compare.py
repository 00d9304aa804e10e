"""Our par statistics beside the published study's, with a distance and a verdict.

For each vulnerability the two distributions of absolute par scores are compared
by total variation distance (half the sum of the absolute differences of the
proportions) and by a chi-square test of homogeneity (scipy) on the 2 x k table of
counts, pooling the scores too rare in our sample for the test into one cell.
The verdict is "within sampling noise" when the p-value is at least ``alpha``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np

from bridgescore.errors import StudyError
from bridgescore.study.report import VULNERABILITY_NAMES, ParStats, StudyReport

__all__ = [
    "Comparison",
    "Published",
    "compare_distributions",
    "compare_report",
    "format_comparison",
    "load_published",
]

# The usual rule for chi-square: every pooled cell expects at least 5 of our deals.
MIN_EXPECTED = 5.0


@dataclass(frozen=True, slots=True)
class Published:
    """The published figures: source, deals, and per vulnerability summary and counts."""

    source: str
    deals: int
    summary: Mapping[str, Mapping[str, int]]
    distributions: Mapping[str, Mapping[int, int]]


def load_published() -> Published:
    """The published study shipped with the package (``data/pavlicek_par_stats.json``)."""
    path = resources.files("bridgescore") / "data" / "pavlicek_par_stats.json"
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    return Published(
        source=data["source"],
        deals=int(data["deals"]),
        summary={k: dict(v) for k, v in data["summary"].items()},
        distributions={
            name: {int(score): int(count) for score, count in counts.items()}
            for name, counts in data["distributions"].items()
        },
    )


@dataclass(frozen=True, slots=True)
class Comparison:
    """One vulnerability: distances between ours and the published distribution."""

    vulnerability: str
    deals: int
    published_deals: int
    total_variation: float
    noise_total_variation: float
    chi_square: float
    degrees_of_freedom: int
    p_value: float
    alpha: float
    only_ours: tuple[int, ...]
    only_published: tuple[int, ...]

    @property
    def within_noise(self) -> bool:
        """True when the chi-square test does not reject equality at level ``alpha``."""
        return self.p_value >= self.alpha

    @property
    def verdict(self) -> str:
        if self.degrees_of_freedom == 0:
            return "too few deals to test"
        if self.within_noise:
            return "within sampling noise"
        return f"NOT within sampling noise (p < {self.alpha:g})"

    def as_dict(self) -> dict[str, Any]:
        return {
            "deals": self.deals,
            "published_deals": self.published_deals,
            "total_variation": round(self.total_variation, 6),
            "noise_total_variation_95": round(self.noise_total_variation, 6),
            "chi_square": round(self.chi_square, 4),
            "degrees_of_freedom": self.degrees_of_freedom,
            "p_value": self.p_value,
            "alpha": self.alpha,
            "within_noise": self.within_noise,
            "verdict": self.verdict,
            "only_ours": list(self.only_ours),
            "only_published": list(self.only_published),
        }


def compare_distributions(
    name: str,
    ours: Mapping[int, int],
    published: Mapping[int, int],
    *,
    alpha: float = 0.01,
    simulations: int = 2000,
    seed: int = 0,
) -> Comparison:
    """Compare two tables of absolute score -> deals.

    ``noise_total_variation`` is the 95th percentile of the total variation between
    the published proportions and samples of our size drawn from them (seeded, so
    reproducible): a yardstick for what sampling alone gives.

    >>> c = compare_distributions("None", {100: 50, 420: 50}, {100: 500, 420: 500})
    >>> c.total_variation, c.within_noise
    (0.0, True)
    """
    from scipy.stats import chi2_contingency

    scores = sorted(set(ours) | set(published))
    mine = np.array([ours.get(s, 0) for s in scores], dtype=np.float64)
    theirs = np.array([published.get(s, 0) for s in scores], dtype=np.float64)
    n, big_n = mine.sum(), theirs.sum()
    if n <= 0 or big_n <= 0:
        raise StudyError(f"{name}: cannot compare an empty distribution")
    p, q = mine / n, theirs / big_n
    total_variation = 0.5 * float(np.abs(p - q).sum())

    rng = np.random.default_rng(seed)
    samples = rng.multinomial(int(n), q, size=simulations) / n
    noise = float(np.percentile(0.5 * np.abs(samples - q).sum(axis=1), 95))

    # Expected counts of our sample under homogeneity; pool the small cells.
    expected = n * (mine + theirs) / (n + big_n)
    common = expected >= MIN_EXPECTED
    table = [mine[common], theirs[common]]
    if (~common).any():
        table = [
            np.append(table[0], mine[~common].sum()),
            np.append(table[1], theirs[~common].sum()),
        ]
    if len(table[0]) < 2:
        chi_square, dof, p_value = 0.0, 0, 1.0
    else:
        result = chi2_contingency(np.array(table), correction=False)
        chi_square, p_value, dof = float(result[0]), float(result[1]), int(result[2])
    return Comparison(
        vulnerability=name,
        deals=int(n),
        published_deals=int(big_n),
        total_variation=total_variation,
        noise_total_variation=noise,
        chi_square=chi_square,
        degrees_of_freedom=dof,
        p_value=p_value,
        alpha=alpha,
        only_ours=tuple(s for s in scores if ours.get(s, 0) and not published.get(s, 0)),
        only_published=tuple(s for s in scores if published.get(s, 0) and not ours.get(s, 0)),
    )


def compare_report(
    report: StudyReport, published: Published | None = None, *, alpha: float = 0.01
) -> dict[str, Comparison]:
    """One :class:`Comparison` per vulnerability, named as in the published study."""
    published = published or load_published()
    if report.deals == 0:
        raise StudyError("the study has no finished chunks yet: nothing to compare")
    return {
        name: compare_distributions(
            name, report.stats[v].scores, published.distributions[name], alpha=alpha
        )
        for v, name in VULNERABILITY_NAMES.items()
    }


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.3f}%"


def format_comparison(
    report: StudyReport, comparisons: Mapping[str, Comparison], published: Published | None = None
) -> str:
    """Ours beside the published figures, per vulnerability, with distances and verdicts."""
    published = published or load_published()
    lines = [f"Compared with: {published.source}", ""]
    for vulnerability, name in VULNERABILITY_NAMES.items():
        ours: ParStats = report.stats[vulnerability]
        theirs = published.summary[name]
        comparison = comparisons[name]
        lines.append(f"{name} vulnerable{'':<10}{'ours':>14}{'published':>14}")
        rows: list[tuple[str, str, str]] = [
            ("Deals", f"{ours.deals:,}", f"{published.deals:,}"),
            (
                "Par plus NS",
                _percent(ours.plus_ns, ours.deals),
                _percent(theirs["plus_ns"], published.deals),
            ),
            (
                "Par plus EW",
                _percent(ours.plus_ew, ours.deals),
                _percent(theirs["plus_ew"], published.deals),
            ),
            (
                "Par zero",
                _percent(ours.zero, ours.deals),
                _percent(theirs["zero"], published.deals),
            ),
            ("Unique scores", str(ours.unique), str(theirs["unique"])),
            ("Minimum", str(ours.minimum), str(theirs["min"])),
            ("Maximum", str(ours.maximum), str(theirs["max"])),
            ("Mode", str(ours.mode), str(theirs["mode"])),
            ("Median", str(ours.median), str(theirs["median"])),
            ("Mean", f"{ours.mean:.1f}", str(theirs["mean"])),
            ("Standard deviation", f"{ours.std:.1f}", str(theirs["std"])),
        ]
        lines += [f"  {label:<24}{a:>14}{b:>14}" for label, a, b in rows]
        lines.append(
            f"  total variation distance {comparison.total_variation:.4f} "
            f"(sampling alone, 95%: {comparison.noise_total_variation:.4f}); "
            f"chi-square {comparison.chi_square:.1f} on {comparison.degrees_of_freedom} df, "
            f"p = {comparison.p_value:.3g}: {comparison.verdict}"
        )
        if comparison.only_ours:
            lines.append(f"  scores only in ours: {', '.join(map(str, comparison.only_ours))}")
        if comparison.only_published:
            counts = published.distributions[name]
            shown = ", ".join(
                f"{score} ({counts[score] * ours.deals / published.deals:.2g} expected)"
                for score in comparison.only_published
            )
            lines.append(f"  scores only in the published study: {shown}")
        lines.append("")
    return "\n".join(lines).rstrip()
