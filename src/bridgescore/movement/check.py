"""The movement checker: is a movement sound, and how fair is it?

:func:`check_movement` counts, for any movement (generated or read from a file), the
boards each pair plays, how often each board is played, how often each two pairs meet,
and for pairs movements how often each two pairs are compared in the same and in the
opposite direction. Two pairs are compared on a board when both play it; in the same
direction when both hold the same cards on it (NS or EW, counting an arrow-switched
round as the other direction). It lists what makes the movement unsound, each finding
naming its round and table:

- a pair at two tables in one round;
- a pair that plays a board it has played before;
- a pair listed as sitting out a round in which it plays.

Two tables sharing a board set in one round (a relay) is sound. A teams movement
(kind ``"teams"``) plays each match in two rooms: there a team sits at exactly two
tables a round, once NS and once EW, against the same team on the same boards, and
plays a board in one round only.

An individual movement (kind ``"individual"``) is checked player by player: its
counts are each player's boards and how often each two players are partners
(``meetings``), and it is unsound where a table's four seats do not hold four
different players, a player is at two tables in a round, plays a board again, or
partners a player a second time.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations

from bridgescore.errors import MovementError
from bridgescore.movement.model import Movement, Row, pair_sort_key, partnership_players

__all__ = [
    "Comparisons",
    "MovementCheck",
    "MovementProblem",
    "check_movement",
    "require_sound",
    "seated",
]

PairKey = tuple[str, str]
"""Two pairs, in the order clubs list them."""


@dataclass(frozen=True, slots=True)
class MovementProblem:
    """What makes a movement unsound, and where: a round and a table."""

    round: int
    table: int
    message: str

    def __str__(self) -> str:
        return f"round {self.round}, table {self.table}: {self.message}"


@dataclass(frozen=True, slots=True)
class Comparisons:
    """On how many boards two pairs are compared, sitting the same and the other way."""

    same: int
    opposite: int


@dataclass(frozen=True)
class MovementCheck:
    """The checker's findings on one movement (:func:`check_movement`)."""

    kind: str
    pairs: tuple[str, ...]
    boards_per_pair: dict[str, int] = field(hash=False)
    """Boards each pair plays (a teams movement: boards each team plays in each room; an
    individual: boards each player plays)."""
    times_played: dict[int, int] = field(hash=False)
    """How many tables play each board."""
    meetings: dict[PairKey, int] = field(hash=False)
    """How many rounds each two pairs play each other (0 included); an individual: how
    many rounds each two players are partners."""
    comparisons: dict[PairKey, Comparisons] = field(hash=False)
    """Pairs movements: each two pairs' comparisons. Empty for teams."""
    problems: tuple[MovementProblem, ...]

    @property
    def sound(self) -> bool:
        return not self.problems

    @property
    def same_direction_range(self) -> tuple[int, int] | None:
        """The fewest and the most boards on which two pairs are compared sitting the
        same direction, over every two pairs (None for teams, or fewer than two pairs).
        A balanced Howell has one number; ``most - fewest`` is its spread.

        >>> from bridgescore.movement.howell import howell
        >>> check_movement(howell(tables=4, boards_per_round=3)).same_direction_range
        (9, 9)
        """
        if not self.comparisons:
            return None
        same = [comparison.same for comparison in self.comparisons.values()]
        return (min(same), max(same))


def _key(first: str, second: str) -> PairKey:
    ordered = sorted((first, second), key=pair_sort_key)
    return (ordered[0], ordered[1])


def _seat_problems(movement: Movement) -> list[MovementProblem]:
    """Pairs at two tables, and sit-outs that play (teams: not two tables as a match)."""
    problems = []
    for round_number in range(1, movement.rounds + 1):
        rows = movement.rows_in_round(round_number)
        tables_of: dict[str, list[Row]] = {}
        for row in rows:
            for pair in row.pairs:
                tables_of.setdefault(pair, []).append(row)
        for pair in movement.sitting_out(round_number):
            if pair in tables_of:
                table = tables_of[pair][0].table
                problems.append(
                    MovementProblem(round_number, table, f"pair {pair} sits out but plays here")
                )
        for pair, places in sorted(tables_of.items(), key=lambda item: pair_sort_key(item[0])):
            if movement.kind == "teams":
                problem = _match_problem(pair, places)
                if problem is not None:
                    problems.append(MovementProblem(round_number, places[-1].table, problem))
            elif len(places) > 1:
                others = ", ".join(str(row.table) for row in places[:-1])
                problems.append(
                    MovementProblem(
                        round_number,
                        places[-1].table,
                        f"pair {pair} is also at table {others} this round",
                    )
                )
    return problems


def _match_problem(team: str, places: list[Row]) -> str | None:
    """Why a team's tables in a round are not one match in two rooms (None: they are)."""
    if len(places) != 2:
        return f"team {team} plays at {len(places)} table(s) this round (a match is two)"
    first, second = places
    if {first.ns, second.ew} != {team} and {first.ew, second.ns} != {team}:
        return f"team {team} sits the same way at tables {first.table} and {second.table}"
    if set(first.pairs) != set(second.pairs):
        return f"team {team} meets different teams at tables {first.table} and {second.table}"
    if set(first.boards) != set(second.boards):
        return f"team {team} plays other boards at table {second.table} than at {first.table}"
    return None


def _board_problems(movement: Movement) -> list[MovementProblem]:
    """A pair that plays a board again in a later round."""
    problems = []
    seen: dict[str, dict[int, int]] = {}  # pair -> board -> the round it was played in
    for row in movement.rows:
        for pair in row.pairs:
            played = seen.setdefault(pair, {})
            # A board met again in the same round is a pair at two tables (reported
            # as that), or a teams match's other room (sound).
            again = sorted(
                board for board in row.boards if board in played and played[board] != row.round
            )
            if again:
                boards = ", ".join(str(board) for board in again)
                first_round = played[again[0]]
                problems.append(
                    MovementProblem(
                        row.round,
                        row.table,
                        f"pair {pair} plays board{'s' if len(again) > 1 else ''} {boards}"
                        f" again (first in round {first_round})",
                    )
                )
            for board in row.boards:
                played.setdefault(board, row.round)
    return problems


def _comparisons(movement: Movement) -> dict[PairKey, Comparisons]:
    # Who holds the NS cards of each board: the NS pair, or the EW pair in an
    # arrow-switched round.
    holders: dict[int, list[tuple[str, bool]]] = {}
    for row in movement.rows:
        switched = movement.is_arrow_switched(row.round)
        for board in row.boards:
            holders.setdefault(board, []).append((row.ns, not switched))
            holders.setdefault(board, []).append((row.ew, switched))
    same: Counter[PairKey] = Counter()
    opposite: Counter[PairKey] = Counter()
    for seats in holders.values():
        for (first, first_ns), (second, second_ns) in combinations(seats, 2):
            if first == second:
                continue
            key = _key(first, second)
            if first_ns == second_ns:
                same[key] += 1
            else:
                opposite[key] += 1
    # Opponents at one table are "compared" against each other on the boards they play
    # together; that is a meeting, not a comparison, so it is taken out again.
    for row in movement.rows:
        key = _key(row.ns, row.ew)
        opposite[key] -= len(row.boards)
    return {key: Comparisons(same[key], opposite[key]) for key in combinations(movement.pairs, 2)}


def check_movement(movement: Movement) -> MovementCheck:
    """The checker's findings on ``movement``: counts, comparisons and problems.

    >>> from bridgescore.movement.model import Row
    >>> broken = Movement("custom", 2, 1, 1, (Row(1, 1, "1", "2", (1,)), Row(1, 2, "1", "3", (2,))))
    >>> [str(problem) for problem in check_movement(broken).problems]
    ['round 1, table 2: pair 1 is also at table 1 this round']
    """
    if not isinstance(movement, Movement):
        raise MovementError(f"check_movement needs a Movement, got {movement!r}")
    if movement.kind == "individual":
        return _check_individual(movement)
    boards: Counter[str] = Counter()
    for row in movement.rows:
        for pair in row.pairs:
            boards[pair] += len(row.boards)
    times = Counter(board for row in movement.rows for board in row.boards)
    met: Counter[PairKey] = Counter(_key(row.ns, row.ew) for row in movement.rows)
    if movement.kind == "teams":
        # Both rooms of a match are one meeting.
        met = Counter({key: count // 2 for key, count in met.items()})
        boards = Counter({team: count // 2 for team, count in boards.items()})
    problems = _seat_problems(movement) + _board_problems(movement)
    problems.sort(key=lambda problem: (problem.round, problem.table))
    pairs = movement.pairs
    return MovementCheck(
        kind=movement.kind,
        pairs=pairs,
        boards_per_pair={pair: boards[pair] for pair in pairs},
        times_played={board: times[board] for board in sorted(times)},
        meetings={key: met[key] for key in combinations(pairs, 2)},
        comparisons={} if movement.kind == "teams" else _comparisons(movement),
        problems=tuple(problems),
    )


def seated(row: Row) -> tuple[str, str, str, str]:
    """The players at a row's table: North, South, East, West."""
    north, south = partnership_players(row.ns) or (row.ns, row.ns)
    east, west = partnership_players(row.ew) or (row.ew, row.ew)
    return (north, south, east, west)


def _check_individual(movement: Movement) -> MovementCheck:
    """:func:`check_movement` for an individual movement, player by player."""
    problems: list[MovementProblem] = []
    boards: Counter[str] = Counter()
    partners: dict[PairKey, int] = {}  # two players -> the round they first partnered in
    partnered: Counter[PairKey] = Counter()
    table_of: dict[tuple[int, str], int] = {}  # (round, player) -> table
    played: dict[str, dict[int, int]] = {}  # player -> board -> the round it was played in
    for row in movement.rows:
        seats = seated(row)
        where = (row.round, row.table)
        if len(set(seats)) < 4:
            twice = sorted({p for p in seats if seats.count(p) > 1}, key=int)
            problems.append(
                MovementProblem(
                    *where,
                    f"player {twice[0]} holds two seats (a table seats four different players)",
                )
            )
        for player in dict.fromkeys(seats):
            boards[player] += len(row.boards)
            other = table_of.setdefault((row.round, player), row.table)
            if other != row.table:
                problems.append(
                    MovementProblem(*where, f"player {player} is also at table {other} this round")
                )
            seen = played.setdefault(player, {})
            again = sorted(b for b in row.boards if b in seen and seen[b] != row.round)
            if again:
                listed = ", ".join(str(board) for board in again)
                problems.append(
                    MovementProblem(
                        *where,
                        f"player {player} plays board{'s' if len(again) > 1 else ''} {listed}"
                        f" again (first in round {seen[again[0]]})",
                    )
                )
            for board in row.boards:
                seen.setdefault(board, row.round)
        for first, second in ((seats[0], seats[1]), (seats[2], seats[3])):
            if first == second:
                continue
            key = _key(first, second)
            partnered[key] += 1
            if key in partners:
                problems.append(
                    MovementProblem(
                        *where,
                        f"players {key[0]} and {key[1]} partner again (first in round"
                        f" {partners[key]})",
                    )
                )
            partners.setdefault(key, row.round)
    problems.sort(key=lambda problem: (problem.round, problem.table))
    players = tuple(sorted(boards, key=pair_sort_key))
    times = Counter(board for row in movement.rows for board in row.boards)
    return MovementCheck(
        kind=movement.kind,
        pairs=players,
        boards_per_pair={player: boards[player] for player in players},
        times_played={board: times[board] for board in sorted(times)},
        meetings={key: partnered[key] for key in combinations(players, 2)},
        comparisons={},
        problems=tuple(problems),
    )


def require_sound(movement: Movement) -> MovementCheck:
    """:func:`check_movement`, raising :class:`MovementError` naming the first
    problem's round and table when the movement is unsound."""
    check = check_movement(movement)
    if check.problems:
        more = len(check.problems) - 1
        tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        raise MovementError(f"unsound movement: {check.problems[0]}{tail}")
    return check
