"""The director draws a Swiss round with the page's button in a real browser (Playwright +
Debian's chromium) against ``bridgescore session live``; the tables' API then shows the
new opponents."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from live_serving import live_server
from web_helpers import CHROMIUM, NO_CHROMIUM, NO_PLAYWRIGHT, chromium

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT)
expect = sync_api.expect
expect.set_options(timeout=120_000)  # a bound on a hang under load, not a wait


def test_the_director_draws_round_two_with_the_button(tmp_path: Path) -> None:
    from bridgescore.session.live.swiss import create_swiss_event

    made, first = create_swiss_event(tmp_path / "swiss.db", teams=4, rounds=3, boards_per_round=1)
    assert first.matches == (("1", "2"), ("3", "4"))
    tokens = {access.table: access.token for access in made.tables}
    # Board 1 (none vulnerable): 1NT= (+90, 3 IMPs) for team 1 NS at table 1, passed out at
    # table 2; team 4, NS at table 4, makes 1NT+3 (+180, 5 IMPs), passed out at table 3.
    # Ranked by VPs: 4 (won by 5), 1 (won by 3), 2 (lost by 3), 3 (lost by 5): the draw
    # is 4 v 1, 2 v 3, and table 1 (match 1, the first team NS) has 4 NS v 1 EW.
    plays = {1: ("1NT", "N", "="), 4: ("1NT", "N", "+3")}
    with live_server(tmp_path / "swiss.db", "--no-access-log") as server, chromium() as browser:
        for table, token in tokens.items():
            body: dict[str, Any] = {"round": 1, "board": 1, "contract": "PASS"}
            if table in plays:
                contract, declarer, result = plays[table]
                body = {**body, "contract": contract, "declarer": declarer, "result": result}
            answer = httpx.post(
                server.base + "/api/live/results",
                json=body,
                headers={"Authorization": f"Bearer {token}"},
                timeout=60,
            )
            assert answer.status_code == 201, answer.text
        page = browser.new_context(viewport={"width": 1100, "height": 800}).new_page()
        page.set_default_timeout(120_000)  # a bound on a hang under load, not a wait
        page.goto(f"{server.base}/director")
        page.locator("#password").fill(made.director_password)
        page.locator("#login").click()
        expect(page.locator("#swiss-state")).to_have_text("Round 1 of 3 is drawn.")
        page.locator("#draw").click()
        expect(page.locator("#swiss-state")).to_have_text("Round 2 of 3 is drawn.")
        view = httpx.get(
            server.base + "/api/live/table",
            headers={"Authorization": f"Bearer {tokens[1]}"},
            timeout=60,
        ).json()
    assert [(r["round"], r["ns"], r["ew"], r["boards"]) for r in view["rounds"]] == [
        (1, "1", "2", [1]),
        (2, "4", "1", [2]),
    ]
