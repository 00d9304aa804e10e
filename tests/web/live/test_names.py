"""The director's names page: the club's name and each player's name, one field each,
kept as one member a player (a USEBIO PLAYER each in the export)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("multipart", reason="python-multipart is not installed (pip install '.[web]')")

from fastapi.testclient import TestClient

from bridgescore.session.live.event import LiveEvent
from live_pages_helpers import csrf_of, new_event


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
