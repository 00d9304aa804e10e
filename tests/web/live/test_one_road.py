"""One road for a result (issue 35, item 8): a table's result from its phone's form and
from the JSON API passes the same checks, queue, audit ("who") and ranking cache; and a
passed-out board is written the same ways in every reader of results (the traveller CSV,
USEBIO, the live API and the pages).

The movement is the 3-table Mitchell of tests/live_movements.py (round 1: table 1 1N v 1E
boards 1-2, table 2 2N v 2E boards 3-4, table 3 3N v 3E boards 5-6).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("multipart", reason="python-multipart is not installed (pip install '.[web]')")

from fastapi.testclient import TestClient

from bridgescore.notation import Result, parse_result
from bridgescore.session.importers.csv import parse_csv
from bridgescore.session.importers.importer import import_files
from bridgescore.session.live.entry import ResultEntry
from bridgescore.session.scoring.event import TableResult
from bridgescore.session.store.events import EventStore
from bridgescore.web.live.app import LiveSettings, create_live_app
from live_pages_helpers import csrf_of, new_event, token_of

DATA = Path(__file__).parents[2] / "data"

#: The spellings the issue names, and a few more a traveller or a phone may send.
PASSED_OUT = ["PASS", "PASSOUT", "AP", "passed out", "Pass", "all pass", " PassOut "]


class Clock:
    """A clock the test moves by hand: the public ranking is cached for a second."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture()
def event(tmp_path: Path) -> Any:
    return new_event(tmp_path / "club.db")


@pytest.fixture()
def client(event: Any, tmp_path: Path) -> Iterator[TestClient]:
    app = create_live_app(tmp_path / "club.db", settings=LiveSettings(clock=Clock()))
    with TestClient(app) as test_client:
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def director(client: TestClient, event: Any) -> dict[str, str]:
    answer = client.post("/api/live/director/login", json={"password": event.director_password})
    assert answer.status_code == 200, answer.text
    return bearer(answer.json()["token"])


def by_form(client: TestClient, event: Any, table: int, **fields: str) -> Any:
    """A table's phone: open the card link, then send the result form."""
    client.get(f"/table?token={token_of(event, table)}")
    csrf = csrf_of(client.get("/table").text)
    answer = client.post("/table/result", data={"csrf": csrf, **fields}, follow_redirects=False)
    client.cookies.clear()
    return answer


def public_totals(client: TestClient) -> dict[str, float]:
    answer = client.get("/api/live/ranking")
    assert answer.status_code == 200
    return {line["name"]: line["total"] for line in answer.json()["ranking"]}


def test_the_form_and_the_api_share_the_audit_and_the_one_ranking_cache(
    client: TestClient, event: Any
) -> None:
    assert public_totals(client) == {}  # scored (and cached) before any result
    # Table 1's phone: board 1, 4S by N +1 (+450).
    form = {"round": "1", "board": "1", "level": "4", "strain": "S", "doubling": "",
            "declarer": "N", "result": "+1"}  # fmt: skip
    assert by_form(client, event, 1, **form).status_code == 303
    # The public sees the result at once: the one cache follows the file's version.
    assert public_totals(client) == {"1N": 0, "1E": 0}
    # Table 2's API: board 3 passed out.
    body = {"round": 1, "board": 3, "contract": "PASS"}
    answer = client.post("/api/live/results", json=body, headers=bearer(token_of(event, 2)))
    assert answer.status_code == 201
    assert public_totals(client) == {"1N": 0, "1E": 0, "2N": 0, "2E": 0}
    # A change made past both roads (straight into the event) is seen at the next request
    # too: the cache is keyed on the file's version, never on who made the change.
    live = client.app.state.live  # type: ignore[attr-defined]
    live.enter_result("A", 3, ResultEntry(1, 5, Result(None)), who="table 3")
    assert public_totals(client) == {"1N": 0, "1E": 0, "2N": 0, "2E": 0, "3N": 0, "3E": 0}

    audit = client.get("/api/live/audit", headers=director(client, event)).json()
    assert [(e["who"], e["board"], e["ns"], e["ew"], e["old"], e["new"]) for e in audit] == [
        ("table 1", 1, "1N", "1E", None, "4SN+1"),
        ("table 2", 3, "2N", "2E", None, "Pass"),
        ("table 3", 5, "3N", "3E", None, "Pass"),
    ]
    assert audit[0]["action"] == audit[1]["action"]


def test_the_form_and_the_api_refuse_alike(client: TestClient, event: Any) -> None:
    # A board the table does not play in that round: 403 from both roads.
    body = {"round": 1, "board": 3, "contract": "PASS"}
    api = client.post("/api/live/results", json=body, headers=bearer(token_of(event, 1)))
    page = by_form(client, event, 1, round="1", board="3", level="PASS")
    assert (api.status_code, page.status_code) == (403, 403)
    assert api.json()["detail"] in page.text.replace("&#39;", "'")
    # A board entered twice: 409 from the API, the page asks for the director.
    body = {"round": 1, "board": 1, "contract": "PASS"}
    first = client.post("/api/live/results", json=body, headers=bearer(token_of(event, 1)))
    assert first.status_code == 201
    again = client.post("/api/live/results", json=body, headers=bearer(token_of(event, 1)))
    assert again.status_code == 409
    page = by_form(client, event, 1, round="1", board="1", level="PASS")
    assert page.status_code == 409 and "ask the director" in page.text
    # Closed while the phone's page is open: both refuse with 409.
    client.get(f"/table?token={token_of(event, 1)}")
    csrf = csrf_of(client.get("/table").text)
    client.app.state.live.close_session()  # type: ignore[attr-defined]
    body = {"round": 1, "board": 2, "contract": "PASS"}
    api = client.post("/api/live/results", json=body, headers=bearer(token_of(event, 1)))
    form = {"csrf": csrf, "round": "1", "board": "2", "level": "PASS"}
    page = client.post("/table/result", data=form, follow_redirects=False)
    assert (api.status_code, page.status_code) == (409, 409)
    assert "closed" in api.json()["detail"] and "closed" in page.text


# ------------------------------------------------------------------ passed out


@pytest.mark.parametrize("spelling", PASSED_OUT)
def test_passed_out_in_the_notation(spelling: str) -> None:
    assert parse_result(spelling) == Result(None)


@pytest.mark.parametrize("spelling", PASSED_OUT)
def test_passed_out_in_a_traveller_csv(spelling: str) -> None:
    passed = TableResult(1, "1", "5", result=Result(None))
    for line in (f"1,1,5,{spelling},,", f"1,1,5,{spelling}"):  # contract, or score column
        parsed = parse_csv([line], "t.csv")
        assert parsed.problems == [], parsed.problems
        assert [result for result, _ in parsed.results] == [passed]


@pytest.mark.parametrize("spelling", PASSED_OUT)
def test_passed_out_in_usebio(spelling: str, tmp_path: Path) -> None:
    # Board 1's first line, 1NS v 1EW, played 4H by N in the file: now passed out.
    original = (DATA / "usebio_pairs.xml").read_bytes()
    changed = original.replace(
        b"<CONTRACT>4H</CONTRACT>", f"<CONTRACT>{spelling}</CONTRACT>".encode(), 1
    )
    assert changed != original
    path = tmp_path / "pairs.xml"
    path.write_bytes(changed)
    with EventStore(tmp_path / "ev.db") as store:
        report = import_files(store, [path])
        assert report.problems == []
        event = store.load()
    (line,) = [r for r in event.results if (r.board, r.ns, r.ew) == (1, "1NS", "1EW")]
    assert line.result == Result(None)


@pytest.mark.parametrize("spelling", PASSED_OUT)
def test_passed_out_through_the_api_and_the_form(
    spelling: str, client: TestClient, event: Any
) -> None:
    body = {"round": 1, "board": 1, "contract": spelling}
    answer = client.post("/api/live/results", json=body, headers=bearer(token_of(event, 1)))
    assert (answer.status_code, answer.json()) == (201, {"score_ns": 0})
    # The phone's form (the level field) and the director's form read it alike.
    assert by_form(client, event, 1, round="1", board="2", level=spelling).status_code == 303
    audit = client.get("/api/live/audit", headers=director(client, event)).json()
    assert [(e["who"], e["board"], e["new"]) for e in audit] == [
        ("table 1", 1, "Pass"),
        ("table 1", 2, "Pass"),
    ]
    view = client.get("/api/live/table", headers=bearer(token_of(event, 1))).json()
    assert [(r["board"], r["score_ns"]) for r in view["rounds"][0]["results"]] == [(1, 0), (2, 0)]
