"""session/reports/usebio.py and ``session export``: a live event written as USEBIO 1.2.

USEBIO numbers a two-winner Mitchell's pairs within their direction (NS pair 1 and
EW pair 1, each a PAIR with PAIR_NUMBER and DIRECTION; a traveller line names them
by number, its side telling which); a Howell's pairs by number alone. Each player is
one PLAYER, the club the CLUB_NAME, an opening lead the line's LEAD. Scores are the
Laws' (Law 77): board 1 none vulnerable, board 2 NS, 3 EW, 4 both, 5 NS, 6 EW.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.errors import BridgeError
from bridgescore.movement.howell import howell
from bridgescore.movement.model import Movement
from bridgescore.notation import Result
from bridgescore.session.live.creation import create_event
from bridgescore.session.live.entry import ResultEntry
from bridgescore.session.live.event import LiveEvent
from bridgescore.session.reports.usebio import pair_numbers
from bridgescore.session.store.events import EventStore
from live_movements import three_table_mitchell

runner = CliRunner()

# Each board's results in the order its tables play it: (contract, declarer, result, lead).
RESULTS: dict[int, list[tuple[str, str, str, str | None]]] = {
    1: [("4S", "N", "+1", "HK"), ("4S", "N", "=", None), ("3NT", "S", "+1", "D2")],
    2: [("4S", "N", "=", "C3"), ("4S", "N", "-1", None), ("3NT", "E", "-2", "SA")],
    3: [("2H", "E", "=", None), ("3H", "E", "=", "SQ"), ("2S", "N", "-1", None)],
    4: [("3NT", "N", "=", None), ("3NT", "N", "-1", None), ("4HX", "E", "-2", "CA")],
    5: [("1NT", "S", "+1", None), ("2S", "N", "=", None), ("PASS", "", "", None)],
    6: [("4H", "W", "=", "D5"), ("4H", "W", "-1", None), ("5DX", "N", "-2", None)],
}


def play_all(path: str, movement: Movement) -> dict[tuple[int, str, str], str]:
    """Enter every board of ``movement``, round by round; the leads entered, by
    (board, NS, EW)."""
    seen: dict[int, int] = {}
    leads: dict[tuple[int, str, str], str] = {}
    with LiveEvent(path) as live:
        for row in sorted(movement.rows, key=lambda r: (r.round, r.table)):
            for board in row.boards:
                contract, declarer, result, lead = RESULTS[board][seen.get(board, 0)]
                seen[board] = seen.get(board, 0) + 1
                if contract == "PASS":
                    entry = ResultEntry(row.round, board, Result(None))
                else:
                    entry = ResultEntry.from_json(
                        {
                            "round": row.round,
                            "board": board,
                            "contract": contract,
                            "declarer": declarer,
                            "result": result,
                            "lead": lead,
                        }
                    )
                live.enter_result(movement.section, row.table, entry, who=f"table {row.table}")
                if lead is not None:
                    leads[(board, row.ns, row.ew)] = lead
    return leads


def live_event(tmp_path: Path, movement: Movement, names: dict[str, list[str]]) -> Any:
    made = create_event(tmp_path / "club.db", movement, name="Club night")
    with LiveEvent(made.event) as live:
        live.set_club("Riverside Bridge Club")
        for pair, players in names.items():
            live.set_pair_name(pair, players)
    return made


def exported(tmp_path: Path, event: str) -> ET.Element:
    out = tmp_path / "club.xml"
    answer = runner.invoke(app, ["session", "export", event, str(out)])
    assert answer.exit_code == 0, answer.output
    return ET.fromstring(out.read_text(encoding="utf-8").split("\n", 2)[2])


def ranking(event: str | Path) -> list[tuple[Any, ...]]:
    answer = runner.invoke(app, ["session", "score", str(event), "--json"])
    assert answer.exit_code == 0, answer.output
    data = json.loads(answer.output)
    return [
        (s["rank"], s["name"], s["direction"], s["total"], s["percent"]) for s in data["ranking"]
    ]


MITCHELL_NAMES = {
    "1N": ["Ann Archer", "Bob Baker"],
    "1E": ["Cate Cole", "Dan Dale"],
    "2N": ["Eve East", "Fay Fox"],
    "2E": ["Gus Gray", "Hal Hart"],
    "3N": ["Ida Ives", "Jon Jay"],
    "3E": ["Kim Kent", "Lou Lamb"],
}


def test_pair_numbers_of_a_mitchell_and_of_a_howell() -> None:
    assert pair_numbers(["1N", "1E", "2N", "2E"]) == {
        "1N": ("1", "NS"), "1E": ("1", "EW"), "2N": ("2", "NS"), "2E": ("2", "EW"),
    }  # fmt: skip
    assert pair_numbers(["1NS", "1EW"]) == {"1NS": ("1", "NS"), "1EW": ("1", "EW")}
    assert pair_numbers(["1", "2", "3"]) == {"1": ("1", ""), "2": ("2", ""), "3": ("3", "")}
    # One name that is not a number and direction: every pair is its own number.
    assert pair_numbers(["1N", "Smith"]) == {"1N": ("1N", ""), "Smith": ("Smith", "")}


def test_mitchell_export_numbers_directions_players_club_and_leads(tmp_path: Path) -> None:
    movement = three_table_mitchell()
    made = live_event(tmp_path, movement, MITCHELL_NAMES)
    leads = play_all(made.event, movement)
    root = exported(tmp_path, made.event)
    assert root.findtext("CLUB/CLUB_NAME") == "Riverside Bridge Club"
    pairs = {
        (p.findtext("PAIR_NUMBER"), p.findtext("DIRECTION")): [
            player.findtext("PLAYER_NAME") for player in p.findall("PLAYER")
        ]
        for p in root.iter("PAIR")
    }
    assert pairs == {
        ("1", "NS"): ["Ann Archer", "Bob Baker"],
        ("1", "EW"): ["Cate Cole", "Dan Dale"],
        ("2", "NS"): ["Eve East", "Fay Fox"],
        ("2", "EW"): ["Gus Gray", "Hal Hart"],
        ("3", "NS"): ["Ida Ives", "Jon Jay"],
        ("3", "EW"): ["Kim Kent", "Lou Lamb"],
    }
    lines = {}
    for board in root.iter("BOARD"):
        number = int(board.findtext("BOARD_NUMBER") or 0)
        for line in board.iter("TRAVELLER_LINE"):
            ns, ew = line.findtext("NS_PAIR_NUMBER"), line.findtext("EW_PAIR_NUMBER")
            lines[(number, ns, ew)] = line
    assert len(lines) == 18
    # Board 1, round 1 at table 1: 1N v 1E, 4S by N making 11 tricks, not vulnerable:
    # 4 x 30 + 300 + 30 = 450, led the king of hearts.
    first = lines[(1, "1", "1")]
    assert [first.findtext(k) for k in ("CONTRACT", "PLAYED_BY", "LEAD", "TRICKS", "SCORE")] == [
        "4S", "N", "HK", "11", "450",
    ]  # fmt: skip
    # Board 2 (NS vulnerable), round 3 at table 2: 2N v 3E, 3NT by E two down, EW not
    # vulnerable: +100 to NS, led the ace of spades.
    third = lines[(2, "2", "3")]
    assert [third.findtext(k) for k in ("CONTRACT", "PLAYED_BY", "LEAD", "SCORE")] == [
        "3NT", "E", "SA", "100",
    ]  # fmt: skip
    written = {
        (board, ns, ew): line.findtext("LEAD")
        for (board, ns, ew), line in lines.items()
        if line.find("LEAD") is not None
    }
    assert written == {(b, ns[:-1], ew[:-1]): lead for (b, ns, ew), lead in leads.items()}


def test_mitchell_export_reads_back_to_the_same_ranking(tmp_path: Path) -> None:
    movement = three_table_mitchell()
    made = live_event(tmp_path, movement, MITCHELL_NAMES)
    play_all(made.event, movement)
    exported(tmp_path, made.event)
    again = tmp_path / "again.db"
    answer = runner.invoke(app, ["session", "import", str(again), str(tmp_path / "club.xml")])
    assert answer.exit_code == 0, answer.output
    # The file's pair 1 NS is the live event's 1N; EW pair 1 its 1E.
    live_names = {"1NS": "1N", "1EW": "1E", "2NS": "2N", "2EW": "2E", "3NS": "3N", "3EW": "3E"}
    read_back = [(rank, live_names[name], *rest) for rank, name, *rest in ranking(again)]
    assert read_back == ranking(made.event)
    with EventStore(again, mode="read") as store:
        assert store.club == "Riverside Bridge Club"  # the file's CLUB_NAME, kept
    assert len(read_back) == 6 and {line[2] for line in read_back} == {"NS", "EW"}
    answer = runner.invoke(app, ["session", "score", str(again), "--json"])
    (first,) = [s for s in json.loads(answer.output)["ranking"] if s["name"] == "1NS"]
    assert first["players"] == [
        {"name": "Ann Archer", "number": None},
        {"name": "Bob Baker", "number": None},
    ]


def test_howell_export_has_no_directions_and_reads_back(tmp_path: Path) -> None:
    movement = howell(tables=2, boards_per_round=2)
    names = {pair: [f"Player {pair}a", f"Player {pair}b"] for pair in movement.pairs}
    made = live_event(tmp_path, movement, names)
    play_all(made.event, movement)
    root = exported(tmp_path, made.event)
    pairs = [
        (p.findtext("PAIR_NUMBER"), p.find("DIRECTION"), len(p.findall("PLAYER")))
        for p in root.iter("PAIR")
    ]
    assert pairs == [("1", None, 2), ("2", None, 2), ("3", None, 2), ("4", None, 2)]
    assert root.findtext("CLUB/CLUB_NAME") == "Riverside Bridge Club"
    again = tmp_path / "again.db"
    answer = runner.invoke(app, ["session", "import", str(again), str(tmp_path / "club.xml")])
    assert answer.exit_code == 0, answer.output
    assert ranking(again) == ranking(made.event)


def test_player_names_and_club_are_checked(tmp_path: Path) -> None:
    made = create_event(tmp_path / "club.db", three_table_mitchell(), name="Club")
    with LiveEvent(made.event) as live:
        live.set_pair_name("1N", "Ann Archer & Bob Baker")  # one text: split at '&'
        assert [m.name for m in live.players()["1N"]] == ["Ann Archer", "Bob Baker"]
        assert live.pair_names()["1N"] == "Ann Archer & Bob Baker"
        with pytest.raises(BridgeError, match="expected 1 to 6 names"):
            live.set_pair_name("1E", ["", " "])
        with pytest.raises(BridgeError, match="club name"):
            live.set_club("x" * 121)
        assert live.club == ""


# A weighted score on a board with fewer results (the numbers worked by hand in
# tests/session/scoring/test_adjustment.py): board 1 has four results (top 6); on board
# 2, 7-8 are given 1/2 of 2H= (+110) and 1/2 of 2H-1 (-50) beside 1-2 2H= and 3-4 2H+1:
# the exact weighted sums Neuberg'd to four results and rounded once give 1-2 2.3/3.7,
# 3-4 5.7/0.3 and 7-8 1/5 MP; 7-8's NS share of the top 6 is 1/6 = 16.67 % (17), EW's
# 83.33 % (83).
def weighted_event() -> Any:
    from bridgescore.session.scoring.event import Event, TableResult
    from bridgescore.session.scoring.weighted import Weighted

    return Event("Club", "pairs", results=(
        TableResult.played(1, "1", "2", "4SN="), TableResult.played(1, "3", "4", "4SN+1"),
        TableResult.played(1, "5", "6", "4SN-1"), TableResult.played(1, "9", "10", "4SN="),
        TableResult.played(2, "1", "2", "2HN="), TableResult.played(2, "3", "4", "2HN+1"),
        TableResult(2, "7", "8", weighted=Weighted.parse("1/2 2HN=; 1/2 2HN-1")),
    ))  # fmt: skip


def board_lines(text: str, board: int) -> dict[tuple[str, str], dict[str, str]]:
    root = ET.fromstring(text.split("\n", 2)[2])  # past the prolog and DOCTYPE
    return {
        (line.findtext("NS_PAIR_NUMBER") or "", line.findtext("EW_PAIR_NUMBER") or ""): {
            child.tag: child.text or "" for child in line
        }
        for element in root.iter("BOARD")
        if element.findtext("BOARD_NUMBER") == str(board)
        for line in element.iter("TRAVELLER_LINE")
    }


def test_a_weighted_score_is_written_as_an_adjusted_score_with_its_points_stated() -> None:
    from bridgescore.session.reports.usebio import export_usebio

    notes: list[str] = []
    lines = board_lines(export_usebio(weighted_event(), notes=notes), 2)
    assert lines[("7", "8")] == {
        "NS_PAIR_NUMBER": "7", "EW_PAIR_NUMBER": "8", "CONTRACT": "", "PLAYED_BY": "",
        "TRICKS": "", "SCORE": "A1783", "NS_MATCH_POINTS": "1", "EW_MATCH_POINTS": "5",
    }  # fmt: skip
    # The other tables' points, weighed against 7-8 in the same proportions.
    assert (lines[("1", "2")]["NS_MATCH_POINTS"], lines[("1", "2")]["EW_MATCH_POINTS"]) == (
        "2.3",
        "3.7",
    )
    assert (lines[("3", "4")]["NS_MATCH_POINTS"], lines[("3", "4")]["EW_MATCH_POINTS"]) == (
        "5.7",
        "0.3",
    )
    assert notes == [
        "board 2 7 v 8: the weighted score 1/2 2HN=; 1/2 2HN-1 is written as an adjusted "
        "score, A1783, with its points stated, 1/5: USEBIO holds no weighted score"
    ]


def test_session_export_of_a_night_with_a_weighted_score(tmp_path: Path) -> None:
    from bridgescore.session.store.events import Origin

    path = tmp_path / "club.db"
    with EventStore(path, mode="create") as store:
        store.add([], [(result, Origin("test", 0)) for result in weighted_event().results])
    out = tmp_path / "club.xml"
    answer = runner.invoke(app, ["session", "export", str(path), str(out)])
    assert answer.exit_code == 0, answer.output
    assert "note: board 2 7 v 8: the weighted score 1/2 2HN=; 1/2 2HN-1 is written" in (
        answer.output
    )
    assert board_lines(out.read_text(encoding="utf-8"), 2)[("7", "8")]["SCORE"] == "A1783"
    # Read back, the line is a bad line that says what it is; the rest is imported.
    again = tmp_path / "again.db"
    answer = runner.invoke(app, ["session", "import", str(again), str(out)])
    assert answer.exit_code == 1
    assert "board 2 7 v 8: adjusted score 'A1783' with points stated, 1/5 (a weighted" in (
        answer.output
    )
    with EventStore(again, mode="read") as store:
        assert len(store.load().results) == 6


def test_a_fouled_boards_versions_stay_apart_in_the_export_and_read_back() -> None:
    """Board 1 was fouled: 1-2 and 3-4 played one version, 5-6 and 7-8 another (Law 87),
    each compared only within its own and Neuberg'd to the board's four results
    (docs/sessions.md): 3 (+450) beats 1 (+420), 7 (+130) beats 5 (+100), so 2 -> (2 + 1)
    4 / 2 - 1 = 5 and 0 -> 1 on a top of 6. As one traveller: 3 6, 1 4, 7 2, 5 0."""
    from bridgescore.session.importers.usebio import read_usebio_event
    from bridgescore.session.reports.usebio import export_usebio
    from bridgescore.session.scoring.event import Event, TableResult
    from bridgescore.session.scoring.scorer import score_event

    results = (
        TableResult.played(1, "1", "2", "4SN="), TableResult.played(1, "3", "4", "4SN+1"),
        TableResult.played(1, "5", "6", "3DN=", variant="B"),
        TableResult.played(1, "7", "8", "3DN+1", variant="B"),
    )  # fmt: skip
    text = export_usebio(Event("Club", "pairs", results=results))
    root = ET.fromstring(text.split("\n", 2)[2])
    boards = [
        sorted(line.findtext("NS_PAIR_NUMBER") or "" for line in board.iter("TRAVELLER_LINE"))
        for board in root.iter("BOARD")
    ]
    assert boards == [["1", "3"], ["5", "7"]]  # two BOARDs numbered 1
    read = [result for result, _ in read_usebio_event(text, "club.xml").parsed.results]
    versions = {result.ns: result.variant for result in read}
    assert versions["1"] == versions["3"] != versions["5"] == versions["7"]
    scored = score_event(Event("Club", "pairs", results=tuple(read)), "mp")
    points = {line.result.ns: line.ns for t in scored.travellers for line in t.lines}
    assert points == {"1": 1.0, "3": 5.0, "5": 1.0, "7": 5.0}


def test_a_swapped_tables_export_reads_back_to_the_same_ranking(tmp_path: Path) -> None:
    """The 3-table Mitchell's round 1, table 2 sat the wrong way round (``session swap``):
    2E sat NS and 2N EW on boards 3 and 4. The line names 2E as 2EW on the NS side, and
    read back each pair keeps its own field and its own points."""
    movement = three_table_mitchell()
    made = live_event(tmp_path, movement, MITCHELL_NAMES)
    swapped = runner.invoke(app, ["session", "swap", made.event, "--table", "2", "--round", "1"])
    assert swapped.exit_code == 0, swapped.output
    play_all(made.event, movement)
    exported(tmp_path, made.event)
    text = (tmp_path / "club.xml").read_text(encoding="utf-8")
    lines = board_lines(text, 3)
    assert ("2EW", "2NS") in lines and ("2", "2") not in lines
    again = tmp_path / "again.db"
    answer = runner.invoke(app, ["session", "import", str(again), str(tmp_path / "club.xml")])
    assert answer.exit_code == 0, answer.output
    live_names = {"1NS": "1N", "1EW": "1E", "2NS": "2N", "2EW": "2E", "3NS": "3N", "3EW": "3E"}
    read_back = [(rank, live_names[name], *rest) for rank, name, *rest in ranking(again)]
    assert read_back == ranking(made.event)
    assert {(name, direction) for _, name, direction, *_ in read_back} == {
        ("1N", "NS"), ("2N", "NS"), ("3N", "NS"), ("1E", "EW"), ("2E", "EW"), ("3E", "EW")
    }  # fmt: skip
