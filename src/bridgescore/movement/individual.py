"""Individual movements: every player partners every other player once.

``N`` players (a multiple of four, 8 to :data:`MAX_PLAYERS`) sit at ``N / 4`` tables for
``N - 1`` rounds; each round every player has a new partner, so over the whole movement
each player partners each of the others exactly once. A row names its two partnerships
by their players, North (or East) first: ``Row(1, 2, "3-7", "5-1", ...)`` is player 3
North, 7 South, 5 East and 1 West at table 2 in round 1.

How it is built (a cyclic construction over the integers modulo ``M = N - 1``): player
``N`` stays at table 1 North all evening; players ``1 .. N - 1`` stand for
``0 .. M - 1`` and each round every one of them moves on by one (player ``p + 1`` sits
in round ``r + 1`` where player ``p`` sat in round ``r``). Round 1's partnerships are
``{N, 0}`` and ``{i, -i}`` for ``i = 1 .. (M - 1) / 2``: their differences ``2i`` and
``-2i`` are every non-zero difference once (``M`` is odd, so doubling is one-to-one),
and moving everyone on by one keeps each difference, so no two players partner twice
in ``M`` rounds. Tables seat the partnerships in that order, two a table.

The boards: every table plays the same set in a round, round ``r`` boards
``(r - 1) * B + 1`` to ``r * B``, so each round's boards are dealt in ``N / 4`` copies
(as a Swiss teams' are), each player plays each board once, and each board is played
``N / 4`` times. (With board sets that move on one table a round as the players do, 8
players cannot each meet every set once: counting what each player would meet modulo 7
forces the two tables' offsets to be equal; for 12 to 20 players a search of that scheme
found no arrangement either. One set a round at every table keeps every size alike.)

``rounds=`` plays only the first rounds of it.
"""

from __future__ import annotations

from bridgescore.errors import MovementError
from bridgescore.movement.model import Movement, Row
from bridgescore.validate import whole_number_arg

__all__ = ["MAX_PLAYERS", "individual"]

#: The largest individual movement built (ten tables).
MAX_PLAYERS = 40


def _partnerships(players: int) -> list[tuple[int | None, int]]:
    """Round 1's partnerships by starting number (None: the stationary player)."""
    period = players - 1
    return [(None, 0)] + [(i, period - i) for i in range(1, (period - 1) // 2 + 1)]


def individual(players: int, *, boards_per_round: int, rounds: int | None = None) -> Movement:
    """The individual movement of ``players`` players (8, 12, 16, ... up to 40): ``N - 1``
    rounds at ``N / 4`` tables, every table in round ``r`` playing boards
    ``(r - 1) * boards_per_round + 1`` to ``r * boards_per_round``. ``rounds``: play
    only the first rounds (default all).

    Raises :class:`~bridgescore.errors.InvalidArgumentError` (or
    :class:`~bridgescore.errors.MovementError`) for a number of players that is not a
    multiple of four from 8 to 40, or rounds out of range.

    >>> movement = individual(8, boards_per_round=2)
    >>> movement.tables, movement.rounds, len(movement.boards)
    (2, 7, 14)
    >>> [(row.table, row.ns, row.ew, row.boards) for row in movement.rows_in_round(1)]
    [(1, '8-1', '2-7', (1, 2)), (2, '3-6', '4-5', (1, 2))]
    """
    players = whole_number_arg(players, "players", 8, MAX_PLAYERS)
    if players % 4:
        raise MovementError(
            f"{players} players: an individual movement seats four a table, so its players"
            f" are a multiple of four (8, 12, 16, ... {MAX_PLAYERS})"
        )
    boards_per_round = whole_number_arg(boards_per_round, "boards per round", 1)
    period = players - 1
    played = period if rounds is None else whole_number_arg(rounds, "rounds", 1, period)

    def label(z: int | None, shift: int) -> str:
        return str(players) if z is None else str((z + shift) % period + 1)

    starting = _partnerships(players)
    rows = []
    for shift in range(played):
        first = shift * boards_per_round + 1
        boards = tuple(range(first, first + boards_per_round))
        labels = [f"{label(a, shift)}-{label(b, shift)}" for a, b in starting]
        for table in range(1, players // 4 + 1):
            rows.append(Row(shift + 1, table, labels[2 * table - 2], labels[2 * table - 1], boards))
    return Movement(
        kind="individual",
        tables=players // 4,
        rounds=played,
        boards_per_round=boards_per_round,
        rows=tuple(rows),
    )
