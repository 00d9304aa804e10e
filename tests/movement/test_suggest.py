"""suggest (issue 25 §2): the movements that fit N pairs and about B boards, worked by hand.

The rules (movement/suggest.py): T = ceil(N / 2) tables. A Mitchell plays up to T rounds
(odd T), T - 1 with the skip or T with the relay (even T), and may stop after three
quarters of them (rounded up); a Howell plays 2T - 1 rounds (T <= 8) or the 3/4 Howell's.
For each boards-a-round b >= 2 the rounds are the nearest to B / b inside that range, kept
when rounds x b is within B // 8 (at least 1) of B. Minutes: boards x minutes a board +
2 minutes for each change of round.
"""

from __future__ import annotations

import pytest

from bridgescore.errors import InvalidArgumentError
from bridgescore.movement.suggest import Suggestion, suggest


def _shapes(found: list[Suggestion]) -> list[tuple[str, int, int, int, int, float, bool, bool]]:
    return [
        (
            s.kind,
            s.tables,
            s.rounds,
            s.boards_per_round,
            s.boards,
            s.minutes,
            s.relay,
            s.arrow_switch,
        )
        for s in found
    ]


def test_fourteen_pairs_twenty_four_boards() -> None:
    # 7 tables, window 21..27 boards. Mitchell: 6 or 7 rounds; b = 3: 24/3 = 8 -> 7 rounds,
    # 21 boards; b = 4: 6 rounds, 24; b = 5: 4.8 -> 5 -> at least 6: 30, too many; larger b
    # only more. Howell 13 rounds: b = 2 -> 26; b = 3 -> 39.
    # Minutes: 24 x 7.5 + 5 x 2 = 190; 26 x 7.5 + 12 x 2 = 219; 21 x 7.5 + 6 x 2 = 169.5.
    assert _shapes(suggest(pairs=14, boards=24)) == [
        ("mitchell", 7, 6, 4, 24, 190.0, False, False),
        ("mitchell", 7, 6, 4, 24, 190.0, False, True),
        ("howell", 7, 13, 2, 26, 219.0, False, False),
        ("mitchell", 7, 7, 3, 21, 169.5, False, False),
        ("mitchell", 7, 7, 3, 21, 169.5, False, True),
    ]


def test_fourteen_pairs_twenty_seven_boards() -> None:
    # Window 24..30. Mitchell: b = 3 -> 7 rounds, 21 (out); b = 4: 6.75 -> 7, 28 (222 min:
    # 210 + 12); b = 5: 5.4 -> 5 -> 6 rounds, 30 (225 + 10 = 235); b = 6: 4.5 -> 5 -> 6, 36.
    # Howell: 13 x 2 = 26 (219 min). 26 and 28 are both one off: the shorter session first.
    assert _shapes(suggest(pairs=14, boards=27)) == [
        ("howell", 7, 13, 2, 26, 219.0, False, False),
        ("mitchell", 7, 7, 4, 28, 222.0, False, False),
        ("mitchell", 7, 7, 4, 28, 222.0, False, True),
        ("mitchell", 7, 6, 5, 30, 235.0, False, False),
        ("mitchell", 7, 6, 5, 30, 235.0, False, True),
    ]


def test_seven_pairs_twenty_boards_with_a_sit_out() -> None:
    # 4 tables, window 18..22. Skip Mitchell: 3 rounds only: b = 6 -> 18, b = 7 -> 21.
    # Relay Mitchell, 4 rounds only: b = 5 -> 20 (b = 4: 16, b = 6: 24). Howell of 7 pairs
    # (the 4-table one without pair 8, 3 tables in play): 7 rounds, b = 3 -> 21.
    # Minutes: 20 x 7.5 + 3 x 2 = 156; 21 x 7.5 + 2 x 2 = 161.5; 21 x 7.5 + 6 x 2 = 169.5;
    # 18 x 7.5 + 2 x 2 = 139.
    # Of the 21-board ones, the complete Howell (everyone meets everyone) comes first
    # though it takes four changes more.
    found = suggest(pairs=7, boards=20)
    assert _shapes(found) == [
        ("mitchell", 4, 4, 5, 20, 156.0, True, False),
        ("mitchell", 4, 4, 5, 20, 156.0, True, True),
        ("howell", 3, 7, 3, 21, 169.5, False, False),
        ("mitchell", 4, 3, 7, 21, 161.5, False, False),
        ("mitchell", 4, 3, 7, 21, 161.5, False, True),
        ("mitchell", 4, 3, 6, 18, 139.0, False, False),
        ("mitchell", 4, 3, 6, 18, 139.0, False, True),
    ]
    assert found[2].description == (
        "complete Howell, 3 tables: 7 rounds of 3 boards = 21 boards a pair, one pair sits"
        " out each round; every pair meets every other"
    )
    assert found[0].description == (
        "relay Mitchell, 4 tables: 4 rounds of 5 boards = 20 boards a pair, one pair sits out"
        " each round; two winners (NS and EW)"
    )


def test_a_large_field_gets_a_three_quarter_howell_and_a_short_mitchell() -> None:
    # 20 pairs, 28 boards, 8 minutes a board: 10 tables, window 25..31. Skip Mitchell (9
    # rounds, at least 7): b = 3 -> 9 rounds, 27; b = 4 -> 7, 28. Relay (10 rounds only):
    # b = 3 -> 30. 3/4 Howell: 14 rounds x 2 = 28: played to its end, so before the
    # Mitchell cut short to 7 of its 9 rounds.
    # Minutes (8 a board): 28 x 8 + 6 x 2 = 236; 28 x 8 + 13 x 2 = 250; 27 x 8 + 8 x 2 = 232;
    # 30 x 8 + 9 x 2 = 258.
    assert _shapes(suggest(pairs=20, boards=28, minutes_per_board=8)) == [
        ("howell", 10, 14, 2, 28, 250.0, False, False),
        ("mitchell", 10, 7, 4, 28, 236.0, False, False),
        ("mitchell", 10, 7, 4, 28, 236.0, False, True),
        ("mitchell", 10, 9, 3, 27, 232.0, False, False),
        ("mitchell", 10, 9, 3, 27, 232.0, False, True),
        ("mitchell", 10, 10, 3, 30, 258.0, True, False),
        ("mitchell", 10, 10, 3, 30, 258.0, True, True),
    ]


def test_beyond_fifteen_tables_a_mitchell_of_two_board_rounds() -> None:
    # 20 tables, window 23..29: three quarters of the skip Mitchell's 19 rounds is 15, 30
    # boards at the least; a field this large may stop at ceil(26 / 2) = 13 rounds of 2.
    # The relay plays all 20 rounds or none: 40 boards at the least. No Howell past 15
    # tables. Minutes: 26 x 7.5 + 12 x 2 = 219.
    assert _shapes(suggest(pairs=40, boards=26)) == [
        ("mitchell", 20, 13, 2, 26, 219.0, False, False),
        ("mitchell", 20, 13, 2, 26, 219.0, False, True),
    ]


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"pairs": 2, "boards": 24}, "pairs must be a whole number from 3 to 60, got 2"),
        ({"pairs": 61, "boards": 24}, "got 61"),
        ({"pairs": 14, "boards": 0}, "boards must be a whole number from 1 to 200, got 0"),
        ({"pairs": 14, "boards": 10**9}, "from 1 to 200, got 1000000000"),
        ({"pairs": 14, "boards": 24, "minutes_per_board": 0}, "above 0 and below 60, got 0"),
        ({"pairs": 14, "boards": 24, "minutes_per_board": True}, "got True"),
        ({"pairs": 14, "boards": 24, "minutes_per_board": "7"}, "got '7'"),
    ],
)
def test_bad_arguments(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(InvalidArgumentError, match=words):
        suggest(**kwargs)  # type: ignore[arg-type]
