"""Nothing lost that cannot be replaced: a table's link, the director password, a copy
of the event, a closed session (session/live/recovery.py, cli/session/night.py).

Each is done while the live app holds the event open, as ``session live`` would, so
the server must see the change at once: the old token or password is refused on the
very next request.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from bridgescore.cli.app import app as cli_app
from bridgescore.errors import NotThisTableError, RecordError
from bridgescore.session.live.creation import NewEvent, create_event
from bridgescore.session.live.recovery import backup_event, reissue_table, reset_director_password
from bridgescore.session.reports.cards import write_cards
from bridgescore.session.store.events import EventStore
from bridgescore.web.live.app import create_live_app
from live_pages_helpers import csrf_of
from live_serving import THREE_TABLES

runner = CliRunner()


@pytest.fixture
def event(tmp_path: Path) -> tuple[Path, NewEvent]:
    path = tmp_path / "club.db"
    return path, create_event(
        path, THREE_TABLES, name="Tuesday pairs", url_base="https://club.example"
    )


@pytest.fixture
def client(event: tuple[Path, NewEvent]) -> Iterator[TestClient]:
    with TestClient(create_live_app(event[0])) as test_client:
        yield test_client


def token(event: tuple[Path, NewEvent], table: int) -> str:
    return next(access.token for access in event[1].tables if access.table == table)


def table_answer(client: TestClient, value: str) -> int:
    return client.get("/api/live/table", headers={"Authorization": f"Bearer {value}"}).status_code


def cli(*words: str) -> Any:
    return runner.invoke(cli_app, list(words))


# -- a table's lost link -------------------------------------------------------------------


def test_a_reissued_link_replaces_the_old_one_at_once(
    client: TestClient, event: tuple[Path, NewEvent]
) -> None:
    old = token(event, 2)
    assert table_answer(client, old) == 200
    result = cli("session", "reissue", str(event[0]), "--table", "2", "--json")
    assert result.exit_code == 0, result.output
    made = json.loads(result.output)
    assert set(made) == {"section", "table", "token", "url"}
    assert (made["section"], made["table"]) == ("A", 2)
    # The link is on the base session new was given, with the new token.
    assert made["url"] == f"https://club.example/table?token={made['token']}"
    assert made["token"] != old and len(made["token"]) >= 43  # 256 bits, URL-safe base64
    # The running app refuses the old token on the next request and takes the new one.
    assert table_answer(client, old) == 401
    assert table_answer(client, made["token"]) == 200
    view = client.get("/api/live/table", headers={"Authorization": f"Bearer {made['token']}"})
    assert view.json()["table"] == 2
    # The other tables' links are untouched.
    assert table_answer(client, token(event, 1)) == 200
    assert table_answer(client, token(event, 3)) == 200


def test_the_old_table_page_cookie_is_refused_after_a_reissue(
    client: TestClient, event: tuple[Path, NewEvent]
) -> None:
    client.get(f"/table?token={token(event, 1)}")
    assert client.get("/table").status_code == 200
    reissue_table(event[0], 1)
    assert client.get("/table").status_code == 401


def test_a_reissue_is_in_the_audit_log_with_who(event: tuple[Path, NewEvent]) -> None:
    reissue_table(event[0], 3)
    with EventStore(event[0], mode="read") as store:
        (entry,) = store.audit_log()
    assert (entry.action, entry.who, entry.board, entry.section) == (
        "reissue",
        "director (command line)",
        0,
        "A",
    )
    assert entry.new == "table 3: new link"
    assert str(entry).endswith("reissue by director (command line): section A table 3: new link")


def test_a_table_or_section_the_movement_lacks_is_refused(event: tuple[Path, NewEvent]) -> None:
    with pytest.raises(NotThisTableError, match="table 4 plays no round in this movement"):
        reissue_table(event[0], 4)
    with pytest.raises(NotThisTableError, match="section 'B' is not this event's"):
        reissue_table(event[0], 1, section="B")
    result = cli("session", "reissue", str(event[0]), "--table", "9")
    assert result.exit_code == 1
    assert "table 9 plays no round in this movement: expected one of 1, 2, 3" in result.output
    # Nothing changed: every old link still works.
    with TestClient(create_live_app(event[0])) as client:
        for table in (1, 2, 3):
            assert table_answer(client, token(event, table)) == 200


def test_reissue_of_a_file_that_is_no_event_is_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "nothing.db"
    result = cli("session", "reissue", str(missing), "--table", "1")
    assert result.exit_code == 1
    assert "is not an event file" in result.output
    imported = tmp_path / "imported.db"
    EventStore(imported, mode="create").close()
    with pytest.raises(RecordError, match="has no movement"):
        reissue_table(imported, 1)


def test_the_url_base_may_be_given_again(event: tuple[Path, NewEvent]) -> None:
    made = reissue_table(event[0], 1, url_base="http://192.0.2.7:8080/")
    assert made.url == f"http://192.0.2.7:8080/table?token={made.token}"
    with pytest.raises(RecordError, match="is not a web address"):
        reissue_table(event[0], 1, url_base="club night")


def test_one_table_card_carries_the_new_link(event: tuple[Path, NewEvent], tmp_path: Path) -> None:
    made = reissue_table(event[0], 2)
    page = tmp_path / "card.html"
    write_cards(THREE_TABLES, html=page, event="Tuesday pairs", links={("A", 2): made.url}, table=2)
    text = page.read_text(encoding="utf-8")
    assert 'id="table-2"' in text and 'id="table-1"' not in text and 'id="table-3"' not in text
    assert made.url in text and "<svg" in text  # the link, printed and as a QR code
    assert "Guide cards" not in text


# -- the director's lost password ----------------------------------------------------------


def test_a_new_password_replaces_the_old_and_ends_every_login(
    client: TestClient, event: tuple[Path, NewEvent]
) -> None:
    old = event[1].director_password
    login = client.post("/api/live/director/login", json={"password": old})
    assert login.status_code == 200
    director = {"Authorization": f"Bearer {login.json()['token']}"}
    assert client.get("/api/live/audit", headers=director).status_code == 200

    result = cli("session", "password", str(event[0]), "--json")
    assert result.exit_code == 0, result.output
    new = json.loads(result.output)
    assert list(new) == ["director_password"] and new["director_password"] != old

    assert client.post("/api/live/director/login", json={"password": old}).status_code == 401
    assert client.get("/api/live/audit", headers=director).status_code == 401
    again = client.post("/api/live/director/login", json={"password": new["director_password"]})
    assert again.status_code == 200


def test_a_new_password_is_logged_and_never_stored_in_clear(event: tuple[Path, NewEvent]) -> None:
    password = reset_director_password(event[0])
    with EventStore(event[0], mode="read") as store:
        (entry,) = store.audit_log()
    assert (entry.action, entry.new, entry.who) == (
        "password",
        "new director password",
        "director (command line)",
    )
    assert password.encode() not in event[0].read_bytes()


# -- a copy while the server runs ----------------------------------------------------------


def _enter_round_one(client: TestClient, event: tuple[Path, NewEvent]) -> None:
    for table in (1, 2, 3):
        for board in (2 * table - 1, 2 * table):
            answer = client.post(
                "/api/live/results",
                json={
                    "round": 1,
                    "board": board,
                    "contract": "3NT",
                    "declarer": "N",
                    "result": "=",
                },
                headers={"Authorization": f"Bearer {token(event, table)}"},
            )
            assert answer.status_code == 201, answer.text


def _rows(path: Path) -> list[tuple[Any, ...]]:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT * FROM results ORDER BY section, board, ns, ew").fetchall()
    finally:
        db.close()


def test_a_backup_while_live_holds_every_result_in_one_file(
    client: TestClient, event: tuple[Path, NewEvent], tmp_path: Path
) -> None:
    _enter_round_one(client, event)
    # The live app's connection is still open: its results are in the -wal file.
    assert Path(f"{event[0]}-wal").stat().st_size > 0
    out = tmp_path / "copies" / "club-copy.db"
    out.parent.mkdir()
    result = cli("session", "backup", str(event[0]), str(out))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.parent.iterdir()) == ["club-copy.db"]  # no -wal needed
    # Six results, 3NT= by N (Law 77: 100 trick points + 300 game, or 500 vulnerable):
    # NS vulnerable on boards 2, 4 and 5 (+600), not on 1, 3 and 6 (+400).
    with EventStore(out, mode="read") as copy:
        scores = sorted((r.board, r.ns_score()) for r in copy.results())
        assert copy.movement == THREE_TABLES and copy.name == "Tuesday pairs"
    assert scores == [(1, 400), (2, 600), (3, 400), (4, 600), (5, 600), (6, 400)]
    assert _rows(out) == _rows(event[0])


def test_a_backup_never_overwrites(event: tuple[Path, NewEvent], tmp_path: Path) -> None:
    out = tmp_path / "taken.db"
    out.write_text("keep me")
    result = cli("session", "backup", str(event[0]), str(out))
    assert result.exit_code == 2
    assert "already exists: a backup never overwrites a file" in result.output
    assert out.read_text() == "keep me"
    with pytest.raises(RecordError, match="already exists"):
        backup_event(event[0], out)


def test_a_backup_of_something_else_is_refused(tmp_path: Path) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database at all, just some words " * 20)
    with pytest.raises(RecordError, match="is not a bridgescore event file"):
        backup_event(junk, tmp_path / "copy.db")
    assert not (tmp_path / "copy.db").exists()


def test_a_plain_copy_can_miss_what_the_backup_keeps(
    client: TestClient, event: tuple[Path, NewEvent], tmp_path: Path
) -> None:
    """Why the docs say a plain copy is unsafe while live: the main file alone, copied
    while the server holds the results in its write-ahead log, has none of them."""
    _enter_round_one(client, event)
    plain = tmp_path / "plain.db"
    shutil.copyfile(event[0], plain)
    backed = tmp_path / "backed.db"
    backup_event(event[0], backed)
    assert len(_rows(backed)) == 6
    assert len(_rows(plain)) < 6


# -- a closed session reopened ------------------------------------------------------------


def test_the_director_reopens_a_closed_session_with_a_reason(
    client: TestClient, event: tuple[Path, NewEvent]
) -> None:
    form = client.get("/director")
    client.post(
        "/director/login",
        data={"csrf": csrf_of(form.text), "password": event[1].director_password},
    )
    csrf = csrf_of(client.get("/director").text)
    client.post("/director/close", data={"csrf": csrf, "confirm": "yes"})
    live = client.app.state.live  # type: ignore[attr-defined]
    assert live.closed
    page = client.get("/director").text
    assert 'action="/director/reopen"' in page
    # A forged form (no CSRF token) changes nothing.
    assert client.post("/director/reopen", data={"reason": "x"}).status_code == 403
    assert live.closed
    answer = client.post(
        "/director/reopen", data={"csrf": csrf, "reason": "table 3 had not finished"}
    )
    assert answer.status_code == 200
    assert not live.closed
    entry = live.audit()[-1]
    assert (entry.action, entry.who, entry.reason, entry.new) == (
        "reopen",
        "director",
        "table 3 had not finished",
        "session reopened",
    )
    # Tables may enter again.
    posted = client.post(
        "/api/live/results",
        json={"round": 1, "board": 1, "contract": "4S", "declarer": "N", "result": "+1"},
        headers={"Authorization": f"Bearer {token(event, 1)}"},
    )
    assert posted.status_code == 201, posted.text
    assert posted.json() == {"score_ns": 450}  # board 1, none vulnerable: 120 + 30 + 300


def test_reopening_an_open_session_logs_nothing(event: tuple[Path, NewEvent]) -> None:
    from bridgescore.session.live.event import LiveEvent

    with LiveEvent(event[0]) as live:
        assert live.reopen_session(reason="nothing to do") is False
        assert live.audit() == ()
