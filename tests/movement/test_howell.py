"""Howell movements (issue 25 §2): the invariants of every size, balance, sit-outs, errors.

Every property is counted here from the rows themselves, not through the checker: who
sits where in each round, which boards each pair plays, whom it meets and on which boards
two pairs hold the same cards.
"""

from __future__ import annotations

import doctest
import re
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from bridgescore.errors import BridgeError, InvalidArgumentError
from bridgescore.movement.howell import howell
from bridgescore.movement.model import Movement

COMPLETE = range(2, 9)
THREE_QUARTERS = range(9, 16)
# round(3 (2T - 1) / 4), worked by hand: 9 tables 51/4 = 12.75 -> 13, 10: 57/4 = 14.25 -> 14,
# 11: 63/4 = 15.75 -> 16, 12: 69/4 = 17.25 -> 17, 13: 75/4 = 18.75 -> 19, 14: 81/4 = 20.25
# -> 20, 15: 87/4 = 21.75 -> 22.
THREE_QUARTER_ROUNDS = {9: 13, 10: 14, 11: 16, 12: 17, 13: 19, 14: 20, 15: 22}


def _rounds_of(tables: int) -> int:
    return 2 * tables - 1 if tables <= 8 else THREE_QUARTER_ROUNDS[tables]


def _assert_sound(movement: Movement, pairs: int) -> None:
    """Each pair at most once a round (and never while sitting out), no board twice."""
    labels = {str(number) for number in range(1, pairs + 1)}
    played: dict[str, list[int]] = {label: [] for label in labels}
    for round_number in range(1, movement.rounds + 1):
        seated = [p for row in movement.rows if row.round == round_number for p in row.pairs]
        assert len(seated) == len(set(seated)), (round_number, seated)
        out = [s.pair for s in movement.sitouts if s.round == round_number]
        assert not set(out) & set(seated)
        assert set(seated) | set(out) == labels
    for row in movement.rows:
        for pair in row.pairs:
            played[pair].extend(row.boards)
    for pair, boards in played.items():
        assert len(boards) == len(set(boards)), f"pair {pair} plays a board twice"


def _meetings(movement: Movement) -> Counter[frozenset[str]]:
    return Counter(frozenset(row.pairs) for row in movement.rows)


def _same_direction(movement: Movement) -> dict[frozenset[str], tuple[int, int]]:
    """For every two pairs: boards both play sitting the same way, and boards both play
    sitting the other way at different tables (opponents at one table are not compared)."""
    seat: dict[str, dict[int, tuple[str, int, int]]] = {}
    for row in movement.rows:
        for board in row.boards:
            seat.setdefault(row.ns, {})[board] = ("NS", row.round, row.table)
            seat.setdefault(row.ew, {})[board] = ("EW", row.round, row.table)
    result = {}
    for first, second in combinations(sorted(seat, key=int), 2):
        same = other = 0
        for board, (way, round_number, table) in seat[first].items():
            if board not in seat[second]:
                continue
            their_way, their_round, their_table = seat[second][board]
            if (round_number, table) == (their_round, their_table):
                continue
            if way == their_way:
                same += 1
            else:
                other += 1
        result[frozenset((first, second))] = (same, other)
    return result


@pytest.mark.parametrize("tables", [*COMPLETE, *THREE_QUARTERS])
def test_every_size_is_sound_and_plays_every_board_equally(tables: int) -> None:
    movement = howell(tables=tables, boards_per_round=2)
    rounds = _rounds_of(tables)
    assert (movement.kind, movement.tables, movement.rounds) == ("howell", tables, rounds)
    assert movement.sitouts == ()
    _assert_sound(movement, 2 * tables)
    # Every pair plays every round: rounds x 2 boards each.
    boards_of = Counter(p for row in movement.rows for p in row.pairs for _ in row.boards)
    assert set(boards_of.values()) == {2 * rounds}
    # As many board sets as rounds, each played at `tables` tables over the session.
    assert movement.boards == tuple(range(1, 2 * rounds + 1))
    times = Counter(board for row in movement.rows for board in row.boards)
    assert set(times.values()) == {tables}
    if tables != 3:
        # Board sets are whole: the two boards of a set always travel together (3 tables
        # of an even number of boards play half-sets: tests/movement/test_balance.py).
        assert {row.boards[1] - row.boards[0] for row in movement.rows} == {1}
        assert {row.boards[0] % 2 for row in movement.rows} == {1}


@pytest.mark.parametrize("tables", COMPLETE)
def test_a_complete_howell_meets_every_pair_exactly_once(tables: int) -> None:
    meetings = _meetings(howell(tables=tables, boards_per_round=1))
    everyone = {frozenset(two) for two in combinations(map(str, range(1, 2 * tables + 1)), 2)}
    assert set(meetings) == everyone
    assert set(meetings.values()) == {1}


@pytest.mark.parametrize("tables", THREE_QUARTERS)
def test_a_three_quarter_howell_meets_as_many_pairs_as_rounds_none_twice(tables: int) -> None:
    movement = howell(tables=tables, boards_per_round=1)
    meetings = _meetings(movement)
    assert set(meetings.values()) == {1}
    opponents = Counter(p for two in meetings for p in two)
    assert set(opponents.values()) == {THREE_QUARTER_ROUNDS[tables]}
    assert len(opponents) == 2 * tables


@pytest.mark.parametrize("tables", [4, 6, 8])
def test_four_six_and_eight_tables_are_balanced(tables: int) -> None:
    # Each board is played by T pairs NS and T pairs EW: T(T-1) twos sit the same way on
    # it, and 2T-1 sets over T(2T-1) twos of pairs give T-1 sets to every two pairs when
    # they are equal. On the other 2T-1 - (T-1) sets they sit the other way, one of which
    # is the set on which they meet (not a comparison): T-1 sets compared the other way.
    movement = howell(tables=tables, boards_per_round=3)
    counts = _same_direction(movement)
    assert len(counts) == tables * (2 * tables - 1)
    assert set(counts.values()) == {(3 * (tables - 1), 3 * (tables - 1))}


def test_the_four_table_howell_exact_counts() -> None:
    # 8 pairs, 7 rounds of 3 boards: every two pairs compared on 3 sets (9 boards) the
    # same way and 3 sets (9 boards) the other way, and meet on the seventh.
    counts = _same_direction(howell(tables=4, boards_per_round=3))
    assert set(counts.values()) == {(9, 9)}
    assert len(counts) == 28


@pytest.mark.parametrize(("tables", "low", "high"), [(3, 1, 3), (5, 3, 5), (7, 5, 7)])
def test_odd_table_counts_spread_by_two_around_their_mean(tables: int, low: int, high: int) -> None:
    # 2T is not a multiple of four, so equal counts are impossible (the pairs' signs would
    # form a Hadamard matrix); the mean stays T-1 sets, and the counts reach T-2 to T.
    counts = _same_direction(howell(tables=tables, boards_per_round=1))
    same = [same for same, _ in counts.values()]
    assert (min(same), max(same)) == (low, high)
    assert sum(same) == (tables - 1) * len(same)
    # Every two pairs are compared on every set but the one they meet on.
    assert {same + other for same, other in counts.values()} == {2 * tables - 2}


def test_two_tables_share_one_set_each_round() -> None:
    # No two tables can play different sets each round with every pair playing all three:
    # both tables play the round's set, passing the boards (a relay).
    movement = howell(tables=2, boards_per_round=2)
    for round_number in (1, 2, 3):
        boards = {row.boards for row in movement.rows if row.round == round_number}
        assert len(boards) == 1
    assert sorted(movement.rows[i].boards for i in (0, 2, 4)) == [(1, 2), (3, 4), (5, 6)]
    counts = _same_direction(movement)
    assert set(counts.values()) == {(2, 2)}  # 1 set of 2 boards each way


def test_three_tables_of_an_odd_number_of_boards_share_one_set_each_round() -> None:
    # Half-sets need an even number of boards a round; with 3 boards, all three tables
    # play the round's one set.
    movement = howell(tables=3, boards_per_round=3)
    for round_number in range(1, 6):
        boards = {row.boards for row in movement.rows if row.round == round_number}
        assert len(boards) == 1


@pytest.mark.parametrize("tables", range(4, 16))
def test_from_four_tables_no_set_is_at_two_tables_in_a_round(tables: int) -> None:
    movement = howell(tables=tables, boards_per_round=1)
    for round_number in range(1, movement.rounds + 1):
        boards = [row.boards for row in movement.rows if row.round == round_number]
        assert len(boards) == len(set(boards)) == tables


@pytest.mark.parametrize("pairs", [3, 5, 7, 9, 11, 13, 15, 17, 21, 29])
def test_an_odd_number_of_pairs_sits_one_out_each_round(pairs: int) -> None:
    tables = (pairs + 1) // 2
    rounds = _rounds_of(tables)
    movement = howell(pairs=pairs, boards_per_round=2)
    assert (movement.tables, movement.rounds) == (tables - 1, rounds)
    _assert_sound(movement, pairs)
    assert [s.round for s in movement.sitouts] == list(range(1, rounds + 1))
    assert str(pairs + 1) not in movement.pairs
    # The missing pair's table, the last, is empty; every other table plays every round.
    assert {row.table for row in movement.rows} == set(range(1, tables))
    # Each set lost the one play of the missing pair: every board is played T-1 times.
    times = Counter(board for row in movement.rows for board in row.boards)
    assert set(times.values()) == {tables - 1}
    # Equal boards apart from sit-outs: each round sat out costs 2 boards.
    boards_of = Counter(p for row in movement.rows for p in row.pairs for _ in row.boards)
    out = Counter(s.pair for s in movement.sitouts)
    assert {boards_of[p] + 2 * out[p] for p in movement.pairs} == {2 * rounds}
    if tables <= 8:
        # Complete: the missing pair met everyone, so everyone sits out once, and every
        # two pairs present still meet once.
        assert set(out.values()) == {1} and len(out) == pairs
        assert set(_meetings(movement).values()) == {1}
        assert len(_meetings(movement)) == pairs * (pairs - 1) // 2


def test_seven_pairs_by_hand() -> None:
    movement = howell(pairs=7, boards_per_round=3)
    assert len(movement.rows) == 7 * 3
    assert len(movement.pairs) == 7
    assert movement.boards == tuple(range(1, 22))


def test_tables_and_an_even_pairs_count_give_the_same_movement() -> None:
    assert howell(tables=6, boards_per_round=2) == howell(pairs=12, boards_per_round=2)


@pytest.mark.parametrize(("tables", "rounds"), [(4, 5), (8, 11), (10, 3)])
def test_fewer_rounds_on_request(tables: int, rounds: int) -> None:
    full = howell(tables=tables, boards_per_round=2)
    short = howell(tables=tables, boards_per_round=2, rounds=rounds)
    assert short.rounds == rounds
    assert short.rows == tuple(row for row in full.rows if row.round <= rounds)
    _assert_sound(short, 2 * tables)
    assert set(_meetings(short).values()) == {1}


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"boards_per_round": 2}, "exactly one of tables and pairs, got neither"),
        (
            {"tables": 4, "pairs": 8, "boards_per_round": 2},
            r"exactly one of tables and pairs, got both \(tables 4, pairs 8\)",
        ),
        (
            {"tables": 1, "boards_per_round": 2},
            "Howell tables must be a whole number from 2 to 15, got 1",
        ),
        ({"tables": 16, "boards_per_round": 2}, "from 2 to 15, got 16"),
        ({"tables": True, "boards_per_round": 2}, "got True"),
        (
            {"pairs": 2, "boards_per_round": 2},
            "Howell pairs must be a whole number from 3 to 30, got 2",
        ),
        ({"pairs": 31, "boards_per_round": 2}, "got 31"),
        (
            {"tables": 4, "boards_per_round": 0},
            "boards per round must be a whole number from 1 up, got 0",
        ),
        ({"tables": 4, "boards_per_round": 2, "rounds": 8}, "the 4-table Howell has 7"),
        ({"tables": 4, "boards_per_round": 2, "rounds": 0}, "from 1 to 7, got 0"),
        ({"tables": "4", "boards_per_round": 2}, "got '4'"),
    ],
)
def test_bad_arguments_are_refused_in_words(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(InvalidArgumentError, match=words) as caught:
        howell(**kwargs)  # type: ignore[arg-type]
    assert isinstance(caught.value, BridgeError)


@pytest.mark.parametrize("tables", THREE_QUARTERS)
def test_three_quarter_howell_comparisons_add_up(tables: int) -> None:
    # Every set is played by T NS and T EW pairs, so over the R sets T(T-1)R twos of pairs
    # sit the same way, however the directions are chosen; and every two pairs that do not
    # meet are compared on all R sets, those that meet on R - 1.
    rounds = THREE_QUARTER_ROUNDS[tables]
    movement = howell(tables=tables, boards_per_round=1)
    counts = _same_direction(movement)
    assert sum(same for same, _ in counts.values()) == tables * (tables - 1) * rounds
    met = _meetings(movement)
    for two, (same, other) in counts.items():
        assert same + other == rounds - met[two]


def test_the_examples_in_docs_howell_md_run() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "howell.md").read_text("utf-8")
    blocks = re.findall(r"```pycon\n(.*?)```", text, re.DOTALL)
    assert len(blocks) == 6
    globs: dict[str, object] = {}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, block in enumerate(blocks):
        test = parser.get_doctest(block, globs, f"docs/howell.md block {number}", "howell.md", 0)
        runner.run(test, clear_globs=False)
        globs = test.globs
    assert runner.summarize(verbose=False).failed == 0
