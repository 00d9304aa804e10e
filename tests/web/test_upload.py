"""Uploading a session file to the web app, and its results pages (FastAPI TestClient)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("multipart", reason="python-multipart is not installed (pip install '.[web]')")

from fastapi.testclient import TestClient

from bridgescore.web import WebSettings, create_app
from web_helpers import NS_MATCHPOINTS

DATA = Path(__file__).parents[1] / "data"
SESSION = (DATA / "session_upload.pbn").read_bytes()


@pytest.fixture()
def events(tmp_path: Path) -> Path:
    return tmp_path / "events"


@pytest.fixture()
def client(events: Path) -> Iterator[TestClient]:
    settings = WebSettings(events=events, solver_workers=1, warm_solver=False, max_upload=4096)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def upload(client: TestClient, filename: str, data: bytes, **form: str) -> Any:
    return client.post("/upload", files={"file": (filename, data)}, data=form)


def test_upload_stores_under_a_server_chosen_name(client: TestClient, events: Path) -> None:
    response = upload(client, "../../etc/passwd.pbn", SESSION, name="Tuesday <pairs>")
    assert response.status_code == 200, response.text
    stored = [path.name for path in events.iterdir()]
    assert len(stored) == 1 and re.fullmatch(r"upload-\d{8}-\d{6}-[0-9a-f]{8}\.db", stored[0])
    page = response.text
    assert "Stored 9 result(s) and 3 hand record(s)" in page
    link = re.search(r'href="(/results/[^"]+/index\.html)"', page)
    assert link is not None and stored[0] in link[1]
    index = client.get(link[1])
    assert index.status_code == 200 and "Tuesday &lt;pairs&gt;" in index.text
    assert index.headers["content-security-policy"].startswith("default-src 'self'")
    # Matchpoints as worked by hand in tests/web_helpers.py.
    for pair, total in NS_MATCHPOINTS.items():
        assert re.search(rf'pair-{pair}\.html">{pair}</a></td><td class=n>3</td>'
                         rf"<td class=n>{total}</td>", index.text)  # fmt: skip
    base = link[1].rsplit("/", 1)[0]
    board = client.get(f"{base}/board-1.html")
    assert board.status_code == 200 and "Hand record" in board.text and 'class="dd"' in board.text
    css = client.get(f"{base}/style.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")


def test_bad_uploads_are_refused_with_reasons(client: TestClient, events: Path) -> None:
    too_big = upload(client, "big.pbn", b"%" * 5000)
    assert too_big.status_code == 413
    assert "limit is 4096 bytes" in too_big.text
    nothing = upload(client, "results.csv", b"board,ns,ew,score\n1,1,2,+4x20\n")
    assert nothing.status_code == 422
    assert "holds no results" in nothing.text and "line 2" in nothing.text
    binary = upload(client, "x.pbn", b"\xff\xfe\x00garbage")
    assert binary.status_code == 422 and "not UTF-8" in binary.text
    kind = upload(client, "s.pbn", SESSION, kind="rubber")
    assert kind.status_code == 422 and "pairs or teams" in kind.text
    assert not events.exists() or list(events.iterdir()) == []


def test_results_only_for_listed_events_and_pages(client: TestClient, events: Path) -> None:
    assert client.get("/results/nothing.db/index.html").status_code == 404
    upload(client, "s.pbn", SESSION)
    (name,) = [path.name for path in events.iterdir()]
    assert client.get(f"/results/{name}/index.html").status_code == 200
    assert client.get(f"/results/{name}/secret.html").status_code == 404
    assert client.get(f"/results/{name}/..%2F..%2Fetc%2Fpasswd").status_code == 404


def test_without_an_events_directory_uploads_are_refused() -> None:
    with TestClient(create_app(WebSettings(solver_workers=1, warm_solver=False))) as client:
        assert "No events directory" in client.get("/upload").text
        assert upload(client, "s.pbn", SESSION).status_code == 400


def test_missing_tables_are_solved_once_and_kept(client: TestClient, events: Path) -> None:
    pytest.importorskip("endplay")
    from bridgescore.session.store.events import EventStore

    # The session file without its DoubleDummyTricks tags: the server solves them.
    text = b"\n".join(
        line for line in SESSION.splitlines() if not line.startswith(b"[DoubleDummyTricks")
    )
    response = upload(client, "no-dd.pbn", text)
    assert response.status_code == 200, response.text
    (path,) = events.iterdir()
    with EventStore(path) as store:
        tables = {number: str(board.dd_table) for number, board in store.boards().items()}
    first_three = [line for line in SESSION.decode().splitlines() if "DoubleDummyTricks" in line]
    expected = [line.split('"')[1] for line in first_three]
    assert [tables[n] for n in (1, 2, 3)] == expected


def _stored_name(events: Path) -> str:
    from bridgescore.session.store.events import EventStore

    (path,) = events.iterdir()
    with EventStore(path, mode="read") as store:
        return store.name


def test_an_upload_takes_the_name_its_pbn_file_gives(client: TestClient, events: Path) -> None:
    # session_upload.pbn's games carry [Event "Upload test pairs"]; the form names none.
    response = upload(client, "tuesday.pbn", SESSION)
    assert response.status_code == 200, response.text
    assert _stored_name(events) == "Upload test pairs"
    assert '<strong id="event-name">Upload test pairs</strong>' in response.text
    link = re.search(r'href="(/results/[^"]+/index\.html)"', response.text)
    assert link is not None
    index = client.get(link[1]).text
    assert "<title>Upload test pairs – matchpoints</title>" in index
    assert "<h1>Upload test pairs – matchpoints</h1>" in index


def test_the_form_name_wins_over_the_file_name(client: TestClient, events: Path) -> None:
    response = upload(client, "tuesday.pbn", SESSION, name="  Club night  ")
    assert response.status_code == 200, response.text
    assert _stored_name(events) == "Club night"


def test_an_upload_no_file_names_is_named_by_its_file_name(
    client: TestClient, events: Path
) -> None:
    # A CSV traveller file has no place for an event name.
    response = upload(client, "thursday-club.csv", (DATA / "session_mitchell.csv").read_bytes())
    assert response.status_code == 200, response.text
    assert _stored_name(events) == "thursday-club"
    assert '<strong id="event-name">thursday-club</strong>' in response.text


@pytest.mark.parametrize(
    ("path", "results", "boards", "kind", "method", "name"),
    [
        # Both rooms of boards 5 and 6 of the vugraph match: a teams match scored by IMPs,
        # named by its vg header's title.
        (DATA / "formats" / "vugraph.lin", 4, 2, "teams", "imps", "Autumn Cup"),
        (DATA / "usebio_teams.xml", None, None, "teams", "imps", "Thursday Teams"),
    ],
)
def test_lin_and_usebio_uploads_are_read_by_content(
    events: Path,
    path: Path,
    results: int | None,
    boards: int | None,
    kind: str,
    method: str | None,
    name: str,
) -> None:
    from bridgescore.session.store.events import EventStore

    settings = WebSettings(events=events, solver_workers=1, warm_solver=False, max_upload=65536)
    with TestClient(create_app(settings)) as big:
        # A name that says nothing: the content tells the format.
        response = upload(big, "session", path.read_bytes(), kind="pairs")
    assert response.status_code == 200, response.text
    (stored,) = list(events.iterdir())
    with EventStore(stored) as store:
        event = store.load()
        assert event.kind == kind
        # Named by the file's contents, not by the upload's name ("session").
        assert store.name == name
        if method is not None:
            assert store.method == method
    if results is not None:
        assert f"Stored {results} result(s) and {boards} hand record(s)" in response.text
        assert len(event.results) == results and sorted(event.boards) == [5, 6]
    else:
        # Every traveller line of the file, counted here from the XML itself.
        lines = path.read_text(encoding="utf-8").count("<TRAVELLER_LINE>")
        assert len(event.results) == lines and f"Stored {lines} result(s)" in response.text
