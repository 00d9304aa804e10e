"""Who played a board at a table in a round, as the event's movement says.

Table scorers record a result by table, round and board; the event stores it by
board and pairs. :func:`pairs_at` turns the one into the other. The pairs are
given *as they played*: in an arrow-switch round the pair whose home seat is EW
holds the North-South cards, so it is the result's NS pair (the movement's rows
keep the home seats).

>>> from bridgescore.movement.model import Movement, Row
>>> m = Movement("mitchell", 1, 2, 1, (Row(1, 1, "1N", "1E", (1,)), Row(2, 1, "1N", "1E", (2,))),
...              arrow_switch=(2,))
>>> pairs_at(m, 1, 1, 1), pairs_at(m, 1, 2, 2)
(('1N', '1E'), ('1E', '1N'))
"""

from __future__ import annotations

from bridgescore.errors import NotThisTableError
from bridgescore.movement.model import Movement, Row

__all__ = ["pairs_at", "row_at"]


def row_at(movement: Movement, table: int, round_number: int) -> Row:
    """The movement's row of ``table`` in ``round_number``; a
    :class:`~bridgescore.errors.NotThisTableError` when the table is empty then."""
    if not 1 <= round_number <= movement.rounds:
        raise NotThisTableError(
            f"round {round_number} is not a round of the movement: expected 1 to {movement.rounds}"
        )
    if not 1 <= table <= movement.tables:
        raise NotThisTableError(
            f"table {table} is not a table of the movement: expected 1 to {movement.tables}"
        )
    row = movement.row_at(round_number, table)
    if row is None:
        raise NotThisTableError(f"table {table} plays no boards in round {round_number}")
    return row


def pairs_at(movement: Movement, table: int, round_number: int, board: int) -> tuple[str, str]:
    """The (NS, EW) pairs, as they played, of ``board`` at ``table`` in ``round_number``.

    Raises :class:`~bridgescore.errors.NotThisTableError` naming the table, round and
    board when the movement has no such board there.
    """
    row = row_at(movement, table, round_number)
    if board not in row.boards:
        boards = ", ".join(str(b) for b in row.boards)
        raise NotThisTableError(
            f"board {board} is not played at table {table} in round {round_number}: "
            f"that table plays board(s) {boards} then"
        )
    if movement.is_arrow_switched(round_number):
        return (row.ew, row.ns)
    return (row.ns, row.ew)
