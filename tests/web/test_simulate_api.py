"""``POST /api/simulate`` in the OpenAPI schema, its deal limit and the form's lead table."""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("endplay")

from fastapi.testclient import TestClient

import bridgescore as bs
from bridgescore.web import WebSettings, create_app

WHERE = "hearts(south) >= 6"
# West's hand is fixed, so every lead row is a holding of exactly these cards.
WEST = "W=KQJ3.A42.QJ109.85"
WEST_CARDS = {
    f"{suit}{rank}"
    for suit, holding in zip("SHDC", ["KQJ3", "A42", "QJT9", "85"], strict=True)
    for rank in holding
}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    settings = WebSettings(solver_workers=1, max_simulate_deals=12)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def test_simulate_is_documented_in_the_schema(client: TestClient) -> None:
    operation = client.get("/openapi.json").json()["paths"]["/api/simulate"]["post"]
    assert set(operation["responses"]) == {"200", "413", "422", "429", "503"}
    body = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert body.endswith("/SimulateRequest")
    answer = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    assert answer.endswith("/SimulateResponse")


def test_the_servers_deal_limit_is_a_422_with_the_limit(client: TestClient) -> None:
    response = client.post("/api/simulate", json={"contracts": ["4H S"], "deals": 13})
    assert response.status_code == 422
    assert response.json()["detail"] == (
        "deals 13: this server simulates at most 12 deals a request"
    )
    allowed = client.post("/api/simulate", json={"contracts": ["4H S"], "deals": 12})
    assert allowed.status_code == 200 and allowed.json()["deals"] == 12


def test_a_simulation_past_the_searches_of_a_minute_is_refused_naming_them() -> None:
    # The attack: 500 deals x 4 contracts ran for minutes. A contract on a deal is one
    # double-dummy search, the opening leads against it two more (docs/web.md).
    contracts = ["4S N", "3NT N", "4H N", "5D N"]
    settings = WebSettings(solver_workers=1, warm_solver=False)
    with TestClient(create_app(settings)) as fresh:
        plain = fresh.post("/api/simulate", json={"contracts": contracts, "deals": 500})
        assert plain.status_code == 422
        assert plain.json()["detail"].startswith(
            f"this simulation needs {500 * 4:,} double-dummy searches "
            "(500 deals x 4 contract(s)): this server runs at most 1,200 a request"
        )
        body = {"contracts": contracts, "deals": 101, "lead": "E"}
        leads = fresh.post("/api/simulate", json=body)
        assert leads.status_code == 422
        assert f"needs {101 * 4 * 3:,} double-dummy searches" in leads.json()["detail"]
        assert "opening leads against 4 of them" in leads.json()["detail"]
        # The form says the same on its page.
        page = fresh.get("/simulate", params={"contracts": ", ".join(contracts), "deals": 500})
        assert page.status_code == 200 and "needs 2,000 double-dummy searches" in page.text


def test_a_condition_nested_past_the_bound_is_a_422_naming_it(client: TestClient) -> None:
    # The attack: 1,900 '!' made the condition parser recurse until Python gave up (500).
    body = {"contracts": ["4S N"], "where": "!" * 1900 + "hcp(north) > 3", "deals": 1}
    response = client.post("/api/simulate", json=body)
    assert response.status_code == 422
    assert "nest at most 50 deep" in response.json()["detail"]
    page = client.get("/simulate", params={"contracts": "4S N", "where": body["where"]})
    assert page.status_code == 200 and "nest at most 50 deep" in page.text


def test_the_searches_limit_admits_what_it_names() -> None:
    # A server allowing 12 searches: 4 deals of one contract with its leads (3 each)
    # run; 5 deals are refused.
    settings = WebSettings(solver_workers=1, warm_solver=False, max_simulate_searches=12)
    body = {"contracts": ["4H S"], "predeal": [WEST], "seed": 5, "lead": "W"}
    with TestClient(create_app(settings)) as small:
        assert small.post("/api/simulate", json={**body, "deals": 4}).status_code == 200
        refused = small.post("/api/simulate", json={**body, "deals": 5})
        assert refused.status_code == 422 and "needs 15 double-dummy" in refused.json()["detail"]


def test_one_deal_gives_null_standard_errors_not_a_server_error(client: TestClient) -> None:
    # One deal has no standard error (NaN in Python); JSON has no NaN, so it is null.
    response = client.post(
        "/api/simulate", json={"contracts": ["4H S", "3NT S"], "where": WHERE, "deals": 1}
    )
    assert response.status_code == 200, response.text
    report = response.json()
    (first, second) = report["contracts"]
    assert first["make_se"] is None and first["mean_tricks_se"] is None
    assert sum(first["tricks"]) == 1 and sum(second["tricks"]) == 1
    # With one deal the mean is that deal's tricks: the one bin that holds it.
    assert first["mean_tricks"] == first["tricks"].index(1)
    assert report["comparisons"][0]["imps_se"] is None


def test_json_keys_are_those_of_simulate_json(client: TestClient) -> None:
    body = {"contracts": ["4H S"], "where": WHERE, "deals": 5, "seed": 7}
    report = client.post("/api/simulate", json=body).json()
    expected = bs.simulate(5, seed=7, where=WHERE, contract="4H", by="S")
    # No comparisons (one contract), no leads, no par: absent, as in `simulate --json`.
    assert set(report) == set(expected) == {
        "deals", "seed", "where", "predeal", "vulnerability", "interrupted", "contracts"
    }  # fmt: skip
    assert report == expected


def test_wrong_json_types_are_refused(client: TestClient) -> None:
    for body in (
        {"contracts": ["4H S"], "deals": "5"},
        {"contracts": "4H S"},
        {"contracts": ["4H S"], "extra": 1},
        {"contracts": ["4H S"], "seed": 1.5},
    ):
        response = client.post("/api/simulate", json=body)
        assert response.status_code == 422, body
        assert response.json()["detail"], body


def test_leads_cover_the_leaders_fixed_hand(client: TestClient) -> None:
    body = {"contracts": ["4H S"], "predeal": [WEST], "deals": 4, "seed": 5, "lead": "W"}
    response = client.post("/api/simulate", json=body)
    assert response.status_code == 200, response.text
    (table,) = response.json()["leads"]
    assert (table["contract"], table["declarer"], table["leader"]) == ("4H", "S", "W")
    cards = [row["cards"] for row in table["cards"]]
    # Each row is one suit's letter and the equal cards grouped: together West's 13 cards.
    held = {row[0] + rank for row in cards for rank in row[1:]}
    assert held == WEST_CARDS and sum(len(row) - 1 for row in cards) == 13
    assert all(row["deals"] == 4 for row in table["cards"])
    for row in table["cards"]:
        # 4H needs 10 tricks: the defence beats it with 4 or more.
        assert 0 <= row["mean_tricks"] <= 13 and 0 <= row["beat"] <= 1
    beats = [row["beat"] for row in table["cards"]]
    assert beats == sorted(beats, reverse=True)  # best lead first


def test_the_form_shows_the_lead_table(client: TestClient) -> None:
    params = {"contracts": "4H S", "predeal": WEST, "deals": 4, "seed": 5, "lead": "W"}
    page = client.get("/simulate", params=params)
    assert page.status_code == 200
    text = page.text
    assert "Leads by W against 4H by S" in text
    body = {"contracts": ["4H S"], "predeal": [WEST], "deals": 4, "seed": 5, "lead": "W"}
    (table,) = client.post("/api/simulate", json=body).json()["leads"]
    section = text[text.index('class="grid leads"') :]
    rows = re.findall(r"<tr><td>(\w+)</td>\s*<td>([\d.]+)", section)
    assert rows == [(row["cards"], f"{100 * row['beat']:.1f}") for row in table["cards"]]
    assert '<option value="W" selected>' in html.unescape(text)


def test_the_form_clamps_deals_to_the_servers_limit(client: TestClient) -> None:
    page = client.get("/simulate", params={"contracts": "4H S", "where": WHERE, "deals": 99})
    assert page.status_code == 200 and "12 deals" in page.text
    assert 'max="12"' in page.text


def test_every_deal_is_in_the_trick_distribution(client: TestClient) -> None:
    # Issue 23's simulation (10 deals, seed 1, 4S by North): half the deals take fewer
    # than 6 tricks, and the answer, like `simulate --json`, counts them all (0 to 13).
    response = client.post(
        "/api/simulate", json={"contracts": ["4S N"], "deals": 10, "seed": 1, "plot": "svg"}
    )
    assert response.status_code == 200, response.text
    (contract,) = response.json()["contracts"]
    tables = bs.solve_many(bs.deal_many(10, seed=1))
    tricks = [table.tricks(bs.Seat.NORTH, bs.Strain.SPADES) for table in tables]
    assert contract["tricks"] == [tricks.count(k) for k in range(14)]
    assert sum(contract["tricks"]) == 10 and sum(contract["tricks"][:6]) == 5
    # The page's plot has a bar for every trick count, 0 to 13.
    svg = base64.b64decode(response.json()["plot"].split(",", 1)[1]).decode()
    assert all(f'id="tricks-0-{k}"' in svg for k in range(14))


@pytest.mark.parametrize(("field", "text"), [("deals", "\u00b2"), ("seed", "1_0"), ("deals", "")])
def test_the_forms_numbers_are_ascii_digits(client: TestClient, field: str, text: str) -> None:
    params = {"contracts": "4H S", "where": WHERE, "deals": "4", "seed": "3", field: text}
    page = client.get("/simulate", params=params)
    # The form again, saying which field is wrong, and no report under it.
    assert page.status_code == 200
    assert f"{field} must be a whole number from" in html.unescape(page.text)
    assert "trick" not in page.text.split("</form>", 1)[1].lower()
