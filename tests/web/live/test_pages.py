"""The live session's HTML pages through the real app (FastAPI TestClient): the table
page, the director's pages, the public ranking; cookies, CSRF and error pages.

Scores are Law 77's, worked by hand in the comments; the movement is the hand-written
Mitchell of tests/live_movements.py.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("multipart", reason="python-multipart is not installed (pip install '.[web]')")

from fastapi.testclient import TestClient

from live_movements import not_played_before
from live_pages_helpers import csrf_of, new_event, token_of

# Board 1, nobody vulnerable: 4S by N making 11 tricks: 4 x 30 + 30 + 300 (game) = +450.
FOUR_SPADES_PLUS_ONE = {"level": "4", "strain": "S", "doubling": "", "declarer": "N",
                        "result": "+1"}  # fmt: skip


@pytest.fixture()
def event(tmp_path: Path) -> Any:
    return new_event(tmp_path / "club.db")


def client_for(path: Path, base_url: str = "http://testserver", **settings: Any) -> TestClient:
    from bridgescore.web.live.app import LiveSettings, create_live_app

    app = create_live_app(path, settings=LiveSettings(**settings))
    return TestClient(app, base_url=base_url)


@pytest.fixture()
def client(event: Any, tmp_path: Path) -> Iterator[TestClient]:
    with client_for(tmp_path / "club.db") as test_client:
        yield test_client


def table_client(client: TestClient, event: Any, table: int) -> str:
    """Open a table's card link in ``client``; the CSRF token of its page."""
    client.get(f"/table?token={token_of(event, table)}")
    page = client.get("/table")
    assert page.status_code == 200, page.text
    return csrf_of(page.text)


def cookie_header(response: Any, name: str) -> str:
    found = [h for h in response.headers.get_list("set-cookie") if h.startswith(name + "=")]
    assert len(found) == 1, response.headers.get_list("set-cookie")
    return str(found[0])


def login(client: TestClient, password: str) -> str:
    """Log the director in; the CSRF token of the director's pages."""
    form = client.get("/director")
    answer = client.post(
        "/director/login", data={"csrf": csrf_of(form.text), "password": password},
        follow_redirects=False,
    )  # fmt: skip
    assert answer.status_code == 303, answer.text
    return csrf_of(client.get("/director").text)


def text_of(page: str) -> str:
    """A page's text as a reader sees it: no tags, entities decoded, spaces collapsed."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page))).strip()


def stored(client: TestClient) -> list[tuple[int, int, int, str, int | None]]:
    """Every stored result as (table, round, board, result, NS score), from the tables' views."""
    live = client.app.state.live
    return [
        (table, r.round, item.board, item.result, item.score_ns)
        for table in (1, 2, 3)
        for r in live.table_view("A", table).rounds
        for item in r.results
    ]


# --------------------------------------------------------------------- the card link


def test_card_link_sets_a_strict_httponly_cookie_and_drops_the_token(
    client: TestClient, event: Any
) -> None:
    token = token_of(event, 1)
    answer = client.get(f"/table?token={token}")
    assert answer.status_code == 200
    cookie = cookie_header(answer, "bridgescore_table")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # plain HTTP on the club's laptop: a Secure cookie is never sent
    # The page moves on to /table, without the token in the address.
    assert '<meta http-equiv="refresh" content="0; url=/table">' in answer.text
    assert token not in answer.text
    assert answer.headers["referrer-policy"] == "no-referrer"
    page = client.get("/table")
    assert page.status_code == 200 and "<h1>Table 1</h1>" in page.text
    assert token not in page.text


def test_cookies_are_secure_over_https(event: Any, tmp_path: Path) -> None:
    # Behind a reverse proxy with HTTPS, uvicorn takes the scheme from X-Forwarded-Proto.
    with client_for(tmp_path / "club.db", base_url="https://club.example") as secure:
        answer = secure.get(f"/table?token={token_of(event, 2)}")
        assert "Secure" in cookie_header(answer, "bridgescore_table")
        form = secure.get("/director")
        assert "Secure" in cookie_header(form, "bridgescore_login")
        answer = secure.post(
            "/director/login",
            data={"csrf": csrf_of(form.text), "password": event.director_password},
            follow_redirects=False,
        )
        cookie = cookie_header(answer, "bridgescore_director")
        assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie


def test_pages_send_their_security_headers_and_no_script(client: TestClient) -> None:
    for path in ("/table", "/director", "/ranking"):
        answer = client.get(path)
        assert "script-src 'none'" in answer.headers["content-security-policy"]
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["cache-control"] == "no-store"
        assert "<script" not in answer.text
    style = client.get("/live/style.css")
    assert style.status_code == 200 and style.headers["content-type"].startswith("text/css")


@pytest.mark.parametrize("query", ["?token=forged-token", "?token=", ""])
def test_bad_or_missing_token_is_a_401_page_saying_scan_again(
    client: TestClient, query: str
) -> None:
    answer = client.get("/table" + query)
    assert answer.status_code == 401
    assert answer.headers["content-type"].startswith("text/html")
    assert "Scan the QR code on your table's card again" in text_of(answer.text)


def test_a_forged_cookie_is_refused(client: TestClient) -> None:
    client.cookies.set("bridgescore_table", "not-a-token")
    assert client.get("/table").status_code == 401
    answer = client.post("/table/result", data={"csrf": "x", "round": "1", "board": "1"})
    assert answer.status_code == 401


# --------------------------------------------------------------------- entering a board


def test_round_one_shows_pairs_boards_and_a_form_per_board(client: TestClient, event: Any) -> None:
    table_client(client, event, 2)
    page = text_of(client.get("/table").text)
    assert "Round 1 of 3" in page
    assert "NS 2N EW 2E Boards 3, 4" in page
    html = client.get("/table").text
    assert 'id="board-3"' in html and 'id="board-4"' in html


def test_the_score_is_shown_for_confirmation_before_it_is_stored(
    client: TestClient, event: Any
) -> None:
    csrf = table_client(client, event, 1)
    form = {"csrf": csrf, "round": "1", "board": "1", **FOUR_SPADES_PLUS_ONE}
    check = client.post("/table/check", data=form)
    assert check.status_code == 200
    assert 'id="score">NS +450<' in check.text
    assert "4♠ by N, made +1" in check.text
    # Nothing is stored until the opponents confirm.
    assert stored(client) == []
    answer = client.post("/table/result", data=form, follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/table?saved=1"
    assert "Board 1 is entered." in client.get(answer.headers["location"]).text
    assert stored(client) == [(1, 1, 1, "4SN+1", 450)]
    (traveller,) = client.app.state.live.report().as_dict()["travellers"]
    (line,) = traveller["results"]
    assert (line["ns"], line["ew"], line["ns_score"]) == ("1N", "1E", 450)


def test_change_goes_back_to_the_form_filled_in(client: TestClient, event: Any) -> None:
    csrf = table_client(client, event, 1)
    form = {"csrf": csrf, "round": "1", "board": "1", **FOUR_SPADES_PLUS_ONE, "action": "change"}
    page = client.post("/table/check", data=form).text
    board = page[page.index('id="board-1"') : page.index('id="board-2"')]
    assert 'name="level" value="4" checked' in board
    assert 'name="strain" value="S" checked' in board
    assert '<option value="+1" selected>' in board


def test_passed_out_board(client: TestClient, event: Any) -> None:
    csrf = table_client(client, event, 1)
    form = {"csrf": csrf, "round": "1", "board": "2", "level": "PASS"}
    check = client.post("/table/check", data=form)
    assert 'id="score">0<' in check.text and "passed out" in check.text
    assert client.post("/table/result", data=form, follow_redirects=False).status_code == 303


def test_a_board_entered_twice_says_ask_the_director(client: TestClient, event: Any) -> None:
    csrf = table_client(client, event, 1)
    form = {"csrf": csrf, "round": "1", "board": "1", **FOUR_SPADES_PLUS_ONE}
    client.post("/table/result", data=form)
    again = client.post("/table/result", data={**form, "result": "-1"})
    assert again.status_code == 409
    assert "Only the director can change a result: ask the director." in again.text
    assert stored(client) == [(1, 1, 1, "4SN+1", 450)]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        # 7NT needs all 13 tricks: there is no overtrick.
        ({"level": "7", "strain": "NT", "declarer": "S", "result": "+1"}, "7NT"),
        ({"level": "4", "strain": "S", "declarer": "", "result": "="}, "declarer"),
        ({"level": "4", "strain": "Z", "declarer": "N", "result": "="}, "strain 'Z'"),
        ({"level": "9", "strain": "S", "declarer": "N", "result": "="}, "level '9'"),
        ({"level": "3", "strain": "NT", "declarer": "N", "result": ""}, "result ''"),
    ],
)
def test_impossible_or_incomplete_results_are_422_with_a_message(
    client: TestClient, event: Any, fields: dict[str, str], message: str
) -> None:
    csrf = table_client(client, event, 1)
    answer = client.post("/table/check", data={"csrf": csrf, "round": "1", "board": "1", **fields})
    assert answer.status_code == 422
    error = re.search(r'id="error">([^<]*)<', answer.text)
    assert error is not None and message in error[1].replace("&#39;", "'")


def test_another_tables_board_is_403(client: TestClient, event: Any) -> None:
    csrf = table_client(client, event, 1)
    # Board 3 is table 2's in round 1 (table 1 plays it in round 2).
    form = {"csrf": csrf, "round": "1", "board": "3", **FOUR_SPADES_PLUS_ONE}
    assert client.post("/table/result", data=form).status_code == 403
    assert stored(client) == []


def test_after_the_round_the_page_says_where_to_move(client: TestClient, event: Any) -> None:
    csrf = table_client(client, event, 1)
    for board in ("1", "2"):
        client.post("/table/result", data={"csrf": csrf, "round": "1", "board": board,
                                            **FOUR_SPADES_PLUS_ONE})  # fmt: skip
    page = text_of(client.get("/table").text)
    # The Mitchell rule: NS stays, EW moves up a table, boards go down a table (1 -> 3).
    assert "After round 1: move" in page
    assert "NS pair 1N: stay at table 1, NS" in page
    assert "EW pair 1E: go to table 2, EW" in page
    assert "Boards 1, 2: pass them to table 3" in page
    assert "Round 2 of 3" in page and "NS 1N EW 3E Boards 3, 4" in page


def test_table_forms_need_the_csrf_token(client: TestClient, event: Any) -> None:
    table_client(client, event, 1)
    form = {"round": "1", "board": "1", **FOUR_SPADES_PLUS_ONE}
    assert client.post("/table/result", data=form).status_code == 403
    assert client.post("/table/result", data={**form, "csrf": "0" * 64}).status_code == 403
    assert client.post("/table/check", data=form).status_code == 403
    # Another table's token is not this table's.
    other = TestClient(client.app)
    other_csrf = table_client(other, event, 2)
    assert client.post("/table/result", data={**form, "csrf": other_csrf}).status_code == 403
    assert stored(client) == []


# --------------------------------------------------------------------- the director


def test_director_login_cookie_and_wrong_password(client: TestClient, event: Any) -> None:
    form = client.get("/director")
    assert 'type="password"' in form.text
    wrong = client.post("/director/login", data={"csrf": csrf_of(form.text), "password": "no"})
    assert wrong.status_code == 401 and "Wrong password." in wrong.text
    form = client.get("/director")
    right = client.post(
        "/director/login",
        data={"csrf": csrf_of(form.text), "password": event.director_password},
        follow_redirects=False,
    )
    assert right.status_code == 303
    cookie = cookie_header(right, "bridgescore_director")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert event.director_password not in right.headers.get("set-cookie", "")
    assert 'id="progress"' in client.get("/director").text


def test_logout_ends_the_login(client: TestClient, event: Any) -> None:
    csrf = login(client, event.director_password)
    token = client.cookies["bridgescore_director"]
    answer = client.post("/director/logout", data={"csrf": csrf}, follow_redirects=False)
    assert answer.status_code == 303
    # The old token is refused even when a copy of the cookie is sent again.
    again = TestClient(client.app)
    again.cookies.set("bridgescore_director", token)
    assert 'type="password"' in again.get("/director").text
    assert again.post("/director/close", data={"csrf": csrf, "confirm": "yes"}).status_code == 401
    assert not client.app.state.live.closed


def test_login_form_needs_its_csrf_token(client: TestClient, event: Any) -> None:
    client.get("/director")
    answer = client.post("/director/login", data={"password": event.director_password})
    assert answer.status_code == 403
    assert "bridgescore_director" not in client.cookies


def test_password_guessing_through_the_form_is_throttled(event: Any, tmp_path: Path) -> None:
    with client_for(tmp_path / "club.db", login_failures=3, clock=lambda: 0.0) as guesser:
        for _ in range(3):
            form = guesser.get("/director")
            answer = guesser.post(
                "/director/login", data={"csrf": csrf_of(form.text), "password": "guess"}
            )
            assert answer.status_code == 401
        form = guesser.get("/director")
        answer = guesser.post(
            "/director/login",
            data={"csrf": csrf_of(form.text), "password": event.director_password},
        )
        assert answer.status_code == 429 and "Too many wrong passwords" in answer.text


def test_director_pages_need_a_login(client: TestClient) -> None:
    for path in ("/director", "/director/results", "/director/names", "/director/audit"):
        answer = client.get(path)
        assert answer.status_code == 200 and 'type="password"' in answer.text
    answer = client.post("/director/close", data={"confirm": "yes"})
    assert answer.status_code == 401


def enter(client: TestClient, event: Any, table: int, round_number: int, board: int,
          contract: str, declarer: str, result: str) -> None:  # fmt: skip
    """A table's result through the JSON API (the table's token)."""
    body = {"round": round_number, "board": board, "contract": contract,
            "declarer": declarer, "result": result}  # fmt: skip
    answer = client.post("/api/live/results", json=body,
                         headers={"Authorization": f"Bearer {token_of(event, table)}"})  # fmt: skip
    assert answer.status_code == 201, answer.text


def total_of(ranking_html: str, pair: str) -> str:
    found = re.search(rf'<tr data-pair="{pair}">.*?<td class="total">([^<]*)</td>', ranking_html)
    assert found is not None, ranking_html
    return found[1]


def test_director_corrects_a_result_and_the_ranking_changes(client: TestClient, event: Any) -> None:
    # Board 1 (nobody vulnerable): table 1 in round 1 (1N v 1E) 4SN+1 = +450;
    # table 3 in round 2 (3N v 2E) 4SN= = +420. Matchpoints on a top of 2: 1N 2, 3N 0.
    enter(client, event, 1, 1, 1, "4S", "N", "+1")
    not_played_before(client.app.state.live, 3, 2)  # type: ignore[attr-defined]
    enter(client, event, 3, 2, 1, "4S", "N", "=")
    assert (
        total_of(client.get("/ranking").text, "1N"),
        total_of(client.get("/ranking").text, "3N"),
    ) == ("2", "0")
    csrf = login(client, event.director_password)
    results = client.get("/director/results").text
    assert "1: 4SN+1 (+450)" in text_of(results)
    page = client.get("/director/result?section=A&table=1&round=1&board=1")
    assert page.status_code == 200 and "Now: 4SN+1 (NS +450)" in text_of(page.text)
    # The change form starts from the stored result.
    for checked in (
        'name="level" value="4" checked',
        'name="strain" value="S" checked',
        'name="declarer" value="N" checked',
        '<option value="+1" selected>',
    ):
        assert checked in page.text  # fmt: skip
    # The director makes it 4S one down: -50, now below +420: 1N 0, 3N 2.
    changed = client.post(
        "/director/result",
        data={"csrf": csrf, "section": "A", "table": "1", "round": "1", "board": "1",
              "level": "4", "strain": "S", "doubling": "", "declarer": "N", "result": "-1"},
        follow_redirects=False,
    )  # fmt: skip
    assert changed.status_code == 303
    ranking = client.get("/ranking").text
    assert (total_of(ranking, "1N"), total_of(ranking, "3N")) == ("0", "2")
    # The audit log: who, old, new.
    audit = text_of(client.get("/director/audit").text)
    assert "table 1" in audit and "director" in audit
    assert "4SN+1" in audit and "4SN-1" in audit


def test_director_forms_need_the_csrf_token(client: TestClient, event: Any) -> None:
    enter(client, event, 1, 1, 1, "4S", "N", "+1")
    csrf = login(client, event.director_password)
    form = {"section": "A", "table": "1", "round": "1", "board": "1", "level": "3",
            "strain": "NT", "declarer": "S", "result": "="}  # fmt: skip
    for path, data in [
        ("/director/result", form),
        ("/director/adjust", {**form, "award": "A+"}),
        ("/director/names", {"name-1N": "Mallory"}),
        ("/director/ranking", {"hidden": "1"}),
        ("/director/close", {"confirm": "yes"}),
    ]:
        assert client.post(path, data=data).status_code == 403, path
        assert client.post(path, data={**data, "csrf": csrf[::-1]}).status_code == 403, path
    live = client.app.state.live
    assert not live.closed and not live.ranking_hidden
    assert stored(client) == [(1, 1, 1, "4SN+1", 450)]


def test_adjusted_score_is_audited(client: TestClient, event: Any) -> None:
    csrf = login(client, event.director_password)
    answer = client.post(
        "/director/adjust",
        data={"csrf": csrf, "section": "A", "table": "2", "round": "1", "board": "3",
              "award": "60/40"},
        follow_redirects=False,
    )  # fmt: skip
    assert answer.status_code == 303, answer.text
    (traveller,) = client.app.state.live.report().as_dict()["travellers"]
    (line,) = traveller["results"]
    assert (line["ns"], line["ew"], line["kind"]) == ("2N", "2E", "adjusted")
    assert "director" in text_of(client.get("/director/audit").text)


def test_an_unknown_award_is_422(client: TestClient, event: Any) -> None:
    csrf = login(client, event.director_password)
    answer = client.post("/director/adjust", data={"csrf": csrf, "table": "2", "round": "1",
                                                   "board": "3", "award": "99/1"})  # fmt: skip
    assert answer.status_code == 422 and "award '99/1'" in answer.text.replace("&#39;", "'")


def test_pair_names_show_on_the_table_page_and_ranking(client: TestClient, event: Any) -> None:
    csrf = login(client, event.director_password)
    client.post("/director/names", data={"csrf": csrf, "name-2N": "Ann Smith & Bob Jones"})
    table = TestClient(client.app)
    table_client(table, event, 2)
    assert "NS 2N Ann Smith & Bob Jones EW 2E" in text_of(table.get("/table").text)
    enter(client, event, 2, 1, 3, "3NT", "S", "=")
    assert "Ann Smith &amp; Bob Jones" in client.get("/ranking").text


def test_hidden_ranking_and_the_close(client: TestClient, event: Any) -> None:
    enter(client, event, 1, 1, 1, "4S", "N", "+1")
    public = TestClient(client.app)
    assert public.get("/report.html").status_code == 404  # published at the close
    csrf_table = table_client(public, event, 2)  # a table's page, open before the close
    csrf = login(client, event.director_password)
    client.post("/director/ranking", data={"csrf": csrf, "hidden": "1"})
    hidden = public.get("/ranking")
    assert hidden.status_code == 200 and 'id="hidden"' in hidden.text and "1N" not in hidden.text
    assert 'id="director-view"' in client.get("/ranking").text  # the director still sees it
    client.post("/director/close", data={"csrf": csrf, "confirm": "yes"})
    # Closed: the ranking is public again, with the report and the site.
    final = public.get("/ranking").text
    assert 'href="/report.html"' in final and 'href="/results/index.html"' in final
    assert public.get("/report.html").status_code == 200
    site = public.get("/results/index.html")
    assert site.status_code == 200 and "Club night" in site.text
    # Tables can no longer enter: the page says so, and a form still open is refused.
    assert "The director has closed the session" in public.get("/table").text
    answer = public.post("/table/result", data={"csrf": csrf_table, "round": "1", "board": "3",
                                                **FOUR_SPADES_PLUS_ONE})  # fmt: skip
    assert answer.status_code == 409 and "closed" in answer.text


def test_closing_needs_the_tick(client: TestClient, event: Any) -> None:
    csrf = login(client, event.director_password)
    answer = client.post("/director/close", data={"csrf": csrf})
    assert answer.status_code == 422 and not client.app.state.live.closed


def test_a_table_a_round_behind_is_late(client: TestClient, event: Any) -> None:
    # Tables 1 and 2 finish round 1; table 3 has entered nothing: a round behind the median.
    for table, boards in ((1, (1, 2)), (2, (3, 4))):
        for board in boards:
            enter(client, event, table, 1, board, "3NT", "S", "=")
    login(client, event.director_password)
    page = client.get("/director").text
    assert re.findall(r'<tr data-table="(\d)" class="late">', page) == ["3"]
    assert "Late: table 3." in text_of(page)


def test_progress_shows_entered_over_due(client: TestClient, event: Any) -> None:
    enter(client, event, 1, 1, 1, "4S", "N", "+1")
    login(client, event.director_password)
    page = client.get("/director").text
    row = re.search(r'<tr data-table="1"[^>]*>(.*?)</tr>', page, re.S)
    assert row is not None and re.findall(r"<td[^>]*>([^<]*)</td>", row[1]) == ["1/2", "0/2", "0/2"]


# --------------------------------------------------------------------- never a 5xx

JUNK = ["", "0", "-1", "99999999999999999999", "x" * 500, "\u202e\x00", "4SX", "PASS", "=", "%",
        "\u00b2", "\u0663", "1_0"]  # fmt: skip


@pytest.mark.parametrize("number", ["\u00b2", "\u0663", "1_0", "\uff11"])
def test_only_ascii_digits_are_a_round_board_or_table(
    client: TestClient, event: Any, number: str
) -> None:
    # '²' passed str.isdigit() and made int() raise: a 500 on each of these forms. The
    # others int() read as 3, 10 and 1; a number typed on a phone is ASCII digits.
    csrf = table_client(client, event, 1)
    for field in ("round", "board"):
        form = {"csrf": csrf, "round": "1", "board": "1", **FOUR_SPADES_PLUS_ONE, field: number}
        for path in ("/table/check", "/table/result"):
            answer = client.post(path, data=form)
            assert answer.status_code == 422, (path, field, answer.status_code)
            assert f"{field} must be a whole number from 1 to 9999" in text_of(answer.text)
    director = TestClient(client.app)
    csrf = login(director, event.director_password)
    for field in ("table", "round", "board"):
        form = {"csrf": csrf, "table": "1", "round": "1", "board": "1", **FOUR_SPADES_PLUS_ONE,
                field: number}  # fmt: skip
        # 422 with the form again, or 404 when the form cannot even name the board.
        answer = director.post("/director/result", data=form)
        assert answer.status_code in (404, 422), (field, answer.status_code)
        adjusted = director.post("/director/adjust", data={**form, "award": "Avg"})
        assert adjusted.status_code in (404, 422), (field, adjusted.status_code)
        weighed = director.post("/director/weigh", data={**form, **HALF_AND_HALF})
        assert weighed.status_code in (404, 422), (field, weighed.status_code)
    assert stored(client) == []


# A weighted score (Law 12C1c) on the director's form: half 4S=, half 4S-1.
WEIGHED_KEYS = ("weight", "contract", "declarer", "result")
HALF_AND_HALF = {
    f"{key}-{row}": value
    for row, values in ((1, ("1/2", "4S", "N", "=")), (2, ("1/2", "4S", "N", "-1")))
    for key, value in zip(WEIGHED_KEYS, values, strict=True)
}


@pytest.mark.parametrize("value", JUNK)
def test_junk_in_any_field_is_never_a_5xx(client: TestClient, event: Any, value: str) -> None:
    csrf = table_client(client, event, 1)
    fields = ("round", "board", "level", "strain", "doubling", "declarer", "result", "lead")
    for field in fields:
        form = {"csrf": csrf, "round": "1", "board": "1", **FOUR_SPADES_PLUS_ONE, field: value}
        for path in ("/table/check", "/table/result"):
            assert client.post(path, data=form).status_code < 500, (path, field, value)
    director = TestClient(client.app)
    csrf = login(director, event.director_password)
    for field in ("table", "round", "board", "section", "level", "result", "award"):
        form = {"csrf": csrf, "table": "1", "round": "1", "board": "1", "award": "A",
                **FOUR_SPADES_PLUS_ONE, field: value}  # fmt: skip
        for path in ("/director/result", "/director/adjust", "/director/weigh"):
            answer = director.post(path, data={**form, **HALF_AND_HALF})
            assert answer.status_code < 500, (path, field, value)
        query = {"table": "1", "round": "1", "board": "1", field: value}
        assert director.get("/director/result", params=query).status_code < 500
    assert client.post("/table/check", content=b"\xff\xfe", headers={
        "content-type": "application/x-www-form-urlencoded"}).status_code < 500  # fmt: skip


def test_the_walk_through_shows_screenshots_that_exist() -> None:
    docs = Path(__file__).parents[3] / "docs"
    shown = re.findall(r"!\[[^\]]+\]\((img/live/[a-z-]+\.png)\)", (docs / "live.md").read_text())
    assert len(shown) >= 7
    for name in shown:
        data = (docs / name).read_bytes()
        # Real PNGs (from tests/web/live/test_browser.py), small enough to keep in the repository.
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) < 150_000, name
