"""What the Study and Session pages show, read from the configured directories.

Each function takes a path the server found itself (see
:func:`bridgescore.web.pages.list_entries`) and returns plain data for a
template, or raises :class:`~bridgescore.BridgeError` / ``ImportError`` with a
message the page shows. Charts are small inline SVG drawn here, so the page
needs no plotting library and no script.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["bar_chart", "is_event_file", "session_view", "study_view"]

SUMMARY_KEYS = ("deals", "plus_ns", "plus_ew", "zero", "unique", "min", "max", "mode", "median")
SUMMARY_FLOATS = ("mean", "std")


def is_event_file(path: Path) -> bool:
    """Whether ``path`` is an SQLite file (the event store's format), as SQLite reads it.

    Never a plain ``open()``: this server may hold a connection to the file, and
    closing another descriptor of it would drop that connection's locks (see
    :func:`bridgescore.session.store.events.is_sqlite_file`)."""
    from bridgescore.session.store.events import is_sqlite_file

    return path.is_file() and is_sqlite_file(path)


def bar_chart(
    title: str,
    ours: dict[int, int],
    published: dict[int, int] | None = None,
    *,
    width: int = 460,
    height: int = 200,
) -> dict[str, Any]:
    """Geometry of one bar chart: percent of deals per absolute score, published as dots.

    >>> chart = bar_chart("None", {0: 1, 100: 3})
    >>> [bar["label"] for bar in chart["bars"]]
    ['0', '100']
    """
    published = published or {}
    scores = sorted(set(ours) | set(published))
    total = sum(ours.values()) or 1
    their_total = sum(published.values()) or 1
    shares = [100 * ours.get(s, 0) / total for s in scores]
    theirs = [100 * published.get(s, 0) / their_total for s in scores]
    top = max([*shares, *theirs, 1.0])
    left, bottom, plot_height = 34, 28, height - 40
    step = (width - left - 6) / max(len(scores), 1)
    bars = []
    for i, score in enumerate(scores):
        x = left + i * step
        bar_height = plot_height * shares[i] / top
        bars.append(
            {
                "x": round(x + step * 0.1, 1),
                "y": round(height - bottom - bar_height, 1),
                "width": round(step * 0.8, 1),
                "height": round(bar_height, 1),
                "label": str(score),
                "title": f"{score}: {shares[i]:.2f}% of deals",
                "dot_x": round(x + step / 2, 1),
                "dot_y": round(height - bottom - plot_height * theirs[i] / top, 1),
                "published": published.get(score) is not None,
                "tick": i % max(1, len(scores) // 8) == 0,
            }
        )
    return {
        "title": title,
        "width": width,
        "height": height,
        "base": height - bottom,
        "left": left,
        "top_label": f"{top:.0f}%",
        "top_y": height - bottom - plot_height,
        "bars": bars,
    }


def study_view(directory: Path) -> dict[str, Any]:
    """A study's report, its comparison with the published figures and its charts."""
    from bridgescore.study.compare import compare_report, load_published
    from bridgescore.study.report import VULNERABILITY_NAMES, study_report

    report = study_report(directory)
    published = load_published()
    rows = []
    charts = []
    comparisons: dict[str, Any] = {}
    if report.deals:
        try:
            comparisons = {
                name: comparison.as_dict() for name, comparison in compare_report(report).items()
            }
        except ImportError as error:  # scipy is in the study extra
            comparisons = {"error": f"no comparison: {error}"}
    for vulnerability, name in VULNERABILITY_NAMES.items():
        stats = report.stats[vulnerability]
        summary = stats.summary() if stats.deals else {}
        rows.append(
            {
                "name": name,
                "ours": {key: summary.get(key) for key in (*SUMMARY_KEYS, *SUMMARY_FLOATS)},
                "published": dict(published.summary.get(name, {})),
                "comparison": comparisons.get(name),
            }
        )
        charts.append(
            bar_chart(name, dict(stats.scores), dict(published.distributions.get(name, {})))
        )
    return {
        "deals": report.deals,
        "planned": report.manifest.deals,
        "seed": report.manifest.seed,
        "chunks": report.chunks,
        "complete": report.complete,
        "missing": list(report.missing_chunks),
        "problems": list(report.problems),
        "rows": rows,
        "charts": charts,
        "source": published.source,
        "published_deals": published.deals,
        "comparison_error": comparisons.get("error"),
    }


def session_view(path: Path) -> dict[str, Any]:
    """An event's ranking and travellers, scored by the method its results file named
    (an imported USEBIO file), else by its kind's usual method.

    Pars come only from tables already stored with the boards: a page view never
    starts the solver or writes to the event. Each ranking row also has its total
    and last column as the reports print them (``total_text``, ``last_text``: one
    number format per column), and ``last_column`` names that column; ``rankings``
    and ``traveller_tables`` are the ranking and the travellers as every report draws
    them (:func:`~bridgescore.session.scoring.display.ranking_tables`,
    :func:`~bridgescore.session.reports.travellers.traveller_table`).
    """
    from bridgescore.session.reports.text import as_dict
    from bridgescore.session.reports.travellers import traveller_table
    from bridgescore.session.scoring.display import last_column, ranking_numbers, ranking_tables
    from bridgescore.session.store.events import EventStore
    from bridgescore.session.workflow import score_stored_event

    with EventStore(path, mode="read") as store:
        scored = score_stored_event(store, pars="stored")
    view = as_dict(scored)
    numbers = ranking_numbers(scored)
    for row, standing in zip(view["ranking"], scored.standings, strict=True):
        row["total_text"], row["last_text"] = numbers[standing]
    view["last_column"] = last_column(scored)
    view["rankings"] = ranking_tables(scored)
    view["traveller_tables"] = [traveller_table(scored, t) for t in scored.travellers]
    return view
