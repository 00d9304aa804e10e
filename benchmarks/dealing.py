"""Dealing under a condition, against the C ``dealer``: the command and the library, in one run.

Three conditions, each written once for both programs (``dealer``'s own script and
our ``--where`` / ``--predeal``): a simple HCP range, a shape with suit lengths
in two hands, and a compound condition after a predeal (a 1NT opening facing a
given hand). For each, three contestants deal the same number of deals:

- ``dealer (C)``: Debian's ``dealer`` (``apt-get install dealer``), ``produce N``
  (with ``generate`` raised above its default cap of 10,000,000 candidates),
  ``action printoneline``, seed 1, output to /dev/null;
- ``bridgescore deal``: the whole command as a user runs it (a fresh process,
  start-up included), PBN lines to /dev/null;
- ``bs.deal_many``: the library call in this process (imports already done),
  giving a list of ``Deal`` values.

Runs alternate (dealer, command, library, dealer, ...), so load hits all alike; each
contestant's time is the best of ``--rounds`` (wall clock, and for the two processes
CPU time too). Ratios are dealer's time / ours: above 1, ours is faster. Then one
untimed run of each counts its deals, which must all equal ``--deals``. Without
``dealer`` the race is skipped with a message and only our times are printed.

Run: ``python benchmarks/dealing.py [--deals 200000] [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import bridgescore as bs
from simulate import BRIDGESCORE, run  # the sibling benchmark's process timer


@dataclass(frozen=True)
class Race:
    """One condition, in both languages."""

    name: str
    where: str
    predeal: tuple[str, ...] = ()  # ours: --predeal texts
    dealer_predeal: tuple[str, ...] = ()  # dealer's: "south SAQ542, HKJ87"

    def dealer_script(self, count: int) -> str:
        lines = [f"predeal {text}" for text in self.dealer_predeal]
        # dealer stops after 10,000,000 candidate deals unless told more ("generate"):
        # a rare condition would give it fewer deals to write than ours.
        lines += [f"condition {self.where}", f"generate {max(10_000_000, 1000 * count)}"]
        lines += [f"produce {count}", "action printoneline"]
        return "\n".join(lines) + "\n"

    def command(self, count: int) -> list[str]:
        arguments = ["deal", "--seed", "1", "--count", str(count), "--where", self.where]
        for text in self.predeal:
            arguments += ["--predeal", text]
        return [*BRIDGESCORE, *arguments]


RACES = (
    Race("HCP range", "hcp(north) >= 20"),
    Race("shape", "spades(north) >= 5 && hearts(north) >= 4 && spades(south) >= 3"),
    Race(
        "compound + predeal",
        "hcp(north) >= 15 && hcp(north) <= 17 && shape(north, any 4333 + any 4432 + any 5332)"
        " && hearts(north) >= 3",
        predeal=("S=SAQ542,HKJ87",),
        dealer_predeal=("south SAQ542, HKJ87",),
    ),
)

DEALER = "dealer (C)"
COMMAND = "bridgescore deal"
LIBRARY = "bs.deal_many"


def find_dealer() -> str | None:
    """The C ``dealer`` program (Debian installs it in /usr/games, often not on PATH)."""
    found = shutil.which("dealer")
    if found is None and Path("/usr/games/dealer").exists():
        found = "/usr/games/dealer"
    return found


def library_call(race: Race, count: int) -> Callable[[], list[bs.Deal]]:
    def deal() -> list[bs.Deal]:
        return bs.deal_many(count, seed=1, where=race.where, predeal=race.predeal)

    return deal


def timed(call: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds of an in-process call.

    Its result is dropped after the clocks stop: a caller keeps the deals it asked
    for, and freeing a list of 200,000 deals is not part of dealing them.
    """
    wall, cpu = time.perf_counter(), time.process_time()
    result = call()
    times = time.perf_counter() - wall, time.process_time() - cpu
    del result
    return times


# How each program's deal lines start: dealer's printoneline "n AK.Q2... e ...", our
# PBN "N:AK.Q2... ..." (dealer adds a few lines of statistics after its deals).
DEAL_LINE = {DEALER: b"n ", COMMAND: b"N:"}


def deals_written(name: str, command: list[str]) -> int:
    """How many deals a program writes, one a line."""
    done = subprocess.run(command, capture_output=True, check=True)
    return sum(1 for line in done.stdout.splitlines() if line.startswith(DEAL_LINE[name]))


def race_one(race: Race, count: int, rounds: int, dealer: str | None) -> None:
    print(f"\ncondition {race.name}: {race.where}", end="")
    print(f"   predeal {' '.join(race.predeal)}" if race.predeal else "")
    script_name = None
    processes: dict[str, list[str]] = {}
    if dealer is not None:
        with tempfile.NamedTemporaryFile("w", suffix=".dl", delete=False) as script:
            script.write(race.dealer_script(count))
        script_name = script.name
        processes[DEALER] = [dealer, "-s", "1", script_name]
    processes[COMMAND] = race.command(count)
    library = library_call(race, count)
    best: dict[str, tuple[float, float]] = {}
    try:
        for _ in range(rounds):
            for name in [*processes, LIBRARY]:
                if name == LIBRARY:
                    wall, cpu = timed(library)
                else:
                    wall, cpu, _ = run(processes[name])
                print(f"   {name:<18} wall {wall:6.2f} s   cpu {cpu:6.2f} s")
                old = best.get(name)
                best[name] = (min(wall, old[0]), min(cpu, old[1])) if old else (wall, cpu)
        counts = {name: deals_written(name, command) for name, command in processes.items()}
        counts[LIBRARY] = len(library())
    finally:
        if script_name is not None:
            os.unlink(script_name)
    print(f"   best of {rounds}:")
    for name, (wall, cpu) in best.items():
        line = f"   best {name:<18} wall {wall:6.2f} s   cpu {cpu:6.2f} s   deals {counts[name]:,}"
        if name != DEALER and DEALER in best:
            base_wall, base_cpu = best[DEALER]
            # A tiny run can round a time to 0: the floor keeps the ratio printable.
            wall, cpu = max(wall, 1e-6), max(cpu, 1e-6)
            line += f"   ratio {base_wall / wall:5.2f}x (wall) {base_cpu / cpu:5.2f}x (CPU)"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs of each")
    args = parser.parse_args()
    dealer = find_dealer()
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M %Z')}, "
        f"{args.deals:,} deals, seed 1"
    )
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if dealer is None:
        print(
            "dealer not found (Debian package 'dealer': apt-get install dealer): "
            "race skipped, timing ours alone"
        )
    for race in RACES:
        race_one(race, args.deals, args.rounds, dealer)
    print(f"\nload average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
