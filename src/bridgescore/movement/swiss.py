"""Swiss teams and Swiss pairs: each round drawn from the standings so far.

The draw is the same for both fields (a team or a pair is one entry of the standings);
below, "team" reads "pair" in a Swiss pairs, whose round is one match a table
(:func:`swiss_pairs_round_movement`).

The rule (docs/movements.md, "Swiss teams", says where it comes from):

- **Ranking.** Teams in order of VPs so far, best first; equal VPs by IMP difference
  (higher first); still equal, by seeding order (the order the standings list them).
- **Top-down, no repeats.** The best team meets the best team it has not met, then the
  best free team does the same, and so on down; when that plain draw would leave two
  teams that have met, the draw backtracks from the bottom: the lowest choice is undone
  and its team takes the next opponent, so the lowest pairs change first and the top
  ones only if nothing below will do (:mod:`~bridgescore.movement.matching` finds that
  draw in polynomial time).
- **Bye.** With an odd number of teams, the lowest-ranked team that has not had a bye
  sits out (the next one up when the rest could not be paired without a repeat); a
  team has a second bye only once every team has had one. The bye scores
  :data:`BYE_VICTORY_POINTS` unless the event says otherwise (:func:`bye_score`).
- **Round 1.** Everyone is level, so the same rule pairs seed 1 with seed 2, 3 with 4,
  ...; :func:`swiss_seeding` shuffles the seeding with a seed for a random first round.

:func:`swiss_draw` is the draw over values; :func:`swiss_pairings` is the same draw from
a ranking already made.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Literal

from bridgescore.errors import InvalidArgumentError, MovementError
from bridgescore.movement.matching import first_perfect_matching
from bridgescore.movement.model import Movement, Row, Sitout
from bridgescore.validate import is_number, whole_number_arg

__all__ = [
    "BYE_VICTORY_POINTS",
    "SwissRound",
    "bye_score",
    "swiss_draw",
    "swiss_pairings",
    "swiss_pairs_round_movement",
    "swiss_ranking",
    "swiss_seeding",
]

#: The VPs a bye scores by default, on the 20-point scale (see docs/movements.md).
BYE_VICTORY_POINTS = 12.0


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


def _pair(
    teams: tuple[str, ...], meetings: frozenset[frozenset[str]], byes: frozenset[str]
) -> tuple[SwissRound | None, int]:
    """The draw by the rule, or None; and the augmenting-path searches it took."""

    def may_meet(a: int, b: int) -> bool:
        return frozenset((teams[a], teams[b])) not in meetings

    if len(teams) % 2 == 0:
        candidates: list[int | None] = [None]
    else:
        # Lowest-ranked first; teams that have had a bye only when all have had one.
        fresh = [i for i in reversed(range(len(teams))) if teams[i] not in byes]
        candidates = list(fresh or reversed(range(len(teams))))
    searches = 0
    for bye in candidates:
        pairs, spent = first_perfect_matching(len(teams), may_meet, leave_out=bye)
        searches += spent
        if pairs is not None:
            matches = tuple((teams[a], teams[b]) for a, b in pairs)
            return SwissRound(matches, None if bye is None else teams[bye]), searches
    return None, searches


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
    drawn, _ = _pair(teams, meetings, byes)
    if drawn is None:
        raise MovementError(
            f"no Swiss pairing of teams {', '.join(teams)} avoids a repeat meeting: every"
            " choice leaves two teams that have met"
        )
    return drawn


def swiss_ranking(standings: Sequence[tuple[str, float, float]]) -> tuple[str, ...]:
    """The teams in drawing order: VPs (most first), then IMP difference (most first),
    then the order ``standings`` lists them in (the seeding).

    >>> swiss_ranking([("A", 30, -4), ("B", 32, 1), ("C", 30, 9), ("D", 30, 9)])
    ('B', 'C', 'D', 'A')
    """
    if isinstance(standings, str) or not isinstance(standings, Sequence):
        raise InvalidArgumentError(
            f"Swiss standings are a sequence of (team, VPs, IMP difference), got {standings!r}"
        )
    for line in standings:
        if not (isinstance(line, tuple) and len(line) == 3):
            raise InvalidArgumentError(
                f"a line of Swiss standings is (team, VPs, IMP difference), got {line!r}"
            )
        team, vps, imps = line
        for value, name in ((vps, "VPs"), (imps, "IMP difference")):
            if not is_number(value, int | float) or value != value or abs(value) == float("inf"):
                raise InvalidArgumentError(f"team {team!r}: {name} must be a number, got {value!r}")
    teams = _teams_of([line[0] for line in standings])
    seed = {team: place for place, team in enumerate(teams)}
    ordered = sorted(standings, key=lambda line: (-line[1], -line[2], seed[line[0]]))
    return tuple(line[0] for line in ordered)


def swiss_draw(
    standings: Sequence[tuple[str, float, float]],
    meetings: Collection[tuple[str, str] | frozenset[str]] = (),
    byes: Collection[str] = (),
    *,
    round_number: int,
) -> SwissRound:
    """Draw Swiss round ``round_number`` from ``standings`` (team, VPs so far, IMP
    difference so far; listed in seeding order), the ``meetings`` so far (pairs of
    teams) and the ``byes`` so far (teams). Pure and deterministic: the same values give
    the same draw. The rule is in this module's docstring and docs/movements.md.

    Raises :class:`~bridgescore.MovementError` naming the round when no draw avoids a
    repeat meeting.

    >>> swiss_draw([("1", 0, 0), ("2", 0, 0), ("3", 0, 0), ("4", 0, 0)], round_number=1)
    SwissRound(matches=(('1', '2'), ('3', '4')), bye=None)
    >>> swiss_draw(
    ...     [("1", 15, 12), ("2", 5, -12), ("3", 8, -6), ("4", 12, 6)],
    ...     [("1", "2"), ("3", "4")],
    ...     round_number=2,
    ... )
    SwissRound(matches=(('1', '4'), ('3', '2')), bye=None)
    """
    round_number = whole_number_arg(round_number, "round number", 1)
    teams = swiss_ranking(standings)
    if isinstance(meetings, str) or not isinstance(meetings, Collection):
        raise InvalidArgumentError(f"round {round_number}: meetings so far, got {meetings!r}")
    if isinstance(byes, str) or not isinstance(byes, Collection):
        raise InvalidArgumentError(
            f"round {round_number}: the byes so far are a collection of teams, got {byes!r}"
        )
    played: list[frozenset[str]] = []
    for meeting in meetings:
        if not isinstance(meeting, (tuple, frozenset)) or len(frozenset(meeting)) != 2:
            raise InvalidArgumentError(
                f"round {round_number}: a past meeting is two different teams, got {meeting!r}"
            )
        played.append(frozenset(meeting))
    played.extend(frozenset((team,)) for team in byes)
    try:
        return swiss_pairings(teams, played)
    except MovementError as error:
        raise MovementError(f"cannot draw Swiss round {round_number}: {error}") from None


def swiss_seeding(teams: Sequence[str], seed: int | None = None) -> tuple[str, ...]:
    """The seeding order for round 1: ``teams`` as given, or shuffled by ``seed`` (the
    same seed, the same order, on every machine: :class:`random.Random` is specified).

    >>> swiss_seeding(["1", "2", "3"])
    ('1', '2', '3')
    >>> swiss_seeding(["1", "2", "3", "4"], seed=7) == swiss_seeding(["1", "2", "3", "4"], seed=7)
    True
    """
    order = list(_teams_of(teams))
    if seed is not None:
        random.Random(whole_number_arg(seed, "seed")).shuffle(order)
    return tuple(order)


def bye_score(
    rule: Literal["fixed", "average"] = "fixed",
    *,
    victory_points: float = BYE_VICTORY_POINTS,
    matches: Sequence[float] = (),
) -> float:
    """The VPs a bye scores: ``"fixed"`` (default) gives ``victory_points`` (12 on the
    20-point scale); ``"average"`` gives the team's average over the ``matches`` it
    played (VPs per match, rounded to 0.01), 10 (a drawn match) before it has played.

    >>> bye_score()
    12.0
    >>> bye_score("average", matches=[15, 8.5, 11])
    11.5
    """
    if rule == "fixed":
        if not is_number(victory_points, int | float) or not 0 <= victory_points <= 20:
            raise InvalidArgumentError(
                f"a bye's VPs are a number from 0 to 20, got {victory_points!r}"
            )
        return float(victory_points)
    if rule == "average":
        for vps in matches:
            if not is_number(vps, int | float) or not 0 <= vps <= 20:
                raise InvalidArgumentError(f"a match's VPs are a number from 0 to 20, got {vps!r}")
        return round(fmean(matches), 2) if matches else 10.0
    raise InvalidArgumentError(f"bye rule {rule!r}: expected 'fixed' or 'average'")


def swiss_pairs_round_movement(
    pairings: SwissRound, *, round_number: int = 1, boards_per_round: int
) -> Movement:
    """The movement of one Swiss pairs round: match ``m`` at table ``m``, its
    higher-ranked pair NS, every table on the round's boards ``(round_number - 1) * B + 1``
    to ``round_number * B`` (dealt in one copy a table, so that each board's datum is
    the whole field's); the bye, if any, sits out. Earlier rounds are empty.

    >>> movement = swiss_pairs_round_movement(
    ...     SwissRound((("1", "3"), ("4", "2")), "5"), round_number=2, boards_per_round=3
    ... )
    >>> [(row.table, row.ns, row.ew, row.boards) for row in movement.rows], movement.sitouts
    ([(1, '1', '3', (4, 5, 6)), (2, '4', '2', (4, 5, 6))], (Sitout(round=2, pair='5'),))
    """
    if not isinstance(pairings, SwissRound):
        raise InvalidArgumentError(
            f"swiss_pairs_round_movement needs a SwissRound, got {pairings!r}"
        )
    round_number = whole_number_arg(round_number, "round number", 1)
    boards_per_round = whole_number_arg(boards_per_round, "boards per round", 1)
    if not pairings.matches:
        raise InvalidArgumentError("a Swiss round with no match has no movement")
    first = (round_number - 1) * boards_per_round + 1
    boards = tuple(range(first, first + boards_per_round))
    return Movement(
        kind="swiss-pairs",
        tables=len(pairings.matches),
        rounds=round_number,
        boards_per_round=boards_per_round,
        rows=tuple(
            Row(round_number, table, home, away, boards)
            for table, (home, away) in enumerate(pairings.matches, start=1)
        ),
        sitouts=(Sitout(round_number, pairings.bye),) if pairings.bye is not None else (),
    )
