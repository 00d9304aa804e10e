"""Teams-of-four movements: a round robin, and Swiss pairing round by round.

Teams are ``"1"`` to ``"T"``. A match between teams ``a`` and ``b`` is played in two
rooms on the same boards: in the m-th match of a round, table ``2m - 1`` (the open room)
has ``a`` NS and ``b`` EW, table ``2m`` (the closed room) ``b`` NS and ``a`` EW. Every
match of a round plays that round's boards (one copy of the boards per match, as teams
events deal them): round ``r`` plays boards ``(r - 1) * B + 1`` to ``r * B``.

- :func:`round_robin`: every team meets every other once, by the circle method (team
  ``T``, or the bye for an odd number, stays put while the others turn round it); with an
  odd number of teams one team has a bye (sits out) each round.
- :func:`swiss_round_movement`: one Swiss round as a movement. The draw itself
  (:func:`~bridgescore.movement.swiss.swiss_draw`, :class:`SwissRound`,
  :func:`swiss_pairings`) lives in :mod:`bridgescore.movement.swiss`; the last two are
  named here too, where they were first.
"""

from __future__ import annotations

from collections.abc import Sequence

from bridgescore.errors import InvalidArgumentError
from bridgescore.movement.model import Movement, Row, Sitout
from bridgescore.movement.swiss import SwissRound, swiss_pairings
from bridgescore.validate import whole_number_arg

__all__ = ["MAX_TEAMS", "SwissRound", "round_robin", "swiss_pairings", "swiss_round_movement"]

#: The largest round robin generated (more teams play a Swiss).
MAX_TEAMS = 40


def _match_rows(
    round_number: int, matches: Sequence[tuple[str, str]], boards_per_round: int
) -> list[Row]:
    first = (round_number - 1) * boards_per_round + 1
    boards = tuple(range(first, first + boards_per_round))
    rows = []
    for number, (home, away) in enumerate(matches, start=1):
        rows.append(Row(round_number, 2 * number - 1, home, away, boards))
        rows.append(Row(round_number, 2 * number, away, home, boards))
    return rows


def round_robin(teams: int, *, boards_per_round: int, rounds: int | None = None) -> Movement:
    """Every team meets every other once: ``T - 1`` rounds (``T`` for an odd number, one
    bye a round), each match at two tables on that round's boards. ``rounds``: play only
    the first rounds of it (fewer than it has; default all).

    >>> movement = round_robin(4, boards_per_round=8)
    >>> [(row.table, row.ns, row.ew, row.boards[0]) for row in movement.rows_in_round(1)]
    [(1, '1', '4', 1), (2, '4', '1', 1), (3, '2', '3', 1), (4, '3', '2', 1)]
    >>> [round_robin(5, boards_per_round=6).sitting_out(r) for r in (1, 2)]
    [('1',), ('2',)]
    """
    teams = whole_number_arg(teams, "teams", 2, MAX_TEAMS)
    boards_per_round = whole_number_arg(boards_per_round, "boards per round", 1)
    # The circle method on n = T (even) or T + 1 (odd: the extra one is the bye): the
    # last stays put and meets r in round r (from 0); the others meet in twos, r + k and
    # r - k modulo n - 1 for k = 1 .. n/2 - 1. The differences +-2k are all different, so
    # no two teams meet twice, and each team meets every other once in n - 1 rounds.
    size = teams + teams % 2
    turning = size - 1
    if rounds is not None:
        turning_rounds = whole_number_arg(rounds, "rounds", 1, turning)
    rows: list[Row] = []
    sitouts: list[Sitout] = []
    for shift in range(turning):
        number = shift + 1
        # (first, second, k): the team still at the head of the table and its opponent.
        pairs = [(shift, turning, 0)]
        pairs += [((shift + k) % turning, (shift - k) % turning, k) for k in range(1, size // 2)]
        matches = []
        for first, second, k in pairs:
            if teams % 2 and turning in (first, second):
                sitouts.append(Sitout(number, str(min(first, second) + 1)))
                continue
            # Who sits NS in the open room: the team that stays put on even rounds, its
            # opponent on odd ones; r + k when k is odd, r - k when even. Each team then
            # sits NS in the open room in half its matches (rounded up or down).
            if k == 0:
                home, away = (second, first) if shift % 2 else (first, second)
            else:
                home, away = (first, second) if k % 2 else (second, first)
            matches.append((str(home + 1), str(away + 1)))
        rows.extend(_match_rows(number, matches, boards_per_round))
    played = turning if rounds is None else turning_rounds
    return Movement(
        kind="teams",
        tables=2 * (teams // 2),
        rounds=played,
        boards_per_round=boards_per_round,
        rows=tuple(row for row in rows if row.round <= played),
        sitouts=tuple(sitout for sitout in sitouts if sitout.round <= played),
    )


def swiss_round_movement(
    pairings: SwissRound, *, round_number: int = 1, boards_per_round: int
) -> Movement:
    """The movement of one Swiss round: its matches at tables 1-2, 3-4, ... (open and
    closed room) on boards ``(round_number - 1) * B + 1`` to ``round_number * B``; the
    bye, if any, sits out. The movement's earlier rounds are empty (they were other
    pairings).

    >>> round_two = swiss_round_movement(
    ...     SwissRound((("1", "3"),), "2"), round_number=2, boards_per_round=7
    ... )
    >>> round_two.rows[0]
    Row(round=2, table=1, ns='1', ew='3', boards=(8, 9, 10, 11, 12, 13, 14))
    >>> round_two.sitouts
    (Sitout(round=2, pair='2'),)
    """
    if not isinstance(pairings, SwissRound):
        raise InvalidArgumentError(f"swiss_round_movement needs a SwissRound, got {pairings!r}")
    round_number = whole_number_arg(round_number, "round number", 1)
    boards_per_round = whole_number_arg(boards_per_round, "boards per round", 1)
    if not pairings.matches:
        raise InvalidArgumentError("a Swiss round with no match has no movement")
    return Movement(
        kind="teams",
        tables=2 * len(pairings.matches),
        rounds=round_number,
        boards_per_round=boards_per_round,
        rows=tuple(_match_rows(round_number, pairings.matches, boards_per_round)),
        sitouts=(Sitout(round_number, pairings.bye),) if pairings.bye is not None else (),
    )
