"""A late pair seated in a movement's empty place, and a table swapped: values worked by
hand from the Mitchell's and the Howell's rules (docs/movements.md)."""

from __future__ import annotations

import pytest

from bridgescore.errors import MovementError, NotThisTableError
from bridgescore.movement.changes import empty_place, seat_late_pair, swap_seats
from bridgescore.movement.check import check_movement
from bridgescore.movement.howell import howell
from bridgescore.movement.mitchell import mitchell
from bridgescore.movement.model import Movement, Row, Sitout


def _rows(rows: tuple[Row, ...]) -> list[tuple[int, int, str, str, tuple[int, ...]]]:
    return [(row.round, row.table, row.ns, row.ew, row.boards) for row in rows]


def test_a_thirteen_pair_mitchell_joined_at_round_three() -> None:
    # 7 tables, 2 boards a round, 13 pairs: EW pair 7E is missing. The Mitchell rule:
    # EW pair kE sits at table ((k - 1) + (r - 1)) mod 7 + 1 in round r, and table t
    # plays set ((t - 1) + (r - 1)) mod 7 + 1 (set s: boards 2s - 1, 2s). So 7E is at
    # table 2 in round 3 (set 4: boards 7, 8), table 3 in round 4 (set 6: 11, 12),
    # table 4 in round 5 (set 1: 1, 2), table 5 in round 6 (set 3: 5, 6) and table 6 in
    # round 7 (set 5: 9, 10), always against that table's NS pair.
    odd = mitchell(tables=7, boards_per_round=2, pairs=13)
    late = seat_late_pair(odd, 3)
    assert late.pair == "7E" and late.from_round == 3
    assert _rows(late.rows) == [
        (3, 2, "2N", "7E", (7, 8)),
        (4, 3, "3N", "7E", (11, 12)),
        (5, 4, "4N", "7E", (1, 2)),
        (6, 5, "5N", "7E", (5, 6)),
        (7, 6, "6N", "7E", (9, 10)),
    ]
    # Rounds 1 and 2 stay as they were: 7N (round 1) and 1N (round 2) sit out, the
    # tables 7E would have reached are empty, and 7E sits out too.
    seated = late.movement
    assert seated.sitouts == (
        Sitout(1, "7N"), Sitout(1, "7E"), Sitout(2, "1N"), Sitout(2, "7E"),
    )  # fmt: skip
    assert seated.row_at(1, 7) is None and seated.row_at(2, 1) is None
    assert [seated.sitting_out(r) for r in range(3, 8)] == [()] * 5
    assert len(seated.rows) == len(odd.rows) + 5 and set(odd.rows) < set(seated.rows)
    assert check_movement(seated).sound
    assert seated.tables == 7 and seated.rounds == 7 and seated.kind == "mitchell"


def test_a_late_pair_from_round_one_completes_the_mitchell() -> None:
    odd = mitchell(tables=5, boards_per_round=3, pairs=9)
    assert seat_late_pair(odd, 1).movement.rows == mitchell(tables=5, boards_per_round=3).rows


def test_an_odd_howell_gains_its_stationary_pair_and_a_table() -> None:
    # Seven pairs play the 4-table Howell without pair 8, the stationary pair at table 4,
    # which meets pair r on set r in round r: whoever it meets sits out (pair 1 in round
    # 1, as howell.py's docstring shows). Joining at round 5: rounds 5 to 7 at table 4.
    odd = howell(pairs=7, boards_per_round=2)
    assert odd.tables == 3 and [odd.sitting_out(r) for r in range(1, 8)] == [
        ("1",), ("2",), ("3",), ("4",), ("5",), ("6",), ("7",),
    ]  # fmt: skip
    late = seat_late_pair(odd, 5)
    assert late.pair == "8"
    assert _rows(late.rows) == [
        (5, 4, "8", "5", (9, 10)),
        (6, 4, "8", "6", (11, 12)),
        (7, 4, "8", "7", (13, 14)),
    ]
    seated = late.movement
    assert seated.tables == 4
    assert [seated.sitting_out(r) for r in range(1, 8)] == [
        ("1", "8"), ("2", "8"), ("3", "8"), ("4", "8"), (), (), (),
    ]  # fmt: skip
    assert check_movement(seated).sound


def test_nine_pairs_take_their_own_designs_tenth_place() -> None:
    # Nine pairs play a design of their own; the tenth pair's place is still pair 10's.
    odd = howell(pairs=9, boards_per_round=3)
    late = seat_late_pair(odd, 2)
    assert late.pair == "10" and {row.table for row in late.rows} == {5}
    assert [row.round for row in late.rows] == list(range(2, 10))
    # Whoever pair 10 meets is the pair that sat out that round.
    assert [row.pairs for row in late.rows] == [
        ("10", odd.sitting_out(r)[0]) if row.ns == "10" else (odd.sitting_out(r)[0], "10")
        for r, row in zip(range(2, 10), late.rows)
    ]
    assert check_movement(late.movement).sound


def test_the_place_is_found_after_a_table_was_swapped() -> None:
    # Round 2, table 4: 4N v 3E on set 5 (boards 9, 10), swapped.
    odd = swap_seats(mitchell(tables=7, boards_per_round=2, pairs=13), 4, 2)
    late = seat_late_pair(odd, 3)
    assert late.pair == "7E" and late.movement.row_at(2, 4) == Row(2, 4, "3E", "4N", (9, 10))


@pytest.mark.parametrize(
    ("movement", "message"),
    [
        (mitchell(tables=7, boards_per_round=2), "every place of its 14 pairs is taken"),
        (howell(tables=4, boards_per_round=2), "every place of its 8 pairs is taken"),
        (
            seat_late_pair(mitchell(tables=7, boards_per_round=2, pairs=13), 3).movement,
            "empty place is taken: pair 7E joined at round 3",
        ),
        (
            seat_late_pair(howell(pairs=7, boards_per_round=2), 2).movement,
            "empty place is taken: pair 8 joined at round 2",
        ),
        # Five pairs in half-sets are a design no six-pair Howell contains.
        (howell(pairs=5, boards_per_round=2), "no howell of 2 tables"),
        (
            Movement("custom", 1, 1, 1, (Row(1, 1, "1", "2", (1,)),), (Sitout(1, "3"),)),
            "a custom movement has no empty place",
        ),
    ],
)
def test_a_movement_without_an_empty_place_is_refused(movement: Movement, message: str) -> None:
    with pytest.raises(MovementError, match=message):
        empty_place(movement)


@pytest.mark.parametrize("round_number", [0, 8, -1, "3", 2.5, True])
def test_a_round_outside_the_movement_is_refused(round_number: object) -> None:
    odd = mitchell(tables=7, boards_per_round=2, pairs=13)
    with pytest.raises(MovementError, match="the late pair's first round must be a whole number"):
        seat_late_pair(odd, round_number)  # type: ignore[arg-type]


def test_a_swap_exchanges_the_row_and_a_second_swap_undoes_it() -> None:
    # Round 2 of the 3-table Mitchell: table 3 holds 3N v 2E on set 1 (boards 1, 2).
    plain = mitchell(tables=3, boards_per_round=2)
    swapped = swap_seats(plain, 3, 2)
    assert swapped.row_at(2, 3) == Row(2, 3, "2E", "3N", (1, 2))
    assert [r for r in swapped.rows if (r.round, r.table) != (2, 3)] == [
        r for r in plain.rows if (r.round, r.table) != (2, 3)
    ]
    assert swap_seats(swapped, 3, 2) == plain


@pytest.mark.parametrize(
    ("table", "round_number", "message"),
    [
        (8, 1, "table must be a whole number from 1 to 7, got 8"),
        (1, 0, "round must be a whole number from 1 to 7, got 0"),
        ("2", 1, "table must be a whole number"),
        (7, 1, "table 7 plays no boards in round 1"),
    ],
)
def test_a_swap_of_no_table_is_refused(table: object, round_number: object, message: str) -> None:
    odd = mitchell(tables=7, boards_per_round=2, pairs=13)
    with pytest.raises(NotThisTableError, match=message):
        swap_seats(odd, table, round_number)  # type: ignore[arg-type]


def _generated() -> list[tuple[Movement, Movement]]:
    """Every odd Mitchell and Howell the generators make (2 boards a round, up to 10
    tables), with the movement of one pair more made the same way."""
    pairs: list[tuple[Movement, Movement]] = []
    for tables in range(3, 11):
        for relay in (False, True) if tables % 2 == 0 else (False,):
            for rounds in (None, 2):
                options = {"tables": tables, "boards_per_round": 2, "relay": relay,
                           "rounds": rounds}  # fmt: skip
                pairs.append((mitchell(pairs=2 * tables - 1, **options), mitchell(**options)))  # type: ignore[arg-type]
    for odd in range(7, 20, 2):
        full = odd + 1
        if odd == 9:
            continue  # nine pairs: a design of their own (test above)
        pairs.append(
            (howell(pairs=odd, boards_per_round=3), howell(pairs=full, boards_per_round=3))
        )
    return pairs


@pytest.mark.parametrize(("odd", "full"), _generated())
def test_a_late_pair_from_round_one_gives_the_generators_full_movement(
    odd: Movement, full: Movement
) -> None:
    seated = seat_late_pair(odd, 1).movement
    assert seated.rows == full.rows and seated.tables == full.tables
    assert seated.sitouts == full.sitouts == ()
