"""The live pages of an event of two sections (the 3-table Mitchell of
tests/live_movements.py in sections A and B): the table page names its section, the
director's pages list every section's tables as A1 ... B3, and the director's form
changes the result of the section it names.
"""

from __future__ import annotations

import html
import re
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("multipart", reason="python-multipart is not installed (pip install '.[web]')")

from fastapi.testclient import TestClient

from bridgescore.movement.model import Movement, Row
from bridgescore.session.live.creation import create_event
from live_movements import three_table_mitchell
from live_pages_helpers import csrf_of


@pytest.fixture()
def event(tmp_path: Path) -> Any:
    return create_event(tmp_path / "congress.db", three_table_mitchell(), sections=2)


@pytest.fixture()
def client(event: Any) -> Iterator[TestClient]:
    from bridgescore.web.live.app import create_live_app

    with TestClient(create_live_app(event.event)) as test_client:
        yield test_client


def token(event: Any, section: str, table: int) -> str:
    found: str = next(t.token for t in event.tables if (t.section, t.table) == (section, table))
    return found


def text_of(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page))).strip()


def login(client: TestClient, password: str) -> str:
    form = client.get("/director")
    answer = client.post(
        "/director/login", data={"csrf": csrf_of(form.text), "password": password},
        follow_redirects=False,
    )  # fmt: skip
    assert answer.status_code == 303, answer.text
    return csrf_of(client.get("/director").text)


def test_the_table_page_names_its_section(client: TestClient, event: Any) -> None:
    for section in "AB":
        ready = client.get(f"/table?token={token(event, section, 2)}")
        assert f"Section {section}, table 2" in text_of(ready.text)
        page = client.get("/table")
        assert page.status_code == 200
        assert f"Section {section}, table 2" in text_of(page.text)


def test_the_director_sees_every_sections_tables_and_changes_the_named_one(
    client: TestClient, event: Any
) -> None:
    csrf = login(client, event.director_password)
    overview = client.get("/director").text
    assert re.findall(r'data-table="(\w+)"', overview) == ["A1", "A2", "A3", "B1", "B2", "B3"]
    results = client.get("/director/results").text
    assert 'id="tB3r1"' in results
    assert "/director/result?section=B&amp;table=3&amp;round=1&amp;board=5" in results
    page = client.get("/director/result?section=B&table=3&round=1&board=5")
    assert page.status_code == 200
    assert "table B3" in text_of(page.text)
    assert 'name="section" value="B"' in page.text
    # 1NT by N making 8 tricks, NS vulnerable on board 5: 40 + 30 + 50 = +120.
    changed = client.post(
        "/director/result",
        data={"csrf": csrf, "section": "B", "table": "3", "round": "1", "board": "5",
              "level": "1", "strain": "NT", "doubling": "", "declarer": "N", "result": "+1",
              "reason": "table's slip"},
        follow_redirects=False,
    )  # fmt: skip
    assert changed.status_code == 303
    assert changed.headers["location"].endswith("#tB3r1")
    with sqlite3.connect(event.event) as db:
        assert db.execute("SELECT section, board, ns, ew FROM results").fetchall() == [
            ("B", 5, "3N", "3E")
        ]
    assert "5: 1NTN+1 (+120)" in text_of(client.get("/director/results").text)


def test_the_ranking_page_ranks_each_section_apart(client: TestClient, event: Any) -> None:
    for section in "AB":
        answer = client.post(
            "/api/live/results",
            json={"round": 1, "board": 1, "contract": "4S", "declarer": "N", "result": "="},
            headers={"Authorization": f"Bearer {token(event, section, 1)}"},
        )
        assert answer.status_code == 201, answer.text
    page = text_of(client.get("/ranking").text)
    captions = re.findall(r"Section [AB], (?:North-South|East-West)", page)
    assert captions == [
        "Section A, North-South",
        "Section A, East-West",
        "Section B, North-South",
        "Section B, East-West",
    ]


def one_board_mitchell() -> Movement:
    """The 3-table Mitchell of three_table_mitchell, one board a round (boards 1-3):
    board 1 at 1N v 1E, 3N v 2E, 2N v 3E; board 2 at 2N v 2E, 1N v 3E, 3N v 1E;
    board 3 at 3N v 3E, 2N v 1E, 1N v 2E."""
    card = {
        1: [("1N", "1E", 1), ("2N", "2E", 2), ("3N", "3E", 3)],
        2: [("1N", "3E", 2), ("2N", "1E", 3), ("3N", "2E", 1)],
        3: [("1N", "2E", 3), ("2N", "3E", 1), ("3N", "1E", 2)],
    }
    rows = tuple(
        Row(round_number, table, ns, ew, (board,))
        for round_number, tables in card.items()
        for table, (ns, ew, board) in enumerate(tables, start=1)
    )
    return Movement("mitchell", 3, 3, 1, rows)


# The whole night, both sections, declarer North (section, table, round, contract,
# result); NS scores by Law 77 (board 1 none vulnerable, 2 NS, 3 EW):
#   board 1, 4S: A 1N +450, 3N +420, 2N -50;  B 1N +480, 3N +420, 2N +420
#   board 2, 3NT: A 2N +600, 1N +630, 3N -100; B 2N +630, 1N +630, 3N +600
#   board 3, 2H: A 3N +110, 2N +140, 1N +110; B 3N -50, 2N +110, 1N +140
NIGHT = [
    ("A", 1, 1, "4S", "+1"), ("A", 2, 1, "3NT", "="), ("A", 3, 1, "2H", "="),
    ("A", 1, 2, "3NT", "+1"), ("A", 2, 2, "2H", "+1"), ("A", 3, 2, "4S", "="),
    ("A", 1, 3, "2H", "="), ("A", 2, 3, "4S", "-1"), ("A", 3, 3, "3NT", "-1"),
    ("B", 1, 1, "4S", "+2"), ("B", 2, 1, "3NT", "+1"), ("B", 3, 1, "2H", "-1"),
    ("B", 1, 2, "3NT", "+1"), ("B", 2, 2, "2H", "="), ("B", 3, 2, "4S", "="),
    ("B", 1, 3, "2H", "+1"), ("B", 2, 3, "4S", "="), ("B", 3, 3, "3NT", "="),
]  # fmt: skip
# Per section: three results a board, top 4 (2 for each score beaten, 1 for a tie).
#   A b1: 1N 4, 3N 2, 2N 0 (EW 1E 0, 2E 2, 3E 4); b2: 1N 4, 2N 2, 3N 0 (3E 0, 2E 2,
#   1E 4); b3: 2N 4, 3N 1, 1N 1 (1E 0, 3E 3, 2E 3). Of 12: 1N 9 (75 %), 2N 6 (50 %),
#   3N 3 (25 %); 2E 7 and 3E 7 (58.33 %), 1E 4 (33.33 %).
#   B b1: 1N 4, 3N 1, 2N 1 (1E 0, 2E 3, 3E 3); b2: 2N 3, 1N 3, 3N 0 (2E 1, 3E 1,
#   1E 4); b3: 1N 4, 2N 2, 3N 0 (2E 0, 1E 2, 3E 4). 1N 11 (91.67 %), 2N 6 (50 %),
#   3N 1 (8.33 %); 3E 8 (66.67 %), 1E 6 (50 %), 2E 4 (33.33 %).
PER_SECTION_ROWS = {
    "Section A, North-South": [("1", "A", "1N", "9", "75.00"), ("2", "A", "2N", "6", "50.00"),
                               ("3", "A", "3N", "3", "25.00")],
    "Section A, East-West": [("1=", "A", "2E", "7", "58.33"), ("1=", "A", "3E", "7", "58.33"),
                             ("3", "A", "1E", "4", "33.33")],
    "Section B, North-South": [("1", "B", "1N", "11", "91.67"), ("2", "B", "2N", "6", "50.00"),
                               ("3", "B", "3N", "1", "8.33")],
    "Section B, East-West": [("1", "B", "3E", "8", "66.67"), ("2", "B", "1E", "6", "50.00"),
                             ("3", "B", "2E", "4", "33.33")],
}  # fmt: skip
# Across: six results a board, top 10.
#   b1: B1N +480 10, A1N +450 8, +420 (A3N, B3N, B2N) 2 + 2 = 4 each, A2N 0
#   b2: +630 (A1N, B2N, B1N) 6 + 2 = 8 each, +600 (A2N, B3N) 2 + 1 = 3, A3N 0
#   b3: +140 (A2N, B1N) 8 + 1 = 9, +110 (A3N, A1N, B2N) 2 + 2 = 4, B3N 0
#   Of 30, NS: B1N 27 (90 %), A1N 20 (66.67 %), B2N 16 (53.33 %), A2N 12 (40 %),
#   A3N 8 (26.67 %), B3N 7 (23.33 %). EW, 10 less their opponents' on each board:
#   A2E 6 + 7 + 6 = 19 (63.33 %), A3E 10 + 2 + 6 and B3E 6 + 2 + 10 = 18 (60 %),
#   A1E 2 + 10 + 1 and B1E 0 + 7 + 6 = 13 (43.33 %), B2E 6 + 2 + 1 = 9 (30 %).
ACROSS_ROWS = {
    "North-South": [("1", "B", "1N", "27", "90.00"), ("2", "A", "1N", "20", "66.67"),
                    ("3", "B", "2N", "16", "53.33"), ("4", "A", "2N", "12", "40.00"),
                    ("5", "A", "3N", "8", "26.67"), ("6", "B", "3N", "7", "23.33")],
    "East-West": [("1", "A", "2E", "19", "63.33"), ("2=", "A", "3E", "18", "60.00"),
                  ("2=", "B", "3E", "18", "60.00"), ("4=", "A", "1E", "13", "43.33"),
                  ("4=", "B", "1E", "13", "43.33"), ("6", "B", "2E", "9", "30.00")],
}  # fmt: skip


def test_the_hand_worked_nights_matchpoints_add_up() -> None:
    # Each side of a board shares half its top for each result: n results of top
    # 2 (n - 1) make n (n - 1). Per section: 2 sections, 2 sides, 3 boards, 3 results;
    # across: 2 sides, 3 boards, 6 results.
    assert sum(int(r[3]) for t in PER_SECTION_ROWS.values() for r in t) == 2 * 2 * 3 * 3 * 2
    assert sum(int(r[3]) for t in ACROSS_ROWS.values() for r in t) == 2 * 3 * 6 * 5


def site_rankings(index: str) -> dict[str, list[tuple[str, str, str, str, str]]]:
    """The results site's ranking tables by heading: (rank, section, pair, total, %),
    each row's pair linked to that section's pair's own page."""
    tables: dict[str, list[tuple[str, str, str, str, str]]] = {}
    for heading, table in re.findall(r"<h2>([^<]+)</h2><div class=\"scroll\">(.*?)</table>", index):
        rows = re.findall(
            r'<tr><td>([^<]*)</td><td>(\w)</td><td><a href="pair-(\w)-(\w+)\.html">(\w+)</a>'
            r"</td><td class=n>\d+</td><td class=n>([\d.]+)</td><td class=n>([\d.]+)</td>",
            table,
        )
        for _, section, page_section, page_pair, name, _, _ in rows:
            assert (page_section, page_pair) == (section.lower(), name.lower())
        tables[heading] = [(rank, s, name, total, pct) for rank, s, _, _, name, total, pct in rows]
    return tables


def close_night(client: TestClient, event: Any) -> None:
    for section, table, round_number, contract, result in NIGHT:
        board = one_board_mitchell().rows[(round_number - 1) * 3 + table - 1].boards[0]
        answer = client.post(
            "/api/live/results",
            json={"round": round_number, "board": board, "contract": contract,
                  "declarer": "N", "result": result},
            headers={"Authorization": f"Bearer {token(event, section, table)}"},
        )  # fmt: skip
        assert answer.status_code == 201, answer.text
    csrf = login(client, event.director_password)
    closed = client.post("/director/close", data={"csrf": csrf, "confirm": "yes"})
    assert closed.status_code == 200 and client.app.state.live.closed  # type: ignore[attr-defined]


def sorted_tables(
    rows: Mapping[str, Sequence[tuple[str, ...]]],
) -> dict[str, list[tuple[str, ...]]]:
    # Pairs tied on a rank may be listed either way round.
    return {heading: sorted(table) for heading, table in rows.items()}


def test_the_closed_nights_results_site_ranks_each_section_apart(tmp_path: Path) -> None:
    from bridgescore.web.live.app import create_live_app

    event = create_event(tmp_path / "congress.db", one_board_mitchell(), sections=2)
    with TestClient(create_live_app(event.event)) as client:
        close_night(client, event)
        index = client.get("/results/index.html")
        assert index.status_code == 200, index.text
        rankings = site_rankings(index.text)
        assert list(rankings) == list(PER_SECTION_ROWS)
        assert sorted_tables(rankings) == sorted_tables(PER_SECTION_ROWS)
        # Each section's boards have their own pages, stepping through that section's.
        board = client.get("/results/board-2-b.html")
        assert board.status_code == 200
        assert "Board 2 (section B)" in text_of(board.text)
        assert {"board-1-b.html", "board-3-b.html"} <= set(
            re.findall(r'href="([^"]+)"', board.text)
        )
        card = text_of(client.get("/results/pair-b-1n.html").text)
        assert "Pair 1N (B)" in card and "Rank 1 North-South: 91.67 % over 3 board(s)" in card
        report = client.get("/report.html")
        assert report.status_code == 200 and "Section B, East-West" in text_of(report.text)


def test_the_closed_nights_results_site_ranks_across_when_the_event_says_so(
    tmp_path: Path,
) -> None:
    from bridgescore.web.live.app import create_live_app

    event = create_event(
        tmp_path / "congress.db", one_board_mitchell(), sections=2, score_across=True
    )
    with TestClient(create_live_app(event.event)) as client:
        close_night(client, event)
        index = client.get("/results/index.html")
        assert index.status_code == 200, index.text
        rankings = site_rankings(index.text)
        assert list(rankings) == list(ACROSS_ROWS)
        assert sorted_tables(rankings) == sorted_tables(ACROSS_ROWS)
        # One traveller a board across the field, every section's pairs linked.
        board = client.get("/results/board-1.html")
        assert board.status_code == 200
        assert {"pair-a-1n.html", "pair-b-1n.html"} <= set(
            re.findall(r'href="([^"]+)"', board.text)
        )
        assert client.get("/results/board-1-a.html").status_code == 404
