"""Scoring a simultaneous pairs: CLUBS clubs x TABLES tables x BOARDS boards as one field.

The default, 200 clubs of 10 tables on 24 boards, is 48,000 results: each board is
matchpointed over 2,000 results. The clubs' events are made in memory (each table's
result drawn from a few plausible ones; on each board one club's 4SN= scored the wrong
way round), then timed: ``merge_clubs`` + ``score_sim`` (labels, the field's matchpoints,
travellers, rankings, club rankings and outliers). The baseline is the same job read
directly in a loop: each result's score by ``TableResult.ns_score``, each board by the
scalar ``matchpoints`` of bridgescore.compare (bisecting a sorted list, not a pairwise
loop), each pair's total summed in a dict and the outliers counted. Both answers (every
pair's total, every outlier) are checked equal before the times are printed. The sim
must take under 3 s at the default size (issue 38).

    .venv/bin/python benchmarks/sim.py [--clubs 200] [--tables 10] [--boards 24] [--repeat 3]
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

import numpy as np

from bridgescore.compare.scalar import matchpoints
from bridgescore.session.scoring.event import Event, TableResult
from bridgescore.session.sim import SimClub, SimScore, merge_clubs, score_sim

# A board's usual results: 4S by N making, an overtrick, one down, 3NT by N.
RESULTS = ("4SN=",) * 10 + ("4SN+1", "4SN-1", "3NTN=", "3NTN+1", "5SN-1", "4SN-1")


def club_events(clubs: int, tables: int, boards: int, seed: int = 1) -> list[SimClub]:
    """Each club a Mitchell-like evening: table t's NS pair plays every board against
    one EW pair a board, none meeting twice on a board."""
    rng = random.Random(seed)
    made = []
    for club in range(clubs):
        results = []
        for board in range(1, boards + 1):
            for table in range(1, tables + 1):
                text = rng.choice(RESULTS)
                ns, ew = f"{table}N", f"{(table + board) % tables + 1}E"
                if table == 1 and club == board % clubs:
                    # One club's 4SN= scored the wrong way round on each board.
                    score = TableResult.played(board, ns, ew, "4SN=").ns_score()
                    assert score is not None
                    results.append(TableResult(board, ns, ew, score=-score))
                    continue
                results.append(TableResult.played(board, ns, ew, text))
        made.append(
            SimClub(f"Club {club + 1}", f"club{club + 1}.db", Event(results=tuple(results)))
        )
    return made


def sim_scoring(clubs: list[SimClub]) -> SimScore:
    return score_sim(merge_clubs(clubs, "Sim"))


def naive_scoring(clubs: list[SimClub]) -> tuple[dict[str, float], list[tuple[str, int, str]]]:
    """The same job read directly: each pair's total and the outliers, the scores one by
    one, each board by the scalar rule, the outliers by counting."""
    by_board: dict[int, list[tuple[str, str, str, int]]] = defaultdict(list)
    for club in clubs:
        for result in club.event.results:
            score = result.ns_score()
            assert score is not None
            ns, ew = f"{club.club}/{result.ns}", f"{club.club}/{result.ew}"
            by_board[result.board].append((club.club, ns, ew, score))
    full = max(len(lines) for lines in by_board.values())
    totals: dict[str, float] = defaultdict(float)
    outliers = []
    for board, lines in by_board.items():
        scores = [score for *_, score in lines]
        top = 2 * (full - 1)
        for (_, ns, ew, _), mp in zip(lines, matchpoints(scores, expected=full), strict=True):
            totals[ns] += mp
            totals[ew] += top - mp
        held = Counter(scores)
        usual, count = held.most_common(1)[0]
        if usual and 2 * count >= len(scores) and held[-usual] == 1:
            outliers += [(club, board, ns) for club, ns, _, s in lines if s == -usual]
    return totals, sorted(outliers)


def best_of(repeat: int, work: Callable[[], Any]) -> tuple[float, Any]:
    best, answer = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        answer = work()
        best = min(best, time.perf_counter() - start)
    return best, answer


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clubs", type=int, default=200)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--boards", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    clubs = club_events(args.clubs, args.tables, args.boards)
    count = sum(len(club.event.results) for club in clubs)
    ours, sim = best_of(args.repeat, lambda: sim_scoring(clubs))
    naive, expected = best_of(args.repeat, lambda: naive_scoring(clubs))
    totals, outliers = expected
    found = {standing.name: standing.total for standing in sim.scored.standings}
    assert found.keys() == totals.keys()
    assert all(abs(found[name] - round(totals[name], 2)) < 1e-6 for name in totals), "differ"
    assert sorted((o.club, o.board, o.ns) for o in sim.outliers) == outliers, "outliers differ"
    print(
        f"{args.clubs} clubs x {args.tables} tables x {args.boards} boards: {count:,} results, "
        f"best of {args.repeat}; Python {platform.python_version()}, numpy {np.__version__}"
    )
    print(f"direct loop (scalar matchpoints, dict totals):  {naive:8.3f} s")
    print(f"session sim (merge, score, rank, outliers):      {ours:8.3f} s")
    print(f"ratio (direct / sim) {naive / ours:.2f}x; {len(sim.outliers):,} outliers found")


if __name__ == "__main__":
    main()
