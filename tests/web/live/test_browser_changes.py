"""The director seats a late pair and swaps a table with the Changes page's forms in a real
browser (Playwright + Debian's chromium) against ``bridgescore session live``; the tables'
API then shows the change."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from bridgescore.movement.howell import howell
from bridgescore.movement.mitchell import mitchell
from bridgescore.session.live.creation import create_event
from bridgescore.session.store.live import LiveStore
from live_serving import live_server
from web_helpers import CHROMIUM, NO_CHROMIUM, NO_PLAYWRIGHT, chromium

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT)
expect = sync_api.expect
expect.set_options(timeout=120_000)  # a bound on a hang under load, not a wait


def _log_in(page: object, base: str, password: str) -> None:
    page.goto(f"{base}/director")  # type: ignore[attr-defined]
    page.locator("#password").fill(password)  # type: ignore[attr-defined]
    page.locator("#login").click()  # type: ignore[attr-defined]
    page.locator('nav a[href="/director/changes"]').click()  # type: ignore[attr-defined]


def test_the_director_adds_a_late_pair_and_sees_the_new_tables_link(tmp_path: Path) -> None:
    # Seven pairs: the 4-table Howell without pair 8, whose table (4) nobody uses; pair 8
    # meets pair r on set r in round r, so from round 6 it plays 6 and 7 at table 4.
    made = create_event(
        tmp_path / "h.db", howell(pairs=7, boards_per_round=2), url_base="http://127.0.0.1:9"
    )
    with live_server(tmp_path / "h.db", "--no-access-log") as server, chromium() as browser:
        page = browser.new_context(viewport={"width": 1100, "height": 800}).new_page()
        page.set_default_timeout(120_000)  # a bound on a hang under load, not a wait
        _log_in(page, server.base, made.director_password)
        page.locator("#from-round").select_option("6")
        page.locator("#late-name").fill("Cy Cole & Di Dale")
        page.locator("#add-pair-button").click()
        expect(page.locator("#joined")).to_contain_text(
            "Pair 8 (Cy Cole & Di Dale) joins at round 6: round 6 at table 4, round 7 at table 4."
        )
        link = page.locator("#new-tables a.new-table")
        expect(link).to_have_count(1)
        url = link.get_attribute("href")
        assert url is not None and url.startswith("http://127.0.0.1:9/table?token=")
        token = url.partition("token=")[2]
        # The place is taken now: the form is gone.
        page.goto(f"{server.base}/director/changes")
        expect(page.locator("#no-empty-place")).to_be_visible()
        view = httpx.get(
            server.base + "/api/live/table",
            headers={"Authorization": f"Bearer {token}"},
            timeout=60,
        )
    assert view.status_code == 200, view.text
    assert [(r["round"], r["ns"], r["ew"], r["boards"]) for r in view.json()["rounds"]] == [
        (6, "8", "6", [11, 12]),
        (7, "8", "7", [13, 14]),
    ]


def test_the_director_swaps_a_table_and_swaps_it_back(tmp_path: Path) -> None:
    made = create_event(tmp_path / "club.db", mitchell(tables=3, boards_per_round=2))
    token = next(t.token for t in made.tables if t.table == 3)
    with live_server(tmp_path / "club.db", "--no-access-log") as server, chromium() as browser:
        # Table 3 in round 1 (3N v 3E, boards 5, 6) sat the wrong way round: 3E made 4S.
        page = browser.new_context(viewport={"width": 1100, "height": 800}).new_page()
        page.set_default_timeout(120_000)  # a bound on a hang under load, not a wait
        entered = httpx.post(
            server.base + "/api/live/results",
            json={"round": 1, "board": 5, "contract": "4S", "declarer": "N", "result": "="},
            headers={"Authorization": f"Bearer {token}"},
            timeout=60,
        )
        assert entered.status_code == 201, entered.text
        _log_in(page, server.base, made.director_password)
        row = page.locator("#t3r1")
        expect(row.locator(".ns")).to_have_text("3N")
        row.locator("button.swap").click()
        expect(page.locator("#t3r1 .ns")).to_have_text("3E")
        expect(page.locator("#t3r1 .ew")).to_have_text("3N")
        with LiveStore(tmp_path / "club.db", mode="read") as store:
            assert store.stored_outcomes() == {("", 5, "3E", "3N"): "4SN="}
        page.locator("#t3r1 button.swap").click()
        expect(page.locator("#t3r1 .ns")).to_have_text("3N")
        page.locator('nav a[href="/director/audit"]').click()
        expect(page.locator("body")).to_contain_text("now 3E NS v 3N EW")
    with LiveStore(tmp_path / "club.db", mode="read") as store:
        assert store.stored_outcomes() == {("", 5, "3N", "3E"): "4SN="}
        assert [e.action for e in store.audit_log()] == ["enter", "swap", "swap"]
