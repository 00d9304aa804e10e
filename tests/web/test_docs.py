"""The API documentation (/docs, Swagger UI) works offline.

The pages and everything they load come from this server: a check of every
page's references through the TestClient, and Debian's chromium (driven by
Playwright, as in tests/web/test_browser.py) loading /docs from a real
``bridgescore serve`` with every other host cut off.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from bridgescore.web import WebSettings, create_app
from web_helpers import chromium, serving

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette suggests httpx2; httpx works the same here
    from fastapi.testclient import TestClient

DOC_PAGES = ["/docs", "/docs/oauth2-redirect"]
# The API as docs/web.md lists it: (method, path).
ENDPOINTS = [
    ("POST", "/api/score"),
    ("GET", "/api/score/table"),
    ("POST", "/api/deal"),
    ("GET", "/api/deal/random"),
    ("POST", "/api/solve"),
    ("POST", "/api/par"),
    ("POST", "/api/analyse"),
    ("POST", "/api/simulate"),
    ("GET", "/api/sim"),
]
# Every way an HTML page or a stylesheet names another resource.
REFERENCE = re.compile(
    r"""(?:\b(?:src|href|spec-url|url)\s*[=:]\s*["']?|url\(\s*["']?|@import\s+["'])"""
    r"""([^"'\s)>]+)""",
    re.IGNORECASE,
)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(WebSettings(solver_workers=1, warm_solver=False))) as test_client:
        yield test_client


def references(text: str) -> list[str]:
    return REFERENCE.findall(text)


def test_references_are_found_by_the_pattern() -> None:
    # The pattern the checks below rely on finds each form, external or not.
    page = (
        '<link href="https://cdn.example/x.css"><script src=/a.js></script>'
        "<redoc spec-url='/openapi.json'></redoc> url: '/openapi.json', "
        'div { background: url(//fonts.example/f.woff) } @import "http://x.example/y.css";'
    )
    assert references(page) == [
        "https://cdn.example/x.css",
        "/a.js",
        "/openapi.json",
        "/openapi.json",
        "//fonts.example/f.woff",
        "http://x.example/y.css",
    ]


def is_local(reference: str) -> bool:
    """A path on the same server (no scheme, no host), a fragment or inline data."""
    if reference.startswith(("data:", "#")):
        return True
    parts = urlsplit(reference)
    return not parts.scheme and not parts.netloc and reference.startswith("/")


@pytest.mark.parametrize("path", DOC_PAGES)
def test_doc_pages_reference_no_other_host(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    found = references(response.text)
    assert [reference for reference in found if not is_local(reference)] == []
    # Nor any address written some other way (a protocol-relative or absolute URL).
    assert re.search(r"https?:|//[a-z0-9]", response.text, re.IGNORECASE) is None


def test_doc_pages_load_their_assets_from_this_server(client: TestClient) -> None:
    swagger = references(client.get("/docs").text)
    assets = {ref for ref in swagger if is_local(ref) and ref != "/openapi.json"}
    kinds = {Path(asset).suffix for asset in assets}
    assert {".js", ".css"} <= kinds, assets
    for asset in sorted(assets):
        response = client.get(asset)
        assert response.status_code == 200, asset
        assert len(response.content) > 1000, asset  # the real script or style, not a stub
        if asset.endswith(".css"):
            # A stylesheet may load fonts and images: none from another host.
            inner = references(response.text)
            assert [ref for ref in inner if not is_local(ref)] == [], asset
    assert "url: '/openapi.json'" in client.get("/docs").text
    assert client.get("/openapi.json").status_code == 200


def test_swagger_ui_sends_the_schema_to_no_validator(client: TestClient) -> None:
    # Swagger UI's default posts the schema to an online validator for its badge.
    assert '"validatorUrl": null' in client.get("/docs").text


# ---- in a real browser, with the network cut off ------------------------------

# No name resolves: only the server's IP address (127.0.0.1) can be reached.
NO_OTHER_HOST = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(NO_OTHER_HOST) as launched:
        yield launched


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serving(["--solver-workers", "1"], ready="/docs") as base:
        yield base


def offline_page(browser: Any, base: str, outside: list[str]) -> Any:
    """A page that reaches only ``base``: every other request is refused and listed."""
    context = browser.new_context(viewport={"width": 1100, "height": 760})
    origin = urlsplit(base).netloc

    def only_this_server(route: Any) -> None:
        url = route.request.url
        if urlsplit(url).netloc == origin:
            route.continue_()
        else:
            outside.append(url)
            route.abort("internetdisconnected")

    context.route("**/*", only_this_server)
    page = context.new_page()
    page.set_default_timeout(120_000)  # a bound on a hang under load, not a wait
    page.on(
        "request",
        lambda request: (
            None
            if request.url.startswith(("data:", "blob:")) or urlsplit(request.url).netloc == origin
            else outside.append(request.url)
        ),
    )
    return page


def test_swagger_ui_shows_every_endpoint_offline(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    outside: list[str] = []
    page = offline_page(browser, server, outside)
    try:
        page.goto(server + "/docs")
        expect(page.locator(".info .title")).to_contain_text("bridgescore")
        summaries = page.locator(".opblock-summary")
        expect(summaries).to_have_count(len(ENDPOINTS))
        shown = [
            (
                summaries.nth(i).locator(".opblock-summary-method").inner_text().strip(),
                summaries.nth(i).locator(".opblock-summary-path").get_attribute("data-path"),
            )
            for i in range(len(ENDPOINTS))
        ]
        assert sorted(shown) == sorted(ENDPOINTS)
    finally:
        page.context.close()
    assert outside == []


def test_there_is_no_redoc_page(client: TestClient) -> None:
    # ReDoc's page loads its maker's logo from another host, so the app leaves it out.
    response = client.get("/redoc")
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
