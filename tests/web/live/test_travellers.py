"""A night the director can trust (issue 35, items 1 and 2), through the live server's
HTTP API and pages (FastAPI TestClient): a table enters its rounds in order, and a
board's results stay hidden from the public until every table due to play it has.

The movement is the 3-table Mitchell of tests/live_movements.py:

    round 1: table 1 1N v 1E boards 1-2, table 2 2N v 2E boards 3-4, table 3 3N v 3E boards 5-6
    round 2: table 1 1N v 3E boards 3-4, table 2 2N v 1E boards 5-6, table 3 3N v 2E boards 1-2
    round 3: table 1 1N v 2E boards 5-6, table 2 2N v 3E boards 1-2, table 3 3N v 1E boards 3-4

Scores are worked in the test from Law 77 (:func:`law_77`) with each board's
vulnerability from Law 2's cycle (:data:`NS_VULNERABLE`); matchpoints on the 2/1 scale.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("multipart", reason="python-multipart is not installed (pip install '.[web]')")

from fastapi.testclient import TestClient

from bridgescore.web.live.app import LiveSettings, create_live_app
from live_pages_helpers import csrf_of, new_event_with_hands, token_of

# Law 2: board 1 none, 2 NS, 3 EW, 4 both, 5 NS, 6 EW vulnerable.
NS_VULNERABLE = {1: False, 2: True, 3: False, 4: True, 5: True, 6: False}

# Each hand one whole suit: North spades, East hearts, South diamonds, West clubs. With
# its own side's trumps a side ruffs every lead and takes all 13 tricks; in the other
# side's suits or in notrump the opening leader runs 13 winners. NS's best is 7S (spades
# outrank hearts); EW's only bid over it, 7NT doubled, goes 13 down for far more.
ONE_SUIT_EACH = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
ONE_SUIT_EACH_DD = {
    "N": {"NT": 0, "S": 13, "H": 0, "D": 13, "C": 0},
    "S": {"NT": 0, "S": 13, "H": 0, "D": 13, "C": 0},
    "E": {"NT": 0, "S": 0, "H": 13, "D": 0, "C": 13},
    "W": {"NT": 0, "S": 0, "H": 13, "D": 0, "C": 13},
}


def law_77(level: int, strain: str, tricks: int, vulnerable: bool) -> int:
    """The declaring side's score of an undoubled contract (Law 77)."""
    if tricks < level + 6:
        return -(level + 6 - tricks) * (100 if vulnerable else 50)
    per_trick = 20 if strain in "CD" else 30
    contracted = per_trick * level + (10 if strain == "NT" else 0)
    bonus = (500 if vulnerable else 300) if contracted >= 100 else 50
    if level == 6:
        bonus += 750 if vulnerable else 500
    if level == 7:
        bonus += 1500 if vulnerable else 1000
    return contracted + bonus + per_trick * (tricks - level - 6)


API = "/api/live/results"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture()
def event(tmp_path: Path) -> Any:
    return new_event_with_hands(tmp_path / "club.db", ONE_SUIT_EACH)


@pytest.fixture()
def client(event: Any, tmp_path: Path) -> Iterator[TestClient]:
    app = create_live_app(tmp_path / "club.db", settings=LiveSettings(clock=Clock()))
    with TestClient(app) as test_client:
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def table(event: Any, number: int) -> dict[str, str]:
    return bearer(token_of(event, number))


def director(client: TestClient, event: Any) -> dict[str, str]:
    answer = client.post("/api/live/director/login", json={"password": event.director_password})
    assert answer.status_code == 200, answer.text
    return bearer(answer.json()["token"])


def enter(
    client: TestClient,
    event: Any,
    number: int,
    round_number: int,
    board: int,
    contract: str,
    declarer: str | None = None,
    result: str | None = None,
) -> Any:
    body: dict[str, Any] = {"round": round_number, "board": board, "contract": contract}
    if declarer is not None:
        body |= {"declarer": declarer, "result": result}
    return client.post(API, json=body, headers=table(event, number))


def entered(client: TestClient, event: Any, number: int) -> list[list[int]]:
    view = client.get("/api/live/table", headers=table(event, number)).json()
    return [line["entered"] for line in view["rounds"]]


def login_pages(client: TestClient, event: Any) -> None:
    """The director's cookie in ``client`` (the pages' login)."""
    form = client.get("/director")
    answer = client.post(
        "/director/login",
        data={"csrf": csrf_of(form.text), "password": event.director_password},
        follow_redirects=False,
    )
    assert answer.status_code == 303, answer.text


# --------------------------------------------------------------- 1. rounds in order


def test_a_table_enters_its_rounds_in_order(client: TestClient, event: Any) -> None:
    # Table 3 plays board 1 in round 2, before its round 1 (boards 5 and 6) is in.
    refused = enter(client, event, 3, 2, 1, "4S", "N", "=")
    assert refused.status_code == 409
    assert refused.json()["detail"] == (
        "round 1 is still open at table 3: boards 5, 6 have no result yet; "
        "enter round 1 before round 2 (or ask the director)"
    )
    assert entered(client, event, 3) == [[], [], []]  # nothing was stored
    # Round 3 names the first round still open, round 1.
    refused = enter(client, event, 3, 3, 3, "PASS")
    assert refused.status_code == 409 and refused.json()["detail"].startswith("round 1 ")

    # Board 5, NS vulnerable: 3NT by S, 9 tricks: 40 + 2 x 30 + 500 = +600.
    assert enter(client, event, 3, 1, 5, "3NT", "S", "=").json() == {
        "score_ns": law_77(3, "NT", 9, NS_VULNERABLE[5])
    }
    refused = enter(client, event, 3, 2, 1, "4S", "N", "=")
    assert refused.status_code == 409
    assert refused.json()["detail"].startswith(
        "round 1 is still open at table 3: board 6 has no result yet"
    )
    # A director's decision closes the board as a result does: board 6 not played.
    login_pages(client, event)
    page = client.get("/director/result", params={"table": 3, "round": 1, "board": 6})
    marked = client.post(
        "/director/adjust",
        data={"csrf": csrf_of(page.text), "table": "3", "round": "1", "board": "6",
              "award": "not played"},
        follow_redirects=False,
    )  # fmt: skip
    assert marked.status_code == 303, marked.text
    # Board 1, nobody vulnerable: 4S by N, 10 tricks: 4 x 30 + 300 = +420.
    answer = enter(client, event, 3, 2, 1, "4S", "N", "=")
    assert (answer.status_code, answer.json()) == (201, {"score_ns": law_77(4, "S", 10, False)})
    assert entered(client, event, 3) == [[5, 6], [1], []]


def test_the_director_may_enter_any_round(client: TestClient, event: Any) -> None:
    # Table 2 has entered nothing; the director enters its round 3 board 1 all the same.
    # Board 1, nobody vulnerable: 4S by N, 9 tricks: one down, -50.
    body = {"table": 2, "round": 3, "board": 1, "contract": "4S", "declarer": "N",
            "result": "-1"}  # fmt: skip
    answer = client.put(API, json=body, headers=director(client, event))
    assert (answer.status_code, answer.json()) == (200, {"score_ns": law_77(4, "S", 9, False)})
    assert entered(client, event, 2) == [[], [], [1]]
    # Round 2 is still closed to table 2 itself: its round 1 is open.
    refused = enter(client, event, 2, 2, 5, "PASS")
    assert refused.status_code == 409
    assert refused.json()["detail"].startswith("round 1 is still open at table 2: boards 3, 4")


def test_the_table_page_says_the_round_is_open(client: TestClient, event: Any) -> None:
    client.get(f"/table?token={token_of(event, 3)}")
    csrf = csrf_of(client.get("/table").text)
    form = {"csrf": csrf, "round": "2", "board": "1", "level": "4", "strain": "S",
            "doubling": "", "declarer": "N", "result": "="}  # fmt: skip
    for step in ("/table/check", "/table/result"):
        page = client.post(step, data=form, follow_redirects=False)
        assert page.status_code == 409, (step, page.text)
        assert "round 1 is still open at table 3: boards 5, 6 have no result yet" in page.text
    assert entered(client, event, 3) == [[], [], []]


# ------------------------------------------------------- 2. boards hidden until played


def _board_1_everywhere(client: TestClient, event: Any) -> None:
    """Board 1 at each of its three tables, each table's earlier rounds first (passed out)."""
    assert enter(client, event, 1, 1, 1, "4S", "N", "+1").status_code == 201
    for board in (5, 6):
        assert enter(client, event, 3, 1, board, "PASS").status_code == 201
    assert enter(client, event, 3, 2, 1, "4S", "N", "=").status_code == 201
    for round_number, boards in ((1, (3, 4)), (2, (5, 6))):
        for board in boards:
            assert enter(client, event, 2, round_number, board, "PASS").status_code == 201


def _public_travellers(client: TestClient) -> set[int]:
    """The boards whose traveller the public ranking page shows."""
    page = client.get("/ranking")
    assert page.status_code == 200
    return {b for b in range(1, 7) if f'id="board-{b}"' in page.text}


def test_a_board_is_public_once_every_table_due_has_played_it(
    client: TestClient, event: Any
) -> None:
    _board_1_everywhere(client, event)
    # Board 1 is still due at table 2 (round 3); boards 5 and 6 at table 1.
    assert _public_travellers(client) == set()
    page = client.get("/ranking").text
    assert "4SN+1" not in page and "4SN=" not in page
    assert 'id="unplayed"' in page
    ranking = client.get("/api/live/ranking").json()
    assert "travellers" not in ranking and "4SN" not in str(ranking)
    # The totals show as before: 1N and 3N have played a board each.
    assert {line["name"] for line in ranking["ranking"]} >= {"1N", "3N", "1E", "2E"}
    # The director sees every board entered so far.
    login_pages(client, event)
    assert _public_travellers(client) == {1, 3, 4, 5, 6}
    client.cookies.clear()

    # Table 2 plays board 1 in round 3: 4S by N, 11 tricks, +450 again.
    assert enter(client, event, 2, 3, 1, "4S", "N", "+1").status_code == 201
    assert _public_travellers(client) == {1}
    page = client.get("/ranking").text
    assert "4SN+1" in page and "4SN=" in page


def test_the_published_report_and_site_hide_a_board_still_due(
    client: TestClient, event: Any
) -> None:
    _board_1_everywhere(client, event)
    assert enter(client, event, 2, 3, 1, "4S", "N", "+1").status_code == 201
    # Closed with table 1 still owing boards 2-6, table 2 board 2, table 3 boards 2-4.
    client.app.state.live.close_session()  # type: ignore[attr-defined]
    report = client.get("/report.html")
    assert report.status_code == 200
    assert "4SN+1" in report.text
    assert client.get("/results/board-1.html").status_code == 200
    for board in range(2, 7):
        assert client.get(f"/results/board-{board}.html").status_code == 404, board
    index = client.get("/results/index.html").text
    assert "board-1.html" in index and "board-5.html" not in index
    # The director enters table 1's rounds 2 and 3: boards 5 and 6 are now played at all
    # three tables; boards 3 and 4 still wait for table 3, board 2 for every table.
    headers = director(client, event)
    for round_number, boards in ((2, (3, 4)), (3, (5, 6))):
        for board in boards:
            body = {"table": 1, "round": round_number, "board": board, "contract": "PASS"}
            assert client.put(API, json=body, headers=headers).status_code == 200
    shown = [b for b in range(1, 7) if client.get(f"/results/board-{b}.html").status_code == 200]
    assert shown == [1, 5, 6]


# ------------------------------------------------------------ the table's traveller


def _line(
    ns: str,
    ew: str,
    contract: str,
    declarer: str,
    result: str,
    score: int,
    ns_points: float,
    ew_points: float,
) -> dict[str, Any]:
    return {"ns": ns, "ew": ew, "contract": contract, "declarer": declarer, "result": result,
            "ns_score": score, "ns_points": ns_points, "ew_points": ew_points}  # fmt: skip


def _lines(answer: Any) -> list[dict[str, Any]]:
    keys = ("ns", "ew", "contract", "declarer", "result", "ns_score", "ns_points", "ew_points")
    return [{key: line[key] for key in keys} for line in answer.json()["results"]]


def test_the_traveller_answers_by_who_asks(client: TestClient, event: Any) -> None:
    url = "/api/live/traveller/1"
    assert client.get(url).status_code == 401
    assert client.get(url, headers=bearer("forged-token")).status_code == 401
    before = client.get(url, headers=table(event, 1))
    assert before.status_code == 403
    assert "table 1 has not entered board 1" in before.json()["detail"]
    # The director always: no line yet, the hand record already.
    empty = client.get(url, headers=director(client, event))
    assert empty.status_code == 200
    assert (empty.json()["results"], empty.json()["deal"]) == ([], ONE_SUIT_EACH)
    assert client.get("/api/live/traveller/7", headers=table(event, 1)).status_code == 404
    assert client.get("/api/live/traveller/x", headers=table(event, 1)).status_code == 404

    # Board 1, nobody vulnerable: 4S by N with 11 tricks, 120 + 30 + 300 = +450.
    assert enter(client, event, 1, 1, 1, "4S", "N", "+1").json() == {
        "score_ns": law_77(4, "S", 11, NS_VULNERABLE[1])
    }
    mine = client.get(url, headers=table(event, 1))
    assert mine.status_code == 200
    # One result so far: no one to compare with, no matchpoints.
    assert _lines(mine) == [_line("1N", "1E", "4S", "N", "4SN+1", 450, 0, 0)]
    # Table 3 enters its round 1 (passed out), then board 1: 4S by N, 10 tricks, +420.
    for board in (5, 6):
        assert enter(client, event, 3, 1, board, "PASS").status_code == 201
    assert enter(client, event, 3, 2, 1, "4S", "N", "=").json() == {
        "score_ns": law_77(4, "S", 10, NS_VULNERABLE[1])
    }
    # Two results on a top of 2: +450 beats +420.
    both = [
        _line("1N", "1E", "4S", "N", "4SN+1", 450, 2, 0),
        _line("3N", "2E", "4S", "N", "4SN=", 420, 0, 2),
    ]
    for who in (table(event, 1), table(event, 3), director(client, event)):
        assert _lines(client.get(url, headers=who)) == both
    # Table 2 plays board 1 in round 3: not yet.
    assert client.get(url, headers=table(event, 2)).status_code == 403


def test_the_traveller_carries_the_hand_record(client: TestClient, event: Any) -> None:
    # Board 2, NS vulnerable: 4S by N, 10 tricks: 120 + 500 = +620.
    assert enter(client, event, 1, 1, 1, "PASS").status_code == 201
    assert enter(client, event, 1, 1, 2, "4S", "N", "=").json() == {
        "score_ns": law_77(4, "S", 10, NS_VULNERABLE[2])
    }
    answer = client.get("/api/live/traveller/2", headers=table(event, 1)).json()
    assert (answer["board"], answer["dealer"], answer["vulnerability"]) == (2, "E", "NS")
    assert answer["deal"] == ONE_SUIT_EACH
    assert answer["dd_table"] == ONE_SUIT_EACH_DD
    # Par: 7S by NS, vulnerable: 210 + 500 + 1500 = +2210.
    assert answer["par"] == law_77(7, "S", 13, NS_VULNERABLE[2]) == 2210
    assert "7S" in answer["par_contracts"]
    # Board 1, nobody vulnerable: 7S is +1510.
    assert client.get("/api/live/traveller/1", headers=table(event, 1)).json()["par"] == 1510


def test_the_table_page_shows_the_board_just_entered(client: TestClient, event: Any) -> None:
    client.get(f"/table?token={token_of(event, 1)}")
    csrf = csrf_of(client.get("/table").text)
    assert client.get("/table/traveller/1").status_code == 403
    form = {"csrf": csrf, "round": "1", "board": "1", "level": "4", "strain": "S",
            "doubling": "", "declarer": "N", "result": "+1"}  # fmt: skip
    saved = client.post("/table/result", data=form, follow_redirects=False)
    assert (saved.status_code, saved.headers["location"]) == (303, "/table?saved=1")
    page = client.get("/table?saved=1").text
    assert 'id="traveller-1"' in page and "4SN+1" in page and "450" in page
    assert 'id="hand-record"' in page  # the deal, as the results site draws it
    assert client.get("/table/traveller/1").status_code == 200
    assert client.get("/table/traveller/2").status_code == 403
    # A board another table has entered is not this table's to see.
    assert enter(client, event, 2, 1, 3, "PASS").status_code == 201
    assert client.get("/table/traveller/3").status_code == 403


@pytest.mark.parametrize("saved", ["²", "9" * 5000, "-1", "1.0", "3"])
def test_the_table_page_shows_no_traveller_for_an_odd_or_foreign_board(
    client: TestClient, event: Any, saved: str
) -> None:
    client.get(f"/table?token={token_of(event, 1)}")
    assert enter(client, event, 2, 1, 3, "PASS").status_code == 201  # table 2's board
    page = client.get("/table", params={"saved": saved})
    assert page.status_code == 200
    assert 'id="traveller"' not in page.text and 'id="saved"' not in page.text
    assert client.get(f"/table/traveller/{saved}").status_code in (403, 404)
