"""Plots of a simulation (matplotlib, Agg): trick distributions and the comparisons.

:func:`plot_report` writes a file (``simulate --plot F.png``); :func:`render_report`
returns PNG or SVG bytes (the web page's plot). Each bar carries an id in the SVG
(``tricks-C-T``: contract C's share of deals with T tricks; ``imps-K``: comparison
K), so what a plot shows can be checked against the report it was drawn from.
"""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import Any, Literal

import numpy as np

from bridgescore.errors import NotationError

__all__ = ["plot_report", "render_report"]

PlotFormat = Literal["png", "svg"]

# Text stays text in SVG (searchable, smaller), and ids and output do not vary between runs.
_STYLE: Any = {"svg.fonttype": "none", "svg.hashsalt": "bridgescore"}


def _plus_minus(value: Any, scale: float = 1.0, digits: int = 1) -> str:
    # A standard error is NaN (or null, from JSON) with fewer than two deals: leave it out.
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return f" ±{scale * float(value):.{digits}f}"


def _figure(report: dict[str, Any]) -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    contracts = report["contracts"]
    comparisons = report.get("comparisons") or []
    panels = 2 if comparisons else 1
    figure, axes = plt.subplots(1, panels, figsize=(6.5 * panels, 4.2), squeeze=False)
    tricks_axis = axes[0][0]
    width = 0.8 / len(contracts)
    for position, contract in enumerate(contracts):
        counts = np.array(contract["tricks"], dtype=float)
        share = counts / max(counts.sum(), 1)
        label = (
            f"{contract['contract']} by {contract['declarer']}: makes "
            f"{100 * contract['make']:.1f}%{_plus_minus(contract['make_se'], 100)}"
        )
        bars = tricks_axis.bar(
            np.arange(14) + (position - (len(contracts) - 1) / 2) * width,
            share,
            width=width,
            label=label,
        )
        for tricks, bar in enumerate(bars.patches):
            bar.set_gid(f"tricks-{position}-{tricks}")
    tricks_axis.set_xticks(range(14))
    tricks_axis.set_xlabel("tricks taken by declarer (double dummy)")
    tricks_axis.set_ylabel("share of deals")
    tricks_axis.set_title(f"{report['deals']:,} deals")
    tricks_axis.legend(fontsize=8)
    if comparisons:
        axis = axes[0][1]
        labels = [f"{c['first']}\nvs {c['second']}" for c in comparisons]
        means = [c["imps"] for c in comparisons]
        errors = [0.0 if _plus_minus(c["imps_se"]) == "" else 2 * c["imps_se"] for c in comparisons]
        bars = axis.barh(range(len(comparisons)), means, xerr=errors, color="tab:green", capsize=4)
        for number, (bar, comparison) in enumerate(zip(bars.patches, comparisons, strict=True)):
            bar.set_gid(f"imps-{number}")
            axis.annotate(
                f"{comparison['imps']:+.2f}{_plus_minus(comparison['imps_se'], digits=2)} IMPs",
                (0, number),
                xytext=(4, 10),
                textcoords="offset points",
                fontsize=8,
            )
        axis.axvline(0, color="black", linewidth=0.8)
        axis.set_yticks(range(len(comparisons)), labels, fontsize=8)
        axis.set_xlabel("net IMPs a board for the first (±2 standard errors)")
        axis.set_title("comparison")
    figure.tight_layout()
    return figure


def _save(report: dict[str, Any], target: Any, format: str | None) -> None:
    import matplotlib
    import matplotlib.pyplot as plt

    with matplotlib.rc_context(_STYLE):
        figure = _figure(report)
        try:
            # No date in an SVG: the same report gives the same bytes.
            metadata = {"Date": None} if format == "svg" else None
            figure.savefig(target, format=format, dpi=110, metadata=metadata)
        finally:
            plt.close(figure)


def render_report(report: dict[str, Any], format: PlotFormat = "png") -> bytes:
    """The plot of a report (``simulate --json``'s object) as PNG or SVG bytes."""
    if format not in ("png", "svg"):
        raise NotationError(f"plot format {format!r}: expected 'png' or 'svg'")
    buffer = io.BytesIO()
    _save(report, buffer, format)
    return buffer.getvalue()


def plot_report(report: dict[str, Any], path: Path | str) -> None:
    """Write the plot to ``path``, in the format its suffix names (PNG for ``F.png``).

    A name without a suffix gets a PNG; a suffix that is no image format matplotlib
    writes raises :class:`~bridgescore.NotationError` before anything is drawn.
    """
    from matplotlib.backend_bases import FigureCanvasBase

    suffix = Path(path).suffix.lower()
    kinds = sorted(f".{kind}" for kind in FigureCanvasBase.get_supported_filetypes())
    if suffix and suffix not in kinds:
        raise NotationError(
            f"{Path(path).suffix!r} is not an image format: expected a file name ending in "
            f"{', '.join(kinds)}"
        )
    _save(report, path, None)
