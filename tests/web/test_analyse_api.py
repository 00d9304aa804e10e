"""``POST /api/analyse``: a played board's review on the deal page's server, checked
against DDS solved here; bad and junk bodies answered 4xx with a message."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import endplay.dds as dds
import endplay.types as ep
import pytest

from bridgescore.core import Seat, Strain
from bridgescore.web import WebSettings, create_app
from dds_reference import tricks_after_each_lead

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette suggests httpx2; httpx works the same here
    from fastapi.testclient import TestClient

# South's 3NT on board 3 (EW vulnerable); West leads the DK and declarer claims ten.
LIN = (
    "md|1SK98HA83DAQJ93CQT,SA7HKQ42DK5CJ7652,SJ54HT975DT82CAK8,|sv|e|ah|Board 3|"
    "mb|1N|mb|p|mb|3N|mb|p|mb|p|mb|p|pc|DK|mc|10|"
)
DEAL = "N:J54.T975.T82.AK8 QT632.J6.764.943 K98.A83.AQJ93.QT A7.KQ42.K5.J7652"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(WebSettings(solver_workers=1))) as test_client:
        yield test_client


def test_a_played_board_is_reviewed(client: TestClient) -> None:
    info = client.post("/api/deal", json={"deal": LIN}).json()
    assert info["played"] is True and info["board"] == 3
    answer = client.post("/api/analyse", json={"deal": LIN})
    assert answer.status_code == 200, answer.text
    review = answer.json()["review"]
    # Independently: DDS's own table and West's leads, solved here.
    table = dds.calc_dd_table(ep.Deal(DEAL))
    assert review["dd_tricks"] == table[ep.Denom.nt, ep.Player.south] == 9
    after = tricks_after_each_lead(DEAL, Strain.NOTRUMP, Seat.SOUTH)
    assert review["lead"]["tricks"] == after
    assert review["lead"]["cost"] == after["DK"] - 9 == 1
    assert review["score_ns"] == 430 and review["claim"] == {"tricks": 10, "dd": 10}
    assert 'title="cost 1"' in answer.json()["html"]


def test_a_play_that_breaks_the_rules_is_left_out_with_a_note(client: TestClient) -> None:
    # West "leads" the SK, which South holds: the board is still reviewed from its claim.
    answer = client.post("/api/analyse", json={"deal": LIN.replace("pc|DK|", "pc|SK|")})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["review"]["play"] == [] and body["review"]["score_ns"] == 430
    [note] = body["notes"]
    assert note.startswith("its play is left out: ") and "SK" in note
    assert "its play is left out" in body["html"]
    assert client.post("/api/analyse", json={"deal": LIN}).json()["notes"] == []


def test_what_the_record_got_wrong_is_a_note(client: TestClient) -> None:
    # "sv|q|" is no vulnerability: board 3's own (East-West) stands in, and a note says so.
    answer = client.post("/api/analyse", json={"deal": LIN.replace("sv|e|", "sv|q|")})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["review"]["vulnerability"] == "EW"
    assert body["notes"] == ["sv|q|: expected o (none), n, e or b (both)"]
    assert "sv|q|" in body["html"]


def test_a_bare_deal_is_not_played(client: TestClient) -> None:
    assert client.post("/api/deal", json={"deal": DEAL}).json()["played"] is False
    answer = client.post("/api/analyse", json={"deal": DEAL})
    assert answer.status_code == 422
    assert "no result to review" in answer.json()["detail"]


@pytest.mark.parametrize(
    "body",
    [
        {"deal": "md|1SK98|pc|DK|"},  # a hand short of its cards
        {"deal": "not a deal"},
        {"deal": 7},
        {"deal": LIN, "extra": 1},
        {},
        {"deal": "x" * 5000},
    ],
)
def test_bad_bodies_get_a_4xx_with_a_message(client: TestClient, body: object) -> None:
    answer = client.post("/api/analyse", json=body)
    assert 400 <= answer.status_code < 500, answer.text
    assert answer.json()["detail"]


def test_junk_bytes_get_a_4xx(client: TestClient) -> None:
    answer = client.post(
        "/api/analyse", content=b"\xff\xfe{", headers={"content-type": "application/json"}
    )
    assert 400 <= answer.status_code < 500
