"""Double-dummy solving: our wrapper against endplay's own call, in the same run.

1. ``bridgescore.solve_many`` (our Deal values in, our DDTable values out,
   batching inside) against endplay's ``calc_all_tables`` called directly, in
   batches of 32, on the same deals already built as endplay deals. The ratio
   is baseline time / our time (target: at least 0.95, i.e. our wrapping costs
   under 5%). Whole calls alternate between the two; then each 32-deal batch is
   timed both ways back to back, so that a busy machine slows both alike.
2. The wrapping alone, without DDS: converting the deals to endplay's form and
   the answers back, as a share of the solving time.
3. Tables per second with 1 and 2 DDS threads (``threads=``), on fewer deals.

Run: ``python benchmarks/solver.py [--deals 200] [--repeats 2] [--thread-deals 64]``.
DDS solves about 14 tables a second on 2 cores, so the defaults take ~2 min.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from functools import partial

import bridgescore as bs
from bridgescore.solver import MAX_DEALS_PER_CALL, _to_table


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--thread-deals", type=int, default=64)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    from endplay.dds import calc_all_tables
    from endplay.types import Deal as EndplayDeal

    deals = bs.random_deals(args.deals, seed=args.seed)
    theirs = [EndplayDeal(deal.to_pbn()) for deal in deals]
    batches = [
        theirs[start : start + MAX_DEALS_PER_CALL]
        for start in range(0, len(theirs), MAX_DEALS_PER_CALL)
    ]

    def baseline() -> list[object]:
        return [table for batch in batches for table in calc_all_tables(batch)]

    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(
        f"{args.deals} random deals (seed {args.seed}), {args.repeats} run(s) of each, alternating"
    )

    # The answers must agree before their speed means anything.
    ours_tables = bs.solve_many(deals)
    assert ours_tables == [_to_table(table) for table in baseline()], "results differ"

    # Whole calls, alternating: what a user sees.
    ours_times, base_times = [], []
    for _ in range(args.repeats):
        ours_times.append(timed(lambda: bs.solve_many(deals)))
        base_times.append(timed(baseline))
    ours, base = min(ours_times), min(base_times)
    print("\n1. solve_many vs endplay calc_all_tables, whole calls (best of runs)")
    print(f"   endplay calc_all_tables : {base:7.2f} s  {args.deals / base:6.1f} tables/s")
    print(f"   bridgescore solve_many  : {ours:7.2f} s  {args.deals / ours:6.1f} tables/s")
    print(f"   ratio (baseline / ours) : {base / ours:7.3f}   (target >= 0.95)")

    # The same, interleaved batch by batch (each 32-deal batch timed both ways, in
    # alternating order, best of runs): far less sensitive to other work on the machine.
    ours_batches = [
        deals[start : start + MAX_DEALS_PER_CALL]
        for start in range(0, len(deals), MAX_DEALS_PER_CALL)
    ]
    best_ours = [float("inf")] * len(batches)
    best_base = [float("inf")] * len(batches)
    for run in range(args.repeats):
        for i, (mine, their) in enumerate(zip(ours_batches, batches, strict=True)):
            pair = [
                lambda mine=mine: bs.solve_many(mine),
                lambda their=their: calc_all_tables(their),
            ]
            order = (0, 1) if (run + i) % 2 == 0 else (1, 0)
            for which in order:
                elapsed = timed(pair[which])
                if which == 0:
                    best_ours[i] = min(best_ours[i], elapsed)
                else:
                    best_base[i] = min(best_base[i], elapsed)
    ours, base = sum(best_ours), sum(best_base)
    print("   interleaved by batch (sum of best per batch):")
    print(f"   endplay calc_all_tables : {base:7.2f} s  {args.deals / base:6.1f} tables/s")
    print(f"   bridgescore solve_many  : {ours:7.2f} s  {args.deals / ours:6.1f} tables/s")
    print(f"   ratio (baseline / ours) : {base / ours:7.3f}   (target >= 0.95)")

    # 2. The wrapping by itself: our Deal -> endplay deal, endplay table -> DDTable.
    answers = baseline()
    convert_in = min(
        timed(lambda: [EndplayDeal(deal.to_pbn()) for deal in deals]) for _ in range(5)
    )
    convert_out = min(timed(lambda: [_to_table(table) for table in answers]) for _ in range(5))
    wrapping = convert_in + convert_out
    print("\n2. wrapping alone (no DDS)")
    print(f"   deals in  : {convert_in * 1e6 / args.deals:7.1f} µs/deal")
    print(f"   tables out: {convert_out * 1e6 / args.deals:7.1f} µs/deal")
    print(f"   share of solving time: {wrapping / base:.3%}")

    # 3. DDS threads. CPU time shows how many cores DDS really got: on a busy
    # machine two threads may get no more than one core's worth of time.
    few = deals[: args.thread_deals]
    print(f"\n3. DDS threads ({len(few)} deals)")
    rates = {}
    for threads in (1, 2):
        cpu = time.process_time()
        wall = timed(partial(bs.solve_many, few, threads=threads))
        cpu = time.process_time() - cpu
        rates[threads] = len(few) / wall
        print(
            f"   threads={threads} : {rates[threads]:6.1f} tables/s   "
            f"{cpu / len(few) * 1000:5.0f} ms CPU per table   cores used {cpu / wall:4.2f}"
        )
    print(f"   speed-up with 2 threads: {rates[2] / rates[1]:.2f}x")


if __name__ == "__main__":
    main()
