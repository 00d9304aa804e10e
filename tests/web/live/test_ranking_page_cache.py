"""The public ranking page is drawn once per version of the event file.

``LiveEvent.version`` must move with every commit, whoever makes it (this server's
writer, the director, another process on the same file), and never on a read: the page
cached under it is then always the page of the file as it is.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from bridgescore.errors import RecordError
from bridgescore.notation import Result
from bridgescore.session.live.creation import create_event
from bridgescore.session.live.entry import ResultEntry
from bridgescore.session.live.event import LiveEvent
from bridgescore.session.store.live import LiveStore
from bridgescore.web.live.app import create_live_app
from live_movements import three_table_mitchell

# Round 1 at table 1 plays boards 1-2 (tests/live_movements.py).
FOUR_SPADES_MADE = ResultEntry(1, 1, Result.parse("4SN="))
FOUR_SPADES_PLUS_ONE = ResultEntry(1, 1, Result.parse("4SN+1"))


def test_the_version_moves_with_every_commit_and_only_then(tmp_path: Path) -> None:
    path = tmp_path / "club.db"
    create_event(path, three_table_mitchell(), name="Club")
    with LiveEvent(path) as live:
        start = live.version()
        live.ranking()
        live.table_view("A", 1)
        live.progress()
        live.played_boards()
        assert live.version() == start  # reading commits nothing

        live.enter_result("A", 1, FOUR_SPADES_MADE, who="table 1")
        entered = live.version()
        assert entered != start

        live.correct_result("A", 1, FOUR_SPADES_PLUS_ONE, reason="the claim")
        corrected = live.version()
        assert corrected != entered

        # Another connection (as another process would): the version sees it too.
        with LiveStore(path, mode="write") as other:
            other.set_flags(ranking_hidden=True)
        assert live.version() != corrected
    with pytest.raises(RecordError, match="closed"):
        live.version()


def test_the_public_page_follows_changes_made_outside_the_server(tmp_path: Path) -> None:
    path = tmp_path / "club.db"
    create_event(path, three_table_mitchell(), name="Club")
    with TestClient(create_live_app(path)) as client:
        empty = client.get("/ranking")
        assert empty.status_code == 200
        assert 'id="no-results"' in empty.text
        assert client.get("/ranking").content == empty.content  # the same drawing

        # A result and then the ranking hidden, each committed by another connection.
        with LiveEvent(path) as other:
            other.enter_result("A", 1, FOUR_SPADES_MADE, who="table 1")
        ranked = client.get("/ranking").text
        assert 'id="no-results"' not in ranked and 'id="ranking"' in ranked
        with LiveStore(path, mode="write") as other_store:
            other_store.set_flags(ranking_hidden=True)
        hidden = client.get("/ranking").text
        assert 'id="hidden"' in hidden and 'id="ranking"' not in hidden


def test_the_results_site_after_the_close_follows_the_directors_changes(tmp_path: Path) -> None:
    from bridgescore.session.reports.site import results_site

    path = tmp_path / "club.db"
    create_event(path, three_table_mitchell(), name="Club")
    with LiveEvent(path) as live:
        # Board 1 at two tables (table 3 plays it in round 2): 4S= (+420) beats 3NT= (+400).
        live.enter_result("A", 1, FOUR_SPADES_MADE, who="table 1")
        live.correct_result("A", 3, ResultEntry(2, 1, Result.parse("3NTS=")))
        live.close_session()
    with TestClient(create_live_app(path)) as client:
        first = client.get("/results/index.html")
        assert first.status_code == 200
        assert client.get("/results/index.html").text == first.text

        # After the close, from another connection, the director makes 4S one down (-50):
        # now 3NT= wins the board, and the ranking turns round.
        with LiveEvent(path) as other:
            other.correct_result("A", 1, ResultEntry(1, 1, Result.parse("4SN-1")), reason="revoke")
            expected = results_site(other.public_score())["index.html"]
        after = client.get("/results/index.html").text
        assert after == expected
        assert after != first.text
