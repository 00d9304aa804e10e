"""The ladder: the mean of each player's best sessions, worked by hand."""

from __future__ import annotations

import pytest

from bridgescore.errors import InvalidArgumentError
from bridgescore.season.ladder import season_ladder


def test_the_best_sessions_count_and_the_rest_are_listed_apart() -> None:
    played = {
        "1": [50.0, 62.5, 41.25, 58.0],  # best 3: 62.5, 58, 50 -> 170.5 / 3 = 56.8333
        "2": [70.0, 43.5, 57.0],  # 70 + 57 + 43.5 = 170.5 / 3: level with "1"
        "3": [66.67, 66.66, 40.0],  # 173.33 / 3 = 57.776666...
        "4": [80.0, 75.0],  # two sessions: apart, mean 77.5
    }
    ladder = season_ladder(played, best=3)
    assert ladder.least == 3
    assert [(r.rank, r.number, r.score, r.sessions) for r in ladder.ranked] == [
        ("1", "3", 57.78, 3),
        ("2=", "1", 56.83, 4),
        ("2=", "2", 56.83, 3),
    ]
    assert ladder.ranked[1].counted == (62.5, 58.0, 50.0)
    assert [(r.rank, r.number, r.score) for r in ladder.apart] == [("", "4", 77.5)]


def test_halves_round_away_from_zero() -> None:
    # (55.25 + 55.26) / 2 = 55.255: 55.26, where a float would print 55.25.
    assert season_ladder({"1": [55.25, 55.26]}, best=2).ranked[0].score == 55.26


def test_min_below_best_ranks_fewer_sessions() -> None:
    ladder = season_ladder({"1": [60.0], "2": [55.0, 45.0]}, best=2, least=1)
    assert [(r.number, r.score) for r in ladder.ranked] == [("1", 60.0), ("2", 50.0)]


@pytest.mark.parametrize(
    ("best", "least", "message"),
    [
        (0, None, "--best must be a whole number from 1 up, got 0"),
        (2, 3, "--min 3 is more than --best 2"),
    ],
)
def test_impossible_counts_are_refused(best: int, least: int | None, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        season_ladder({}, best=best, least=least)
