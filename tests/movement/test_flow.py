"""Where a table's boards go next (movement/flow.py), on movements written out by hand."""

from __future__ import annotations

import pytest

from bridgescore.movement.flow import NextStop, next_stops
from bridgescore.movement.mitchell import mitchell
from bridgescore.movement.model import Movement, rows_from
from hand_movements import HOWELL_5, MITCHELL_3, RELAY_4


def _words(movement: Movement) -> dict[tuple[int, int], list[str]]:
    return {key: [str(stop) for stop in stops] for key, stops in next_stops(movement).items()}


def test_mitchell_boards_move_down_a_table_then_are_collected() -> None:
    assert _words(MITCHELL_3) == {
        (1, 1): ["table 3"],
        (1, 2): ["table 1"],
        (1, 3): ["table 2"],
        (2, 1): ["table 3"],
        (2, 2): ["table 1"],
        (2, 3): ["table 2"],
        (3, 1): ["collect"],
        (3, 2): ["collect"],
        (3, 3): ["collect"],
    }


def test_a_set_no_table_plays_next_round_goes_to_the_bye_stand() -> None:
    assert _words(HOWELL_5) == {
        (1, 1): ["table 1"],  # the same table: the boards stay
        (1, 2): ["bye stand"],  # boards 3-4 are next played in round 3
        (2, 1): ["collect"],
        (2, 2): ["bye stand"],  # boards 5-6 are next played in round 5
        (3, 1): ["table 1"],
        (3, 2): ["collect"],
        (4, 1): ["collect"],
        (4, 2): ["collect"],
        (5, 1): ["collect"],
        (5, 2): ["collect"],
    }
    assert next_stops(HOWELL_5)[(1, 2)] == (NextStop((3, 4), (), later=True),)


def test_a_set_two_tables_share_next_round_goes_to_the_relay() -> None:
    assert _words(RELAY_4) == {
        (1, 1): ["table 3"],
        (1, 2): ["relay: tables 1 and 4"],
        (1, 3): ["bye stand"],
        (1, 4): ["table 3"],
        (2, 1): ["table 3"],
        (2, 2): ["relay: tables 1 and 4"],
        (2, 3): ["collect"],
        (2, 4): ["table 3"],
        (3, 1): ["collect"],
        (3, 2): ["collect"],
        (3, 3): ["collect"],
        (3, 4): ["collect"],
    }
    relay = next_stops(RELAY_4)[(1, 2)][0]
    assert (relay.kind, relay.tables, relay.boards) == ("relay", (1, 4), (3, 4))


def test_a_set_that_splits_gives_one_stop_a_part() -> None:
    movement = Movement(
        "custom",
        tables=2,
        rounds=3,
        boards_per_round=3,
        rows=rows_from(
            [
                (1, 1, "1", "2", [3, 1, 2]),
                (2, 2, "1", "3", [1, 2, 9]),
                (2, 1, "4", "5", [3, 7, 8]),
                (3, 1, "2", "3", [4, 5, 6]),
            ]
        ),
    )
    stops = next_stops(movement)[(1, 1)]
    assert stops == (NextStop((1, 2), (2,)), NextStop((3,), (1,)))
    assert [stop.kind for stop in next_stops(movement)[(2, 2)]] == ["collect"]


def test_kinds_and_words() -> None:
    assert (NextStop((1,), (5,)).kind, str(NextStop((1,), (5,)))) == ("table", "table 5")
    assert str(NextStop((1,), (1, 4, 7))) == "relay: tables 1, 4 and 7"
    assert str(NextStop((1,), (), later=True)) == "bye stand"
    assert str(NextStop((1,), ())) == "collect"


# ------------------------------------------------------------------ generated Mitchells
#
# What a director's Mitchell card says, written here independently of the generator:
# the boards move down one table each round (table 1 to the last). In a share-and-
# relay Mitchell (EBU): tables 1 and T share a set; table 2 passes to that relay; the
# relay passes to table T - 1; the bye stand sits between tables T/2 and T/2 + 1, so
# table T/2 + 1 passes to the bye stand (and the bye stand to table T/2).


def _down_one(table: int, tables: int) -> str:
    return f"table {tables if table == 1 else table - 1}"


@pytest.mark.parametrize(
    ("tables", "relay"), [(t, False) for t in range(2, 17)] + [(t, True) for t in range(4, 17, 2)]
)
def test_generated_mitchell_boards_travel_as_the_card_says(tables: int, relay: bool) -> None:
    movement = mitchell(tables=tables, boards_per_round=2, relay=relay)
    half = tables // 2
    for (round_number, table), words in _words(movement).items():
        if round_number == movement.rounds:
            expected = "collect"
        elif not relay:
            expected = _down_one(table, tables)
        elif table in (1, tables):
            expected = f"table {tables - 1}"
        elif table == 2:
            expected = f"relay: tables 1 and {tables}"
        elif table == half + 1:
            # From the bye stand table T/2 would play them a round later: none after T.
            expected = "bye stand" if round_number < movement.rounds - 1 else "collect"
        else:
            expected = _down_one(table, tables)
        assert words == [expected], (round_number, table)


def test_generated_mitchell_with_fewer_rounds_collects_after_the_last() -> None:
    movement = mitchell(tables=7, boards_per_round=3, rounds=5)
    words = _words(movement)
    assert {tuple(words[(5, table)]) for table in range(1, 8)} == {("collect",)}
    assert words[(4, 1)] == ["table 7"]
