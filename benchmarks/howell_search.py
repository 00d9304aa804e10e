"""The search that found the small Howells stored in ``movement/howell.py`` (issue 33).

Run once; its output is pasted into the package as data, like the complete Howells'
starters and adders. Nothing in the package imports this file.

Four shapes, each built by the starter-adder method (pairs' numbers and board sets go up
by one a round, modulo the period) and then given directions (who sits NS at each table of
each round) by a randomised descent on the same-direction counts:

- 5 pairs, 2 tables, 5 rounds: the 6-pair design modulo 5 without pair 6; the two tables in
  play must play different sets and every pair a different set each round it plays.
  Goal: every two pairs on one set the same way (each set gives 2 such twos: 5 x 2 = 10 =
  C(5, 2)).
- 6 pairs, 3 tables, 5 rounds in half-sets: 10 half-sets, each table playing two of them a
  round, no half-set at two tables in a round. Goal: every two pairs on 4 half-sets the
  same way (10 half-sets x 6 twos = 60 = 4 x C(6, 2)).
- 9 pairs, 5-table design modulo 9 without pair 10. Goal: the least spread (the mean is
  3 sets: 9 sets x 12 twos / 36).
- 10 pairs, 8 rounds: modulo 8, pairs 9 and 10 stationary, moving tables at differences
  1, 2 and 3 (pairs four apart never meet, nor do 9 and 10); five tables on eight sets,
  so two tables share one set each round (a relay). Goal: counts of 3 and 4 sets only
  (8 sets x 20 twos = 160 over 45 twos).

Run: ``python benchmarks/howell_search.py [--seed N] [--shape 5|6|9|10|10-other]`` (about
a minute; ``10-other``, a check that other set assignments do no better for 10 pairs in
8 rounds, five minutes more).
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
from collections.abc import Iterator, Sequence

# A row: round (0-based), table (1-based), first pair, second pair, units (board sets or
# half-sets) it plays. Directions are a separate list of bits: True, the first pair is NS.
Row = tuple[int, int, int, int, tuple[int, ...]]


class Balance:
    """Same-direction counts of every two pairs, updated as rows change direction."""

    def __init__(self, rows: Sequence[Row], pairs: int, ns_first: list[bool]) -> None:
        self.rows = rows
        self.ns_first = ns_first
        self.players: dict[int, list[int]] = {}
        for index, row in enumerate(rows):
            for unit in row[4]:
                self.players.setdefault(unit, []).append(index)
        self.same = [[0] * (pairs + 1) for _ in range(pairs + 1)]
        for members in self.players.values():
            for first, second in itertools.combinations(members, 2):
                for pair_a, ns_a in self._seats(first):
                    for pair_b, ns_b in self._seats(second):
                        if ns_a == ns_b:
                            self._add(pair_a, pair_b, 1)

    def _seats(self, index: int) -> tuple[tuple[int, bool], tuple[int, bool]]:
        _, _, first, second, _ = self.rows[index]
        ns = self.ns_first[index]
        return ((first, ns), (second, not ns))

    def _add(self, a: int, b: int, step: int) -> None:
        self.same[a][b] += step
        self.same[b][a] += step

    def flip(self, index: int) -> None:
        for unit in self.rows[index][4]:
            for other in self.players[unit]:
                if other == index:
                    continue
                for pair_a, ns_a in self._seats(index):
                    for pair_b, ns_b in self._seats(other):
                        self._add(pair_a, pair_b, -1 if ns_a == ns_b else 1)
        self.ns_first[index] = not self.ns_first[index]

    def counts(self, pairs: Sequence[int]) -> list[int]:
        return [self.same[a][b] for a, b in itertools.combinations(pairs, 2)]


def _cost(values: list[int]) -> float:
    mean = sum(values) / len(values)
    return 100 * (max(values) - min(values)) + sum((v - mean) ** 2 for v in values)


def best_directions(
    rows: Sequence[Row], pairs: Sequence[int], rng: random.Random, tries: int, steps: int
) -> tuple[float, list[bool], list[int]]:
    """Directions for ``rows`` by simulated annealing: the least spread, then the least
    squared deviation, of the same-direction counts over every two of ``pairs``."""
    best: tuple[float, list[bool], list[int]] = (math.inf, [], [])
    for _ in range(tries):
        bits = [rng.random() < 0.5 for _ in rows]
        balance = Balance(rows, max(pairs), bits)
        cost = _cost(balance.counts(pairs))
        for step in range(steps):
            temperature = 20 * (1 - step / steps) + 0.01
            index = rng.randrange(len(rows))
            balance.flip(index)
            new = _cost(balance.counts(pairs))
            if new <= cost or rng.random() < math.exp((cost - new) / temperature):
                cost = new
                if cost < best[0]:
                    best = (cost, list(balance.ns_first), balance.counts(pairs))
            else:
                balance.flip(index)
        if best[2] and max(best[2]) - min(best[2]) <= 1 and best[0] < 100 + 1e-9:
            break
    return best


def cyclic_rows(
    period: int,
    fixed: Sequence[tuple[int, int]],
    moving: Sequence[tuple[int, int, int]],
    skip_pair: int | None = None,
) -> list[Row]:
    """The rows of a starter-adder design (as movement/howell.py builds them): ``fixed``
    (position, adder) per stationary pair (pairs period + 1, ...), ``moving`` (a, b,
    adder) per table of two moving pairs; a stationary ``skip_pair`` is left out."""
    rows: list[Row] = []
    for shift in range(period):
        for table, (a, b, adder) in enumerate(moving, start=1):
            rows.append(
                (
                    shift,
                    table,
                    (a + shift) % period + 1,
                    (b + shift) % period + 1,
                    ((adder + shift) % period,),
                )
            )
        for index, (position, adder) in enumerate(fixed):
            stationary = period + index + 1
            if stationary == skip_pair:
                continue
            rows.append(
                (
                    shift,
                    len(moving) + index + 1,
                    stationary,
                    (position + shift) % period + 1,
                    ((adder + shift) % period,),
                )
            )
    return rows


def starters(
    period: int, fixed: int, differences: Sequence[int]
) -> Iterator[tuple[list[int], list[tuple[int, int]]]]:
    """Positions of the stationary pairs' opponents and the moving tables' two positions,
    with the moving tables at the given differences (each used once)."""
    for chosen in itertools.permutations(range(period), fixed):
        rest = [p for p in range(period) if p not in chosen]

        def pairings(left: list[int], todo: list[int]) -> Iterator[list[tuple[int, int]]]:
            if not left:
                yield []
                return
            low = left[0]
            for high in left[1:]:
                d = (high - low) % period
                for want in todo:
                    if d in (want, period - want):
                        remaining = [p for p in left if p not in (low, high)]
                        others = [w for w in todo if w != want]
                        for tail in pairings(remaining, others):
                            yield [(low, high), *tail]

        for tables in pairings(rest, list(differences)):
            yield list(chosen), tables


def search_five_pairs(rng: random.Random) -> None:
    print("5 pairs: 2 tables, 5 rounds in half-sets (the 6-pair design without pair 6)")
    # Whole sets cannot do it: each set would be played by two tables of four pairs, and
    # every two pairs would need to meet once, sit the same way once and the other way once
    # over the three sets both play; no such labelling of K5's matchings exists.
    entries = [(c, h) for c in range(5) for h in range(2)]
    for chosen, tables in starters(5, 1, (1, 2)):
        if chosen[0] != 0:
            continue
        for first in itertools.permutations(entries, 4):
            if sum(h for _, h in first) != 2:
                continue
            table_entries = [first[0:2], first[2:4]]
            if any(e[0] > e[1] for e in table_entries):
                continue
            offsets = set()
            for (a, b), pair_entries in zip(tables, table_entries):
                for c, h in pair_entries:
                    offsets.add(((c - a) % 5, h))
                    offsets.add(((c - b) % 5, h))
            if len(offsets) != 8:
                continue
            rows: list[Row] = []
            for shift in range(5):
                for table, ((a, b), pair_entries) in enumerate(zip(tables, table_entries)):
                    units = tuple(2 * ((c + shift) % 5) + h for c, h in pair_entries)
                    rows.append((shift, table + 1, (a + shift) % 5 + 1, (b + shift) % 5 + 1, units))
            _, bits, counts = best_directions(rows, range(1, 6), rng, 10, 600)
            if max(counts) == min(counts) == 2:
                print("  starter", tables, "sit-out position", chosen[0], "entries", table_entries)
                _print_rows(rows, bits)
                return
    print("  none found")


def search_six_pairs_half_sets(rng: random.Random) -> None:
    print("6 pairs: 3 tables, 5 rounds, half-sets (unit 2s + h: set s, half h)")
    entries = [(c, h) for c in range(5) for h in range(2)]
    for chosen, tables in starters(5, 1, (1, 2)):
        if chosen[0] != 0:
            continue
        slots = [(chosen[0], None), *tables]  # the stationary table first
        for first in itertools.permutations(entries, 6):
            stationary = first[0:2]
            if stationary[0] != (0, 0) or stationary[1][1] != 1:
                continue
            if sum(h for _, h in first) != 3:
                continue
            table_entries = [first[0:2], first[2:4], first[4:6]]
            if any(e[0] > e[1] for e in table_entries):
                continue
            offsets = set()
            for (position, other), pair_entries in zip(slots, table_entries):
                for c, h in pair_entries:
                    offsets.add(((c - position) % 5, h))
                    if other is not None:
                        offsets.add(((c - other) % 5, h))
            if len(offsets) != 10:
                continue
            rows: list[Row] = []
            for shift in range(5):
                for table, ((a, b), pair_entries) in enumerate(
                    zip([(chosen[0], None), *tables], table_entries)
                ):
                    units = tuple(2 * ((c + shift) % 5) + h for c, h in pair_entries)
                    first_pair = 6 if b is None else (a + shift) % 5 + 1
                    second_pair = (a + shift) % 5 + 1 if b is None else (b + shift) % 5 + 1
                    rows.append((shift, table + 1, first_pair, second_pair, units))
            _, bits, counts = best_directions(rows, range(1, 7), rng, 10, 600)
            if max(counts) == min(counts) == 4:
                print("  starter", slots, "entries", table_entries)
                _print_rows(rows, bits)
                return
    print("  none found")


def search_nine_pairs(rng: random.Random) -> None:
    print("9 pairs: the 5-table design modulo 9 without pair 10")
    fixed = [(0, 0)]
    moving = [(1, 2, 5), (3, 7, 4), (4, 6, 2), (5, 8, 7)]  # movement/howell.py's 5 tables
    rows = cyclic_rows(9, fixed, moving, skip_pair=10)
    _, bits, counts = best_directions(rows, range(1, 10), rng, 40, 20000)
    print("  counts", min(counts), "to", max(counts), sorted(counts))
    _print_rows(rows, bits)


def search_ten_pairs_eight_rounds(rng: random.Random) -> None:
    print("10 pairs: 5 tables, 8 rounds, one relay")
    # Annealing every one of the 76 designs below (shorter runs, aiming at counts of 3
    # and 4 sets, then of 2 to 4 and of 3 to 5) never did better than 2 to 5 sets, so the
    # first design is kept: its relay is between the stationary pairs' tables 4 and 5.
    for chosen, tables in starters(8, 2, (1, 2, 3)):
        if chosen[0] != 0:
            continue
        slots = [(p, None) for p in chosen] + tables
        for adders in itertools.product(range(8), repeat=5):
            if adders[0] != 0 or len(set(adders)) != 4:
                continue
            offsets = set()
            for (a, b), c in zip(slots, adders):
                offsets.add((c - a) % 8)
                if b is not None:
                    offsets.add((c - b) % 8)
            if len(offsets) != 8:
                continue
            fixed = [(chosen[0], adders[0]), (chosen[1], adders[1])]
            moving = [(a, b, c) for (a, b), c in zip(tables, adders[2:])]
            rows = cyclic_rows(8, fixed, moving)
            _, bits, counts = best_directions(rows, range(1, 11), rng, 6, 20000)
            print("  fixed", fixed, "moving", moving, "counts", min(counts), "to", max(counts))
            _print_rows(rows, bits)
            return
    print("  none found")


def search_ten_pairs_other_sets(rng: random.Random, seconds: float = 300) -> None:
    """A check on the 8-round shape beyond the cyclic family: the pairs of the first 8
    rounds of movement/howell.py's 9-round 5-table Howell, board sets assigned at random
    by backtracking (each pair every set once, one shared set a round), then directions
    annealed. It printed 2 to 5 sets, like the cyclic designs."""
    import time

    from bridgescore.movement.howell import howell

    full = howell(tables=5, boards_per_round=1)
    schedule = [(r.round - 1, r.table, int(r.ns), int(r.ew)) for r in full.rows if r.round <= 8]
    by_round = [[i for i, row in enumerate(schedule) if row[0] == r] for r in range(8)]

    def assign() -> list[int] | None:
        seen: dict[int, set[int]] = {pair: set() for pair in range(1, 11)}
        count = [0] * 8
        chosen = [0] * len(schedule)
        budget = [0]

        def place(round_index: int, k: int, used: list[int]) -> bool:
            budget[0] += 1
            if budget[0] > 20000:
                return False
            if round_index == 8:
                return True
            rows = by_round[round_index]
            if k == len(rows):
                return len(set(used)) == 4 and place(round_index + 1, 0, [])
            index = rows[k]
            _, _, a, b = schedule[index]
            for board_set in rng.sample(range(8), 8):
                if board_set in seen[a] or board_set in seen[b] or count[board_set] >= 5:
                    continue
                if board_set in used and len(used) != len(set(used)):
                    continue
                seen[a].add(board_set)
                seen[b].add(board_set)
                count[board_set] += 1
                chosen[index] = board_set
                if place(round_index, k + 1, [*used, board_set]):
                    return True
                seen[a].discard(board_set)
                seen[b].discard(board_set)
                count[board_set] -= 1
            return False

        return chosen if place(0, 0, []) else None

    print("10 pairs, 8 rounds, other set assignments")
    start, best = time.monotonic(), (99, 0)
    while time.monotonic() - start < seconds:
        sets = assign()
        if sets is None:
            continue
        rows: list[Row] = [(r, t, a, b, (u,)) for (r, t, a, b), u in zip(schedule, sets)]
        _, _, counts = best_directions(rows, range(1, 11), rng, 3, 15000)
        if max(counts) - min(counts) < best[0]:
            best = (max(counts) - min(counts), min(counts))
            print("  counts", min(counts), "to", max(counts))


def _print_rows(rows: Sequence[Row], bits: Sequence[bool]) -> None:
    for (shift, table, first, second, units), ns_first in zip(rows, bits):
        ns, ew = (first, second) if ns_first else (second, first)
        print(f"    ({shift + 1}, {table}, {ns}, {ew}, {units}),")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--shape", choices=("5", "6", "9", "10", "10-other"), action="append")
    options = parser.parse_args()
    rng = random.Random(options.seed)
    shapes = options.shape or ["5", "6", "9", "10"]
    searches = {
        "5": search_five_pairs,
        "6": search_six_pairs_half_sets,
        "9": search_nine_pairs,
        "10": search_ten_pairs_eight_rounds,
        "10-other": search_ten_pairs_other_sets,
    }
    for shape in shapes:
        searches[shape](rng)


if __name__ == "__main__":
    main()
