"""What ``serve`` refuses and what every answer carries: cross-site changes, the
upload quota, one import at a time, security headers on every answer (``/docs``
included) and asset addresses that do not come from the Host header."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("multipart", reason="python-multipart is not installed (pip install '.[web]')")

from bridgescore.web import WebSettings, create_app
from bridgescore.web.upload import ImportQueue, UploadRefused
from web_helpers import make_event

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette suggests httpx2; httpx works the same here
    from fastapi.testclient import TestClient

SESSION = (Path(__file__).parents[1] / "data" / "session_upload.pbn").read_bytes()


@pytest.fixture()
def events(tmp_path: Path) -> Path:
    directory = tmp_path / "events"
    directory.mkdir()
    return directory


@pytest.fixture()
def client(events: Path) -> Iterator[TestClient]:
    settings = WebSettings(events=events, solver_workers=1, warm_solver=False)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def upload(client: TestClient, headers: dict[str, str] | None = None) -> Any:
    return client.post("/upload", files={"file": ("s.pbn", SESSION)}, headers=headers or {})


# ---- cross-site changes -----------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "said"),
    [
        ({"Origin": "http://evil.example"}, "Origin: http://evil.example"),
        ({"Origin": "null"}, "Origin: null"),
        # Another port of this host is another origin.
        ({"Origin": "http://testserver:8001"}, "Origin: http://testserver:8001"),
        ({"Sec-Fetch-Site": "cross-site"}, "Sec-Fetch-Site: cross-site"),
        ({"Sec-Fetch-Site": "same-site"}, "Sec-Fetch-Site: same-site"),
        (
            {"Origin": "http://testserver", "Sec-Fetch-Site": "cross-site"},
            "Sec-Fetch-Site: cross-site",
        ),
    ],
)
def test_an_upload_from_another_site_is_a_403_storing_nothing(
    client: TestClient, events: Path, headers: dict[str, str], said: str
) -> None:
    response = upload(client, headers)
    assert response.status_code == 403
    assert said in response.json()["detail"]
    assert response.headers["x-frame-options"] == "DENY"
    assert list(events.iterdir()) == []


@pytest.mark.parametrize(
    "headers",
    [
        {},  # a command-line client (curl, httpx) sends neither header
        {"Origin": "http://testserver"},  # this server's own form
        {"Origin": "HTTP://TestServer", "Sec-Fetch-Site": "same-origin"},
        {"Sec-Fetch-Site": "none"},  # typed or bookmarked by the user
        # This server's form as Chromium posts it under Referrer-Policy: no-referrer.
        {"Origin": "null", "Sec-Fetch-Site": "same-origin"},
    ],
)
def test_an_upload_from_this_site_or_no_site_is_stored(
    client: TestClient, events: Path, headers: dict[str, str]
) -> None:
    response = upload(client, headers)
    assert response.status_code == 200, response.text
    assert len(list(events.iterdir())) == 1


def test_the_api_is_refused_cross_site_too(client: TestClient) -> None:
    body = {"result": "4S=", "vulnerable": False}
    refused = client.post("/api/score", json=body, headers={"Origin": "http://evil.example"})
    assert refused.status_code == 403
    # Reading is never refused: a GET changes nothing.
    read = client.get("/api/score/table", headers={"Origin": "http://evil.example"})
    assert read.status_code == 200


# ---- the quota and the import queue ----------------------------------------------


def test_uploads_past_the_quota_are_refused_and_nothing_is_dropped(events: Path) -> None:
    make_event(events / "club.db")  # the operator's own event: not an upload
    settings = WebSettings(events=events, solver_workers=1, warm_solver=False,
                           max_uploaded_events=2)  # fmt: skip
    with TestClient(create_app(settings)) as small:
        assert upload(small).status_code == 200
        assert upload(small).status_code == 200
        before = sorted(path.name for path in events.iterdir())
        refused = upload(small)
    assert refused.status_code == 409
    assert "keeps at most 2 uploaded events and holds 2: nothing was stored" in refused.text
    assert sorted(path.name for path in events.iterdir()) == before
    assert len(before) == 3


def test_imports_take_turns_and_too_many_waiting_are_refused() -> None:
    queue = ImportQueue(quota=10, waiting=1)

    async def three() -> list[str]:
        seen: list[str] = []
        holding = asyncio.Event()
        release = asyncio.Event()

        async def first() -> None:
            async with queue.turn():
                seen.append("first reading")
                holding.set()
                await release.wait()
            seen.append("first done")

        async def second() -> None:
            async with queue.turn():
                seen.append("second reading")

        running = asyncio.ensure_future(first())
        await holding.wait()
        waiting = asyncio.ensure_future(second())
        await asyncio.sleep(0)  # the second is queued behind the first
        with pytest.raises(UploadRefused) as refused:
            async with queue.turn():
                pass
        seen.append(f"third refused {refused.value.status}")
        release.set()
        await asyncio.gather(running, waiting)
        return seen

    assert asyncio.run(three()) == [
        "first reading",
        "third refused 503",
        "first done",
        "second reading",
    ]


# ---- headers on every answer, and no address from the Host header -----------------

EVERY_KIND = [
    "/",
    "/deal",
    "/simulate",
    "/session",
    "/upload",
    "/docs",
    "/docs/oauth2-redirect",
    "/openapi.json",
    "/api/score/table",
    "/static/style.css",
    "/docs/assets/swagger-ui.css",
    "/no-such-page",
    "/api/no-such-endpoint",
    "/results/none.db/index.html",
]


@pytest.mark.parametrize("path", EVERY_KIND)
def test_every_answer_forbids_framing_and_has_a_policy(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code in (200, 404), path
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["x-content-type-options"] == "nosniff"
    policy = response.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy


@pytest.mark.parametrize("path", ["/docs", "/docs/oauth2-redirect"])
def test_the_api_docs_run_only_their_own_inline_script(client: TestClient, path: str) -> None:
    response = client.get(path)
    scripts = re.findall(r"<script>(.*?)</script>", response.text, re.DOTALL)
    assert len(scripts) == 1
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    policy = response.headers["content-security-policy"].split("; ")
    assert f"script-src 'self' 'sha256-{digest}'" in policy
    assert "unsafe-inline" not in response.headers["content-security-policy"]


def test_asset_addresses_do_not_come_from_the_host_header(client: TestClient) -> None:
    # A forged Host (DNS rebinding, a proxy passing it on) must not end up in a page.
    for path in ("/", "/upload", "/no-such-page"):
        page = client.get(path, headers={"Host": "evil.example:666"})
        assert "evil.example" not in page.text, path
        assert '<link rel="stylesheet" href="/static/style.css">' in page.text
        assert '<script src="/static/app.js" defer></script>' in page.text


# ---- one middleware and one error shape for both servers ---------------------------

# Written out here, not read from the code: what each server must send.
BOTH = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "content-security-policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
}


def _live_client(tmp_path: Path) -> TestClient:
    from bridgescore.session.live.creation import create_event
    from bridgescore.web.live.app import create_live_app
    from live_serving import THREE_TABLES

    path = tmp_path / "club.db"
    create_event(path, THREE_TABLES, name="Tuesday pairs")
    return TestClient(create_live_app(path))


def test_both_servers_use_the_one_security_header_middleware(
    client: TestClient, tmp_path: Path
) -> None:
    from bridgescore.web import guards

    with _live_client(tmp_path) as live:
        for server in (client, live):
            classes = [layer.cls for layer in server.app.user_middleware]  # type: ignore[attr-defined]
            assert guards.SecurityHeaders in classes
            assert [c for c in classes if c.__name__ == "SecurityHeaders"] == [
                guards.SecurityHeaders
            ]
        served, lived = client.get("/api/no-such-endpoint"), live.get("/api/no-such-endpoint")
    for name, value in BOTH.items():
        assert served.headers[name] == value, name
        assert lived.headers[name] == value, name
    # Only the live server's scores and tokens must never be cached.
    assert lived.headers["cache-control"] == "no-store"
    assert "cache-control" not in served.headers


def test_a_clients_bad_input_is_a_4xx_detail_on_the_api_and_a_page_in_a_browser(
    client: TestClient, tmp_path: Path
) -> None:
    api = client.post("/api/score", json={"contract": "8S", "declarer": "N", "result": "="})
    assert api.status_code == 422
    assert set(api.json()) == {"detail"} and "8S" in api.json()["detail"]
    page = client.get("/no-such-page")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    with _live_client(tmp_path) as live:
        refused = live.get("/api/live/table")
        assert refused.status_code == 401 and set(refused.json()) == {"detail"}
