"""The Swiss teams draw (issue 38 §4): hand-worked events, brute force, whole events, scale.

The draws expected are worked by hand in the comments from the rule (docs/movements.md,
"Swiss teams"), or found by brute force: every way of pairing the teams is listed and
the right one is the first in ranking order (the best team's opponent as high as
possible, then the next free team's, ...), which is what backtracking from the bottom
gives.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore.errors import InvalidArgumentError, MovementError
from bridgescore.movement.matching import first_perfect_matching
from bridgescore.movement.swiss import (
    BYE_VICTORY_POINTS,
    SwissRound,
    bye_score,
    swiss_draw,
    swiss_pairings,
    swiss_ranking,
    swiss_seeding,
)

Standings = list[tuple[str, float, float]]


def _standings(seeding: Sequence[str], *rounds: dict[str, tuple[float, float]]) -> Standings:
    """Totals of each team's (VPs, IMPs) over the rounds, listed in seeding order."""
    return [
        (team, sum(r[team][0] for r in rounds), sum(r[team][1] for r in rounds)) for team in seeding
    ]


# An 8-team event over 4 rounds, by hand ----------------------------------------------

EIGHT = [str(n) for n in range(1, 9)]
# Round results: team -> (VPs, IMPs), the two teams of a match sharing 20 VPs.
EIGHT_R1 = {
    "1": (15, 12), "2": (5, -12), "3": (12, 2), "4": (8, -2),
    "5": (18, 20), "6": (2, -20), "7": (10, 0), "8": (10, 0),
}  # fmt: skip
EIGHT_R2 = {
    "5": (11, 3), "1": (9, -3), "3": (14, 10), "7": (6, -10),
    "8": (12, 5), "4": (8, -5), "2": (10, 0), "6": (10, 0),
}  # fmt: skip
EIGHT_R3 = {
    "5": (12, 4), "3": (8, -4), "1": (20, 30), "8": (0, -30),
    "4": (18, 15), "2": (2, -15), "7": (4, -9), "6": (16, 9),
}  # fmt: skip


def test_eight_teams_over_four_rounds() -> None:
    met: list[tuple[str, str]] = []

    # Round 1: all level, so seeding order: 1 v 2, 3 v 4, ...
    round_1 = swiss_draw(_standings(EIGHT), met, round_number=1)
    assert round_1 == SwissRound((("1", "2"), ("3", "4"), ("5", "6"), ("7", "8")))
    met += round_1.matches

    # After round 1: 5 (18), 1 (15), 3 (12), 7 and 8 (10, both 0 IMPs: seeding puts 7
    # first), 4 (8), 2 (5), 6 (2). Top-down, none of them has met its opponent.
    round_2 = swiss_draw(_standings(EIGHT, EIGHT_R1), met, round_number=2)
    assert round_2 == SwissRound((("5", "1"), ("3", "7"), ("8", "4"), ("2", "6")))
    met += round_2.matches

    # After round 2: 5 (29), 3 (26), 1 (24), 8 (22), 4 and 7 (16; IMPs -7 against -10:
    # 4 first), 2 (15), 6 (12). Plain top-down: 5-3, 1-8, 4-7, 2-6, but 2 and 6 met in
    # round 2. Backtracking from the bottom: 4 takes its next opponent, 2, leaving 7-6;
    # the top two matches stay.
    round_3 = swiss_draw(_standings(EIGHT, EIGHT_R1, EIGHT_R2), met, round_number=3)
    assert round_3.matches[:2] == (("5", "3"), ("1", "8"))
    assert round_3 == SwissRound((("5", "3"), ("1", "8"), ("4", "2"), ("7", "6")))
    met += round_3.matches

    # After round 3: 1 (44), 5 (41), 3 and 4 (34, +8 IMPs each: seeding puts 3 first),
    # 6 (28), 8 (22), 7 (20), 2 (17). 1 has met 2, 5, 8: it takes 3. 5 has met 6, 1, 3:
    # it takes 4. 6 has met 5, 2, 7: it takes 8. 7 and 2 have not met.
    standings = _standings(EIGHT, EIGHT_R1, EIGHT_R2, EIGHT_R3)
    assert standings[2] == ("3", 34, 8) and standings[3] == ("4", 34, 8)
    round_4 = swiss_draw(standings, met, round_number=4)
    assert round_4 == SwissRound((("1", "3"), ("5", "4"), ("6", "8"), ("7", "2")))


def test_the_tie_breaks_decide_the_draw() -> None:
    # Round 3 above with 4 and 7 the other way round on IMPs: 7 ranks above 4, plain
    # top-down is 5-3, 1-8, 7-4, 2-6 (met), so 7 takes 2 and 4 plays 6.
    standings = _standings(EIGHT, EIGHT_R1, EIGHT_R2)
    swapped = [(t, v, -20 if t == "4" else i) for t, v, i in standings]
    met = [("1", "2"), ("3", "4"), ("5", "6"), ("7", "8"), ("5", "1"), ("3", "7")]
    met += [("8", "4"), ("2", "6")]
    drawn = swiss_draw(swapped, met, round_number=3)
    assert drawn == SwissRound((("5", "3"), ("1", "8"), ("7", "2"), ("4", "6")))
    # Round 4 above with 4 seeded above 3 (equal VPs and IMPs): 1 takes 4, 5 takes 8
    # (3 and 6 met), 3 takes 6, 7 plays 2.
    standings = _standings(EIGHT, EIGHT_R1, EIGHT_R2, EIGHT_R3)
    reseeded = [standings[i] for i in (0, 1, 3, 2, 4, 5, 6, 7)]
    met += [("5", "3"), ("1", "8"), ("4", "2"), ("7", "6")]
    drawn = swiss_draw(reseeded, met, round_number=4)
    assert drawn == SwissRound((("1", "4"), ("5", "8"), ("3", "6"), ("7", "2")))


def test_the_ranking_is_vps_then_imps_then_seeding() -> None:
    standings = [("A", 30, -4), ("B", 32.5, -40), ("C", 30, 9), ("D", 30, 9), ("E", 30.0, -4)]
    assert swiss_ranking(standings) == ("B", "C", "D", "A", "E")


# Seven teams: the bye ----------------------------------------------------------------

SEVEN = [str(n) for n in range(1, 8)]
BYE = (BYE_VICTORY_POINTS, 0)
SEVEN_R1 = {
    "1": (15, 12), "2": (5, -12), "3": (12, 6), "4": (8, -6),
    "5": (18, 20), "6": (2, -20), "7": BYE,
}  # fmt: skip
SEVEN_R2 = {
    "5": (10, 0), "1": (10, 0), "3": (15, 15), "7": (5, -15),
    "4": (11, 3), "2": (9, -3), "6": BYE,
}  # fmt: skip
SEVEN_R3 = {
    "5": (14, 8), "3": (6, -8), "1": (9, -2), "4": (11, 2),
    "7": (13, 6), "6": (7, -6), "2": BYE,
}  # fmt: skip


def test_seven_teams_the_bye_goes_to_the_lowest_team_without_one() -> None:
    met: list[tuple[str, str]] = []
    byes: list[str] = []
    rounds = [SEVEN_R1, SEVEN_R2, SEVEN_R3]
    expected = [
        # Round 1: seeding order, the bye to the last seed.
        SwissRound((("1", "2"), ("3", "4"), ("5", "6")), "7"),
        # 5 (18), 1 (15), 3 and 7 (12; IMPs +6 against 0), 4 (8), 2 (5), 6 (2): the bye
        # to 6, the lowest; 7 has had one.
        SwissRound((("5", "1"), ("3", "7"), ("4", "2")), "6"),
        # 5 (28), 3 (27), 1 (25), 4 (19), 7 (17), 2 and 6 (14; IMPs -15 against -20):
        # 6 is lowest but has had a bye, so 2 has it. 5 has met 6 and 1: it takes 3.
        SwissRound((("5", "3"), ("1", "4"), ("7", "6")), "2"),
        # 5 (42), 1 (34), 3 (33), 4 and 7 (30; +5 against -9), 2 (26), 6 (21): 6, 2 and
        # 7 have had byes, so 4. 5 has met 6, 1, 3: it takes 7; 1 takes 3; 2 plays 6.
        SwissRound((("5", "7"), ("1", "3"), ("2", "6")), "4"),
    ]
    for number, want in enumerate(expected, start=1):
        drawn = swiss_draw(_standings(SEVEN, *rounds[: number - 1]), met, byes, round_number=number)
        assert drawn == want, f"round {number}"
        met += drawn.matches
        byes.append(str(drawn.bye))
    assert byes == ["7", "6", "2", "4"]


def test_the_bye_score() -> None:
    assert BYE_VICTORY_POINTS == 12.0
    assert bye_score() == 12.0
    assert bye_score("fixed", victory_points=10) == 10.0
    # (15 + 8.5 + 11) / 3 = 11.5; (14 + 13) / 2 = 13.5; no match yet: a draw.
    assert bye_score("average", matches=[15, 8.5, 11]) == 11.5
    assert bye_score("average", matches=[14, 13]) == 13.5
    assert bye_score("average") == 10.0
    with pytest.raises(InvalidArgumentError, match="from 0 to 20, got 21"):
        bye_score(victory_points=21)
    with pytest.raises(InvalidArgumentError, match="from 0 to 20, got -1"):
        bye_score("average", matches=[10, -1])
    with pytest.raises(InvalidArgumentError, match="bye rule 'half': expected 'fixed' or"):
        bye_score("half")  # type: ignore[arg-type]


def test_round_one_by_seeding_or_by_a_seed() -> None:
    teams = ["1", "2", "3", "4", "5", "6"]
    assert swiss_seeding(teams) == ("1", "2", "3", "4", "5", "6")
    shuffled = swiss_seeding(teams, seed=38)
    assert sorted(shuffled) == teams and shuffled == swiss_seeding(teams, seed=38)
    # Different seeds give different orders (one of these three differs at least).
    assert len({swiss_seeding(teams, seed=s) for s in (1, 2, 3)}) > 1
    level = [(team, 0, 0) for team in shuffled]
    drawn = swiss_draw(level, round_number=1)
    assert drawn.matches == (shuffled[0:2], shuffled[2:4], shuffled[4:6])


# The impossible draw -----------------------------------------------------------------


def test_no_draw_without_a_repeat_is_refused_naming_the_round() -> None:
    everyone = list(combinations("1234", 2))
    level = [(team, 20, 0) for team in "1234"]
    with pytest.raises(
        MovementError, match="cannot draw Swiss round 4: no Swiss pairing of teams 1, 2, 3, 4"
    ):
        swiss_draw(level, everyone, round_number=4)
    # Three teams after three rounds: each has met both others and had a bye.
    with pytest.raises(MovementError, match="cannot draw Swiss round 4"):
        swiss_draw(
            [("A", 9, 0), ("B", 9, 0), ("C", 9, 0)],
            [("A", "B"), ("A", "C"), ("B", "C")],
            ["A", "B", "C"],
            round_number=4,
        )
    # Six teams where 1 has met all five others: round 6 is impossible although most
    # pairs have never met.
    with pytest.raises(MovementError, match="cannot draw Swiss round 6"):
        swiss_draw(
            [(str(n), 0, 0) for n in range(1, 7)],
            [("1", str(n)) for n in range(2, 7)],
            round_number=6,
        )


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: swiss_draw("AB", round_number=1), "sequence of \\(team, VPs, IMP difference\\)"),
        (lambda: swiss_draw([("A", 1)], round_number=1), "is \\(team, VPs, IMP difference\\)"),
        (lambda: swiss_draw([("A", 1, 0), ("A", 2, 0)], round_number=1), "ranked twice"),
        (lambda: swiss_draw([("A", 1, 0)], round_number=1), "at least two teams"),
        (lambda: swiss_draw([("A", "9", 0), ("B", 1, 0)], round_number=1), "VPs must be a number"),
        (
            lambda: swiss_draw([("A", 1, float("nan")), ("B", 1, 0)], round_number=1),
            "team 'A': IMP difference must be a number, got nan",
        ),
        (lambda: swiss_draw([("A", 1, 0), ("B", 1, 0)], round_number=0), "round number"),
        (
            lambda: swiss_draw([("A", 1, 0), ("B", 1, 0)], [("A", "C")], round_number=2),
            "names team 'C', which is not in the ranking",
        ),
        (
            lambda: swiss_draw([("A", 1, 0), ("B", 1, 0)], [("A",)], round_number=2),
            "round 2: a past meeting is two different teams",
        ),
        (
            lambda: swiss_draw([("A", 1, 0), ("B", 1, 0)], [("A", "A")], round_number=2),
            "round 2: a past meeting is two different teams, got \\('A', 'A'\\)",
        ),
        (
            lambda: swiss_draw([("A", 1, 0), ("B", 1, 0)], [], "A", round_number=2),
            "round 2: the byes so far are a collection of teams",
        ),
        (lambda: swiss_seeding(["A", "B"], seed=1.5), "seed must be a whole number"),
    ],
)
def test_bad_arguments(call: object, words: str) -> None:
    with pytest.raises(InvalidArgumentError, match=words):
        call()  # type: ignore[operator]


# Brute force -------------------------------------------------------------------------


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
def test_swiss_pairings_agree_with_brute_force(
    history: tuple[list[str], set[frozenset[str]], set[str]],
) -> None:
    ranking, met, byes = history
    played = met | {frozenset((team,)) for team in byes}
    expected = _expected(ranking, met, byes)
    if expected is None:
        with pytest.raises(MovementError, match="avoids a repeat meeting"):
            swiss_pairings(ranking, played)
        return
    assert swiss_pairings(ranking, played) == expected


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_whole_events_keep_the_rules(data: st.DataObject) -> None:
    count = data.draw(st.integers(2, 10), label="teams")
    teams = [f"T{n}" for n in range(1, count + 1)]
    rounds = data.draw(st.integers(1, count + 1), label="rounds")
    totals = {team: [0.0, 0.0] for team in teams}
    met: Counter[frozenset[str]] = Counter()
    byes: Counter[str] = Counter()
    for number in range(1, rounds + 1):
        standings = [(t, totals[t][0], totals[t][1]) for t in teams]
        # The ranking, formulated here: VPs, then IMPs, then seeding.
        ranking = sorted(teams, key=lambda t: (-totals[t][0], -totals[t][1], teams.index(t)))
        expected = _expected(ranking, set(met), set(byes))
        if expected is None:
            with pytest.raises(MovementError, match=f"cannot draw Swiss round {number}:"):
                swiss_draw(standings, list(met), list(byes), round_number=number)
            return
        drawn = swiss_draw(standings, list(met), list(byes), round_number=number)
        assert drawn == expected
        # Every team once; no repeat; one bye exactly when the count is odd.
        seated = [t for match in drawn.matches for t in match]
        assert sorted(seated + ([drawn.bye] if drawn.bye else [])) == sorted(teams)
        assert (drawn.bye is not None) == (count % 2 == 1)
        assert not any(met[frozenset(match)] for match in drawn.matches)
        if drawn.bye is not None:
            # A second bye only once every team has had one.
            assert byes[drawn.bye] == 0 or all(byes[t] > 0 for t in teams)
            byes[drawn.bye] += 1
            totals[drawn.bye][0] += bye_score()
        for home, away in drawn.matches:
            met[frozenset((home, away))] += 1
            vps = data.draw(st.integers(0, 20), label="VPs")
            imps = data.draw(st.integers(-60, 60), label="IMPs")
            totals[home][0] += vps
            totals[away][0] += 20 - vps
            totals[home][1] += imps
            totals[away][1] -= imps


# Scale -------------------------------------------------------------------------------


def _bound(teams: int) -> int:
    """Augmenting-path searches a draw may take: one per team to find any pairing, then
    one per (team, opponent) tried, each pair tried at most once; the bye multiplies
    that by the teams tried for it. Backtracking by enumeration has no such bound."""
    return teams + teams * (teams - 1) // 2


def test_sixty_teams_over_ten_rounds_take_bounded_work() -> None:
    teams = [f"T{n}" for n in range(1, 61)]
    totals = {team: [0.0, 0.0] for team in teams}
    met: set[frozenset[str]] = set()
    for number in range(1, 11):
        standings = [(t, totals[t][0], totals[t][1]) for t in teams]
        ranking = swiss_ranking(standings)
        drawn = swiss_draw(standings, [tuple(m) for m in met], round_number=number)

        def may_meet(a: int, b: int, ranking: tuple[str, ...] = ranking) -> bool:
            return frozenset((ranking[a], ranking[b])) not in met

        pairs, searches = first_perfect_matching(60, may_meet)
        assert searches <= _bound(60)
        assert pairs is not None
        assert drawn.matches == tuple((ranking[a], ranking[b]) for a, b in pairs)
        assert len(drawn.matches) == 30 and not any(frozenset(m) in met for m in drawn.matches)
        for index, (home, away) in enumerate(drawn.matches):
            # A made-up but fixed result: the home team wins by more the higher the match.
            margin = (index * 7 + number * 3) % 21
            totals[home][0] += margin
            totals[away][0] += 20 - margin
            totals[home][1] += margin - 10
            totals[away][1] -= margin - 10
            met.add(frozenset((home, away)))
    assert len(met) == 300


def test_an_impossible_sixty_team_draw_is_found_quickly() -> None:
    # Two groups of 31 and 29 teams, every team having met every team of the other
    # group: each group is odd, so someone is always left over. Backtracking by
    # enumeration would try the 30!-odd pairings of the first group; the search needs at
    # most one pass over the teams.
    first, second = range(31), range(31, 60)
    pairs, searches = first_perfect_matching(60, lambda a, b: (a < 31) == (b < 31))
    assert pairs is None and searches <= 60
    teams = [f"T{n}" for n in range(60)]
    met = [(teams[a], teams[b]) for a in first for b in second]
    with pytest.raises(MovementError, match="cannot draw Swiss round 30"):
        swiss_draw([(t, 0, 0) for t in teams], met, round_number=30)


def test_the_bottom_team_that_can_only_meet_the_top_one() -> None:
    # 60 teams; the last has met everyone but the first: top-down would pair 1-2, 3-4,
    # ... and fail at the bottom, so the first team must take the last, and the rest
    # follow top-down: 2-3, 4-5, ..., 58-59.
    teams = [str(n) for n in range(1, 61)]
    met = [(t, "60") for t in teams[1:59]]
    drawn = swiss_draw([(t, 0, 0) for t in teams], met, round_number=2)
    want = (("1", "60"), *((teams[i], teams[i + 1]) for i in range(1, 59, 2)))
    assert drawn == SwissRound(want)
    _, searches = first_perfect_matching(60, lambda a, b: 59 not in (a, b) or 0 in (a, b))
    assert searches <= _bound(60)
