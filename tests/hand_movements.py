"""Movements written out by hand, row by row, for the flow and card tests (no generator)."""

from __future__ import annotations

from bridgescore.movement.model import Movement, Sitout, rows_from

# A 3-table Mitchell, 2 boards a round: NS pairs stay, EW pairs move up a table
# (3 -> 1), the boards move down a table (1 -> 3), as a Mitchell card says.
MITCHELL_3 = Movement(
    "mitchell",
    tables=3,
    rounds=3,
    boards_per_round=2,
    rows=rows_from(
        [
            (1, 1, "1N", "1E", [1, 2]),
            (1, 2, "2N", "2E", [3, 4]),
            (1, 3, "3N", "3E", [5, 6]),
            (2, 1, "1N", "3E", [3, 4]),
            (2, 2, "2N", "1E", [5, 6]),
            (2, 3, "3N", "2E", [1, 2]),
            (3, 1, "1N", "2E", [5, 6]),
            (3, 2, "2N", "3E", [1, 2]),
            (3, 3, "3N", "1E", [3, 4]),
        ]
    ),
    arrow_switch=(3,),
)

# Five pairs on two tables, one pair out each round (a round robin by the circle
# method: every two pairs meet once); each set is played at most twice, never twice by
# one pair. Six sets of two boards: boards 1-2 stay at table 1 for round 2; boards 3-4
# wait on the bye stand in round 2 and come back at table 2 in round 3.
HOWELL_5 = Movement(
    "howell",
    tables=2,
    rounds=5,
    boards_per_round=2,
    rows=rows_from(
        [
            (1, 1, "1", "4", [1, 2]),
            (1, 2, "2", "3", [3, 4]),
            (2, 1, "5", "3", [1, 2]),
            (2, 2, "1", "2", [5, 6]),
            (3, 1, "4", "2", [7, 8]),
            (3, 2, "5", "1", [3, 4]),
            (4, 1, "3", "1", [7, 8]),
            (4, 2, "4", "5", [9, 10]),
            (5, 1, "2", "5", [11, 12]),
            (5, 2, "3", "4", [5, 6]),
        ]
    ),
    sitouts=(Sitout(1, "5"), Sitout(2, "4"), Sitout(3, "3"), Sitout(4, "2"), Sitout(5, "1")),
)

# Four tables, tables 1 and 4 share a set (a relay), one set on the bye stand.
RELAY_4 = Movement(
    "mitchell",
    tables=4,
    rounds=3,
    boards_per_round=2,
    rows=rows_from(
        [
            (1, 1, "1N", "1E", [1, 2]),
            (1, 2, "2N", "2E", [3, 4]),
            (1, 3, "3N", "3E", [5, 6]),
            (1, 4, "4N", "4E", [1, 2]),
            (2, 1, "1N", "4E", [3, 4]),
            (2, 2, "2N", "1E", [7, 8]),
            (2, 3, "3N", "2E", [1, 2]),
            (2, 4, "4N", "3E", [3, 4]),
            (3, 1, "1N", "3E", [7, 8]),
            (3, 2, "2N", "4E", [5, 6]),
            (3, 3, "3N", "1E", [3, 4]),
            (3, 4, "4N", "2E", [7, 8]),
        ]
    ),
)
