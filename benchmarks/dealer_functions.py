"""Dealing under conditions that use cccc, quality, pointcount and rnd, against the C dealer.

For each condition: ``bridgescore deal --where ... --count N`` (a fresh process,
start-up included, output to /dev/null) and the C ``dealer`` program (Debian
package ``dealer``; skipped with a message when absent) producing the same number
of deals under the same condition, alternated twice so load hits both alike; the
best wall and CPU time of each, and the ratio dealer / ours (above 1: ours faster).
The condition with plain ``hcp`` of the same rarity shows what the new functions cost.

Run: ``python benchmarks/dealer_functions.py [--deals 50000]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from simulate import BRIDGESCORE, run  # the sibling benchmark's timer

CONDITIONS = [
    ("hcp (for scale)", "", "hcp(south) >= 15"),
    ("cccc", "", "cccc(south) >= 1600"),
    ("quality", "", "spades(south) >= 5 && quality(south, spades) >= 500"),
    ("pointcount", "pointcount 6 4 2 1", "hcp(south) >= 22"),
    ("rnd", "", "rnd(4) == 0 && hcp(south) >= 12"),
]


def measure(
    count: int, dealer: str | None, declarations: str, condition: str
) -> dict[str, tuple[float, float]]:
    where = f"{declarations}\n{condition}" if declarations else condition
    ours = [*BRIDGESCORE, "deal", "--seed", "1", "--count", str(count), "--where", where]
    best: dict[str, tuple[float, float]] = {}
    for _ in range(2):
        runs = [("bridgescore", ours)]
        if dealer is not None:
            with tempfile.NamedTemporaryFile("w", suffix=".dl", delete=False) as script:
                script.write(
                    f"{declarations}\ncondition {condition}\nproduce {count}\naction printoneline\n"
                )
            runs.append(("dealer (C)", [dealer, "-s", "1", script.name]))
        for name, command in runs:
            wall, cpu, _ = run(command)
            old = best.get(name)
            best[name] = (min(wall, old[0]), min(cpu, old[1])) if old else (wall, cpu)
        if dealer is not None:
            os.unlink(script.name)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50_000)
    count = parser.parse_args().deals
    dealer = shutil.which("dealer") or (
        "/usr/games/dealer" if Path("/usr/games/dealer").exists() else None
    )
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, {count:,} deals")
    if dealer is None:
        print("dealer not found (apt-get install dealer): timing bridgescore alone")
    for name, declarations, condition in CONDITIONS:
        best = measure(count, dealer, declarations, condition)
        wall, cpu = best["bridgescore"]
        line = f"{name:<16} ours wall {wall:6.2f} s cpu {cpu:6.2f} s"
        if "dealer (C)" in best:
            base_wall, base_cpu = best["dealer (C)"]
            line += (
                f" | dealer wall {base_wall:6.2f} s cpu {base_cpu:6.2f} s"
                f" | {base_wall / wall:5.2f}x dealer (wall) {base_cpu / cpu:5.2f}x (CPU)"
            )
        print(f"{line}   [{condition}]")


if __name__ == "__main__":
    main()
