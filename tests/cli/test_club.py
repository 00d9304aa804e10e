"""``bridgescore club ...`` and ``session combine`` end to end, on real SQLite files:
an imported event, a USEBIO file and a live event make the season."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.movement.model import Movement, Row
from bridgescore.movement.text import movement_to_json
from bridgescore.notation import Result
from bridgescore.season.ratings import DECAY, PRIOR_BOARDS
from bridgescore.session.live.entry import ResultEntry
from bridgescore.session.live.event import LiveEvent
from season_events import NAMES_A, PERCENT, REGISTER_CSV, make_event

runner = CliRunner()
DATA = Path(__file__).parents[1] / "data"

# The live evening: three tables, one board (board 1, nobody vulnerable): 4S+1 by N
# (+450), 4S= (+420), 3NT= (+400): NS 100 %, 50 %, 0 %; EW 0 %, 50 %, 100 %.
LIVE_NAMES = """pair,player,number,player,number
1N,Eve Ellis,1030,Ann Archer,1010
2N,Bob Baker,1011,Dan Dunn,1021
3N,Cara Cole,1020,Fred Ford,1031
1E,Gail Grant,1040,Ida Irwin,1050
2E,Hugh Hale,1041,Jack Jones,1051
"""
LIVE_RESULTS = {1: "4SN+1", 2: "4SN=", 3: "3NTN="}


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, list(map(str, args)))
    return result.exit_code, result.stdout, result.stderr


def live_event(tmp_path: Path) -> Path:
    movement = Movement(
        "mitchell", 3, 1, 1, tuple(Row(1, t, f"{t}N", f"{t}E", (1,)) for t in (1, 2, 3))
    )
    file = tmp_path / "live.json"
    file.write_text(json.dumps(movement_to_json(movement)))
    event = tmp_path / "live.db"
    code, _, err = run(
        "session",
        "new",
        event,
        "--movement",
        file,
        "--date",
        "2026-03-02",
        "--name",
        "March live",
        "--json",
    )
    assert code == 0, err
    names = tmp_path / "live-names.csv"
    names.write_text(LIVE_NAMES)
    assert run("session", "import", event, names)[0] == 0
    with LiveEvent(event) as live:
        for table, result in LIVE_RESULTS.items():
            live.enter_result("A", table, ResultEntry(1, 1, Result.parse(result)), who="t")
    return event


@pytest.fixture
def season(tmp_path: Path) -> Path:
    club = tmp_path / "club.db"
    assert run("club", "new", club, "--name", "Riverside")[0] == 0
    players = tmp_path / "players.csv"
    players.write_text(REGISTER_CSV)
    code, out, _ = run("club", "players", club, players)
    assert code == 0 and "10 player(s) added, 0 updated" in out
    monday = make_event(tmp_path / "monday.db", NAMES_A, name="Monday", date="2026-01-05")
    usebio = tmp_path / "usebio.db"
    assert run("session", "import", usebio, DATA / "usebio_pairs.xml")[0] == 0
    code, out, err = run("club", "add", club, monday, usebio, live_event(tmp_path), "--json")
    assert code == 0, err
    added = json.loads(out)["events"]
    assert [(e["name"], e["date"], e["status"]) for e in added] == [
        ("Monday", "2026-01-05", "added"),
        ("Monday Pairs", "2026-11-16", "added"),
        ("March live", "2026-03-02", "added"),
    ]
    return club


def test_new_refuses_an_existing_file_and_a_blank_name(tmp_path: Path) -> None:
    club = tmp_path / "club.db"
    code, out, _ = run("club", "new", club, "--name", "Riverside", "--json")
    assert code == 0 and json.loads(out) == {"club_file": str(club), "name": "Riverside"}
    code, _, err = run("club", "new", club, "--name", "Again")
    assert code == 2 and "already exists" in err
    assert run("club", "new", tmp_path / "b.db", "--name", " ")[0] == 2


def test_players_lists_and_reports_bad_lines(tmp_path: Path) -> None:
    club = tmp_path / "club.db"
    run("club", "new", club, "--name", "Riverside")
    players = tmp_path / "p.csv"
    players.write_text("number,name\n1,Ann\n,Bob\n")
    code, out, err = run("club", "players", club, players)
    assert code == 1 and "1 player(s) added" in out and f"{players}:3: no number" in err
    players.write_text("number,name,email\n1,Ann Archer,ann@example.org\n2,Bob\n")
    code, out, _ = run("club", "players", club, players, "--json")
    document = json.loads(out)
    assert (document["added"], document["updated"]) == (1, 1)
    assert document["players"] == [
        {"number": "1", "name": "Ann Archer", "email": "ann@example.org"},
        {"number": "2", "name": "Bob", "email": ""},
    ]
    code, out, _ = run("club", "players", club)
    assert code == 0 and out.splitlines()[2].split() == ["1", "Ann", "Archer", "ann@example.org"]


def test_add_lists_the_unmatched_and_adds_an_event_once(season: Path, tmp_path: Path) -> None:
    code, out, _ = run("club", "add", season, tmp_path / "monday.db", tmp_path / "usebio.db")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(f"{tmp_path / 'monday.db'}: Monday, 2026-01-05: already in the")
    assert "6 pair(s), 9 player(s) matched (1 by name), 2 unmatched" in lines[0]
    assert (
        "  unmatched: pair 2E: Jack Jonse: no number given, and the name 'Jack Jonse' is "
        "not in the register" in lines
    )
    # USEBIO: Ida Irwin's and Jack Jones's file numbers (1015, 1016) are not the register's.
    assert any("Monday Pairs, 2026-11-16: already in the season" in line for line in lines)
    assert any("(2 by name)" in line for line in lines if "Monday Pairs" in line)


def test_add_reports_a_file_that_is_no_event(season: Path, tmp_path: Path) -> None:
    code, _, err = run("club", "add", season, tmp_path / "players.csv")
    assert code == 1 and "players.csv" in err
    code, _, err = run("club", "add", tmp_path / "monday.db", tmp_path / "monday.db")
    assert code == 2 and "is an event file: expected a club file" in err


def test_a_players_history(season: Path) -> None:
    code, out, _ = run("club", "player", season, "1010", "--json")
    assert code == 0
    document = json.loads(out)
    assert document["name"] == "Ann Archer"
    assert [
        (e["date"], e["event"], e["partners"], e["percent"], e["rank"], e["field_size"])
        for e in document["events"]
    ] == [
        ("2026-01-05", "Monday", ["Bob Baker"], PERCENT["1N"], "3", 3),
        ("2026-03-02", "March live", ["Eve Ellis"], 100.0, "1", 3),
        # The USEBIO file's own PERCENTAGE and PLACE for pair 1 NS: 25.56, 4th of 4.
        ("2026-11-16", "Monday Pairs", ["Bob Baker"], 25.56, "4", 4),
    ]
    code, out, _ = run("club", "player", season, "1010")
    assert out.splitlines()[0] == "Ann Archer (1010): 3 event(s)"
    assert out.splitlines()[3].split() == [
        "2026-01-05",
        "Monday",
        "Bob",
        "Baker",
        "25.00",
        "3",
        "of",
        "3",
    ]
    code, _, err = run("club", "player", season, "999")
    assert code == 1 and "player '999' is not in the register" in err


def test_the_ladder(season: Path) -> None:
    code, out, _ = run("club", "ladder", season, "--best", "2", "--json")
    assert code == 0
    document = json.loads(out)
    ranked = {row["number"]: (row["rank"], row["score"]) for row in document["ranked"]}
    # Best two of each player's three sessions (Monday, the live evening, USEBIO):
    # Cara 87.5, 0, 81.67 -> 84.585 -> 84.59; Dan 87.5, 50, 81.67 -> 84.59 too;
    # Eve 37.5, 100, 59.44 -> 79.72; Ann 25, 100, 25.56 -> 62.78; Ida 50, 0, 26.11 -> 38.06.
    assert ranked["1020"] == ("1=", 84.59) and ranked["1021"] == ("1=", 84.59)
    assert ranked["1030"] == ("3", 79.72)
    assert ranked["1010"][1] == 62.78 and ranked["1050"][1] == 38.06
    # Jack Jones: unmatched on Monday ("Jonse"), so two sessions: 50 and 26.11.
    assert ranked["1051"][1] == 38.06 and ranked["1051"][0] == ranked["1050"][0]
    code, out, _ = run("club", "ladder", season, "--best", "3", "--json")
    apart = {row["number"]: row["score"] for row in json.loads(out)["apart"]}
    assert apart == {"1051": 38.06}
    code, out, _ = run(
        "club",
        "ladder",
        season,
        "--best",
        "2",
        "--from",
        "2026-02-01",
        "--to",
        "2026-06-30",
        "--min",
        "1",
        "--json",
    )
    document = json.loads(out)
    assert document["events"] == 1
    assert {r["number"]: r["score"] for r in document["ranked"]}["1010"] == 100.0
    code, out, _ = run("club", "ladder", season, "--best", "2")
    assert out.splitlines()[0].startswith("Riverside ladder: best 2 session(s), at least 2")
    code, _, err = run("club", "ladder", season, "--from", "2026-13-01")
    assert code == 2 and "--from '2026-13-01' is not a date" in err


def test_the_ratings(tmp_path: Path) -> None:
    club = tmp_path / "club.db"
    run("club", "new", club, "--name", "Riverside")
    players = tmp_path / "players.csv"
    players.write_text(REGISTER_CSV)
    run("club", "players", club, players)
    run("club", "add", club, make_event(tmp_path / "m.db", NAMES_A, name="M", date="2026-01-05"))
    code, out, _ = run("club", "ratings", club, "--json")
    assert code == 0
    grades = {g["number"]: g for g in json.loads(out)["grades"]}
    # One event, everyone at 50 before it: each grade moves by 2 / W of the pair's
    # distance from 50, W = DECAY**2 * PRIOR_BOARDS + 2.
    weight = DECAY**2 * PRIOR_BOARDS + 2
    cara = 50 + 2 / weight * (PERCENT["2N"] - 50)
    assert grades["1020"]["grade"] == pytest.approx(cara, abs=0.005)
    assert grades["1020"]["sessions"] == 1 and grades["1020"]["boards"] == 2
    assert json.loads(out)["method"] == {"average": 50, "decay": DECAY, "prior_boards": 24}
    assert next(iter(grades)) in ("1020", "1021")
    assert "1051" not in grades  # Jack Jones played as the unmatched "Jack Jonse"
    code, out, _ = run("club", "ratings", club)
    assert out.splitlines()[0] == "Riverside grades after 1 event(s)"


def test_session_combine(tmp_path: Path) -> None:
    one = make_event(
        tmp_path / "s1.db", NAMES_A + "3E,Kim Kay,,Lee Lo,\n", name="Cup", date="2026-02-01"
    )
    two = make_event(
        tmp_path / "s2.db", NAMES_A + "3E,Kim Kay,,Lee Lo,\n", name="Cup", date="2026-02-01"
    )
    carry = tmp_path / "carry.csv"
    carry.write_text("pair,points\n1N,2.5\n")
    out_file = tmp_path / "cup.db"
    code, out, err = run("session", "combine", out_file, one, two, "--carry-over", carry, "--json")
    assert code == 0, err
    document = json.loads(out)
    rows = {row["name"]: row for row in document["ranking"]}
    assert rows["1N"]["sessions"] == [25.0, 25.0] and rows["1N"]["total"] == 27.5
    assert rows["2N"]["total"] == 87.5 and rows["2N"]["rank"] == "1"
    assert rows["3E"]["players"] == [
        {"name": "Kim Kay", "number": ""},
        {"name": "Lee Lo", "number": ""},
    ]
    code, _, err = run("session", "combine", out_file, one, two)
    assert code == 1 and "already exists" in err
    code, _, err = run("session", "combine", tmp_path / "x.db", one)
    assert code == 2 and "two sessions or more, got 1" in err
    carry.write_text("pair,points\n1N,lots\n")
    code, _, err = run("session", "combine", tmp_path / "y.db", one, two, "--carry-over", carry)
    assert code == 2 and "points 'lots' for '1N': expected a number" in err
    code, out, _ = run("session", "combine", tmp_path / "z.db", one, two, "--by-number")
    assert code == 0 and "Cup - 2 sessions combined" in out.splitlines()[0]


def test_the_ratings_of_a_simulated_season_through_the_shell(tmp_path: Path) -> None:
    from bridgescore.season.simulate import simulated_season, write_season

    season = simulated_season(players=24, sessions=12, seed=4)
    events = write_season(season, tmp_path / "season")
    club = tmp_path / "club.db"
    run("club", "new", club, "--name", "Simulated")
    assert run("club", "players", club, tmp_path / "season" / "players.csv")[0] == 0
    code, out, _ = run("club", "add", club, *events, "--json")
    assert code == 0
    assert all(not e["unmatched"] and e["matched"] == 24 for e in json.loads(out)["events"])
    code, out, _ = run("club", "ratings", club, "--json")
    grades = {g["number"]: g["grade"] for g in json.loads(out)["grades"]}
    numbers = sorted(season.strengths)
    # Spearman by hand: 1 - 6 sum d^2 / n(n^2 - 1), ranks of distinct values.
    truth = sorted(numbers, key=season.strengths.__getitem__)
    graded = sorted(numbers, key=lambda n: (grades[n], n))
    d2 = sum((truth.index(n) - graded.index(n)) ** 2 for n in numbers)
    n = len(numbers)
    assert 1 - 6 * d2 / (n * (n * n - 1)) >= 0.8


def test_the_register_from_the_events_own_numbers(tmp_path: Path) -> None:
    # The live evening's names CSV numbers ten players; a second event spells one of
    # them otherwise. --from adds each number once, keeps the first name, and never
    # changes a number the register holds.
    club = tmp_path / "club.db"
    assert run("club", "new", club, "--name", "Riverside")[0] == 0
    players = tmp_path / "one.csv"
    players.write_text("number,name\n1010,Ann Archer-Smith\n")
    assert run("club", "players", club, players)[0] == 0
    event = live_event(tmp_path)
    other = tmp_path / "other.db"
    names = tmp_path / "other-names.csv"
    names.write_text("pair,player,number,player,number\n1,Bob Baker-Jones,1011,Zed Zane,\n")
    assert run("session", "import", other, names)[0] == 0
    code, out, err = run("club", "players", club, "--from", event, "--from", other, "--json")
    assert code == 0, err
    document = json.loads(out)
    register = {p["number"]: p["name"] for p in document["players"]}
    numbered = [line.split(",") for line in LIVE_NAMES.splitlines()[1:]]
    expected = {row[i + 1]: row[i] for row in numbered for i in (1, 3)}
    expected["1010"] = "Ann Archer-Smith"  # held before: left as it was
    assert register == expected
    assert (document["added"], document["unchanged"]) == (9, 1)
    (note,) = document["notes"]
    assert note == (
        f"{other}: pair 1: number '1011' is 'Bob Baker-Jones' here and 'Bob Baker' before: "
        "'Bob Baker' is kept (a register CSV may change it)"
    )
    # Its players now match the register by number when the event is added.
    code, out, _ = run("club", "add", club, event)
    assert code == 0 and "10 player(s) matched (0 by name), 1 unmatched" in out  # 3E unnamed


def test_players_from_takes_events_only(tmp_path: Path) -> None:
    club = tmp_path / "club.db"
    assert run("club", "new", club, "--name", "Riverside")[0] == 0
    code, _, err = run("club", "players", club, "--from", tmp_path / "none.db")
    assert code == 2 and f"no event file '{tmp_path / 'none.db'}'" in err
    junk = tmp_path / "junk.db"
    junk.write_text("not an event")
    code, _, err = run("club", "players", club, "--from", junk)
    assert code != 0 and "is not a bridgescore event file" in err
    csv_file = tmp_path / "p.csv"
    csv_file.write_text("number,name\n1,A\n")
    code, _, err = run("club", "players", club, csv_file, "--from", junk)
    assert code == 2 and "not both" in err
