"""A Swiss pairs round as a movement (issue 47 §6): match m at table m, the higher-ranked
pair NS, every table on the round's boards; the checker finds it sound."""

from __future__ import annotations

import pytest

import bridgescore as bs
from bridgescore.errors import InvalidArgumentError
from bridgescore.movement.swiss import SwissRound


def test_one_match_a_table_on_the_rounds_boards() -> None:
    drawn = SwissRound((("4", "7"), ("2", "5"), ("6", "1")), "3")
    movement = bs.swiss_pairs_round_movement(drawn, round_number=3, boards_per_round=4)
    assert movement.kind == "swiss-pairs" and movement.rounds == 3 and movement.tables == 3
    # Round 3 of 4 boards: boards 9 to 12 at every table.
    assert [(r.round, r.table, r.ns, r.ew, r.boards) for r in movement.rows] == [
        (3, 1, "4", "7", (9, 10, 11, 12)),
        (3, 2, "2", "5", (9, 10, 11, 12)),
        (3, 3, "6", "1", (9, 10, 11, 12)),
    ]
    assert movement.sitting_out(3) == ("3",)
    check = bs.check_movement(movement)
    assert check.sound and check.times_played == {9: 3, 10: 3, 11: 3, 12: 3}


def test_a_round_without_a_match_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="no match"):
        bs.swiss_pairs_round_movement(SwissRound((), "1"), boards_per_round=2)
    with pytest.raises(InvalidArgumentError, match="needs a SwissRound"):
        bs.swiss_pairs_round_movement((("1", "2"),), boards_per_round=2)  # type: ignore[arg-type]
