"""Howell movements: every pair meets every other (complete) or as many as the rounds allow.

A Howell for ``T`` tables has ``2T`` pairs and, when complete, ``2T - 1`` rounds and
``2T - 1`` board sets: each pair meets every other pair once and plays every board set
once, so every board is played ``T`` times.

How it is built (the starter-adder method over the integers modulo ``R``, the number of
rounds): pairs ``1..R`` move, pairs ``R+1..2T`` stay at their tables. A *starter* for
round 1 puts the moving pairs either opposite a stationary pair or opposite each other;
each round every moving pair's number (and every table's board set) goes up by one,
modulo ``R``. The differences between the two pairs at a table are all different, so no
two pairs ever meet twice; the *adders* (the board set of each table in round 1) are
chosen so that each pair meets every board set exactly once. Directions (who sits NS) are
one bit per starter table.

Complete Howells, 2-8 tables (the designs in ``_COMPLETE``, found by an exhaustive search
over starters, adders and direction bits, in the order of :func:`_designs`, for the design
whose same-direction comparison counts spread least):

========  ======  ==================================================================
 tables   rounds  balance (board sets on which two pairs sit the same way)
========  ======  ==================================================================
 2        3       every two pairs: 1 of 3 (both tables share one set each round)
 3        5       1 to 3 of 5, mean 2 (all three tables share one set each round)
 4        7       every two pairs: 3 of 7 (balanced)
 5        9       3 to 5 of 9, mean 4
 6        11      every two pairs: 5 of 11 (balanced)
 7        13      5 to 7 of 13, mean 6
 8        15      every two pairs: 7 of 15 (balanced)
========  ======  ==================================================================

Two pairs are *compared* on a board when both play it; in a complete Howell every two
pairs play every board, on ``T - 1`` sets the same way round when the Howell is balanced.
In whole sets such a balance needs ``2T`` to be a multiple of four (the direction signs
of the pairs would form a Hadamard matrix), so 3, 5 and 7 tables cannot reach it.

Two and three tables cannot give each table its own whole board set every round (no Room
square of side 3 or 5 exists). With an even number of boards a round, 5 and 6 pairs play
in half-sets (``_HALF_SET_ROWS``: each table two half-sets a round, none at two tables at
once) and are balanced: every two pairs sit the same way on 2 half-sets (5 pairs) or 4
(6 pairs). Otherwise their tables share one set in each round: a relay, listed honestly
as the same boards at several tables. Nine pairs have directions of their own (2 to 4
sets the same way, against 2 to 5 for the 10-pair directions without pair 10), and 10
pairs may play 8 rounds with a relay (:data:`SHORT_HOWELLS`). These were found by
benchmarks/howell_search.py.

From 9 tables the Howell is a 3/4 Howell: ``R = round(3 (2T - 1) / 4)`` rounds (ties up,
so 9 tables: 13 rounds, 10: 14, 12: 17, 15: 22), ``R`` board sets, ``2T - R`` stationary
pairs. Every pair meets ``R`` different pairs (the most ``R`` rounds allow, none twice)
and plays every board set once; the stationary pairs do not meet each other. Its starter
and adders are searched for when it is built (:func:`_designs`, the first found); its
directions by a descent that swaps who sits NS at one table in one round while that
brings the same-direction counts closer together (docs/howell.md gives the spreads).

An odd number of pairs (``2T - 1``) plays the movement of ``2T`` pairs without pair
``2T``: its opponent of each round sits out, and its table (the last) is not used.
``rounds=`` plays only the first rounds of the movement.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from bridgescore.errors import InvalidArgumentError, MovementError
from bridgescore.movement.model import Movement, Row, Sitout
from bridgescore.validate import whole_number_arg

__all__ = [
    "COMPLETE_TABLES",
    "MAX_TABLES",
    "SHORT_HOWELLS",
    "howell",
    "howell_round_choices",
    "howell_rounds",
    "nine_pairs_filled",
    "plays_in_half_sets",
]

#: Up to this many tables the Howell is complete; from one more it is a 3/4 Howell.
COMPLETE_TABLES = 8
#: The largest Howell built (its starter search stays quick up to here).
MAX_TABLES = 15


@dataclass(frozen=True)
class _Design:
    """A starter-adder design modulo ``rounds``.

    ``fixed``: (position, adder, stationary pair sits NS) per stationary pair;
    ``moving``: (position a, position b, adder, pair at a sits NS) per table of two
    moving pairs. A position is a moving pair's number minus one in round 1.
    """

    rounds: int
    fixed: tuple[tuple[int, int, bool], ...]
    moving: tuple[tuple[int, int, int, bool], ...]
    #: (round - 1, table) of the rows whose directions are swapped from the cyclic ones.
    flipped: frozenset[tuple[int, int]] = frozenset()


# Found by the exhaustive search described in the module docstring (starters and adders in
# the order _designs yields them, every choice of direction bits; the stationary pair sits
# NS): the first design with the least spread of same-direction counts, and among those the
# least sum of squared deviations from the mean. For 2 and 3 tables _designs finds none
# (no Room square of side 3 or 5), so the search let tables share adders: the only
# designs then put every table on the round's one set. tests/movement/test_howell.py states each
# size's counts from the balance argument, independently of this table.
_COMPLETE: dict[int, _Design] = {
    2: _Design(3, ((0, 0, True),), ((1, 2, 0, False),)),
    3: _Design(5, ((0, 0, True),), ((1, 4, 0, False), (2, 3, 0, False))),
    4: _Design(7, ((0, 0, True),), ((1, 3, 2, False), (2, 6, 4, False), (4, 5, 1, False))),
    5: _Design(
        9,
        ((0, 0, True),),
        ((1, 2, 5, False), (3, 7, 4, False), (4, 6, 2, False), (5, 8, 7, False)),
    ),
    6: _Design(
        11,
        ((0, 0, True),),
        (
            (1, 2, 3, False),
            (3, 6, 9, False),
            (4, 8, 1, False),
            (5, 10, 4, False),
            (7, 9, 5, True),
        ),
    ),
    7: _Design(
        13,
        ((0, 0, True),),
        (
            (1, 2, 3, False),
            (3, 6, 9, False),
            (4, 11, 2, False),
            (5, 9, 1, True),
            (7, 12, 6, False),
            (8, 10, 5, False),
        ),
    ),
    8: _Design(
        15,
        ((0, 0, True),),
        (
            (1, 2, 3, False),
            (3, 5, 1, False),
            (4, 12, 7, False),
            (6, 10, 14, True),
            (7, 13, 12, False),
            (8, 11, 2, False),
            (9, 14, 6, False),
        ),
    ),
}


# Found by benchmarks/howell_search.py (issue 33). Half-set movements, one row per table
# and round: (round, table, NS, EW, half-sets), half-set k being the k-th run of
# boards_per_round / 2 boards (set s of the round's boards is half-sets 2s - 2 and 2s - 1).
# 5 pairs, 2 tables: each half-set is played at two tables and every two pairs sit the
# same way on two half-sets (whole sets cannot do it: see the search's notes). 6 pairs,
# 3 tables: each half-set at three tables, no two tables on one half-set in a round, and
# every two pairs the same way on four half-sets. Pair 6 stays at table 3.
_HALF_SET_ROWS: dict[int, tuple[tuple[int, int, int, int, tuple[int, int]], ...]] = {
    5: (
        (1, 1, 5, 2, (0, 2)),
        (1, 2, 3, 4, (1, 5)),
        (2, 1, 1, 3, (2, 4)),
        (2, 2, 4, 5, (3, 7)),
        (3, 1, 2, 4, (4, 6)),
        (3, 2, 5, 1, (5, 9)),
        (4, 1, 3, 5, (6, 8)),
        (4, 2, 1, 2, (7, 1)),
        (5, 1, 1, 4, (8, 0)),
        (5, 2, 3, 2, (9, 3)),
    ),
    6: (
        (1, 1, 2, 5, (4, 6)),
        (1, 2, 4, 3, (3, 9)),
        (1, 3, 1, 6, (0, 1)),
        (2, 1, 1, 3, (6, 8)),
        (2, 2, 5, 4, (5, 1)),
        (2, 3, 6, 2, (2, 3)),
        (3, 1, 2, 4, (8, 0)),
        (3, 2, 1, 5, (7, 3)),
        (3, 3, 6, 3, (4, 5)),
        (4, 1, 3, 5, (0, 2)),
        (4, 2, 1, 2, (9, 5)),
        (4, 3, 4, 6, (6, 7)),
        (5, 1, 1, 4, (2, 4)),
        (5, 2, 3, 2, (1, 7)),
        (5, 3, 5, 6, (8, 9)),
    ),
}

# 9 pairs: the 5-table design without pair 10, its directions chosen for the nine pairs
# present (benchmarks/howell_search.py): every two pairs the same way on 2 to 4 sets.
_NINE_PAIRS = _Design(
    9,
    _COMPLETE[5].fixed,
    _COMPLETE[5].moving,
    frozenset(
        {
            (0, 1), (0, 2), (1, 1), (1, 2), (1, 3), (2, 2), (2, 4), (3, 1), (4, 1),
            (4, 3), (4, 4), (5, 1), (5, 3), (5, 4), (8, 2), (8, 3), (8, 4),
        }
    ),
)  # fmt: skip

# 10 pairs in 8 rounds (benchmarks/howell_search.py): modulo 8, pairs 9 and 10 stationary
# at tables 4 and 5, which share the round's set (a relay between them); pairs four apart
# and pairs 9 and 10 never meet; each of the 8 sets is played at all five tables. Every
# two pairs sit the same way on 2 to 5 sets (the search found no spread of 2 here).
_TEN_PAIRS_EIGHT_ROUNDS = _Design(
    8,
    ((0, 0, True), (2, 0, True)),
    ((1, 3, 4, True), (4, 7, 6, True), (5, 6, 2, True)),
    frozenset(
        {
            (0, 1), (0, 2), (0, 5), (1, 1), (1, 2), (1, 5), (2, 1), (2, 3), (3, 1), (3, 2),
            (4, 3), (4, 4), (5, 1), (5, 2), (5, 5), (6, 1), (6, 3), (7, 3), (7, 5),
        }
    ),
)  # fmt: skip

#: Howells of fewer rounds than the complete one, each its own design: tables -> rounds.
SHORT_HOWELLS = {5: 8}


def howell_rounds(tables: int) -> int:
    """The rounds of the Howell for ``tables`` tables of pairs (``2 * tables`` pairs):
    ``2T - 1`` up to 8 tables, ``round(3 (2T - 1) / 4)`` (ties up) from 9.

    >>> [howell_rounds(t) for t in (4, 8, 9, 10, 15)]
    [7, 15, 13, 14, 22]
    """
    tables = whole_number_arg(tables, "tables", 2, MAX_TABLES)
    full = 2 * tables - 1
    return full if tables <= COMPLETE_TABLES else (3 * full + 2) // 4


def plays_in_half_sets(pairs: int, boards_per_round: int) -> bool:
    """Whether the Howell of ``pairs`` pairs and ``boards_per_round`` boards a round plays
    in half-sets: 5 or 6 pairs, an even number of boards.

    >>> plays_in_half_sets(6, 4), plays_in_half_sets(6, 3), plays_in_half_sets(8, 4)
    (True, False, False)
    """
    return pairs in _HALF_SET_ROWS and boards_per_round % 2 == 0


def howell_round_choices(tables: int) -> tuple[int, ...]:
    """Every number of rounds a Howell of ``tables`` tables is built for, played to its
    end: :func:`howell_rounds`, and 8 for 5 tables (with a relay).

    >>> howell_round_choices(5), howell_round_choices(4)
    ((9, 8), (7,))
    """
    full = howell_rounds(tables)
    short = SHORT_HOWELLS.get(tables)
    return (full,) if short is None else (full, short)


def howell(
    *,
    tables: int | None = None,
    pairs: int | None = None,
    boards_per_round: int | None = None,
    rounds: int | None = None,
    boards: int | None = None,
) -> Movement:
    """The Howell for ``tables`` tables (``2 * tables`` pairs) or for ``pairs`` pairs.

    Give exactly one of ``tables`` (2 to 15) and ``pairs`` (3 to 30; an odd number plays
    the Howell of one pair more, whose opponent each round sits out), and the boards:
    ``boards_per_round``, or ``boards`` in all (a multiple of the rounds), or both.
    ``rounds`` plays only the first rounds, except 8 rounds of 5 tables, a movement of
    its own (:data:`SHORT_HOWELLS`). Pairs are ``"1"`` to ``"2T"``; board set ``s`` is
    boards ``(s - 1) * boards_per_set + 1`` to ``s * boards_per_set``. Five and six pairs
    with an even number of boards a round play in half-sets.

    >>> movement = howell(tables=4, boards_per_round=3)
    >>> movement.rounds, len(movement.pairs), movement.boards[-1]
    (7, 8, 21)
    >>> howell(pairs=7, boards_per_round=2).sitting_out(1)
    ('1',)
    >>> ten = howell(pairs=10, boards=24)
    >>> ten.rounds, ten.boards_per_round
    (8, 3)
    """
    if (tables is None) == (pairs is None):
        given = "both" if tables is not None else "neither"
        raise InvalidArgumentError(
            f"a Howell needs exactly one of tables and pairs, got {given}"
            f" (tables {tables!r}, pairs {pairs!r})"
        )
    if pairs is not None:
        pairs = whole_number_arg(pairs, "Howell pairs", 3, 2 * MAX_TABLES)
        full_tables = (pairs + 1) // 2
    else:
        full_tables = whole_number_arg(tables, "Howell tables", 2, MAX_TABLES)
        pairs = 2 * full_tables
    full_rounds = howell_rounds(full_tables)
    if rounds is not None:
        rounds = whole_number_arg(
            rounds, f"rounds (the {full_tables}-table Howell has {full_rounds})", 1, full_rounds
        )
    boards_per_round, rounds = _boards_and_rounds(full_tables, boards_per_round, rounds, boards)
    odd = pairs % 2 == 1
    boards_per_set = boards_per_round
    if plays_in_half_sets(pairs, boards_per_round):
        boards_per_set = boards_per_round // 2
        rows, sitouts = _half_set_rows(pairs, boards_per_set, rounds)
    else:
        if rounds == SHORT_HOWELLS.get(full_tables):
            design = _TEN_PAIRS_EIGHT_ROUNDS
        elif pairs == 9:
            design = _NINE_PAIRS
        else:
            design = _design(full_tables)
        rows, sitouts = _rows(design, rounds, boards_per_round, odd=odd)
    return Movement(
        kind="howell",
        tables=full_tables - pairs % 2,
        rounds=rounds,
        boards_per_round=boards_per_round,
        rows=rows,
        sitouts=sitouts,
        boards_per_set=boards_per_set,
    )


def _boards_and_rounds(
    tables: int, boards_per_round: int | None, rounds: int | None, boards: int | None
) -> tuple[int, int]:
    """The boards a round and the rounds a call asks for (see :func:`howell`)."""
    if boards_per_round is not None:
        boards_per_round = whole_number_arg(boards_per_round, "boards per round", 1)
    if boards is None:
        if boards_per_round is None:
            raise InvalidArgumentError("a Howell needs boards_per_round or boards, got neither")
        return boards_per_round, rounds if rounds is not None else howell_rounds(tables)
    boards = whole_number_arg(boards, "Howell boards", 1)
    choices = (rounds,) if rounds is not None else howell_round_choices(tables)
    for choice in choices:
        if boards % choice == 0 and boards_per_round in (None, boards // choice):
            return boards // choice, choice
    shapes = " or ".join(f"{choice} rounds" for choice in choices)
    if boards_per_round is not None:
        played = " or ".join(str(choice * boards_per_round) for choice in choices)
        raise InvalidArgumentError(
            f"{boards} boards do not fit the {tables}-table Howell with {boards_per_round}"
            f" boards a round: {shapes} play {played}"
        )
    raise InvalidArgumentError(
        f"{boards} boards do not fit the {tables}-table Howell: {shapes} play a"
        f" multiple of {' or '.join(str(choice) for choice in choices)} boards"
    )


def nine_pairs_filled(boards_per_round: int, rounds: int) -> Movement:
    """The nine pairs' own Howell design with its tenth place filled: where a late pair
    joining nine sits (:mod:`~bridgescore.movement.changes`). The ten-pair Howell is
    another design, so it cannot say."""
    rows, _ = _rows(_NINE_PAIRS, rounds, boards_per_round, odd=False)
    return Movement("howell", 5, rounds, boards_per_round, rows)


def _half_set_rows(
    pairs: int, half: int, rounds: int
) -> tuple[tuple[Row, ...], tuple[Sitout, ...]]:
    """The first ``rounds`` rounds of a half-set Howell (``_HALF_SET_ROWS``) with ``half``
    boards a half-set."""

    def boards(unit: int) -> range:
        return range(unit * half + 1, unit * half + half + 1)

    rows = tuple(
        Row(r, t, str(ns), str(ew), tuple(sorted((*boards(a), *boards(b)))))
        for r, t, ns, ew, (a, b) in _HALF_SET_ROWS[pairs]
        if r <= rounds
    )
    labels = {str(pair) for pair in range(1, pairs + 1)}
    sitouts = tuple(
        Sitout(r, pair)
        for r in range(1, rounds + 1)
        for pair in sorted(labels - {p for row in rows if row.round == r for p in row.pairs})
    )
    return rows, sitouts


def _rows(
    design: _Design, rounds: int, boards_per_round: int, *, odd: bool
) -> tuple[tuple[Row, ...], tuple[Sitout, ...]]:
    period = design.rounds
    moving_tables = len(design.moving)
    last_fixed = len(design.fixed) - 1
    rows: list[Row] = []
    sitouts: list[Sitout] = []

    def boards(board_set: int) -> tuple[int, ...]:
        first = board_set * boards_per_round + 1
        return tuple(range(first, first + boards_per_round))

    for shift in range(rounds):
        number = shift + 1
        for table, (a, b, adder, a_ns) in enumerate(design.moving, start=1):
            first, second = str((a + shift) % period + 1), str((b + shift) % period + 1)
            ns, ew = (
                (first, second) if a_ns ^ ((shift, table) in design.flipped) else (second, first)
            )
            rows.append(Row(number, table, ns, ew, boards((adder + shift) % period)))
        for index, (position, adder, fixed_ns) in enumerate(design.fixed):
            stationary = str(period + index + 1)
            mover = str((position + shift) % period + 1)
            if odd and index == last_fixed:
                # Pair 2T is absent: whoever it would have met sits the round out.
                sitouts.append(Sitout(number, mover))
                continue
            table = moving_tables + index + 1
            if fixed_ns ^ ((shift, table) in design.flipped):
                ns, ew = stationary, mover
            else:
                ns, ew = mover, stationary
            rows.append(Row(number, table, ns, ew, boards((adder + shift) % period)))
    return tuple(rows), tuple(sitouts)


@cache
def _design(tables: int) -> _Design:
    if tables in _COMPLETE:
        return _COMPLETE[tables]
    period = howell_rounds(tables)
    fixed_count = 2 * tables - period
    # The search finds a starter and adders for every size up to MAX_TABLES (a test
    # builds each); the first one found is used.
    found = next(_designs(period, fixed_count), None)
    if found is None:  # pragma: no cover - ruled out for every size by the tests
        raise MovementError(f"no {tables}-table Howell design was found")
    return _balance_directions(found)


def _designs(period: int, fixed_count: int) -> Iterator[_Design]:
    """Every starter-adder design modulo ``period`` with ``fixed_count`` stationary pairs,
    no two tables sharing a board set in a round (all directions: stationary NS, the
    lower position NS), in a fixed order.

    The smallest position not yet placed either faces a stationary pair (with an adder
    ``e``: it meets board set offset ``e - position``) or a higher position ``b`` (a
    difference ``b - a`` not used before in either sign, never half the period, with an
    adder ``c``: offsets ``c - a`` and ``c - b``). Every offset must be used exactly once,
    so each pair meets every board set once; the adders differ, so each round's tables
    play different sets.
    """
    placed = [False] * period
    offsets = [False] * period
    differences = [False] * period
    adders = [False] * period
    fixed: list[tuple[int, int, bool]] = []
    moving: list[tuple[int, int, int, bool]] = []
    moving_count = (period - fixed_count) // 2

    def place() -> Iterator[_Design]:
        if all(placed):
            yield _Design(period, tuple(fixed), tuple(moving))
            return
        low = placed.index(False)
        placed[low] = True
        if len(fixed) < fixed_count:
            for adder in range(period):
                offset = (adder - low) % period
                if adders[adder] or offsets[offset]:
                    continue
                adders[adder] = offsets[offset] = True
                fixed.append((low, adder, True))
                yield from place()
                fixed.pop()
                adders[adder] = offsets[offset] = False
        if len(moving) < moving_count:
            for high in range(low + 1, period):
                difference, opposite = high - low, period - (high - low)
                if placed[high] or difference == opposite:
                    continue
                if differences[difference] or differences[opposite]:
                    continue
                placed[high] = differences[difference] = differences[opposite] = True
                for adder in range(period):
                    first, second = (adder - low) % period, (adder - high) % period
                    if adders[adder] or offsets[first] or offsets[second]:
                        continue
                    adders[adder] = offsets[first] = offsets[second] = True
                    moving.append((low, high, adder, True))
                    yield from place()
                    moving.pop()
                    adders[adder] = offsets[first] = offsets[second] = False
                placed[high] = differences[difference] = differences[opposite] = False
        placed[low] = False

    return place()


def _balance_directions(design: _Design) -> _Design:
    """Choose who sits NS at each table of each round so that same-direction counts come
    together.

    A descent from the design's own directions: swap the directions at one table in one
    round when that lowers the sum of squared same-direction counts over every two pairs
    (their mean does not move: each board set is played by ``T`` NS and ``T`` EW pairs);
    stop when no swap helps. Rows are tried in round and table order, so the result is
    the same every time.
    """
    rows = list(_rows(design, design.rounds, 1, odd=False)[0])
    index = {
        pair: number
        for number, pair in enumerate(sorted({p for r in rows for p in r.pairs}, key=int))
    }
    players: dict[int, list[int]] = {}
    ns_on: dict[tuple[int, int], bool] = {}
    for row in rows:
        board = row.boards[0]
        players.setdefault(board, []).extend((index[row.ns], index[row.ew]))
        ns_on[(index[row.ns], board)] = True
        ns_on[(index[row.ew], board)] = False
    size = len(index)
    same = [[0] * size for _ in range(size)]
    for board, present in players.items():
        for first in present:
            for second in present:
                if first != second and ns_on[(first, board)] == ns_on[(second, board)]:
                    same[first][second] += 1

    def change(row: Row) -> tuple[int, list[tuple[int, int, int]]]:
        board, moved = row.boards[0], (index[row.ns], index[row.ew])
        steps: list[tuple[int, int, int]] = []
        gain = 0
        for pair in moved:
            for other in players[board]:
                if other in moved:
                    continue
                step = -1 if ns_on[(pair, board)] == ns_on[(other, board)] else 1
                old = same[pair][other]
                gain += (old + step) ** 2 - old**2
                steps.append((pair, other, step))
        return gain, steps

    flipped: set[tuple[int, int]] = set()
    improved = True
    while improved:
        improved = False
        for position, row in enumerate(rows):
            gain, steps = change(row)
            if gain >= 0:
                continue
            improved = True
            for pair, other, step in steps:
                same[pair][other] += step
                same[other][pair] += step
            board = row.boards[0]
            for pair in (index[row.ns], index[row.ew]):
                ns_on[(pair, board)] = not ns_on[(pair, board)]
            rows[position] = Row(row.round, row.table, row.ew, row.ns, row.boards)
            flipped ^= {(row.round - 1, row.table)}
    return _Design(design.rounds, design.fixed, design.moving, frozenset(flipped))
