"""The first perfect matching in a ranking order: the search under every Swiss draw.

A Swiss draw pairs teams top-down and, when the plain draw would repeat a meeting,
backtracks from the bottom. Backtracking by hand (undo the lowest choice, try the next
opponent) finds the pairing whose first team's opponent ranks as high as possible,
then the next free team's, and so on: the lexicographically first perfect matching in
ranking order. Done literally, that search is exponential when no draw exists or when
the dead end is found late (60 teams can keep it busy for ever), so this module asks
the question the backtracking asks, "can the rest still be paired?", of Edmonds'
blossom algorithm instead: each answer is one augmenting-path search, polynomial in
the number of teams, and a draw needs at most one search per (team, opponent) tried.

:func:`first_perfect_matching` returns the matching and how many searches it took, so
that tests can bound the work without timing anything.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

__all__ = ["first_perfect_matching"]

_NONE = -1


class _Graph:
    """Teams by index 0..n-1 (ranking order); ``mate`` is the current matching; only
    ``alive`` vertices take part (the bye and the pairs already fixed are out)."""

    def __init__(self, allowed: list[list[int]]) -> None:
        self.allowed = allowed
        self.size = len(allowed)
        self.mate = [_NONE] * self.size
        self.alive = [True] * self.size
        self.searches = 0

    def augment(self, root: int) -> bool:
        """Edmonds' search for an augmenting path from the exposed ``root``; flips it
        into ``mate`` and answers True when found, leaves ``mate`` alone otherwise."""
        self.searches += 1
        size, mate, alive = self.size, self.mate, self.alive
        parent = [_NONE] * size
        base = list(range(size))
        used = [False] * size
        used[root] = True
        queue = deque([root])

        def common_base(a: int, b: int) -> int:
            seen = [False] * size
            while True:
                a = base[a]
                seen[a] = True
                if mate[a] == _NONE:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[mate[b]]

        def mark(v: int, top: int, child: int, blossom: list[bool]) -> None:
            while base[v] != top:
                blossom[base[v]] = blossom[base[mate[v]]] = True
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        while queue:
            v = queue.popleft()
            for to in self.allowed[v]:
                if not alive[to] or base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != _NONE and parent[mate[to]] != _NONE):
                    # An odd cycle: shrink it into its base and go on from all of it.
                    top = common_base(v, to)
                    blossom = [False] * size
                    mark(v, top, to, blossom)
                    mark(to, top, v, blossom)
                    for i in range(size):
                        if alive[i] and blossom[base[i]]:
                            base[i] = top
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == _NONE:
                    parent[to] = v
                    if mate[to] == _NONE:
                        while to != _NONE:
                            previous = parent[to]
                            onward = mate[previous]
                            mate[to], mate[previous] = previous, to
                            to = onward
                        return True
                    used[mate[to]] = True
                    queue.append(mate[to])
        return False

    def complete(self) -> bool:
        """Match every alive vertex, or answer False when no perfect matching exists.
        One failed search settles it: when no augmenting path starts at an exposed
        vertex, some maximum matching leaves that vertex exposed, so none is perfect."""
        for v in range(self.size):
            if not self.alive[v] or self.mate[v] != _NONE:
                continue
            for to in self.allowed[v]:  # the greedy first guess saves searches
                if self.alive[to] and self.mate[to] == _NONE:
                    self.mate[v], self.mate[to] = to, v
                    break
        return all(
            self.mate[v] != _NONE or self.augment(v) for v in range(self.size) if self.alive[v]
        )


def first_perfect_matching(
    count: int, may_meet: Callable[[int, int], bool], *, leave_out: int | None = None
) -> tuple[tuple[tuple[int, int], ...] | None, int]:
    """Pair ``0 .. count - 1`` (ranking order, best first; ``leave_out`` sits out) so
    that the best free one meets the best opponent that still lets the rest be paired,
    then the next free one, and so on. ``may_meet(a, b)`` says whether two may meet.

    Returns the pairs (higher-ranked first, in drawing order), or None when no pairing
    exists, and the number of augmenting-path searches it took (at most one per
    vertex, then one per opponent passed over or taken: below ``count ** 2``).

    >>> first_perfect_matching(4, lambda a, b: {a, b} != {2, 3})[0]
    ((0, 2), (1, 3))
    >>> first_perfect_matching(4, lambda a, b: 0 not in (a, b))
    (None, 1)
    """
    allowed = [[b for b in range(count) if b != a and may_meet(a, b)] for a in range(count)]
    graph = _Graph(allowed)
    if leave_out is not None:
        graph.alive[leave_out] = False
    if not graph.complete():
        return None, graph.searches
    pairs: list[tuple[int, int]] = []
    for best in range(count):
        if not graph.alive[best]:
            continue
        graph.alive[best] = False
        for opponent in allowed[best]:  # in ranking order
            if not graph.alive[opponent]:
                continue
            partner, opponents_partner = graph.mate[best], graph.mate[opponent]
            if partner != opponent:
                # Take best-opponent out: their old partners are left exposed, and the
                # rest is pairable exactly when a path joins those two.
                graph.alive[opponent] = False
                graph.mate[partner] = graph.mate[opponents_partner] = _NONE
                if not graph.augment(partner):
                    graph.alive[opponent] = True
                    graph.mate[partner], graph.mate[opponents_partner] = best, opponent
                    continue
            graph.alive[opponent] = False
            graph.mate[best], graph.mate[opponent] = opponent, best
            pairs.append((best, opponent))
            break
    return tuple(pairs), graph.searches
