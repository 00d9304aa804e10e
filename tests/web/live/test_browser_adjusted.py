"""The director's adjusted and weighted scores, with reasons, in a real headless Chromium
(Debian's ``chromium``, Playwright), on the real ``bridgescore session live`` server.

The movement is tests/live_movements.py's 3-table Mitchell: board 1 (nobody
vulnerable) is played by 1N v 1E (table 1, round 1), 3N v 2E (table 3, round 2) and
2N v 3E (table 2, round 3). Two results and the director's decision make a top of
2 comparisons x 2 = 4 matchpoints. Every wait is on a page event or a selector.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from live_pages_helpers import enter_by_api, new_event
from live_serving import live_server
from web_helpers import CHROMIUM, NO_CHROMIUM, NO_PLAYWRIGHT, chromium

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT)
expect = sync_api.expect
expect.set_options(timeout=120_000)  # a bound on a hang under load, not a wait


@pytest.fixture()
def evening(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    created = new_event(tmp_path / "club.db")
    with live_server(tmp_path / "club.db", "--no-access-log") as server:
        yield server.base, created


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def test_the_director_gives_60_40_then_a_weighted_score_with_reasons(
    browser: Any, evening: tuple[str, Any]
) -> None:
    base, created = evening
    # Board 1: 1N +450 (4S+1) and 3N +420 (4S=).
    body = {"board": 1, "contract": "4S", "declarer": "N"}
    assert enter_by_api(base, created, 1, {**body, "round": 1, "result": "+1"}) == 450
    # Table 3 moves through its rounds in order: the director marks its round-1 boards
    # (5 and 6) not played, which leaves them out of the scoring, before it enters round 2.
    login = httpx.post(
        base + "/api/live/director/login",
        json={"password": created.director_password},
        timeout=60,
    )
    director = {"Authorization": f"Bearer {login.json()['token']}"}
    for board in (5, 6):
        decided = httpx.put(
            base + "/api/live/results",
            json={"table": 3, "round": 1, "board": board, "adjusted": "not played"},
            headers=director,
            timeout=60,
        )
        assert decided.status_code == 200, decided.text
    assert enter_by_api(base, created, 3, {**body, "round": 2, "result": "="}) == 420
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    page = context.new_page()
    page.set_default_timeout(120_000)  # a bound on a hang under load, not a wait
    page.goto(f"{base}/director")
    page.locator("#password").fill(created.director_password)
    page.locator("#login").click()
    expect(page.locator("#progress")).to_be_visible()
    result_page = f"{base}/director/result?section=A&table=2&round=3&board=1"

    # 60/40 to 2N v 3E: 60 % and 40 % of the top of 4 = 2.4 and 1.6.
    page.goto(result_page)
    page.locator("#award").select_option("60/40")
    page.locator("#adjust-reason").fill("slow play, warned twice")
    page.locator("#adjust").click()
    expect(page.locator('#t2r3 a.result[data-board="1"]')).to_contain_text("60/40")
    ranking = context.new_page()
    ranking.goto(f"{base}/ranking")
    expect(ranking.locator('#ranking tr[data-pair="2N"] .total')).to_have_text("2.4")
    expect(ranking.locator('#ranking tr[data-pair="3E"] .total')).to_have_text("1.6")

    # Half 4S= (+420), half 4S-1 (-50), each against +450 and +420: 4S= ties +420 (1 MP),
    # 4S-1 beats nothing (0): 2N gets 1/2 x 1 + 1/2 x 0 = 0.5.
    page.goto(result_page)
    form = page.locator("#weigh-form")
    for row, (weight, result) in enumerate([("1/2", "="), ("50%", "-1")], start=1):
        form.locator(f"#weight-{row}").fill(weight)
        form.locator(f"#contract-{row}").fill("4S")
        form.locator(f"#declarer-{row}").select_option("N")
        form.locator(f"#result-{row}").fill(result)
    form.locator("#weigh-reason").fill("misinformation")
    form.locator("#weigh").click()
    expect(page.locator('#t2r3 a.result[data-board="1"]')).to_contain_text("1/2 4SN=; 1/2 4SN-1")
    ranking.reload()
    expect(ranking.locator('#ranking tr[data-pair="2N"] .total')).to_have_text("0.5")

    # The board's history on its page, and the audit log, show both reasons.
    page.goto(result_page)
    expect(page.locator("#history .reason")).to_have_text(
        ["slow play, warned twice", "misinformation"]
    )
    page.goto(f"{base}/director/audit")
    expect(page.locator("#audit .reason").last).to_have_text("misinformation")

    # A weighted score whose weights do not sum to 1 is refused, saying so.
    page.goto(result_page)
    form = page.locator("#weigh-form")
    for row, weight in ((1, "1/2"), (2, "1/3")):
        form.locator(f"#weight-{row}").fill(weight)
        form.locator(f"#contract-{row}").fill("4S")
        form.locator(f"#declarer-{row}").select_option("N")
        form.locator(f"#result-{row}").fill("=")
    form.locator("#weigh").click()
    expect(page.locator("#error")).to_contain_text("must sum to 1, got 5/6")
    context.close()
