"""A 36-board set dealt and analysed (DD tables + par) against the naive loop.

Usage: ``python benchmarks/boards.py [--boards N] [--repeat R]``

Ours: ``deal_set`` then ``analyse`` (DDS batches on every core, par per board),
the work of ``bridgescore deal --boards 1-36 --analyse``. Baseline, in the same
run and on the same deals: endplay's ``calc_dd_table`` called once per deal in a
Python loop (one table at a time), then our par. The issue's target is the
whole set under 20 s on the project's 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from bridgescore import parscore as par
from bridgescore.board import Board
from bridgescore.boardset import DealSeed, analyse, deal_set
from bridgescore.ddtable import DDTable


def _naive(boards: list[Board], dds: object, types: object) -> list[DDTable]:
    tables = []
    for board in boards:
        result = dds.calc_dd_table(types.Deal(board.deal.to_pbn()))  # type: ignore[attr-defined]
        table = DDTable.parse(_hex(result))
        par(table, board.vulnerability, board.dealer)
        tables.append(table)
    return tables


def _hex(result: object) -> str:
    # endplay's table: result[player, denom]; build PBN DoubleDummyTricks N S E W, NT S H D C.
    from endplay.types import Denom, Player

    seats = (Player.north, Player.south, Player.east, Player.west)
    strains = (Denom.nt, Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs)
    return "".join(f"{result[seat, strain]:x}" for seat in seats for strain in strains)  # type: ignore[index]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--boards", type=int, default=36)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    import endplay.dds as dds
    import endplay.types as types

    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores")
    best_ours = best_naive = float("inf")
    for round_number in range(args.repeat):
        boards = deal_set(DealSeed.fresh(args.boards), range(1, args.boards + 1))
        start = time.perf_counter()
        analysed = analyse(boards)
        ours = time.perf_counter() - start
        start = time.perf_counter()
        tables = _naive(boards, dds, types)
        naive = time.perf_counter() - start
        assert [board.dd_table for board in analysed] == tables
        best_ours, best_naive = min(best_ours, ours), min(best_naive, naive)
        print(f"round {round_number + 1}: ours {ours:.2f} s, naive loop {naive:.2f} s")
    print(
        f"{args.boards} boards: ours {best_ours:.2f} s (target < 20 s), naive loop "
        f"{best_naive:.2f} s, ratio naive/ours {best_naive / best_ours:.2f}"
    )


if __name__ == "__main__":
    main()
