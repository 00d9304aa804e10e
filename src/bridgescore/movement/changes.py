"""The night's changes to a movement: a late pair seated in the empty place, and a table
that sat the wrong way round.

A Mitchell or Howell made for an odd number of pairs has an empty place: the pair the
generator left out (a Mitchell's ``TE``, a Howell's ``2T``), whose opponents sit out.
A movement does not keep the options it was made with, so the place is found by making
the same kind of movement (its tables, rounds and boards a round; for a Mitchell with
and without a relay) with one pair more, and taking the one whose rows hold every stored
row: its extra pair is the late pair, its extra rows that pair's. Rows are compared
without their direction, so a table swapped earlier in the evening still matches.

>>> from bridgescore.movement.mitchell import mitchell
>>> late = seat_late_pair(mitchell(tables=3, boards_per_round=2, pairs=5), 2)
>>> late.pair, [(row.round, row.table, row.ns, row.ew) for row in late.rows]
('3E', [(2, 1, '1N', '3E'), (3, 2, '2N', '3E')])
>>> late.movement.sitting_out(1), late.movement.sitting_out(2)
(('3N', '3E'), ())
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from bridgescore.errors import BridgeError, MovementError, NotThisTableError
from bridgescore.movement.howell import SHORT_HOWELLS, howell, nine_pairs_filled
from bridgescore.movement.mitchell import mitchell
from bridgescore.movement.model import Movement, Row, Sitout, pair_sort_key
from bridgescore.validate import whole_number_arg

__all__ = ["LatePair", "empty_place", "seat_late_pair", "swap_seats"]


@dataclass(frozen=True, slots=True)
class LatePair:
    """A late pair seated: its label, the round it joins, the rows it plays (from that
    round on) and the whole movement with it."""

    pair: str
    from_round: int
    rows: tuple[Row, ...]
    movement: Movement


def _place(row: Row) -> tuple[int, int, frozenset[str], tuple[int, ...]]:
    # Without the direction: a table swapped by the director is the same place.
    return (row.round, row.table, frozenset(row.pairs), row.boards)


def _fuller(movement: Movement) -> Iterator[Movement]:
    """The movements of one pair more that ``movement`` may have been made from."""
    bpr, rounds = movement.boards_per_round, movement.rounds
    if movement.kind == "mitchell":
        for relay in (False, True):
            try:
                yield mitchell(
                    tables=movement.tables, boards_per_round=bpr, rounds=rounds, relay=relay
                )
            except BridgeError:
                continue  # no such Mitchell (a relay needs an even number of tables)
    elif movement.kind == "howell":
        # An odd field's Howell is that of one pair more; an even field's its own (the
        # place may be taken already).
        pairs = len(movement.pairs) + len(movement.pairs) % 2
        try:
            yield howell(pairs=pairs, boards_per_round=bpr, rounds=rounds)
        except BridgeError:
            return
        if pairs == 10 and rounds != SHORT_HOWELLS[5]:
            # Nine pairs play a design of their own (directions chosen for nine): its
            # tenth pair's place is that design's, not the ten-pair Howell's.
            yield nine_pairs_filled(bpr, rounds)


def empty_place(movement: Movement) -> tuple[str, tuple[Row, ...]]:
    """The pair that fills ``movement``'s empty place and every row it would play.

    Raises :class:`~bridgescore.errors.MovementError` when the movement has no empty
    place: an even number of pairs, a movement that is neither a Mitchell nor a Howell
    made for an odd number of pairs, or the place already taken.
    """
    if movement.kind not in ("mitchell", "howell"):
        raise MovementError(
            f"{'an' if movement.kind[0] in 'aeiou' else 'a'} {movement.kind} movement has no"
            " empty place to seat a late pair in: only a "
            "Mitchell or a Howell made for an odd number of pairs has one"
        )
    stored = {_place(row) for row in movement.rows}
    known = set(movement.pairs)
    for fuller in _fuller(movement):
        places = {_place(row) for row in fuller.rows}
        if not stored <= places:
            continue
        extra = tuple(row for row in fuller.rows if _place(row) not in stored)
        added = set(fuller.pairs) - known
        if not extra:
            raise MovementError(
                f"this {movement.kind} has no empty place: every place of its {len(known)}"
                " pairs is taken (a late pair needs a movement made for an odd number of pairs)"
            )
        common = set.intersection(*(set(row.pairs) for row in extra))
        if not added and common:
            # Taken: the pair that joined late has the fewest rows; of two (it joined at
            # round 2), the generator's left-out pair is the last label.
            pair = max(
                common, key=lambda p: (-len(list(movement.rows_of_pair(p))), pair_sort_key(p))
            )
            rounds = [row.round for row in movement.rows_of_pair(pair)]
            joined = f" joined at round {min(rounds)}" if rounds else " is seated"
            raise MovementError(f"the movement's empty place is taken: pair {pair}{joined}")
        if len(added) != 1 or not added <= common:
            continue
        return added.pop(), extra
    raise MovementError(
        f"this {movement.kind} has no empty place for a late pair: it has {len(known)} pairs"
        f" and no {movement.kind} of {movement.tables} tables, {movement.rounds} rounds and"
        f" {movement.boards_per_round} boards a round with one pair more holds all its rows"
        " (only a Mitchell or Howell made for an odd number of pairs has an empty place)"
    )


def seat_late_pair(movement: Movement, from_round: int) -> LatePair:
    """Seat a late pair in ``movement``'s empty place from round ``from_round`` on.

    Its rows from that round on are added (the pairs they meet no longer sit out), and
    it sits out the rounds before. Raises :class:`~bridgescore.errors.MovementError`
    for a round outside the movement and for a movement without an empty place
    (:func:`empty_place`).
    """
    from_round = whole_number_arg(
        from_round, "the late pair's first round", 1,
        movement.rounds, error=MovementError,
    )  # fmt: skip
    pair, rows = empty_place(movement)
    joining = tuple(row for row in rows if row.round >= from_round)
    met = {(row.round, opponent) for row in joining for opponent in row.pairs if opponent != pair}
    sitouts = tuple(s for s in movement.sitouts if (s.round, s.pair) not in met)
    sitouts += tuple(Sitout(round_number, pair) for round_number in range(1, from_round))
    tables = max([movement.tables, *(row.table for row in joining)])
    seated = replace(movement, tables=tables, rows=movement.rows + joining, sitouts=sitouts)
    return LatePair(pair, from_round, joining, seated)


def swap_seats(movement: Movement, table: int, round_number: int) -> Movement:
    """``movement`` with the pairs at ``table`` in ``round_number`` in each other's seats
    (NS and EW exchanged): what a table that sat the wrong way round played. Swapping
    again gives the movement back.

    Raises :class:`~bridgescore.errors.NotThisTableError` naming the table and round
    when the movement has no such table in play then.

    >>> from bridgescore.movement.mitchell import mitchell
    >>> swapped = swap_seats(mitchell(tables=3, boards_per_round=2), 2, 1)
    >>> swapped.row_at(1, 2)
    Row(round=1, table=2, ns='2E', ew='2N', boards=(3, 4))
    """
    table = whole_number_arg(table, "table", 1, movement.tables, error=NotThisTableError)
    round_number = whole_number_arg(
        round_number, "round", 1, movement.rounds,
        error=NotThisTableError,
    )  # fmt: skip
    row = movement.row_at(round_number, table)
    if row is None:
        raise NotThisTableError(
            f"table {table} plays no boards in round {round_number}: nobody sat there to swap"
        )
    turned = Row(row.round, row.table, row.ew, row.ns, row.boards)
    return replace(movement, rows=tuple(turned if r is row else r for r in movement.rows))
