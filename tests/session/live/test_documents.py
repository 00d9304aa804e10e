"""session/live/documents.py: what a live event answers (the audit log, a traveller, the
ranking and the report, a table's rounds, each table's progress) as values whose
``as_dict()`` is the JSON the live API sends.

The event: two tables play board 1 (nobody vulnerable) in one round. Table 1: 4S by North
with an overtrick, 120 + 30 + 300 + 50 = NS +450. Table 2: 4S by North made, then corrected
by the director to one down, NS -50. On the 2/1 matchpoint scale a board played twice has
a top of 2: 1N and 2E score 2, 2N and 1E nothing.

The evening of the tables' views (``three_tables``): a three-table Mitchell of two rounds
written out by hand, EW pairs moving up a table and boards down a table after round 1:

    round 1: table 1 1N v 1E boards 1-2, table 2 2N v 2E boards 3-4, table 3 3N v 3E 5-6
    round 2: table 1 1N v 3E boards 3-4, table 2 2N v 1E boards 5-6, table 3 3N v 2E 1-2
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bridgescore.deal import Card
from bridgescore.movement.flow import NextStop
from bridgescore.movement.model import Movement, Row
from bridgescore.notation import Result
from bridgescore.session.live.creation import create_event
from bridgescore.session.live.documents import (
    AuditLine,
    EnteredResult,
    LiveReport,
    LiveTraveller,
    NextMove,
    NextSeat,
    RoundProgress,
    SwissProgress,
    TableProgress,
    TableRound,
    TableView,
)
from bridgescore.session.live.entry import ResultEntry
from bridgescore.session.live.event import LiveEvent
from bridgescore.session.live.swiss import SwissDrawn, create_swiss_event


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveEvent]:
    movement = Movement(
        "mitchell", 2, 1, 1, (Row(1, 1, "1N", "1E", (1,)), Row(1, 2, "2N", "2E", (1,)))
    )
    made = create_event(tmp_path / "club.db", movement, name="Club")
    event = LiveEvent(made.event)
    event.enter_result("A", 1, ResultEntry(1, 1, Result.parse("4SN+1")), who="table 1")
    event.enter_result("A", 2, ResultEntry(1, 1, Result.parse("4SN=")), who="table 2")
    event.correct_result("A", 2, ResultEntry(1, 1, Result.parse("4SN-1")), reason="revoke")
    with event:
        yield event


def test_the_audit_log_is_lines(live: LiveEvent) -> None:
    lines = live.audit()
    assert all(isinstance(line, AuditLine) for line in lines)
    assert all(re.fullmatch(r"20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", line.at) for line in lines)
    written = [{**line.as_dict(), "at": "-"} for line in lines]
    assert written == [
        {"entry": 1, "at": "-", "who": "table 1", "action": "enter", "section": "", "board": 1,
         "ns": "1N", "ew": "1E", "old": None, "new": "4SN+1", "reason": ""},
        {"entry": 2, "at": "-", "who": "table 2", "action": "enter", "section": "", "board": 1,
         "ns": "2N", "ew": "2E", "old": None, "new": "4SN=", "reason": ""},
        {"entry": 3, "at": "-", "who": "director", "action": "correct", "section": "",
         "board": 1, "ns": "2N", "ew": "2E", "old": "4SN=", "new": "4SN-1", "reason": "revoke"},
    ]  # fmt: skip


def line(ns: str, ew: str, result: str, score: int, ns_points: float) -> dict[str, object]:
    return {
        "ns": ns, "ew": ew, "section": "", "variant": "", "kind": "played", "result": result,
        "ns_score": score, "ns_points": ns_points, "ew_points": 2.0 - ns_points,
        "ns_percent": 50.0 * ns_points, "ew_percent": 100.0 - 50.0 * ns_points,
        "imps_vs_par": None, "contract": "4S", "declarer": "N",
    }  # fmt: skip


def test_a_traveller_is_a_value(live: LiveEvent) -> None:
    traveller = live.traveller(1)
    assert isinstance(traveller, LiveTraveller)
    assert traveller.unit == "MP" and traveller.traveller.board.number == 1
    lines = [(lined.result.ns, lined.ns_score, lined.ns) for lined in traveller.traveller.lines]
    assert lines == [("1N", 450, 2.0), ("2N", -50, 0.0)]
    assert traveller.as_dict() == {
        "board": 1, "section": "", "dealer": "N", "vulnerability": "None", "deal": None,
        "dd_table": None, "top": 2.0, "datum": None, "par": None, "par_contracts": None,
        "results": [line("1N", "1E", "4SN+1", 450, 2.0), line("2N", "2E", "4SN-1", -50, 0.0)],
        "unit": "MP",
    }  # fmt: skip


def standing(rank: str, name: str, direction: str, total: float) -> dict[str, object]:
    return {"rank": rank, "name": name, "section": "", "direction": direction, "total": total,
            "boards": 1, "percent": 50.0 * total, "average": total}  # fmt: skip


def test_the_ranking_and_the_report_are_values(live: LiveEvent) -> None:
    ranking = live.ranking()
    report = live.report()
    assert isinstance(ranking, LiveReport) and isinstance(report, LiveReport)
    assert ranking.scored.travellers == () and not ranking.travellers
    written = ranking.as_dict()
    assert "travellers" not in written
    assert (written["event"], written["method"], written["unit"]) == ("Club", "mp", "MP")
    assert written["ranking"] == [
        standing("1", "1N", "NS", 2.0),
        standing("2", "2N", "NS", 0.0),
        standing("1", "2E", "EW", 2.0),
        standing("2", "1E", "EW", 0.0),
    ]
    # The report is the ranking with the travellers.
    full = report.as_dict()
    assert [t["board"] for t in full["travellers"]] == [1]
    assert {key: value for key, value in full.items() if key != "travellers"} == written


# ------------------------------------------------------------ a table's rounds, progress


@pytest.fixture
def three_tables(tmp_path: Path) -> Iterator[LiveEvent]:
    rows = (
        Row(1, 1, "1N", "1E", (1, 2)), Row(1, 2, "2N", "2E", (3, 4)), Row(1, 3, "3N", "3E", (5, 6)),
        Row(2, 1, "1N", "3E", (3, 4)), Row(2, 2, "2N", "1E", (5, 6)), Row(2, 3, "3N", "2E", (1, 2)),
    )  # fmt: skip
    made = create_event(tmp_path / "three.db", Movement("mitchell", 3, 2, 2, rows))
    event = LiveEvent(made.event)
    # Table 1 plays both rounds: board 1 (none vulnerable) 4S by N +1 = 450, led from the
    # heart queen; board 2 the director's 60/40; board 3 passed out; board 4 not played.
    event.enter_result("A", 1, ResultEntry(1, 1, Result.parse("4SN+1"), Card.parse("HQ")), who="t")
    event.adjust("A", 1, 1, 2, "60/40")
    event.enter_result("A", 1, ResultEntry(2, 3, Result(None)), who="table 1")
    event.adjust("A", 1, 2, 4, "not played")
    # Table 2 plays round 1: board 3 (EW vulnerable) 3NT by S (not vulnerable) +1 =
    # 100 + 300 + 30 = NS +430; board 4 (both vulnerable) 2HX by E made: 120 doubled
    # tricks, a vulnerable game's 500, 50 for the insult = NS -670. Table 3 plays nothing.
    event.enter_result("A", 2, ResultEntry(1, 3, Result.parse("3NTS+1")), who="table 2")
    event.enter_result("A", 2, ResultEntry(1, 4, Result.parse("2HXE=")), who="table 2")
    with event:
        yield event


def test_a_tables_rounds_are_a_view(three_tables: LiveEvent) -> None:
    view = three_tables.table_view("A", 1)
    # After round 1 at table 1: 1N stays, 1E moves up to table 2, boards 1-2 go down to
    # table 3 (it plays them in round 2); round 2 is the last, so no move after it.
    after_round_1 = NextMove(NextSeat(1, "NS"), NextSeat(2, "EW"), (NextStop((1, 2), (3,)),))
    assert view == TableView(
        "A",
        1,
        (
            TableRound(
                1, "1N", "1E", (1, 2), False,
                (EnteredResult(1, "4SN+1", 450, "HQ"), EnteredResult(2, "60/40", None, None)),
                after_round_1,
            ),
            TableRound(
                2, "1N", "3E", (3, 4), False,
                (EnteredResult(3, "Pass", 0, None), EnteredResult(4, "not played", None, None)),
                None,
            ),
        ),
    )  # fmt: skip
    assert view.rounds[0].entered == (1, 2) and view.rounds[0].complete
    assert after_round_1.boards_to == 3
    assert view.round_of(2) is view.rounds[1] and view.round_of(3) is None
    assert view.as_dict() == {
        "section": "A",
        "table": 1,
        "rounds": [
            {"round": 1, "ns": "1N", "ew": "1E", "boards": [1, 2], "entered": [1, 2],
             "arrow_switch": False,
             "results": [
                 {"board": 1, "result": "4SN+1", "score_ns": 450, "lead": "HQ"},
                 {"board": 2, "result": "60/40", "score_ns": None, "lead": None},
             ],
             "next": {"ns": {"table": 1, "direction": "NS"},
                      "ew": {"table": 2, "direction": "EW"},
                      "boards_to": 3,
                      "boards": [{"boards": [1, 2], "to": "table 3", "tables": [3]}]}},
            {"round": 2, "ns": "1N", "ew": "3E", "boards": [3, 4], "entered": [3, 4],
             "arrow_switch": False,
             "results": [
                 {"board": 3, "result": "Pass", "score_ns": 0, "lead": None},
                 {"board": 4, "result": "not played", "score_ns": None, "lead": None},
             ],
             "next": None},
        ],
    }  # fmt: skip


def test_a_round_half_entered_and_one_not_started(three_tables: LiveEvent) -> None:
    table_2 = three_tables.table_view("A", 2)
    # 2N stays, 2E moves up to table 3, boards 3-4 go down to table 1.
    assert table_2.rounds[0] == TableRound(
        1, "2N", "2E", (3, 4), False,
        (EnteredResult(3, "3NTS+1", 430, None), EnteredResult(4, "2HXE=", -670, None)),
        NextMove(NextSeat(2, "NS"), NextSeat(3, "EW"), (NextStop((3, 4), (1,)),)),
    )  # fmt: skip
    table_3 = three_tables.table_view("A", 3).rounds[0]
    assert (table_3.results, table_3.entered, table_3.complete) == ((), (), False)
    assert table_3.as_dict()["entered"] == [] and table_3.as_dict()["results"] == []


def test_progress_is_a_value_per_table(three_tables: LiveEvent) -> None:
    progress = three_tables.progress()
    # Table 1 is done (counted as round 3), table 2 in round 2, table 3 in round 1: the
    # median table is in round 2, so table 3 is a round behind. A director's decision
    # (60/40, not played) counts as entered.
    assert progress == (
        TableProgress("A", 1, None, False, (RoundProgress(1, 2, 2), RoundProgress(2, 2, 2))),
        TableProgress("A", 2, 2, False, (RoundProgress(1, 2, 2), RoundProgress(2, 0, 2))),
        TableProgress("A", 3, 1, True, (RoundProgress(1, 0, 2), RoundProgress(2, 0, 2))),
    )
    assert [table.as_dict() for table in progress] == [
        {"section": "A", "table": 1, "current_round": None, "late": False,
         "rounds": [{"round": 1, "entered": 2, "due": 2}, {"round": 2, "entered": 2, "due": 2}]},
        {"section": "A", "table": 2, "current_round": 2, "late": False,
         "rounds": [{"round": 1, "entered": 2, "due": 2}, {"round": 2, "entered": 0, "due": 2}]},
        {"section": "A", "table": 3, "current_round": 1, "late": True,
         "rounds": [{"round": 1, "entered": 0, "due": 2}, {"round": 2, "entered": 0, "due": 2}]},
    ]  # fmt: skip
    assert three_tables.swiss_progress() is None


def test_a_swapped_table_is_a_value(three_tables: LiveEvent) -> None:
    # Table 2 sat the wrong way in round 1: 2E held the NS cards; both boards' results
    # go to the pairs as they sat.
    swapped = three_tables.swap_table(table=2, round=1, who="director")
    assert (swapped.section, swapped.relabelled) == ("A", (3, 4))
    assert (swapped.row.ns, swapped.row.ew, swapped.row.boards) == ("2E", "2N", (3, 4))
    assert swapped.as_dict() == {
        "section": "A", "round": 1, "table": 2, "ns": "2E", "ew": "2N", "boards": [3, 4],
        "relabelled": [3, 4],
    }  # fmt: skip
    # The table's view follows: its home pairs as they sat, the results unchanged.
    first = three_tables.table_view("A", 2).rounds[0]
    assert (first.ns, first.ew, first.entered) == ("2E", "2N", (3, 4))


def test_a_swiss_draw_is_a_value(tmp_path: Path) -> None:
    made, first = create_swiss_event(tmp_path / "swiss.db", teams=4, rounds=3, boards_per_round=1)
    # Round 1 by seeding order: 1 v 2 at tables 1-2, 3 v 4 at tables 3-4.
    assert first == SwissDrawn(1, (("1", "2"), ("3", "4")), None)
    assert first.match_tables == ((1, 2), (3, 4))
    with LiveEvent(made.event) as live:
        assert live.swiss_progress() == SwissProgress(drawn=1, rounds=3)
        # Every table passes board 1 out: four draws, all teams level at 10 VPs.
        for table in (1, 2, 3, 4):
            live.enter_result("A", table, ResultEntry(1, 1, Result(None)), who=f"table {table}")
        drawn = live.draw_swiss_round(who="director")
        # Level teams are drawn in seeding order, without a repeat: 1 v 3, 2 v 4.
        assert drawn == SwissDrawn(2, (("1", "3"), ("2", "4")), None)
        assert drawn.as_dict() == {
            "round": 2,
            "matches": [{"teams": ["1", "3"], "tables": [1, 2]},
                        {"teams": ["2", "4"], "tables": [3, 4]}],
            "bye": None,
        }  # fmt: skip
        assert live.swiss_progress() == SwissProgress(drawn=2, rounds=3)
