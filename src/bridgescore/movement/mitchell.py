"""The Mitchell movement: NS pairs stay at their tables, EW pairs and boards move.

Pairs are labelled by their home table: NS pair ``kN`` sits NS at table k all session,
EW pair ``kE`` starts EW at table k. Board set s is boards (s - 1) * B + 1 .. s * B,
and set t starts at table t. After each round the EW pairs move up one table (from the
last table to table 1) and the boards move down one (from table 1 to the last).

- An odd number of tables T: T rounds at most, and every EW pair meets every NS pair
  and plays every set once.
- An even number of tables, by default a *skip* Mitchell: moving up one table, EW
  pairs would meet boards they have played after T/2 rounds, so after round T/2 they
  move up two tables (the skip). T - 1 rounds at most; each EW pair misses one NS pair
  and one set.
- An even number of tables with ``relay=True``, the *share-and-relay* Mitchell: tables
  1 and T share one set each round (the relay), and a bye stand between tables T/2 and
  T/2 + 1 holds the set no table plays that round. The boards move down through the bye
  stand; T rounds, and every EW pair meets every NS pair and plays every set.
- ``pairs=2T-1``: EW pair ``TE`` is missing, so in each round the NS pair it would have
  met sits out (listed in the sit-outs) and that table is empty.
- ``arrow_switch=True``: the last rounds are played arrow-switched (the pairs play the
  other direction's cards), about one round in eight and at least one, as the EBU
  advises for a one-winner Mitchell (J. R. Manning's analysis: switch about an eighth).
"""

from __future__ import annotations

from bridgescore.errors import InvalidArgumentError
from bridgescore.movement.model import Movement, Row, Sitout, board_set
from bridgescore.validate import bool_arg, whole_number_arg

__all__ = ["MAX_TABLES", "mitchell", "switched_rounds"]

MAX_TABLES = 30
"""The largest Mitchell section generated (a larger field splits into sections)."""


def switched_rounds(rounds: int) -> tuple[int, ...]:
    """The rounds an arrow-switched Mitchell of ``rounds`` rounds switches: the last
    eighth of them, rounded half up, and at least the last round.

    >>> switched_rounds(7), switched_rounds(12), switched_rounds(27)
    ((7,), (11, 12), (25, 26, 27))
    """
    rounds = whole_number_arg(rounds, "rounds", 1)
    count = max(1, (2 * rounds + 8) // 16)
    return tuple(range(rounds - count + 1, rounds + 1))


def _relay_positions(tables: int) -> dict[int, int]:
    """Each table's place in the boards' circuit of a share-and-relay Mitchell.

    The circuit, in the order the sets travel upwards: tables 1 and T together (they
    share), 2, ..., T/2, the bye stand, T/2 + 1, ..., T - 1: T places for T sets.
    """
    half = tables // 2
    places = {1: 0, tables: 0}
    places.update({table: table - 1 for table in range(2, half + 1)})
    places.update({table: table for table in range(half + 1, tables)})
    return places


def mitchell(
    *,
    tables: int,
    boards_per_round: int,
    rounds: int | None = None,
    pairs: int | None = None,
    relay: bool = False,
    arrow_switch: bool = False,
) -> Movement:
    """A Mitchell of ``tables`` tables (2 to 30), ``boards_per_round`` boards a round.

    ``rounds`` (default: all) may be fewer than the movement has; ``pairs`` is 2T (the
    default) or 2T - 1 (one NS pair sits out each round); ``relay`` chooses the
    share-and-relay Mitchell for an even number of tables instead of the skip;
    ``arrow_switch`` switches the last rounds (:func:`switched_rounds`).

    Raises :class:`~bridgescore.InvalidArgumentError` naming the option and its range.

    >>> m = mitchell(tables=3, boards_per_round=2)
    >>> [(row.ns, row.ew, row.boards) for row in m.rows_in_round(2)]
    [('1N', '3E', (3, 4)), ('2N', '1E', (5, 6)), ('3N', '2E', (1, 2))]
    """
    tables = whole_number_arg(tables, "tables", 2, MAX_TABLES)
    boards_per_round = whole_number_arg(boards_per_round, "boards per round", 1)
    relay = bool_arg(relay, "relay")
    arrow_switch = bool_arg(arrow_switch, "arrow_switch")
    even = tables % 2 == 0
    if relay and not even:
        raise InvalidArgumentError(
            f"relay: a share-and-relay Mitchell needs an even number of tables, got {tables}"
            " (an odd number plays the plain Mitchell)"
        )
    skip = even and not relay
    most = tables - 1 if skip else tables
    rounds = most if rounds is None else whole_number_arg(rounds, "rounds", 1, most)
    if pairs is None:
        pairs = 2 * tables
    pairs = whole_number_arg(pairs, f"pairs (for {tables} tables)", 2 * tables - 1, 2 * tables)
    missing = f"{tables}E" if pairs == 2 * tables - 1 else None
    places = _relay_positions(tables) if relay else {t: t - 1 for t in range(1, tables + 1)}

    rows: list[Row] = []
    sitouts: list[Sitout] = []
    for round_number in range(1, rounds + 1):
        moved = round_number - 1
        if skip and round_number > tables // 2:
            moved += 1  # the skip: from round T/2 + 1 on, EW pairs are one table further on
        for table in range(1, tables + 1):
            ew = f"{(table - 1 - moved) % tables + 1}E"
            ns = f"{table}N"
            if ew == missing:
                sitouts.append(Sitout(round_number, ns))
                continue
            # The set at a place moves down one place a round: place p holds, in round r,
            # the set that started at place p + r - 1.
            set_number = (places[table] + round_number - 1) % tables + 1
            first = (set_number - 1) * boards_per_round + 1
            rows.append(Row(round_number, table, ns, ew, board_set(first, boards_per_round)))
    return Movement(
        kind="mitchell",
        tables=tables,
        rounds=rounds,
        boards_per_round=boards_per_round,
        rows=tuple(rows),
        sitouts=tuple(sitouts),
        arrow_switch=switched_rounds(rounds) if arrow_switch else (),
    )
