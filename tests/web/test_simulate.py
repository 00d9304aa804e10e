"""The web simulation form and ``POST /api/simulate``, through the solver queue."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("endplay")

from fastapi.testclient import TestClient

import bridgescore as bs
from bridgescore.web import WebSettings, create_app
from bridgescore.web.simulate import MAX_WEB_DEALS

WHERE = "hearts(south) >= 6"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(WebSettings(solver_workers=1))) as test_client:
        yield test_client


def test_api_simulate_equals_the_library(client: TestClient) -> None:
    body = {"contracts": ["4H S"], "where": WHERE, "deals": 6, "seed": 3, "vulnerability": "NS"}
    response = client.post("/api/simulate", json=body)
    assert response.status_code == 200, response.text
    expected = bs.simulate(6, seed=3, where=WHERE, contract="4H", by="S", vul="NS")
    assert response.json()["contracts"] == expected["contracts"]


def test_bad_input_is_422_before_any_work(client: TestClient) -> None:
    bad = client.post("/api/simulate", json={"contracts": ["4H S"], "where": "hcp(x) > 1"})
    assert bad.status_code == 422 and "is not a seat" in bad.text
    big = client.post("/api/simulate", json={"contracts": ["4H S"], "deals": MAX_WEB_DEALS + 1})
    assert big.status_code == 422


def test_form_page_renders_the_report(client: TestClient) -> None:
    page = client.get("/simulate")
    assert page.status_code == 200 and "<form" in page.text
    answer = client.get(
        "/simulate", params={"contracts": "4H S", "where": WHERE, "deals": 4, "seed": 3}
    )
    assert answer.status_code == 200
    assert "4H by S" in answer.text and "4 deals" in answer.text
    wrong = client.get("/simulate", params={"contracts": "4H", "deals": 4})
    assert "expected a contract and a declarer" in wrong.text
