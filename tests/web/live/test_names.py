"""The director's names page: the club's name and each player's name, one field each,
kept as one member a player (a USEBIO PLAYER each in the export)."""

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

from bridgescore.errors import MovementError, NotThisTableError
from bridgescore.notation import Result
from bridgescore.session.live.entry import ResultEntry
from bridgescore.session.live.event import LiveEvent
from live_movements import three_table_mitchell
from live_pages_helpers import csrf_of, new_event


def table_token(event: Any, section: str, table: int) -> str:
    found: str = next(t.token for t in event.tables if (t.section, t.table) == (section, table))
    return found


@pytest.fixture()
def event(tmp_path: Path) -> Any:
    return new_event(tmp_path / "club.db")


@pytest.fixture()
def client(event: Any, tmp_path: Path) -> Iterator[TestClient]:
    from bridgescore.web.live.app import create_live_app

    with TestClient(create_live_app(tmp_path / "club.db")) as test_client:
        yield test_client


def login(client: TestClient, password: str) -> str:
    form = client.get("/director")
    answer = client.post(
        "/director/login", data={"csrf": csrf_of(form.text), "password": password},
        follow_redirects=False,
    )  # fmt: skip
    assert answer.status_code == 303, answer.text
    return csrf_of(client.get("/director").text)


def test_names_page_takes_each_player_and_the_club(client: TestClient, event: Any) -> None:
    csrf = login(client, event.director_password)
    page = client.get("/director/names").text
    assert 'name="player-1N-1"' in page and 'name="player-1N-2"' in page
    assert 'name="player-1N-3"' not in page and 'name="club"' in page
    answer = client.post(
        "/director/names",
        data={"csrf": csrf, "club": " Riverside  BC ", "player-1N-1": "Ann Archer",
              "player-1N-2": " Bob  Baker", "player-2E-2": "Cate Cole"},
        follow_redirects=False,
    )  # fmt: skip
    assert answer.status_code == 303
    with LiveEvent(event.event) as live:
        players = {pair: [m.name for m in named] for pair, named in live.players().items()}
        assert players == {"1N": ["Ann Archer", "Bob Baker"], "2E": ["Cate Cole"]}
        assert live.club == "Riverside BC"
    page = client.get("/director/names").text
    assert 'value="Bob Baker"' in page and 'value="Riverside BC"' in page
    # Blank fields leave the names as they were; a changed one replaces the pair's players.
    client.post("/director/names", data={"csrf": csrf, "player-2E-1": "Dan Dale",
                                         "player-2E-2": "Cate Cole"})  # fmt: skip
    with LiveEvent(event.event) as live:
        assert [m.name for m in live.players()["2E"]] == ["Dan Dale", "Cate Cole"]
        assert [m.name for m in live.players()["1N"]] == ["Ann Archer", "Bob Baker"]


def test_a_name_too_long_is_a_422_naming_it(client: TestClient, event: Any) -> None:
    csrf = login(client, event.director_password)
    answer = client.post("/director/names", data={"csrf": csrf, "player-1N-1": "x" * 130})
    assert answer.status_code == 422
    assert "player name" in answer.text and "expected text of 1 to 120 characters" in answer.text
    with LiveEvent(event.event) as live:
        assert live.players() == {}


# --------------------------------------------------------------- two sections


@pytest.fixture()
def congress(tmp_path: Path) -> Any:
    from bridgescore.session.live.creation import create_event

    return create_event(tmp_path / "congress.db", three_table_mitchell(), sections=2)


def text_of(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page))).strip()


def test_two_sections_pairs_are_named_apart(congress: Any) -> None:
    from bridgescore.web.live.app import create_live_app

    with TestClient(create_live_app(congress.event)) as client:
        csrf = login(client, congress.director_password)
        page = client.get("/director/names").text
        # Every pair of every section, A's first, each field naming its section.
        assert re.findall(r'<legend class="pair">([^<]*)</legend>', page) == [
            f"{section} {pair}" for section in "AB" for pair in ("1N", "1E", "2N", "2E", "3N", "3E")
        ]
        assert 'name="player-A:1N-1"' in page and 'name="player-B:1N-2"' in page
        assert 'name="player-1N-1"' not in page
        answer = client.post(
            "/director/names",
            data={"csrf": csrf, "player-A:1N-1": "Ann Archer", "player-A:1N-2": "Bob Baker",
                  "player-B:1N-1": "Cate Cole", "player-B:1N-2": "Dan Dale",
                  "name-B:3E": "Eve Ellis & Fay Ford"},
            follow_redirects=False,
        )  # fmt: skip
        assert answer.status_code == 303, answer.text
        with LiveEvent(congress.event) as live:
            assert {key: [m.name for m in named] for key, named in live.players().items()} == {
                "A:1N": ["Ann Archer", "Bob Baker"],
                "B:1N": ["Cate Cole", "Dan Dale"],
                "B:3E": ["Eve Ellis", "Fay Ford"],
            }
            assert live.pair_names("A") == {"1N": "Ann Archer & Bob Baker"}
            assert live.pair_names("B") == {
                "1N": "Cate Cole & Dan Dale", "3E": "Eve Ellis & Fay Ford"
            }  # fmt: skip
            # Round 1: 1N v 1E at table 1, board 1 (+420 in A, +450 in B).
            live.enter_result("A", 1, ResultEntry(1, 1, Result.parse("4SN=")), who="table A1")
            live.enter_result("B", 1, ResultEntry(1, 1, Result.parse("4SN+1")), who="table B1")
        page = client.get("/director/names").text
        assert 'name="player-B:1N-1" value="Cate Cole"' in page
        assert 'name="player-A:1N-1" value="Ann Archer"' in page
        # Each table's page shows its own section's players.
        for section, names in (("A", "Ann Archer & Bob Baker"), ("B", "Cate Cole & Dan Dale")):
            table = TestClient(client.app)
            table.get(f"/table?token={table_token(congress, section, 1)}")
            assert f"NS 1N {names} EW 1E" in text_of(table.get("/table").text)
        results = text_of(client.get("/director/results").text)
        assert "A1 1N Ann Archer & Bob Baker 1E" in results
        assert "B1 1N Cate Cole & Dan Dale 1E" in results
        assert "1 B3 3N 3E Eve Ellis & Fay Ford 5:" in results and "1 A3 3N 3E 5:" in results
        changes = text_of(client.get("/director/changes").text)
        assert "1 A1 1N Ann Archer & Bob Baker 1E 1, 2" in changes
        assert "1 B1 1N Cate Cole & Dan Dale 1E 1, 2" in changes
        # The director's ranking (each section apart): A's 1N and B's 1N, each named.
        ranking = client.get("/ranking").text
        rows = re.findall(r'<tr data-pair="1N">(.*?)</tr>', ranking, re.S)
        assert [re.findall(r"<td[^>]*>([^<]*)</td>", row)[1:4] for row in rows] == [
            ["A", "1N", "Ann Archer &amp; Bob Baker"],
            ["B", "1N", "Cate Cole &amp; Dan Dale"],
        ]


def test_a_pair_not_in_the_named_section_is_refused(congress: Any) -> None:
    with LiveEvent(congress.event) as live:
        with pytest.raises(MovementError) as refused:
            live.set_pair_name("4N", "Nobody", "B")
        assert str(refused.value) == (
            "pair '4N' is not in section B's movement: expected one of 1N, 1E, 2N, 2E, 3N, 3E"
        )
        with pytest.raises(NotThisTableError):
            live.set_pair_name("1N", "Nobody", "C")
        assert live.players() == {}


def test_an_old_files_bare_names_show_in_every_section(congress: Any) -> None:
    # A file written before sections kept their own names holds bare labels: each
    # section's 1N reads them, until a section's own are given.
    with sqlite3.connect(congress.event) as db:
        db.execute("INSERT INTO members VALUES ('1N', 0, 'Old Name', '')")
    with LiveEvent(congress.event) as live:
        assert live.pair_names("A") == live.pair_names("B") == {"1N": "Old Name"}
        live.set_pair_name("1N", "New Name", "B")
        assert live.pair_names("A") == {"1N": "Old Name"}
        assert live.pair_names("B") == {"1N": "New Name"}


def test_a_one_section_events_names_keep_their_bare_labels(event: Any) -> None:
    with LiveEvent(event.event) as live:
        live.set_pair_name("1N", "Ann Archer & Bob Baker", "A")  # its one section, named
        live.set_pair_name("2E", "Cate Cole")
    with sqlite3.connect(event.event) as db:
        assert db.execute("SELECT participant, position, name FROM members ORDER BY 1, 2")\
            .fetchall() == [("1N", 0, "Ann Archer"), ("1N", 1, "Bob Baker"),
                            ("2E", 0, "Cate Cole")]  # fmt: skip
