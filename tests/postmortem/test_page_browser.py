"""The hand viewer page (``analyse --html``) in a real headless Chromium: whole without
JavaScript, and with it the buttons step through the tricks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from web_helpers import CHROMIUM, NO_CHROMIUM, NO_PLAYWRIGHT, chromium

HISTORY = Path(__file__).parents[1] / "data" / "formats" / "hand_history.lin"

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT)


@pytest.fixture(scope="module")
def page_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("review") / "review.html"
    result = CliRunner().invoke(app, ["analyse", str(HISTORY), "--board", "3", "--html", str(out)])
    assert result.exit_code == 0, result.output
    return out.as_uri()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def _open(browser: Any, url: str, *, scripts: bool) -> Any:
    context = browser.new_context(java_script_enabled=scripts)
    page = context.new_page()
    page.set_default_timeout(120_000)  # a bound on a hang under load, not a wait
    page.goto(url)
    return context, page


def test_the_page_is_whole_without_javascript(browser: Any, page_file: str) -> None:
    context, page = _open(browser, page_file, scripts=False)
    try:
        rows = page.locator("tr.trick")
        assert rows.count() == 13
        assert all(rows.nth(i).is_visible() for i in range(13))
        assert page.locator(".steps").count() == 0  # the buttons are the script's
        # North's H3 at trick 4 gave away three tricks (7 -> 4), marked on its cell.
        assert rows.nth(3).locator("td[title='cost 3']").inner_text().endswith("−3")
        lead = page.locator("caption", has_text="Opening lead by West")
        assert lead.inner_text() == "Opening lead by West: C3, cost 0"
    finally:
        context.close()


def test_the_buttons_step_through_the_tricks(browser: Any, page_file: str) -> None:
    context, page = _open(browser, page_file, scripts=True)
    expect = sync_api.expect
    try:
        rows = page.locator("tr.trick")
        steps = page.locator(".steps")
        expect(steps).to_contain_text("trick 13 of 13")
        steps.get_by_role("button", name="first").click()
        expect(steps).to_contain_text("trick 1 of 13")
        expect(rows.nth(0)).to_be_visible()
        expect(rows.nth(1)).to_be_hidden()
        steps.get_by_role("button", name="next").click()
        steps.get_by_role("button", name="next").click()
        expect(steps).to_contain_text("trick 3 of 13")
        expect(rows.nth(2)).to_be_visible()
        expect(rows.nth(3)).to_be_hidden()
        steps.get_by_role("button", name="back").click()
        expect(rows.nth(2)).to_be_hidden()
        steps.get_by_role("button", name="all").click()
        expect(rows.nth(12)).to_be_visible()
    finally:
        context.close()
