"""``bridgescore session sim``: three clubs' Mitchells on the same boards, scored as one field.

Each club plays a 3-table Mitchell for 2 rounds of 1 board (boards 1-3, each played twice
a club), made with ``session new`` and entered as a table scorer's CSV lines. Club
"cam" (named by its file: no --club) misses board 2 at table 1 in round 2 and enters
its board 1 at table 3 in round 2 the wrong way round (4S by East, not North).

The field, NS scores, worked out by hand (2/1 scale):

- board 1 (none vul): +420 x4 (Acol 1N, Acol 3N, Bath 1N, cam 1N), +450 (Bath 3N),
  -420 (cam 3N): 6 results, top 10. +450: 10; +420: 2 + 3 ties = 5; -420: 0.
  +420 is held by 4 of 6, its negation by one line only: the outlier.
- board 2 (NS vul): +630 (Acol 1N), +600 x3 (2N of each club), -100 (Bath 1N): 5
  results, Neuberg'd to the 6 of a full board: M' = (M + 1) x 6 / 5 - 1.
  +630: M = 8, 9.8; +600: M = 2 + 2 ties = 4, 5.0; -100: M = 0, 0.2. EW: 10 - NS.
- board 3 (EW vul): +100 (cam 3N, 2HE-1), -110 x4, -140 (Bath 2N, 2HE+1):
  +100: 10; -110: 5; -140: 0. -110 held by 4, +110 by none: no outlier.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bridgescore.board import Board
from bridgescore.cli.app import app
from bridgescore.core import Seat, Vulnerability
from bridgescore.deal import Deal
from bridgescore.errors import RecordError
from bridgescore.session.scoring.event import Event, Member, TableResult
from bridgescore.session.sim import SimClub, find_outliers, merge_clubs, score_sim
from bridgescore.session.store.events import EventStore

runner = CliRunner()

HEADER = "table,round,board,contract,declarer,result\n"
LINES = {
    "Acol": ["1,1,1,4S,N,=", "2,1,2,3NT,N,=", "3,1,3,2H,E,=",
             "1,2,2,3NT,N,+1", "2,2,3,2H,E,=", "3,2,1,4S,N,="],
    "Bath": ["1,1,1,4S,N,=", "2,1,2,3NT,N,=", "3,1,3,2H,E,=",
             "1,2,2,3NT,N,-1", "2,2,3,2H,E,+1", "3,2,1,4S,N,+1"],
    "cam": ["1,1,1,4S,N,=", "2,1,2,3NT,N,=", "3,1,3,2H,E,-1",
            "2,2,3,2H,E,=", "3,2,1,4S,E,="],
}  # fmt: skip

# North holds every spade, East every heart, ... ; the other deal has North and East swapped.
HANDS = ["AKQJT98765432...", ".AKQJT98765432..", "..AKQJT98765432.", "...AKQJT98765432"]
DEAL = "N:" + " ".join(HANDS)
OTHER_DEAL = "N:" + " ".join([HANDS[1], HANDS[0], *HANDS[2:]])

# Each line's total and percentage by hand (above); every pair played 2 boards of top 10
# but cam 1N and cam 3E, who played 1 board.
NS_TOTALS = {
    "Acol/1N": 14.8, "Acol/2N": 10.0, "Acol/3N": 10.0,
    "Bath/1N": 5.2, "Bath/2N": 5.0, "Bath/3N": 15.0,
    "cam/1N": 5.0, "cam/2N": 10.0, "cam/3N": 10.0,
}  # fmt: skip
EW_TOTALS = {
    "Acol/1E": 10.0, "Acol/2E": 10.0, "Acol/3E": 5.2,
    "Bath/1E": 15.0, "Bath/2E": 5.0, "Bath/3E": 14.8,
    "cam/1E": 10.0, "cam/2E": 15.0, "cam/3E": 0.0,
}  # fmt: skip
ONE_BOARD = {"cam/1N", "cam/3E"}


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["session", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def pbn(deals: dict[int, str]) -> str:
    vulnerable = {1: "None", 2: "NS", 3: "EW"}
    return "".join(
        f'[Board "{n}"]\n[Dealer "{"NES"[n - 1]}"]\n[Vulnerable "{vulnerable[n]}"]\n'
        f'[Deal "{deal}"]\n\n'
        for n, deal in deals.items()
    )


def club_event(tmp_path: Path, club: str, deals: dict[int, str] | None = None) -> Path:
    """A club's Mitchell, made and entered through the CLI; "cam" is named by its file."""
    event = tmp_path / f"{club.lower()}.db"
    args: list[str | Path] = ["new", event, "--movement", "mitchell", "--tables", "3"]
    args += ["--boards-per-round", "1", "--rounds", "2"]
    if club != "cam":
        args += ["--club", club]
    if deals:
        boards = tmp_path / f"{club}-boards.pbn"
        boards.write_text(pbn(deals))
        args += ["--boards", boards]
    code, _, err = run(*args)
    assert code == 0, err
    travellers = tmp_path / f"{club}.csv"
    travellers.write_text(HEADER + "\n".join(LINES[club]) + "\n")
    code, _, err = run("import", event, travellers)
    assert code == 0, err
    return event


def three_clubs(tmp_path: Path) -> list[Path]:
    # Acol and Bath know the deals; cam's event has none, matched by number only.
    deals = {1: DEAL, 2: DEAL, 3: DEAL}
    return [
        club_event(tmp_path, "Acol", deals),
        club_event(tmp_path, "Bath", deals),
        club_event(tmp_path, "cam"),
    ]


def percent(total: float, name: str) -> float:
    return round(100 * total / (10 if name in ONE_BOARD else 20), 2)


def test_sim_matchpoints_the_three_clubs_as_one_field(tmp_path: Path) -> None:
    out = tmp_path / "county.db"
    code, text, err = run("sim", out, *three_clubs(tmp_path), "--name", "County sim", "--json")
    assert code == 0, err
    data = json.loads(text)
    assert data["event"] == "County sim" and data["method"] == "mp"
    ranking = data["ranking"]
    assert {r["name"]: r["total"] for r in ranking if r["direction"] == "NS"} == NS_TOTALS
    assert {r["name"]: r["total"] for r in ranking if r["direction"] == "EW"} == EW_TOTALS
    for line in ranking:
        assert line["section"] == line["name"].split("/")[0]  # each line names its club
        assert line["percent"] == percent(line["total"], line["name"])
        assert line["boards"] == (1 if line["name"] in ONE_BOARD else 2)
    ranks = {r["name"]: r["rank"] for r in ranking}
    # NS: Bath 3N 75 %, Acol 1N 74 %, five pairs on 50 %, Bath 1N 26 %, Bath 2N 25 %.
    ns = ("Bath/3N", "Acol/1N", "Acol/2N", "cam/1N", "Bath/1N", "Bath/2N")
    assert [ranks[n] for n in ns] == ["1", "2", "3=", "3=", "8", "9"]
    # EW: Bath 1E and cam 2E 75 %, Bath 3E 74 %, three on 50 %, Acol 3E 26 %, ...
    ew = ("Bath/1E", "cam/2E", "Bath/3E", "cam/1E", "Acol/3E", "cam/3E")
    assert [ranks[n] for n in ew] == ["1=", "1=", "3", "4=", "7", "9"]
    clubs = {
        club: {(r["direction"], r["name"]): r["rank"] for r in lines}
        for club, lines in data["clubs"].items()
    }
    assert clubs == {
        "Acol": {("NS", "Acol/1N"): "1", ("NS", "Acol/2N"): "2=", ("NS", "Acol/3N"): "2=",
                 ("EW", "Acol/1E"): "1=", ("EW", "Acol/2E"): "1=", ("EW", "Acol/3E"): "3"},
        "Bath": {("NS", "Bath/3N"): "1", ("NS", "Bath/1N"): "2", ("NS", "Bath/2N"): "3",
                 ("EW", "Bath/1E"): "1", ("EW", "Bath/3E"): "2", ("EW", "Bath/2E"): "3"},
        "cam": {("NS", "cam/1N"): "1=", ("NS", "cam/2N"): "1=", ("NS", "cam/3N"): "1=",
                ("EW", "cam/2E"): "1", ("EW", "cam/1E"): "2", ("EW", "cam/3E"): "3"},
    }  # fmt: skip
    # A club's lines keep the field's totals.
    assert data["clubs"]["Bath"][0]["total"] == 15.0
    assert data["outliers"] == [
        {"club": "cam", "board": 1, "ns": "cam/3N", "ew": "cam/2E", "result": "4SE=",
         "score": -420, "usual": 420, "held": 4, "field": 6}
    ]  # fmt: skip
    assert data["event_file"] == str(out)
    assert "travellers" not in data


def test_the_sim_file_scores_as_any_event(tmp_path: Path) -> None:
    out = tmp_path / "county.db"
    code, text, err = run("sim", out, *three_clubs(tmp_path))
    assert code == 0, err
    assert "Outliers (most likely entered the wrong way round): 1" in text
    assert "cam: board 1 cam/3N v cam/2E: 4SE= (-420), where 4 of 6 scored +420" in text
    assert "\ncounty, Bath - matchpoints" in text and "\ncounty, cam - matchpoints" in text
    with EventStore(out, mode="read") as store:
        # The deals Acol and Bath knew; cam's boards were matched by number.
        assert {n: b.deal for n, b in store.boards().items()} == {
            n: Deal.from_pbn(DEAL) for n in (1, 2, 3)
        }
        assert store.results()[0].section == "Acol"
    code, scored, err = run("score", out, "--json")
    assert code == 0, err
    ranking = json.loads(scored)["ranking"]
    assert {r["name"]: r["total"] for r in ranking if r["direction"] == "NS"} == NS_TOTALS
    # Scored per section, each club is its own field: board 1 at Acol is +420 twice.
    code, scored, err = run("score", out, "--per-section", "--json")
    assert code == 0, err
    per_club = {r["name"]: r["total"] for r in json.loads(scored)["ranking"]}
    assert per_club["Acol/1N"] == 1.0 + 2.0  # board 1: tie on a top of 2; board 2: +630 top
    code, report, err = run("report", out)
    assert code == 0 and "Board 2" in report, err


def test_a_board_dealt_differently_is_refused_naming_both_events(tmp_path: Path) -> None:
    acol = club_event(tmp_path, "Acol", {1: DEAL, 2: DEAL})
    bath = club_event(tmp_path, "Bath", {1: DEAL, 2: OTHER_DEAL})
    out = tmp_path / "county.db"
    code, _, err = run("sim", out, acol, bath)
    assert code == 1
    assert f"board 2 is not the same board in {acol} and {bath}: its deal differs" in err
    assert not out.exists()


def test_an_existing_out_is_never_overwritten(tmp_path: Path) -> None:
    events = three_clubs(tmp_path)
    out = tmp_path / "county.db"
    out.write_bytes(b"precious")
    code, text, err = run("sim", out, *events, "--json")
    assert code == 1
    assert json.loads(text)["error"].startswith(f"{str(out)!r} already exists")
    assert "already exists" in err
    assert out.read_bytes() == b"precious"


def test_one_event_or_a_missing_one_is_refused(tmp_path: Path) -> None:
    acol = club_event(tmp_path, "Acol")
    code, _, err = run("sim", tmp_path / "out.db", acol)
    assert code == 2 and "two clubs or more, got 1" in err
    code, _, err = run("sim", tmp_path / "out.db", acol, tmp_path / "none.db")
    assert code == 2 and "no event file" in err and "none.db" in err
    code, _, err = run("sim", tmp_path / "no" / "out.db", acol, acol)
    assert code == 2 and "OUT" in err and "does not exist" in err


def test_two_events_of_one_club_are_refused() -> None:
    event = Event(results=(TableResult.played(1, "1N", "1E", "Pass"),))
    clubs = [SimClub("Acol", "a.db", event), SimClub("Acol", "b.db", event)]
    try:
        merge_clubs(clubs)
    except ValueError as error:
        assert "a.db and b.db are both club 'Acol'" in str(error)
    else:
        raise AssertionError("two clubs of one name were merged")


def test_an_outlier_needs_half_the_field_and_a_lone_negation() -> None:
    def board(*scores: int) -> Event:
        results = tuple(
            TableResult(1, f"{i}N", f"{i}E", score=s, section="X") for i, s in enumerate(scores)
        )
        return Event(results=results)

    assert [o.score for o in find_outliers(board(420, 420, 420, -420))] == [-420]
    # 2 of 4 is half the field; -420 held twice is not a slip of one table.
    assert [o.score for o in find_outliers(board(420, 420, 50, -420))] == [-420]
    assert find_outliers(board(420, 420, -420, -420)) == ()
    # 420 held by 2 of 5: not the field's score.
    assert find_outliers(board(420, 420, 50, 100, -420)) == ()
    # A passed-out board's 0 is its own negation.
    assert find_outliers(board(0, 0, 0, 50)) == ()


def test_a_board_of_another_vulnerability_is_refused() -> None:
    def club(name: str, vulnerable: Vulnerability) -> SimClub:
        results = (TableResult.played(1, "1N", "1E", "Pass"),)
        event = Event(boards={1: Board(1, vulnerable=vulnerable)}, results=results)
        return SimClub(name, f"{name}.db", event)

    try:
        merge_clubs([club("a", Vulnerability.NONE), club("b", Vulnerability.BOTH)])
    except RecordError as error:
        assert str(error).startswith("board 1 is not the same board in a.db and b.db: its vul")
    else:
        raise AssertionError("a board of two vulnerabilities was merged")


def test_a_club_ranks_its_lines_tied_only_where_the_field_ties_them() -> None:
    # Each club's pairs 1 and 2 play board 1 (1 NS) and board 2 (2 NS): no fixed
    # directions, so one ranking; 3 results a board, top 4, no Neuberg.
    # Board 1, X +420, Y +420, Z -50: each +420 gets 2 + 1 = 3, -50 gets 0.
    # Board 2, the pairs swapped: X 2 v 1 +100, Y 2 v 1 +110, Z 2 v 1 +100:
    # +110 gets 4; +100s 1 each. Totals: X/1 3 + 3 = 6, X/2 1 + 1 = 2; Y/1 3 + 0 = 3,
    # Y/2 1 + 4 = 5; Z/1 0 + 3 = 3, Z/2 4 + 1 = 5. Field: X/1 6 (1), Y/2 and Z/2 5 (2=),
    # Y/1 and Z/1 3 (4=), X/2 2 (6).
    clubs = [
        SimClub(name, f"{name}.db", Event(results=(
            TableResult(1, "1", "2", score=first), TableResult(2, "2", "1", score=second)
        )))
        for name, first, second in (("X", 420, 100), ("Y", 420, 110), ("Z", -50, 100))
    ]  # fmt: skip
    sim = score_sim(merge_clubs(clubs))
    assert [(s.rank, s.name, s.total) for s in sim.scored.standings] == [
        ("1", "X/1", 6.0), ("2=", "Y/2", 5.0), ("2=", "Z/2", 5.0),
        ("4=", "Y/1", 3.0), ("4=", "Z/1", 3.0), ("6", "X/2", 2.0),
    ]  # fmt: skip
    rankings = sim.club_rankings
    assert {club: [(s.rank, s.name) for s in lines] for club, lines in rankings.items()} == {
        "X": [("1", "X/1"), ("2", "X/2")],
        "Y": [("1", "Y/2"), ("2", "Y/1")],
        "Z": [("1", "Z/2"), ("2", "Z/1")],
    }  # fmt: skip


def test_serve_scores_listed_events_as_one_sim(tmp_path: Path) -> None:
    """``GET /api/sim`` on ``serve``: the same field as ``session sim --json``, nothing written."""
    from fastapi.testclient import TestClient

    from bridgescore.web.app import WebSettings, create_app

    events = tmp_path / "events"
    events.mkdir()
    three_clubs(events)
    before = sorted(p.name for p in events.iterdir())
    settings = WebSettings(events=events, solver_workers=1, warm_solver=False)
    names = [("event", "acol.db"), ("event", "bath.db"), ("event", "cam.db")]
    with TestClient(create_app(settings)) as client:
        answer = client.get("/api/sim", params=[*names, ("name", "County sim")])
        assert answer.status_code == 200, answer.text
        data = answer.json()
        assert data["event"] == "County sim"
        ranking = data["ranking"]
        assert {r["name"]: r["total"] for r in ranking if r["direction"] == "NS"} == NS_TOTALS
        assert {r["name"]: r["total"] for r in ranking if r["direction"] == "EW"} == EW_TOTALS
        assert [(o["club"], o["board"], o["ns"], o["score"]) for o in data["outliers"]] == [
            ("cam", 1, "cam/3N", -420)
        ]
        assert set(data["clubs"]) == {"Acol", "Bath", "cam"}
        # Refusals: a 4xx naming what is wrong, never a 5xx, never a path outside the list.
        for params, status, words in [
            ([("event", "acol.db")], 422, "two clubs or more"),
            ([("event", "acol.db"), ("event", "../acol.db")], 404, "'../acol.db'"),
            ([("event", "acol.db"), ("event", "acol.db")], 422, "named twice"),
            ([("event", "acol.db"), ("event", "Acol-boards.pbn")], 404, "Acol-boards.pbn"),
            ([], 422, "event"),
        ]:
            refused = client.get("/api/sim", params=params)
            assert refused.status_code == status, (params, refused.text)
            assert words in refused.json()["detail"], refused.text
    assert sorted(p.name for p in events.iterdir()) == before  # nothing written


def test_a_clubs_sections_bring_their_own_players() -> None:
    # Acol ran two sections: its A 1N and B 1N are two pairs with their own players
    # (kept as A:1N, B:1N); Bath ran one (a bare label). The sim labels each pair with
    # its club (and section) and gives it its own players, no one else's.
    acol = Event(
        results=(
            TableResult(1, "1N", "1E", score=420, section="A"),
            TableResult(1, "1N", "1E", score=450, section="B"),
        ),
        members={"A:1N": (Member("Ann Archer"),), "B:1N": (Member("Cate Cole"),)},
    )
    bath = Event(
        results=(TableResult(1, "1N", "1E", score=-50),), members={"1N": (Member("Eve Ellis"),)}
    )
    merged = merge_clubs([SimClub("Acol", "acol.db", acol), SimClub("Bath", "bath.db", bath)])
    assert merged.members == {
        "Acol/A/1N": (Member("Ann Archer"),),
        "Acol/B/1N": (Member("Cate Cole"),),
        "Bath/1N": (Member("Eve Ellis"),),
    }


def test_a_stated_north_dealer_and_no_one_vulnerable_are_kept() -> None:
    # Board 2 by Law 2: East deals, NS vulnerable. One club's file states North and no one
    # vulnerable (Seat.NORTH and Vulnerability.NONE, members worth 0), the other states
    # nothing: the sim keeps the stated board, whichever club comes first.
    def club(name: str, board: Board) -> SimClub:
        results = (TableResult.played(2, "1N", "1E", "Pass"),)
        return SimClub(name, f"{name}.db", Event(boards={2: board}, results=results))

    stated = Board(2, dealer_seat=Seat.NORTH, vulnerable=Vulnerability.NONE)
    for first, second in ((stated, Board(2)), (Board(2), stated)):
        merged = merge_clubs([club("a", first), club("b", second)]).boards[2]
        assert (merged.dealer, merged.vulnerability) == (Seat.NORTH, Vulnerability.NONE)
