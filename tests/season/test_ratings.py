"""The grades: the update worked by hand on two events, and simulated seasons."""

from __future__ import annotations

from pathlib import Path

import pytest

from bridgescore.season.ratings import (
    DECAY,
    PRIOR_BOARDS,
    expected_percent,
    grades_table,
    pair_grade,
    season_grades,
)
from bridgescore.season.register import ClubFile
from bridgescore.season.roster import read_roster
from bridgescore.season.simulate import simulated_season
from bridgescore.season.summary import PairPlace, read_event_summary
from season_events import NAMES_A, NAMES_B, PERCENT, REGISTER_CSV, make_event

# Event A's and B's pairs, as the names files seat them.
PAIRS_A = {
    "1N": ("1010", "1011"),
    "2N": ("1020", "1021"),
    "3N": ("1030", "1031"),
    "1E": ("1040", "1041"),
    "2E": ("1050", ""),
}
PAIRS_B = {
    "1N": ("1010", "1020"),
    "2N": ("1011", "1030"),
    "3N": ("1021", "1040"),
    "1E": ("1031", "1041"),
    "2E": ("1050", "1051"),
}


def test_a_pairs_grade_and_its_expected_percentage() -> None:
    assert pair_grade([56.0, 52.0]) == 58.0
    # 50 + 58 - mean(50, 46) = 60
    assert expected_percent(58.0, [50.0, 46.0]) == 60.0
    assert expected_percent(58.0, []) == 50.0


def _season(tmp_path: Path) -> list[tuple[PairPlace, ...]]:
    players, _ = read_roster(REGISTER_CSV.splitlines(), "players.csv")
    a = make_event(tmp_path / "a.db", NAMES_A, name="A", date="2026-01-05")
    b = make_event(tmp_path / "b.db", NAMES_B, name="B", date="2026-01-12")
    with ClubFile(tmp_path / "club.db", name="x") as club:
        club.update_players(players)
        for event in (a, b):
            club.add_event(read_event_summary(event), str(event))
        return [session.pairs for session in club.sessions()]


def test_two_events_worked_by_hand(tmp_path: Path) -> None:
    grades = season_grades(_season(tmp_path))
    weight_after_a = DECAY**2 * PRIOR_BOARDS + 2  # every pair played 2 boards
    # Event A: everyone at 50, so every pair is expected to score 50.
    after_a = {}
    for pair, players in PAIRS_A.items():
        for number in players:
            if number:
                after_a[number] = 50 + 2 / weight_after_a * (PERCENT[pair] - 50)
    # Event B: each pair's grade is 50 plus its players' distances from 50 (1051 is
    # new: 50); its field is the other pairs of its direction (3E: nobody named, 50).
    pair_b = {p: 50 + sum(after_a.get(n, 50) - 50 for n in who) for p, who in PAIRS_B.items()}
    pair_b["3E"] = 50.0
    expected = {}
    for pair in pair_b:
        others = [pair_b[o] for o in pair_b if o != pair and o[-1] == pair[-1]]
        expected[pair] = 50 + pair_b[pair] - sum(others) / len(others)
    final = {}
    for pair, players in PAIRS_B.items():
        for number in players:
            before, weight = after_a.get(number, 50.0), PRIOR_BOARDS
            if number in after_a:
                weight = weight_after_a
            weight = DECAY**2 * weight + 2
            final[number] = before + 2 / weight * (PERCENT[pair] - expected[pair])
    assert {n: g.grade for n, g in grades.items()} == pytest.approx(final, abs=1e-9)
    assert grades["1050"].sessions == 2 and grades["1050"].boards == 4
    assert grades["1051"].sessions == 1
    assert next(g.number for g in grades_table(grades)) == max(final, key=final.__getitem__)


def test_the_pairs_order_changes_nothing(tmp_path: Path) -> None:
    season = _season(tmp_path)
    backwards = [tuple(reversed(pairs)) for pairs in season]
    assert {n: g.grade for n, g in season_grades(season).items()} == pytest.approx(
        {n: g.grade for n, g in season_grades(backwards).items()}, abs=1e-12
    )


def _ranks(values: list[float]) -> list[int]:
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0] * len(values)
    for rank, index in enumerate(order):
        ranks[index] = rank
    return ranks


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rank correlation of two lists without ties: 1 - 6 sum d^2 / n(n^2 - 1)."""
    n = len(a)
    d2 = sum((x - y) ** 2 for x, y in zip(_ranks(a), _ranks(b), strict=True))
    return 1 - 6 * d2 / (n * (n * n - 1))


def test_spearman_of_known_orders() -> None:
    assert spearman([1.0, 2.0, 3.0], [10.0, 20.0, 30.0]) == 1.0
    assert spearman([1.0, 2.0, 3.0], [3.0, 2.0, 1.0]) == -1.0


def _correlation(players: int, sessions: int, seed: int) -> float:
    season = simulated_season(players=players, sessions=sessions, seed=seed)
    pairs = season.graded_events()
    grades = season_grades(pairs)
    numbers = sorted(season.strengths)
    return spearman([season.strengths[n] for n in numbers], [grades[n].grade for n in numbers])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_grades_find_the_strengths_of_a_small_simulated_season(seed: int) -> None:
    # 24 players, 20 sessions of 18 boards: a smaller club, a shorter season.
    assert _correlation(24, 20, seed) >= 0.8


def test_grades_find_the_strengths_of_a_full_simulated_season() -> None:
    assert _correlation(40, 30, 0) >= 0.9


class _Pair:
    """A pair's line as the grades read it, written out for docs/season.md's example."""

    def __init__(self, percent: float, *numbers: str) -> None:
        self.field, self.percent, self.boards, self.numbers = "NS", percent, 24, numbers


def test_the_worked_example_of_docs_season_md() -> None:
    first = [
        _Pair(62, "ann", "bob"),
        _Pair(50, "c1", "c2"),
        _Pair(45, "d1", "d2"),
        _Pair(43, "e1", "e2"),
    ]
    second = [
        _Pair(55, "ann", "cy"),
        _Pair(50, "bob", "c1"),
        _Pair(50, "c2", "d1"),
        _Pair(45, "e1", "d2"),
    ]
    after_one = season_grades([first])
    assert [after_one[n].shown for n in ("ann", "c1", "d1", "e1")] == [56.14, 50.0, 47.44, 46.42]
    after_two = season_grades([first, second])
    assert (after_two["ann"].shown, after_two["cy"].shown) == (55.45, 48.98)
