"""Teams-of-four movements: a round robin, and Swiss pairing round by round.

Teams are ``"1"`` to ``"T"``. A match between teams ``a`` and ``b`` is played in two
rooms on the same boards: in the m-th match of a round, table ``2m - 1`` (the open room)
has ``a`` NS and ``b`` EW, table ``2m`` (the closed room) ``b`` NS and ``a`` EW. Every
match of a round plays that round's boards (one copy of the boards per match, as teams
events deal them): round ``r`` plays boards ``(r - 1) * B + 1`` to ``r * B``.

- :func:`round_robin`: every team meets every other once, by the circle method (team
  ``T``, or the bye for an odd number, stays put while the others turn round it); with an
  odd number of teams one team has a bye (sits out) each round.
- :func:`swiss_pairings`: the next round's matches from the ranking (by VPs, best
  first): the best team still free meets the best free team it has not met; when that
  leaves teams that cannot all be paired without a repeat meeting, the choice is undone
  and the next team tried (backtracking). With an odd number of teams the bye goes to the
  lowest-ranked team that has not had one. :func:`swiss_round_movement` makes the round a
  movement.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache

from bridgescore.errors import InvalidArgumentError, MovementError
from bridgescore.movement.model import Movement, Row, Sitout
from bridgescore.validate import whole_number_arg

__all__ = ["MAX_TEAMS", "SwissRound", "round_robin", "swiss_pairings", "swiss_round_movement"]

#: The largest round robin generated (more teams play a Swiss).
MAX_TEAMS = 40


@dataclass(frozen=True, slots=True)
class SwissRound:
    """One Swiss round: its matches (higher-ranked team first) and the team with the bye."""

    matches: tuple[tuple[str, str], ...]
    bye: str | None = None

    def __post_init__(self) -> None:
        seen: list[str] = [] if self.bye is None else [self.bye]
        for match in self.matches:
            if not (isinstance(match, tuple) and len(match) == 2):
                raise InvalidArgumentError(f"a Swiss match is two teams, got {match!r}")
            seen.extend(match)
        for team in seen:
            if not isinstance(team, str) or not team.strip():
                raise InvalidArgumentError(f"a Swiss round names teams by label, got {team!r}")
        twice = sorted({team for team in seen if seen.count(team) > 1})
        if twice:
            raise InvalidArgumentError(
                f"team {twice[0]!r} is in two places in one Swiss round: {self!r}"
            )


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


def _teams_of(ranking: Sequence[str]) -> tuple[str, ...]:
    if isinstance(ranking, str) or not isinstance(ranking, Sequence):
        raise InvalidArgumentError(
            f"a Swiss ranking must be a sequence of team labels, best first, got {ranking!r}"
        )
    seen: set[str] = set()
    for team in ranking:
        if not isinstance(team, str) or not team.strip():
            raise InvalidArgumentError(f"a Swiss ranking lists team labels, got {team!r}")
        if team in seen:
            raise InvalidArgumentError(f"team {team!r} is ranked twice")
        seen.add(team)
    if len(seen) < 2:
        raise InvalidArgumentError(f"a Swiss round needs at least two teams, got {list(ranking)!r}")
    return tuple(ranking)


def _history(
    played: Collection[frozenset[str]], teams: tuple[str, ...]
) -> tuple[frozenset[frozenset[str]], frozenset[str]]:
    known = set(teams)
    meetings: set[frozenset[str]] = set()
    byes: set[str] = set()
    for entry in played:
        if not isinstance(entry, frozenset) or len(entry) not in (1, 2):
            raise InvalidArgumentError(
                f"a past meeting is a frozenset of two teams (one team: a bye), got {entry!r}"
            )
        unknown = sorted(str(team) for team in entry - known)
        if unknown:
            raise InvalidArgumentError(
                f"past meeting {sorted(entry)!r} names team {unknown[0]!r}, which is not"
                " in the ranking"
            )
        if len(entry) == 1:
            byes.update(entry)
        else:
            meetings.add(entry)
    return frozenset(meetings), frozenset(byes)


def swiss_pairings(ranking: Sequence[str], played: Collection[frozenset[str]]) -> SwissRound:
    """The next Swiss round: teams paired top-down by ``ranking`` (best first), no two
    teams that have met (``played``: a ``frozenset`` of two teams per past match; a
    one-team ``frozenset`` records a past bye) meeting again.

    With an odd number of teams the bye goes to the lowest-ranked team without one whose
    absence leaves the others pairable. Raises :class:`~bridgescore.MovementError` when no
    pairing avoids a repeat meeting.

    >>> swiss_pairings(["1", "2", "3", "4"], [frozenset({"1", "2"})])
    SwissRound(matches=(('1', '3'), ('2', '4')), bye=None)
    >>> swiss_pairings(["3", "1", "2"], [frozenset({"2"})])
    SwissRound(matches=(('3', '2'),), bye='1')
    """
    teams = _teams_of(ranking)
    meetings, byes = _history(played, teams)

    @cache
    def pair_off(free: tuple[str, ...]) -> tuple[tuple[str, str], ...] | None:
        # ``free`` keeps ranking order; the best free team takes the best opponent that
        # still lets the rest be paired. Cached by the set of free teams, so a dead end
        # is explored once.
        if not free:
            return ()
        best, rest = free[0], free[1:]
        for index, opponent in enumerate(rest):
            if frozenset((best, opponent)) in meetings:
                continue
            remainder = pair_off(rest[:index] + rest[index + 1 :])
            if remainder is not None:
                return ((best, opponent), *remainder)
        return None

    if len(teams) % 2 == 0:
        candidates: list[str | None] = [None]
    else:
        # Lowest-ranked first; teams that have had a bye only when all have had one.
        fresh = [team for team in reversed(teams) if team not in byes]
        candidates = list(fresh or reversed(teams))
    for bye in candidates:
        matches = pair_off(tuple(team for team in teams if team != bye))
        if matches is not None:
            return SwissRound(matches, bye)
    raise MovementError(
        f"no Swiss pairing of teams {', '.join(teams)} avoids a repeat meeting: every"
        " choice leaves two teams that have met"
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
