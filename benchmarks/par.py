"""Par: ours against DDS's DealerParBin (through endplay), measured in one run.

Usage: ``python benchmarks/par.py [--tables N] [--repeat R]``

The tables are the double-dummy tables of the 1,000 real deals in
tests/data/par_vectors.jsonl, with the vulnerability and dealer of board
numbers 1, 2, 3, ... so every combination occurs. The baseline is the DDS C
function ``DealerParBin`` called through endplay's ctypes binding, with its input
structures built before the clock starts (so only the call is timed: the
strictest baseline), and endplay's own ``par()`` for reference (it also builds
its contract objects, as our ``par`` does). Every candidate runs once per round,
interleaved; printed are the best time of each and the median per-round ratios.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import bridgescore.pararray as pararray
from bridgescore import DDTable, Seat, Strain, Vulnerability, dealer_of_board, par, par_array

VECTORS = Path(__file__).resolve().parent.parent / "tests" / "data" / "par_vectors.jsonl"

# DDS numbering (endplay/_dds docstring): strains S=0, H=1, D=2, C=3, NT=4;
# vulnerability None=0, Both=1, NS=2, EW=3.
_DDS_STRAIN = {
    Strain.SPADES: 0,
    Strain.HEARTS: 1,
    Strain.DIAMONDS: 2,
    Strain.CLUBS: 3,
    Strain.NOTRUMP: 4,
}
_DDS_VULNERABILITY = {
    Vulnerability.NONE: 0,
    Vulnerability.BOTH: 1,
    Vulnerability.NS: 2,
    Vulnerability.EW: 3,
}


def best_of(repeat: int, run: Callable[[], object]) -> float:
    """The shortest wall time of ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000, help="tables for the scalar loops")
    parser.add_argument("--array-tables", type=int, default=1_000_000, help="tables for par_array")
    parser.add_argument("--repeat", type=int, default=7, help="rounds")
    args = parser.parse_args()

    try:
        import endplay._dds as dds
        from endplay.dds import par as endplay_par
        from endplay.dds.ddtable import DDTable as EndplayTable
        from endplay.types import Player
    except ImportError:
        raise SystemExit("this benchmark needs endplay: pip install 'bridgescore[dds]'") from None

    texts = [json.loads(line)["dd"] for line in VECTORS.read_text().splitlines()]
    tables = [DDTable.parse(texts[i % len(texts)]) for i in range(args.tables)]
    boards = [i % 16 + 1 for i in range(args.tables)]
    vulnerabilities = [Vulnerability.from_board(board) for board in boards]
    dealers = [dealer_of_board(board) for board in boards]

    raw_tables = []
    for table in tables:
        raw = dds.ddTableResults()
        for seat in Seat:
            for strain in Strain:
                raw.resTable[_DDS_STRAIN[strain]][seat] = table.tricks(seat, strain)
        raw_tables.append(raw)
    dds_vul = [_DDS_VULNERABILITY[v] for v in vulnerabilities]
    dds_dealer = [int(d) for d in dealers]
    result = dds.parResultsMaster()
    jobs = list(zip(raw_tables, dds_vul, dds_dealer, strict=True))
    endplay_tables = [EndplayTable(raw) for raw in raw_tables]
    endplay_dealers = [Player(dealer) for dealer in dds_dealer]
    endplay_jobs = list(zip(endplay_tables, dds_vul, endplay_dealers, strict=True))
    ours = list(zip(tables, vulnerabilities, dealers, strict=True))

    def dds_loop() -> None:
        for raw, vul, dealer in jobs:
            dds.DealerParBin(raw, result, dealer, vul)

    def endplay_loop() -> None:
        for table, vul, dealer in endplay_jobs:
            list(endplay_par(table, vul, dealer))

    def par_dealer() -> None:
        for table, vul, dealer in ours:
            par(table, vul, dealer)

    def par_neutral() -> None:
        for table, vul, _ in ours:
            par(table, vul)

    array = np.stack([table.to_array() for table in tables])
    reps = -(-args.array_tables // len(array))
    big = np.tile(array, (reps, 1, 1))[: args.array_tables]
    big_vul = np.tile(np.array([int(v) for v in vulnerabilities]), reps)[: args.array_tables]
    # par_array takes one dealer for the whole array: North, as board 1.
    n = args.tables

    def numpy_only(dealer: Seat | None) -> Callable[[], object]:
        def run() -> object:
            saved = pararray._KERNEL_FROM
            pararray._KERNEL_FROM = 1 << 62
            try:
                return par_array(big, big_vul, dealer)
            finally:
                pararray._KERNEL_FROM = saved

        return run

    kernel = pararray._kernel() is not None
    if kernel:
        par_array(big[:10], big_vul[:10])  # load (or compile) the kernel before the clock
    # Both paths give par's scores before anything is timed.
    for dealer in (Seat.NORTH, None):
        expected = [par(table, vul, dealer).score for table, vul, _ in ours]
        assert par_array(big, big_vul, dealer)[:n].tolist() == expected, "par_array differs"
        assert numpy_only(dealer)()[:n].tolist() == expected, "numpy path differs"  # type: ignore[index]

    # Rounds interleave every candidate, so a busy machine slows all of them
    # alike; each ratio is the median of its per-round ratios.
    candidates: dict[str, tuple[Callable[[], object], int]] = {
        "dds": (dds_loop, n),
        "endplay": (endplay_loop, n),
        "dealer": (par_dealer, n),
        "neutral": (par_neutral, n),
        "array_dealer": (lambda: par_array(big, big_vul, Seat.NORTH), len(big)),
        "array_neutral": (lambda: par_array(big, big_vul), len(big)),
        "numpy_dealer": (numpy_only(Seat.NORTH), len(big)),
        "numpy_neutral": (numpy_only(None), len(big)),
    }
    rounds: list[dict[str, float]] = []
    for _ in range(args.repeat):
        rounds.append({name: best_of(1, run) / count for name, (run, count) in candidates.items()})
    best = {name: min(times[name] for times in rounds) for name in candidates}

    def ratio(top: str, bottom: str) -> float:
        return float(np.median([times[top] / times[bottom] for times in rounds]))

    print(
        f"par benchmark: {platform.python_implementation()} {platform.python_version()}, "
        f"{n} tables for the loops, {len(big):,} for par_array, {args.repeat} rounds"
    )
    names = {
        "dds": "DDS DealerParBin via endplay ctypes (baseline)",
        "endplay": "endplay.dds.par + list of contracts",
        "dealer": "bridgescore par, dealer-first",
        "neutral": "bridgescore par, neutral",
        "array_dealer": "bridgescore par_array, dealer-first",
        "array_neutral": "bridgescore par_array, neutral",
        "numpy_dealer": "bridgescore par_array, dealer-first, numpy only",
        "numpy_neutral": "bridgescore par_array, neutral, numpy only",
    }
    print("best time per table:")
    for name, label in names.items():
        seconds = best[name]
        print(f"  {label:<48}{seconds * 1e6:>9.3f} us {1 / seconds:>14,.0f} tables/s")
    print("ratios, median over rounds (per-table time / DealerParBin's; lower is better):")
    print(f"  par dealer-first / DealerParBin      {ratio('dealer', 'dds'):6.2f}x  (target <= 3)")
    print(f"  par neutral / DealerParBin           {ratio('neutral', 'dds'):6.2f}x")
    print(f"  par dealer-first / endplay.dds.par   {ratio('dealer', 'endplay'):6.2f}x")
    path = (
        "compiled kernel (numba)" if kernel else "numpy (no numba: pip install 'bridgescore[fast]')"
    )
    print(f"throughput, median over rounds (tables per second / DealerParBin loop's); path: {path}")
    print(
        f"  par_array dealer-first               {1 / ratio('array_dealer', 'dds'):6.1f}x  "
        "(target >= 10)"
    )
    print(
        f"  par_array neutral                    {1 / ratio('array_neutral', 'dds'):6.1f}x  "
        "(target >= 10)"
    )
    print(f"  par_array dealer-first, numpy only   {1 / ratio('numpy_dealer', 'dds'):6.1f}x")
    print(f"  par_array neutral, numpy only        {1 / ratio('numpy_neutral', 'dds'):6.1f}x")


if __name__ == "__main__":
    main()
