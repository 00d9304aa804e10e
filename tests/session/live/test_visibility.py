"""session/live/visibility.py on the 3-table Mitchell of tests/live_movements.py:

round 1: table 1 1N v 1E boards 1-2, table 2 2N v 2E boards 3-4, table 3 3N v 3E boards 5-6
round 2: table 1 1N v 3E boards 3-4, table 2 2N v 1E boards 5-6, table 3 3N v 2E boards 1-2
round 3: table 1 1N v 2E boards 5-6, table 2 2N v 3E boards 1-2, table 3 3N v 1E boards 3-4
"""

from __future__ import annotations

from bridgescore.session.live.visibility import has_entered, open_round, played_boards
from live_movements import three_table_mitchell

MOVEMENT = three_table_mitchell()
# Board 1 at its three tables, written out from the card above (not from pairs_at).
BOARD_1 = {("", 1, "1N", "1E"), ("", 1, "3N", "2E"), ("", 1, "2N", "3E")}


def test_a_table_enters_its_rounds_in_order() -> None:
    assert open_round(MOVEMENT, 3, 1, set()) is None  # round 1 is always open
    assert open_round(MOVEMENT, 3, 2, set()) == (1, (5, 6))
    assert open_round(MOVEMENT, 3, 3, set()) == (1, (5, 6))  # the first round still open
    assert open_round(MOVEMENT, 3, 2, {("", 5, "3N", "3E")}) == (1, (6,))
    round_1 = {("", 5, "3N", "3E"), ("", 6, "3N", "3E")}
    assert open_round(MOVEMENT, 3, 2, round_1) is None
    assert open_round(MOVEMENT, 3, 3, round_1) == (2, (1, 2))
    # Another table's results open nothing at table 3.
    assert open_round(MOVEMENT, 3, 2, {("", 5, "2N", "1E"), ("", 6, "2N", "1E")}) == (1, (5, 6))


def test_a_board_is_played_once_every_table_due_has_it() -> None:
    assert played_boards(MOVEMENT, set()) == frozenset()
    two_of_three = BOARD_1 - {("", 1, "2N", "3E")}
    assert played_boards(MOVEMENT, two_of_three) == frozenset()
    assert played_boards(MOVEMENT, BOARD_1) == {1}
    # The same pairs on another board count for that board only.
    assert played_boards(MOVEMENT, BOARD_1 | {("", 2, "1N", "1E")}) == {1}


def test_a_table_has_entered_a_board_by_its_own_pairs() -> None:
    stored = {("", 1, "1N", "1E")}
    assert has_entered(MOVEMENT, 1, 1, stored)
    assert not has_entered(MOVEMENT, 3, 1, stored)  # 3N v 2E have not
    assert not has_entered(MOVEMENT, 1, 2, stored)
    assert not has_entered(MOVEMENT, 2, 3, {("", 3, "2N", "3E")})  # not table 2's pairs on 3
