"""The JSON API and the server-rendered pages, through FastAPI's TestClient.

Expected scores are worked out here from Law 77 (docs/rules.md §1); deals, DD tables
and par come from tests/data/par_vectors.jsonl (computed by DDS), never from
the code under test.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import multiprocessing
import os
import re
import sqlite3
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app as cli_app
from bridgescore.web import WebSettings, create_app
from bridgescore.web.limits import MAX_BODY_BYTES, SolverBusy, SolverLimiter
from bridgescore.web.pages import list_entries
from bridgescore.web.views import bar_chart, is_event_file
from conftest import HOLD_TIMEOUT
from web_helpers import (
    EW_MATCHPOINTS,
    NS_MATCHPOINTS,
    make_event,
    make_study,
    run_after,
    vectors,
)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette suggests httpx2; httpx works the same here
    from fastapi.testclient import TestClient

HAS_SOLVER = importlib.util.find_spec("bridgescore.solver") is not None
HAS_PAR = importlib.util.find_spec("bridgescore.parscore") is not None
needs_solver = pytest.mark.skipif(not HAS_SOLVER, reason="bridgescore.solver is not written yet")
needs_par = pytest.mark.skipif(not HAS_PAR, reason="bridgescore.parscore is not written yet")

T = TypeVar("T")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(WebSettings(solver_workers=1))) as test_client:
        yield test_client


def post_score(client: TestClient, **body: Any) -> Any:
    return client.post("/api/score", json=body)


# ---- /api/score -------------------------------------------------------------


def test_score_4dx_plus_one_vulnerable(client: TestClient) -> None:
    response = post_score(client, result="4DX +1", vulnerable=True)
    assert response.status_code == 200
    data = response.json()
    # Law 77: 4 x 20 doubled = 160; 1 doubled vul overtrick 200; vul game 500; insult 50.
    assert data["score"] == 910
    assert data["breakdown"] == {
        "trick_score": 160,
        "overtricks": 200,
        "game_premium": 500,
        "partscore_premium": 0,
        "slam_premium": 0,
        "insult_premium": 50,
        "undertricks": 0,
    }
    assert data["result"] == "4DX+1"
    assert data["tricks"] == 11
    assert data["vulnerable"] is True


@pytest.mark.parametrize(
    ("result", "vulnerable", "expected"),
    [
        ("4DX +1", False, 160 + 100 + 300 + 50),
        ("3NT-2", False, -100),
        ("3NT-2", True, -200),
        ("6NTXX=", False, 4 * 190 + 300 + 500 + 100),
        ("7NTXX=", True, 4 * 220 + 500 + 1500 + 100),
        ("1C=", False, 20 + 50),
        ("4S by N making 5", False, 120 + 30 + 300),
        ("3NTXX-4", False, -2 * (100 + 200 + 200 + 300)),
        ("Pass", True, 0),
    ],
)
def test_score_values(client: TestClient, result: str, vulnerable: bool, expected: int) -> None:
    data = post_score(client, result=result, vulnerable=vulnerable).json()
    assert data["score"] == expected
    assert sum(data["breakdown"].values()) == expected


def test_score_contract_with_tricks(client: TestClient) -> None:
    data = post_score(client, result="4SX", tricks=11).json()
    assert data["score"] == 240 + 100 + 300 + 50


def test_score_pre_1987_rules(client: TestClient) -> None:
    # Before 1987 a redoubled make earned 50, not 100.
    assert post_score(client, result="1CXX=", rules="pre1987").json()["score"] == 80 + 50 + 50
    assert post_score(client, result="1CXX=").json()["score"] == 80 + 50 + 100


@pytest.mark.parametrize(
    ("result", "vulnerability", "vulnerable", "ns_score"),
    [
        ("4SN=", "NS", True, 620),
        ("4SE=", "NS", False, -420),
        ("4SW=", "Both", True, -620),
        ("3NTS-1", "EW", False, -50),
    ],
)
def test_score_board_vulnerability(
    client: TestClient, result: str, vulnerability: str, vulnerable: bool, ns_score: int
) -> None:
    data = post_score(client, result=result, vulnerability=vulnerability).json()
    assert data["vulnerable"] is vulnerable
    assert data["ns_score"] == ns_score


@pytest.mark.parametrize(
    ("body", "quoted"),
    [
        ({"result": "4DX +9"}, "'4DX +9'"),
        ({"result": "garbage"}, "'garbage'"),
        ({"result": "8S="}, "8"),
        ({"result": ""}, "empty result"),
        ({"result": "4S+1", "vulnerability": "NS"}, "declarer"),
        ({"result": "4SN+1", "vulnerability": "sideways"}, "'sideways'"),
        ({"result": "4S", "tricks": 14}, "14"),
        ({"result": 5}, "result"),
        ({"vulnerable": True}, "result: Field required"),
        ({"result": "4S=", "colour": "red"}, "colour"),
        ({"result": "4S=", "rules": "1932"}, "rules"),
        ({"result": "x" * 201}, "result"),
    ],
)
def test_score_bad_input_is_422_with_a_message(
    client: TestClient, body: dict[str, Any], quoted: str
) -> None:
    response = client.post("/api/score", json=body)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert isinstance(detail, str)
    assert quoted in detail


@pytest.mark.parametrize("content", [b"{not json", b"[1, 2]", b'"4S="', b"", b"\xff\xfe"])
def test_score_malformed_body_is_422(client: TestClient, content: bytes) -> None:
    response = client.post(
        "/api/score", content=content, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert isinstance(response.json()["detail"], str)


def test_score_table(client: TestClient) -> None:
    data = client.get("/api/score/table", params={"vulnerable": "true"}).json()
    assert data["vulnerable"] is True
    table = data["made_exactly"]
    assert len(table) == 7 * 5 * 3
    assert table["4S"] == 120 + 500
    assert table["3NT"] == 100 + 500
    assert table["1CX"] == 40 + 50 + 50
    assert table["7NTXX"] == 4 * 220 + 500 + 1500 + 100
    nv = client.get("/api/score/table").json()["made_exactly"]
    assert nv["4S"] == 420
    assert nv["2HX"] == 120 + 300 + 50


# ---- limits -----------------------------------------------------------------


def test_oversized_body_is_413(client: TestClient) -> None:
    body = json.dumps({"result": "4S=", "pad": "x" * MAX_BODY_BYTES}).encode()
    response = client.post("/api/score", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert "65536" in response.json()["detail"]


def test_oversized_chunked_body_is_413(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(20):
            yield b"x" * 4096

    response = client.post(
        "/api/score", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413


def test_body_at_the_limit_reaches_the_app(client: TestClient) -> None:
    prefix = b'{"result": "4S=", "vulnerable": false}'
    body = prefix + b" " * (MAX_BODY_BYTES - len(prefix))
    assert len(body) == MAX_BODY_BYTES
    response = client.post("/api/score", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 200
    assert response.json()["score"] == 420


def test_limiter_refuses_past_its_queue() -> None:
    limiter = SolverLimiter(workers=2, queue=2, retry_after=7)

    with multiprocessing.Manager() as manager:
        gate = manager.Event()  # admitted jobs wait on it: none can finish before all are seen

        async def burst() -> list[Any]:
            jobs = [asyncio.ensure_future(limiter.run(gate.wait)) for _ in range(10)]
            # Admission happens in each job's first step; this runs after all ten.
            asyncio.get_running_loop().call_soon(gate.set)
            return await asyncio.gather(*jobs, return_exceptions=True)

        try:
            outcomes = asyncio.run(burst())
        finally:
            limiter.close()
    busy = [outcome for outcome in outcomes if isinstance(outcome, SolverBusy)]
    assert len(busy) == 10 - limiter.capacity
    assert all(error.retry_after == 7 for error in busy)
    assert outcomes.count(True) == limiter.capacity
    assert limiter.admitted == 0


def test_limiter_survives_a_dead_worker() -> None:
    limiter = SolverLimiter(workers=1, queue=1, retry_after=5)

    async def crash_then_work() -> tuple[BaseException | None, object]:
        crashed: BaseException | None = None
        try:
            await limiter.run(os._exit, 3)  # the worker process dies mid-job
        except SolverBusy as error:
            crashed = error
        return crashed, await limiter.run(abs, -7)

    try:
        crashed, after = asyncio.run(crash_then_work())
    finally:
        limiter.close()
    assert isinstance(crashed, SolverBusy)
    assert "stopped unexpectedly" in str(crashed)
    assert after == 7
    assert limiter.admitted == 0


class GatedLimiter(SolverLimiter):
    """A solver limiter whose admitted jobs wait for ``gate`` before they run.

    Admission (the thing under test) is unchanged; holding the admitted jobs makes
    "the queue is full" a fact of the test, not a race against how fast DDS is.
    """

    def __init__(
        self, gate: Any, workers: int, queue: int, retry_after: int = 2, per_client: int = 4
    ) -> None:
        super().__init__(workers, queue, retry_after, per_client)
        self.gate = gate

    async def run(self, function: Callable[..., T], *args: Any, client: str | None = None) -> T:
        return await super().run(run_after, self.gate, function, *args, client=client)


@needs_solver
def test_full_solver_queue_is_503_with_retry_after() -> None:
    deal = vectors(1)[0]["deal"]
    settings = WebSettings(solver_workers=1, solver_queue=0, retry_after=3, warm_solver=False)
    with multiprocessing.Manager() as manager, TestClient(create_app(settings)) as busy_client:
        gate = manager.Event()
        app: Any = busy_client.app
        app.state.solver.close()
        app.state.solver = GatedLimiter(gate, workers=1, queue=0, retry_after=3)
        assert busy_client.portal is not None
        try:
            # The only worker takes a job held at the gate; the next solve finds no room.
            busy_client.portal.call(_admit, app.state.solver, gate)
            response = busy_client.post("/api/solve", json={"deal": deal})
            assert response.status_code == 503
            assert response.headers["retry-after"] == "3"
            assert "busy" in response.json()["detail"]
        finally:
            gate.set()
            app.state.solver.close()


async def _admit(limiter: SolverLimiter, gate: Any, client: str | None = None) -> None:
    # Starts a job and returns once it is admitted (admission is synchronous in run()).
    asyncio.get_running_loop().create_task(limiter.run(gate.wait, client=client))
    await asyncio.sleep(0)  # one loop turn: the task's first step, where admission happens
    assert limiter.admitted == 1


def test_one_client_holds_at_most_its_share_of_the_queue() -> None:
    # Room for nine jobs, two of them per client: a client asking for five gets two,
    # and another client still finds room.
    limiter = SolverLimiter(workers=1, queue=8, retry_after=4, per_client=2)

    with multiprocessing.Manager() as manager:
        gate = manager.Event()  # admitted jobs wait on it: none finishes before all are seen

        async def burst() -> tuple[list[Any], list[Any]]:
            greedy = [
                asyncio.ensure_future(limiter.run(gate.wait, client="10.0.0.7")) for _ in range(5)
            ]
            other = [
                asyncio.ensure_future(limiter.run(gate.wait, client="10.0.0.8")) for _ in range(2)
            ]
            asyncio.get_running_loop().call_soon(gate.set)  # after every admission
            return (
                await asyncio.gather(*greedy, return_exceptions=True),
                await asyncio.gather(*other, return_exceptions=True),
            )

        try:
            greedy, other = asyncio.run(burst())
        finally:
            limiter.close()
    assert greedy.count(True) == 2 and other == [True, True]
    refused = [outcome for outcome in greedy if isinstance(outcome, SolverBusy)]
    assert len(refused) == 3
    assert all(error.status == 429 and error.retry_after == 4 for error in refused)
    assert "already has 2 solver jobs" in str(refused[0])
    assert limiter.admitted == 0 and limiter.held_by("10.0.0.7") == 0


@needs_solver
def test_a_client_past_its_share_is_429_with_retry_after() -> None:
    deal = vectors(1)[0]["deal"]
    settings = WebSettings(solver_workers=1, retry_after=3, warm_solver=False)
    with multiprocessing.Manager() as manager, TestClient(create_app(settings)) as busy_client:
        gate = manager.Event()
        app: Any = busy_client.app
        app.state.solver.close()
        app.state.solver = GatedLimiter(gate, workers=1, queue=4, retry_after=3, per_client=1)
        assert busy_client.portal is not None
        try:
            # TestClient's requests come from the address "testclient", which holds one job.
            busy_client.portal.call(_admit, app.state.solver, gate, "testclient")
            response = busy_client.post("/api/solve", json={"deal": deal})
            assert response.status_code == 429
            assert response.headers["retry-after"] == "3"
            assert "its share of the queue" in response.json()["detail"]
        finally:
            gate.set()
            app.state.solver.close()


@needs_solver
def test_a_burst_of_solves_is_bounded_and_scores_still_answer() -> None:
    import httpx

    deals = [vector["deal"] for vector in vectors(12)]
    app = create_app(WebSettings(solver_workers=1, solver_queue=2, warm_solver=False))

    with multiprocessing.Manager() as manager:
        gate = manager.Event()
        app.state.solver.close()
        app.state.solver = GatedLimiter(gate, workers=1, queue=2)

        async def burst() -> tuple[list[httpx.Response], httpx.Response]:
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
                solves = [
                    asyncio.ensure_future(http.post("/api/solve", json={"deal": deal}))
                    for deal in deals
                ]
                # While the admitted solves are held, the refusals and a score come back.
                scored = await http.post("/api/score", json={"result": "3NT=", "vulnerable": False})
                refused = 0
                while refused < len(deals) - 3:
                    done, _ = await asyncio.wait(
                        solves, timeout=HOLD_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
                    )
                    assert refused < len(done), "no solve was refused"
                    refused = len(done)
                gate.set()
                answers = await asyncio.gather(*solves)
                return answers, scored

        try:
            answers, scored = asyncio.run(burst())
        finally:
            gate.set()
            app.state.solver.close()
    statuses = [answer.status_code for answer in answers]
    # One running and two waiting are admitted; the other nine are refused at once.
    assert statuses.count(200) == 3
    assert statuses.count(503) == 9
    for answer, vector in zip(answers, vectors(12), strict=True):
        if answer.status_code == 200:
            assert answer.json()["dd"] == vector["dd"]
        else:
            assert answer.headers["retry-after"] == "2"
    assert scored.status_code == 200
    assert scored.json()["score"] == 400


# ---- deals, solving and par ---------------------------------------------------


def test_random_deal_is_reproducible(client: TestClient) -> None:
    first = client.get("/api/deal/random", params={"seed": 42}).json()
    again = client.get("/api/deal/random", params={"seed": 42}).json()
    other = client.get("/api/deal/random", params={"seed": 43}).json()
    assert first == again
    assert first["deal"] != other["deal"]
    assert first["seed"] == 42
    assert first["deal"].startswith("N:")
    hands = first["deal"][2:].split()
    assert len(hands) == 4
    cards = [
        suit + rank
        for hand in hands
        for suit, holding in zip("SHDC", hand.split("."), strict=True)
        for rank in holding
    ]
    assert len(cards) == len(set(cards)) == 52
    assert sum(first["hcp"].values()) == 40


@pytest.mark.parametrize("seed", [0, 1, 2, 42, 2**63 - 1])
def test_random_deal_is_the_deal_of_the_cli_and_of_deal_many(client: TestClient, seed: int) -> None:
    # One seed, one deal: the API, `bridgescore deal --seed N` and bs.deal_many(1, seed=N).
    import bridgescore as bs

    api_deal = client.get("/api/deal/random", params={"seed": seed}).json()["deal"]
    shell = CliRunner().invoke(cli_app, ["deal", "--seed", str(seed)])
    assert shell.exit_code == 0, shell.output
    assert shell.stdout.split() == api_deal.split()
    assert bs.deal_many(1, seed=seed)[0].to_pbn() == api_deal


def test_random_deal_seed_one_is_the_documented_deal(client: TestClient) -> None:
    # The deal README.md shows for `bridgescore deal --seed 1`.
    expected = "N:A4.98542.7.65432 KQ97.K73.AQJ3.A7 J863.AQ.KT9542.8 T52.JT6.86.KQJT9"
    assert client.get("/api/deal/random", params={"seed": 1}).json()["deal"] == expected


def test_random_deal_without_seed_reports_its_seed(client: TestClient) -> None:
    data = client.get("/api/deal/random").json()
    assert isinstance(data["seed"], int)
    again = client.get("/api/deal/random", params={"seed": data["seed"]}).json()
    assert again["deal"] == data["deal"]


@pytest.mark.parametrize(
    "seed", ["-1", "abc", str(2**64), "1.5", "+0.0", "1.0", " 7 ", "1_000", "+5", "٣"]
)
def test_random_deal_bad_seed(client: TestClient, seed: str) -> None:
    # (Pydantic's lax integers take "+0.0", "1.0", " 7 ", "1_000" and "+5"; the
    # schema's integer, and so the API, does not: schemathesis found "+0.0" accepted.)
    response = client.get("/api/deal/random", params={"seed": seed})
    assert response.status_code == 422
    assert isinstance(response.json()["detail"], str)
    assert "seed" in response.json()["detail"]


def test_deal_info(client: TestClient) -> None:
    pbn = "N:KJ52.K7.T85.AJ87 A9863.Q3.Q3.T543 Q4.AJ862.J762.K2 T7.T954.AK94.Q96"
    data = client.post("/api/deal", json={"deal": pbn}).json()
    assert data["deal"] == pbn
    assert data["hands"]["N"] == {"S": "KJ52", "H": "K7", "D": "T85", "C": "AJ87"}
    assert data["hands"]["W"]["D"] == "AK94"
    # HCP counted by hand: N K J K A J = 3+1+3+4+1; E A Q Q = 4+2+2; S Q A J J K = 2+4+1+1+3.
    assert data["hcp"] == {"N": 12, "E": 8, "S": 11, "W": 9}


@pytest.mark.parametrize(
    ("deal", "quoted"),
    [
        ("N:KJ52.K7.T85.AJ87 A9863.Q3.Q3.T543 Q4.AJ862.J762.K2 T7.T954.AK94.Q9", "Q9"),
        ("hello", "hello"),
        ("", ""),
    ],
)
def test_bad_deal_is_422(client: TestClient, deal: str, quoted: str) -> None:
    for path in ("/api/deal", "/api/solve"):
        response = client.post(path, json={"deal": deal})
        assert response.status_code == 422
        assert quoted in response.json()["detail"]


@needs_solver
def test_solve_matches_dds_vectors(client: TestClient) -> None:
    for vector in vectors(2):
        response = client.post("/api/solve", json={"deal": vector["deal"]})
        assert response.status_code == 200, response.text
        data = response.json()
        assert data["dd"] == vector["dd"]
        # PBN order: N, S, E, W, each NT, S, H, D, C.
        digits = [int(ch, 16) for ch in vector["dd"]]
        assert data["table"]["N"]["NT"] == digits[0]
        assert data["table"]["S"]["S"] == digits[6]
        assert data["table"]["W"]["C"] == digits[19]


@needs_par
def test_par_from_table_matches_vectors(client: TestClient) -> None:
    conventions = {"neutral": None, "dealer N": "N", "dealer E": "E"}
    for vector in vectors(8):
        for vulnerability in ("None", "NS", "EW", "Both"):
            for convention, dealer in conventions.items():
                body = {"dd": vector["dd"], "vulnerability": vulnerability, "dealer": dealer}
                data = client.post("/api/par", json=body).json()
                expected = vector["par"][vulnerability][convention]
                assert data["score"] == expected["score"], (vector["dd"], body)
                assert sorted(data["contracts"]) == expected["contracts"]
                assert data["convention"] == ("neutral" if dealer is None else "dealer")


@needs_par
@needs_solver
def test_par_from_deal(client: TestClient) -> None:
    vector = vectors(1)[0]
    body = {"deal": vector["deal"], "vulnerability": "Both", "dealer": "E"}
    data = client.post("/api/par", json=body).json()
    assert data["dd"] == vector["dd"]
    assert data["score"] == vector["par"]["Both"]["dealer E"]["score"]


@pytest.mark.parametrize(
    ("body", "quoted"),
    [
        ({"dd": "87788877884655556555", "deal": "N:..."}, "exactly one"),
        ({"vulnerability": "None"}, "exactly one"),
        ({"dd": "8778887788465555655"}, "19 digits"),
        ({"dd": "8778887788465555655g"}, "'g'"),
        ({"dd": "87788877884655556555", "vulnerability": "Red"}, "'Red'"),
        ({"dd": "87788877884655556555", "dealer": "Q"}, "'Q'"),
    ],
)
def test_par_bad_input_is_422(client: TestClient, body: dict[str, Any], quoted: str) -> None:
    response = client.post("/api/par", json=body)
    assert response.status_code == 422
    assert quoted in response.json()["detail"]


def test_openapi_documents_the_api(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    for path in ("/api/score", "/api/solve", "/api/par", "/api/deal/random"):
        assert path in paths
    error = paths["/api/score"]["post"]["responses"]["422"]["content"]["application/json"]
    assert error["schema"]["$ref"].endswith("/ErrorDetail")


# ---- pages --------------------------------------------------------------------


def test_score_page_renders_without_javascript(client: TestClient) -> None:
    response = client.get("/", params={"result": "4DX +1", "vul": "on"})
    assert response.status_code == 200
    assert 'id="score">910<' in response.text
    assert "Content-Security-Policy" in response.headers
    bad = client.get("/", params={"result": "4DX +9"})
    assert "&#39;4DX +9&#39; needs 19 tricks" in bad.text


def test_score_page_has_the_made_exactly_tables(client: TestClient) -> None:
    page = client.get("/").text
    assert 'id="made-nv"' in page and 'id="made-vul"' in page
    assert "<td>1660</td>" in page  # 6NTXX= not vulnerable


@pytest.mark.parametrize("path", ["/deal", "/study", "/session", "/static/app.js"])
def test_other_pages(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 200


def test_user_input_is_escaped(client: TestClient) -> None:
    page = client.get("/", params={"result": "<script>alert(1)</script>"}).text
    assert "<script>alert(1)</script>" not in page


# ---- safety -------------------------------------------------------------------


def test_list_entries_only_lists_what_is_there(tmp_path: Path) -> None:
    (tmp_path / "study-a").mkdir()
    (tmp_path / ".hidden").mkdir()
    with contextlib.closing(sqlite3.connect(tmp_path / "event.db")) as database:
        database.execute("CREATE TABLE t (x)")
    (tmp_path / "header.db").write_bytes(b"SQLite format 3\x00")  # a header, no database
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "link").symlink_to("/")
    (tmp_path / "link.db").symlink_to(tmp_path / "event.db")
    assert list(list_entries(tmp_path)) == ["study-a"]
    assert list(list_entries(tmp_path, files=True)) == ["event.db", "header.db", "notes.txt"]
    assert list(list_entries(tmp_path, files=True, accept=is_event_file)) == ["event.db"]
    assert list_entries(tmp_path / "missing") == {}
    assert list_entries(None) == {}


@pytest.fixture(scope="module")
def data_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    studies = tmp_path_factory.mktemp("studies")
    events = tmp_path_factory.mktemp("events")
    if HAS_SOLVER:
        make_study(studies / "small")
    (studies / "not-a-study").mkdir()
    make_event(events / "tuesday.db")
    (events / "notes.db").write_text("not an event")
    outside = tmp_path_factory.mktemp("outside")
    make_event(outside / "secret.db")
    (events / "linked.db").symlink_to(outside / "secret.db")
    settings = WebSettings(studies=studies, events=events, solver_workers=1, warm_solver=False)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def test_session_list_and_ranking(data_client: TestClient) -> None:
    listing = data_client.get("/session").text
    assert 'href="/session/tuesday.db"' in listing
    assert "notes.db" not in listing and "linked" not in listing
    page = data_client.get("/session/tuesday.db")
    assert page.status_code == 200
    assert "Tuesday pairs" in page.text
    ranking = page.text[page.text.index('id="ranking"') : page.text.index("<h2>Travellers")]
    for pair, points in {**NS_MATCHPOINTS, **EW_MATCHPOINTS}.items():
        # The ranking as every report draws it: pair, boards, total (whole matchpoints
        # everywhere: the column prints them without decimals), percentage.
        assert (
            f'<tr data-pair="{pair}"><td>' in ranking
            and f'<td class="pair">{pair}</td><td class="n">3</td><td class="total">{points}</td>'
            in ranking
        )
    assert page.text.count('class="traveller"') == 3
    assert "1NTN+1" in page.text and "4SE-2" in page.text


@pytest.mark.parametrize(
    "name", ["linked.db", "notes.db", "..%2F..%2Fetc%2Fpasswd", "tuesday", "%2Fetc%2Fpasswd"]
)
def test_session_names_must_be_listed(data_client: TestClient, name: str) -> None:
    response = data_client.get(f"/session/{name}")
    assert response.status_code == 404
    assert "root:" not in response.text


def test_study_list(data_client: TestClient) -> None:
    listing = data_client.get("/study").text
    assert "not-a-study" not in listing
    assert data_client.get("/study/not-a-study").status_code == 404
    assert data_client.get("/study/..").status_code in (200, 404)


@needs_solver
def test_study_report_page(data_client: TestClient) -> None:
    page = data_client.get("/study/small")
    assert page.status_code == 200
    text = page.text
    assert "4 of 4 deals, seed 1" in text
    for name in ("None", "NS", "EW", "Both"):
        assert f'data-vulnerability="{name}"' in text
    assert text.count('class="verdict"') == 4
    assert text.count("<svg") == 4
    assert "10,485,760" in text or "10485760" in text  # the published study's deals
    # Counts of deals carry separators, points do not (the rule of docs/scoring.md): the
    # published study's largest par is over 1000 in every vulnerability.
    deals_row = text.split('data-figure="deals"')[1].split("</tr>")[0]
    assert "10,485,760" in deals_row
    top_row = text.split('data-figure="max"')[1].split("</tr>")[0]
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", top_row)
    assert len(cells) == 8 and all("," not in cell for cell in cells), cells
    assert all(int(cell) > 1000 for cell in cells[1::2]), cells


def test_pages_without_directories(client: TestClient) -> None:
    assert "--studies DIR" in client.get("/study").text
    assert "--events DIR" in client.get("/session").text
    assert client.get("/study/anything").status_code == 404
    assert client.get("/session/anything").status_code == 404


@pytest.mark.parametrize(
    "path", ["/static/../app.py", "/static/%2e%2e/app.py", "/../../etc/passwd", "/static/"]
)
def test_no_file_outside_static(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "create_app" not in response.text


def test_serve_refuses_a_missing_directory(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--studies", str(tmp_path / "nope")])
    assert result.exit_code == 2
    assert "nope" in result.output


def test_bar_chart_geometry() -> None:
    chart = bar_chart("None", {0: 1, 100: 3}, {0: 10, 100: 10, 200: 20})
    assert [bar["label"] for bar in chart["bars"]] == ["0", "100", "200"]
    heights = [bar["height"] for bar in chart["bars"]]
    # Ours: 25 %, 75 %, 0 %; the tallest (75 %) fills the plot height.
    assert heights[1] == chart["base"] - chart["top_y"]
    assert heights[0] == pytest.approx(heights[1] / 3, abs=0.1)
    assert heights[2] == 0


def test_serve_starts_on_loopback_and_stops() -> None:
    import socket
    import subprocess
    import sys

    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-c", "from bridgescore.cli import main; main()", "serve"]
    server = subprocess.Popen(
        [*command, "--port", str(port), "--solver-workers", "1"],
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 120  # a bound on a hang, not a wait
        while True:
            try:
                response = httpx.post(
                    f"http://127.0.0.1:{port}/api/score",
                    json={"result": "4DX +1", "vulnerable": True},
                    timeout=2,
                )
                break
            except httpx.TransportError:
                assert server.poll() is None, "bridgescore serve exited"
                assert time.monotonic() < deadline, "bridgescore serve did not start"
                time.sleep(0.1)
        assert response.json()["score"] == 910
    finally:
        server.terminate()
        _, errors = server.communicate(timeout=120)
    assert f"serving on http://127.0.0.1:{port}/" in errors.decode()


# ---- errors: pages answer HTML, the API answers JSON -----------------------------


@pytest.mark.parametrize(
    ("path", "shown"),
    [
        ("/nope", "'/nope'"),
        ("/deal/extra", "'/deal/extra'"),
        ("/static/missing.css", "'/static/missing.css'"),
        ("/apix", "'/apix'"),  # not under /api: a page
        ("/" + "x" * 200, "'/" + "x" * 76 + "...'"),
    ],
)
def test_an_unknown_page_is_an_html_404(client: TestClient, path: str, shown: str) -> None:
    response = client.get(path, headers={"Accept": "text/html"})
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert "<h1>Not Found</h1>" in response.text
    assert f"there is no page at {shown.replace(chr(39), '&#39;')} here" in response.text
    assert '{"detail"' not in response.text
    # A page of the site: its own stylesheet and navigation, under the pages' strict CSP.
    assert 'href="/deal"' in response.text
    assert "script-src 'self'" in response.headers["content-security-policy"]


@pytest.mark.parametrize("path", ["/api", "/api/nope", "/api/deal/random/extra", "/api/score/x"])
def test_an_unknown_api_path_is_a_json_404(client: TestClient, path: str) -> None:
    # Asked by a browser or not, the API answers JSON: decided by the path, not by Accept.
    response = client.get(path, headers={"Accept": "text/html"})
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/json"
    assert response.json() == {
        "detail": f"no API endpoint at {path!r}: the endpoints are listed at /docs"
    }


def test_a_wrong_method_on_a_page_is_an_html_405(client: TestClient) -> None:
    response = client.post("/deal", data={"x": "1"})
    assert response.status_code == 405
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["allow"] == "GET"
    assert "<h1>Method Not Allowed</h1>" in response.text
    assert "POST is not allowed on &#39;/deal&#39;: expected GET" in response.text


def test_a_wrong_method_on_the_api_is_a_json_405(client: TestClient) -> None:
    response = client.delete("/api/score")
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"
    assert response.json() == {"detail": "DELETE is not allowed on '/api/score': expected POST"}


@pytest.mark.parametrize(
    "path",
    ["/%00", "/%ff%fe", "/api/%ff", "/a%2F..%2F..", "/api/" + "%e2%99%a0" * 50, "/;", "/deal/%00"],
)
def test_junk_paths_get_a_4xx_never_a_5xx(client: TestClient, path: str) -> None:
    for method in ("GET", "POST", "PUT", "DELETE", "PATCH"):
        response = client.request(method, path)
        assert 400 <= response.status_code < 500, (method, path, response.status_code)
        if path.startswith("/api/"):
            assert isinstance(response.json()["detail"], str)
        else:
            assert response.headers["content-type"].startswith("text/html")
