"""The players of pairs and teams: read from USEBIO, kept in the event file (schema 2,
upgraded from 1 in place), shown by `session report` and written back by `session export`."""

from __future__ import annotations

import json
import sqlite3
from html.parser import HTMLParser
from pathlib import Path

from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.session.importers.importer import import_files
from bridgescore.session.scoring.event import Member, TableResult
from bridgescore.session.store.events import EventStore, Origin

DATA = Path(__file__).parents[2] / "data"
PAIRS = DATA / "usebio_pairs.xml"
TEAMS = DATA / "usebio_teams.xml"
runner = CliRunner()


def test_pairs_players_are_kept_with_their_membership_numbers(tmp_path: Path) -> None:
    with EventStore(tmp_path / "ev.db") as store:
        assert import_files(store, [PAIRS]).ok
        members = store.load().members
    # As the fixture lists them: pair 1 NS is Ann Archer (1010) and Bob Baker (1011).
    assert members["1NS"] == (Member("Ann Archer", "1010"), Member("Bob Baker", "1011"))
    assert members["4EW"] == (Member("Olive Orr", "1045"), Member("Pat Pérez", "1046"))
    assert len(members) == 8


def test_teams_players_are_kept_under_the_team_name(tmp_path: Path) -> None:
    with EventStore(tmp_path / "ev.db") as store:
        import_files(store, [TEAMS])
        members = store.load().members
    assert [m.name for m in members["Aces"]] == [
        "Ann Archer",
        "Bob Baker",
        "Cara Cole",
        "Dan Dunn",
    ]
    assert members["Kings"][0].name == "Eve Ellis"


def test_report_shows_the_players(tmp_path: Path) -> None:
    db = str(tmp_path / "ev.db")
    runner.invoke(app, ["session", "import", db, str(PAIRS)])
    text = runner.invoke(app, ["session", "report", db]).output
    row = next(line for line in text.splitlines() if line.split()[1:2] == ["2NS"])
    assert "Cara Cole & Dan Dunn" in row
    assert any(line.split()[:3] == ["Rank", "Pair", "Players"] for line in text.splitlines())
    data = json.loads(runner.invoke(app, ["session", "report", db, "--json"]).output)
    first = next(row for row in data["ranking"] if row["name"] == "1NS")
    assert first["players"] == [
        {"name": "Ann Archer", "number": "1010"},
        {"name": "Bob Baker", "number": "1011"},
    ]


def test_export_writes_players_inside_each_pair(tmp_path: Path) -> None:
    db = str(tmp_path / "ev.db")
    runner.invoke(app, ["session", "import", db, str(PAIRS)])
    result = runner.invoke(app, ["session", "export", db, "-"])
    assert result.exit_code == 0, result.output
    text = result.output
    # Pair 1 East-West is written first (EW pair 1 sorts before 1NS by name).
    pair = text[text.index("<PAIR_NUMBER>1</PAIR_NUMBER>") :]
    pair = pair[: pair.index("</PAIR>")]
    assert "<DIRECTION>EW</DIRECTION>" in pair
    # USEBIO nests each player's name and number in a PLAYER element of the PAIR.
    assert pair.count("<PLAYER>") == 2
    assert pair.index("Ida Irwin") < pair.index("1015") < pair.index("Jack Jones")


def test_a_later_file_replaces_a_participants_players(tmp_path: Path) -> None:
    # The fixture is Latin-1, as its XML declaration says.
    corrected = PAIRS.read_bytes().replace(b"Bob Baker", b"Bob Barker")
    path = tmp_path / "corrected.xml"
    path.write_bytes(corrected)
    with EventStore(tmp_path / "ev.db") as store:
        import_files(store, [PAIRS])
        import_files(store, [path])
        assert store.members()["1NS"] == (
            Member("Ann Archer", "1010"),
            Member("Bob Barker", "1011"),
        )


def _version_1_file(path: Path) -> None:
    """An event file as schema 1 wrote it (no members table), holding one result."""
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE boards (number INTEGER PRIMARY KEY, deal TEXT, dd_tricks TEXT,
                             source TEXT, line INTEGER);
        CREATE TABLE results (section TEXT NOT NULL, board INTEGER NOT NULL,
            ns TEXT NOT NULL, ew TEXT NOT NULL, variant TEXT NOT NULL,
            outcome TEXT NOT NULL, source TEXT, line INTEGER,
            PRIMARY KEY (section, board, ns, ew));
        INSERT INTO meta VALUES ('schema', '1'), ('name', 'Old club night');
        INSERT INTO results VALUES ('', 1, '1', '2', '', 'R:4SN=', 'old.csv', 2);
        """
    )
    db.commit()
    db.close()


def test_a_version_1_file_is_upgraded_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    _version_1_file(path)
    with EventStore(path) as store:
        event = store.load()
        assert event.name == "Old club night" and event.members == {}
        assert [str(r.result) for r in event.results] == ["4SN="]
        store.set_members({"1": (Member("Ann Archer", "1010"),)})
        store.add_results([(TableResult.played(2, "1", "2", "3NTS="), Origin("new.csv", 2))])
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("5",)
    db.close()
    with EventStore(path) as store:
        event = store.load()
    assert event.members == {"1": (Member("Ann Archer", "1010"),)}
    assert len(event.results) == 2


def test_sectioned_export_lists_each_sections_pairs_inside_it() -> None:
    import xml.etree.ElementTree as ET

    from bridgescore.session.importers.usebio import read_usebio_event
    from bridgescore.session.reports.usebio import export_usebio
    from bridgescore.session.scoring.event import Event

    results = (
        TableResult.played(1, "1NS", "1EW", "4SN=", section="A"),
        TableResult.played(1, "2NS", "2EW", "4SN+1", section="A"),
        TableResult.played(1, "3NS", "3EW", "3NTS=", section="B"),
        TableResult.played(1, "4NS", "4EW", "Pass", section="B"),
    )
    members = {"3NS": (Member("Cara Cole", "1020"), Member("Dan Dunn"))}
    event = Event("Two sections", "pairs", results=results, members=members)
    text = export_usebio(event)
    root = ET.fromstring(text.split("\n", 2)[2])  # past the prolog and DOCTYPE
    event_node = root.find("EVENT")
    assert event_node is not None and event_node.find("PARTICIPANTS") is None
    found = {}
    for section in event_node.iter("SECTION"):
        children = [child.tag for child in section]
        # As multi-section producers write it: the section's pairs, then its boards.
        assert children[0] == "PARTICIPANTS" and set(children[1:]) == {"BOARD"}
        found[section.get("SECTION_ID")] = sorted(
            (pair.findtext("PAIR_NUMBER"), pair.findtext("DIRECTION"))
            for pair in section.iter("PAIR")
        )
    assert found == {
        "A": [("1", "EW"), ("1", "NS"), ("2", "EW"), ("2", "NS")],
        "B": [("3", "EW"), ("3", "NS"), ("4", "EW"), ("4", "NS")],
    }
    imported = read_usebio_event(text.encode(), "two.xml")
    assert {r for r, _ in imported.parsed.results} == set(results)
    # Listed inside section B, pair 3NS comes back as section B's (B:3NS).
    assert imported.parsed.members == {"B:3NS": members["3NS"]}


class _Rows(HTMLParser):
    """The text of each table row of an HTML page (header rows included)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _html_rows(text: str) -> list[list[str]]:
    parser = _Rows()
    parser.feed(text)
    return parser.rows


def test_html_report_and_site_show_the_players(tmp_path: Path) -> None:
    db = str(tmp_path / "ev.db")
    runner.invoke(app, ["session", "import", db, str(PAIRS)])
    page, site = tmp_path / "report.html", tmp_path / "site"
    assert runner.invoke(app, ["session", "report", db, "--html", str(page)]).exit_code == 0
    assert runner.invoke(app, ["session", "report", db, "--html", f"{site}/"]).exit_code == 0
    for text in (page.read_text(encoding="utf-8"), (site / "index.html").read_text("utf-8")):
        rows = _html_rows(text)
        head = next(row for row in rows if row and row[0] == "Rank")
        assert head[1:3] == ["Pair", "Players"]
        # As the fixture lists them: pair 2 NS is Cara Cole and Dan Dunn.
        row = next(row for row in rows if len(row) > 2 and row[1] == "2NS")
        assert row[2] == "Cara Cole & Dan Dunn"
        assert len(row) == len(head)


def test_html_report_of_an_event_without_players_has_no_players_column(tmp_path: Path) -> None:
    db = str(tmp_path / "ev.db")
    csv = tmp_path / "t.csv"
    csv.write_text("board,ns,ew,score\n1,1,2,+420\n1,3,4,-50\n", encoding="utf-8")
    runner.invoke(app, ["session", "import", db, str(csv)])
    page = tmp_path / "report.html"
    assert runner.invoke(app, ["session", "report", db, "--html", str(page)]).exit_code == 0
    head = next(row for row in _html_rows(page.read_text("utf-8")) if row and row[0] == "Rank")
    assert "Players" not in head
