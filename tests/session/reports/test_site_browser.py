"""The results site in a real headless Chromium at phone width: from a file, and
uploaded to the web app (upload, ranking -> board -> hand record -> pair).

Set ``BRIDGESCORE_SCREENSHOTS=1`` to refresh docs/img/results-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from web_helpers import make_event, screenshot, screenshots_folder, serving

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).parents[3]

if not CHROMIUM.exists():
    pytest.skip(
        "Debian's chromium is not installed at /usr/bin/chromium "
        "(`make test` installs it with apt-get install chromium)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')"
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("site")
    event = make_event(root / "tuesday.db")
    out = root / "results"
    result = CliRunner().invoke(app, ["session", "report", str(event), "--html", f"{out}/"])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def phone() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page(viewport={"width": 375, "height": 740})
            page.set_default_timeout(20_000)
            yield page
        finally:
            browser.close()


def fits_the_screen(page: Any) -> bool:
    # Wide tables may scroll inside their own box; the page itself must not.
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_ranking_to_board_to_hand_record_to_pair_on_a_phone(site: Path, phone: Any) -> None:
    expect = sync_api.expect
    phone.goto((site / "index.html").as_uri())
    expect(phone.locator("h1")).to_have_text("Tuesday pairs – matchpoints")
    assert fits_the_screen(phone)
    screenshot(
        phone, screenshots_folder(ROOT / "docs" / "img"), "results-phone.png", full_page=True
    )
    phone.get_by_role("link", name="1", exact=True).last.click()  # board 1 in the board list
    expect(phone.locator("h1")).to_have_text("Board 1")
    expect(phone.locator("#hand-record")).to_be_visible()
    expect(phone.locator(".record .compass")).to_be_visible()
    expect(phone.locator(".record table.dd")).to_be_visible()
    assert fits_the_screen(phone)
    screenshot(
        phone, screenshots_folder(ROOT / "docs" / "img"), "results-board.png", full_page=True
    )
    phone.locator("table.results").get_by_role("link", name="4", exact=True).click()
    expect(phone.locator("h1")).to_have_text("Pair 4")
    assert fits_the_screen(phone)
    phone.get_by_role("link", name="2", exact=True).first.click()  # back to board 2
    expect(phone.locator("h1")).to_have_text("Board 2")
    phone.get_by_role("link", name="Ranking").click()
    expect(phone.locator("h1")).to_have_text("Tuesday pairs – matchpoints")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    events = tmp_path_factory.mktemp("events")
    with serving(["--events", str(events)], ready="/upload") as base:
        yield base


def test_upload_then_ranking_board_hand_record_pair(server: str, phone: Any) -> None:
    expect = sync_api.expect
    phone.goto(server + "/upload")
    phone.locator("#file").set_input_files(str(ROOT / "tests" / "data" / "session_upload.pbn"))
    phone.locator("#name").fill("Club upload")
    phone.get_by_role("button", name="Upload and score").click()
    expect(phone.locator("#uploaded")).to_contain_text("Stored 9 result(s) and 3 hand record(s)")
    phone.locator("#results-link").click()
    expect(phone.locator("h1")).to_have_text("Club upload – matchpoints")
    assert fits_the_screen(phone)
    phone.locator("ul.boards").get_by_role("link", name="3", exact=True).click()
    expect(phone.locator("h1")).to_have_text("Board 3")
    record = phone.locator(".record")
    expect(record.locator("h2")).to_have_text("Board 3")
    expect(record.locator(".info")).to_contain_text("Dealer South")
    expect(record.locator("table.dd")).to_be_visible()
    expect(record.locator("p.par")).to_contain_text("Par")
    # Board 3's traveller: pair 1 (NS) against pair 6 (EW).
    phone.locator("table.results").get_by_role("link", name="6", exact=True).click()
    expect(phone.locator("h1")).to_have_text("Pair 6")
    expect(phone.locator("table.results tbody tr")).to_have_count(4)  # 3 boards and the total
    phone.locator('table.results a[href="board-3.html"]').click()  # back to the board
    expect(phone.locator("h1")).to_have_text("Board 3")


def test_a_page_of_another_site_cannot_upload(server: str, phone: Any) -> None:
    # The attack: any page the user visits posts a form to the server's /upload. The
    # form here is on a page of no site (about:blank), as another site's would be.
    phone.goto("about:blank")
    phone.set_content(
        f'<form id="f" method="post" action="{server}/upload" enctype="multipart/form-data">'
        '<input name="name" value="forged"><input name="file" value="x"></form>'
    )
    with phone.expect_response(lambda answer: answer.url.endswith("/upload")) as caught:
        phone.evaluate("document.getElementById('f').submit()")
    assert caught.value.status == 403
    assert "Sec-Fetch-Site: cross-site" in caught.value.json()["detail"]
    phone.goto(server + "/session")
    assert "forged" not in phone.content()
