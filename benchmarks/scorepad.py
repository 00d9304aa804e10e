"""Long scorepads: the rubber and Chicago pads' running tally against recounting.

A rubber pad never ends while deals are passed out or contracts go down, and a
Chicago round never ends while deals are passed out. The pads keep a running tally
(games won, points below the line, deals played), so each deal recorded costs the
same. The baseline is the naive way, written here: give the public
``rubber_entry()`` / ``chicago_entry()`` every earlier deal for each new one, and
``score_rubber_history_tag()`` every earlier deal for each PBN history tag, as the
pads did before. Both ways are checked equal before the times are printed.

1. Rubber: ``--deals`` deals, passed out and one down by turns, then NS make two
   games; recorded on a ``RubberScore`` with its PBN tags.
2. Chicago: ``--deals`` passed-out deals, then the four deals of the round.

Run: ``python benchmarks/scorepad.py [--deals N]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from typing import TypeVar

import bridgescore as bs
from bridgescore.pads.chicago import ChicagoScore, chicago_entry
from bridgescore.pads.rubber import RubberScore, rubber_entry
from bridgescore.pads.scorepad import Entry, score_rubber_history_tag

T = TypeVar("T")
Deal = tuple[bs.Result, bs.Side | None]

PASS = bs.Result.parse("Pass")


def best_of(repeats: int, work: Callable[[], T]) -> tuple[float, T]:
    """The fastest of several timings (the least disturbed by the machine) and a result."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        value = work()
        times.append(time.perf_counter() - start)
    return min(times), value


def rubber_deals(n: int) -> list[Deal]:
    down = bs.Result.parse("4S-1")
    deals: list[Deal] = [(PASS, None) if i % 2 else (down, bs.Side.NS) for i in range(n)]
    game = bs.Result.parse("4S=")
    return [*deals, (game, bs.Side.NS), (game, bs.Side.NS)]


def rubber_tallied(deals: list[Deal]) -> tuple[list[Entry], list[str]]:
    pad = RubberScore(first_dealer=bs.Seat.NORTH)
    for result, side in deals:
        pad.record(result, side)
    return list(pad.entries), [tags["ScoreRubberHistory"] for tags in pad.pbn_tags()]


def rubber_recounted(deals: list[Deal]) -> tuple[list[Entry], list[str]]:
    entries: list[Entry] = []
    for result, side in deals:
        entries.append(rubber_entry(entries, result, side, first_dealer=bs.Seat.NORTH))
    history = [score_rubber_history_tag(entries[:i], e.game) for i, e in enumerate(entries)]
    return entries, history


def chicago_deals(n: int) -> list[Deal]:
    played: list[Deal] = [
        (bs.Result.parse(text), side)
        for text, side in (
            ("2S=", bs.Side.NS),
            ("2H=", bs.Side.NS),
            ("1NT=", bs.Side.EW),
            ("1C=", bs.Side.EW),
        )
    ]
    passed_out: list[Deal] = [(PASS, None)] * n
    return passed_out + played


def chicago_tallied(deals: list[Deal]) -> list[Entry]:
    pad = ChicagoScore()
    for result, side in deals:
        pad.record(result, side)
    return list(pad.entries)


def chicago_recounted(deals: list[Deal]) -> list[Entry]:
    entries: list[Entry] = []
    for result, side in deals:
        entries.append(chicago_entry(entries, result, side))
    return entries


def compare(name: str, n: int, ours: Callable[[], T], naive: Callable[[], T]) -> None:
    t_ours, value = best_of(3, ours)
    t_naive, expected = best_of(3, naive)
    if value != expected:
        raise SystemExit(f"{name}: the pad and the recount disagree")
    print(f"{name}, {n:,} deals (identical entries):")
    print(f"  running tally   {t_ours * 1e3:9.1f} ms  {t_ours / n * 1e6:6.2f} us/deal")
    print(f"  naive recount   {t_naive * 1e3:9.1f} ms  {t_naive / n * 1e6:6.2f} us/deal")
    print(f"  ratio: the running tally is {t_naive / t_ours:.0f}x faster\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=5_000, help="deals that do not end the pad")
    args = parser.parse_args()
    print(
        f"bridgescore {bs.__version__} on {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}\n"
    )
    rubber = rubber_deals(args.deals)
    compare(
        "rubber pad with PBN tags",
        len(rubber),
        lambda: rubber_tallied(rubber),
        lambda: rubber_recounted(rubber),
    )
    chicago = chicago_deals(args.deals)
    compare(
        "Chicago round",
        len(chicago),
        lambda: chicago_tallied(chicago),
        lambda: chicago_recounted(chicago),
    )


if __name__ == "__main__":
    main()
