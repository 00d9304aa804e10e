"""The web deal analyser takes a LIN record or a BBO handviewer link as well as a PBN deal."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from bridgescore.formats import read_records
from bridgescore.web import WebSettings, create_app

DATA = Path(__file__).parents[1] / "data" / "formats"
HAS_SOLVER = importlib.util.find_spec("endplay") is not None


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(WebSettings(solver_workers=1))) as test_client:
        yield test_client


def test_deal_from_handviewer_link_and_lin(client: TestClient) -> None:
    link = (DATA / "handviewer.txt").read_text().strip()
    (record,) = read_records(text=link)
    assert record.deal is not None
    data = client.post("/api/deal", json={"deal": link}).json()
    assert data["deal"] == record.deal.to_pbn()
    # md|2...|: West deals; sv|e|: EW vulnerable; ah|Board 8|.
    assert (data["board"], data["dealer"], data["vulnerability"]) == (8, "W", "EW")
    line = (DATA / "hand_history.lin").read_text().splitlines()[0]
    data = client.post("/api/deal", json={"deal": line}).json()
    assert (data["board"], data["dealer"], data["vulnerability"]) == (1, "N", "None")
    # A plain PBN deal says nothing of dealer or vulnerability.
    pbn = record.deal.to_pbn()
    data = client.post("/api/deal", json={"deal": pbn}).json()
    assert data["dealer"] is None and data["deal"] == pbn


def test_bad_lin_is_422_with_the_problem(client: TestClient) -> None:
    response = client.post("/api/deal", json={"deal": "md|9SAK|ah|Board 1|"})
    assert response.status_code == 422
    assert "md|9SAK|" in response.json()["detail"]
    two = (DATA / "hand_history.lin").read_text()
    response = client.post("/api/deal", json={"deal": two})
    assert response.status_code == 422 and "4 board(s)" in response.json()["detail"]


@pytest.mark.skipif(not HAS_SOLVER, reason="needs the DDS extra (endplay)")
def test_solve_and_par_take_a_link(client: TestClient) -> None:
    link = (DATA / "handviewer.txt").read_text().strip()
    (record,) = read_records(text=link)
    assert record.deal is not None
    solved = client.post("/api/solve", json={"deal": link}).json()
    plain = client.post("/api/solve", json={"deal": record.deal.to_pbn()}).json()
    assert solved == plain
    par = client.post("/api/par", json={"deal": link, "vulnerability": "EW", "dealer": "W"})
    assert par.status_code == 200 and par.json()["dd"] == plain["dd"]
