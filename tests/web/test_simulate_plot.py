"""The simulation plot on the web: ``"plot"`` in ``POST /api/simulate`` and the form's figure.

The image must show the report it comes with: its bars are checked against the
report's trick counts, its labels against the contracts and the comparison.
"""

from __future__ import annotations

import base64
import html
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("endplay")
pytest.importorskip("matplotlib")

from fastapi.testclient import TestClient

from bridgescore.web import WebSettings, create_app
from simulation.test_plot import bar_heights, png_size, texts

BODY: dict[str, Any] = {
    "contracts": ["4H S", "3NT S"],
    "where": "hearts(south) >= 6",
    "deals": 8,
    "seed": 4,
}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(WebSettings(solver_workers=1, max_simulate_deals=12))) as test:
        yield test


def image(report: dict[str, Any], media_type: str) -> bytes:
    prefix = f"data:{media_type};base64,"
    assert report["plot"].startswith(prefix)
    return base64.b64decode(report["plot"][len(prefix) :], validate=True)


def test_svg_plot_shows_the_reports_tricks_and_comparison(client: TestClient) -> None:
    response = client.post("/api/simulate", json={**BODY, "plot": "svg"})
    assert response.status_code == 200, response.text
    report = response.json()
    svg = ElementTree.fromstring(image(report, "image/svg+xml"))
    heights = bar_heights(svg, "tricks")
    assert len(heights) == 14 * len(report["contracts"])
    tallest = max(heights.values())
    top_share = max(max(c["tricks"]) / report["deals"] for c in report["contracts"])
    for number, entry in enumerate(report["contracts"]):
        for tricks, count in enumerate(entry["tricks"]):
            expected = count / report["deals"] / top_share
            assert heights[f"tricks-{number}-{tricks}"] / tallest == pytest.approx(expected)
    words = texts(svg)
    for entry in report["contracts"]:
        assert f"{entry['contract']} by {entry['declarer']}: makes {100 * entry['make']:.1f}%" in (
            words
        )
    (comparison,) = report["comparisons"]
    assert len(bar_heights(svg, "imps")) == 1
    assert f"{comparison['imps']:+.2f} ±{comparison['imps_se']:.2f} IMPs" in words
    assert f"{report['deals']} deals" in words


def test_png_plot_is_a_png_of_both_panels(client: TestClient) -> None:
    report = client.post("/api/simulate", json={**BODY, "plot": "png"}).json()
    assert png_size(image(report, "image/png")) == (1430, 462)
    alone = client.post("/api/simulate", json={**BODY, "contracts": ["4H S"], "plot": "png"})
    assert png_size(image(alone.json(), "image/png")) == (715, 462)


def test_no_plot_unless_asked(client: TestClient) -> None:
    report = client.post("/api/simulate", json=BODY).json()
    assert "plot" not in report
    with_plot = client.post("/api/simulate", json={**BODY, "plot": "svg"}).json()
    # The plot is an addition: the figures are those of the same request without it.
    assert {key: value for key, value in with_plot.items() if key != "plot"} == report


def test_a_bad_plot_format_is_a_422(client: TestClient) -> None:
    response = client.post("/api/simulate", json={**BODY, "plot": "gif"})
    assert response.status_code == 422
    assert "plot" in response.json()["detail"] and "gif" in response.json()["detail"]


def test_the_schema_documents_the_plot(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    request = schemas["SimulateRequest"]["properties"]["plot"]
    assert {"enum": ["png", "svg"], "type": "string"} in request["anyOf"]
    assert "plot" in schemas["SimulateResponse"]["properties"]


def test_the_form_shows_the_same_plot(client: TestClient) -> None:
    params = {"contracts": "4H S, 3NT S", "where": BODY["where"], "deals": 8, "seed": 4}
    page = client.get("/simulate", params=params)
    assert page.status_code == 200
    found = re.search(r'<img id="simulate-plot" src="([^"]+)"[^>]*alt="([^"]+)"', page.text)
    assert found is not None
    source, alt = html.unescape(found.group(1)), html.unescape(found.group(2))
    api = client.post("/api/simulate", json={**BODY, "plot": "svg"}).json()
    assert source == api["plot"]  # the same report draws the same bytes
    assert alt.startswith("Share of deals by tricks taken for 4H by S, 3NT by S")
    assert f"4H by S vs 3NT by S {api['comparisons'][0]['imps']:+.2f}" in alt
