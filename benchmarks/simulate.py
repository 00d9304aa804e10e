"""Constrained dealing and one-contract double-dummy throughput, against baselines in one run.

1. Dealing under a condition: ``bridgescore deal --where ... --count N`` (a fresh
   process, start-up included, PBN lines to /dev/null) against the C ``dealer``
   program (Debian package ``dealer``: ``apt-get install dealer``; skipped with a
   message when absent) on the same condition and count, both as wall time and
   CPU time (the machine may be shared). Ours also with ``--processes 2``, and
   ``--before`` another installation (the code before a change) in the same run.
2. Memory: peak resident size of ``bridgescore deal`` for a small and a large
   count (default 1,000,000 deals), which stays flat because chunks stream.
3. Double-dummy: ``declarer_tricks`` (one strain and declarer per deal, DDS
   SolveAllBoards in batches of 200) against ``solve_many`` (full tables, DDS
   CalcAllTables) and against endplay's own ``solve_all_boards`` on the same
   deals (raw DDS, batches of 200). Runs alternate; ratios are baseline / ours.

Run: ``python benchmarks/simulate.py [--deals 200000] [--memory-deals 1000000] [--dd-deals 200]
[--rounds 3] [--before OTHER/.venv/bin/bridgescore] [--skip memory]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CONDITION = "hcp(south) >= 15 && hcp(south) <= 17 && shape(south, any 4333 + any 4432 + any 5332)"
BRIDGESCORE = [str(Path(sys.executable).parent / "bridgescore")]


def run(command: list[str], stdin: str | None = None) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system of the child) and peak RSS (KiB) of a command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    ) as process:
        _, errors = process.communicate(stdin)
        if process.returncode != 0:
            raise SystemExit(f"{command[:4]} failed: {errors}")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss


def peak_memory(command: list[str]) -> int:
    """Peak resident memory (KiB) of one run, measured by GNU time when present."""
    gnu_time = shutil.which("time") or "/usr/bin/time"
    if Path(gnu_time).exists():
        done = subprocess.run(
            [gnu_time, "-f", "%M", *command], capture_output=True, text=True, check=True
        )
        return int(done.stderr.strip().splitlines()[-1])
    script = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
        "stdout=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *command], capture_output=True, text=True, check=True
    )
    return int(done.stdout.strip())


def dealing(count: int, rounds: int, before: str | None) -> None:
    print(f"\n1. {count:,} deals under: {CONDITION}")
    print(f"   load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    arguments = ["deal", "--seed", "1", "--count", str(count), "--where", CONDITION]
    ours = [*BRIDGESCORE, *arguments]
    commands: dict[str, list[str]] = {
        "bridgescore deal": ours,
        "bridgescore deal --processes 2": [*ours, "--processes", "2"],
    }
    if before is not None:
        # Another installation (the code before a change), timed in the same run.
        commands["before: bridgescore deal"] = [before, *arguments]
    dealer = shutil.which("dealer") or (
        "/usr/games/dealer" if Path("/usr/games/dealer").exists() else None
    )
    script_name = None
    if dealer is not None:
        with tempfile.NamedTemporaryFile("w", suffix=".dl", delete=False) as script:
            script.write(f"condition {CONDITION}\nproduce {count}\naction printpbn\n")
        script_name = script.name
        commands["dealer (C)"] = [dealer, "-s", "1", script_name]
    best: dict[str, tuple[float, float]] = {}
    try:
        for _ in range(rounds):  # alternate, so load hits all alike
            for name, command in commands.items():
                wall, cpu, _ = run(command)
                old = best.get(name)
                best[name] = (min(wall, old[0]), min(cpu, old[1])) if old else (wall, cpu)
    finally:
        if script_name is not None:
            os.unlink(script_name)
    print(f"   best of {rounds} alternating runs, process start included, PBN to /dev/null:")
    for name, (wall, cpu) in best.items():
        print(
            f"   {name:<32} wall {wall:6.2f} s   cpu {cpu:6.2f} s   {count / wall:>10,.0f} deals/s"
        )
    print(f"   load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if "dealer (C)" not in best:
        print(
            "   dealer not found: install Debian's package 'dealer' (apt-get install dealer) "
            "to compare; skipped"
        )
        return
    base_wall, base_cpu = best["dealer (C)"]
    for name in best:
        if name == "dealer (C)":
            continue
        wall, cpu = best[name]
        print(
            f"   {name}: {base_wall / wall:.2f}x dealer's speed (wall), {base_cpu / cpu:.2f}x (CPU)"
        )


def memory(small: int, large: int) -> None:
    print("\n2. peak memory of bridgescore deal --where (the same condition)")
    for count in (small, large):
        command = [*BRIDGESCORE, "deal", "--seed", "1", "--count", str(count), "--where", CONDITION]
        print(f"   {count:>10,} deals: {peak_memory(command) / 1024:7.1f} MiB")


def double_dummy(count: int) -> None:
    import numpy as np
    from endplay.dds import solve_all_boards
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal as EndplayDeal
    from endplay.types import Denom, Player

    import bridgescore as bs
    from bridgescore.dealer.dealing import iter_deal_chunks, pbn_strings
    from bridgescore.solver import declarer_tricks

    owners = np.concatenate(list(iter_deal_chunks(count, seed=3, where=CONDITION)))
    texts = pbn_strings(owners)
    theirs = []
    for text in texts:
        deal = EndplayDeal(text)
        deal.trump = Denom.nt
        deal.first = Player.west  # South declares: West leads
        theirs.append(deal)
    print(f"\n3. double dummy, 3NT by South on {count} deals (DDS threads: all cores)")

    def ours() -> object:
        return declarer_tricks(owners, bs.Strain.NOTRUMP, bs.Seat.SOUTH)

    def raw() -> object:
        return [
            list(solve_all_boards(theirs[i : i + 200], mode=SolveMode.OptimalOne))
            for i in range(0, count, 200)
        ]

    def tables() -> object:
        return bs.solve_many(texts)

    times: dict[str, float] = {"ours": 1e9, "raw": 1e9, "tables": 1e9}
    for _ in range(2):
        for name, work in (("ours", ours), ("raw", raw), ("tables", tables)):
            start = time.perf_counter()
            work()
            times[name] = min(times[name], time.perf_counter() - start)
    print(f"   declarer_tricks (SolveAllBoards)       {count / times['ours']:8.1f} deals/s")
    print(f"   endplay solve_all_boards (raw DDS)     {count / times['raw']:8.1f} deals/s")
    print(f"   solve_many (full tables)               {count / times['tables']:8.1f} deals/s")
    print(f"   ours vs raw DDS: {times['raw'] / times['ours']:.2f}x (target >= 0.95)")
    print(f"   ours vs full tables: {times['tables'] / times['ours']:.2f}x (target >= 3)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--memory-deals", type=int, default=1_000_000)
    parser.add_argument("--dd-deals", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs of each program")
    parser.add_argument(
        "--before",
        help="another bridgescore executable (say, a checkout before a change) to time too",
    )
    parser.add_argument("--skip", choices=["dealing", "memory", "dd"], action="append", default=[])
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M %Z')}"
    )
    if "dealing" not in args.skip:
        dealing(args.deals, args.rounds, args.before)
    if "memory" not in args.skip:
        memory(10_000, args.memory_deals)
    if "dd" not in args.skip:
        double_dummy(args.dd_deals)


if __name__ == "__main__":
    main()
