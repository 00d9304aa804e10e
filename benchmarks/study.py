"""Benchmark: `study run` throughput against endplay's calc_all_tables on the same deals.

Measured in one run, on the same deals:
  * baseline: endplay ``calc_all_tables`` called directly (batches of 32, DDS with 1 thread);
  * ``run_study`` with 1 worker (1 DDS thread): ratio to the baseline (target >= 0.9);
  * ``run_study`` with 2 workers: speed-up over 1 worker (target >= 1.7 on 2 cores);
  * ``run_study`` with 1 worker whose DDS uses 2 threads, for comparison.
Then projects the time for 10,485,760 deals on this machine and on 50 workers.

Usage: python benchmarks/study.py [DEALS] (default 256; chunks of 32)
"""

from __future__ import annotations

import os
import platform
import sys
import tempfile
import time
from pathlib import Path

from bridgescore.study.chunks import chunk_deals, plan_chunks
from bridgescore.study.report import study_report
from bridgescore.study.runner import run_study

SEED = 20261122
CHUNK = 32
PUBLISHED_DEALS = 10_485_760


def baseline(pbns: list[str], threads: int) -> float:
    """Seconds for endplay's calc_all_tables on ``pbns``, 32 deals a call."""
    from endplay import _dds
    from endplay.dds import calc_all_tables
    from endplay.types import Deal

    _dds.SetMaxThreads(threads)
    start = time.perf_counter()
    for i in range(0, len(pbns), 32):
        calc_all_tables([Deal(pbn) for pbn in pbns[i : i + 32]])
    seconds = time.perf_counter() - start
    _dds.SetMaxThreads(0)
    return seconds


def study(deals: int, workers: int, threads: int) -> float:
    """Seconds for a whole `study run` (process start-up, dealing, DDS, par, shards)."""
    with tempfile.TemporaryDirectory(prefix="bridgescore-bench-") as directory:
        start = time.perf_counter()
        run_study(
            Path(directory) / "s",
            deals=deals,
            seed=SEED,
            chunk_size=CHUNK,
            workers=workers,
            threads=threads,
        )
        seconds = time.perf_counter() - start
        assert study_report(Path(directory) / "s").deals == deals
    return seconds


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 256
    pbns = [
        deal.to_pbn()
        for chunk in plan_chunks(deals, CHUNK)
        for deal in chunk_deals(SEED, chunk.id, chunk.deals, CHUNK)
    ]
    print(f"{deals} deals (chunks of {CHUNK}), {os.cpu_count()} cores, {platform.processor()}")
    load = os.getloadavg()[0]
    base1 = baseline(pbns, threads=1)
    one = study(deals, workers=1, threads=1)
    two = study(deals, workers=2, threads=1)
    threaded = study(deals, workers=1, threads=2)
    base2 = baseline(pbns, threads=2)
    rate = {
        name: deals / s
        for name, s in [
            ("baseline, 1 thread", base1),
            ("study run, 1 worker", one),
            ("study run, 2 workers", two),
            ("study run, 1 worker x 2 DDS threads", threaded),
            ("baseline, 2 threads", base2),
        ]
    }
    for name, value in rate.items():
        print(f"  {name:<38}{value:8.2f} deals/s")
    ratio_one = rate["study run, 1 worker"] / rate["baseline, 1 thread"]
    speedup = rate["study run, 2 workers"] / rate["study run, 1 worker"]
    threads_vs_workers = rate["study run, 1 worker x 2 DDS threads"] / rate["study run, 2 workers"]
    print(f"study run (1 worker) / calc_all_tables (1 thread): {ratio_one:.3f}  (target >= 0.9)")
    print(f"2 workers / 1 worker: {speedup:.2f}x  (target >= 1.7)")
    print(f"1 worker with 2 DDS threads / 2 workers: {threads_vs_workers:.2f}")
    machine = PUBLISHED_DEALS / rate["study run, 2 workers"]
    cluster = PUBLISHED_DEALS / (50 * rate["study run, 1 worker"])
    print(
        f"projected for {PUBLISHED_DEALS:,} deals: this machine (2 workers) "
        f"{machine / 3600:.1f} h; 50 single-core workers {cluster / 3600:.2f} h"
    )
    print(f"(load average at start: {load:.2f})")


if __name__ == "__main__":
    main()
