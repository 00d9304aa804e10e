"""Scoring a big event: array forms against a naive pure-Python loop, in the same run.

An event of BOARDS boards with RESULTS results each (default 1,000 x 50) is scored
in every method: matchpoints (plain and Neuberg'd), Butler IMPs, cross-IMPs, and
for teams IMPs and board-a-match (RESULTS / 2 matches a board). The baseline is
the direct reading of the rules: compare every pair of scores in Python loops.
Both answers are checked equal before timing is reported. Also times
``score_event`` on the same pairs event in matchpoints (50,000 table results,
contracts scored by Law 77, travellers and rankings built) and on a teams event
of the same size in IMPs, each against a naive loop that scores every contract
and sums the totals.

    .venv/bin/python benchmarks/session.py [--boards 1000] [--results 50] [--repeat 3]
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from bridgescore.compare.array import (
    board_a_match_array,
    butler_imps_array,
    cross_imps_array,
    imps_array,
    matchpoints_array,
)
from bridgescore.compare.scalar import IMP_THRESHOLDS
from bridgescore.session.scoring.event import Event, TableResult
from bridgescore.session.scoring.scorer import score_event

# ------------------------------------------------------------------ naive forms


def naive_imps(difference: float) -> int:
    size = 0
    for bound in IMP_THRESHOLDS:
        if abs(difference) > bound:
            size += 1
    return size if difference >= 0 else -size


def naive_mp(scores: list[int]) -> list[float]:
    out = []
    for i, s in enumerate(scores):
        mp = 0
        for j, t in enumerate(scores):
            if i != j:
                mp += 2 if s > t else 1 if s == t else 0
        out.append(float(mp))
    return out


def naive_neuberg(scores: list[int], expected: int) -> list[float]:
    n = len(scores)
    out = []
    for mp in naive_mp(scores):
        value = ((mp + 1) * expected / n - 1) * 10
        out.append(float(int(value + 0.5 + 1e-9)) / 10)
    return out


def naive_butler(scores: list[int]) -> list[int]:
    kept = sorted(scores)[1:-1]
    mean = sum(kept) / len(kept)
    datum = int(abs(mean) / 10 + 0.5) * 10 * (1 if mean >= 0 else -1)
    return [naive_imps(s - datum) for s in scores]


def naive_cross(scores: list[int]) -> list[float]:
    n = len(scores)
    return [
        sum(naive_imps(s - t) for j, t in enumerate(scores) if j != i) / (n - 1)
        for i, s in enumerate(scores)
    ]


def naive_teams(a: list[int], b: list[int]) -> list[int]:
    return [naive_imps(x - y) for x, y in zip(a, b, strict=True)]


def naive_bam(a: list[int], b: list[int]) -> list[float]:
    return [1.0 if x > y else 0.5 if x == y else 0.0 for x, y in zip(a, b, strict=True)]


# ---------------------------------------------------------------------- timing


def best_of(repeat: int, function: Callable[[], Any]) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


CONTRACTS = ["4SN", "3NTS", "2HE", "4HW", "1NTN", "5DXE", "3CS"]


def random_result(rng: np.random.Generator) -> str:
    contract = CONTRACTS[int(rng.integers(len(CONTRACTS)))]
    relative = int(rng.integers(-3, 8 - int(contract[0])))
    return contract + ("=" if relative == 0 else f"{relative:+d}")


def make_event(boards: int, results: int, rng: np.random.Generator) -> Event:
    rows = [
        TableResult.played(board, f"N{table}", f"E{table}", random_result(rng))
        for board in range(1, boards + 1)
        for table in range(results)
    ]
    return Event("benchmark", "pairs", results=tuple(rows))


def make_teams_event(boards: int, results: int, rng: np.random.Generator) -> Event:
    """results / 2 matches a board: team Hk against team Vk, each team NS at one table."""
    rows = []
    for board in range(1, boards + 1):
        for match in range(results // 2):
            home, visitors = f"H{match}", f"V{match}"
            rows.append(TableResult.played(board, home, visitors, random_result(rng)))
            rows.append(TableResult.played(board, visitors, home, random_result(rng)))
    return Event("benchmark teams", "teams", results=tuple(rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--results", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=8)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    n, boards = args.results, args.boards
    # Realistic NS scores: multiples of 10 with many ties.
    table = (rng.integers(-80, 160, size=(boards, n)) * 10).astype(np.int64)
    rows = table.tolist()
    half = n // 2
    home, away = table[:, :half], table[:, half : 2 * half]
    expected = n + 2

    cases: list[tuple[str, Callable[[], Any], Callable[[], Any], Callable[[Any, Any], bool]]] = [
        (
            "matchpoints",
            lambda: [naive_mp(r) for r in rows],
            lambda: matchpoints_array(table),
            lambda a, b: np.array_equal(np.array(a), b),
        ),
        (
            "matchpoints, Neuberg",
            lambda: [naive_neuberg(r, expected) for r in rows],
            lambda: matchpoints_array(table, expected=expected),
            lambda a, b: np.allclose(np.array(a), b),
        ),
        (
            "Butler IMPs",
            lambda: [naive_butler(r) for r in rows],
            lambda: butler_imps_array(table),
            lambda a, b: np.array_equal(np.array(a), b),
        ),
        (
            "cross-IMPs",
            lambda: [naive_cross(r) for r in rows],
            lambda: cross_imps_array(table),
            lambda a, b: np.allclose(np.array(a), b),
        ),
        (
            "teams IMPs",
            lambda: [naive_teams(a, b) for a, b in zip(home.tolist(), away.tolist(), strict=True)],
            lambda: imps_array(home - away),
            lambda a, b: np.array_equal(np.array(a), b),
        ),
        (
            "board-a-match",
            lambda: [naive_bam(a, b) for a, b in zip(home.tolist(), away.tolist(), strict=True)],
            lambda: board_a_match_array(home, away),
            lambda a, b: np.array_equal(np.array(a), b),
        ),
    ]
    print(
        f"Event: {boards} boards x {n} results; best of {args.repeat}; "
        f"Python {platform.python_version()}, numpy {np.__version__}"
    )
    print(f"{'method':<22}{'naive loop':>12}{'bridgescore':>13}{'speed-up':>10}")
    for name, naive, ours, same in cases:
        naive_time, naive_result = best_of(args.repeat, naive)
        our_time, our_result = best_of(args.repeat, ours)
        assert same(naive_result, our_result), f"{name}: results differ"
        print(
            f"{name:<22}{naive_time * 1000:>10.1f}ms{our_time * 1000:>11.1f}ms"
            f"{naive_time / our_time:>9.1f}x"
        )

    # Whole events: travellers and rankings built too, so the loops are the baseline.
    # Rounds interleave the two, so a busy machine slows both alike; the ratio is the
    # median of the rounds' ratios, the times the best of the rounds.
    print()
    whole: list[tuple[str, Event, str, Callable[[Event], dict[str, float]]]] = [
        ("matchpoints", make_event(boards, n, rng), "mp", naive_event),
        ("teams IMPs", make_teams_event(boards, n, rng), "imps", naive_teams_event),
    ]
    for name, event, method, naive_totals_of in whole:
        naive_totals = naive_totals_of(event)
        scored = score_event(event, method)
        totals = {s.name: s.total for s in scored.standings}
        assert all(abs(totals[k] - v) < 1e-6 for k, v in naive_totals.items()), name
        rounds = []
        for _ in range(max(args.repeat, 3)):
            naive_time, _ = best_of(1, partial(naive_totals_of, event))
            event_time, _ = best_of(1, partial(score_event, event, method))
            lines_time, _ = best_of(1, partial(every_line, event, method))
            rounds.append((naive_time, event_time, lines_time))
        naive_best = min(r[0] for r in rounds)
        event_best = min(r[1] for r in rounds)
        lines_best = min(r[2] for r in rounds)
        ratio = float(np.median([r[0] / r[1] for r in rounds]))
        lines_ratio = float(np.median([r[0] / r[2] for r in rounds]))
        print(
            f"whole event, {name} ({len(event.results)} contracts scored by Law 77): naive "
            f"loop {naive_best * 1000:.0f} ms, score_event {event_best * 1000:.0f} ms "
            f"(travellers and rankings), {ratio:.1f}x (target >= 5); every traveller line "
            f"made too {lines_best * 1000:.0f} ms, {lines_ratio:.1f}x"
        )
    club_session(args.repeat)


def every_line(event: Event, method: str) -> int:
    """score_event, then every traveller's lines made (as a report reads them)."""
    return sum(len(t.lines) for t in score_event(event, method).travellers)


def club_session(repeat: int) -> None:
    """A club night's ranking, recomputed as a live session does after every result: 30
    tables x 27 boards (810 results), from the event file and from the Event in memory."""
    import tempfile

    from bridgescore.session.store.events import EventStore, Origin
    from bridgescore.session.workflow import score_stored_event

    rng = np.random.default_rng(30)
    event = make_event(27, 30, rng)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "club.db"
        with EventStore(path) as store:
            store.add([], [(result, Origin("benchmark", 0)) for result in event.results])

        def from_file() -> object:
            with EventStore(path, mode="read") as store:
                return score_stored_event(store, "mp")

        file_time, _ = best_of(max(repeat, 5), from_file)
    memory_time, _ = best_of(max(repeat, 5), partial(score_event, event, "mp"))
    print(
        f"club session, 30 tables x 27 boards ({len(event.results)} results), matchpoints: "
        f"score_event {memory_time * 1000:.1f} ms; read from the event file and scored "
        f"{file_time * 1000:.1f} ms (a live ranking after each result)"
    )


def naive_event(event: Event) -> dict[str, float]:
    """Score an event the plain way: each result by Law 77, each board by naive_mp."""
    boards: dict[int, list[TableResult]] = {}
    for result in event.results:
        boards.setdefault(result.board, []).append(result)
    totals: dict[str, float] = {}
    for results in boards.values():
        scores = [r.ns_score() or 0 for r in results]
        top = 2 * (len(scores) - 1)
        for result, mp in zip(results, naive_mp(scores), strict=True):
            totals[result.ns] = totals.get(result.ns, 0.0) + mp
            totals[result.ew] = totals.get(result.ew, 0.0) + top - mp
    return totals


def naive_teams_event(event: Event) -> dict[str, float]:
    """Score a teams event the plain way: each table against the other table of its match."""
    tables = {(r.board, r.ns, r.ew): r.ns_score() or 0 for r in event.results}
    totals: dict[str, float] = {}
    for (board, ns, ew), score in tables.items():
        won = naive_imps(score - tables[(board, ew, ns)])
        # Each table counts for its NS team; the other table counts for the other team.
        totals[ns] = totals.get(ns, 0.0) + won
    return totals


if __name__ == "__main__":
    main()
