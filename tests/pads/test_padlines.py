"""The scorepad's line grammar and recording deals on a pad, without the CLI."""

from __future__ import annotations

import pytest

import bridgescore as bs
from bridgescore.pads.padlines import LineProblem, parse_line, read_deals, record_deals
from bridgescore.pads.rubber import RubberScore


@pytest.mark.parametrize(
    ("text", "result", "by", "honors"),
    [
        ("4S+1 NS", "4S+1", bs.Side.NS, None),
        ("3NTX-2 by EW", "3NTX-2", bs.Side.EW, None),
        ("4S by N making 5", "4SN+1", None, None),
        ("pass", "Pass", None, None),
        ("6H= e-w honours EW 150", "6H=", bs.Side.EW, "EW 150"),
        ("honors NS 100", None, None, "NS 100"),
    ],
)
def test_line_grammar(
    text: str, result: str | None, by: bs.Side | None, honors: str | None
) -> None:
    line = parse_line(7, text)
    assert (None if line.result is None else str(line.result)) == result
    assert line.by is by
    assert (None if line.honors is None else str(line.honors)) == honors


@pytest.mark.parametrize("text", ["pass NS", "honours NS", "4S+1 XY", "4S+1 NS honors"])
def test_line_grammar_errors(text: str) -> None:
    with pytest.raises(bs.BridgeError):
        parse_line(1, text)


def test_honours_on_their_own_line_join_the_deal_before() -> None:
    problems: list[LineProblem] = []
    lines = [(1, "4H= NS"), (2, "honours NS 100"), (4, "honors EW 150"), (5, "2C= EW")]
    deals = list(read_deals(lines, problems))
    assert [(d.number, str(d.result), str(d.honors)) for d in deals] == [
        (1, "4H=", "NS 100"),
        (5, "2C=", "None"),
    ]
    assert [(p.number, p.text) for p in problems] == [(4, "honors EW 150")]
    assert "already has honours" in problems[0].message


def test_honours_with_no_deal_before_are_a_problem() -> None:
    problems: list[LineProblem] = []
    assert list(read_deals([(3, "honours NS 100")], problems)) == []
    assert problems[0].number == 3 and "follow no deal" in problems[0].message


def test_record_deals_goes_on_past_bad_lines() -> None:
    pad = RubberScore()
    lines = [(1, "4S= NS"), (2, "4Z= NS"), (3, "4H= NS"), (4, "1C= EW")]
    recorded, problems = record_deals(lines, lambda r, by, hon: pad.record(r, by, honors=hon))
    # 4S= then 4H= win the rubber for NS in two games (Law 77: 120 + 120 below
    # the line); the deal on line 4 comes after the rubber is over.
    assert [line.number for line, _ in recorded] == [1, 3]
    assert [p.number for p in problems] == [2, 4]
    assert "'4Z= NS'" in problems[0].message or "'4Z='" in problems[0].message
    assert pad.games == {"NS": 2, "EW": 0}
