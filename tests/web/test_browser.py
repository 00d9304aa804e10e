"""The pages in a real headless Chromium (Debian's ``chromium``, driven by Playwright).

The server is the real ``bridgescore serve`` command on 127.0.0.1 and a free
port. Expected values come from Law 77 and tests/data/par_vectors.jsonl (DDS).
Set ``BRIDGESCORE_SCREENSHOTS=1`` to refresh the screenshots in docs/img/;
otherwise none is taken.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from web_helpers import (
    CHROMIUM,
    EW_MATCHPOINTS,
    NO_CHROMIUM,
    NO_PLAYWRIGHT,
    NS_MATCHPOINTS,
    chromium,
    make_event,
    make_study,
    screenshot,
    screenshots_folder,
    serving,
    vectors,
)

ROOT = Path(__file__).parents[2]

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT)
# Solving runs in worker processes; on a busy 2-core machine a first solve can take seconds.
sync_api.expect.set_options(timeout=120_000)  # a bound on a hang under load


def first_vector() -> dict[str, Any]:
    return vectors(1)[0]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # BRIDGESCORE_STUDIES points at a bigger study for the README screenshot.
    chosen = os.environ.get("BRIDGESCORE_STUDIES")
    studies = Path(chosen) if chosen else tmp_path_factory.mktemp("studies")
    if not chosen:
        make_study(studies / "small")
    events = tmp_path_factory.mktemp("events")
    make_event(events / "tuesday.db")
    with serving(["--studies", str(studies), "--events", str(events)]) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1100, "height": 760})
    opened = context.new_page()
    opened.set_default_timeout(120_000)  # a bound on a hang under load, not a wait
    try:
        yield opened
    finally:
        context.close()


@pytest.fixture(scope="module")
def shots() -> Path | None:
    """Where the screenshots go: docs/img when refreshing them, else nowhere (None)."""
    return screenshots_folder(ROOT / "docs" / "img")


def breakdown(page: Any) -> dict[str, str]:
    rows = page.locator("#breakdown tbody tr")
    return {
        rows.nth(i).get_attribute("data-part"): rows.nth(i).locator("td").inner_text()
        for i in range(rows.count())
    }


def test_type_a_result_and_read_the_score(server: str, page: Any, shots: Path | None) -> None:
    page.goto(server + "/")
    page.fill("#result", "4DX +1")
    page.check("#vulnerable")
    sync_api.expect(page.locator("#score")).to_have_text("910")
    sync_api.expect(page.locator("#answer-vul")).to_have_text("vulnerable")
    # Law 77: 4 x 20 doubled, one doubled vulnerable overtrick, vulnerable game, the insult.
    assert breakdown(page) == {
        "trick_score": "160",
        "overtricks": "200",
        "game_premium": "500",
        "insult_premium": "50",
    }
    page.uncheck("#vulnerable")
    sync_api.expect(page.locator("#score")).to_have_text(str(160 + 100 + 300 + 50))
    page.check("#vulnerable")
    sync_api.expect(page.locator("#score")).to_have_text("910")
    screenshot(page, shots, "score.png", full_page=True)


def test_garbage_shows_the_parser_message(server: str, page: Any, shots: Path | None) -> None:
    page.goto(server + "/")
    page.fill("#result", "4DX +9")
    error = page.locator("#result-error")
    sync_api.expect(error).to_contain_text("'4DX +9' needs 19 tricks")
    sync_api.expect(page.locator("#result")).to_have_attribute("aria-invalid", "true")
    sync_api.expect(page.locator("#answer")).to_be_hidden()
    screenshot(page, shots, "score-error.png")
    page.fill("#result", "3NT=")
    sync_api.expect(error).to_have_text("")
    sync_api.expect(page.locator("#score")).to_have_text("400")


def test_pickers_build_the_result(server: str, page: Any) -> None:
    page.goto(server + "/")
    page.select_option("#pick-level", "3")
    page.select_option("#pick-strain", "NT")
    page.select_option("#pick-declarer", "S")
    page.select_option("#pick-vulnerability", "NS")
    page.select_option("#pick-tricks", "10")
    sync_api.expect(page.locator("#result")).to_have_value("3NTS+1")
    # 3NT vulnerable: 100 trick score + 30 overtrick + 500 game.
    sync_api.expect(page.locator("#score")).to_have_text("630")
    sync_api.expect(page.locator("#ns-score")).to_have_text("NS +630")


def test_made_exactly_tables_are_one_click_away(server: str, page: Any, shots: Path | None) -> None:
    page.goto(server + "/")
    table = page.locator("#made-vul")
    sync_api.expect(table).to_be_hidden()
    page.click("#tables summary")
    sync_api.expect(table).to_be_visible()
    # 7NTXX= vulnerable: 4 x 220 + 500 game + 1500 grand slam + 100 for the redoubled make.
    sync_api.expect(table.locator("tbody tr").nth(6).locator("td").nth(8)).to_have_text("2980")
    screenshot(page, shots, "score-tables.png", full_page=True)


def test_paste_a_deal_and_read_grid_and_par(server: str, page: Any, shots: Path | None) -> None:
    vector = first_vector()
    page.goto(server + "/deal")
    page.fill("#pbn", vector["deal"])
    page.select_option("#deal-vulnerability", "None")
    page.click("#analyse")
    rows = page.locator("#dd-grid tbody tr")
    sync_api.expect(rows).to_have_count(5)
    digits = vector["dd"]
    # Rows NT, S, H, D, C; columns N, S, E, W (PBN's order of the hex digits).
    for strain in range(5):
        cells = rows.nth(strain).locator("td")
        for seat in range(4):
            expected = str(int(digits[seat * 5 + strain], 16))
            sync_api.expect(cells.nth(seat)).to_have_text(expected)
    neutral = vector["par"]["None"]["neutral"]
    par_text = page.locator("#par-neutral")
    sync_api.expect(par_text.locator("strong")).to_have_text(f"NS +{neutral['score']}")
    for contract in neutral["contracts"]:
        sync_api.expect(par_text).to_contain_text(contract)
    dealer = vector["par"]["None"]["dealer N"]
    sync_api.expect(page.locator("#par-dealer strong")).to_have_text(f"NS +{dealer['score']}")
    sync_api.expect(page.locator("#diagram .north .seat")).to_contain_text("N · ")
    screenshot(page, shots, "deal.png", full_page=True)


def test_a_played_board_is_reviewed_on_the_deal_page(server: str, page: Any) -> None:
    # South's 3NT, board 3: West's DK lead gives the tenth trick (9 -> 10 double dummy,
    # checked against DDS in tests/web/test_analyse_api.py); declarer claims ten.
    lin = (
        "md|1SK98HA83DAQJ93CQT,SA7HKQ42DK5CJ7652,SJ54HT975DT82CAK8,|sv|e|ah|Board 3|"
        "mb|1N|mb|p|mb|3N|mb|p|mb|p|mb|p|pc|DK|mc|10|"
    )
    page.goto(server + "/deal")
    page.fill("#pbn", lin)
    page.click("#analyse")
    review = page.locator("#review")
    sync_api.expect(review).to_be_visible()
    sync_api.expect(review).to_contain_text("Opening lead by West: DK, cost 1")
    sync_api.expect(review).to_contain_text("Claim: 10 tricks (double dummy agrees)")
    sync_api.expect(review.locator("td[title='cost 1']")).to_have_count(1)
    # A deal without a result has nothing to review: the section stays hidden.
    page.fill("#pbn", first_vector()["deal"])
    page.click("#analyse")
    sync_api.expect(page.locator("#dd-grid tbody tr")).to_have_count(5)
    sync_api.expect(review).to_be_hidden()


def test_random_deal_with_seed(server: str, page: Any) -> None:
    from bridgescore.dealer.dealing import deal_many

    page.goto(server + "/deal")
    page.fill("#seed", "7")
    page.click("#random")
    # The first deal of `bridgescore deal --seed 7`, as bridgescore.deal_many deals it.
    sync_api.expect(page.locator("#pbn")).to_have_value(deal_many(1, seed=7)[0].to_pbn())
    sync_api.expect(page.locator("#dd-grid tbody tr")).to_have_count(5)


def test_bad_deal_shows_the_message(server: str, page: Any) -> None:
    page.goto(server + "/deal")
    page.fill("#pbn", "N:AKQ.JT9 hello")
    page.click("#analyse")
    sync_api.expect(page.locator("#deal-error")).to_contain_text("N:AKQ.JT9 hello")
    sync_api.expect(page.locator("#pbn")).to_have_attribute("aria-invalid", "true")


def test_study_page(server: str, page: Any, shots: Path | None) -> None:
    page.goto(server + "/study")
    page.locator("nav.entries a").first.click()
    sync_api.expect(page.locator("#study-report td.verdict")).to_have_count(4)
    sync_api.expect(page.locator("figure svg")).to_have_count(4)
    deals = page.locator('#study-report tr[data-figure="deals"] td')
    sync_api.expect(deals.nth(1)).to_have_text("10,485,760")  # the published study
    screenshot(page, shots, "study.png", full_page=True)


def test_session_page(server: str, page: Any, shots: Path | None) -> None:
    page.goto(server + "/session")
    page.click("text=Tuesday pairs")  # the list shows event names
    sync_api.expect(page.locator("h1")).to_have_text("Sessions: Tuesday pairs")
    # One row a pair (the NS and EW groups each have a heading row of their own).
    ranking = page.locator("#ranking tbody tr[data-pair]")
    sync_api.expect(ranking).to_have_count(6)
    for i in range(6):
        cells = ranking.nth(i)
        pair = cells.locator("td.pair").inner_text()
        points = {**NS_MATCHPOINTS, **EW_MATCHPOINTS}[pair]
        # Whole matchpoints: the total column prints them without decimals.
        sync_api.expect(cells.locator("td.total")).to_have_text(str(points))
    sync_api.expect(page.locator("table.traveller")).to_have_count(3)
    screenshot(page, shots, "session.png", full_page=True)


def test_no_console_errors(server: str, page: Any) -> None:
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    # The browser asks for /favicon.ico on its first page only (whichever test that is),
    # and the site has no icon: answer it here so the result does not depend on order.
    page.route("**/favicon.ico", lambda route: route.fulfill(status=204, body=b""))
    for path in ("/", "/deal", "/study", "/session"):
        page.goto(server + path)
        page.wait_for_load_state("networkidle")
    assert errors == []


def test_simulate_form_shows_the_lead_table(server: str, page: Any, shots: Path | None) -> None:
    # West's hand is predealt, so the lead rows are exactly West's 13 cards, grouped.
    west = "KQJ3.A42.QJT9.85"
    page.goto(server + "/simulate")
    page.locator("input[name=contracts]").fill("4H S")
    page.locator("#predeal").fill("W=" + west)
    page.locator("input[name=deals]").fill("4")
    page.locator("input[name=seed]").fill("5")
    page.locator("#lead").select_option("W")
    page.get_by_role("button", name="Simulate").click()
    sync_api.expect(page.locator("h2")).to_have_text("Leads by W against 4H by S")
    rows = page.locator("table.leads tbody tr")
    leads = [row.locator("td").first.inner_text() for row in rows.all()]
    held = {lead[0] + rank for lead in leads for rank in lead[1:]}
    expected = {suit + rank for suit, cards in zip("SHDC", west.split("."), strict=True)
                for rank in cards}  # fmt: skip
    assert held == expected and sum(len(lead) - 1 for lead in leads) == 13
    # The same simulation through the JSON API: the same rows, best lead first.
    body = {"contracts": ["4H S"], "predeal": ["W=" + west], "deals": 4, "seed": 5, "lead": "W"}
    (table,) = httpx.post(server + "/api/simulate", json=body, timeout=120).json()["leads"]
    assert leads == [row["cards"] for row in table["cards"]]
    screenshot(page, shots, "simulate.png", full_page=True)


def test_simulate_form_shows_the_plot(server: str, page: Any, shots: Path | None) -> None:
    page.goto(server + "/simulate")
    page.locator("#where").fill("hearts(south) >= 6")
    page.locator("input[name=contracts]").fill("4H S, 3NT S")
    page.locator("input[name=deals]").fill("8")
    page.locator("input[name=seed]").fill("4")
    page.get_by_role("button", name="Simulate").click()
    plot = page.locator("#simulate-plot")
    sync_api.expect(plot).to_be_visible()
    # The browser decoded the image (the page's Content-Security-Policy allows data: images).
    assert plot.evaluate("image => image.complete && image.naturalWidth") > 0
    sync_api.expect(plot).to_have_attribute(
        "alt", re.compile(r"^Share of deals by tricks taken for 4H by S, 3NT by S; net IMPs")
    )
    # It is the plot of this simulation: the one the JSON API draws for the same request.
    body = {"contracts": ["4H S", "3NT S"], "where": "hearts(south) >= 6", "deals": 8,
            "seed": 4, "plot": "svg"}  # fmt: skip
    report = httpx.post(server + "/api/simulate", json=body, timeout=120).json()
    assert plot.get_attribute("src") == report["plot"]
    imps = f"{report['comparisons'][0]['imps']:+.2f}"
    sync_api.expect(plot).to_have_attribute("alt", re.compile(re.escape(imps) + "$"))
    screenshot(page, shots, "simulate-plot.png", full_page=True)
