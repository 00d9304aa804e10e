"""The results sites ``serve`` shows (``/results/{event}/{page}``): built once per
version of the event file, not once per page view."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from bridgescore.web import WebSettings, create_app
from bridgescore.web.results import CACHED_CHARACTERS, CACHED_SITES, SiteCache
from web_helpers import make_event

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette suggests httpx2; httpx works the same here
    from fastapi.testclient import TestClient


@pytest.fixture()
def events(tmp_path: Path) -> Path:
    directory = tmp_path / "events"
    directory.mkdir()
    make_event(directory / "tuesday.db")
    return directory


@pytest.fixture()
def client(events: Path) -> Iterator[TestClient]:
    settings = WebSettings(events=events, solver_workers=1, warm_solver=False)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def builds(client: TestClient) -> int:
    count: int = client.app.state.sites.builds  # type: ignore[attr-defined]
    return count


def test_page_views_read_the_site_built_once(client: TestClient) -> None:
    for page in ("index.html", "board-1.html", "pair-1.html", "style.css", "index.html"):
        assert client.get(f"/results/tuesday.db/{page}").status_code == 200, page
    assert builds(client) == 1
    # A page the site does not have is a 404 from the same build.
    assert client.get("/results/tuesday.db/pair-99.html").status_code == 404
    assert builds(client) == 1


def test_a_changed_event_is_built_again_once(client: TestClient, events: Path) -> None:
    from bridgescore.session.store.events import EventStore

    assert "Tuesday pairs" in client.get("/results/tuesday.db/index.html").text
    with EventStore(events / "tuesday.db", mode="write") as store:
        store.set_info(name="Wednesday pairs")
    changed = client.get("/results/tuesday.db/index.html")
    assert "Wednesday pairs" in changed.text and "Tuesday pairs" not in changed.text
    client.get("/results/tuesday.db/board-2.html")
    assert builds(client) == 2


def test_a_replaced_event_file_is_built_again(client: TestClient, events: Path) -> None:
    from bridgescore.session.store.events import EventStore

    client.get("/results/tuesday.db/index.html")
    replacement = make_event(events / ".other.db")
    with EventStore(replacement, mode="write") as store:
        store.set_info(name="Friday pairs")
    replacement.replace(events / "tuesday.db")
    assert "Friday pairs" in client.get("/results/tuesday.db/index.html").text
    assert builds(client) == 2


@pytest.mark.parametrize(
    ("size", "characters"), [(1, CACHED_CHARACTERS), (CACHED_SITES, 1)], ids=["count", "text"]
)
def test_the_cache_keeps_the_sites_its_bounds_allow(
    tmp_path: Path, size: int, characters: int
) -> None:
    first, second = make_event(tmp_path / "a.db"), make_event(tmp_path / "b.db")
    cache = SiteCache(size, characters)
    # Either bound keeps one site only: the last one built.
    for path in (first, first, second, second, first):
        assert "index.html" in cache.pages(path)
    assert cache.builds == 3
    roomy = SiteCache()
    for path in (first, second, first, second):
        roomy.pages(path)
    assert roomy.builds == 2


def test_the_served_site_lists_the_leads_without_solving(tmp_path: Path) -> None:
    # serve never runs DDS for a page view: the field's leads show, their costs blank.
    from bridgescore.deal import Card
    from bridgescore.session.scoring.event import TableResult
    from bridgescore.session.store.events import EventStore, Origin

    directory = tmp_path / "events"
    directory.mkdir()
    results = [TableResult.played(1, "1", "2", "4SN="), TableResult.played(1, "3", "4", "4SN+1")]
    with EventStore(directory / "leads.db") as store:
        store.add(
            (),
            [(result, Origin("results", n)) for n, result in enumerate(results, 1)],
            leads={results[0].key: Card.parse("HQ"), results[1].key: Card.parse("HQ")},
        )
    settings = WebSettings(events=directory, solver_workers=1, warm_solver=False)
    with TestClient(create_app(settings)) as client:
        page = client.get("/results/leads.db/board-1.html").text
    table = page.split('id="leads">', 1)[1].split("</table>", 1)[0]
    assert "<td>4S N</td><td>HQ</td><td class=n>2</td><td class=n></td>" in table
