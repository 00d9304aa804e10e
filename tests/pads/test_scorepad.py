"""The scorepad's pieces (pads/scorepad.py): per-deal points above and below the line,
honours, the We/They pad and PBN's ScoreRubber tags.

Every expected value is worked out here by hand from the rubber Laws: trick points
below the line, everything else above (Laws 72-77), honours (Law 77 honours
table), the unfinished-rubber bonus (Law 80); see docs/rules.md §2.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

import bridgescore as bs
from bridgescore.core import Seat, Side, Vulnerability
from bridgescore.errors import NotationError, RecordError
from bridgescore.notation import Result
from bridgescore.pads.scorepad import (
    Entry,
    Honors,
    Premium,
    above_line,
    as_honors,
    deal_points,
    declaring_side,
    render_pad,
    running_totals,
    score_rubber_history_tag,
    score_rubber_history_tags,
    score_rubber_tag,
    totals,
)

NS, EW = Side.NS, Side.EW


def points(text: str, side: Side, vulnerable: bool, **options: object) -> tuple[object, ...]:
    below, above = deal_points(Result.parse(text), side, vulnerable, **options)  # type: ignore[arg-type]
    return below, tuple((p.side, p.points, p.kind) for p in above)


@pytest.mark.parametrize(
    ("text", "side", "vulnerable", "below", "above"),
    [
        # 2H+1: two odd tricks of 30 below, one overtrick of 30 above.
        ("2H+1", NS, False, (60, 0), ((NS, 30, "overtricks"),)),
        # 4SX=: 4 x 30 doubled = 240 below; 50 for making a doubled contract above.
        ("4SX=", NS, True, (240, 0), ((NS, 50, "doubled/redoubled made"),)),
        # 6NT= by EW not vulnerable: 40 + 5 x 30 = 190 below, small slam 500 above.
        ("6NT=", EW, False, (0, 190), ((EW, 500, "slam"),)),
        # 7C= vulnerable: 7 x 20 = 140 below, grand slam 1500 above.
        ("7C=", NS, True, (140, 0), ((NS, 1500, "slam"),)),
        # 3NTXX+1 not vulnerable: (40 + 2 x 30) x 4 = 400 below; a redoubled
        # overtrick is 200 and the redoubled make 100, both above.
        ("3NTXX+1", NS, False, (400, 0),
         ((NS, 200, "overtricks"), (NS, 100, "doubled/redoubled made"))),
        # 4HX-3 by EW vulnerable: 200 + 300 + 300 = 800 to NS, above.
        ("4HX-3", EW, True, (0, 0), ((NS, 800, "undertricks"),)),
        # 3D-2 undoubled not vulnerable: 2 x 50 to the defenders.
        ("3D-2", NS, False, (0, 0), ((EW, 100, "undertricks"),)),
    ],
)  # fmt: skip
def test_deal_points(
    text: str, side: Side, vulnerable: bool, below: tuple[int, int], above: tuple[object, ...]
) -> None:
    assert points(text, side, vulnerable) == (below, above)


def test_deal_points_under_the_old_rules() -> None:
    # Before 1987: non-vulnerable doubled undertricks 100 then 200 each (4 down: 700,
    # not 800), and 50 (not 100) for making a redoubled contract.
    assert points("4SX-4", NS, False, rules=bs.PRE_1987)[1] == ((EW, 700, "undertricks"),)
    assert points("4SX-4", NS, False)[1] == ((EW, 800, "undertricks"),)
    assert points("2SXX=", NS, False, rules=bs.PRE_1987) == (
        (240, 0),
        ((NS, 50, "doubled/redoubled made"),),
    )


def test_honours_go_to_the_side_holding_them() -> None:
    # A defender's four trump honours score 100 for the defenders, made or not.
    _, above = points("4S-1", NS, False, honors=Honors(EW, 100))
    assert above == ((EW, 50, "undertricks"), (EW, 100, "honours"))
    _, above = points("4S=", NS, False, honors=Honors(NS, 150))
    assert above == ((NS, 150, "honours"),)


def test_passed_out_deal_scores_nothing() -> None:
    assert deal_points(Result(None), None, False) == ((0, 0), ())


@pytest.mark.parametrize(
    ("text", "honors"),
    [("NS 100", Honors(NS, 100)), ("honours EW 150", Honors(EW, 150)),
     ("honors 150 ns", Honors(NS, 150)), ("Honours e-w 100", Honors(EW, 100))],
)  # fmt: skip
def test_honours_text(text: str, honors: Honors) -> None:
    assert Honors.parse(text) == honors
    assert Honors.parse(str(honors)) == honors
    assert eval(repr(honors), {"Honors": Honors, "Side": Side}) == honors


@pytest.mark.parametrize("text", ["NS 120", "NS", "XY 100", "honours", "NS 100 EW"])
def test_bad_honours_text(text: str) -> None:
    with pytest.raises(NotationError, match=r"honours|100 or 150"):
        Honors.parse(text)


def test_honours_values_and_checks() -> None:
    with pytest.raises(NotationError, match="True"):
        Honors(NS, True)
    assert as_honors(("EW", 150)) == Honors(EW, 150)
    assert as_honors(None) is None
    # At notrump only the four aces count (150); 100 is impossible there.
    with pytest.raises(RecordError, match="notrump"):
        Honors(NS, 100).check(Result.parse("3NT="))
    with pytest.raises(RecordError, match="passed-out"):
        Honors(NS, 100).check(Result(None))
    Honors(NS, 150).check(Result.parse("3NT="))


def test_declaring_side() -> None:
    assert declaring_side(Result.parse("4SN="), None) is NS
    assert declaring_side(Result.parse("4S="), "ew") is EW
    assert declaring_side(Result.parse("4SW="), Seat.EAST) is EW
    assert declaring_side(Result(None), None) is None
    with pytest.raises(RecordError, match="who declared"):
        declaring_side(Result.parse("4S="), None)
    with pytest.raises(RecordError, match="not side NS"):
        declaring_side(Result.parse("4SE="), "NS")
    with pytest.raises(RecordError, match="passed-out"):
        declaring_side(Result(None), "NS")


def _entry(
    number: int,
    text: str,
    side: Side,
    vulnerability: Vulnerability,
    game: int,
    done: bool,
    honors: Honors | None = None,
) -> Entry:
    result = Result.parse(text)
    below, above = deal_points(result, side, vulnerability.is_vulnerable(side), honors)
    return Entry(number, number, result, side, None, vulnerability, game, below, above, done)


# The rubber Laws' worked rubber: NS (not vulnerable) make 2H+1; EW make 3NT= for
# game; EW, now vulnerable, go one down in 4HX; play stops and Law 80 gives EW 300
# for the only game. NS 60 + 30 + 200 = 290, EW 100 + 300 = 400.
WORKED = (
    _entry(1, "2H+1", NS, Vulnerability.NONE, 1, False),
    _entry(2, "3NT=", EW, Vulnerability.NONE, 1, True),
    _entry(3, "4HX-1", EW, Vulnerability.EW, 2, False),
)
LAW_80 = (Premium(EW, 300, "unfinished rubber: game"),)


def test_totals_of_the_worked_rubber() -> None:
    assert totals(WORKED) == {"NS": 290, "EW": 100}
    assert totals(WORKED, LAW_80) == {"NS": 290, "EW": 400}
    assert [entry.points(NS) for entry in WORKED] == [90, 0, 200]


def test_the_we_they_pad() -> None:
    # A rubber in progress: NS (not vulnerable) make 4S= holding 100 honours: 120 below,
    # game. EW make 2H= (60 below, game 2). NS, vulnerable now, go one down in 3NTX:
    # 200 above to EW. NS make 2NT+1: 70 below, 30 above. Above the line each side
    # writes upwards from the line (NS 100 then 30; EW 200); below it one row per
    # deal with trick points and a rule after the finished game; totals NS 120 +
    # 100 + 70 + 30 = 320, EW 60 + 200 = 260. Columns are 10 wide.
    rubber = (
        _entry(1, "4S=", NS, Vulnerability.NONE, 1, True, Honors(NS, 100)),
        _entry(2, "2H=", EW, Vulnerability.NS, 2, False),
        _entry(3, "3NTX-1", NS, Vulnerability.NS, 2, False),
        _entry(4, "2NT+1", NS, Vulnerability.NS, 2, False),
    )
    assert render_pad(rubber).splitlines() == [
        "   WE (NS) | THEY (EW)",
        "-----------+-----------",
        "        30 |",
        "       100 |    200",
        "===========+===========",
        "       120 |",
        "-----------+-----------",
        "           |     60",
        "        70 |",
        "===========+===========",
        "       320 |    260",
    ]


def test_the_pad_from_the_other_side() -> None:
    lines = render_pad(WORKED, LAW_80, we=EW).splitlines()
    assert lines[0] == "   WE (EW) | THEY (NS)"
    assert lines[3] == "       300 |     30"
    assert lines[-1] == "       400 |    290"


def test_score_rubber_tags() -> None:
    # PBN ScoreRubber: above/below for each side, for that deal alone.
    assert [score_rubber_tag(entry) for entry in WORKED] == [
        "NS 30/60 EW 0/0",
        "NS 0/0 EW 0/100",
        "NS 200/0 EW 0/0",
    ]


def test_score_rubber_history_tags() -> None:
    # PBN ScoreRubberHistory: the score before the deal, with one below-the-line
    # figure per game so far.
    assert score_rubber_history_tag((), 1) == "NS 0 0/0 EW 0 0/0"
    assert score_rubber_history_tag(WORKED[:1], 1) == "NS 0 30/60 EW 0 0/0"
    assert score_rubber_history_tag(WORKED[:2], 2) == "NS 0 30/60 0 EW 0 0/100 0"
    assert score_rubber_history_tag(WORKED, 2, (700, 0)) == "NS 700 230/60 0 EW 0 0/100 0"
    with pytest.raises(RecordError, match="game 4"):
        score_rubber_history_tag(WORKED, 4)
    with pytest.raises(RecordError, match="above_previous"):
        score_rubber_history_tag(WORKED, 2, (-50, 0))


def test_a_rubber_pad_gives_the_same_tags() -> None:
    pad = bs.RubberScore()
    for text, side in (("2H+1", "NS"), ("3NT=", "EW"), ("4HX-1", "EW")):
        pad.record(text, side)
    tags = pad.pbn_tags()
    assert [t["ScoreRubber"] for t in tags] == [score_rubber_tag(e) for e in WORKED]


def test_history_tags_of_a_whole_rubber_in_one_pass() -> None:
    # The same figures as test_score_rubber_history_tags, deal by deal.
    assert score_rubber_history_tags(WORKED, (700, 0)) == [
        "NS 700 0/0 EW 0 0/0",
        "NS 700 30/60 EW 0 0/0",
        "NS 700 30/60 0 EW 0 0/100 0",
    ]
    assert score_rubber_history_tags(()) == []
    with pytest.raises(RecordError, match="above_previous"):
        score_rubber_history_tags(WORKED, (0, -1))


def test_history_refuses_deals_out_of_order() -> None:
    # WORKED[1] completes game 1 and WORKED[2] is in game 2: game 1 cannot follow it.
    with pytest.raises(RecordError, match="a deal of game 2 comes before game 1"):
        score_rubber_history_tag(WORKED, 1)
    late = replace(WORKED[0], game=4)
    with pytest.raises(RecordError, match="deal 1 is in game 4"):
        score_rubber_history_tags([late])


def test_above_line_counts_premiums_only() -> None:
    # 2H+1 NS: 60 below, 30 above; EW's honours 100 above; Law 80's 300 to EW above.
    below, above = deal_points(Result.parse("2H+1"), NS, False, Honors(EW, 100))
    entry = Entry(1, 1, Result.parse("2H+1"), NS, None, Vulnerability.NONE, 1, below, above)
    assert above_line([entry]) == (30, 100)
    assert above_line([entry], (Premium(EW, 300, "unfinished rubber: game"),)) == (30, 400)
    assert above_line([]) == (0, 0)


def test_running_totals_add_up_in_order() -> None:
    each = [{"NS": 950, "EW": 0}, {"NS": 0, "EW": 620}, {"NS": 140, "EW": 400}]
    assert running_totals(each) == [
        {"NS": 950, "EW": 0},
        {"NS": 950, "EW": 620},
        {"NS": 1090, "EW": 1020},
    ]
    assert running_totals([]) == []
