"""The movement checker on hand-made movements, sound and broken."""

from __future__ import annotations

import pytest

from bridgescore.errors import MovementError
from bridgescore.movement.check import Comparisons, check_movement, require_sound
from bridgescore.movement.howell import howell
from bridgescore.movement.mitchell import mitchell
from bridgescore.movement.model import Movement, Sitout, rows_from
from bridgescore.movement.teams import round_robin


def _movement(
    kind: str, tables: int, rounds: int, rows: list, sitouts: tuple = (), arrow: tuple = ()
) -> Movement:  # type: ignore[type-arg]
    boards = len(rows[0][4])
    return Movement(kind, tables, rounds, boards, rows_from(rows), sitouts, arrow)


# The complete two-table Howell: 4 pairs, 3 rounds, both tables share each round's boards
# (a relay), and every two pairs meet once. Pair 4 sits NS at table 1 throughout.
TWO_TABLE_HOWELL = [
    (1, 1, "4", "1", [1, 2]),
    (1, 2, "2", "3", [1, 2]),
    (2, 1, "4", "2", [3, 4]),
    (2, 2, "3", "1", [3, 4]),
    (3, 1, "4", "3", [5, 6]),
    (3, 2, "1", "2", [5, 6]),
]


def test_a_sound_howell_with_shared_boards() -> None:
    check = check_movement(_movement("howell", 2, 3, TWO_TABLE_HOWELL))
    assert check.sound and check.problems == ()
    assert check.boards_per_pair == {"1": 6, "2": 6, "3": 6, "4": 6}
    assert check.times_played == {board: 2 for board in range(1, 7)}
    assert set(check.meetings.values()) == {1} and len(check.meetings) == 6
    # Comparisons worked by hand. Round 1 (boards 1, 2): NS 4 and 2, EW 1 and 3.
    # Round 2 (3, 4): NS 4 and 3, EW 2 and 1. Round 3 (5, 6): NS 4 and 1, EW 3 and 2.
    # Pairs 1 and 2: round 1, 1 EW and 2 NS at the other table: opposite; round 2, both
    # EW: same; round 3 they play each other, which is a meeting, not a comparison.
    assert check.comparisons[("1", "2")] == Comparisons(same=2, opposite=2)
    # Pairs 4 and 1: round 1 opponents (no comparison); round 2: 4 NS, 1 EW: opposite;
    # round 3: both NS: same.
    assert check.comparisons[("1", "4")] == Comparisons(same=2, opposite=2)
    assert require_sound(_movement("howell", 2, 3, TWO_TABLE_HOWELL)) == check


def test_arrow_switching_a_round_with_its_own_boards_changes_no_comparison() -> None:
    # Every seat of round 3 turns around, so two pairs compared on round 3's boards still
    # hold the same (or the other) cards as each other; only comparisons between a
    # switched and an unswitched round change, and here each round has its own boards.
    plain = check_movement(_movement("howell", 2, 3, TWO_TABLE_HOWELL))
    switched = check_movement(_movement("howell", 2, 3, TWO_TABLE_HOWELL, arrow=(3,)))
    assert switched.comparisons == plain.comparisons


def test_arrow_switch_across_rounds() -> None:
    # A 3-table Mitchell, arrow switch in round 3: 1N plays set 3 in round 3 (switched,
    # so with the EW cards) and 2N plays it in round 2 (NS cards): opposite directions on
    # those two boards; set 1 (1N round 1, 2N round 3 switched) likewise; set 2 both NS.
    check = check_movement(mitchell(tables=3, boards_per_round=2, arrow_switch=True))
    assert check.comparisons[("1N", "2N")] == Comparisons(same=2, opposite=4)
    plain = check_movement(mitchell(tables=3, boards_per_round=2))
    assert plain.comparisons[("1N", "2N")] == Comparisons(same=6, opposite=0)


def test_a_pair_at_two_tables_names_the_round_and_the_table() -> None:
    rows = [(1, 1, "1", "2", [1]), (1, 2, "3", "1", [2])]
    check = check_movement(_movement("custom", 2, 1, rows))
    assert [str(p) for p in check.problems] == [
        "round 1, table 2: pair 1 is also at table 1 this round"
    ]
    with pytest.raises(
        MovementError, match=r"unsound movement: round 1, table 2: pair 1 is also at table 1"
    ):
        require_sound(_movement("custom", 2, 1, rows))


def test_a_board_played_twice_by_one_pair() -> None:
    rows = [(1, 1, "1", "2", [1, 2]), (2, 1, "1", "3", [2, 3])]
    check = check_movement(_movement("custom", 1, 2, rows))
    assert [(p.round, p.table, p.message) for p in check.problems] == [
        (2, 1, "pair 1 plays board 2 again (first in round 1)")
    ]


def test_a_sit_out_that_also_plays() -> None:
    rows = [(1, 1, "1", "2", [1]), (1, 2, "3", "4", [2])]
    check = check_movement(_movement("custom", 2, 1, rows, sitouts=(Sitout(1, "4"),)))
    assert [str(p) for p in check.problems] == ["round 1, table 2: pair 4 sits out but plays here"]


def test_counts_of_an_uneven_movement() -> None:
    rows = [(1, 1, "1", "2", [1]), (1, 2, "3", "4", [2]), (2, 1, "1", "3", [3])]
    check = check_movement(
        _movement("custom", 2, 2, rows, sitouts=(Sitout(2, "2"), Sitout(2, "4")))
    )
    assert check.sound
    assert check.boards_per_pair == {"1": 2, "2": 1, "3": 2, "4": 1}
    assert check.times_played == {1: 1, 2: 1, 3: 1}
    assert check.meetings == {
        ("1", "2"): 1,
        ("1", "3"): 1,
        ("1", "4"): 0,
        ("2", "3"): 0,
        ("2", "4"): 0,
        ("3", "4"): 1,
    }


# Three teams, a round robin with a bye: each match in two rooms on the same boards.
TEAMS = [
    (1, 1, "1", "2", [1, 2]),
    (1, 2, "2", "1", [1, 2]),
    (2, 1, "1", "3", [3, 4]),
    (2, 2, "3", "1", [3, 4]),
    (3, 1, "2", "3", [5, 6]),
    (3, 2, "3", "2", [5, 6]),
]
TEAMS_BYES = (Sitout(1, "3"), Sitout(2, "2"), Sitout(3, "1"))


def test_a_teams_round_robin_is_sound() -> None:
    check = check_movement(_movement("teams", 2, 3, TEAMS, sitouts=TEAMS_BYES))
    assert check.sound, check.problems
    assert check.meetings == {("1", "2"): 1, ("1", "3"): 1, ("2", "3"): 1}
    assert check.boards_per_pair == {"1": 4, "2": 4, "3": 4}
    assert check.comparisons == {}


def test_the_same_rows_as_pairs_are_unsound() -> None:
    check = check_movement(_movement("custom", 2, 3, TEAMS, sitouts=TEAMS_BYES))
    assert not check.sound
    assert str(check.problems[0]) == "round 1, table 2: pair 1 is also at table 1 this round"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        # Team 1 NS in both rooms of round 1.
        ({1: (1, 2, "1", "2", [1, 2])}, "team 1 sits the same way at tables 1 and 2"),
        # The closed room of round 1 plays other boards.
        ({1: (1, 2, "2", "1", [3, 4])}, "team 1 plays other boards at table 2 than at 1"),
        # Round 3 replays boards 1 and 2.
        (
            {4: (3, 1, "2", "3", [1, 2]), 5: (3, 2, "3", "2", [1, 2])},
            "pair 2 plays boards 1, 2 again",
        ),
    ],
)
def test_broken_teams_movements(change: dict[int, tuple], message: str) -> None:  # type: ignore[type-arg]
    rows = [change.get(index, row) for index, row in enumerate(TEAMS)]
    check = check_movement(_movement("teams", 2, 3, rows, sitouts=TEAMS_BYES))
    assert any(message in str(problem) for problem in check.problems), check.problems


def test_a_team_at_one_table() -> None:
    rows = [(1, 1, "1", "2", [1, 2]), (1, 2, "3", "4", [1, 2])]
    check = check_movement(_movement("teams", 2, 1, rows))
    assert (
        str(check.problems[0])
        == "round 1, table 1: team 1 plays at 1 table(s) this round (a match is two)"
    )


def test_the_checker_needs_a_movement() -> None:
    with pytest.raises(MovementError, match="needs a Movement"):
        check_movement("mitchell")  # type: ignore[arg-type]


@pytest.mark.parametrize("tables", range(2, 16))
def test_every_generated_howell_checks_sound(tables: int) -> None:
    # A complete Howell (2-8 tables) meets every two pairs once; a 3/4 Howell at most once.
    check = require_sound(howell(tables=tables, boards_per_round=1))
    assert len(check.pairs) == 2 * tables
    assert set(check.meetings.values()) == ({1} if tables <= 8 else {0, 1})
    if tables in (4, 6, 8):
        # Balanced: every two pairs hold the same cards on T - 1 of the 2T - 1 boards.
        assert {c.same for c in check.comparisons.values()} == {tables - 1}


@pytest.mark.parametrize("teams", range(2, 13))
def test_every_generated_round_robin_checks_sound(teams: int) -> None:
    # A round robin: every team meets every other once, in two rooms on the same boards,
    # so it plays teams - 1 matches of 4 boards (an odd field: one bye each).
    check = require_sound(round_robin(teams, boards_per_round=4))
    assert set(check.meetings.values()) == {1}
    assert set(check.boards_per_pair.values()) == {4 * (teams - 1)}
