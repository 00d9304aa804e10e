"""One drawing of a traveller (issue 34, item 4): every surface shows the same cells for
the same board, so that a copy of the drawing that drifts fails here.

The board is worked by hand. Board 2 of the 3-table Mitchell of tests/live_movements.py:
Law 2 makes East the dealer and North-South vulnerable. Each hand holds one whole suit
(North spades, East hearts, South diamonds, West clubs), so NS make 13 tricks in spades
and par is 7S by NS: 210 + 500 + 1500 = +2210 (Law 77). Two tables play it:

- table 1, round 1, 1N v 1E: 4S by N, 10 tricks: 120 + 500 = +620;
- table 3, round 2, 3N v 2E: 6S by N, 12 tricks: 180 + 500 + 750 = +1430.

Matchpoints on the 2/1 scale: the top is 2; +1430 beats +620 (2 to NS, 0 to EW) and +620
scores 0 and 2. IMPs v par (WBF table): +1430 is 780 short of +2210, 13 IMPs (750-890);
+620 is 1590 short, 17 IMPs (1500-1740).
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("multipart", reason="python-multipart is not installed (pip install '.[web]')")

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from bridgescore.cli.app import app as cli_app
from bridgescore.session.reports.html import html_report
from bridgescore.session.reports.site import results_site
from bridgescore.session.reports.text import traveller_text
from bridgescore.session.store.events import EventStore
from bridgescore.session.workflow import score_stored_event
from bridgescore.web import WebSettings, create_app
from bridgescore.web.live.app import create_live_app
from live_pages_helpers import new_event, token_of

ONE_SUIT_EACH = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
# Its double-dummy table, stored with the deal (so every surface has the par without the
# solver): N and S take 13 tricks in spades and diamonds, E and W in hearts and clubs.
ONE_SUIT_EACH_DD = "0d0d00d0d000d0d00d0d"

TITLE = "Board 2"
ABOUT = ["Dealer East", "Vul NS", "top 2", "par NS +2210: 7S= NS"]
HEADERS = ["NS", "EW", "Result", "NS score", "NS MP", "EW MP", "NS IMPs v par"]
ROWS = [
    ["3N", "2E", "6SN=", "+1430", "2", "0", "-13"],
    ["1N", "1E", "4SN=", "+620", "0", "2", "-17"],
]


def _enter(client: TestClient, created: Any, table: int, body: dict[str, Any]) -> None:
    headers = {"Authorization": f"Bearer {token_of(created, table)}"}
    answer = client.post("/api/live/results", json=body, headers=headers)
    assert answer.status_code == 201, answer.text


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """The event file with board 2 played twice, and the live event's secrets."""
    folder = tmp_path_factory.mktemp("events")
    path = folder / "club.db"
    created = new_event(path)
    hands = folder / "hands.pbn"
    hands.write_text(
        "".join(
            f'[Board "{b}"]\n[Deal "{ONE_SUIT_EACH}"]\n[DoubleDummyTricks "{ONE_SUIT_EACH_DD}"]\n\n'
            for b in range(1, 7)
        )
    )
    hands_in = CliRunner().invoke(cli_app, ["session", "import", str(path), str(hands)])
    assert hands_in.exit_code == 0, hands_in.output
    hands.unlink()
    with TestClient(create_live_app(path)) as client:
        passed = {"contract": "PASS"}
        _enter(client, created, 1, {"round": 1, "board": 1, **passed})
        _enter(client, created, 1, {"round": 1, "board": 2, "contract": "4S",
                                    "declarer": "N", "result": "="})  # fmt: skip
        _enter(client, created, 3, {"round": 1, "board": 5, **passed})
        _enter(client, created, 3, {"round": 1, "board": 6, **passed})
        _enter(client, created, 3, {"round": 2, "board": 2, "contract": "6S",
                                    "declarer": "N", "result": "="})  # fmt: skip
    return path, created


def _cells(fragment: str, tag: str) -> list[str]:
    return [
        html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()
        for cell in re.findall(rf"<{tag}[^>]*>(.*?)</{tag}>", fragment, re.S)
    ]


def _table(fragment: str) -> tuple[list[str], list[list[str]]]:
    """The headers and the rows of the first table in ``fragment``."""
    table = fragment[fragment.index("<table") : fragment.index("</table>")]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)
    return _cells(rows[0], "th"), [_cells(row, "td") for row in rows[1:]]


def _scored(path: Path) -> Any:
    with EventStore(path, mode="read") as store:
        return score_stored_event(store, pars="stored")


def test_the_text_report_draws_the_board(night: tuple[Path, Any]) -> None:
    scored = _scored(night[0])
    (traveller,) = [t for t in scored.travellers if t.board.number == 2]
    head, names, rule, *rows = traveller_text(scored, traveller).splitlines()
    assert head == "  ".join([TITLE, *ABOUT])
    assert re.split(r"\s{2,}", names.strip()) == HEADERS
    assert set(rule) <= {"-", " "}
    assert [re.split(r"\s{2,}", row.strip()) for row in rows] == ROWS


def test_the_html_report_draws_the_board(night: tuple[Path, Any]) -> None:
    page = html_report(_scored(night[0]))
    section = page[page.index('<h3 id="board-2">') :]
    section = section[: section.index("</section>")]
    assert _cells(section, "h3") == [TITLE]
    assert re.findall(r'<p class="meta">(.*?)</p>', section)[0].split(" · ") == ABOUT
    assert _table(section) == (HEADERS, ROWS)


def test_the_results_site_draws_the_board(night: tuple[Path, Any]) -> None:
    page = results_site(_scored(night[0]))["board-2.html"]
    assert _cells(page, "h1") == [TITLE]
    assert re.findall(r'<p class="meta">(.*?)</p>', page)[0].split(" · ") == ABOUT
    assert _table(page[page.index("<h2>Traveller</h2>") :]) == (HEADERS, ROWS)


def _caption(page: str, anchor: str) -> list[str]:
    table = page[page.index(f'id="{anchor}-2"') :]
    return _cells(table[: table.index("</caption>") + 10], "caption")[0].split(" · ")


def test_the_live_table_page_draws_the_board(night: tuple[Path, Any]) -> None:
    path, created = night
    with TestClient(create_live_app(path)) as client:
        client.get(f"/table?token={token_of(created, 1)}")
        page = client.get("/table/traveller/2")
    assert page.status_code == 200, page.text
    assert _caption(page.text, "traveller") == [TITLE, *ABOUT]
    table = page.text[page.text.index('id="traveller-2"') :]
    assert _table("<table" + table) == (HEADERS, ROWS)


def test_the_live_ranking_draws_the_board_without_par(night: tuple[Path, Any]) -> None:
    """The live ranking is scored without pars (no solver while results arrive): the
    same cells, less the par's."""
    path, created = night
    with TestClient(create_live_app(path)) as client:
        form = client.get("/director").text
        csrf = re.search(r'name="csrf" value="([^"]+)"', form)
        assert csrf is not None
        login = {"csrf": csrf[1], "password": created.director_password}
        assert client.post("/director/login", data=login, follow_redirects=False).status_code == 303
        page = client.get("/ranking").text
    assert _caption(page, "board") == [TITLE, *ABOUT[:-1]]
    table = page[page.index('id="board-2"') :]
    assert _table("<table" + table) == (HEADERS[:-1], [row[:-1] for row in ROWS])


def test_the_serve_session_page_draws_the_board(night: tuple[Path, Any]) -> None:
    path, _ = night
    settings = WebSettings(events=path.parent, solver_workers=1, warm_solver=False)
    with TestClient(create_app(settings)) as client:
        page = client.get("/session/club.db")
    assert page.status_code == 200, page.text
    table = page.text[page.text.index('data-board="2"') :]
    assert _cells(table[: table.index("</caption>") + 10], "caption")[0].split(" · ") == [
        TITLE,
        *ABOUT,
    ]
    assert _table("<table" + table) == (HEADERS, ROWS)
