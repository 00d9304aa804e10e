"""The live pages of an event of two sections (the 3-table Mitchell of
tests/live_movements.py in sections A and B): the table page names its section, the
director's pages list every section's tables as A1 ... B3, and the director's form
changes the result of the section it names.
"""

from __future__ import annotations

import html
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("multipart", reason="python-multipart is not installed (pip install '.[web]')")

from fastapi.testclient import TestClient

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
