"""Single-dummy lead advice: ``analyse --lead-sim`` against a loop of endplay's all-cards
``solve_board``, layout by layout.

Usage: ``python benchmarks/lead_sim.py [--layouts N] [--baseline N]``

Two boards: docs/analyse.md's board 3 (3NT by South, West on lead, South's 1NT opening
as the condition) and a 4S by South dealt here (South with six spades and opening
values). For each, N layouts (1,000 by default) of the three hidden hands are dealt
round the leader's hand and each is solved for every card the leader holds:

- ours: ``bridgescore.postmortem.leads.lead_simulation`` (simulate's engine, DDS's
  SolveAllBoards in batches on both cores; the contract's own tricks read off the
  lead table, so each layout is solved once);
- the baseline: endplay's ``solve_board`` (DDS SolveBoard, all cards) called layout by
  layout on the same layouts, the first ``--baseline`` of them (all by default),
  scaled to N.

The two are checked equal (mean tricks of every lead) before the figures print.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import endplay.dds as dds
import endplay.types as ep

import bridgescore as bs
from bridgescore.core import Strain
from bridgescore.postmortem.leads import lead_simulation
from bridgescore.postmortem.review import analyse

_DENOM = {
    Strain.SPADES: 0,
    Strain.HEARTS: 1,
    Strain.DIAMONDS: 2,
    Strain.CLUBS: 3,
    Strain.NOTRUMP: 4,
}
_LETTERS = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C"})

BOARDS = [
    (
        "3NT by South",
        "md|1SK98HA83DAQJ93CQT,SA7HKQ42DK5CJ7652,SJ54HT975DT82CAK8,|sv|e|ah|Board 3|"
        "mb|1N|mb|p|mb|3N|mb|p|mb|p|mb|p|pc|DK|mc|10|",
        "hcp(south) >= 15 && hcp(south) <= 17",
    ),
    (
        "4S by South",
        "md|1SAQJ964HK52DA4C83,SK3HQJ94DQJ62CKT5,ST82HA86DT983CA92,|sv|o|ah|Board 1|"
        "mb|1S|mb|p|mb|2S|mb|p|mb|4S|mb|p|mb|p|mb|p|pc|HQ|mc|10|",
        "spades(south) >= 6 && hcp(south) >= 12",
    ),
]


def baseline(board: bs.BoardReview, where: str, layouts: int, seed: int) -> dict[str, float]:
    """Declarer's mean tricks after each lead, endplay's SolveBoard layout by layout."""
    contract, leader = board.contract, board.lead.seat  # type: ignore[union-attr]
    assert contract is not None and contract.declarer is not None
    deals = bs.deal_many(
        layouts, seed=seed, where=where, predeal=[f"{leader.letter}={board.deal.hands[leader]}"]
    )
    sums: dict[str, int] = {}
    for deal in deals:
        endplay = ep.Deal(deal.to_pbn())
        endplay.trump = ep.Denom(_DENOM[contract.strain])
        endplay.first = ep.Player(int(contract.declarer.rotate(1)))
        for card, defence in dds.solve_board(endplay):
            name = str(card).translate(_LETTERS)
            sums[name] = sums.get(name, 0) + 13 - defence
    return {card: total / layouts for card, total in sums.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layouts", type=int, default=1000)
    parser.add_argument("--baseline", type=int, default=None, help="layouts for endplay's loop")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"load average at start {load:.2f}; {args.layouts} layouts per board")
    for name, lin, where in BOARDS:
        board = analyse(text=lin)[0]
        start = time.perf_counter()
        ours = lead_simulation(board, args.layouts, where=where, seed=args.seed)
        ours_time = time.perf_counter() - start
        assert ours is not None
        few = args.baseline or args.layouts
        start = time.perf_counter()
        theirs = baseline(board, where, few, args.seed)
        theirs_time = (time.perf_counter() - start) * args.layouts / few
        if few == args.layouts:
            for card, row in ours["leads"].items():
                assert abs(row["tricks"] - theirs[card]) < 1e-9, (card, row, theirs[card])
        scaled = "" if few == args.layouts else f" (timed on {few}, scaled)"
        print(
            f"{name}: ours {ours_time:.2f} s, endplay loop {theirs_time:.2f} s{scaled}, "
            f"ratio {theirs_time / ours_time:.2f}x"
        )


if __name__ == "__main__":
    main()
