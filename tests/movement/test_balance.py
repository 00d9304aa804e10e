"""The small Howells against the best published movements of each shape (issue 33 §3).

Balance is measured here from the rows alone, as the movement's JSON form lists them: for
each board, the pairs that played it sitting NS are compared with each other on it, and
so are those that sat EW. Two pairs' count is the number of boards on which that happens.
The expected figures come from the published movements and from counting: a board played
at k tables gives 2 * C(k, 2) twos of pairs sitting the same way.
"""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations
from typing import Any

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.movement.check import check_movement
from bridgescore.movement.howell import howell
from bridgescore.movement.suggest import suggest
from bridgescore.movement.text import (
    movement_from_asc,
    movement_from_json,
    movement_to_asc,
    movement_to_json,
)

runner = CliRunner()

Rows = list[dict[str, Any]]


def _same_direction(rows: Rows, pairs: int) -> dict[tuple[int, int], int]:
    """Boards on which each two pairs are compared sitting the same direction."""
    seated: dict[int, dict[str, list[int]]] = {}
    for row in rows:
        for board in row["boards"]:
            sides = seated.setdefault(board, {"NS": [], "EW": []})
            sides["NS"].append(int(row["ns"]))
            sides["EW"].append(int(row["ew"]))
    counts = {two: 0 for two in combinations(range(1, pairs + 1), 2)}
    for sides in seated.values():
        for side in sides.values():
            for first, second in combinations(sorted(side), 2):
                counts[(first, second)] += 1
    return counts


def _assert_sound(rows: Rows) -> None:
    """Every pair plays each board at most once and sits at one table a round."""
    boards_of: dict[str, list[int]] = {}
    tables_of: Counter[tuple[int, str]] = Counter()
    for row in rows:
        for pair in (row["ns"], row["ew"]):
            boards_of.setdefault(pair, []).extend(row["boards"])
            tables_of[(row["round"], pair)] += 1
    for pair, boards in boards_of.items():
        assert len(boards) == len(set(boards)), f"pair {pair} plays a board twice"
    assert set(tables_of.values()) == {1}


def _howell_json(pairs: int, boards: int) -> dict[str, Any]:
    """``movement howell --pairs N -b B --json``, B being the boards in all."""
    command = ["movement", "howell", "--pairs", str(pairs), "-b", str(boards), "--json"]
    result = runner.invoke(app, command)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


# (pairs, boards, tables, rounds, boards a round, fewest and most boards two pairs are
# compared on sitting the same way). 5 pairs: every two on 4 (as published; each board
# is played at 2 tables, giving 2 same-way twos: 20 x 2 / 10 twos of pairs = 4). 6 pairs:
# each board at 3 tables, 2 * C(3, 2) = 6 twos, 20 x 6 / 15 = 8 for every two. 7 pairs:
# each board at 3 tables, 21 x 6 / 21 = 6. 8 pairs: each board at 4 tables, 2 * C(4, 2) =
# 12 twos, 21 x 12 / 28 = 9. 9 pairs: published 4 to 8 (each board at 4 tables: 18 x 12
# / 36 = 6 on average).
SHAPES = [
    (5, 20, 2, 5, 4, 4, 4),
    (6, 20, 3, 5, 4, 8, 8),
    (7, 21, 3, 7, 3, 6, 6),
    (8, 21, 4, 7, 3, 9, 9),
    (9, 18, 4, 9, 2, 4, 8),
]


@pytest.mark.parametrize(
    ("pairs", "boards", "tables", "rounds", "per_round", "low", "high"), SHAPES
)
def test_each_shape_is_as_balanced_as_the_published_movement(
    pairs: int, boards: int, tables: int, rounds: int, per_round: int, low: int, high: int
) -> None:
    data = _howell_json(pairs, boards)
    assert (data["tables"], data["rounds"], data["boards_per_round"]) == (tables, rounds, per_round)
    rows: Rows = data["rows"]
    _assert_sound(rows)
    counts = _same_direction(rows, pairs)
    assert (min(counts.values()), max(counts.values())) == (low, high)
    # Every board is played and every pair plays as many boards as it does not sit out.
    assert sorted({b for row in rows for b in row["boards"]}) == list(range(1, boards + 1))
    played = Counter(p for row in rows for p in (row["ns"], row["ew"]) for _ in row["boards"])
    # (an odd number of pairs: each pair sits out one round)
    assert set(played.values()) == {boards - per_round * (pairs % 2)}
    # Every pair meets every other once.
    meetings = Counter(frozenset((row["ns"], row["ew"])) for row in rows)
    assert len(meetings) == pairs * (pairs - 1) // 2 and set(meetings.values()) == {1}


def test_five_pairs_old_and_new_measured_the_same_way() -> None:
    # The movement before issue 33 (all tables on one set a round) compared two pairs on
    # 0 to 8 boards; the half-set one on 4 each. The old one is still what 3 boards a
    # round build (half-sets need an even number).
    old = movement_to_json(howell(pairs=5, boards_per_round=3))
    counts = _same_direction(old["rows"], 5)
    assert (min(counts.values()), max(counts.values())) == (0, 6)
    new = movement_to_json(howell(pairs=5, boards_per_round=4))
    assert set(_same_direction(new["rows"], 5).values()) == {4}


def test_half_sets_travel_in_twos_and_no_two_tables_share_one() -> None:
    # 6 pairs, 4 boards a round: each table plays two half-sets of 2 boards (boards 1-2,
    # 3-4, ...), never a half-set another table plays in the same round (no relay).
    movement = howell(pairs=6, boards_per_round=4)
    assert (movement.boards_per_set, movement.sets_per_round) == (2, 2)
    for row in movement.rows:
        halves = {(board - 1) // 2 for board in row.boards}
        assert len(halves) == 2
        assert sorted(row.boards) == sorted(b for h in halves for b in (2 * h + 1, 2 * h + 2))
    for number in range(1, 6):
        boards = [b for row in movement.rows_in_round(number) for b in row.boards]
        assert len(boards) == len(set(boards)) == 12
    # Each board is played three times: at all three tables over the session.
    assert set(Counter(b for row in movement.rows for b in row.boards).values()) == {3}


def test_ten_pairs_in_eight_rounds_of_three_with_a_relay() -> None:
    data = _howell_json(10, 24)
    assert (data["tables"], data["rounds"], data["boards_per_round"]) == (5, 8, 3)
    rows: Rows = data["rows"]
    _assert_sound(rows)
    # Five tables on eight sets: every board at all five tables, every pair plays all 24.
    assert set(Counter(b for row in rows for b in row["boards"]).values()) == {5}
    played = Counter(p for row in rows for p in (row["ns"], row["ew"]) for _ in row["boards"])
    assert set(played.values()) == {24}
    # Two tables share the round's set in every round (the relay), the others have their own.
    for number in range(1, 9):
        sets = Counter(tuple(row["boards"]) for row in rows if row["round"] == number)
        assert sorted(sets.values()) == [1, 1, 1, 2]
    # Each pair meets 8 of the 9 others; the 5 twos that never meet are a perfect matching.
    meetings = Counter(frozenset((row["ns"], row["ew"])) for row in rows)
    assert set(meetings.values()) == {1} and len(meetings) == 40
    # Each board's 5 NS and 5 EW pairs give 20 same-way twos: 24 x 20 = 480 in all.
    counts = _same_direction(rows, 10)
    assert sum(counts.values()) == 480
    assert (min(counts.values()), max(counts.values())) == (6, 15)


def test_the_same_shapes_through_the_boards_option() -> None:
    assert howell(pairs=10, boards=24) == howell(pairs=10, boards_per_round=3, rounds=8)
    assert howell(pairs=9, boards=18) == howell(pairs=9, boards_per_round=2)
    assert howell(pairs=10, boards=27).rounds == 9
    result = runner.invoke(app, ["movement", "howell", "--pairs", "10", "--boards", "24"])
    assert result.exit_code == 0 and "5 tables, 8 rounds of 3 boards" in result.stdout


def test_boards_that_fit_no_round_are_refused_in_words() -> None:
    result = runner.invoke(app, ["movement", "howell", "--pairs", "8", "--boards", "20"])
    assert result.exit_code == 2
    assert "20 boards do not fit the 4-table Howell: 7 rounds play a multiple of 7" in (
        result.output
    )


@pytest.mark.parametrize("pairs", [5, 6])
def test_half_set_movements_round_trip_through_json_and_asc(pairs: int) -> None:
    movement = howell(pairs=pairs, boards_per_round=4)
    data = movement_to_json(movement)
    assert data["boards_per_set"] == 2
    assert movement_from_json(json.dumps(data)) == movement
    text = movement_to_asc(movement)
    # Header: pairs, tables, 10 lines of half-set groups (2 a round), 10 groups.
    assert text.splitlines()[0] == f"{pairs} {movement.tables} 10 10 0"
    assert movement_from_asc(text) == movement


def test_an_asc_round_whose_table_changes_pairs_mid_round_is_refused() -> None:
    text = (
        "4 1 2 2 0\n1-2 1\n1-3 2\n"
        '# bridgescore: {"kind": "custom", "boards_per_round": 4, "boards_per_set": 2}\n'
    )
    with pytest.raises(ValueError, match="a table keeps its pairs for the round's 2 groups"):
        movement_from_asc(text)


def test_check_reports_the_same_direction_spread(tmp_path: Any) -> None:
    path = tmp_path / "nine.json"
    path.write_text(json.dumps(movement_to_json(howell(pairs=9, boards_per_round=2))))
    result = runner.invoke(app, ["movement", "check", str(path), "--json"])
    assert result.exit_code == 0
    spread = json.loads(result.stdout)["same_direction_spread"]
    assert spread == {"fewest": 4, "most": 8, "spread": 4}
    text = runner.invoke(app, ["movement", "check", str(path)]).stdout
    line = "Same-direction spread: 4 (every two pairs compared sitting the same direction on"
    assert f"{line} 4 to 8 boards)" in text
    assert check_movement(howell(pairs=8, boards_per_round=3)).same_direction_range == (9, 9)


@pytest.mark.parametrize("boards", [12, 18, 24])
def test_suggest_for_four_pairs_never_offers_one_round(boards: int) -> None:
    found = suggest(pairs=4, boards=boards)
    assert found and found[0].rounds > 1
    assert all(s.rounds > 1 for s in found)
    # The evening four pairs play: each meets the other three, a third of the boards each.
    best = found[0]
    assert (best.kind, best.tables, best.rounds, best.boards_per_round) == (
        "howell",
        2,
        3,
        boards // 3,
    )


def test_suggest_offers_ten_pairs_eight_rounds_with_a_relay() -> None:
    best = suggest(pairs=10, boards=24)[0]
    assert (best.kind, best.tables, best.rounds, best.boards_per_round) == ("howell", 5, 8, 3)


def test_a_live_session_runs_on_a_half_set_howell(tmp_path: Any) -> None:
    from bridgescore.notation import Result
    from bridgescore.session.live.creation import create_event
    from bridgescore.session.live.entry import ResultEntry
    from bridgescore.session.live.event import LiveEvent

    movement = howell(pairs=6, boards_per_round=4)
    new = create_event(tmp_path / "six.db", movement)
    with LiveEvent(new.event) as live:
        assert live.movement == movement  # the half-sets survive the event file
        view = live.table_view("A", 3)
        first = view.rounds[0]
        # Round 1 at table 3: pair 1 NS against pair 6, boards 1-4 (half-sets 1-2, 3-4).
        assert (first.ns, first.ew, first.boards) == ("1", "6", (1, 2, 3, 4))
        # The two half-sets go different ways: 1-2 wait on the bye stand (no table plays
        # them in round 2), 3-4 go to table 2 (pairs 5 and 4 play them in round 2).
        assert first.next_move is not None
        stops = {stop.boards: str(stop) for stop in first.next_move.boards}
        assert stops == {(1, 2): "bye stand", (3, 4): "table 2"}
        # Board 3 (EW vulnerable): 3NT by N making, 100 + 300 for a game not vulnerable.
        made = ResultEntry(1, 3, Result.parse("3NTN="))
        assert live.enter_result("A", 3, made, who="table 3") == 400


def test_a_large_b_is_read_as_the_boards_in_all_and_said_so() -> None:
    # A Howell's round holds at most 9 boards (2 tables: 3 rounds of 9); -b 24 for 10 pairs
    # is the session's 24 boards, with a note; -b 9 stays 9 boards a round.
    result = runner.invoke(app, ["movement", "howell", "--pairs", "10", "-b", "24", "--json"])
    assert result.exit_code == 0
    assert "read as 24 boards in all" in result.stderr
    assert json.loads(result.stdout)["rounds"] == 8
    result = runner.invoke(app, ["movement", "howell", "--pairs", "4", "-b", "9", "--json"])
    data = json.loads(result.stdout)
    assert (data["rounds"], data["boards_per_round"]) == (3, 9)
    assert result.stderr == ""


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"boards_per_set": 3}, r"boards per set \(3\) must divide the boards per round \(4\)"),
        ({"boards_per_set": 0}, "'boards_per_set' must be 1 or more, got 0"),
        ({"boards_per_set": "2"}, "'boards_per_set' must be a whole number, got \"2\""),
    ],
)
def test_a_bad_set_size_is_refused_in_words(data: dict[str, Any], words: str) -> None:
    movement = movement_to_json(howell(pairs=6, boards_per_round=4)) | data
    with pytest.raises(ValueError, match=words):
        movement_from_json(movement)


def test_boards_and_boards_a_round_that_disagree_are_refused_in_words() -> None:
    with pytest.raises(ValueError, match="24 boards do not fit the 5-table Howell with 2"):
        howell(pairs=10, boards=24, boards_per_round=2)
    with pytest.raises(ValueError, match=r"9 rounds or 8 rounds play 18 or 16$"):
        howell(pairs=10, boards=24, boards_per_round=2)
    with pytest.raises(ValueError, match="needs boards_per_round or boards, got neither"):
        howell(pairs=10)
