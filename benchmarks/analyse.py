"""The play analysis of a session: ours against a loop of endplay's ``analyse_play``.

Usage: ``python benchmarks/analyse.py [--boards N] [--repeat R] [--seed S]``

A session of N boards (32 by default) is dealt from the seed; each is played in the
contract double dummy gives North-South's best strain at the level it makes (3NT
when nothing makes), every card a random legal one (seeded), so the plays hold
errors for the analysis to find. Timed in the same run, interleaved, best of R:

- ours: ``bridgescore.solver.play_tricks``, DDS's AnalyseAllPlays in batches on all
  cores, every card of every board;
- the baseline: endplay's ``analyse_play`` called board by board (DDS's AnalysePlay,
  one thread), the endplay deals built before the clock starts;
- the whole review, ``bs.analyse`` (DD tables, par, lead tables and the play), for
  reference.

The two play analyses are checked equal before anything is timed.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from collections.abc import Callable

import endplay.dds as dds
import endplay.types as ep

import bridgescore as bs
from bridgescore.core import Seat, Strain
from bridgescore.formats import BoardRecord
from bridgescore.solver import play_tricks

_DENOM = {
    Strain.SPADES: 0,
    Strain.HEARTS: 1,
    Strain.DIAMONDS: 2,
    Strain.CLUBS: 3,
    Strain.NOTRUMP: 4,
}


def best_of(repeat: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def session(boards: int, seed: int) -> list[BoardRecord]:
    """The boards, each with a contract and a whole random legal play."""
    rng = random.Random(seed)
    deals = bs.random_deals(boards, seed=seed)
    tables = bs.solve_many(deals)
    records = []
    for number, (deal, table) in enumerate(zip(deals, tables, strict=True), 1):
        strain = max(Strain, key=lambda s: table.tricks(Seat.SOUTH, s))
        level = table.tricks(Seat.SOUTH, strain) - 6
        contract = bs.Contract.parse(f"{level}{strain}S" if level >= 1 else "3NTS")
        play = bs.Play(deal, contract)
        while not play.is_complete:
            play.play(rng.choice(play.legal_cards()))
        records.append(
            BoardRecord(
                board=number,
                deal=deal,
                contract=contract,
                play=play.cards,
                result=play.declarer_tricks,
            )
        )
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=32)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    records = session(args.boards, args.seed)
    ours_input = []
    theirs_input = []
    for record in records:
        assert record.deal is not None and record.contract is not None and record.play
        declarer = record.contract.declarer
        assert declarer is not None
        ours_input.append((record.deal, record.contract.strain, declarer, record.play))
        deal = ep.Deal(record.deal.to_pbn())
        deal.trump = ep.Denom(_DENOM[record.contract.strain])
        deal.first = ep.Player(int(declarer.rotate(1)))
        theirs_input.append((deal, [str(card) for card in record.play]))

    def ours() -> list[tuple[int, ...]]:
        return play_tricks(ours_input)

    def theirs() -> list[tuple[int, ...]]:
        return [tuple(dds.analyse_play(deal, cards)) for deal, cards in theirs_input]

    assert ours() == theirs(), "the two play analyses differ"
    times: dict[str, list[float]] = {"ours": [], "endplay": [], "review": []}
    for _ in range(args.repeat):
        times["ours"].append(best_of(1, ours))
        times["endplay"].append(best_of(1, theirs))
        times["review"].append(best_of(1, lambda: bs.analyse(records)))
    best = {name: min(values) for name, values in times.items()}
    cards = sum(len(record.play or ()) for record in records)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.python_version()}")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{args.boards} boards, {cards} cards, best of {args.repeat}")
    print(f"  ours (AnalyseAllPlays, all cores):  {best['ours']:.3f} s")
    print(f"  endplay analyse_play, board by board: {best['endplay']:.3f} s")
    print(f"  ratio: {best['endplay'] / best['ours']:.2f}x")
    print(f"  the whole review (bs.analyse):      {best['review']:.3f} s")


if __name__ == "__main__":
    main()
