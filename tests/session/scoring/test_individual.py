"""An individual ranked player by player (issue 47 §5): every figure worked here from the
results by the Laws' matchpointing (Law 78A: 2 for each NS score beaten, 1 for each tie),
never read back from the scorer."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest

from bridgescore.errors import RecordError
from bridgescore.movement.individual import individual
from bridgescore.movement.model import Movement
from bridgescore.session.live.creation import create_event
from bridgescore.session.scoring.event import Event, TableResult
from bridgescore.session.scoring.individual import individual_standings
from bridgescore.session.scoring.scorer import score_event
from bridgescore.session.store.events import EventStore, Origin
from bridgescore.session.workflow import score_stored_event

# 1NT by South with k overtricks scores 90 + 30k at any vulnerability (a partscore).
OVERTRICKS = {0: "=", 1: "+1", 2: "+2"}


def overtricks(round_number: int, table: int) -> int:
    """The result at a table in a round: a pattern that gives ties and differences."""
    return (round_number * table + table) % 3


def results_of(movement: Movement) -> list[TableResult]:
    return [
        TableResult.played(
            board, row.ns, row.ew, "1NTS" + OVERTRICKS[overtricks(row.round, row.table)]
        )
        for row in movement.rows
        for board in row.boards
    ]


def by_hand(movement: Movement) -> dict[str, tuple[float, int, float]]:
    """Each player's (matchpoints, boards, percentage to 0.01, halves up)."""
    scores: dict[int, list[tuple[int, str, str]]] = defaultdict(list)
    for row in movement.rows:
        for board in row.boards:
            scores[board].append((90 + 30 * overtricks(row.round, row.table), row.ns, row.ew))
    earned: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # MP, boards, tops
    for lines in scores.values():
        top = 2 * (len(lines) - 1)
        for score, ns, ew in lines:
            others = [other for other, _, _ in lines]
            others.remove(score)
            ns_points = 2 * sum(o < score for o in others) + sum(o == score for o in others)
            for pair, points in ((ns, ns_points), (ew, top - ns_points)):
                for player in pair.split("-"):
                    earned[player][0] += points
                    earned[player][1] += 1
                    earned[player][2] += top
    shown: dict[str, tuple[float, int, float]] = {}
    for player, (points, boards, tops) in earned.items():
        percent = Fraction(100 * points, tops)
        # To 0.01, halves away from zero (the ranking's rounding).
        hundredths = int(percent * 100 + Fraction(1, 2))
        shown[player] = (float(points), boards, hundredths / 100)
    return shown


@pytest.mark.parametrize("players", [8, 12, 16])
def test_each_player_by_their_sides_matchpoints(players: int) -> None:
    movement = individual(players, boards_per_round=1)
    scored = score_event(Event("Indy", results=tuple(results_of(movement))), "mp")
    standings = individual_standings(scored)
    expected = by_hand(movement)
    assert {s.name: (s.total, s.boards, s.percent) for s in standings} == expected
    assert len(standings) == players
    # Ranked by percentage, best first; equal percentages share a place.
    percents = [s.percent or 0.0 for s in standings]
    assert percents == sorted(percents, reverse=True)
    for standing in standings:
        better = sum(p > (standing.percent or 0.0) for p in percents)
        assert standing.rank.rstrip("=") == str(better + 1)


def test_twelve_players_worked_out() -> None:
    movement = individual(12, boards_per_round=1)
    expected = by_hand(movement)
    # Player 12 stays at table 1 North: overtricks (r + 1) % 3 against table 2's
    # (2r + 2) % 3 and table 3's (3r + 3) % 3 = 0. Round 1: 2 v 1 v 0 -> 4 MP; round 2:
    # 0 v 0 v 0 -> 2; round 3: 1 v 2 v 0 -> 2; and so on, three rounds a cycle of 8 MP
    # (4 + 2 + 2) out of 12: 11 rounds are three cycles and two rounds (4 + 2): 30 of 44.
    assert expected["12"] == (30.0, 11, 68.18)
    scored = score_event(Event("Indy", results=tuple(results_of(movement))), "mp")
    found = {s.name: (s.total, s.boards, s.percent) for s in individual_standings(scored)}
    assert found["12"] == (30.0, 11, 68.18)


def test_a_stored_individual_is_ranked_player_by_player(tmp_path: Path) -> None:
    movement = individual(8, boards_per_round=2)
    path = tmp_path / "indy.db"
    create_event(path, movement, name="Indy")
    with EventStore(path, mode="write") as store:
        store.add_results([(result, Origin()) for result in results_of(movement)])
        scored = score_stored_event(store)
    assert scored.kind == "individual"
    assert {s.name: (s.total, s.boards, s.percent) for s in scored.standings} == by_hand(movement)
    assert all(s.direction == "" for s in scored.standings)


def test_a_pair_that_is_not_two_players_is_refused() -> None:
    scored = score_event(
        Event("Pairs", results=(TableResult.played(1, "1", "2", "1NTS="),
                                TableResult.played(1, "3", "4", "1NTS+1"))),
        "mp",
    )  # fmt: skip
    with pytest.raises(RecordError, match=r"pair '3' is not an individual's partnership"):
        individual_standings(scored)
