"""session/live/sections.py and the live event of several sections: each section's
movement kept in the file, a token per (section, table), results stored under their
section, progress and visibility over every section, and an event of one section
(made before sections existed) still opened as it was.

The movement is the 3-table Mitchell of live_movements:
  round 1: T1 1N-1E boards 1-2, T2 2N-2E 3-4, T3 3N-3E 5-6
  round 2: T1 1N-3E boards 3-4, T2 2N-1E 5-6, T3 3N-2E 1-2
  round 3: T1 1N-2E boards 5-6, T2 2N-3E 1-2, T3 3N-1E 3-4
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bridgescore.errors import MovementError, NotThisTableError
from bridgescore.movement.model import Movement
from bridgescore.session.live.creation import create_event
from bridgescore.session.live.entry import ResultEntry
from bridgescore.session.live.event import LiveEvent
from bridgescore.session.live.sections import (
    section_names,
    sections_of,
    stored_section,
    which_section,
)
from bridgescore.session.live.visibility import played_boards
from bridgescore.session.store.events import EventStore
from live_movements import three_table_mitchell

MITCHELL = three_table_mitchell()


def entry(round_number: int, board: int, contract: str = "3NT", result: str = "=") -> Any:
    return ResultEntry.from_json(
        {"round": round_number, "board": board, "contract": contract, "declarer": "N",
         "result": result}
    )  # fmt: skip


def two_sections(tmp_path: Path) -> Any:
    return create_event(tmp_path / "congress.db", MITCHELL, name="Congress", sections=2)


# ------------------------------------------------------------------- the values


def test_sections_are_named_by_letter() -> None:
    assert section_names(1) == ("A",)
    assert section_names(3) == ("A", "B", "C")
    assert section_names(26)[-1] == "Z"
    for wrong in (0, 27, "2", True):
        with pytest.raises(MovementError, match="sections"):
            section_names(wrong)  # type: ignore[arg-type]


def test_each_section_is_the_movement_under_its_own_name() -> None:
    sections = sections_of(MITCHELL, 2)
    assert list(sections) == ["A", "B"]
    assert sections["B"].section == "B"
    assert sections["B"].rows == MITCHELL.rows
    # One section is the movement as it is, whatever its section's name.
    lone = Movement("mitchell", 3, 3, 2, MITCHELL.rows, section="C")
    assert sections_of(lone, 1) == {"C": lone}


def test_a_teams_movement_has_no_sections() -> None:
    from bridgescore.movement.teams import round_robin

    with pytest.raises(MovementError, match="sections are for pairs movements"):
        sections_of(round_robin(4, boards_per_round=2), 2)


def test_results_are_stored_under_the_section_only_when_there_are_several() -> None:
    one = sections_of(MITCHELL, 1)
    two = sections_of(MITCHELL, 2)
    assert stored_section(one, "A") == ""
    assert stored_section(two, "A") == "A"
    assert stored_section(two, "B") == "B"
    assert which_section(two, "B") is two["B"]
    with pytest.raises(NotThisTableError, match="section 'C' is not this event's: expected "
                       "one of 'A', 'B'"):  # fmt: skip
        which_section(two, "C")


# ------------------------------------------------------------------- the file


def test_the_file_keeps_each_sections_movement(tmp_path: Path) -> None:
    made = two_sections(tmp_path)
    assert [(t.section, t.table) for t in made.tables] == [(s, t) for s in "AB" for t in (1, 2, 3)]
    assert len({t.token for t in made.tables}) == 6
    with EventStore(made.event, mode="read") as store:
        assert store.movements == {"A": MITCHELL, "B": sections_of(MITCHELL, 2)["B"]}
        assert store.movement == MITCHELL  # the first section's
        assert store.sections_across is False
        assert sorted(store._db.execute("SELECT section FROM table_tokens")) == [
            (s,) for s in "AAABBB"
        ]


def test_changing_one_sections_movement_keeps_the_others(tmp_path: Path) -> None:
    made = two_sections(tmp_path)
    changed = Movement("mitchell", 3, 3, 2, MITCHELL.rows, arrow_switch=(3,), section="B")
    with EventStore(made.event, mode="write") as store:
        store.set_movement(changed)
        assert store.movements == {"A": MITCHELL, "B": changed}
        assert store.movement == MITCHELL


def test_an_event_of_one_section_is_kept_as_before(tmp_path: Path) -> None:
    made = create_event(tmp_path / "club.db", MITCHELL, name="Club")
    with sqlite3.connect(made.event) as db:
        keys = {key for (key,) in db.execute("SELECT key FROM meta")}
    assert "sections" not in keys and "sections_scored" not in keys
    with EventStore(made.event, mode="read") as store:
        assert store.movements == {"A": MITCHELL}
        assert store.sections_across is None
    with LiveEvent(made.event) as live:
        assert live.movements == {"A": MITCHELL}
        assert live.enter_result("A", 1, entry(1, 1), who="table 1") == 400
        assert live.progress()[0].section == "A"
    with sqlite3.connect(made.event) as db:
        assert db.execute("SELECT section, board, ns, ew FROM results").fetchall() == [
            ("", 1, "1N", "1E")
        ]


# ------------------------------------------------------------------- the live event


def test_a_token_resolves_to_its_section_and_table(tmp_path: Path) -> None:
    made = two_sections(tmp_path)
    with LiveEvent(made.event) as live:
        for access in made.tables:
            assert live.table_for_token(access.token) == (access.section, access.table)
        assert live.movement_of("B").section == "B"
        assert live.table_view("B", 3).section == "B"


def test_each_section_enters_its_own_results(tmp_path: Path) -> None:
    made = two_sections(tmp_path)
    with LiveEvent(made.event) as live:
        # 3NT= by a vulnerable NS on board 2: 600; not vulnerable on board 1: 400.
        assert live.enter_result("A", 1, entry(1, 1), who="table A1") == 400
        assert live.enter_result("B", 1, entry(1, 1, result="+1"), who="table B1") == 430
        # Section B's table 3 has not played round 1: round 2 is refused there.
        live.enter_result("A", 3, entry(1, 5), who="table A3")
        live.enter_result("A", 3, entry(1, 6), who="table A3")
        assert live.enter_result("A", 3, entry(2, 2), who="table A3") == 600
        with pytest.raises(Exception, match="round 1 is still open at table 3"):
            live.enter_result("B", 3, entry(2, 2), who="table B3")
        assert [(e.section, e.board, e.who) for e in live.audit()] == [
            ("A", 1, "table A1"),
            ("B", 1, "table B1"),
            ("A", 5, "table A3"),
            ("A", 6, "table A3"),
            ("A", 2, "table A3"),
        ]
        progress = {(p.section, p.table): p.current_round for p in live.progress()}
        assert progress == {("A", 1): 1, ("A", 2): 1, ("A", 3): 2,
                            ("B", 1): 1, ("B", 2): 1, ("B", 3): 1}  # fmt: skip
        assert live.has_entered("A", 3, 2) and not live.has_entered("B", 3, 2)
        with pytest.raises(NotThisTableError, match="section 'C' is not this event's"):
            live.enter_result("C", 1, entry(1, 1), who="table C1")


def test_a_board_is_public_once_every_table_of_every_section_has_played_it(
    tmp_path: Path,
) -> None:
    made = two_sections(tmp_path)
    # Board 3: round 1 at table 2, round 2 at table 1, round 3 at table 3, each section.
    places = [(1, 2), (2, 1), (3, 3)]
    with LiveEvent(made.event) as live:
        for round_number, table in places:
            live.correct_result("A", table, entry(round_number, 3), reason="entered late")
        for round_number, table in places[:2]:
            live.correct_result("B", table, entry(round_number, 3), reason="entered late")
        assert 3 not in live.played_boards()
        live.correct_result("B", 3, entry(3, 3), reason="entered late")
        assert 3 in live.played_boards()


def test_played_boards_of_one_movement_reads_unsectioned_results() -> None:
    # Board 1 of the Mitchell: round 1 table 1 (1N v 1E), round 2 table 3 (3N v 2E),
    # round 3 table 2 (2N v 3E).
    stored = {("", 1, "1N", "1E"), ("", 1, "3N", "2E"), ("", 1, "2N", "3E")}
    assert played_boards(MITCHELL, stored) == frozenset({1})
    sectioned = {(s, *key[1:]) for key in stored for s in "AB"}
    assert played_boards(sections_of(MITCHELL, 2), sectioned) == frozenset({1})
    assert played_boards(sections_of(MITCHELL, 2), stored) == frozenset()


def test_a_swap_in_section_b_moves_section_bs_result_only(tmp_path: Path) -> None:
    made = two_sections(tmp_path)
    with LiveEvent(made.event) as live:
        # 4S= by N on board 1 (nobody vulnerable): +420 in both sections.
        for section in "AB":
            live.enter_result(section, 1, entry(1, 1, "4S"), who=f"table {section}1")
        with pytest.raises(NotThisTableError, match="this event has 2 sections, A, B"):
            live.swap_table(table=1, round=1, who="director")
        live.swap_table(table=1, round=1, section="B", who="director")
        assert live.movement_of("B").row_at(1, 1) is not None
        assert live.movement_of("A") == MITCHELL
    with sqlite3.connect(made.event) as db:
        rows = db.execute("SELECT section, board, ns, ew FROM results ORDER BY section").fetchall()
    # Section B's pairs sat the wrong way round: its result is credited to 1E as NS.
    assert rows == [("A", 1, "1N", "1E"), ("B", 1, "1E", "1N")]
    with EventStore(made.event, mode="read") as store:
        assert store.movements["A"] == MITCHELL
        assert store.movements["B"].row_at(1, 1).ns == "1E"  # type: ignore[union-attr]
