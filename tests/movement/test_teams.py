"""Teams movements (issue 25 §2): round robins of every size, a Swiss round as a movement."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from bridgescore.errors import InvalidArgumentError
from bridgescore.movement.model import Movement, Row, Sitout
from bridgescore.movement.teams import SwissRound, round_robin, swiss_round_movement


def _matches(movement: Movement) -> list[tuple[int, Row, Row]]:
    """Rows two by two: tables 1-2, 3-4, ... of each round."""
    found = []
    for round_number in range(1, movement.rounds + 1):
        rows = [row for row in movement.rows if row.round == round_number]
        assert [row.table for row in rows] == list(range(1, len(rows) + 1))
        assert len(rows) % 2 == 0
        found += [(round_number, rows[i], rows[i + 1]) for i in range(0, len(rows), 2)]
    return found


@pytest.mark.parametrize("teams", range(2, 21))
def test_round_robin_every_team_meets_every_other_once(teams: int) -> None:
    movement = round_robin(teams, boards_per_round=7)
    rounds = teams - 1 if teams % 2 == 0 else teams
    assert (movement.kind, movement.rounds, movement.tables) == ("teams", rounds, teams // 2 * 2)
    labels = {str(number) for number in range(1, teams + 1)}
    met: Counter[frozenset[str]] = Counter()
    for round_number, open_room, closed_room in _matches(movement):
        # One match in two rooms: the same two teams, turned round, on the same boards,
        # which are this round's seven.
        assert (closed_room.ns, closed_room.ew) == (open_room.ew, open_room.ns)
        first = (round_number - 1) * 7 + 1
        assert open_room.boards == closed_room.boards == tuple(range(first, first + 7))
        met[frozenset(open_room.pairs)] += 1
    assert set(met) == {frozenset(two) for two in combinations(labels, 2)}
    assert set(met.values()) == {1}
    for round_number in range(1, rounds + 1):
        seated = Counter(p for row in movement.rows if row.round == round_number for p in row.pairs)
        assert set(seated.values()) == {2}  # each team once in each room
        out = {s.pair for s in movement.sitouts if s.round == round_number}
        assert len(out) == teams % 2
        assert set(seated) | out == labels and not set(seated) & out
    # Odd: each team has the bye exactly once.
    byes = Counter(s.pair for s in movement.sitouts)
    assert byes == (Counter(labels) if teams % 2 else Counter())


def test_round_robin_of_four_by_hand() -> None:
    movement = round_robin(4, boards_per_round=8)
    meetings = [
        sorted(sorted(open_room.pairs) for r, open_room, _ in _matches(movement) if r == n)
        for n in (1, 2, 3)
    ]
    assert meetings == [
        [["1", "4"], ["2", "3"]],
        [["1", "3"], ["2", "4"]],
        [["1", "2"], ["3", "4"]],
    ]
    assert movement.boards == tuple(range(1, 25))


@pytest.mark.parametrize("teams", range(2, 21))
def test_each_team_sits_ns_in_the_open_room_in_half_its_matches(teams: int) -> None:
    movement = round_robin(teams, boards_per_round=2)
    open_ns = Counter(open_room.ns for _, open_room, _ in _matches(movement))
    matches = teams - 1  # each team meets every other once
    for team in range(1, teams + 1):
        assert open_ns[str(team)] in (matches // 2, (matches + 1) // 2)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: round_robin(1, boards_per_round=2), "teams must be a whole number from 2"),
        (lambda: round_robin(41, boards_per_round=2), "from 2 to 40, got 41"),
        (lambda: round_robin(4, boards_per_round=0), "boards per round"),
        (lambda: round_robin(True, boards_per_round=2), "got True"),
    ],
)
def test_round_robin_bad_arguments(call: object, words: str) -> None:
    with pytest.raises(InvalidArgumentError, match=words):
        call()  # type: ignore[operator]


# A Swiss round as a movement (the draw is tested in tests/movement/test_swiss.py) ---------


def test_a_swiss_round_as_a_movement() -> None:
    movement = swiss_round_movement(
        SwissRound((("3", "1"), ("2", "5")), "4"), round_number=3, boards_per_round=6
    )
    boards = tuple(range(13, 19))
    assert (movement.kind, movement.rounds, movement.tables) == ("teams", 3, 4)
    assert movement.rows == (
        Row(3, 1, "3", "1", boards),
        Row(3, 2, "1", "3", boards),
        Row(3, 3, "2", "5", boards),
        Row(3, 4, "5", "2", boards),
    )
    assert movement.sitouts == (Sitout(3, "4"),)


def test_a_swiss_round_refuses_a_team_twice() -> None:
    with pytest.raises(InvalidArgumentError, match="team '1' is in two places"):
        SwissRound((("1", "2"), ("1", "3")))
    with pytest.raises(InvalidArgumentError, match="team '2' is in two places"):
        SwissRound((("1", "2"),), "2")
    with pytest.raises(InvalidArgumentError, match="needs a SwissRound"):
        swiss_round_movement((("1", "2"),), boards_per_round=2)  # type: ignore[arg-type]
