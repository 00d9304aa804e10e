"""Plots of a simulation (matplotlib, Agg): trick distributions and the comparisons."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["plot_report"]


def plot_report(report: dict[str, Any], path: Path | str) -> None:
    """Write a PNG: each contract's trick distribution, and net IMPs of each comparison."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    contracts = report["contracts"]
    comparisons = report.get("comparisons", [])
    panels = 2 if comparisons else 1
    figure, axes = plt.subplots(1, panels, figsize=(6.5 * panels, 4.2), squeeze=False)
    tricks_axis = axes[0][0]
    width = 0.8 / len(contracts)
    for position, contract in enumerate(contracts):
        counts = np.array(contract["tricks"], dtype=float)
        share = counts / max(counts.sum(), 1)
        label = (
            f"{contract['contract']} by {contract['declarer']}: makes "
            f"{100 * contract['make']:.1f}% ±{100 * contract['make_se']:.1f}"
        )
        tricks_axis.bar(
            np.arange(14) + (position - (len(contracts) - 1) / 2) * width,
            share,
            width=width,
            label=label,
        )
    tricks_axis.set_xticks(range(14))
    tricks_axis.set_xlabel("tricks taken by declarer (double dummy)")
    tricks_axis.set_ylabel("share of deals")
    tricks_axis.set_title(f"{report['deals']:,} deals")
    tricks_axis.legend(fontsize=8)
    if comparisons:
        axis = axes[0][1]
        labels = [f"{c['first']}\nvs {c['second']}" for c in comparisons]
        means = [c["imps"] for c in comparisons]
        errors = [2 * c["imps_se"] for c in comparisons]
        axis.barh(range(len(comparisons)), means, xerr=errors, color="tab:green", capsize=4)
        axis.axvline(0, color="black", linewidth=0.8)
        axis.set_yticks(range(len(comparisons)), labels, fontsize=8)
        axis.set_xlabel("net IMPs a board for the first (±2 standard errors)")
        axis.set_title("comparison")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
