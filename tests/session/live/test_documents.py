"""session/live/documents.py: what a live event answers (the audit log, a traveller, the
ranking and the report) as values whose ``as_dict()`` is the JSON the live API sends.

The event: two tables play board 1 (nobody vulnerable) in one round. Table 1: 4S by North
with an overtrick, 120 + 30 + 300 + 50 = NS +450. Table 2: 4S by North made, then corrected
by the director to one down, NS -50. On the 2/1 matchpoint scale a board played twice has
a top of 2: 1N and 2E score 2, 2N and 1E nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bridgescore.movement.model import Movement, Row
from bridgescore.notation import Result
from bridgescore.session.live.creation import create_event
from bridgescore.session.live.documents import AuditLine, LiveReport, LiveTraveller
from bridgescore.session.live.entry import ResultEntry
from bridgescore.session.live.event import LiveEvent


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
