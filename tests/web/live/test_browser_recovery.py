"""Replacing what is lost, in a real headless Chromium (Debian's ``chromium``, Playwright)
against the real ``bridgescore session live`` server: a table's link reissued from the
shell while the evening runs, and a closed session reopened from the director's page.
Every wait is on a page event or a selector, never a timer.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from live_pages_helpers import new_event, token_of
from live_serving import CLI, live_server
from web_helpers import CHROMIUM, NO_CHROMIUM, NO_PLAYWRIGHT, chromium

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT)
expect = sync_api.expect
expect.set_options(timeout=120_000)  # a bound on a hang under load, not a wait

PHONE = {"width": 375, "height": 667}


@pytest.fixture()
def evening(tmp_path: Path) -> Iterator[tuple[str, Any, Path]]:
    created = new_event(tmp_path / "club.db")
    with live_server(tmp_path / "club.db", "--no-access-log") as server:
        yield server.base, created, tmp_path / "club.db"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def new_page(browser: Any, viewport: dict[str, int]) -> Any:
    page = browser.new_context(viewport=viewport).new_page()
    page.set_default_timeout(120_000)  # a bound on a hang under load, not a wait
    return page


def test_a_reissued_link_opens_the_table_and_the_old_one_no_longer_does(
    browser: Any, evening: tuple[str, Any, Path]
) -> None:
    base, created, event = evening
    old_phone = new_page(browser, PHONE)
    old_phone.goto(f"{base}/table?token={token_of(created, 2)}")
    expect(old_phone.locator("h1")).to_contain_text("Table 2")

    # The director reissues table 2's link from the shell while the server runs.
    done = subprocess.run(
        [*CLI, "session", "reissue", str(event), "--table", "2", "--json",
         "--url-base", base],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    url = json.loads(done.stdout)["url"]
    assert url.startswith(f"{base}/table?token=")

    # The phone still holding the old link is sent to scan the card again ...
    old_phone.reload()
    expect(old_phone.locator("body")).to_contain_text("Scan the QR code on your table's card")
    # ... and a phone opening the new link gets table 2's page.
    new_phone = new_page(browser, PHONE)
    new_phone.goto(url)
    expect(new_phone.locator("h1")).to_contain_text("Table 2")


def test_the_director_reopens_a_closed_session_from_the_page(
    browser: Any, evening: tuple[str, Any, Path]
) -> None:
    base, created, _ = evening
    page = new_page(browser, {"width": 1100, "height": 800})
    page.goto(f"{base}/director")
    page.locator("#password").fill(created.director_password)
    page.locator("#login").click()
    page.locator("#close-confirm").check()
    page.locator("#close").click()
    expect(page.locator("#closed")).to_be_visible()
    page.locator("#reopen-reason").fill("table 3 had not finished")
    page.locator("#reopen").click()
    expect(page.locator("#close")).to_be_visible()
    expect(page.locator("#closed")).to_have_count(0)
    # The audit log names the director and the reason.
    page.goto(f"{base}/director/audit")
    expect(page.locator("#audit")).to_contain_text("reopen")
    expect(page.locator("#audit")).to_contain_text("table 3 had not finished")
