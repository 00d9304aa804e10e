"""The Mitchell generator: hand-worked rounds, and the invariants over every size.

The invariants are counted here from the rows themselves (not by the checker): each
pair at most once a round, no pair plays a board twice, boards played equally often,
equal boards per pair apart from sit-outs, NS pairs stay at their tables, EW pairs
meet every NS pair once in a full Mitchell.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest

from bridgescore.errors import BridgeError
from bridgescore.movement.mitchell import mitchell, switched_rounds
from bridgescore.movement.model import Movement


def _table(movement: Movement, round_number: int) -> list[tuple[int, str, str, tuple[int, ...]]]:
    return [(r.table, r.ns, r.ew, r.boards) for r in movement.rows_in_round(round_number)]


def test_three_tables_second_round_by_hand() -> None:
    # Round 1: EW pair k and set k at table k. Then EW up one table (3 -> 1), boards down
    # one (1 -> 3): table 1 gets 3E and set 2, table 2 gets 1E and set 3, table 3 2E, set 1.
    movement = mitchell(tables=3, boards_per_round=2)
    assert _table(movement, 1) == [
        (1, "1N", "1E", (1, 2)),
        (2, "2N", "2E", (3, 4)),
        (3, "3N", "3E", (5, 6)),
    ]
    assert _table(movement, 2) == [
        (1, "1N", "3E", (3, 4)),
        (2, "2N", "1E", (5, 6)),
        (3, "3N", "2E", (1, 2)),
    ]
    assert movement.rounds == 3 and movement.sitouts == () and movement.arrow_switch == ()


def test_four_table_skip_by_hand() -> None:
    # One board a round. Round 2 is a normal move; after round 2 (= T/2) the EW pairs skip
    # a table: the pair at table 3 goes to table 1, 4 -> 2, 1 -> 3, 2 -> 4.
    movement = mitchell(tables=4, boards_per_round=1)
    assert movement.rounds == 3
    assert _table(movement, 2) == [
        (1, "1N", "4E", (2,)),
        (2, "2N", "1E", (3,)),
        (3, "3N", "2E", (4,)),
        (4, "4N", "3E", (1,)),
    ]
    assert _table(movement, 3) == [
        (1, "1N", "2E", (3,)),
        (2, "2N", "3E", (4,)),
        (3, "3N", "4E", (1,)),
        (4, "4N", "1E", (2,)),
    ]


def test_four_table_share_and_relay_by_hand() -> None:
    # Tables 1 and 4 share; the bye stand between tables 2 and 3 starts with set 3.
    # Boards move down: table 2 -> tables 1/4 -> table 3 -> bye stand -> table 2.
    movement = mitchell(tables=4, boards_per_round=1, relay=True)
    assert movement.rounds == 4
    assert _table(movement, 1) == [
        (1, "1N", "1E", (1,)),
        (2, "2N", "2E", (2,)),
        (3, "3N", "3E", (4,)),
        (4, "4N", "4E", (1,)),
    ]
    assert _table(movement, 2) == [
        (1, "1N", "4E", (2,)),
        (2, "2N", "1E", (3,)),
        (3, "3N", "2E", (1,)),
        (4, "4N", "3E", (2,)),
    ]


def test_seven_tables_thirteen_pairs_as_the_issue_shows() -> None:
    movement = mitchell(tables=7, boards_per_round=3, pairs=13, arrow_switch=True)
    first = movement.rows[0]
    assert (first.round, first.table, first.ns, first.ew, first.boards) == (
        1,
        1,
        "1N",
        "1E",
        (1, 2, 3),
    )
    # EW pair 7E is missing: in round 1 it would be at table 7, in round 2 at table 1.
    assert [(s.round, s.pair) for s in movement.sitouts[:2]] == [(1, "7N"), (2, "1N")]
    assert movement.row_at(1, 7) is None and movement.row_at(2, 1) is None
    assert movement.arrow_switch == (7,)
    assert "7E" not in movement.pairs and len(movement.pairs) == 13


@pytest.mark.parametrize(
    ("rounds", "switched"),
    [
        (1, (1,)),
        (7, (7,)),
        (9, (9,)),
        (11, (11,)),
        (12, (11, 12)),
        (20, (18, 19, 20)),
        (29, (26, 27, 28, 29)),
    ],
)
def test_arrow_switch_is_the_last_eighth_of_the_rounds(
    rounds: int, switched: tuple[int, ...]
) -> None:
    # EBU advice: switch the last round of up to 9 rounds, the last two of 12 or more;
    # about one round in eight (Manning), rounded half up.
    assert switched_rounds(rounds) == switched


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"tables": 1}, "tables must be a whole number from 2 to 30, got 1"),
        ({"tables": 31}, "tables must be a whole number from 2 to 30, got 31"),
        ({"tables": 7, "relay": True}, "relay: a share-and-relay Mitchell needs an even number"),
        ({"tables": 7, "rounds": 8}, "rounds must be a whole number from 1 to 7, got 8"),
        ({"tables": 6, "rounds": 6}, "rounds must be a whole number from 1 to 5, got 6"),
        ({"tables": 7, "pairs": 12}, "pairs (for 7 tables) must be a whole number from 13 to 14"),
        ({"tables": 7, "boards_per_round": 0}, "boards per round must be a whole number from 1 up"),
        ({"tables": True}, "tables must be a whole number"),
    ],
)
def test_impossible_options_are_named(options: dict[str, object], words: str) -> None:
    arguments: dict[str, object] = {"boards_per_round": 2, **options}
    with pytest.raises(BridgeError) as raised:
        mitchell(**arguments)  # type: ignore[arg-type]
    assert words in str(raised.value)


def _most_rounds(tables: int, relay: bool) -> int:
    # Odd: T rounds; even with a skip: T - 1 (each EW pair misses one NS pair); relay: T.
    if tables % 2 == 1 or relay:
        return tables
    return tables - 1


def _variants() -> list[tuple[int, bool, bool, bool, int]]:
    """(tables, relay, arrow switch, one pair missing, rounds): every size, every option,
    all rounds and a shortened movement."""
    cases = []
    for tables in range(2, 31):
        relays = (False, True) if tables % 2 == 0 else (False,)
        for relay, arrow, odd_pairs in product(relays, (False, True), (False, True)):
            most = _most_rounds(tables, relay)
            for rounds in sorted({most, max(1, most // 2), 1}):
                cases.append((tables, relay, arrow, odd_pairs, rounds))
    return cases


@pytest.mark.parametrize(("tables", "relay", "arrow", "odd_pairs", "rounds"), _variants())
def test_invariants_of_every_mitchell(
    tables: int, relay: bool, arrow: bool, odd_pairs: bool, rounds: int
) -> None:
    boards_per_round = 2
    pairs = 2 * tables - 1 if odd_pairs else 2 * tables
    movement = mitchell(
        tables=tables,
        boards_per_round=boards_per_round,
        rounds=rounds,
        pairs=pairs,
        relay=relay,
        arrow_switch=arrow,
    )
    full = rounds == _most_rounds(tables, relay)
    assert movement.rounds == rounds and movement.tables == tables
    ns_pairs = {f"{t}N" for t in range(1, tables + 1)}
    ew_pairs = {f"{t}E" for t in range(1, tables + 1)} - ({f"{tables}E"} if odd_pairs else set())
    assert set(movement.pairs) == ns_pairs | ew_pairs

    seen_in_round: Counter[tuple[int, str]] = Counter()
    boards_of: dict[str, list[int]] = {pair: [] for pair in movement.pairs}
    opponents: dict[str, list[str]] = {pair: [] for pair in ns_pairs}
    for row in movement.rows:
        # NS pairs stay at their own table; EW pairs stay EW.
        assert row.ns == f"{row.table}N" and row.ew in ew_pairs
        assert len(row.boards) == boards_per_round
        for pair in (row.ns, row.ew):
            seen_in_round[(row.round, pair)] += 1
            boards_of[pair].extend(row.boards)
        opponents[row.ns].append(row.ew)
    # Each pair at most once a round, and a sit-out does not play.
    assert max(seen_in_round.values()) == 1
    sitting = Counter(s.pair for s in movement.sitouts)
    for sitout in movement.sitouts:
        assert (sitout.round, sitout.pair) not in seen_in_round
        assert sitout.pair in ns_pairs
    # One NS pair sits out each round exactly when a pair is missing.
    per_round = Counter(s.round for s in movement.sitouts)
    assert per_round == (Counter(range(1, rounds + 1)) if odd_pairs else Counter())
    # Every pair plays or sits out in every round.
    for pair in movement.pairs:
        assert (
            sum(1 for r in range(1, rounds + 1) if (r, pair) in seen_in_round) + sitting[pair]
            == rounds
        )
    # No pair plays a board twice; equal boards per pair apart from sit-outs.
    for pair, boards in boards_of.items():
        assert len(boards) == len(set(boards)), pair
        assert len(boards) == (rounds - sitting[pair]) * boards_per_round, pair
    # No EW pair meets an NS pair twice; in a full odd or relay Mitchell with every
    # pair there, every EW pair meets every NS pair (a skip misses one each).
    for ns, met in opponents.items():
        assert len(met) == len(set(met)), ns
    if full and not odd_pairs:
        expected = tables - 1 if (tables % 2 == 0 and not relay) else tables
        for met in opponents.values():
            assert len(met) == expected
    # Boards played equally often: each set sits at one place a round, so with no pair
    # missing every board is played once a round, except that a relay's bye stand
    # idles one set and its shared tables play one twice, which evens out only over
    # the full T rounds. With EW pair TE missing, the boards TE would have played go
    # unplayed: all of them once in a full odd or relay Mitchell.
    times = Counter(board for row in movement.rows for board in row.boards)
    every_board = range(1, tables * boards_per_round + 1)
    if not odd_pairs and (not relay or full):
        assert {times[board] for board in every_board} == {rounds}
    if odd_pairs and full and (tables % 2 == 1 or relay):
        assert {times[board] for board in every_board} == {rounds - 1}
    # Arrow-switched rounds: the last eighth, at least one.
    if arrow:
        count = max(1, int(rounds / 8 + 0.5))
        assert movement.arrow_switch == tuple(range(rounds - count + 1, rounds + 1))
    else:
        assert movement.arrow_switch == ()
    # A relay: tables 1 and T play the same boards in every round both are in play.
    if relay:
        for r in range(1, rounds + 1):
            low, high = movement.row_at(r, 1), movement.row_at(r, tables)
            if low is not None and high is not None:
                assert low.boards == high.boards
