"""An event is named by the file it comes from (unless ``--name`` says otherwise), and
its rankings print every column in one number format (text, HTML page, results site)."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.session.importers.importer import import_files
from bridgescore.session.scoring.display import column_text
from bridgescore.session.store.events import EventStore
from bridgescore.web.app import WebSettings, create_app

runner = CliRunner()
DATA = Path(__file__).parents[2] / "data"
MITCHELL = DATA / "session_mitchell.csv"
HANDS = DATA / "session_hands.pbn"  # [Event "Club night"]
ONLINE_TEAMS = DATA / "online_teams.pbn"
VUGRAPH = DATA / "formats" / "vugraph.lin"  # vg|Autumn Cup,Final Segment 1,...
USEBIO = DATA / "usebio_pairs.xml"  # <EVENT_DESCRIPTION>Monday Pairs


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["session", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def title(event: Path, *options: str) -> str:
    code, out, err = run("score", event, *options)
    assert code == 0, err
    return out.splitlines()[0]


def test_a_pbn_event_tag_names_the_event(tmp_path: Path) -> None:
    event = tmp_path / "club.db"
    assert run("import", event, MITCHELL, HANDS)[0] == 0
    assert title(event) == "Club night - matchpoints"
    code, _, _ = run("report", event, "--no-par", "--html", tmp_path / "club.html")
    assert code == 0
    page = (tmp_path / "club.html").read_text(encoding="utf-8")
    assert "<title>Club night - matchpoints</title>" in page
    assert "<h1>Club night - matchpoints</h1>" in page


def test_a_windows_1252_event_tag(tmp_path: Path) -> None:
    event = tmp_path / "coupe.db"
    assert run("import", event, DATA / "session_club_cp1252.pbn")[0] == 0
    # The tag's bytes: 'Coupe d' 0x92 'Automne', 0x92 being Windows-1252's right quote.
    assert b"Coupe d\x92Automne" in (DATA / "session_club_cp1252.pbn").read_bytes()
    assert title(event) == "Coupe d\u2019Automne - matchpoints"


def test_name_says_otherwise_and_a_later_file_does_not_rename(tmp_path: Path) -> None:
    other = HANDS.read_text(encoding="utf-8").replace("Club night", "Another night")
    (tmp_path / "other.pbn").write_text(other, encoding="utf-8")
    named = tmp_path / "named.db"
    assert run("import", named, MITCHELL, HANDS, "--name", "Tuesday pairs")[0] == 0
    assert title(named) == "Tuesday pairs - matchpoints"
    first = tmp_path / "first.db"
    assert run("import", first, MITCHELL, HANDS)[0] == 0
    assert run("import", first, tmp_path / "other.pbn")[0] == 0
    assert title(first) == "Club night - matchpoints"


def test_the_other_formats_name_the_event(tmp_path: Path) -> None:
    usebio = tmp_path / "usebio.db"
    assert run("import", usebio, USEBIO)[0] == 0
    assert title(usebio) == "Monday Pairs - matchpoints"
    cup = tmp_path / "cup.db"
    assert run("import", cup, VUGRAPH)[0] == 0
    assert title(cup) == "Autumn Cup, Final Segment 1 - IMPs (teams)"
    league = tmp_path / "league.db"
    assert run("import", league, ONLINE_TEAMS)[0] == 0
    assert title(league) == "Online Teams League - IMPs (teams)"


def test_usebio_event_name_is_read_when_there_is_no_description(tmp_path: Path) -> None:
    text = USEBIO.read_text(encoding="iso-8859-1")
    assert "<EVENT_DESCRIPTION>Monday Pairs</EVENT_DESCRIPTION>" in text
    renamed = tmp_path / "named.xml"
    renamed.write_text(
        text.replace(
            "<EVENT_DESCRIPTION>Monday Pairs</EVENT_DESCRIPTION>",
            "<EVENT_NAME>Spring Congress Pairs</EVENT_NAME>",
        ),
        encoding="iso-8859-1",
    )
    event = tmp_path / "spring.db"
    assert run("import", event, renamed)[0] == 0
    assert title(event) == "Spring Congress Pairs - matchpoints"


def test_an_unknown_event_tag_names_nothing(tmp_path: Path) -> None:
    pbn = tmp_path / "anon.pbn"
    pbn.write_text(
        '[Event "?"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
        '[PairNS "1"]\n[PairEW "2"]\n[Contract "4S"]\n[Declarer "N"]\n[Result "10"]\n',
        encoding="utf-8",
    )
    event = tmp_path / "tuesday.db"
    assert run("import", event, pbn)[0] == 0
    with EventStore(event, mode="read") as store:
        assert store.name == ""
    # An event no file named is titled by its own file, not "Event".
    assert title(event) == "tuesday - matchpoints"


def test_the_web_session_list_shows_event_names(tmp_path: Path) -> None:
    events = tmp_path / "events"
    events.mkdir()
    for name, files in {"a.db": [HANDS], "b.db": [MITCHELL], "c.db": [USEBIO]}.items():
        with EventStore(events / name) as store:
            assert import_files(store, files).ok
    settings = WebSettings(events=events, solver_workers=1, warm_solver=False)
    with TestClient(create_app(settings)) as client:
        listing = client.get("/session").text
    start = listing.index('aria-label="Events"')
    nav = listing[start : listing.index("</nav>", start)]
    links = re.findall(r'<a href="/session/([^"]+)" title="[^"]+"\s*>([^<]+)</a>', nav)
    # b.db came from a CSV file, which names no event: the list shows its file name.
    assert links == [("a.db", "Club night"), ("b.db", "b.db"), ("c.db", "Monday Pairs")]


# ------------------------------------------------------------- number formats


def test_column_text_gives_every_value_the_same_decimals() -> None:
    assert column_text([76.875, 32.5, 54.0625]) == ["76.88", "32.50", "54.06"]
    assert column_text([5.5, 3, -3, -5.5]) == ["5.5", "3.0", "-3.0", "-5.5"]
    assert column_text([11, 6, -6, -11]) == ["11", "6", "-6", "-11"]
    assert column_text([1.125, -1.125, None]) == ["1.13", "-1.13", ""]  # halves away from 0
    assert column_text([]) == []


def _column(lines: list[str], header: list[str], name: str) -> list[str]:
    """The cells of one column of a text table, by its header's position."""
    index = header.index(name)
    return [line.split()[index] for line in lines]


def test_the_text_ranking_prints_one_format_per_column(tmp_path: Path) -> None:
    event = tmp_path / "club.db"
    assert run("import", event, MITCHELL)[0] == 0
    code, out, _ = run("score", event)
    assert code == 0
    lines = out.splitlines()
    ns = lines[lines.index("North-South") + 3 : lines.index("East-West") - 1]
    # Pair 3: 24.6 MP of 4 x 8 = 76.875 %; pair 5: 7.8 MP of 3 x 8 = 32.5 %.
    percents = [line.split()[-1] for line in ns]
    assert percents[0] == "76.88" and percents[-1] == "32.50"
    assert all(re.fullmatch(r"\d+\.\d\d", p) for p in percents)
    totals = [line.split()[-2] for line in ns]
    assert all(re.fullmatch(r"\d+\.\d", t) for t in totals)


def test_teams_per_board_in_one_format_in_text_page_and_site(tmp_path: Path) -> None:
    event = tmp_path / "league.db"
    assert run("import", event, ONLINE_TEAMS)[0] == 0
    # docs/sessions.md: Jacks 11 IMPs over 2 boards, Kings 6, Aces -6, Queens -11.
    expected = [("11", "5.5"), ("6", "3.0"), ("-6", "-3.0"), ("-11", "-5.5")]
    code, out, _ = run("score", event)
    assert code == 0
    rows = out.splitlines()[-4:]
    assert [tuple(row.split()[-2:]) for row in rows] == expected
    assert run("report", event, "--no-par", "--html", tmp_path / "p.html")[0] == 0
    page = (tmp_path / "p.html").read_text(encoding="utf-8")
    ranking = page[page.index("<h2>Ranking</h2>") : page.index("<h2>Travellers</h2>")]
    cells = re.findall(r'<td class="n">([^<]*)</td>', ranking)
    assert [tuple(cells[i + 1 : i + 3]) for i in range(0, len(cells), 3)] == expected
    assert run("report", event, "--no-par", "--html", tmp_path / "site")[0] == 0
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    cells = re.findall(r"<td class=n>([^<]*)</td>", index)
    assert [tuple(cells[i + 1 : i + 3]) for i in range(0, len(cells), 3)] == expected


# ------------------------------------------------------------- the web pages


def _web_event(events: Path, name: str, *files: Path) -> None:
    events.mkdir(exist_ok=True)
    with EventStore(events / name) as store:
        assert import_files(store, list(files)).ok


def test_the_web_titles_an_unnamed_event_by_its_file(tmp_path: Path) -> None:
    events = tmp_path / "events"
    _web_event(events, "club.db", MITCHELL)  # a CSV file names no event
    settings = WebSettings(events=events, solver_workers=1, warm_solver=False)
    with TestClient(create_app(settings)) as client:
        site = client.get("/results/club.db/index.html")
        board = client.get("/results/club.db/board-1.html")
        page = client.get("/session/club.db")
    assert site.status_code == 200 and board.status_code == 200 and page.status_code == 200
    # As `session report club.db --html DIR/` titles it: club.db -> "club".
    assert "<title>club – matchpoints</title>" in site.text
    assert "<h1>club – matchpoints</h1>" in site.text
    assert "– club – matchpoints</title>" in board.text
    assert "Event" not in site.text and "Event" not in board.text
    assert "<h1>Sessions: club</h1>" in page.text


def _web_ranking(page: str) -> list[list[str]]:
    table = page[page.index('id="ranking"') : page.index("</table>", page.index('id="ranking"'))]
    # Every row but a direction's caption (a Mitchell's North-South, East-West).
    rows = re.findall(r'<tr(?: data-pair="[^"]*")?>(.*?)</tr>', table, re.S)
    return [re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row) for row in rows]


def test_the_web_session_page_prints_one_format_per_column(tmp_path: Path) -> None:
    events = tmp_path / "events"
    _web_event(events, "club.db", MITCHELL)
    _web_event(events, "league.db", ONLINE_TEAMS)
    settings = WebSettings(events=events, solver_workers=1, warm_solver=False)
    with TestClient(create_app(settings)) as client:
        pairs = _web_ranking(client.get("/session/club.db").text)
        teams = _web_ranking(client.get("/session/league.db").text)
    header = ["Rank", "Pair", "Boards", "Total MP", "%"]  # as the reports draw it
    assert pairs[0] == header
    by_pair = {row[1]: row for row in pairs[1:]}
    # Pair 3: 24.6 MP of a top of 8 on 4 boards = 76.875 %; pair 5: 7.8 MP of 3 x 8 = 32.5 %.
    assert by_pair["3"][2:] == ["4", "24.6", "76.88"]
    assert by_pair["5"][2:] == ["3", "7.8", "32.50"]
    assert all(re.fullmatch(r"\d+\.\d", row[3]) for row in pairs[1:])
    assert all(re.fullmatch(r"\d+\.\d\d", row[4]) for row in pairs[1:])
    # docs/sessions.md: Jacks 11 IMPs over 2 boards, Kings 6, Aces -6, Queens -11.
    assert teams[0][-2:] == ["Total IMP", "Per board"]
    assert [row[-2:] for row in teams[1:]] == [
        ["11", "5.5"],
        ["6", "3.0"],
        ["-6", "-3.0"],
        ["-11", "-5.5"],
    ]
