"""The live session's JSON API (web/live/app.py), through FastAPI's TestClient.

Scores are the Laws' (Law 77), worked by hand in the comments; board vulnerability
follows the usual cycle (board 1 none, 2 NS, 3 EW, 4 both).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bridgescore.cli.app import app as cli_app
from bridgescore.session.live.creation import NewEvent, create_event
from bridgescore.web.guards import LIVE_SECURITY_HEADERS as SECURITY_HEADERS
from bridgescore.web.limits import LoginThrottle
from bridgescore.web.live.app import LIVE_MAX_BODY, LiveSettings, create_live_app
from bridgescore.web.live.guards import RedactSecrets, redact
from fuzzing import FULL
from live_movements import not_played_before
from live_serving import THREE_TABLES


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def event(tmp_path: Path) -> tuple[Path, NewEvent]:
    path = tmp_path / "club.db"
    return path, create_event(path, THREE_TABLES, name="Tuesday pairs")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(event: tuple[Path, NewEvent], clock: Clock) -> Iterator[TestClient]:
    path, _ = event
    app = create_live_app(path, settings=LiveSettings(clock=clock))
    with TestClient(app) as test_client:
        yield test_client


def token(event: tuple[Path, NewEvent], table: int) -> str:
    return next(access.token for access in event[1].tables if access.table == table)


def bearer(value: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {value}"}


def post(client: TestClient, who: str, **body: Any) -> Any:
    return client.post("/api/live/results", json=body, headers=bearer(who))


def login(client: TestClient, event: tuple[Path, NewEvent]) -> str:
    answer = client.post("/api/live/director/login", json={"password": event[1].director_password})
    assert answer.status_code == 200, answer.text
    value: str = answer.json()["token"]
    return value


# -- the table's view ---------------------------------------------------------------------


def test_a_table_sees_its_rounds_pairs_and_boards(
    client: TestClient, event: tuple[Path, NewEvent]
) -> None:
    answer = client.get("/api/live/table", headers=bearer(token(event, 2)))
    assert answer.status_code == 200
    view = answer.json()
    # Table 2 of the movement written out in live_serving.THREE_TABLES; the fields the
    # API promises (the pages get more: each round's results and where to move next).
    keys = ("round", "ns", "ew", "boards", "entered")
    assert (view["section"], view["table"]) == ("A", 2)
    assert [{key: line[key] for key in keys} for line in view["rounds"]] == [
        {"round": 1, "ns": "2N", "ew": "2E", "boards": [3, 4], "entered": []},
        {"round": 2, "ns": "2N", "ew": "1E", "boards": [5, 6], "entered": []},
        {"round": 3, "ns": "2N", "ew": "3E", "boards": [1, 2], "entered": []},
    ]


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer"},
        {"Authorization": "Bearer    "},
        {"Authorization": "Basic dGFibGU6MQ=="},
        {"Authorization": "Bearer forged-token-that-no-table-has"},
        {"Authorization": "Bearer " + "A" * 43},
    ],
)
def test_no_valid_token_is_401(client: TestClient, headers: dict[str, str]) -> None:
    answer = client.get("/api/live/table", headers=headers)
    assert answer.status_code == 401
    assert answer.headers["WWW-Authenticate"] == "Bearer"
    assert "token" in answer.json()["detail"]
    answer = client.post(
        "/api/live/results",
        headers=headers,
        json={"round": 1, "board": 1, "contract": "PASS"},
    )
    assert answer.status_code == 401


def test_a_token_in_the_query_string_is_not_the_api_s_credential(
    client: TestClient, event: tuple[Path, NewEvent]
) -> None:
    # The API takes its token from the Authorization header only (the page's link carries
    # it in the query, and the page hands it on in the header).
    answer = client.get("/api/live/table", params={"token": token(event, 1)})
    assert answer.status_code == 401


# -- entering results ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("board", "contract", "declarer", "result", "score_ns"),
    [
        (1, "4S", "N", "=", 420),  # none vul: 4x30 + 300 game
        (1, "PASS", None, None, 0),
        (2, "3NT", "E", "-2", 100),  # board 2: NS vul, so EW are not: 2 x 50
        (2, "4SX", "S", "-1", -200),  # NS vul doubled, one down
        (1, "1NT", "W", "+2", -150),  # 40 + 2 x 30 + 50 part score, to EW
    ],
)
def test_a_table_enters_a_board_and_gets_the_score(
    client: TestClient,
    event: tuple[Path, NewEvent],
    board: int,
    contract: str,
    declarer: str | None,
    result: str | None,
    score_ns: int,
) -> None:
    body: dict[str, Any] = {"round": 1, "board": board, "contract": contract}
    if declarer is not None:
        body |= {"declarer": declarer, "result": result}
    answer = post(client, token(event, 1), **body)
    assert answer.status_code == 201, answer.text
    assert answer.json() == {"score_ns": score_ns}
    view = client.get("/api/live/table", headers=bearer(token(event, 1))).json()
    assert view["rounds"][0]["entered"] == [board]


def test_the_lead_is_optional_and_kept(client: TestClient, event: tuple[Path, NewEvent]) -> None:
    answer = post(
        client, token(event, 1), round=1, board=1, contract="3NT", declarer="S", result="+1",
        lead="HQ",
    )  # fmt: skip
    assert answer.status_code == 201
    assert answer.json() == {"score_ns": 430}  # 3NT+1 none vul: 40+60+30 + 300


@pytest.mark.parametrize(
    ("table", "round_number", "board"),
    [
        (1, 1, 3),  # board 3 is table 2's in round 1
        (1, 2, 1),  # table 1 plays boards 3-4 in round 2
        (2, 1, 1),  # another table's board, from its token
        (1, 4, 1),  # there is no round 4
        (1, 1, 99),  # nor a board 99
    ],
)
def test_a_round_or_board_that_is_not_this_table_s_is_403(
    client: TestClient, event: tuple[Path, NewEvent], table: int, round_number: int, board: int
) -> None:
    answer = post(
        client, token(event, table), round=round_number, board=board, contract="4S",
        declarer="N", result="=",
    )  # fmt: skip
    assert answer.status_code == 403, answer.text
    assert answer.json()["detail"]
    assert client.get("/api/live/audit", headers=bearer(login(client, event))).json() == []


def test_a_replay_is_409_and_changes_nothing(
    client: TestClient, event: tuple[Path, NewEvent]
) -> None:
    first = post(client, token(event, 1), round=1, board=1, contract="4S", declarer="N", result="=")
    assert first.status_code == 201
    again = post(client, token(event, 1), round=1, board=1, contract="4S", declarer="N", result="=")
    assert again.status_code == 409
    other = post(client, token(event, 1), round=1, board=1, contract="6S", declarer="N", result="=")
    assert other.status_code == 409
    assert "director" in other.json()["detail"]
    audit = client.get("/api/live/audit", headers=bearer(login(client, event))).json()
    assert [(line["who"], line["board"], line["old"]) for line in audit] == [("table 1", 1, None)]
    # The board stands as first entered: 4S= by N, +420.
    view = client.get("/api/live/table", headers=bearer(token(event, 1))).json()
    assert [(r["board"], r["score_ns"]) for r in view["rounds"][0]["results"]] == [(1, 420)]


# -- bad input: 422 (or 413) with a message, never a 5xx ---------------------------------------

GOOD = {"round": 1, "board": 1, "contract": "4S", "declarer": "N", "result": "="}


@pytest.mark.parametrize(
    ("change", "quoted"),
    [
        ({"contract": "4SS"}, "4SS"),
        ({"contract": "8S"}, "8S"),
        ({"contract": ""}, "contract"),
        ({"declarer": "Q"}, "Q"),
        ({"declarer": None}, "declarer"),
        ({"result": "+4"}, "+4"),  # 4S+4 would be 14 tricks
        ({"contract": "7NT", "result": "+1"}, "+1"),
        ({"contract": "1S", "result": "-8"}, "-8"),
        ({"result": "?"}, "?"),
        ({"result": None}, "result"),
        ({"round": "one"}, "round"),
        ({"round": 1.5}, "round"),
        ({"round": True}, "round"),
        ({"board": None}, "board"),
        ({"board": 10**30}, "board"),
        ({"board": -1}, "board"),
        ({"contract": 4}, "contract"),
        ({"contract": "４S"}, "contract"),
        ({"contract": "PASS", "declarer": "N", "result": None}, "declarer"),
        ({"lead": 7}, "lead"),
        ({"lead": "ZZ"}, "ZZ"),
    ],
)
def test_malformed_or_impossible_results_are_422_with_a_message(
    client: TestClient, event: tuple[Path, NewEvent], change: dict[str, Any], quoted: str
) -> None:
    body = {**GOOD, **change}
    answer = client.post("/api/live/results", json=body, headers=bearer(token(event, 1)))
    assert answer.status_code in (400, 422), answer.text
    assert quoted in answer.json()["detail"]


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"", "empty"),
        (b"   ", "empty"),
        (b"{", "not valid JSON"),
        (b"round=1&board=1", "not valid JSON"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b"[1, 2]", "JSON object"),
        (b'"4S="', "JSON object"),
        (b"null", "JSON object"),
        (b'{"round": ' + b"9" * 4000 + b"}", "round"),
        (b"[" * 2000 + b"]" * 2000, "nested too deeply"),
        (b'{"round": NaN, "board": 1, "contract": "PASS"}', "round"),
    ],
)
def test_junk_bodies_are_422(
    client: TestClient, event: tuple[Path, NewEvent], content: bytes, said: str
) -> None:
    answer = client.post(
        "/api/live/results",
        content=content,
        headers={**bearer(token(event, 1)), "Content-Type": "application/json"},
    )
    assert answer.status_code in (400, 422), answer.text
    assert said in answer.json()["detail"]


def test_an_oversize_body_is_413(client: TestClient, event: tuple[Path, NewEvent]) -> None:
    body = {**GOOD, "lead": "H" * LIVE_MAX_BODY}
    answer = client.post("/api/live/results", json=body, headers=bearer(token(event, 1)))
    assert answer.status_code == 413
    assert f"the limit is {LIVE_MAX_BODY} bytes" in answer.json()["detail"]


def test_an_oversize_chunked_body_is_413(client: TestClient, event: tuple[Path, NewEvent]) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"lead": "'
        for _ in range(LIVE_MAX_BODY // 1024 + 1):
            yield b"H" * 1024

    answer = client.post("/api/live/results", content=chunks(), headers=bearer(token(event, 1)))
    assert answer.status_code == 413


# One event for all of a property's examples: results entered by one example stay for the
# next, which only widens what is tried (409s, entered boards).
FIXTURE_CHECK = HealthCheck.function_scoped_fixture
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(["4S", "PASS", "3NTX", "N", "=", "+1", "-13", "HQ", "7NT"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        name: JSON_VALUES
        for name in ("round", "board", "contract", "declarer", "result", "lead", "table")
    },
)


@settings(max_examples=1500 if FULL else 150, deadline=None, suppress_health_check=[FIXTURE_CHECK])
@given(body=JSON_VALUES | FIELDS)
def test_whatever_the_json_body_the_answer_is_not_a_5xx(
    client: TestClient, event: tuple[Path, NewEvent], body: Any
) -> None:
    table = bearer(token(event, 3))
    answer = client.post("/api/live/results", content=json.dumps(body), headers=table)
    assert answer.status_code < 500, answer.text
    assert answer.status_code in (201, 403, 409, 422), answer.text
    director = client.put(
        "/api/live/results", content=json.dumps(body), headers=bearer(_director(client, event))
    )
    assert director.status_code in (200, 403, 422), director.text


@settings(max_examples=1000 if FULL else 100, deadline=None, suppress_health_check=[FIXTURE_CHECK])
@given(content=st.binary(max_size=200))
def test_whatever_the_bytes_the_answer_is_not_a_5xx(
    client: TestClient, event: tuple[Path, NewEvent], content: bytes
) -> None:
    answer = client.post("/api/live/results", content=content, headers=bearer(token(event, 3)))
    assert answer.status_code in (201, 403, 409, 422), answer.text
    login_answer = client.post(
        "/api/live/director/login", content=content, headers={"content-type": "application/json"}
    )
    assert login_answer.status_code in (401, 422, 429), login_answer.text


_DIRECTOR_TOKENS: dict[int, str] = {}


def _director(client: TestClient, event: tuple[Path, NewEvent]) -> str:
    # One login per client: hypothesis runs many examples against one fixture.
    key = id(client)
    if key not in _DIRECTOR_TOKENS:
        _DIRECTOR_TOKENS[key] = login(client, event)
    return _DIRECTOR_TOKENS[key]


# -- the director -----------------------------------------------------------------------------


def test_director_login_right_and_wrong(client: TestClient, event: tuple[Path, NewEvent]) -> None:
    wrong = client.post("/api/live/director/login", json={"password": "not-the-password"})
    assert wrong.status_code == 401
    assert "token" not in wrong.json()
    right = client.post("/api/live/director/login", json={"password": event[1].director_password})
    assert right.status_code == 200
    director_token = right.json()["token"]
    assert isinstance(director_token, str) and len(director_token) >= 22  # >= 128 bits, base64
    assert director_token not in {access.token for access in event[1].tables}


@pytest.mark.parametrize("body", [{}, {"password": ""}, {"password": 7}, {"password": None}])
def test_a_login_without_a_password_string_is_422(client: TestClient, body: Any) -> None:
    answer = client.post("/api/live/director/login", json=body)
    assert answer.status_code == 422
    assert "password" in answer.json()["detail"]


def test_password_guessing_is_throttled_then_allowed_again(
    client: TestClient, event: tuple[Path, NewEvent], clock: Clock
) -> None:
    for guess in range(5):
        answer = client.post("/api/live/director/login", json={"password": f"guess-{guess}"})
        assert answer.status_code == 401
    # The sixth try is refused before the password is looked at, even the right one.
    refused = client.post("/api/live/director/login", json={"password": event[1].director_password})
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "300"
    clock.now += 120
    assert client.post("/api/live/director/login", json={"password": "x"}).status_code == 429
    clock.now += 180  # the first failure is 300 s old: out of the window
    assert login(client, event)


def test_the_throttle_counts_each_client_apart(event: tuple[Path, NewEvent]) -> None:
    path, created = event
    clock = Clock()
    app = create_live_app(path, settings=LiveSettings(clock=clock, login_failures=2))
    with (
        TestClient(app, client=("192.0.2.1", 5000)) as guesser,
        TestClient(app, client=("192.0.2.2", 5000)) as director,
    ):
        for _ in range(2):
            assert (
                guesser.post("/api/live/director/login", json={"password": "x"}).status_code == 401
            )
        assert guesser.post("/api/live/director/login", json={"password": "x"}).status_code == 429
        answer = director.post(
            "/api/live/director/login", json={"password": created.director_password}
        )
        assert answer.status_code == 200


def test_a_login_that_is_not_json_is_415_and_costs_no_try(
    client: TestClient, event: tuple[Path, NewEvent]
) -> None:
    # What a page on another site can make the director's browser send without asking:
    # a "simple" post, text/plain or a form. Ten of them must not lock the director out.
    for kind in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"] * 4:
        answer = client.post(
            "/api/live/director/login",
            content=b'{"password": "guess"}',
            headers={"content-type": kind},
        )
        assert answer.status_code == 415, answer.text
        assert "application/json" in answer.json()["detail"]
    assert client.post("/api/live/director/login", content=b"{}").status_code == 415
    # JSON with a charset is JSON.
    right = client.post(
        "/api/live/director/login",
        content=json.dumps({"password": event[1].director_password}).encode(),
        headers={"content-type": "application/json; charset=utf-8"},
    )
    assert right.status_code == 200


def test_twenty_guesses_at_once_get_five_tries(event: tuple[Path, NewEvent]) -> None:
    # Every guess is counted before its password is checked: whatever the order the
    # twenty arrive in and however long scrypt takes, five are tried and fifteen refused.
    path, created = event
    app = create_live_app(path, settings=LiveSettings(clock=Clock()))
    start = threading.Barrier(20)
    with TestClient(app) as guesser:

        def guess(number: int) -> int:
            start.wait()
            body = {"password": f"guess-{number}"}
            return guesser.post("/api/live/director/login", json=body).status_code

        with ThreadPoolExecutor(max_workers=20) as pool:
            statuses = sorted(pool.map(guess, range(20)))
        assert statuses == [401] * 5 + [429] * 15
        right = guesser.post(
            "/api/live/director/login", json={"password": created.director_password}
        )
        assert right.status_code == 429


def test_the_throttle_takes_a_slot_before_the_check() -> None:
    now = [0.0]
    throttle = LoginThrottle(3, 60.0, clock=lambda: now[0])
    assert [throttle.attempt("a") for _ in range(4)] == [None, None, None, 60]
    assert throttle.attempt("b") is None  # each address apart
    throttle.succeeded("a")  # a right password gives every slot back
    assert throttle.attempt("a") is None


def test_the_api_logout_ends_the_director_s_token(
    client: TestClient, event: tuple[Path, NewEvent]
) -> None:
    director_token = login(client, event)
    other = login(client, event)
    assert client.get("/api/live/audit", headers=bearer(director_token)).status_code == 200
    answer = client.post("/api/live/director/logout", headers=bearer(director_token))
    assert answer.status_code == 204
    after = client.get("/api/live/audit", headers=bearer(director_token))
    assert after.status_code == 401
    assert (
        client.post("/api/live/director/logout", headers=bearer(director_token)).status_code == 401
    )
    # Only that login ends; a table's token may not log the director out.
    assert client.get("/api/live/audit", headers=bearer(other)).status_code == 200
    table = client.post("/api/live/director/logout", headers=bearer(token(event, 1)))
    assert table.status_code == 403
    assert client.post("/api/live/director/logout").status_code == 401


def test_the_throttle_forgets_a_client_that_logs_in() -> None:
    now = [0.0]
    throttle = LoginThrottle(3, 60.0, clock=lambda: now[0])
    throttle.failed("a")
    throttle.failed("a")
    throttle.succeeded("a")
    throttle.failed("a")
    throttle.failed("a")
    assert throttle.retry_after("a") is None
    throttle.failed("a")
    assert throttle.retry_after("a") == 60
    now[0] = 59.5
    assert throttle.retry_after("a") == 1


def test_the_throttle_remembers_a_bounded_number_of_clients() -> None:
    now = [0.0]
    throttle = LoginThrottle(1, 60.0, clock=lambda: now[0], max_clients=3)
    for index, client in enumerate("abcd"):
        now[0] = float(index)
        throttle.failed(client)
    # "a", the oldest, made room for "d".
    assert throttle.retry_after("a") is None
    # Failures at 1, 2 and 3 s, now 3 s: each waits until its failure is 60 s old.
    assert [throttle.retry_after(c) for c in "bcd"] == [58, 59, 60]


def test_the_director_corrects_any_table_and_a_table_token_may_not(
    client: TestClient, event: tuple[Path, NewEvent]
) -> None:
    entered = post(
        client, token(event, 1), round=1, board=1, contract="4S", declarer="N", result="="
    )
    assert entered.status_code == 201
    body = {"table": 1, "round": 1, "board": 1, "contract": "4S", "declarer": "N", "result": "-1"}
    as_table = client.put("/api/live/results", json=body, headers=bearer(token(event, 1)))
    assert as_table.status_code == 403
    nobody = client.put("/api/live/results", json=body)
    assert nobody.status_code == 401
    director = bearer(login(client, event))
    answer = client.put("/api/live/results", json=body, headers=director)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"score_ns": -50}  # 4S-1 none vul
    # The director may also enter a board no one has entered yet.
    fresh = {"table": 3, "round": 1, "board": 6, "contract": "PASS"}
    assert client.put("/api/live/results", json=fresh, headers=director).status_code == 200
    audit = client.get("/api/live/audit", headers=director).json()
    assert [(line["who"], line["board"]) for line in audit] == [
        ("table 1", 1),
        ("director", 1),
        ("director", 6),
    ]
    assert audit[1]["old"] is not None and audit[1]["new"] is not None
    assert audit[0]["old"] is None


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"table": None}, "table"),
        ({"table": "1"}, "table"),
        ({"table": 0}, "table"),
        ({"table": True}, "table"),
        ({"table": 7}, "7"),
        ({"table": 2}, "board"),  # table 2 does not play board 1 in round 1
        ({"section": 5}, "section"),
        ({"section": "Z"}, "Z"),
    ],
)
def test_a_director_body_naming_no_such_table_is_422(
    client: TestClient, event: tuple[Path, NewEvent], change: dict[str, Any], said: str
) -> None:
    body = {"table": 1, **GOOD, **change}
    if change.get("table", 1) is None:
        del body["table"]
    answer = client.put("/api/live/results", json=body, headers=bearer(login(client, event)))
    assert answer.status_code == 422, answer.text
    assert said in answer.json()["detail"]


def test_the_audit_is_the_director_s_only(client: TestClient, event: tuple[Path, NewEvent]) -> None:
    assert client.get("/api/live/audit").status_code == 401
    assert client.get("/api/live/audit", headers=bearer(token(event, 1))).status_code == 403
    assert client.get("/api/live/audit", headers=bearer("forged")).status_code == 401


def test_a_director_token_is_no_table_token(
    client: TestClient, event: tuple[Path, NewEvent]
) -> None:
    director = bearer(login(client, event))
    assert client.get("/api/live/table", headers=director).status_code == 403
    answer = client.post("/api/live/results", json=GOOD, headers=director)
    assert answer.status_code == 403


def test_results_are_refused_once_the_session_is_closed(
    client: TestClient, event: tuple[Path, NewEvent]
) -> None:
    client.app.state.live.close_session()  # type: ignore[attr-defined]
    answer = post(client, token(event, 1), round=1, board=1, contract="PASS")
    assert answer.status_code == 409
    assert "closed" in answer.json()["detail"]


# -- the ranking --------------------------------------------------------------------------------

# Board 1 (none vul) is played at T1 in round 1 (1N v 1E), T3 in round 2 (3N v 2E) and T2
# in round 3 (2N v 3E). Matchpoints on the 2/1 scale, a top of 4 with three results.
BOARD_1 = [(1, 1, "4S", "N", "="), (3, 2, "4S", "N", "+1"), (2, 3, "4S", "N", "-1")]
#   +420 (1N 2, 1E 2), +450 (3N 4, 2E 0), -50 (2N 0, 3E 4)
BEFORE = {"1N": 2, "3N": 4, "2N": 0, "1E": 2, "2E": 0, "3E": 4}
#   the director makes T2's result 4S+2 = +480: 2N 4, 3E 0; 3N 2, 2E 2; 1N 0, 1E 4
AFTER = {"1N": 0, "3N": 2, "2N": 4, "1E": 4, "2E": 2, "3E": 0}


def _open_board_1(client: TestClient) -> None:
    # Tables 3 and 2 play board 1 in rounds 2 and 3: their earlier boards are marked not
    # played (left out of the scoring), as a table enters its rounds in order.
    live = client.app.state.live  # type: ignore[attr-defined]
    not_played_before(live, 3, 2)
    not_played_before(live, 2, 3)


def _totals(document: dict[str, Any]) -> dict[str, Any]:
    return {line["name"]: line["total"] for line in document["ranking"]}


def test_the_ranking_is_session_score_json_and_changes_after_a_correction(
    client: TestClient, event: tuple[Path, NewEvent]
) -> None:
    _open_board_1(client)
    for table, round_number, contract, declarer, result in BOARD_1:
        answer = post(
            client, token(event, table), round=round_number, board=1, contract=contract,
            declarer=declarer, result=result,
        )  # fmt: skip
        assert answer.status_code == 201
    ranking = client.get("/api/live/ranking")
    assert ranking.status_code == 200
    assert _totals(ranking.json()) == BEFORE
    cli = CliRunner().invoke(cli_app, ["session", "score", str(event[0]), "--json"])
    assert cli.exit_code == 0, cli.output
    assert ranking.json() == json.loads(cli.output)
    body = {"table": 2, "round": 3, "board": 1, "contract": "4S", "declarer": "N", "result": "+2"}
    put = client.put("/api/live/results", json=body, headers=bearer(login(client, event)))
    assert put.json() == {"score_ns": 480}
    assert _totals(client.get("/api/live/ranking").json()) == AFTER


def test_the_public_ranking_follows_every_change_at_the_next_request(
    client: TestClient, event: tuple[Path, NewEvent]
) -> None:
    # Board 1's three results, from the table's own API.
    _open_board_1(client)
    for table, round_number, contract, declarer, result in BOARD_1:
        post(
            client, token(event, table), round=round_number, board=1, contract=contract,
            declarer=declarer, result=result,
        )  # fmt: skip
    assert _totals(client.get("/api/live/ranking").json()) == BEFORE
    # Asked again with nothing changed: the same drawing (the same bytes).
    first = client.get("/api/live/ranking").content
    assert client.get("/api/live/ranking").content == first
    # The change made from the shell, in another process, through the file alone: the
    # public sees it at its next request (the cache is keyed on the file's version).
    cli = CliRunner().invoke(
        cli_app, ["session", "correct", str(event[0]), "1", "2N", "3E", "4SN+2"]
    )
    assert cli.exit_code == 0, cli.output
    assert _totals(client.get("/api/live/ranking").json()) == AFTER
    director = bearer(login(client, event))
    assert _totals(client.get("/api/live/ranking", headers=director).json()) == AFTER


def test_a_hidden_ranking_is_the_director_s_only(
    client: TestClient, event: tuple[Path, NewEvent]
) -> None:
    post(client, token(event, 1), round=1, board=1, contract="4S", declarer="N", result="=")
    client.app.state.live.hide_ranking(True)  # type: ignore[attr-defined]
    hidden = client.get("/api/live/ranking")
    assert hidden.status_code == 403
    assert "hidden" in hidden.json()["detail"]
    assert client.get("/api/live/ranking", headers=bearer(token(event, 1))).status_code == 403
    seen = client.get("/api/live/ranking", headers=bearer(login(client, event)))
    assert seen.status_code == 200
    assert "ranking" in seen.json()
    client.app.state.live.hide_ranking(False)  # type: ignore[attr-defined]
    assert client.get("/api/live/ranking").status_code == 200


# -- safety ----------------------------------------------------------------------------------


def test_every_answer_carries_the_security_headers(
    client: TestClient, event: tuple[Path, NewEvent]
) -> None:
    answers = [
        client.get("/api/live/table", headers=bearer(token(event, 1))),
        client.get("/api/live/table"),
        client.get("/api/live/ranking"),
        client.post("/api/live/results", content=b"x" * (LIVE_MAX_BODY + 1)),
        client.get("/no/such/page"),
    ]
    # The pages run no script at all: their own policy is the stricter one.
    no_script = (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'none'; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    )
    for answer in answers:
        page = answer.headers["content-type"].startswith("text/html")
        for name, value in SECURITY_HEADERS.items():
            if page and name == "Content-Security-Policy":
                value = no_script
            assert answer.headers[name] == value, (answer.request.url, name)
        assert "access-control-allow-origin" not in answer.headers
    # A page that is not there is a page saying so, as on serve.
    assert answers[-1].status_code == 404
    assert "there is no page at &#39;/no/such/page&#39; here" in answers[-1].text


def test_no_answer_shows_a_table_token(client: TestClient, event: tuple[Path, NewEvent]) -> None:
    post(client, token(event, 1), round=1, board=1, contract="4S", declarer="N", result="=")
    director = bearer(login(client, event))
    texts = [
        client.get("/api/live/table", headers=bearer(token(event, 1))).text,
        client.get("/api/live/ranking").text,
        client.get("/api/live/audit", headers=director).text,
        client.put("/api/live/results", json={"table": 2, **GOOD}, headers=director).text,
    ]
    for access in event[1].tables:
        assert all(access.token not in text for text in texts)
    # The only token a table is ever told is none: it brought its own.
    assert event[1].director_password not in "".join(texts)


def test_no_schema_or_docs_pages_are_served(client: TestClient) -> None:
    for path in ("/docs", "/openapi.json", "/redoc"):
        assert client.get(path).status_code == 404


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("GET /table?token=s3cr3t HTTP/1.1", "GET /table?token=[redacted] HTTP/1.1"),
        ("GET /t?round=2&Token=s3cr3t&x=1", "GET /t?round=2&Token=[redacted]&x=1"),
        ("GET /t?director_token=s3cr3t", "GET /t?director_token=[redacted]"),
        ("POST /login?password=s3cr3t#x", "POST /login?password=[redacted]#x"),
        ("Authorization: Bearer s3cr3t", "Authorization: Bearer [redacted]"),
        ("GET /tokens/list?page=2", "GET /tokens/list?page=2"),
        # The server reads a parameter's name percent-decoded: so does the redaction.
        ("GET /table?%74oken=s3cr3t HTTP/1.1", "GET /table?%74oken=[redacted] HTTP/1.1"),
        ("GET /t?round=2&T%4FKEN=s3cr3t", "GET /t?round=2&T%4FKEN=[redacted]"),
        ("GET /t?%2574oken=s3cr3t", "GET /t?%2574oken=[redacted]"),
        ("GET /t?pass%77ord=s3cr3t&x=1", "GET /t?pass%77ord=[redacted]&x=1"),
        ("GET /t?x=1%26token%3Ds3cr3t", "GET /t?x=[redacted]"),
        ("GET /t?%74oken%3Ds3cr3t&round=1", "GET /t?[redacted]&round=1"),
    ],
)
def test_redact(line: str, shown: str) -> None:
    assert redact(line) == shown


def test_the_access_log_never_shows_a_token(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    # As uvicorn's access logger logs a request (its message and arguments).
    access = logging.getLogger("uvicorn.access")
    assert any(isinstance(f, RedactSecrets) for f in access.filters)
    record = access.makeRecord(
        "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
        ("192.0.2.1:5000", "GET", "/table?token=s3cr3t-table-token", "1.1", 200), None,
    )  # fmt: skip
    for log_filter in access.filters:
        log_filter.filter(record)
    assert record.getMessage() == '192.0.2.1:5000 - "GET /table?token=[redacted] HTTP/1.1" 200'
