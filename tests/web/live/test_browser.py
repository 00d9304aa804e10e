"""The live session's pages in a real headless Chromium (Debian's ``chromium``, Playwright).

The server is the real ``bridgescore session live`` command on 127.0.0.1 and a free
port, one per test (each test starts from an empty evening). Scores are Law 77's,
worked by hand in the comments; the movement is tests/live_movements.py's Mitchell.
Every wait is on a page event or a selector, never a timer.

Set ``BRIDGESCORE_SCREENSHOTS=1`` to refresh the screenshots in docs/img/live/ (shown
in docs/live.md); otherwise none is taken.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from live_pages_helpers import enter_by_api, new_event, token_of
from live_serving import CLI, live_server
from web_helpers import (
    CHROMIUM,
    NO_CHROMIUM,
    NO_PLAYWRIGHT,
    chromium,
    screenshot,
    screenshots_folder,
)

ROOT = Path(__file__).parents[3]

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT)
expect = sync_api.expect
expect.set_options(timeout=120_000)  # a bound on a hang under load, not a wait

PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1100, "height": 800}


@pytest.fixture()
def evening(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    """A live server on a new event: (base URL, the event's tokens and password)."""
    created = new_event(tmp_path / "club.db")
    with live_server(tmp_path / "club.db", "--no-access-log") as server:
        yield server.base, created


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def shots() -> Path | None:
    """Where the screenshots go: docs/img when refreshing them, else nowhere (None)."""
    return screenshots_folder(ROOT / "docs" / "img" / "live")


def new_page(browser: Any, viewport: dict[str, int], **options: Any) -> Any:
    context = browser.new_context(viewport=viewport, **options)
    page = context.new_page()
    page.set_default_timeout(120_000)  # a bound on a hang under load, not a wait
    return page


def fill_board(form: Any, level: str, strain: str, declarer: str, result: str) -> None:
    """Tap the contract's buttons and pick the result, as a player does."""
    form.locator(f"label.level-{level}").click()
    if level != "PASS":
        form.locator(f"label.strain-{strain}").click()
        form.locator(f"label.declarer-{declarer}").click()
        form.locator("select[name=result]").select_option(result)


def test_a_table_enters_its_round_on_a_phone(
    browser: Any, evening: tuple[str, Any], shots: Path | None
) -> None:
    base, created = evening
    page = new_page(browser, PHONE, is_mobile=True, has_touch=True)
    card_link = f"{base}/table?token={token_of(created, 1)}"
    page.goto(card_link)
    page.wait_for_url(f"{base}/table")  # the token has left the address bar
    expect(page.locator("h1")).to_have_text("Table 1")
    expect(page.locator("#ns")).to_have_text("1N")
    expect(page.locator("#ew")).to_have_text("1E")
    expect(page.locator("#boards")).to_have_text("1, 2")
    (cookie,) = [c for c in page.context.cookies() if c["name"] == "bridgescore_table"]
    assert (cookie["httpOnly"], cookie["sameSite"], cookie["secure"]) == (True, "Strict", False)
    # Phone first: nothing wider than the screen, every choice a large target.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = page.locator("#board-1 label.level-4 span").bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44
    screenshot(page, shots, "table.png")

    # Board 1, nobody vulnerable: 4S by N making 11 tricks: 120 + 30 + 300 (game) = NS +450.
    fill_board(page.locator("#board-1"), "4", "S", "N", "+1")
    page.locator("#board-1").get_by_role("button", name="Show the score").click()
    expect(page.locator("#score")).to_have_text("NS +450")
    expect(page.locator("#contract")).to_have_text("4♠ by N, made +1")
    screenshot(page, shots, "confirm.png")
    page.locator("#confirm").click()
    expect(page.locator("#saved")).to_have_text("Board 1 is entered.")
    expect(page.locator("#board-1")).to_contain_text("4SN+1: NS +450")

    # Board 2, NS vulnerable: 3NT by S one down, undoubled: 100 to EW.
    fill_board(page.locator("#board-2"), "3", "NT", "S", "-1")
    page.locator("#board-2").get_by_role("button", name="Show the score").click()
    expect(page.locator("#score")).to_have_text("EW +100")
    page.locator("#confirm").click()
    # The round is over: the Mitchell moves (NS stays, EW up a table, boards down one).
    moves = page.locator("#moves li")
    expect(moves).to_have_text([
        "NS pair 1N: stay at table 1, NS",
        "EW pair 1E: go to table 2, EW",
        "Boards 1, 2: pass them to table 3",
    ])  # fmt: skip
    expect(page.locator("#ew")).to_have_text("3E")  # round 2's opponents
    screenshot(page, shots, "table-moves.png", full_page=True)
    # The stored results, as the JSON API reads them back.
    rounds = page.request.get(
        f"{base}/api/live/table", headers={"Authorization": f"Bearer {token_of(created, 1)}"}
    ).json()["rounds"]
    assert [(r["board"], r["score_ns"]) for r in rounds[0]["results"]] == [(1, 450), (2, -100)]


def test_a_phone_sees_its_own_traveller_after_a_board_and_no_other(
    browser: Any, tmp_path: Path, shots: Path | None
) -> None:
    created = new_event(tmp_path / "club.db")
    # A hand record for every board (one deal, North holding AKQ2 of spades), so the
    # phone shows the deal under the traveller.
    deal = "N:AKQ2.K53.J84.Q72 JT9.AQJ2.K52.J83 8765.876.AQ3.AK4 43.T94.T976.T965"
    hands = tmp_path / "hands.pbn"
    hands.write_text("".join(f'[Board "{b}"]\n[Deal "{deal}"]\n\n' for b in range(1, 7)))
    imported = subprocess.run(
        [*CLI, "session", "import", str(tmp_path / "club.db"), str(hands)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert imported.returncode == 0, imported.stdout + imported.stderr
    with live_server(tmp_path / "club.db", "--no-access-log") as server:
        base = server.base
        # Table 2 has entered board 3 already: not table 1's to see.
        enter_by_api(base, created, 2, {"round": 1, "board": 3, "contract": "PASS"})
        page = new_page(browser, PHONE, is_mobile=True, has_touch=True)
        page.goto(f"{base}/table?token={token_of(created, 1)}")
        expect(page.locator("h1")).to_have_text("Table 1")
        expect(page.locator("#traveller")).to_have_count(0)
        # Board 1, nobody vulnerable: 4S by N making 11 tricks: 120 + 30 + 300 = NS +450.
        fill_board(page.locator("#board-1"), "4", "S", "N", "+1")
        page.locator("#board-1").get_by_role("button", name="Show the score").click()
        page.locator("#confirm").click()
        expect(page.locator("#saved")).to_have_text("Board 1 is entered.")
        lines = page.locator("#traveller-1 tbody tr")
        expect(lines).to_have_count(1)
        # The traveller as every report draws it (tests/session/reports/test_travellers.py): with
        # the par DDS found, 3NT+1 by N (+430: N takes 10 tricks in notrump, the DD table
        # below), +450 is 20 over par: 1 IMP (WBF table, 20-40).
        expect(lines.first.locator("td")).to_have_text(
            ["1N", "1E", "4SN+1", "+450", "0", "0", "+1"]
        )
        # The deal with its double-dummy table (solved by DDS) and par.
        expect(page.locator("#hand-record")).to_contain_text("♠ AKQ2")
        expect(page.locator("#hand-record table tbody tr")).to_have_count(4)
        expect(page.locator("#hand-record")).to_contain_text("Par NS +430: 3NT+1 N")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(page, shots, "table-traveller.png", full_page=True)
        expect(page.locator("#my-travellers a")).to_have_text(["1"])
        # Board 3 (table 2's) and board 2 (not yet entered) stay closed to table 1.
        for board in (2, 3):
            answer = page.goto(f"{base}/table/traveller/{board}")
            assert answer is not None and answer.status == 403
            expect(page.locator("#message")).to_contain_text(f"has not entered board {board}")
        answer = page.goto(f"{base}/table/traveller/1")
        assert answer is not None and answer.status == 200
        expect(page.locator("#traveller-1 tbody tr")).to_have_count(1)
        # The public ranking shows neither board: each is still due at other tables.
        page.goto(f"{base}/ranking")
        expect(page.locator("#unplayed")).to_contain_text("not yet boards 1, 2, 3")
        expect(page.locator("table.traveller")).to_have_count(0)


def test_a_board_entered_twice_asks_for_the_director(
    browser: Any, evening: tuple[str, Any]
) -> None:
    base, created = evening
    first = new_page(browser, PHONE)
    first.goto(f"{base}/table?token={token_of(created, 2)}")
    expect(first.locator("h1")).to_have_text("Table 2")
    # A second phone at the same table has the same board's form open.
    second = new_page(browser, PHONE)
    second.goto(f"{base}/table?token={token_of(created, 2)}")
    expect(second.locator("h1")).to_have_text("Table 2")
    for page in (first, second):
        fill_board(page.locator("#board-3"), "PASS", "", "", "")
        page.locator("#board-3").get_by_role("button", name="Show the score").click()
        expect(page.locator("#score")).to_have_text("0")
    first.locator("#confirm").click()
    expect(first.locator("#saved")).to_have_text("Board 3 is entered.")
    second.locator("#confirm").click()
    expect(second.locator("#message")).to_contain_text("ask the director")


def test_a_bad_link_says_scan_the_card_again(browser: Any, evening: tuple[str, Any]) -> None:
    base, _ = evening
    page = new_page(browser, PHONE)
    answer = page.goto(f"{base}/table?token=forged")
    assert answer is not None and answer.status == 401
    expect(page.locator("#message")).to_contain_text("Scan the QR code on your table's card")


def total(page: Any, pair: str) -> Any:
    return page.locator(f'#ranking tr[data-pair="{pair}"] td.total')


def test_the_director_corrects_a_result_and_the_ranking_changes(
    browser: Any, evening: tuple[str, Any], shots: Path | None
) -> None:
    base, created = evening
    # Board 1 (nobody vulnerable): table 1 in round 1 (1N v 1E) 4SN+1 = +450;
    # table 3 in round 2 (3N v 2E) 4SN= = +420. Matchpoints, top 2: 1N 2, 3N 0, 1E 0, 2E 2.
    # Table 3 plays its round 1 first (3N v 2E, boards 5 and 6 passed out). Each has one
    # result where board 1 has two, so Neuberg factors it up to 2 results (2 a beat, top 2):
    # (0 + 1) x 2/1 - 1 = 1 to each side, 2 to 3N over the two boards.
    body = {"board": 1, "contract": "4S", "declarer": "N"}
    assert enter_by_api(base, created, 1, {**body, "round": 1, "result": "+1"}) == 450
    for board in (5, 6):
        assert enter_by_api(base, created, 3, {"round": 1, "board": board, "contract": "PASS"}) == 0
    assert enter_by_api(base, created, 3, {**body, "round": 2, "result": "="}) == 420
    public = new_page(browser, PHONE)
    public.goto(f"{base}/ranking")
    expect(total(public, "1N")).to_have_text("2")
    expect(total(public, "3N")).to_have_text("2")  # 0 on board 1, 1 + 1 on boards 5 and 6

    director = new_page(browser, DESKTOP)
    director.goto(f"{base}/director")
    director.locator("#password").fill(created.director_password)
    director.locator("#login").click()
    expect(director.locator("#progress")).to_be_visible()
    (cookie,) = [c for c in director.context.cookies() if c["name"] == "bridgescore_director"]
    assert (cookie["httpOnly"], cookie["sameSite"]) == (True, "Strict")
    expect(director.locator('#progress tr[data-table="1"] td').first).to_have_text("1/2")
    screenshot(director, shots, "director.png", full_page=True)

    director.goto(f"{base}/director/names")
    director.locator('input[name="player-1N-1"]').fill("Ann Smith")
    director.locator('input[name="player-1N-2"]').fill("Bob Jones")
    director.locator('input[name="player-3N-1"]').fill("Cate Brown")
    director.locator('input[name="player-3N-2"]').fill("Dan Green")
    director.locator("#save-names").click()
    expect(director.locator('input[name="player-1N-2"]')).to_have_value("Bob Jones")

    director.goto(f"{base}/director/results")
    director.locator('#t1r1 a.result[data-board="1"]').click()
    expect(director.locator("#current")).to_have_text("Now: 4SN+1 (NS +450)")
    # The director makes it 4S one down: NS -50, now below +420: 1N 0, 3N 2.
    form = director.locator("#change-form")
    fill_board(form, "4", "S", "N", "-1")
    screenshot(director, shots, "director-change.png", full_page=True)
    director.locator("#save").click()
    expect(director.locator('#t1r1 a.result[data-board="1"]')).to_have_text("1: 4SN-1 (-50)")

    public.reload()
    expect(public.locator('#ranking tr[data-pair="1N"] .names')).to_have_text(
        "Ann Smith & Bob Jones"
    )
    expect(total(public, "1N")).to_have_text("0")
    expect(total(public, "3N")).to_have_text("4")  # 2 on board 1, 1 + 1 on boards 5 and 6
    screenshot(public, shots, "ranking.png", full_page=True)

    director.goto(f"{base}/director/audit")
    rows = director.locator("#audit tbody tr")
    # Four results entered, the two pairs named on the names page, the director's change.
    expect(rows).to_have_count(7)
    expect(rows.locator("text=names")).to_have_count(2)
    expect(rows.nth(6)).to_contain_text("director")
    cells = rows.nth(6).locator("td")
    expect(cells.nth(7)).to_have_text("4SN+1")  # old
    expect(cells.nth(8)).to_have_text("4SN-1")  # new
    screenshot(director, shots, "audit.png", full_page=True)


def test_forms_without_the_csrf_token_are_refused(browser: Any, evening: tuple[str, Any]) -> None:
    base, created = evening
    director = new_page(browser, DESKTOP)
    director.goto(f"{base}/director")
    director.locator("#password").fill(created.director_password)
    director.locator("#login").click()
    expect(director.locator("#progress")).to_be_visible()
    # The browser's own cookies go with these posts; only the form's token is missing.
    refused = director.request.post(f"{base}/director/close", form={"confirm": "yes"})
    assert refused.status == 403
    refused = director.request.post(f"{base}/director/ranking", form={"hidden": "1"})
    assert refused.status == 403
    table = new_page(browser, PHONE)
    table.goto(f"{base}/table?token={token_of(created, 1)}")
    expect(table.locator("h1")).to_have_text("Table 1")
    form = {"round": "1", "board": "1", "level": "PASS"}
    assert table.request.post(f"{base}/table/result", form=form).status == 403
    # Nothing changed.
    director.goto(f"{base}/director")
    expect(director.locator("#ranking-state")).to_have_text("The public ranking is shown.")
    expect(director.locator("#close")).to_be_visible()
    expect(director.locator('#progress tr[data-table="1"] td').first).to_have_text("0/2")


def test_the_director_hides_the_ranking_then_closes(
    browser: Any, evening: tuple[str, Any], shots: Path | None
) -> None:
    base, created = evening
    enter_by_api(base, created, 1, {"round": 1, "board": 1, "contract": "3NT", "declarer": "S",
                                     "result": "="})  # fmt: skip
    director = new_page(browser, DESKTOP)
    director.goto(f"{base}/director")
    director.locator("#password").fill(created.director_password)
    director.locator("#login").click()
    director.locator("#toggle-ranking").click()
    expect(director.locator("#ranking-state")).to_have_text("The public ranking is hidden.")
    public = new_page(browser, PHONE)
    public.goto(f"{base}/ranking")
    expect(public.locator("#hidden")).to_be_visible()
    expect(public.locator("#ranking")).to_have_count(0)
    director.locator("#close-confirm").check()
    director.locator("#close").click()
    expect(director.locator("#closed")).to_be_visible()
    public.reload()
    expect(public.locator("#published")).to_be_visible()
    public.locator("#published a", has_text="results site").click()
    expect(public.locator("h1")).to_contain_text("Club night")
    screenshot(public, shots, "results-site.png", full_page=True)
    assert re.search(r"/results/index\.html$", public.url)


def test_the_card_links_token_stays_out_of_the_servers_log(browser: Any, tmp_path: Path) -> None:
    created = new_event(tmp_path / "club.db")
    token = token_of(created, 3)
    with live_server(tmp_path / "club.db") as server:  # the access log on, as by default
        page = new_page(browser, PHONE)
        page.goto(f"{server.base}/table?token={token}")
        page.wait_for_url(f"{server.base}/table")
        expect(page.locator("h1")).to_have_text("Table 3")
    # The server has exited, so its output is complete.
    assert "GET /table?token=[redacted]" in server.output
    assert token not in server.output
