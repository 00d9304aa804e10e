"""The event model: table results, their NS scores, adjusted scores, boards."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgescore.compare.scalar import Award
from bridgescore.core import Seat, Side, Vulnerability
from bridgescore.ddtable import DDTable
from bridgescore.deal import Deal
from bridgescore.errors import BridgeError, NotationError, RecordError
from bridgescore.notation import Result, parse_result
from bridgescore.scoring import score
from bridgescore.session.scoring.event import (
    Adjusted,
    Board,
    Event,
    TableResult,
    natural_key,
    ns_scores,
)

# rules.md §5.1, the printed table for boards 1-16.
DEALERS = "NESWNESWNESWNESW"
VULS = ["-", "NS", "EW", "All", "NS", "EW", "All", "-", "EW", "All", "-", "NS", "All", "-", "NS",
        "EW"]  # fmt: skip
VUL_WORD = {"-": Vulnerability.NONE, "NS": Vulnerability.NS, "EW": Vulnerability.EW,
            "All": Vulnerability.BOTH}  # fmt: skip


@pytest.mark.parametrize("number", range(1, 49))
def test_board_dealer_and_vulnerability_from_its_number(number: int) -> None:
    board = Board(number)
    assert board.dealer is Seat.parse(DEALERS[(number - 1) % 16])
    assert board.vulnerability is VUL_WORD[VULS[(number - 1) % 16]]


def test_board_number_must_be_positive() -> None:
    with pytest.raises(NotationError, match="0"):
        Board(0)


@pytest.mark.parametrize(
    ("board", "text", "ns_score"),
    [
        (1, "4SN=", 420),  # NS not vulnerable on board 1
        (2, "4SN=", 620),  # NS vulnerable on board 2
        (2, "4SE=", -420),  # EW declare, not vulnerable on board 2
        (3, "4SE=", -620),  # EW vulnerable on board 3
        (3, "3NTS-2", -100),  # NS not vulnerable on board 3, 50 a trick
        (4, "3NTW-2", 200),  # EW vulnerable on board 4, 100 a trick
        (7, "6NTXXS=", 2110),  # rules.md §6: +2110 vulnerable
        (1, "Pass", 0),
    ],
)
def test_ns_score_uses_the_declaring_side_vulnerability(
    board: int, text: str, ns_score: int
) -> None:
    assert TableResult.played(board, "1", "2", text).ns_score() == ns_score


def test_score_and_adjusted_results() -> None:
    assert TableResult(1, "1", "2", score=-110).ns_score() == -110
    adjusted = TableResult(1, "1", "2", adjusted=Adjusted.parse("A+"))
    assert adjusted.ns_score() is None and adjusted.is_artificial
    assert adjusted.describe() == "A+/A-"
    assert TableResult(1, "1", "2", score=0).describe() == "0"
    assert TableResult.played(1, "1", "2", "Pass").describe() == "Pass"


def test_adjusted_parse() -> None:
    assert Adjusted.parse("A+") == Adjusted(Award.AVERAGE_PLUS, Award.AVERAGE_MINUS)
    assert Adjusted.parse("A") == Adjusted(Award.AVERAGE, Award.AVERAGE)
    assert Adjusted.parse("A-") == Adjusted(Award.AVERAGE_MINUS, Award.AVERAGE_PLUS)
    # Law 12C2: the sides' scores need not balance.
    assert Adjusted.parse("A+/A+") == Adjusted(Award.AVERAGE_PLUS, Award.AVERAGE_PLUS)
    # Written as percentages, the scores are fixed shares of the top (60 % is 60 %).
    assert Adjusted.parse("60 / 50") == Adjusted(Award.AVERAGE_PLUS, Award.AVERAGE, fixed=True)
    assert repr(Adjusted.parse("A-")) == "Adjusted.parse('A-/A+')"
    for bad in ("A+/A/A", "B+", ""):
        with pytest.raises(NotationError):
            Adjusted.parse(bad)
    assert Adjusted.looks_like("A+") and Adjusted.looks_like("ave-")
    assert not Adjusted.looks_like("4S") and not Adjusted.looks_like("+620")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"ns": "1", "ew": "1", "score": 100}, "both NS and EW"),
        ({"ns": "", "ew": "1", "score": 100}, "needs a name"),
        ({"ns": "1", "ew": "2"}, "exactly one"),
        ({"ns": "1", "ew": "2", "score": 100, "adjusted": Adjusted.parse("A")}, "exactly one"),
        ({"ns": "1", "ew": "2", "score": 105}, "multiple of 10"),
        ({"ns": "1", "ew": "2", "score": 7610}, "7600"),
        ({"ns": "1", "ew": "2", "result": Result.parse("4S=")}, "no declarer"),
    ],
)
def test_bad_table_results(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        TableResult(1, **kwargs)  # type: ignore[arg-type]


def test_played_parses_text() -> None:
    with pytest.raises(BridgeError, match="4SN\\+8"):
        TableResult.played(1, "1", "2", "4SN+8")


def test_event_boards_and_participants() -> None:
    results = (TableResult(3, "10", "2", score=50), TableResult(3, "9", "1", score=50))
    event = Event("x", "pairs", {3: Board(3, deal=None)}, results)
    assert event.board_numbers() == [3]
    assert event.participants() == ["1", "2", "9", "10"]
    assert event.board(5).vulnerability is Vulnerability.NS
    with pytest.raises(RecordError, match="'rubber'"):
        Event("x", "rubber")  # type: ignore[arg-type]
    assert sorted(["B2", "a10", "a9"], key=natural_key) == ["a9", "a10", "B2"]


def test_a_board_holds_values_not_text() -> None:
    text = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    with pytest.raises(RecordError, match=r"Deal\.from_pbn"):
        Board(1, text)  # type: ignore[arg-type]
    table = DDTable.parse("0d0d00d0d000d0d00d0d")
    board = Board(1, Deal.from_pbn(text), table)
    assert board.deal is not None and board.deal.to_pbn() == text and board.dd_table is table
    with pytest.raises(RecordError, match=r"DDTable\.parse"):
        Board(1, None, "0d0d00d0d000d0d00d0d")  # type: ignore[arg-type]


@given(
    st.lists(
        st.tuples(
            st.integers(1, 32),
            st.integers(1, 7),
            st.sampled_from(["C", "D", "H", "S", "NT"]),
            st.sampled_from(["", "X", "XX"]),
            st.sampled_from("NESW"),
            st.integers(0, 13),
        ),
        max_size=30,
    )
)
def test_ns_scores_in_bulk_equal_one_by_one(
    rows: list[tuple[int, int, str, str, str, int]],
) -> None:
    results = [
        TableResult(board, "1", "2", result=parse_result(f"{level}{strain}{dbl}{seat}", tricks=t))
        for board, level, strain, dbl, seat, t in rows
    ]
    results.append(TableResult(5, "3", "4", score=-50))
    results.append(TableResult(5, "3", "4", adjusted=Adjusted.parse("A")))
    results.append(TableResult.played(5, "3", "4", "Pass"))
    expected: list[int | None] = []
    for r in results:
        # Independent: Law 77 score for the declaring side, signed for NS.
        if r.result is not None and r.result.contract is not None:
            declarer = r.result.contract.declarer
            assert declarer is not None
            vul = Vulnerability.from_board(r.board).is_vulnerable(declarer)
            points = score(r.result, vul)
            expected.append(points if declarer.side is Side.NS else -points)
        else:
            expected.append(r.score if r.result is None else 0)
    assert ns_scores(results) == expected
    assert [r.ns_score() for r in results] == expected
