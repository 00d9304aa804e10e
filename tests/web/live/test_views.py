"""What the live pages show, as pure functions (web/live/views.py): the score to confirm
(Law 77, worked by hand), the words the opponents confirm, and where a table's pairs and
boards go after a round, for each kind of stop a movement has. The form read into an
entry: tests/session/live/test_entry.py."""

from __future__ import annotations

import pytest

from bridgescore.movement.flow import NextStop
from bridgescore.session.live.documents import EnteredResult, NextMove, NextSeat, TableRound
from bridgescore.session.live.entry import ResultEntry
from bridgescore.web.live.views import (
    contract_words,
    current_round,
    form_of,
    move_lines,
    ns_score,
    score_words,
)


def view(next_move: NextMove | None, ns: str = "3N", ew: str = "5E") -> TableRound:
    return TableRound(2, ns, ew, (7, 8, 9), False, (), next_move)


NS_STAYS = NextSeat(3, "NS")
EW_UP = NextSeat(4, "EW")


def test_moves_to_another_table() -> None:
    lines = move_lines(3, view(NextMove(NS_STAYS, EW_UP, (NextStop((7, 8, 9), (2,)),))))
    assert lines == [
        "NS pair 3N: stay at table 3, NS",
        "EW pair 5E: go to table 4, EW",
        "Boards 7, 8, 9: pass them to table 2",
    ]


def test_relay_bye_stand_and_collect() -> None:
    stops = (
        NextStop((7,), (1, 6)),
        NextStop((8,), (), later=True),
        NextStop((9,), ()),
    )
    lines = move_lines(3, view(NextMove(NS_STAYS, EW_UP, stops)))
    assert lines[2:] == [
        "Board 7: pass them to the relay between tables 1 and 6",
        "Board 8: put them on the bye stand",
        "Board 9: give them to the director (no later round plays them)",
    ]


def test_boards_staying_at_the_table() -> None:
    lines = move_lines(3, view(NextMove(NS_STAYS, EW_UP, (NextStop((7, 8, 9), (3,)),))))
    assert lines[2] == "Boards 7, 8, 9: keep them at this table"


def test_a_pair_sitting_out_and_a_howell_pair_changing_direction() -> None:
    lines = move_lines(
        3,
        view(NextMove(None, NextSeat(1, "NS"), ()), ns="4", ew="9"),
        arrow_switch=False,
    )
    assert lines == ["NS pair 4: sit out the next round", "EW pair 9: go to table 1, NS"]


def test_arrow_switch_says_which_cards() -> None:
    lines = move_lines(3, view(NextMove(NS_STAYS, EW_UP, ())), arrow_switch=True)
    assert lines == [
        "NS pair 3N: stay at table 3, NS (arrow switch: play the EW cards)",
        "EW pair 5E: go to table 4, EW (arrow switch: play the NS cards)",
    ]


def test_after_the_last_round() -> None:
    assert move_lines(3, view(None)) == [
        "The last round is over. Boards 7, 8, 9: give them to the director."
    ]


def test_current_round_is_the_first_with_a_board_missing() -> None:
    def played(round_number: int, boards: tuple[int, int], entered: tuple[int, ...]) -> TableRound:
        results = tuple(EnteredResult(board, "Pass", 0, None) for board in entered)
        return TableRound(round_number, "1N", "1E", boards, False, results, None)

    rounds = [played(1, (1, 2), (1, 2)), played(2, (3, 4), (4,)), played(3, (5, 6), ())]
    assert current_round(rounds) is rounds[1]
    assert (
        current_round([played(r.round, (r.boards[0], r.boards[1]), r.boards) for r in rounds])
        is None
    )


FORM = {"round": "2", "board": "4", "level": "4", "strain": "H", "doubling": "X",
        "declarer": "E", "result": "="}  # fmt: skip


@pytest.mark.parametrize(
    ("changes", "board", "expected"),
    [
        # Board 4, both vulnerable: 4HX by E made: 2 x 120 + 500 + 50 = EW +790.
        ({}, 4, -790),
        # Board 4: 3NT by S two down vulnerable, undoubled: 2 x 100 = EW +200.
        ({"level": "3", "strain": "NT", "doubling": "", "declarer": "S", "result": "-2"}, 4, -200),
        # Board 1, nobody vulnerable: 1C by N with six overtricks: 20 + 6 x 20 + 50 = NS +190.
        ({"level": "1", "strain": "C", "doubling": "", "declarer": "N", "result": "+6"}, 1, 190),
        # Board 3, EW vulnerable: 6SXX by W one down vulnerable, redoubled: 400 to NS.
        ({"level": "6", "strain": "S", "doubling": "XX", "declarer": "W", "result": "-1"}, 3, 400),
        ({"level": "PASS"}, 4, 0),
    ],
)
def test_the_score_to_confirm(changes: dict[str, str], board: int, expected: int) -> None:
    entry = ResultEntry.from_form({**FORM, "board": str(board), **changes})
    assert ns_score(entry) == expected


def test_score_words() -> None:
    assert [score_words(s) for s in (450, -100, 0)] == ["NS +450", "EW +100", "0"]


def test_contract_words() -> None:
    def words(changes: dict[str, str]) -> str:
        return contract_words(ResultEntry.from_form({**FORM, **changes}))

    assert words({}) == "4♥X by E, made exactly"
    assert words({"result": "-3"}) == "4♥X by E, down 3"
    assert words({"result": "+2", "doubling": "XX"}) == "4♥XX by E, made +2"
    assert words({"level": "1", "strain": "NT", "doubling": ""}) == "1NT by E, made exactly"
    assert words({"level": "PASS"}) == "passed out"


@pytest.mark.parametrize(
    ("stored", "form"),
    [
        ("4HXE=", {"level": "4", "strain": "H", "doubling": "X", "declarer": "E", "result": "="}),
        ("3NTS-2", {"level": "3", "strain": "NT", "doubling": "", "declarer": "S", "result": "-2"}),
        (
            "1CXXN+6",
            {"level": "1", "strain": "C", "doubling": "XX", "declarer": "N", "result": "+6"},
        ),
        ("Pass", {"level": "PASS"}),
        ("A+/A-", {}),
        ("not played", {}),
    ],
)
def test_the_change_form_starts_from_the_stored_result(stored: str, form: dict[str, str]) -> None:
    assert form_of(stored) == form
