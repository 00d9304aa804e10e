"""Adjusted scores, exactly: fixed 60/40 against the club's average plus (Law 12C2), and
weighted scores (Law 12C1c) scored against the field with fractions.

Every expected value is worked out here by hand, or by the small independent
matchpointing written in this file (2 for each score beaten, 1 for each tie: the 2/1
scale of Law 78A). Board 1 is none vulnerable, board 2 NS vulnerable.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from bridgescore.board import Board
from bridgescore.compare.scalar import Award, round_half_away
from bridgescore.core import Vulnerability
from bridgescore.errors import RecordError
from bridgescore.session.scoring.adjustment import read_adjusted, read_reason, read_weighted
from bridgescore.session.scoring.event import Adjusted, Event, TableResult
from bridgescore.session.scoring.methods import ScoringOptions
from bridgescore.session.scoring.scorer import score_event
from bridgescore.session.scoring.weighted import Weighted, weight_of


def points(scored: object, board: int) -> dict[str, tuple[float | None, float | None]]:
    """Each NS pair's (NS points, EW points) on the board's traveller."""
    (traveller,) = [t for t in scored.travellers if t.board.number == board]  # type: ignore[attr-defined]
    return {line.result.ns: (line.ns, line.ew) for line in traveller.lines}


# ---------------------------------------------------------------- 60/40 is 60 %


def field(adjusted: str) -> Event:
    """Four tables. Board 2: 7-8 made 4S (+620), the other three went one down (-100):
    pair 7 has every matchpoint there (6 of 6) and pair 8 none. Board 1: three real
    results and 7-8 given ``adjusted``; the top is 3 comparisons x 2 = 6."""
    return Event(
        "Club",
        "pairs",
        results=(
            TableResult.played(2, "7", "8", "4SN="),
            TableResult.played(2, "1", "2", "4SN-1"),
            TableResult.played(2, "3", "4", "4SN-1"),
            TableResult.played(2, "5", "6", "4SN-1"),
            TableResult.played(1, "1", "2", "4SN="),
            TableResult.played(1, "3", "4", "4SN-1"),
            TableResult.played(1, "5", "6", "3NTN+1"),
            TableResult(1, "7", "8", adjusted=Adjusted.parse(adjusted)),
        ),
    )


@pytest.mark.parametrize("session_percentage", [False, True])
def test_60_40_is_60_percent_of_the_top_whatever_the_options(session_percentage: bool) -> None:
    options = ScoringOptions(session_percentage=session_percentage)
    scored = score_event(field("60/40"), "mp", options)
    # 60 % and 40 % of a top of 6.
    assert points(scored, 1)["7"] == (3.6, 2.4)


def test_50_50_and_40_60_are_fixed_too() -> None:
    options = ScoringOptions(session_percentage=True)
    assert points(score_event(field("50/50"), "mp", options), 1)["7"] == (3.0, 3.0)
    assert points(score_event(field("40/60"), "mp", options), 1)["7"] == (2.4, 3.6)


def test_average_plus_follows_the_session_percentage_option() -> None:
    # Without the option A+ is 60 % and A- 40 %, as 60/40 is.
    assert points(score_event(field("A+"), "mp"), 1)["7"] == (3.6, 2.4)
    # With it, A+ is the better of 60 % and the pair's own 100 % (6 of 6 on board 2),
    # A- the worse of 40 % and pair 8's own 0 %.
    options = ScoringOptions(session_percentage=True)
    assert points(score_event(field("A+"), "mp", options), 1)["7"] == (6.0, 0.0)


def test_60_40_in_imps_is_3_imps() -> None:
    event = Event(
        "Teams",
        "teams",
        results=(
            TableResult.played(1, "A", "B", "4SN="),
            TableResult(1, "B", "A", adjusted=Adjusted.parse("60/40")),
        ),
    )
    # Team B sat NS at the adjusted table: +3 IMPs to it, -3 to A (Law 12C2, IMPs).
    assert {s.name: s.total for s in score_event(event, "imps").standings} == {
        "B": 3.0,
        "A": -3.0,
    }


def test_the_adjusted_vocabulary() -> None:
    assert read_adjusted("60/40") == Adjusted(Award.AVERAGE_PLUS, Award.AVERAGE_MINUS, True)
    assert read_adjusted("40/60") == Adjusted(Award.AVERAGE_MINUS, Award.AVERAGE_PLUS, True)
    assert read_adjusted("A+") == Adjusted(Award.AVERAGE_PLUS, Award.AVERAGE_MINUS)
    assert read_adjusted("A-/A-") == Adjusted(Award.AVERAGE_MINUS, Award.AVERAGE_MINUS)
    assert read_adjusted("A-/A+") == Adjusted(Award.AVERAGE_MINUS, Award.AVERAGE_PLUS)
    assert read_adjusted("Avg+") == Adjusted(Award.AVERAGE_PLUS, Award.AVERAGE_MINUS)
    assert read_adjusted("not played") is None
    for text in ("60/40", "50/50", "40/60", "A+/A-", "A/A"):
        assert str(read_adjusted(text)) == text
    for bad in ("70/30", "", 60, None, "A++"):
        with pytest.raises(RecordError, match=r"adjusted: .* expected 60/40, 50/50"):
            read_adjusted(bad)


def test_a_reason_is_one_line_of_free_text() -> None:
    assert read_reason(None) == ""
    assert read_reason("  revoke\non trick 3 ") == "revoke on trick 3"
    with pytest.raises(RecordError, match="reason: 5 is not text"):
        read_reason(5)
    with pytest.raises(RecordError, match="at most 500 characters"):
        read_reason("x" * 501)


# ------------------------------------------------------------ weighted scores


def mp(score: int, others: list[int]) -> Fraction:
    """Matchpoints on the 2/1 scale, written out independently of the package."""
    return Fraction(sum(2 if score > o else 1 if score == o else 0 for o in others))


def test_a_weighted_score_is_each_result_against_the_field_weighted() -> None:
    # Board 1: 1-2 4S= (+420), 3-4 4S+1 (+450), 5-6 3NT= (+400); 7-8 are given
    # 50 % of 4S= (+420) and 50 % of 4S-1 (-50).
    field_scores = {"1": 420, "3": 450, "5": 400}
    parts = [(Fraction(1, 2), 420), (Fraction(1, 2), -50)]
    event = Event(
        "Club",
        "pairs",
        results=(
            TableResult.played(1, "1", "2", "4SN="),
            TableResult.played(1, "3", "4", "4SN+1"),
            TableResult.played(1, "5", "6", "3NTN="),
            TableResult(1, "7", "8", weighted=Weighted.parse("1/2 4SN=; 1/2 4SN-1")),
        ),
    )
    top = 6  # 3 comparisons x 2
    expected = {
        "7": sum(w * mp(s, list(field_scores.values())) for w, s in parts),
        **{
            pair: sum(
                w * mp(mine, [o for p, o in field_scores.items() if p != pair] + [s])
                for w, s in parts
            )
            for pair, mine in field_scores.items()
        },
    }
    # By hand: 7 gets 1/2 x 3 + 1/2 x 0 = 1.5; 1 gets 1/2 x 3 + 1/2 x 4 = 3.5,
    # 3 gets 6 and 5 gets 1/2 x 0 + 1/2 x 2 = 1.
    assert expected == {"7": Fraction(3, 2), "1": Fraction(7, 2), "3": 6, "5": 1}
    scored = points(score_event(event, "mp"), 1)
    assert scored == {pair: (float(v), float(top - v)) for pair, v in expected.items()}


# Board 1 has four results (the full size, top 6); on board 2 pair 4 sat out, and 7-8
# are given 1/2 of 2H= (+110) and 1/2 of 2H-1 (-50) beside 1-2 2H= (+110) and 3-4
# 2H+1 (+140).
WEIGHTED_FEWER = (
    TableResult.played(1, "1", "2", "4SN="), TableResult.played(1, "3", "4", "4SN+1"),
    TableResult.played(1, "5", "6", "4SN-1"), TableResult.played(1, "9", "10", "4SN="),
    TableResult.played(2, "1", "2", "2HN="), TableResult.played(2, "3", "4", "2HN+1"),
    TableResult(2, "7", "8", weighted=Weighted.parse("1/2 2HN=; 1/2 2HN-1")),
)  # fmt: skip


def neuberg_exact(points: Fraction, results: int, full: int) -> Fraction:
    """Neuberg's formula on the 2/1 scale, written out: (M + 1) N / n - 1."""
    return (points + 1) * full / results - 1


def test_a_weighted_score_on_a_board_with_fewer_results_is_factored_once() -> None:
    # Among board 2's three results (top 4): with 7-8 at +110, 1 scores 1, 3 scores 4,
    # 7 scores 1; at -50, 1 scores 2, 3 scores 4, 7 scores 0. The exact weighted sums
    # (1 3/2, 3 4, 7 1/2) Neuberg'd to four results, then rounded to 0.1 MP once:
    # 1: (3/2 + 1) 4/3 - 1 = 7/3 -> 2.3; 3: 17/3 -> 5.7; 7: (1/2 + 1) 4/3 - 1 = 1.
    # Each combination Neuberg'd and rounded first would give pair 1 (1.7 + 3.0) / 2 =
    # 2.35 -> 2.4: rounded twice.
    half = Fraction(1, 2)
    weighted = {
        "1": half * mp(110, [140, 110]) + half * mp(110, [140, -50]),
        "3": half * mp(140, [110, 110]) + half * mp(140, [110, -50]),
        "7": half * mp(110, [110, 140]) + half * mp(-50, [110, 140]),
    }
    assert weighted == {"1": Fraction(3, 2), "3": 4, "7": half}
    expected = {pair: round_half_away(neuberg_exact(v, 3, 4), 1) for pair, v in weighted.items()}
    assert expected == {"1": 2.3, "3": 5.7, "7": 1.0}
    scored = points(score_event(Event("Club", "pairs", results=WEIGHTED_FEWER), "mp"), 2)
    assert {pair: ns for pair, (ns, _) in scored.items()} == expected
    assert round_half_away(scored["1"][1], 1) == 3.7  # the EW pair: the rest of the top 6


def test_a_weighted_score_in_cross_imps() -> None:
    # 4S= (+420) v 4S+1 (+450): -30, 1 IMP down; v 3NT= (+400): +20, 1 IMP up; v itself 0.
    # 4S-1 (-50) v +420: -470, -10; v +450: -500, -11; v +400: -450, -10 (Law 78B).
    # Divided by the 3 comparisons: 0 and -31/3; weighted by halves: -31/6 = -5.1666...
    event = Event(
        "Club",
        "pairs",
        results=(
            TableResult.played(1, "1", "2", "4SN="),
            TableResult.played(1, "3", "4", "4SN+1"),
            TableResult.played(1, "5", "6", "3NTN="),
            TableResult(1, "7", "8", weighted=Weighted.parse("50% 4SN=; 50% 4SN-1")),
        ),
    )
    assert points(score_event(event, "cross-imps"), 1)["7"] == (-5.17, 5.17)


def test_a_weighted_table_in_a_teams_match() -> None:
    # A sits NS at table 1: +420. At table 2 B sits NS: 1/2 of 4S= (+420), 1/2 of
    # 4S-1 (-50). For A: 0 IMPs half the time, 470 = 10 IMPs the other half: 5.
    event = Event(
        "Teams",
        "teams",
        results=(
            TableResult.played(1, "A", "B", "4SN="),
            TableResult(1, "B", "A", weighted=Weighted.parse("1/2 4SN=; 1/2 4SN-1")),
        ),
    )
    assert {s.name: s.total for s in score_event(event, "imps").standings} == {
        "A": 5.0,
        "B": -5.0,
    }


def test_weighted_parts_from_json() -> None:
    parts = [
        {"weight": "1/3", "contract": "4S", "declarer": "N", "result": "="},
        {"weight": "2/3", "contract": "4S", "declarer": "N", "result": "-1"},
    ]
    weighted = read_weighted(parts)
    assert [w for w, _ in weighted.parts] == [Fraction(1, 3), Fraction(2, 3)]
    assert str(weighted) == "1/3 4SN=; 2/3 4SN-1"
    assert Weighted.parse(str(weighted)) == weighted
    # JSON numbers are read by their decimal text: 0.1 + 0.9 is exactly 1.
    tenths = [{**parts[0], "weight": 0.1}, {**parts[1], "weight": 0.9}]
    assert [w for w, _ in read_weighted(tenths).parts] == [Fraction(1, 10), Fraction(9, 10)]


@pytest.mark.parametrize(
    ("parts", "message"),
    [
        ([{"weight": "1/2", "contract": "4S", "declarer": "N", "result": "="}], "2 to 6 parts"),
        (
            [
                {"weight": "1/2", "contract": "4S", "declarer": "N", "result": "="},
                {"weight": "1/3", "contract": "4S", "declarer": "N", "result": "-1"},
            ],
            "must sum to 1, got 5/6",
        ),
        (
            [
                {"weight": "1/2", "contract": "4S", "declarer": "N", "result": "="},
                {"weight": "1/2", "contract": "4S", "declarer": "Q", "result": "-1"},
            ],
            "weighted part 2: declarer: 'Q' is not a seat",
        ),
        (
            [
                {"weight": "x", "contract": "4S", "declarer": "N", "result": "="},
                {"weight": "1/2", "contract": "4S", "declarer": "N", "result": "-1"},
            ],
            "weighted part 1: weight 'x' is not a number",
        ),
        (
            [
                {"weight": "1/2", "contract": "4S", "declarer": "N", "result": "=", "x": 1},
                {"weight": "1/2", "contract": "4S", "declarer": "N", "result": "-1"},
            ],
            "weighted part 1: unknown key 'x'",
        ),
        ("1/2 4SN=", "is not a weighted score"),
    ],
)
def test_bad_weighted_parts_are_named(parts: object, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        read_weighted(parts)


@pytest.mark.parametrize("weight", ["1e-99999999999", "9e99999999999", "nan", "inf", "1/0", True])
def test_weights_that_are_no_weights_are_refused_at_once(weight: object) -> None:
    with pytest.raises(RecordError, match="is not a number"):
        weight_of(weight)


def test_a_weighted_score_uses_the_vulnerability_the_board_states() -> None:
    # Board 1 stated both vulnerable: 4S= is +620 and 4S-1 -100. A sits NS at table 1
    # (+620); B NS at table 2 gets half +620 (0 IMPs) and half -100 (720: 12 IMPs): 6.
    # (By the number's vulnerability, none, it would be 420 v -50: 10 IMPs, so 5.)
    event = Event(
        "Teams",
        "teams",
        boards={1: Board(1, vulnerable=Vulnerability.BOTH)},
        results=(
            TableResult.played(1, "A", "B", "4SN="),
            TableResult(1, "B", "A", weighted=Weighted.parse("1/2 4SN=; 1/2 4SN-1")),
        ),
    )
    assert {s.name: s.total for s in score_event(event, "imps").standings} == {
        "A": 6.0,
        "B": -6.0,
    }
