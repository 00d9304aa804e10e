"""Movements written out by hand for the live-session tests (independent of the generators)."""

from __future__ import annotations

from typing import Any

from bridgescore.movement.model import Movement, Row


def three_table_mitchell(*, arrow_switch: tuple[int, ...] = ()) -> Movement:
    """The 3-table Mitchell, 2 boards a round, as a table card lists it:

    round 1: table 1 1N v 1E boards 1-2, table 2 2N v 2E boards 3-4, table 3 3N v 3E 5-6;
    round 2: table 1 1N v 3E 3-4, table 2 2N v 1E 5-6, table 3 3N v 2E 1-2;
    round 3: table 1 1N v 2E 5-6, table 2 2N v 3E 1-2, table 3 3N v 1E 3-4.
    """
    card = {
        1: [("1N", "1E", (1, 2)), ("2N", "2E", (3, 4)), ("3N", "3E", (5, 6))],
        2: [("1N", "3E", (3, 4)), ("2N", "1E", (5, 6)), ("3N", "2E", (1, 2))],
        3: [("1N", "2E", (5, 6)), ("2N", "3E", (1, 2)), ("3N", "1E", (3, 4))],
    }
    rows = tuple(
        Row(round_number, table, ns, ew, boards)
        for round_number, tables in card.items()
        for table, (ns, ew, boards) in enumerate(tables, start=1)
    )
    return Movement("mitchell", 3, 3, 2, rows, arrow_switch=arrow_switch)


def club_mitchell(tables: int, boards: int, rounds: int = 3) -> Movement:
    """The first ``rounds`` rounds of an odd Mitchell of ``tables`` tables: in round r,
    table t seats tN v ((t - r) mod T + 1)E with board set (t + r - 2) mod T."""
    rows = []
    for round_number in range(1, rounds + 1):
        for table in range(1, tables + 1):
            group = (table + round_number - 2) % tables
            ew = (table - round_number) % tables + 1
            first = group * boards + 1
            rows.append(
                Row(round_number, table, f"{table}N", f"{ew}E", tuple(range(first, first + boards)))
            )
    return Movement("mitchell", tables, rounds, boards, tuple(rows))


def not_played_before(live: Any, table: int, round_number: int) -> None:
    """The director marks every board of ``table``'s rounds before ``round_number``
    not played (a director's decision, left out of the scoring), so that the table
    may enter that round: a table moves through its rounds in order."""
    for row in live.movement.rows:
        if row.table == table and row.round < round_number:
            for board in row.boards:
                live.adjust(live.movement.section, table, row.round, board, "not played")
