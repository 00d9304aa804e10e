"""Teams movements (issue 25 §2): round robins of every size, Swiss pairings, a Swiss round.

Swiss pairings are checked against an independent formulation: every way of pairing the
teams is listed by brute force, and the right one is the first in ranking order (the best
team's opponent as high as possible, then the next free team's, ...).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore.errors import InvalidArgumentError, MovementError
from bridgescore.movement.model import Movement, Row, Sitout
from bridgescore.movement.teams import (
    SwissRound,
    round_robin,
    swiss_pairings,
    swiss_round_movement,
)


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


# Swiss -------------------------------------------------------------------------------


def _all_pairings(teams: list[str], met: set[frozenset[str]]) -> list[list[tuple[str, str]]]:
    if not teams:
        return [[]]
    first, rest = teams[0], teams[1:]
    found = []
    for other in rest:
        if frozenset((first, other)) in met:
            continue
        for tail in _all_pairings([t for t in rest if t != other], met):
            found.append([(first, other), *tail])
    return found


def _expected(ranking: list[str], met: set[frozenset[str]], byes: set[str]) -> SwissRound | None:
    """The pairing by brute force: each team's opponents' ranks, best team first, as low as
    can be; the bye on the lowest-ranked team without one that leaves the rest pairable."""
    place = {team: index for index, team in enumerate(ranking)}
    if len(ranking) % 2 == 0:
        candidates: list[str | None] = [None]
    else:
        without = [t for t in reversed(ranking) if t not in byes]
        candidates = list(without or reversed(ranking))
    for bye in candidates:
        playing = [t for t in ranking if t != bye]
        options = _all_pairings(playing, met)
        if options:
            best = min(options, key=lambda p: [place[b] for _, b in p])
            return SwissRound(tuple(best), bye)
    return None


@st.composite
def _histories(draw: st.DrawFn) -> tuple[list[str], set[frozenset[str]], set[str]]:
    count = draw(st.integers(2, 11))
    ranking = draw(st.permutations([str(n) for n in range(1, count + 1)]))
    twos = [frozenset(two) for two in combinations(ranking, 2)]
    met = set(draw(st.lists(st.sampled_from(twos), max_size=len(twos)))) if twos else set()
    byes = set(draw(st.lists(st.sampled_from(ranking), max_size=count)))
    return list(ranking), met, byes


@settings(max_examples=300, deadline=None)
@given(_histories())
def test_swiss_pairs_top_down_never_repeats_and_backtracks(
    history: tuple[list[str], set[frozenset[str]], set[str]],
) -> None:
    ranking, met, byes = history
    played = met | {frozenset((team,)) for team in byes}
    expected = _expected(ranking, met, byes)
    if expected is None:
        with pytest.raises(MovementError, match="avoids a repeat meeting"):
            swiss_pairings(ranking, played)
        return
    result = swiss_pairings(ranking, played)
    assert result == expected
    teams = [t for match in result.matches for t in match] + [result.bye] * (result.bye is not None)
    assert sorted(teams) == sorted(ranking)  # type: ignore[type-var]
    assert not any(frozenset(match) in met for match in result.matches)


def test_swiss_backtracks_when_greedy_fails() -> None:
    # 1 would take 2, leaving 3 and 4, who have met: so 1 plays 3 and 2 plays 4.
    result = swiss_pairings(["1", "2", "3", "4"], [frozenset({"3", "4"})])
    assert result == SwissRound((("1", "3"), ("2", "4")), None)


def test_swiss_bye_goes_to_the_lowest_ranked_team_without_one() -> None:
    ranking = ["5", "4", "3", "2", "1"]
    assert swiss_pairings(ranking, []).bye == "1"
    assert swiss_pairings(ranking, [frozenset({"1"})]).bye == "2"
    assert swiss_pairings(ranking, [frozenset({"1"}), frozenset({"2"})]).bye == "3"


def test_swiss_with_no_pairing_left_is_refused() -> None:
    everyone = [frozenset(two) for two in combinations("1234", 2)]
    with pytest.raises(MovementError, match="no Swiss pairing of teams 1, 2, 3, 4"):
        swiss_pairings(["1", "2", "3", "4"], everyone)


@pytest.mark.parametrize(
    ("ranking", "played", "words"),
    [
        ("1234", [], "a sequence of team labels"),
        (["1", "2", "1"], [], "team '1' is ranked twice"),
        (["1"], [], "at least two teams"),
        (["1", 2], [], "team labels, got 2"),
        (["1", "2"], [frozenset({"1", "9"})], "names team '9', which is not in the ranking"),
        (["1", "2"], [{"1", "2"}], "a frozenset of two teams"),
        (["1", "2", "3"], [frozenset({"1", "2", "3"})], "a frozenset of two teams"),
    ],
)
def test_swiss_bad_arguments(ranking: object, played: object, words: str) -> None:
    with pytest.raises(InvalidArgumentError, match=words):
        swiss_pairings(ranking, played)  # type: ignore[arg-type]


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
