"""Where each table's boards go after a round, read from the movement's rows alone.

A set of boards at table ``t`` in round ``r`` goes to the table whose row in round
``r + 1`` lists those boards; to a relay when two or more tables share them then; to
the bye stand when no table plays them in round ``r + 1`` but one does later; and is
collected when no later round plays them. A set that splits (some boards one way,
some another, as only an unusual hand-made movement does) gives one stop per part.

>>> from bridgescore.movement.model import Movement, rows_from
>>> rows = rows_from([(1, 1, "1N", "1E", [1, 2]), (1, 2, "2N", "2E", [3, 4]),
...                   (2, 1, "1N", "2E", [3, 4]), (2, 2, "2N", "1E", [1, 2])])
>>> stops = next_stops(Movement("mitchell", 2, 2, 2, rows))
>>> [str(stop) for stop in stops[(1, 1)]], [str(stop) for stop in stops[(2, 1)]]
(['table 2'], ['collect'])
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from bridgescore.movement.model import Movement

__all__ = ["NextStop", "next_stops"]


@dataclass(frozen=True, slots=True)
class NextStop:
    """Where ``boards`` go at the end of a round.

    ``tables`` are the tables that play them in the next round: one table, or two or
    more sharing them (a relay). With no table, ``later`` tells the bye stand (some
    later round plays them) from the end of their play (collect).
    """

    boards: tuple[int, ...]
    tables: tuple[int, ...]
    later: bool = False

    @property
    def kind(self) -> str:
        """``"table"``, ``"relay"``, ``"bye stand"`` or ``"collect"``."""
        if len(self.tables) == 1:
            return "table"
        if self.tables:
            return "relay"
        return "bye stand" if self.later else "collect"

    def __str__(self) -> str:
        kind = self.kind
        if kind == "table":
            return f"table {self.tables[0]}"
        if kind == "relay":
            listed = ", ".join(str(table) for table in self.tables[:-1])
            return f"relay: tables {listed} and {self.tables[-1]}"
        return kind


def next_stops(movement: Movement) -> dict[tuple[int, int], tuple[NextStop, ...]]:
    """For every row's ``(round, table)``, where its boards go next, in board order."""
    tables_of: dict[tuple[int, int], list[int]] = defaultdict(list)
    last_round: dict[int, int] = {}
    for row in movement.rows:
        for board in row.boards:
            tables_of[(row.round, board)].append(row.table)
            last_round[board] = max(last_round.get(board, 0), row.round)
    stops: dict[tuple[int, int], tuple[NextStop, ...]] = {}
    for row in movement.rows:
        # Boards that go the same way stay one stop; a stop keeps its boards in order.
        parts: dict[tuple[tuple[int, ...], bool], list[int]] = {}
        for board in sorted(row.boards):
            tables = tuple(sorted(tables_of.get((row.round + 1, board), ())))
            later = not tables and last_round[board] > row.round + 1
            parts.setdefault((tables, later), []).append(board)
        stops[(row.round, row.table)] = tuple(
            NextStop(tuple(boards), tables, later) for (tables, later), boards in parts.items()
        )
    return stops
