"""The four distributions of absolute par scores as one PNG (matplotlib, Agg backend)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from bridgescore.study.report import VULNERABILITY_NAMES, StudyReport

__all__ = ["plot_report"]


def plot_report(
    report: StudyReport, path: Path, published: Mapping[str, Mapping[int, int]] | None = None
) -> Path:
    """Draw one bar chart per vulnerability (percent of deals per absolute par score).

    With ``published`` (name -> absolute score -> deals) its proportions are drawn as
    markers over our bars. Returns ``path``.
    """
    import matplotlib

    matplotlib.use("Agg")  # files only: never needs a display
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(2, 2, figsize=(14, 9), constrained_layout=True)
    for axis, (vulnerability, name) in zip(axes.flat, VULNERABILITY_NAMES.items(), strict=True):
        ours = report.stats[vulnerability].scores
        theirs = dict(published[name]) if published is not None else {}
        scores = sorted(set(ours) | set(theirs))
        positions = range(len(scores))
        total = sum(ours.values()) or 1
        axis.bar(
            positions,
            [100 * ours.get(s, 0) / total for s in scores],
            color="#4878a8",
            label=f"this study ({report.deals:,} deals)",
        )
        if theirs:
            their_total = sum(theirs.values())
            axis.plot(
                positions,
                [100 * theirs.get(s, 0) / their_total for s in scores],
                "o",
                color="#c0392b",
                markersize=4,
                label=f"published ({their_total:,} deals)",
            )
        axis.set_title(f"{name} vulnerable")
        axis.set_xticks(list(positions), [str(s) for s in scores], rotation=90, fontsize=7)
        axis.set_ylabel("% of deals")
        axis.set_xlabel("absolute par score")
        axis.grid(axis="y", alpha=0.3)
        axis.legend(fontsize=8)
    figure.suptitle(
        f"Neutral par scores of {report.deals:,} random deals (seed {report.manifest.seed})"
    )
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path
