"""What each one may see of a live session's boards, and when a table may enter one.

A player must not read a board before playing it. As a Bridgemate does: a table enters its
rounds in order (:func:`open_round`), sees a board's traveller once it has entered the board
(:func:`has_entered`), and a board's results are public once every table due to play it has
a result or a director's decision (:func:`played_boards`).

Pure functions of the movement and the keys of the stored outcomes, ``(section, board, NS,
EW)`` as :meth:`~bridgescore.session.store.live.LiveStore.stored_keys` gives them (a board
not played counts: it is the director's decision). The pairs at a table are those
:func:`~bridgescore.session.live.seating.pairs_at` seats there, arrow switches included.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from bridgescore.movement.model import Movement
from bridgescore.session.live.seating import pairs_at

__all__ = ["has_entered", "open_round", "played_boards"]

StoredKey = tuple[str, int, str, str]


def _key(
    movement: Movement, table: int, round_number: int, board: int, section: str = ""
) -> StoredKey:
    # A one-section live event's results are stored without a section name, those of an
    # event of several under their section's (sections.stored_section).
    return (section, board, *pairs_at(movement, table, round_number, board))


def open_round(
    movement: Movement,
    table: int,
    round_number: int,
    stored: Collection[StoredKey],
    *,
    section: str = "",
) -> tuple[int, tuple[int, ...]] | None:
    """The first round before ``round_number`` at ``table`` with a board nothing is stored
    for, and those boards; ``None`` when the table may enter ``round_number``.
    ``section``: the name the table's section's results are stored under.

    >>> from bridgescore.movement.model import Row
    >>> movement = Movement("mitchell", 1, 2, 2, (Row(1, 1, "1N", "1E", (1, 2)),
    ...                                          Row(2, 1, "1N", "1E", (3, 4))))
    >>> open_round(movement, 1, 2, {("", 1, "1N", "1E")})
    (1, (2,))
    >>> open_round(movement, 1, 2, {("", 1, "1N", "1E"), ("", 2, "1N", "1E")}) is None
    True
    """
    for row in sorted(movement.rows, key=lambda row: row.round):
        if row.table != table or row.round >= round_number:
            continue
        missing = tuple(
            b for b in row.boards if _key(movement, table, row.round, b, section) not in stored
        )
        if missing:
            return row.round, missing
    return None


def played_boards(
    movements: Movement | Mapping[str, Movement], stored: Collection[StoredKey]
) -> frozenset[int]:
    """The boards every table due to play them, in every section, has an outcome for:
    the boards whose results the public may see. ``movements``: the event's one
    movement, or each section's by name (results stored under the section's name when
    there are several)."""
    if isinstance(movements, Movement):
        movements = {movements.section: movements}
    several = len(movements) > 1
    complete: dict[int, bool] = {}
    for name, movement in movements.items():
        section = name if several else ""
        for row in movement.rows:
            for board in row.boards:
                done = _key(movement, row.table, row.round, board, section) in stored
                complete[board] = complete.get(board, True) and done
    return frozenset(board for board, done in complete.items() if done)


def has_entered(
    movement: Movement,
    table: int,
    board: int,
    stored: Collection[StoredKey],
    *,
    section: str = "",
) -> bool:
    """Whether ``table`` has an outcome for ``board`` (in any round it plays it): from
    then on the table may see the board's traveller. ``section``: as :func:`open_round`."""
    return any(
        _key(movement, table, row.round, board, section) in stored
        for row in movement.rows
        if row.table == table and board in row.boards
    )
