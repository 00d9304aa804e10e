"""Sections end to end: ``session new --sections 2`` (and ``--score-across``), results
entered through the live JSON API in both sections, the live ranking and ``session
score`` (with ``--across`` / ``--per-section``) checked against matchpoints worked by
hand below.

The movement is the 3-table Mitchell of live_movements (2 boards a round):
  round 1: T1 1N-1E boards 1-2, T2 2N-2E 3-4, T3 3N-3E 5-6
  round 2: T3 3N-2E boards 1-2 (the only round-2 table entered here)
Vulnerability by board number: 1 none, 2 NS, 3 EW, 4 all, 5 NS, 6 EW (Law 2).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from bridgescore.cli.app import app as cli_app
from bridgescore.web.live.app import create_live_app

MITCHELL = ["--movement", "mitchell", "--tables", "3", "--boards-per-round", "2", "--rounds", "3"]

# (section, table, round, board, contract, declarer, result): NS score (Law 77).
RESULTS = [
    ("A", 1, 1, 1, "4S", "N", "="),  # +420 (not vulnerable)
    ("A", 1, 1, 2, "3NT", "N", "="),  # +600 (NS vulnerable)
    ("A", 2, 1, 3, "2H", "N", "="),  # +110
    ("A", 2, 1, 4, "4H", "N", "-1"),  # -100 (vulnerable)
    ("A", 3, 1, 5, "1NT", "N", "="),  # +90
    ("A", 3, 1, 6, "3C", "N", "="),  # +110
    ("A", 3, 2, 1, "4S", "N", "-1"),  # -50
    ("A", 3, 2, 2, "3NT", "N", "+1"),  # +630
    ("B", 1, 1, 1, "4S", "N", "+1"),  # +450
    ("B", 1, 1, 2, "3NT", "N", "+1"),  # +630
    ("B", 2, 1, 3, "2H", "N", "="),  # +110
    ("B", 2, 1, 4, "4H", "N", "="),  # +620
    ("B", 3, 1, 5, "1NT", "N", "+1"),  # +120
    ("B", 3, 1, 6, "3C", "N", "-1"),  # -50
    ("B", 3, 2, 1, "4S", "N", "="),  # +420
    ("B", 3, 2, 2, "3NT", "N", "="),  # +600
]

# Matchpoints on the 2/1 scale: 2 for each score beaten, 1 for each tie; a board is
# Neuberg'd to the full size N from n results: (MP + 1) * N / n - 1.
#
# Per section (each section's full size 2: boards 1 and 2 have two results each):
#   A b1: +420 (1N/1E) v -50 (3N/2E): 1N 2, 1E 0, 3N 0, 2E 2
#   A b2: +600 (1N/1E) v +630 (3N/2E): 1N 0, 1E 2, 3N 2, 2E 0
#   A b3-b6: one result each, Neuberg'd (0 + 1) * 2 / 1 - 1 = 1 to each side
#   B b1: +450 (1N) v +420 (3N): 1N 2, 1E 0, 3N 0, 2E 2
#   B b2: +630 (1N) v +600 (3N): 1N 2, 1E 0, 3N 0, 2E 2
#   B b3-b6: 1 to each side
PER_SECTION = {
    ("A", "1N"): 2 + 0,
    ("A", "1E"): 0 + 2,
    ("A", "2N"): 1 + 1,
    ("A", "2E"): 1 + 1 + 2 + 0,
    ("A", "3N"): 1 + 1 + 0 + 2,
    ("A", "3E"): 1 + 1,
    ("B", "1N"): 2 + 2,
    ("B", "1E"): 0 + 0,
    ("B", "2N"): 1 + 1,
    ("B", "2E"): 1 + 1 + 2 + 2,
    ("B", "3N"): 1 + 1 + 0 + 0,
    ("B", "3E"): 1 + 1,
}

# Across the field: boards 1 and 2 have four results (top 6), boards 3 to 6 two
# (their own top 2, Neuberg'd to four: MP 2 -> 5, 1 -> 3, 0 -> 1).
#   b1: +450 (B1N) beats 3: 6; +420 (A1N, B3N) beat 1 and tie 1: 3; -50 (A3N): 0
#   b2: +630 (A3N, B1N) beat 2, tie 1: 5; +600 (A1N, B3N) tie 1: 1
#   b3: +110 (A2N) = +110 (B2N): 1 -> 3 each, EW likewise 3
#   b4: +620 (B2N) 2 -> 5, -100 (A2N) 0 -> 1; EW: A2E 5, B2E 1
#   b5: +120 (B3N) 5, +90 (A3N) 1; EW: A3E 5, B3E 1
#   b6: +110 (A3N) 5, -50 (B3N) 1; EW: A3E 1, B3E 5
# Each EW pair scores 6 - NS on boards 1 and 2, and as written on boards 3 to 6.
ACROSS = {
    ("A", "1N"): 3 + 1,
    ("A", "1E"): 3 + 5,
    ("A", "2N"): 3 + 1,
    ("A", "2E"): 3 + 5 + 6 + 1,
    ("A", "3N"): 1 + 5 + 0 + 5,
    ("A", "3E"): 5 + 1,
    ("B", "1N"): 6 + 5,
    ("B", "1E"): 0 + 1,
    ("B", "2N"): 3 + 5,
    ("B", "2E"): 3 + 1 + 3 + 5,
    ("B", "3N"): 5 + 1 + 3 + 1,
    ("B", "3E"): 1 + 5,
}


def test_the_hand_worked_totals_add_up() -> None:
    # A board shares out its top (of its Neuberg'd size) once per result.
    # Per section, in each section: boards 1-2 two results of top 2, boards 3-6 one.
    assert sum(PER_SECTION.values()) == 2 * (2 * 2 * 2 + 4 * 1 * 2)
    # Across: boards 1-2 four results of top 6, boards 3-6 two of top 6.
    assert sum(ACROSS.values()) == 2 * 4 * 6 + 4 * 2 * 6


def new_event(path: Path, *options: str) -> dict[str, Any]:
    answer = CliRunner().invoke(
        cli_app, ["session", "new", str(path), *MITCHELL, "--sections", "2", *options, "--json"]
    )
    assert answer.exit_code == 0, answer.output
    made: dict[str, Any] = json.loads(answer.output)
    return made


def tokens(made: dict[str, Any]) -> dict[tuple[str, int], str]:
    return {(t["section"], t["table"]): t["token"] for t in made["tables"]}


def bearer(value: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {value}"}


@pytest.fixture
def client_of() -> Iterator[Any]:
    opened: list[TestClient] = []

    def open_client(path: Path) -> TestClient:
        client = TestClient(create_live_app(path))
        client.__enter__()
        opened.append(client)
        return client

    yield open_client
    for client in opened:
        client.__exit__(None, None, None)


def enter_all(client: TestClient, made: dict[str, Any]) -> None:
    keys = tokens(made)
    for section, table, round_number, board, contract, declarer, result in RESULTS:
        answer = client.post(
            "/api/live/results",
            json={"round": round_number, "board": board, "contract": contract,
                  "declarer": declarer, "result": result},
            headers=bearer(keys[(section, table)]),
        )  # fmt: skip
        assert answer.status_code == 201, answer.text


def totals(document: dict[str, Any]) -> dict[tuple[str, str], float]:
    return {(line["section"], line["name"]): line["total"] for line in document["ranking"]}


def score(path: Path, *options: str) -> dict[str, Any]:
    answer = CliRunner().invoke(cli_app, ["session", "score", str(path), *options, "--json"])
    assert answer.exit_code == 0, answer.output
    document: dict[str, Any] = json.loads(answer.output)
    return document


def test_two_sections_scored_per_section_by_default_and_across_on_request(
    tmp_path: Path, client_of: Any
) -> None:
    path = tmp_path / "congress.db"
    made = new_event(path)
    assert sorted(tokens(made)) == [(s, t) for s in "AB" for t in (1, 2, 3)]
    client = client_of(path)
    enter_all(client, made)
    live = client.get("/api/live/ranking").json()
    assert totals(live) == PER_SECTION
    assert live["options"]["per_section"] is True
    assert totals(score(path)) == PER_SECTION
    assert totals(score(path, "--across")) == ACROSS
    assert score(path, "--across")["options"]["per_section"] is False
    assert totals(score(path, "--per-section")) == PER_SECTION


def test_an_event_made_to_score_across_is_ranked_across(tmp_path: Path, client_of: Any) -> None:
    path = tmp_path / "congress.db"
    made = new_event(path, "--score-across")
    client = client_of(path)
    enter_all(client, made)
    assert totals(client.get("/api/live/ranking").json()) == ACROSS
    assert totals(score(path)) == ACROSS
    assert totals(score(path, "--per-section")) == PER_SECTION


def test_results_are_stored_under_their_section(tmp_path: Path, client_of: Any) -> None:
    path = tmp_path / "congress.db"
    made = new_event(path)
    enter_all(client_of(path), made)
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT section, board, ns, ew FROM results WHERE board = 1").fetchall()
    assert sorted(rows) == [("A", 1, "1N", "1E"), ("A", 1, "3N", "2E"),
                            ("B", 1, "1N", "1E"), ("B", 1, "3N", "2E")]  # fmt: skip


def test_a_section_b_token_is_section_b_table(tmp_path: Path, client_of: Any) -> None:
    path = tmp_path / "congress.db"
    made = new_event(path)
    client = client_of(path)
    view = client.get("/api/live/table", headers=bearer(tokens(made)[("B", 2)])).json()
    assert (view["section"], view["table"]) == ("B", 2)
    assert [(r["round"], r["ns"], r["ew"], r["boards"]) for r in view["rounds"]] == [
        (1, "2N", "2E", [3, 4]),
        (2, "2N", "1E", [5, 6]),
        (3, "2N", "3E", [1, 2]),
    ]
    # The audit log names the table with its section, the entry its section.
    answer = client.post(
        "/api/live/results",
        json={"round": 1, "board": 3, "contract": "2H", "declarer": "N", "result": "="},
        headers=bearer(tokens(made)[("B", 2)]),
    )
    assert answer.status_code == 201
    director = client.post(
        "/api/live/director/login", json={"password": made["director_password"]}
    ).json()["token"]
    audit = client.get("/api/live/audit", headers=bearer(director)).json()
    assert [(e["who"], e["section"], e["board"]) for e in audit] == [("table B2", "B", 3)]
    answer = client.post(
        "/api/live/results",
        json={"round": 1, "board": 3, "contract": "3NT", "declarer": "N", "result": "="},
        headers=bearer(tokens(made)[("A", 2)]),
    )
    assert answer.status_code == 201
    # Scored per section (the default), table B2 sees section B's traveller of board 3:
    # its one line, not section A's.
    traveller = client.get("/api/live/traveller/3", headers=bearer(tokens(made)[("B", 2)]))
    document = traveller.json()
    assert document["section"] == "B"
    assert [(line["section"], line["ns"], line["ew"], line["ns_score"])
            for line in document["results"]] == [("B", "2N", "2E", 110)]  # fmt: skip


def test_a_director_body_must_name_the_section_of_a_two_section_event(
    tmp_path: Path, client_of: Any
) -> None:
    path = tmp_path / "congress.db"
    made = new_event(path)
    client = client_of(path)
    director = client.post(
        "/api/live/director/login", json={"password": made["director_password"]}
    ).json()["token"]
    body = {"table": 1, "round": 1, "board": 1, "contract": "4S", "declarer": "N", "result": "="}
    answer = client.put("/api/live/results", json=body, headers=bearer(director))
    assert answer.status_code == 422
    assert "section" in answer.json()["detail"] and "A, B" in answer.json()["detail"]
    answer = client.put(
        "/api/live/results", json={**body, "section": "C"}, headers=bearer(director)
    )
    assert answer.status_code == 422
    assert "'C'" in answer.json()["detail"]
    answer = client.put(
        "/api/live/results", json={**body, "section": "B"}, headers=bearer(director)
    )
    assert answer.json() == {"score_ns": 420}
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT section FROM results").fetchall() == [("B",)]


def test_across_and_per_section_together_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "congress.db"
    new_event(path)
    answer = CliRunner().invoke(
        cli_app, ["session", "score", str(path), "--across", "--per-section"]
    )
    assert answer.exit_code == 2
    assert "--per-section and --across" in answer.output


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--sections", "0"], "--sections 0: an event has 1 to 26 sections"),
        (["--sections", "27"], "--sections 27: an event has 1 to 26 sections"),
    ],
)
def test_a_number_of_sections_out_of_range_is_refused(
    tmp_path: Path, options: list[str], message: str
) -> None:
    answer = CliRunner().invoke(
        cli_app, ["session", "new", str(tmp_path / "e.db"), *MITCHELL, *options]
    )
    assert answer.exit_code == 2
    assert message in answer.output
    assert not (tmp_path / "e.db").exists()


def test_sections_of_a_teams_or_swiss_movement_are_refused(tmp_path: Path) -> None:
    teams = ["--movement", "teams", "--teams", "4", "--boards-per-round", "2"]
    swiss = ["--movement", "swiss", "--teams", "6", "--rounds", "3", "--boards-per-round", "2"]
    for options, message in ((teams, "sections are for pairs movements"),
                             (swiss, "a Swiss is drawn from one field's standings")):  # fmt: skip
        answer = CliRunner().invoke(
            cli_app, ["session", "new", str(tmp_path / "e.db"), *options, "--sections", "2"]
        )
        assert answer.exit_code == 2, answer.output
        assert message in answer.output
        assert not (tmp_path / "e.db").exists()


def test_one_section_is_todays_event(tmp_path: Path) -> None:
    # --sections 1 is no option at all: the same meta keys and values (but the secrets).
    for name, extra in (("plain.db", []), ("one.db", ["--sections", "1"])):
        answer = CliRunner().invoke(
            cli_app, ["session", "new", str(tmp_path / name), *MITCHELL, *extra, "--json"]
        )
        assert answer.exit_code == 0, answer.output
    metas = []
    for name in ("plain.db", "one.db"):
        with sqlite3.connect(tmp_path / name) as db:
            rows = db.execute("SELECT key, value FROM meta WHERE key NOT IN "
                              "('director_password', 'name')").fetchall()  # fmt: skip
        metas.append(sorted(rows))
    assert metas[0] == metas[1]
    assert "sections" not in dict(metas[0]) and "sections_scored" not in dict(metas[0])


def test_the_printed_output_names_each_tables_section(tmp_path: Path) -> None:
    answer = CliRunner().invoke(
        cli_app, ["session", "new", str(tmp_path / "e.db"), *MITCHELL, "--sections", "2"]
    )
    assert answer.exit_code == 0, answer.output
    assert "2 sections, A, B, on the same boards; each board matchpointed within its section" in (
        answer.output
    )
    links = [line.split()[0] for line in answer.output.splitlines() if "/table?token=" in line]
    assert links == ["A1", "A2", "A3", "B1", "B2", "B3"]


def test_the_cards_name_each_tables_section(tmp_path: Path) -> None:
    cards = tmp_path / "cards.html"
    answer = CliRunner().invoke(
        cli_app,
        ["session", "new", str(tmp_path / "e.db"), *MITCHELL, "--sections", "2",
         "--cards-html", str(cards)],
    )  # fmt: skip
    assert answer.exit_code == 0, answer.output
    page = cards.read_text(encoding="utf-8")
    for section in "AB":
        for table in (1, 2, 3):
            assert f"<h2>Section {section}, table {table}</h2>" in page
    assert page.count('<article class="card guide"') == 12
    assert page.count('<article class="card table-card"') == 6


def test_the_ranking_names_each_lines_section(tmp_path: Path, client_of: Any) -> None:
    path = tmp_path / "congress.db"
    made = new_event(path)
    enter_all(client_of(path), made)
    per_section = CliRunner().invoke(cli_app, ["session", "score", str(path)])
    assert per_section.exit_code == 0, per_section.output
    # Each section compared within itself is ranked apart, a table per section and
    # direction; section A's North-South: 1N 2 of 4 MP (50 %), 2N 2 of 4, 3N 4 of 8.
    captions = [line for line in per_section.output.splitlines() if line.startswith("Section")]
    assert captions == [
        "Section A, North-South",
        "Section A, East-West",
        "Section B, North-South",
        "Section B, East-West",
    ]
    lines = per_section.output.splitlines()
    start = lines.index("Section A, North-South")
    assert lines[start + 1].split() == ["Rank", "Section", "Pair", "Boards", "Total", "MP", "%"]
    assert [line.split()[:5] for line in lines[start + 3 : start + 6]] == [
        ["1=", "A", "1N", "2", "2"],
        ["1=", "A", "2N", "2", "2"],
        ["1=", "A", "3N", "4", "4"],
    ]
    # Across, one field: North-South and East-West, every section's pairs together,
    # ranked by percentage: B1N 11 of 12 MP, A3N 11 of 24, B3N 10 of 24, B2N 8 of 12 ...
    across = CliRunner().invoke(cli_app, ["session", "score", str(path), "--across"])
    lines = across.output.splitlines()
    start = lines.index("North-South")
    assert [line.split()[1:3] for line in lines[start + 3 : start + 9]] == [
        ["B", "1N"],  # 11 / 12 = 91.67 %
        ["B", "2N"],  # 8 / 12 = 66.67 %
        ["A", "3N"],  # 11 / 24 = 45.83 %
        ["B", "3N"],  # 10 / 24 = 41.67 %
        ["A", "1N"],  # 4 / 12 = 33.33 %
        ["A", "2N"],  # 4 / 12 = 33.33 %
    ]


def test_a_scorers_file_names_each_lines_section(tmp_path: Path) -> None:
    path = tmp_path / "congress.db"
    new_event(path)
    scorer = tmp_path / "scorer.csv"
    # Table 3 plays boards 5-6 in round 1 (3N v 3E): 1NT= by N, NS vulnerable on 5: +90.
    scorer.write_text(
        "section,table,round,board,contract,declarer,result\n"
        "A,3,1,5,1NT,N,=\n"
        "B,3,1,5,1NT,N,+1\n"
        ",3,1,6,3C,N,=\n"
        "C,3,1,6,3C,N,=\n",
        encoding="utf-8",
    )
    answer = CliRunner().invoke(cli_app, ["session", "import", str(path), str(scorer)])
    assert answer.exit_code == 1
    assert "scorer.csv:4: section '': the event has 2 sections, A, B" in answer.output
    assert "scorer.csv:5: section 'C': the event has 2 sections, A, B" in answer.output
    with sqlite3.connect(path) as db:
        # The outcome as the file encodes a played result (R: then its text).
        assert sorted(db.execute("SELECT section, board, ns, ew, outcome FROM results")) == [
            ("A", 5, "3N", "3E", "R:1NTN="),
            ("B", 5, "3N", "3E", "R:1NTN+1"),
        ]


def test_a_lost_link_of_section_b_is_reissued_by_naming_the_section(
    tmp_path: Path, client_of: Any
) -> None:
    path = tmp_path / "congress.db"
    made = new_event(path)
    lost = CliRunner().invoke(cli_app, ["session", "reissue", str(path), "--table", "2"])
    assert lost.exit_code == 1
    assert "the event has 2 sections, A, B: name the table's section" in lost.output
    answer = CliRunner().invoke(
        cli_app, ["session", "reissue", str(path), "--table", "2", "--section", "B", "--json"]
    )
    assert answer.exit_code == 0, answer.output
    new = json.loads(answer.output)
    assert (new["section"], new["table"]) == ("B", 2)
    client = client_of(path)
    old_view = client.get("/api/live/table", headers=bearer(tokens(made)[("B", 2)]))
    assert old_view.status_code == 401
    view = client.get("/api/live/table", headers=bearer(new["token"])).json()
    assert (view["section"], view["table"]) == ("B", 2)
    # Section A's table 2 keeps its own link.
    still = client.get("/api/live/table", headers=bearer(tokens(made)[("A", 2)])).json()
    assert (still["section"], still["table"]) == ("A", 2)


# Each section's pair 1N named apart: the players CSV names its section (a section column).
NAMES_CSV = (
    "section,pair,player,player\n"
    "A,1N,Ann Archer,Bob Baker\n"
    "B,1N,Cate Cole,Dan Dale\n"
    "B,2E,Eve Ellis,Fay Ford\n"
)


def test_each_sections_pairs_keep_their_own_players(tmp_path: Path, client_of: Any) -> None:
    path = tmp_path / "congress.db"
    made = new_event(path)
    enter_all(client_of(path), made)
    names = tmp_path / "names.csv"
    names.write_text(NAMES_CSV, encoding="utf-8")
    answer = CliRunner().invoke(cli_app, ["session", "import", str(path), str(names)])
    assert answer.exit_code == 0, answer.output
    with sqlite3.connect(path) as db:
        kept = db.execute("SELECT participant, position, name FROM members ORDER BY 1, 2")
        assert kept.fetchall() == [
            ("A:1N", 0, "Ann Archer"), ("A:1N", 1, "Bob Baker"),
            ("B:1N", 0, "Cate Cole"), ("B:1N", 1, "Dan Dale"),
            ("B:2E", 0, "Eve Ellis"), ("B:2E", 1, "Fay Ford"),
        ]  # fmt: skip
    players = {
        (line["section"], line["name"]): [p["name"] for p in line["players"]]
        for line in score(path)["ranking"]
    }
    assert players == {
        ("A", "1N"): ["Ann Archer", "Bob Baker"], ("B", "1N"): ["Cate Cole", "Dan Dale"],
        ("B", "2E"): ["Eve Ellis", "Fay Ford"], ("A", "2E"): [],
        ("A", "1E"): [], ("A", "2N"): [], ("A", "3N"): [], ("A", "3E"): [],
        ("B", "1E"): [], ("B", "2N"): [], ("B", "3N"): [], ("B", "3E"): [],
    }  # fmt: skip
    # The text ranking: each section's table shows its own pairs' players.
    text = CliRunner().invoke(cli_app, ["session", "score", str(path)]).output
    rows = [line.split(None, 3) for line in text.splitlines() if line[:1].isdigit()]
    named = {(row[1], row[2]): row[3] for row in rows if "&" in row[3]}
    assert {where: " ".join(rest.split()[:5]) for where, rest in named.items()} == {
        ("A", "1N"): "Ann Archer & Bob Baker",
        ("B", "1N"): "Cate Cole & Dan Dale",
        ("B", "2E"): "Eve Ellis & Fay Ford",
    }
    # The HTML report's ranking rows likewise (section, pair, players in that order).
    page = tmp_path / "report.html"
    answer = CliRunner().invoke(cli_app, ["session", "report", str(path), "--html", str(page)])
    assert answer.exit_code == 0, answer.output
    cells = [
        re.findall(r"<td[^>]*>([^<]*)</td>", row)[1:4]
        for row in re.findall(r"<tr[^>]*>(<td.*?)</tr>", page.read_text(), re.S)
    ]
    assert ["A", "1N", "Ann Archer &amp; Bob Baker"] in cells
    assert ["B", "1N", "Cate Cole &amp; Dan Dale"] in cells
    assert ["A", "2E", ""] in cells and ["B", "2E", "Eve Ellis &amp; Fay Ford"] in cells


def _sections_pairs(xml: str) -> dict[tuple[str, str, str], tuple[str, str, list[str]]]:
    """Each SECTION's PAIRs: (section, number, direction) -> place, percentage, players."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(xml.split("\n", 2)[2])  # past the prolog and DOCTYPE
    return {
        (section.get("SECTION_ID") or "", pair.findtext("PAIR_NUMBER") or "",
         pair.findtext("DIRECTION") or ""): (
            pair.findtext("PLACE") or "", pair.findtext("PERCENTAGE") or "",
            [player.findtext("PLAYER_NAME") or "" for player in pair.iter("PLAYER")],
        )
        for section in root.iter("SECTION")
        for pair in section.iter("PAIR")
    }  # fmt: skip


def test_the_usebio_export_writes_each_sections_players_in_its_section(
    tmp_path: Path, client_of: Any
) -> None:
    path = tmp_path / "congress.db"
    made = new_event(path, "--score-across")
    enter_all(client_of(path), made)
    names = tmp_path / "names.csv"
    names.write_text(NAMES_CSV, encoding="utf-8")
    assert CliRunner().invoke(cli_app, ["session", "import", str(path), str(names)]).exit_code == 0
    out = tmp_path / "congress.xml"
    answer = CliRunner().invoke(cli_app, ["session", "export", str(path), str(out)])
    assert answer.exit_code == 0, answer.output
    pairs = _sections_pairs(out.read_text(encoding="utf-8"))
    assert len(pairs) == 12  # six pairs a section, each its own PAIR
    # Each pair's own place and percentage, as the event scores the field (ACROSS
    # above, top 6 a board): A's 1N 4 of 12 (5th= in the NS order the ranking test
    # above lists), B's 1N 11 of 12 (1st); EW: A1E 8/12, A2E 15/24, then A3E 6/12,
    # B2E 12/24 and B3E 6/12 tie 3rd=, B1E 1/12.
    assert pairs[("A", "1", "NS")] == ("5=", "33.33", ["Ann Archer", "Bob Baker"])
    assert pairs[("B", "1", "NS")] == ("1", "91.67", ["Cate Cole", "Dan Dale"])
    assert pairs[("A", "2", "EW")] == ("2", "62.50", [])
    assert pairs[("B", "2", "EW")] == ("3=", "50.00", ["Eve Ellis", "Fay Ford"])
    # Read back, each section's pair keeps its own players (kept as B:1NS).
    again = tmp_path / "again.db"
    answer = CliRunner().invoke(cli_app, ["session", "import", str(again), str(out)])
    assert answer.exit_code == 0, answer.output
    players = {
        (line["section"], line["name"]): [p["name"] for p in line["players"]]
        for line in score(again, "--per-section")["ranking"]
        if line["players"]
    }
    assert players == {
        ("A", "1NS"): ["Ann Archer", "Bob Baker"],
        ("B", "1NS"): ["Cate Cole", "Dan Dale"],
        ("B", "2EW"): ["Eve Ellis", "Fay Ford"],
    }


def test_the_usebio_export_of_an_event_scored_per_section_places_each_section_apart(
    tmp_path: Path, client_of: Any
) -> None:
    path = tmp_path / "congress.db"
    made = new_event(path)  # per section, the default
    enter_all(client_of(path), made)
    out = tmp_path / "congress.xml"
    answer = CliRunner().invoke(cli_app, ["session", "export", str(path), str(out)])
    assert answer.exit_code == 0, answer.output
    pairs = _sections_pairs(out.read_text(encoding="utf-8"))
    # PER_SECTION above, each board's top 2 in its section, over each pair's boards:
    # A's NS pairs all 50 % (2 of 4, 2 of 4, 4 of 8): tied first; B's 1N 4 of 4 (100 %),
    # 2N 2 of 4 (50 %), 3N 2 of 8 (25 %); B's EW 2E 6 of 8, 3E 2 of 4, 1E 0 of 4.
    assert [pairs[("A", n, "NS")][:2] for n in "123"] == [("1=", "50.00")] * 3
    assert [pairs[("B", n, "NS")][:2] for n in "123"] == [
        ("1", "100.00"),
        ("2", "50.00"),
        ("3", "25.00"),
    ]
    assert [pairs[("B", n, "EW")][:2] for n in "231"] == [
        ("1", "75.00"),
        ("2", "50.00"),
        ("3", "0.00"),
    ]


def test_a_names_line_without_its_section_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "congress.db"
    new_event(path)
    names = tmp_path / "names.csv"
    names.write_text(
        "pair,player,player,section\n1N,Ann Archer,Bob Baker,A\n1N,Cate Cole,Dan Dale,\n"
        "4N,Eve Ellis,Fay Ford,B\n",
        encoding="utf-8",
    )
    answer = CliRunner().invoke(cli_app, ["session", "import", str(path), str(names)])
    assert answer.exit_code == 1
    assert (
        "names.csv:3: pair '1N': section '': the event has 2 sections, A, B: a line names "
        "its section (a section column)"
    ) in answer.output
    assert (
        "names.csv:4: pair '4N' is not in section B's movement: expected one of "
        "1N, 1E, 2N, 2E, 3N, 3E"
    ) in answer.output
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT DISTINCT participant FROM members").fetchall() == [("A:1N",)]


def site_totals(index: str) -> dict[str, dict[tuple[str, str], float]]:
    """The results site's ranking tables by heading: (section, pair) -> total, each row's
    pair linked to its own section's pair page."""
    tables = {}
    for heading, table in re.findall(r'<h2>([^<]+)</h2><div class="scroll">(.*?)</table>', index):
        rows = re.findall(
            r'<tr><td>[^<]*</td><td>(\w)</td><td><a href="pair-(\w)-(\w+)\.html">(\w+)</a>'
            r"</td><td class=n>\d+</td><td class=n>([\d.]+)</td>",
            table,
        )
        assert all((page, pair) == (s.lower(), name.lower()) for s, page, pair, name, _ in rows)
        tables[heading] = {(s, name): float(total) for s, _, _, name, total in rows}
    return tables


@pytest.mark.parametrize(
    ("made_with", "report_with", "across"),
    [([], [], False), ([], ["--across"], True), (["--score-across"], ["--per-section"], False),
     (["--score-across"], [], True)],
)  # fmt: skip
def test_the_results_site_of_two_sections_per_section_and_across(
    tmp_path: Path, client_of: Any, made_with: list[str], report_with: list[str], across: bool
) -> None:
    path = tmp_path / "congress.db"
    made = new_event(path, *made_with)
    enter_all(client_of(path), made)
    out = tmp_path / "site"
    answer = CliRunner().invoke(
        cli_app, ["session", "report", str(path), *report_with, "--html", f"{out}/"]
    )
    assert answer.exit_code == 0, answer.output
    tables = site_totals((out / "index.html").read_text(encoding="utf-8"))
    expected = ACROSS if across else PER_SECTION
    assert {where: total for table in tables.values() for where, total in table.items()} == (
        expected
    )
    if across:
        assert list(tables) == ["North-South", "East-West"]
        assert (out / "board-1.html").is_file() and not (out / "board-1-a.html").exists()
    else:
        assert list(tables) == [f"Section {s}, {d}" for s in "AB"
                                for d in ("North-South", "East-West")]  # fmt: skip
        assert all(where[0] == heading[8] for heading, t in tables.items() for where in t)
        assert (out / "board-1-a.html").is_file() and (out / "board-1-b.html").is_file()
    assert "Pair 1N (B)" in (out / "pair-b-1n.html").read_text(encoding="utf-8")


def test_the_usebio_export_of_a_per_section_event_ranks_per_section_again(
    tmp_path: Path, client_of: Any
) -> None:
    path = tmp_path / "congress.db"
    made = new_event(path)  # per section, the default
    enter_all(client_of(path), made)
    out = tmp_path / "congress.xml"
    assert CliRunner().invoke(cli_app, ["session", "export", str(path), str(out)]).exit_code == 0
    again = tmp_path / "again.db"
    answer = CliRunner().invoke(cli_app, ["session", "import", str(again), str(out)])
    assert answer.exit_code == 0, answer.output
    assert "sections were compared within each section" in answer.output
    document = score(again)
    assert document["options"]["per_section"] is True
    # PER_SECTION above, the file's pair 1 NS being the live event's 1N.
    read_back = {(s, name[:-1]): total for (s, name), total in totals(document).items()}
    assert read_back == PER_SECTION
    ranks = {(line["section"], line["name"]): line["rank"] for line in score(path)["ranking"]}
    assert {(line["section"], line["name"][:-1]): line["rank"] for line in document["ranking"]} == (
        ranks
    )
    # Across, on request, as the live event is (ACROSS above).
    assert {(s, n[:-1]): t for (s, n), t in totals(score(again, "--across")).items()} == ACROSS


def test_the_usebio_export_of_an_event_scored_across_reads_back_across(
    tmp_path: Path, client_of: Any
) -> None:
    path = tmp_path / "congress.db"
    made = new_event(path, "--score-across")
    enter_all(client_of(path), made)
    out = tmp_path / "congress.xml"
    assert CliRunner().invoke(cli_app, ["session", "export", str(path), str(out)]).exit_code == 0
    again = tmp_path / "again.db"
    assert CliRunner().invoke(cli_app, ["session", "import", str(again), str(out)]).exit_code == 0
    document = score(again)
    assert document["options"]["per_section"] is False
    assert {(s, name[:-1]): total for (s, name), total in totals(document).items()} == ACROSS
