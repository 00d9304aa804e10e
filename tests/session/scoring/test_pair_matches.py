"""A Swiss pairs' matches (issue 47 §6): each board in Butler IMPs against the field's
datum, each match's margin in VPs on the WBF scale. Every figure is worked here: the
IMP scale and the scores by the Laws (Law 77, Law 78B), the datum by its rule (the
field's NS scores, the highest and the lowest left out, the mean rounded to 10), the VPs
by the WBF formula written out below."""

from __future__ import annotations

import math

import pytest

from bridgescore.session.scoring.event import Event, TableResult
from bridgescore.session.scoring.pair_matches import pair_matches
from bridgescore.session.scoring.scorer import score_event

IMP_STEPS = [10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890, 1090,
             1290, 1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990]  # fmt: skip


def imps(difference: float) -> int:
    sign = 1 if difference >= 0 else -1
    return sign * sum(abs(difference) > step for step in IMP_STEPS)


def datum(scores: list[int]) -> int:
    kept = sorted(scores)
    if len(kept) >= 3:
        kept = kept[1:-1]
    mean = sum(kept) / len(kept)
    # To the nearest 10, halves away from zero.
    return int(math.copysign(math.floor(abs(mean) / 10 + 0.5) * 10, mean))


def wbf(margin: int, boards: int) -> tuple[float, float]:
    tau = (math.sqrt(5) - 1) / 2
    won = 10 + 10 * (1 - tau ** (3 * abs(margin) / (15 * math.sqrt(boards)))) / (1 - tau**3)
    winner = round(min(20.0, won), 2)
    home = winner if margin >= 0 else round(20 - winner, 2)
    return home, round(20 - home, 2)


# Boards 1 and 2 of a round, four tables (eight pairs), 3NT by South:
# board 1 (none vulnerable): = 400, +1 430, -1 -50, -2 -100;
# board 2 (NS vulnerable): = 600, +1 630, -1 -100, -2 -200.
SCORES = {
    1: {"=": 400, "+1": 430, "-1": -50, "-2": -100},
    2: {"=": 600, "+1": 630, "-1": -100, "-2": -200},
}
PLAYED = {  # table: (NS pair, EW pair, result on board 1, result on board 2)
    1: ("1", "2", "=", "+1"),
    2: ("3", "4", "+1", "="),
    3: ("5", "6", "-1", "-2"),
    4: ("7", "8", "=", "="),
}


def event() -> Event:
    return Event(
        "Swiss pairs",
        results=tuple(
            TableResult.played(board, ns, ew, "3NTS" + (first if board == 1 else second))
            for ns, ew, first, second in PLAYED.values()
            for board in (1, 2)
        ),
    )


def by_hand() -> dict[tuple[str, str], tuple[int, float, float]]:
    """Each match's (margin, NS pair's VPs, EW pair's VPs)."""
    datums = {
        board: datum([SCORES[board][row[1 + board]] for row in PLAYED.values()]) for board in (1, 2)
    }
    # Board 1: 400, 430, -50, 400 -> 400 and 400 kept: 400. Board 2: 630, 600, -200,
    # 600 -> 600, 600: 600.
    assert datums == {1: 400, 2: 600}
    found = {}
    for ns, ew, first, second in PLAYED.values():
        margin = imps(SCORES[1][first] - datums[1]) + imps(SCORES[2][second] - datums[2])
        found[(ns, ew)] = (margin, *wbf(margin, 2))
    return found


def test_each_match_by_butler_imps_and_vps() -> None:
    expected = by_hand()
    # 1 v 2: 0 + 1 (30 over) = 1; 3 v 4: 1 + 0 = 1; 5 v 6: -10 (450 under) - 13 (800
    # under) = -23; 7 v 8: 0.
    assert {key: margin for key, (margin, _, _) in expected.items()} == {
        ("1", "2"): 1, ("3", "4"): 1, ("5", "6"): -23, ("7", "8"): 0
    }  # fmt: skip
    scored = score_event(event(), "butler-vp")
    assert scored.ranking_unit == "VP" and scored.method == "butler-vp"
    for match in scored.matches:
        margin, home_vp, away_vp = expected[(match.home, match.away)]
        assert match.margin == margin
        assert (match.home_vp, match.away_vp) == (home_vp, away_vp)
        assert match.boards == 2 and match.between == "pairs"
    # Each pair's IMPs are those it won against the datum: 6 won 23, 5 none.
    five_six = next(m for m in scored.matches if m.home == "5")
    assert (five_six.home_imps, five_six.away_imps) == (0.0, 23.0)
    assert five_six.as_dict()["pairs"] == ["5", "6"]
    # Ranked by VPs: 6 20.00; 1 and 3 (won by 1); 7 and 8 (drawn); 2 and 4; 5 0.00.
    totals = {}
    for (ns, ew), (_, home_vp, away_vp) in expected.items():
        totals[ns], totals[ew] = home_vp, away_vp
    assert {s.name: s.total for s in scored.standings} == totals
    assert [s.name for s in scored.standings] == ["6", "1", "3", "7", "8", "2", "4", "5"]
    assert [s.rank for s in scored.standings] == ["1", "2=", "2=", "4=", "4=", "6=", "6=", "8"]


def test_the_travellers_show_each_board_datum() -> None:
    scored = score_event(event(), "butler-vp")
    assert {t.board.number: t.datum for t in scored.travellers} == {1: 400, 2: 600}


def test_pair_matches_from_butler_travellers_alone() -> None:
    # The same matches from the plain Butler travellers.
    matches, standings = pair_matches(score_event(event(), "butler").travellers)
    assert sorted((m.home, m.away, m.margin) for m in matches) == [
        ("1", "2", 1.0), ("3", "4", 1.0), ("5", "6", -23.0), ("7", "8", 0.0)
    ]  # fmt: skip
    assert standings[0].name == "6" and standings[0].total == 20.0


@pytest.mark.parametrize("margin", [-30, -5, -1, 0, 1, 4, 17, 60])
def test_the_vp_scale_by_formula(margin: int) -> None:
    from bridgescore.session.scoring.matches import scored_match

    match = scored_match("", "1", "2", 2, max(margin, 0), max(-margin, 0))
    assert (match.home_vp, match.away_vp) == pytest.approx(wbf(margin, 2), abs=0.011)
