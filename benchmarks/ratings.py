"""The grades on simulated seasons: how well they find the players' true strengths.

For each seed, a season of PLAYERS players of known strengths and SESSIONS sessions
(``bridgescore.season.simulate``: partners drawn each session, a Mitchell of one table
per four players, each board's tricks drawn from the strengths at the table) is scored
by the session scorer and graded by ``season_grades``. Printed: Spearman's rank
correlation of the grades with the true strengths, and, as the baseline measured in
the same run, the correlation of each player's plain mean session percentage (which
credits a player with their partners' strength and their fields' weakness). The
issue's figure: at 40 players and 30 sessions the grades' correlation is at least 0.9.

    .venv/bin/python benchmarks/ratings.py [--players 40] [--sessions 30] [--seeds 10]
"""

from __future__ import annotations

import argparse
import platform
import statistics

from bridgescore.season.ratings import DECAY, PRIOR_BOARDS, season_grades
from bridgescore.season.simulate import EDGE, simulated_season


def ranks(values: list[float]) -> list[float]:
    """Each value's rank (1 = lowest), ties sharing their mean rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for index in order[start : end + 1]:
            out[index] = (start + end) / 2 + 1
        start = end + 1
    return out


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rank correlation: Pearson's correlation of the ranks."""
    ra, rb = ranks(a), ranks(b)
    mean_a, mean_b = statistics.fmean(ra), statistics.fmean(rb)
    covariance = sum((x - mean_a) * (y - mean_b) for x, y in zip(ra, rb, strict=True))
    spread = (sum((x - mean_a) ** 2 for x in ra) * sum((y - mean_b) ** 2 for y in rb)) ** 0.5
    return covariance / spread


def one_season(players: int, sessions: int, seed: int) -> tuple[float, float]:
    """The grades' and the plain means' correlations with the true strengths."""
    season = simulated_season(players=players, sessions=sessions, seed=seed)
    events = season.graded_events()
    grades = season_grades(events)
    played: dict[str, list[float]] = {}
    for pairs in events:
        for pair in pairs:
            for number in pair.numbers:
                played.setdefault(number, []).append(pair.percent)
    numbers = sorted(season.strengths)
    truth = [season.strengths[n] for n in numbers]
    return (
        spearman(truth, [grades[n].grade for n in numbers]),
        spearman(truth, [statistics.fmean(played[n]) for n in numbers]),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--seeds", type=int, default=10)
    options = parser.parse_args()
    print(
        f"machine: {platform.machine()} {platform.python_implementation()} "
        f"{platform.python_version()}"
    )
    print(
        f"{options.players} players, {options.sessions} sessions, seeds 0-{options.seeds - 1}; "
        f"DECAY {DECAY}, PRIOR_BOARDS {PRIOR_BOARDS:g}, EDGE {EDGE:g}"
    )
    graded, plain = [], []
    for seed in range(options.seeds):
        grade_rho, mean_rho = one_season(options.players, options.sessions, seed)
        graded.append(grade_rho)
        plain.append(mean_rho)
        print(f"seed {seed}: Spearman grades {grade_rho:.3f}, plain mean {mean_rho:.3f}")
    print(
        f"grades: mean {statistics.fmean(graded):.3f}, lowest {min(graded):.3f}; "
        f"plain mean of percentages: mean {statistics.fmean(plain):.3f}, "
        f"lowest {min(plain):.3f}"
    )
    shortfall = (1 - statistics.fmean(plain)) / (1 - statistics.fmean(graded))
    print(f"ratio: the plain mean misses {shortfall:.2f}x as much rank agreement as the grades")
    print(
        f"target (at least 0.9 at 40 players, 30 sessions): "
        f"{'met' if min(graded) >= 0.9 else 'NOT met'} on every seed"
    )


if __name__ == "__main__":
    main()
