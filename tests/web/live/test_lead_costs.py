"""The club night's leads, double dummy (issue 45): a table's phone shows what its
opening lead cost once the board is entered, and the closed session's results site
shows every lead made at the tables, how often, and its cost.

The costs are DDS's, solved through endplay in the test (tests/dds_reference.py); the
movement is the 3-table Mitchell of tests/live_movements.py (table 1 plays boards 1-2
in round 1, table 3 plays them in round 2).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("multipart", reason="python-multipart is not installed (pip install '.[web]')")

from fastapi.testclient import TestClient

from bridgescore.core import Seat, Strain
from bridgescore.web.live.app import LiveSettings, create_live_app
from dds_reference import tricks_after_each_lead
from live_pages_helpers import csrf_of, new_event_with_hands, token_of

# 4S by North, East on lead (boards 1 and 2 hold the same cards).
DEAL = "N:AQJ964.K52.A4.83 K3.QJ94.QJ62.KT5 T82.A86.T983.A92 75.T73.K75.QJ764"
AFTER = tricks_after_each_lead(DEAL, Strain.SPADES, Seat.NORTH)
BEST = min(AFTER.values())


@pytest.fixture()
def event(tmp_path: Path) -> Any:
    return new_event_with_hands(tmp_path / "club.db", DEAL)


@pytest.fixture()
def client(event: Any, tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_live_app(tmp_path / "club.db", settings=LiveSettings())) as test:
        yield test


def text_of(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page))).strip()


def lead_note(page: str) -> str | None:
    found = re.search(r'<p id="lead-cost">(.*?)</p>', page, re.S)
    return None if found is None else html.unescape(found[1])


def enter(client: TestClient, event: Any, table: int, round_number: int, board: int,
          result: str, lead: str | None) -> None:  # fmt: skip
    body: dict[str, Any] = {"round": round_number, "board": board, "contract": "4S",
                            "declarer": "N", "result": result}  # fmt: skip
    if lead is not None:
        body["lead"] = lead
    answer = client.post(
        "/api/live/results",
        json=body,
        headers={"Authorization": f"Bearer {token_of(event, table)}"},
    )
    assert answer.status_code == 201, answer.text


def test_the_phone_shows_what_its_lead_cost(client: TestClient, event: Any) -> None:
    assert (AFTER["SK"] - BEST, AFTER["HQ"] - BEST) == (1, 0)  # the deal is as described
    client.get(f"/table?token={token_of(event, 1)}")
    csrf = csrf_of(client.get("/table").text)
    form = {"csrf": csrf, "round": "1", "board": "1", "level": "4", "strain": "S",
            "doubling": "", "declarer": "N", "result": "+1", "lead": "sk"}  # fmt: skip
    saved = client.post("/table/result", data=form, follow_redirects=False)
    assert saved.status_code == 303, saved.text
    page = client.get("/table?saved=1").text
    assert lead_note(page) == (
        f"Your opening lead: SK against 4S by North: cost 1 trick double dummy (declarer "
        f"{AFTER['SK']} tricks after it, {BEST} after the best lead)."
    )
    assert lead_note(client.get("/table/traveller/1").text) == lead_note(page)
    # Board 2 led with the HQ: it kept declarer to the double-dummy result.
    enter(client, event, 1, 1, 2, "=", "HQ")
    note = lead_note(client.get("/table/traveller/2").text)
    assert note is not None and note.startswith(
        "Your opening lead: HQ against 4S by North: cost nothing"
    )


def test_no_lead_entered_no_note(client: TestClient, event: Any) -> None:
    enter(client, event, 1, 1, 1, "+1", None)
    client.get(f"/table?token={token_of(event, 1)}")
    assert lead_note(client.get("/table/traveller/1").text) is None
    assert 'id="hand-record"' in client.get("/table/traveller/1").text


def test_a_lead_the_leader_did_not_hold_is_said_so(client: TestClient, event: Any) -> None:
    enter(client, event, 1, 1, 1, "+1", "SA")  # North's ace: not East's card
    client.get(f"/table?token={token_of(event, 1)}")
    note = lead_note(client.get("/table/traveller/1").text)
    assert note is not None and "SA is not in East's hand on the hand record" in note


def test_the_results_site_shows_the_field_leads(client: TestClient, event: Any) -> None:
    # Board 1 is played at every table (a board is public once all have played it):
    # table 1 in round 1, table 3 in round 2, table 2 in round 3.
    for table, round_number, board, lead in [
        (1, 1, 1, "SK"), (1, 1, 2, None),
        (3, 1, 5, None), (3, 1, 6, None), (3, 2, 1, "HQ"), (3, 2, 2, None),
        (2, 1, 3, None), (2, 1, 4, None), (2, 2, 5, None), (2, 2, 6, None),
        (2, 3, 1, "SK"), (2, 3, 2, None),
    ]:  # fmt: skip
        enter(client, event, table, round_number, board, "=", lead)
    form = client.get("/director")
    login = client.post(
        "/director/login",
        data={"csrf": csrf_of(form.text), "password": event.director_password},
        follow_redirects=False,
    )
    assert login.status_code == 303, login.text
    csrf = csrf_of(client.get("/director").text)
    client.post("/director/close", data={"csrf": csrf, "confirm": "yes"})
    assert client.app.state.live.closed
    page = client.get("/results/board-1.html")
    assert page.status_code == 200
    leads = text_of(page.text.split('id="leads">', 1)[1].split("</table>", 1)[0])
    assert leads == (
        f"Opening leads Contract Lead Tables Cost (DD) "
        f"4S N SK 2 {AFTER['SK'] - BEST} trick 4S N HQ 1 0"
    )
