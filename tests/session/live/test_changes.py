"""The night's changes on the event file: one transaction each, refused when another
process changed the movement meanwhile, results relabelled without breaking the result
keys' uniqueness, and a running LiveEvent following a change made by another process."""

from __future__ import annotations

from pathlib import Path

import pytest

from bridgescore.errors import NotThisTableError, RecordError
from bridgescore.movement.changes import swap_seats
from bridgescore.movement.howell import howell
from bridgescore.movement.mitchell import mitchell
from bridgescore.session.live.changes import (
    add_late_pair,
    add_pair_to_event,
    swap_in_event,
    swap_table,
)
from bridgescore.session.live.creation import create_event
from bridgescore.session.live.entry import ResultEntry
from bridgescore.session.live.event import LiveEvent
from bridgescore.session.scoring.event import Member, TableResult
from bridgescore.session.store.events import Origin
from bridgescore.session.store.live import LiveStore


def test_a_change_made_from_a_stale_movement_is_refused(tmp_path: Path) -> None:
    made = create_event(tmp_path / "club.db", mitchell(tables=3, boards_per_round=2))
    with LiveStore(made.event, mode="write") as store:
        stale = store.movement
        assert stale is not None
        swap_in_event(made.event, table=1, round=1, who="another window")
        with pytest.raises(RecordError, match="was changed meanwhile"):
            store.change_movement(
                swap_seats(stale, 2, 1), "table 2 round 1", action="swap", who="late",
                changed_from=stale,
            )  # fmt: skip
        moved = store.movement
        assert moved is not None and moved.row_at(1, 2) == stale.row_at(1, 2)
        assert moved.row_at(1, 1) == swap_seats(stale, 1, 1).row_at(1, 1)
        assert [e.who for e in store.audit_log()] == ["another window"]


def test_a_swap_exchanges_two_stored_keys_of_one_board(tmp_path: Path) -> None:
    # An imported file may hold both directions of one board for the two pairs (a
    # movement where they meet twice on it is unsound, but a file is what it is): the
    # swap exchanges them rather than fail on the key (section, board, NS, EW).
    made = create_event(tmp_path / "club.db", mitchell(tables=3, boards_per_round=2))
    with LiveStore(made.event, mode="write") as store:
        store.add_results(
            [
                (TableResult.played(1, "1N", "1E", "4SN="), Origin("a.csv", 2)),
                (TableResult.played(1, "1E", "1N", "3NTS-1"), Origin("a.csv", 3)),
            ]
        )
        swap_table(store, table=1, round=1, who="director")
        assert store.stored_outcomes() == {
            ("", 1, "1E", "1N"): "4SN=",
            ("", 1, "1N", "1E"): "3NTS-1",
        }


def test_a_result_imported_for_the_late_pairs_board_is_named(tmp_path: Path) -> None:
    # 7E would meet 3N on boards 11 and 12 at table 3 in round 4: a result already
    # imported for 3N v 7E on board 11 refuses the join, naming it.
    made = create_event(tmp_path / "club.db", mitchell(tables=7, boards_per_round=2, pairs=13))
    with LiveStore(made.event, mode="write") as store:
        store.add_results([(TableResult.played(11, "3N", "7E", "2SN="), Origin("b.csv", 2))])
        with pytest.raises(RecordError) as refused:
            add_late_pair(store, from_round=4, who="director")
        assert str(refused.value) == (
            "board 11 already has a result for 3N v 7E: the late pair would play it at table 3 "
            "in round 4; join at a later round"
        )
        assert store.audit_log() == []


def test_the_late_pairs_name_and_new_table_are_kept_in_one_change(tmp_path: Path) -> None:
    made = create_event(
        tmp_path / "h.db", howell(pairs=7, boards_per_round=2), url_base="https://club.example"
    )
    joined = add_pair_to_event(made.event, from_round=2, name="Cy Cole & Di Dale", who="me")
    assert (joined.pair, joined.name, [t.table for t in joined.new_tables]) == (
        "8", "Cy Cole & Di Dale", [4],
    )  # fmt: skip
    with LiveEvent(made.event) as live:
        assert live.table_for_token(joined.new_tables[0].token) == ("A", 4)
        assert live.players()["8"] == (Member("Cy Cole"), Member("Di Dale"))
        assert live.movement.tables == 4 and live.movement.sitting_out(1) == ("1", "8")
        (entry,) = live.audit()
        assert (entry.action, entry.who) == ("add-pair", "me")
        assert entry.new == (
            "pair 8 (Cy Cole & Di Dale) joins at round 2, at table 4; new link for table 4"
        )


def test_a_bad_name_or_section_changes_nothing(tmp_path: Path) -> None:
    made = create_event(tmp_path / "club.db", mitchell(tables=7, boards_per_round=2, pairs=13))
    with pytest.raises(RecordError, match="player name"):
        add_pair_to_event(made.event, from_round=2, name="x" * 130, who="me")
    with pytest.raises(NotThisTableError, match="section 'B' is not one of this event's"):
        swap_in_event(made.event, table=1, round=1, section="B", who="me")
    with LiveStore(made.event, mode="read") as store:
        assert store.audit_log() == [] and store.members() == {}
        assert store.movement == mitchell(tables=7, boards_per_round=2, pairs=13)


def test_a_running_event_follows_a_change_made_by_another_process(tmp_path: Path) -> None:
    made = create_event(tmp_path / "club.db", mitchell(tables=7, boards_per_round=2, pairs=13))
    token = next(t.token for t in made.tables if t.table == 2)
    with LiveEvent(made.event) as live:
        assert live.movement.row_at(3, 2) is None
        add_pair_to_event(made.event, from_round=3, who="director (command line)")
        swap_in_event(made.event, table=2, round=1, who="director (command line)")
        # The next request that names a table (or the director) rereads the file.
        assert live.table_for_token(token) == ("A", 2)
        assert live.movement.row_at(3, 2) is not None
        assert (live.movement.row_at(1, 2).ns, live.movement.row_at(3, 2).ew) == ("2E", "7E")  # type: ignore[union-attr]
        # Table 2 enters round 1 as it sat: 2E held the NS cards.
        live.enter_result(
            "A",
            2,
            ResultEntry.from_json(
                {"round": 1, "board": 3, "contract": "3NT", "declarer": "S", "result": "="}
            ),
            who="table 2",
        )
    with LiveStore(made.event, mode="read") as store:
        assert store.stored_keys() == {("", 3, "2E", "2N")}


def test_a_late_pair_of_section_b_is_named_in_section_b(tmp_path: Path) -> None:
    made = create_event(
        tmp_path / "congress.db", mitchell(tables=7, boards_per_round=2, pairs=13), sections=2
    )
    joined = add_pair_to_event(
        made.event, from_round=3, name="Cy Cole & Di Dale", section="B", who="director"
    )
    assert (joined.section, joined.pair) == ("B", "7E")
    with LiveEvent(made.event) as live:
        # Section B's 7E, kept as B:7E: section A's 7E (still the empty place) has none.
        assert live.players() == {"B:7E": (Member("Cy Cole"), Member("Di Dale"))}
        assert live.pair_names("B") == {"7E": "Cy Cole & Di Dale"}
        assert live.pair_names("A") == {}
