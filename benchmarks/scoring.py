"""Scoring speed, measured against baselines in the same run.

1. Scoring parsed contracts: ``bridgescore.score(contract, vul, tricks=...)`` against
   endplay's ``Contract.score`` on the same results (target: at least 3x faster).
2. Scoring from text: microseconds per call of ``score("4DX+1", ...)``.
3. ``score_array`` on 10 million results against the scalar loop over the same
   results (target: at least 100x faster and 50 million results a second).

Run: ``python benchmarks/scoring.py [--results N] [--array-results N]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable

import numpy as np

import bridgescore as bs
from bridgescore import Contract, Doubling, Result, Seat, Strain


def best_of(repeats: int, work: Callable[[], object]) -> float:
    """The fastest of several timings: the least disturbed by the machine."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def random_results(rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
    level = rng.integers(1, 8, n)
    strain = rng.integers(0, 5, n)
    doubling = rng.integers(0, 3, n)
    tricks = rng.integers(0, 14, n)
    vulnerable = rng.integers(0, 2, n).astype(bool)
    return level, strain, doubling, tricks, vulnerable


def bench_parsed(n: int, rng: np.random.Generator) -> None:
    from endplay.types import Contract as EPContract
    from endplay.types import Denom, Penalty, Player, Vul

    level, strain, doubling, tricks, vulnerable = random_results(rng, n)
    ours = [
        Contract(int(lv), Strain(int(st)), Doubling(int(db)), Seat.NORTH)
        for lv, st, db in zip(level, strain, doubling, strict=True)
    ]
    our_tricks = [int(t) for t in tricks]
    our_vul = [bool(v) for v in vulnerable]
    denoms = {0: Denom.clubs, 1: Denom.diamonds, 2: Denom.hearts, 3: Denom.spades, 4: Denom.nt}
    penalties = {0: Penalty.passed, 1: Penalty.doubled, 2: Penalty.redoubled}
    theirs = [
        EPContract(
            level=int(lv),
            denom=denoms[int(st)],
            declarer=Player.north,
            penalty=penalties[int(db)],
            result=int(t) - int(lv) - 6,
        )
        for lv, st, db, t in zip(level, strain, doubling, tricks, strict=True)
    ]
    their_vul = [Vul.both if v else Vul.none for v in vulnerable]

    # Same work, same answers: check before timing.
    ours_scores = [bs.score(c, v, tricks=t) for c, v, t in zip(ours, our_vul, our_tricks)]
    their_scores = [c.score(v) for c, v in zip(theirs, their_vul, strict=True)]
    assert ours_scores == their_scores, "bridgescore and endplay disagree"

    score = bs.score
    t_ours = best_of(
        3, lambda: [score(c, v, tricks=t) for c, v, t in zip(ours, our_vul, our_tricks)]
    )
    t_theirs = best_of(3, lambda: [c.score(v) for c, v in zip(theirs, their_vul)])
    print(f"parsed contracts, {n:,} results (scores identical to endplay's):")
    print(f"  bridgescore.score      {t_ours / n * 1e9:8.0f} ns/result")
    print(f"  endplay Contract.score {t_theirs / n * 1e9:8.0f} ns/result")
    print(f"  ratio: bridgescore is {t_theirs / t_ours:.1f}x faster (target >= 3x)")


def bench_text(n: int, rng: np.random.Generator) -> None:
    level, strain, doubling, tricks, vulnerable = random_results(rng, n)
    texts = [
        str(Result(Contract(int(lv), Strain(int(st)), Doubling(int(db))), int(t)))
        for lv, st, db, t in zip(level, strain, doubling, tricks, strict=True)
    ]
    vul = [bool(v) for v in vulnerable]
    t_text = best_of(3, lambda: [bs.score(s, v) for s, v in zip(texts, vul, strict=True)])
    print(f"\nresult text, {n:,} results ('4DX+1' style):")
    print(f"  bridgescore.score(text) {t_text / n * 1e6:8.2f} us/result")


def bench_array(n: int, rng: np.random.Generator) -> None:
    level, strain, doubling, tricks, vulnerable = random_results(rng, n)
    result = tricks - level - 6
    # Codes as a study or an event stores them (int8), and as numpy makes them by default.
    codes8 = [a.astype(np.int8) for a in (level, strain, doubling, result)]
    t_array = best_of(3, lambda: bs.score_array(*codes8, vulnerable))
    t_array64 = best_of(3, lambda: bs.score_array(level, strain, doubling, result, vulnerable))
    array_scores = bs.score_array(*codes8, vulnerable)
    assert (
        array_scores.tolist()
        == bs.score_array(level, strain, doubling, result, vulnerable).tolist()
    )

    # The scalar loop over the very same results, from parsed values.
    contracts = {
        (lv, st, db): Contract(lv, Strain(st), Doubling(db))
        for lv in range(1, 8)
        for st in range(5)
        for db in range(3)
    }
    rows = list(
        zip(level.tolist(), strain.tolist(), doubling.tolist(), tricks.tolist(),
            vulnerable.tolist(), strict=True)
    )  # fmt: skip
    score = bs.score
    start = time.perf_counter()
    loop_scores = [score(contracts[lv, st, db], v, tricks=t) for lv, st, db, t, v in rows]
    t_loop = time.perf_counter() - start
    assert loop_scores == array_scores.tolist(), "score_array differs from the scalar loop"
    print(f"\nscore_array, {n:,} results (identical to the scalar loop):")
    print(
        f"  score_array, int8 codes   {t_array:7.3f} s {n / t_array / 1e6:7.1f} M/s (target >= 50)"
    )
    print(f"  score_array, int64 codes  {t_array64:7.3f} s {n / t_array64 / 1e6:7.1f} M/s")
    print(f"  scalar loop               {t_loop:7.3f} s {n / t_loop / 1e6:7.2f} M/s")
    print(f"  ratio, int8 codes:  score_array is {t_loop / t_array:.0f}x faster (target >= 100x)")
    print(f"  ratio, int64 codes: score_array is {t_loop / t_array64:.0f}x faster")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=int, default=200_000, help="results for 1 and 2")
    parser.add_argument("--array-results", type=int, default=10_000_000, help="results for 3")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    print(
        f"bridgescore {bs.__version__} on {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, numpy {np.__version__}, "
        f"{time.strftime('%Y-%m-%d')}\n"
    )
    bench_parsed(args.results, rng)
    bench_text(args.results, rng)
    bench_array(args.array_results, rng)


if __name__ == "__main__":
    main()
