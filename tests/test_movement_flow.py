"""Where a table's boards go next (movement/flow.py), on movements written out by hand."""

from __future__ import annotations

from bridgescore.movement.flow import NextStop, next_stops
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
