"""simulation/plot.py: the plot shows the report it is drawn from (bars, labels), as SVG and PNG.

The reports here are written by hand, so the expected bars are known without
solving anything: each contract's 14 bars are the shares of deals with 0 ... 13
tricks, and each comparison is one bar labelled with its net IMPs.
"""

from __future__ import annotations

import re
import struct
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("matplotlib")

from bridgescore.simulation.plot import plot_report, render_report

SVG = "{http://www.w3.org/2000/svg}"


def contract(name: str, declarer: str, tricks: list[int], make: float) -> dict[str, Any]:
    return {"contract": name, "declarer": declarer, "tricks": tricks, "make": make,
            "make_se": 0.05, "mean_tricks": 9.0, "mean_tricks_se": 0.1, "mean_score": 300.0,
            "mean_score_se": 20.0}  # fmt: skip


REPORT: dict[str, Any] = {
    "deals": 40,
    "contracts": [
        contract("4S", "N", [0] * 7 + [2, 5, 9, 14, 8, 2, 0], 0.6),
        contract("3NT", "N", [0] * 5 + [1, 3, 6, 10, 12, 6, 2, 0, 0], 0.5),
    ],
    "comparisons": [
        {"first": "4S by N", "second": "3NT by N", "imps": 1.25, "imps_se": 0.5,
         "first_better": 0.5, "first_better_se": 0.08, "equal": 0.1, "second_better": 0.4,
         "matchpoints": 0.55, "matchpoints_se": 0.08},
    ],
}  # fmt: skip


def bar_heights(svg: ElementTree.Element, prefix: str) -> dict[str, float]:
    """Height (for tricks) or width (for IMPs) of each bar whose id starts with ``prefix``."""
    found = {}
    for group in svg.iter(f"{SVG}g"):
        name = group.get("id", "")
        if name.startswith(prefix):
            path = group.find(f"{SVG}path")
            assert path is not None, name
            points = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", path.get("d", ""))]
            xs, ys = points[0::2], points[1::2]
            found[name] = (max(ys) - min(ys)) if prefix == "tricks" else (max(xs) - min(xs))
    return found


def texts(svg: ElementTree.Element) -> str:
    return "\n".join("".join(node.itertext()) for node in svg.iter(f"{SVG}text"))


def test_svg_bars_are_the_trick_distributions() -> None:
    svg = ElementTree.fromstring(render_report(REPORT, "svg"))
    heights = bar_heights(svg, "tricks")
    assert len(heights) == 14 * 2
    tallest = max(heights.values())
    top_count = max(max(c["tricks"]) for c in REPORT["contracts"])
    for number, entry in enumerate(REPORT["contracts"]):
        total = sum(entry["tricks"])
        for tricks, count in enumerate(entry["tricks"]):
            # Shares of each contract's deals, on one scale: the tallest bar is 14 of 40.
            expected = (count / total) / (top_count / 40)
            assert heights[f"tricks-{number}-{tricks}"] / tallest == pytest.approx(expected)


def test_svg_labels_name_the_contracts_and_the_comparison() -> None:
    svg = ElementTree.fromstring(render_report(REPORT, "svg"))
    words = texts(svg)
    assert "4S by N: makes 60.0% ±5.0" in words
    assert "3NT by N: makes 50.0% ±5.0" in words
    assert "40 deals" in words
    assert "+1.25 ±0.50 IMPs" in words
    assert len(bar_heights(svg, "imps")) == 1


def test_one_contract_has_no_comparison_panel() -> None:
    alone = {"deals": 40, "contracts": REPORT["contracts"][:1]}
    svg = ElementTree.fromstring(render_report(alone, "svg"))
    assert len(bar_heights(svg, "tricks")) == 14
    assert bar_heights(svg, "imps") == {}
    assert "comparison" not in texts(svg)


def test_one_deal_has_no_standard_errors_to_draw() -> None:
    # With one deal the standard errors are NaN (null in the web's JSON): left out.
    one = {
        "deals": 1,
        "contracts": [
            {**contract("4S", "N", [0] * 10 + [1, 0, 0, 0], 1.0), "make_se": float("nan")},
            {**contract("3NT", "N", [0] * 9 + [1, 0, 0, 0, 0], 1.0), "make_se": None},
        ],
        "comparisons": [{**REPORT["comparisons"][0], "imps": 1.0, "imps_se": None}],
    }
    words = texts(ElementTree.fromstring(render_report(one, "svg")))
    assert "4S by N: makes 100.0%\n" in words and "3NT by N: makes 100.0%\n" in words
    assert "+1.00 IMPs" in words and "+1.00 ±" not in words


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"  # the PNG signature
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_png_is_a_png_of_the_figure_size() -> None:
    # 6.5 x 4.2 inches a panel at 110 dots an inch.
    assert png_size(render_report(REPORT, "png")) == (1430, 462)
    alone = {"deals": 40, "contracts": REPORT["contracts"][:1]}
    assert png_size(render_report(alone, "png")) == (715, 462)


def test_the_same_report_gives_the_same_bytes() -> None:
    assert render_report(REPORT, "svg") == render_report(REPORT, "svg")
    assert render_report(REPORT, "png") == render_report(REPORT, "png")


def test_plot_report_writes_the_file(tmp_path: Path) -> None:
    target = tmp_path / "plot.png"
    plot_report(REPORT, target)
    assert png_size(target.read_bytes()) == (1430, 462)


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="expected 'png' or 'svg'"):
        render_report(REPORT, "gif")  # type: ignore[arg-type]
