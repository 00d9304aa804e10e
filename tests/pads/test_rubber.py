"""Rubber bridge scorepad (docs/rules.md §2): every expected value is worked out by hand
from the rules in the comment beside it, or by the small reference scorer below."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bridgescore as bs
from bridgescore.pads.rubber import (
    LAW_80,
    Law80,
    RubberEvening,
    RubberScore,
    rubber_entry,
    settle_unfinished,
)
from bridgescore.pads.scorepad import Entry, Honors, Premium, score_rubber_history_tag
from bridgescore.scoring import PRE_1987

NS, EW = bs.Side.NS, bs.Side.EW


def above(pad: RubberScore) -> dict[str, int]:
    """Each side's points above the line (premiums), from the entries."""
    sums = {"NS": 0, "EW": 0}
    for entry in pad.entries:
        for premium in entry.above:
            sums[premium.side.name] += premium.points
    for premium in pad.settlement:
        sums[premium.side.name] += premium.points
    return sums


# ---------------------------------------------------------------- docs/rules.md §2.5


def test_worked_example_of_rules_2_5() -> None:
    pad = RubberScore()
    # 1. NS (NV) make 2H+1: 60 below, 30 above.
    first = pad.record("2H+1", "NS")
    assert first.below == (60, 0)
    assert first.above == (Premium(NS, 30, "overtricks"),)
    assert not first.completes_game
    # 2. EW make 3NT=: 100 below, EW win game 1; NS's 60 no longer counts; EW vulnerable.
    second = pad.record("3NT=", "EW")
    assert second.below == (0, 100) and second.above == ()
    assert second.completes_game
    assert pad.games == {"NS": 0, "EW": 1}
    assert pad.below_line == {"NS": 0, "EW": 0}
    assert pad.vulnerability is bs.Vulnerability.EW
    # 3. EW (V) go down in 4HX by 1: NS score 200 above.
    third = pad.record("4HX-1", "EW")
    assert third.vulnerable
    assert third.above == (Premium(NS, 200, "undertricks"),)
    # 4. Play stops: EW get 300 for the only completed game; no partscores now.
    assert pad.finish() == (Premium(EW, 300, "unfinished rubber: game"),)
    # 5. NS 60 + 30 + 200 = 290; EW 100 + 300 = 400; EW win by 110.
    assert pad.totals() == {"NS": 290, "EW": 400}
    assert pad.winner is EW
    assert pad.is_finished


def test_worked_example_pad_text() -> None:
    pad = RubberScore()
    pad.record("2H+1", "NS")
    pad.record("3NT=", "EW")
    pad.record("4HX-1", "EW")
    pad.finish()
    expected = [
        "   WE (NS) | THEY (EW)",
        "-----------+-----------",
        "       200 |",
        "        30 |    300",
        "===========+===========",
        "        60 |",
        "           |    100",
        "-----------+-----------",
        "===========+===========",
        "       290 |    400",
    ]
    assert pad.pad().splitlines() == expected
    # From EW's chair the columns swap.
    assert pad.pad(we="EW").splitlines()[3] == "       300 |     30"


def test_worked_example_pbn_tags() -> None:
    pad = RubberScore()
    pad.record("2H+1", "NS")
    pad.record("3NT=", "EW")
    pad.record("4HX-1", "EW")
    # PBN 2.1 §4.2.5: "<above>/<below>" per side for the deal itself.
    # §4.2.6: at the start of each deal, "<above_previous> <above_current>/<below-1> ..."
    # with one below figure per game begun so far.
    assert pad.pbn_tags() == [
        {"ScoreRubber": "NS 30/60 EW 0/0", "ScoreRubberHistory": "NS 0 0/0 EW 0 0/0"},
        {"ScoreRubber": "NS 0/0 EW 0/100", "ScoreRubberHistory": "NS 0 30/60 EW 0 0/0"},
        {"ScoreRubber": "NS 200/0 EW 0/0", "ScoreRubberHistory": "NS 0 30/60 0 EW 0 0/100 0"},
    ]
    tags = pad.pbn_tags(above_previous=(120, 0))
    assert tags[2]["ScoreRubberHistory"] == "NS 120 30/60 0 EW 0 0/100 0"


# ---------------------------------------------------------------- games


def test_game_by_summed_partscores() -> None:
    pad = RubberScore()
    pad.record("1C=", "NS")  # 20
    pad.record("2D=", "NS")  # 40, 60 so far
    assert pad.games == {"NS": 0, "EW": 0}
    assert pad.below_line == {"NS": 60, "EW": 0}
    entry = pad.record("2C=", "NS")  # 40: 100 exactly is game
    assert entry.completes_game
    assert pad.games == {"NS": 1, "EW": 0}
    assert pad.vulnerability is bs.Vulnerability.NS
    # No per-deal 300/500 and no 50 partscore premium in rubber.
    assert pad.totals() == {"NS": 100, "EW": 0}


def test_two_partscores_of_sixty_and_forty() -> None:
    pad = RubberScore()
    pad.record("2S=", "NS")  # 60
    pad.record("1NT=", "NS")  # 40: 100
    assert pad.games == {"NS": 1, "EW": 0}


def test_a_game_wipes_out_the_opponents_partscore_for_game_purposes() -> None:
    pad = RubberScore()
    pad.record("2H=", "NS")  # NS 60
    pad.record("4S=", "EW")  # EW 120: game; NS's 60 no longer counts toward game
    entry = pad.record("1NT=", "NS")  # 40: 60 + 40 would be 100, but the 60 is gone
    assert not entry.completes_game
    assert pad.games == {"NS": 0, "EW": 1}
    assert pad.below_line == {"NS": 40, "EW": 0}
    # The wiped-out 60 still counts in the totals: NS 60 + 40; EW 120.
    assert pad.totals() == {"NS": 100, "EW": 120}
    assert [entry.game for entry in pad.entries] == [1, 1, 2]


def test_defenders_partscore_stays_when_the_declarer_fails() -> None:
    pad = RubberScore()
    pad.record("3C=", "EW")  # EW 60
    pad.record("4S-1", "NS")  # EW +50 above; EW's 60 still counts toward game
    entry = pad.record("2C=", "EW")  # 40: 100
    assert entry.completes_game


def test_passed_out_deal_scores_nothing_and_passes_the_deal() -> None:
    pad = RubberScore(first_dealer=bs.Seat.NORTH)
    entry = pad.record("Pass")
    assert entry.below == (0, 0) and entry.above == () and entry.declarer is None
    dealers = [pad.dealer]
    pad.record(bs.Result.passed_out())
    dealers.append(pad.dealer)
    assert dealers == [bs.Seat.EAST, bs.Seat.SOUTH]
    assert pad.totals() == {"NS": 0, "EW": 0}


# ---------------------------------------------------------------- vulnerability


def test_doubled_overtricks_at_changing_vulnerability() -> None:
    pad = RubberScore()
    # NS not vulnerable: 4SX+1 is 240 below, 100 overtrick, 50 for the doubled make.
    first = pad.record("4SX+1", "NS")
    assert first.below == (240, 0)
    assert first.above == (
        Premium(NS, 100, "overtricks"),
        Premium(NS, 50, "doubled/redoubled made"),
    )
    assert pad.vulnerability is bs.Vulnerability.NS
    # NS vulnerable now: the same result gives a 200 overtrick, then the 700 rubber (2-0).
    second = pad.record("4SX+1", "NS")
    assert second.above == (
        Premium(NS, 200, "overtricks"),
        Premium(NS, 50, "doubled/redoubled made"),
        Premium(NS, 700, "rubber"),
    )
    # 240 + 100 + 50 + 240 + 200 + 50 + 700
    assert pad.totals() == {"NS": 1580, "EW": 0}
    assert pad.is_finished and pad.winner is NS


def test_redoubled_overtricks_when_vulnerable() -> None:
    pad = RubberScore()
    pad.record("3NT=", "EW")  # EW vulnerable now
    entry = pad.record("2HXX+2", "EW")  # 4 x 60 = 240 below; 2 x 400 above; 100 insult
    assert entry.below == (0, 240)
    assert entry.above[:2] == (
        Premium(EW, 800, "overtricks"),
        Premium(EW, 100, "doubled/redoubled made"),
    )


def test_slams_at_changing_vulnerability_and_a_2_1_rubber() -> None:
    pad = RubberScore()
    # EW not vulnerable: 6H= is 180 below and 500 slam; game.
    one = pad.record("6H=", "EW")
    assert one.above == (Premium(EW, 500, "slam"),)
    # NS not vulnerable: 7NTXX= is 4 x (40 + 6 x 30) = 880 below, 1000 grand slam, 100.
    two = pad.record("7NTXX=", "NS")
    assert two.below == (880, 0)
    assert two.above == (Premium(NS, 1000, "slam"), Premium(NS, 100, "doubled/redoubled made"))
    assert pad.vulnerability is bs.Vulnerability.BOTH
    # EW vulnerable: 6H+1 is 180 below, 30 overtrick, 750 slam, and 500 for a 2-1 rubber.
    three = pad.record("6H+1", "EW")
    assert three.above == (
        Premium(EW, 30, "overtricks"),
        Premium(EW, 750, "slam"),
        Premium(EW, 500, "rubber"),
    )
    assert pad.games == {"NS": 1, "EW": 2}
    # EW 180 + 500 + 180 + 30 + 750 + 500 = 2140; NS 880 + 1000 + 100 = 1980.
    assert pad.totals() == {"NS": 1980, "EW": 2140}
    assert pad.winner is EW


def test_undertricks_at_changing_vulnerability() -> None:
    pad = RubberScore()
    assert pad.record("4S-1", "EW").above == (Premium(NS, 50, "undertricks"),)
    pad.record("5D=", "EW")  # EW game
    # EW vulnerable, doubled, 3 down: 200 + 300 + 300.
    assert pad.record("4SX-3", "EW").above == (Premium(NS, 800, "undertricks"),)
    # NS still not vulnerable, redoubled, 4 down: 2 x (100 + 200 + 200 + 300).
    assert pad.record("3NTXX-4", "NS").above == (Premium(EW, 1600, "undertricks"),)


def test_older_rule_set_is_passed_through() -> None:
    pad = RubberScore(rules=PRE_1987)
    # Before 1987/1993: NV doubled 100 then 200 each: 4 down = 700.
    assert pad.record("4SX-4", "NS").above == (Premium(EW, 700, "undertricks"),)
    # and 50 for making a redoubled contract.
    assert pad.record("1CXX=", "NS").above == (Premium(NS, 50, "doubled/redoubled made"),)


# ---------------------------------------------------------------- honours


def test_honours_held_by_a_defender() -> None:
    pad = RubberScore()
    entry = pad.record("4S-1", "NS", honors=("EW", 100))
    # EW score the undertrick (50) and the honours (100) although they defended.
    assert entry.above == (Premium(EW, 50, "undertricks"), Premium(EW, 100, "honours"))
    assert pad.totals() == {"NS": 0, "EW": 150}


def test_honours_count_for_declarer_even_when_the_contract_fails() -> None:
    pad = RubberScore()
    pad.record("4H-2", "NS", honors=Honors(NS, 150))
    assert pad.totals() == {"NS": 150, "EW": 100}


def test_four_aces_at_notrump_and_doubling_does_not_change_honours() -> None:
    pad = RubberScore()
    pad.record("3NTX=", "EW", honors="EW 150")
    # 2 x 100 = 200 below, 50 for the doubled make, 150 honours.
    assert pad.totals() == {"NS": 0, "EW": 400}


@pytest.mark.parametrize(
    ("result", "honors", "error"),
    [
        ("3NT=", ("NS", 100), bs.RecordError),  # at notrump only the four aces, for 150
        ("Pass", ("NS", 150), bs.RecordError),
        ("4S=", ("NS", 120), bs.NotationError),
        ("4S=", ("XY", 100), bs.NotationError),
        ("4S=", "NS lots", bs.NotationError),
        ("4S=", 100, bs.NotationError),
    ],
)
def test_impossible_honours_are_refused(result: str, honors: object, error: type) -> None:
    pad = RubberScore()
    with pytest.raises(error):
        pad.record(result, None if result == "Pass" else "NS", honors=honors)
    assert pad.entries == ()


# ---------------------------------------------------------------- rubbers


def test_two_nil_rubber_bonus_is_700() -> None:
    pad = RubberScore()
    pad.record("4H=", "NS")  # 120
    entry = pad.record("3NT=", "NS")  # 100 and the rubber
    assert entry.above == (Premium(NS, 700, "rubber"),)
    assert pad.totals() == {"NS": 920, "EW": 0}
    assert pad.games == {"NS": 2, "EW": 0}


def test_two_one_rubber_bonus_is_500() -> None:
    pad = RubberScore()
    pad.record("4H=", "NS")
    pad.record("5C=", "EW")
    entry = pad.record("3NT=", "NS")
    assert entry.above == (Premium(NS, 500, "rubber"),)
    # NS 120 + 100 + 500 = 720; EW 100.
    assert pad.totals() == {"NS": 720, "EW": 100}
    assert pad.games == {"NS": 2, "EW": 1}
    assert [entry.game for entry in pad.entries] == [1, 2, 3]


def test_every_record_is_refused_after_the_end() -> None:
    pad = RubberScore()
    pad.record("4H=", "NS")
    pad.record("4H=", "NS")
    for result, by in (("1C=", "EW"), ("Pass", None), ("4S-1", "NS")):
        with pytest.raises(bs.RecordError, match="rubber is over"):
            pad.record(result, by)
    with pytest.raises(bs.RecordError, match="already finished"):
        pad.finish()
    assert len(pad.entries) == 2


def test_records_refused_after_finish() -> None:
    pad = RubberScore()
    pad.record("2S=", "NS")
    pad.finish()
    with pytest.raises(bs.RecordError, match="rubber is over"):
        pad.record("4S=", "EW")
    with pytest.raises(bs.RecordError, match="already settled"):
        pad.finish()


# ---------------------------------------------------------------- Law 80


def test_law80_one_game_only() -> None:
    pad = RubberScore()
    pad.record("4S=", "NS")
    assert pad.finish() == (Premium(NS, 300, "unfinished rubber: game"),)
    assert pad.totals() == {"NS": 420, "EW": 0}


def test_law80_one_game_each_gets_no_game_bonus() -> None:
    pad = RubberScore()
    pad.record("4S=", "NS")
    pad.record("4S=", "EW")
    assert pad.finish() == ()
    assert pad.totals() == {"NS": 120, "EW": 120}
    assert pad.winner is None


def test_law80_partscore_of_one_side() -> None:
    pad = RubberScore()
    pad.record("4S=", "EW")
    pad.record("2D=", "NS")  # partscore in the unfinished game 2
    assert pad.finish() == (
        Premium(EW, 300, "unfinished rubber: game"),
        Premium(NS, 100, "unfinished rubber: partscore"),
    )


def test_law80_both_sides_partscore_under_the_law_gets_nothing() -> None:
    pad = RubberScore()
    pad.record("2D=", "NS")
    pad.record("2H=", "EW")
    assert pad.finish() == ()


def test_law80_variant_each_side_with_a_partscore() -> None:
    pad = RubberScore()
    pad.record("2D=", "NS")
    pad.record("2H=", "EW")
    assert pad.finish(each_side=True) == (
        Premium(NS, 100, "unfinished rubber: partscore"),
        Premium(EW, 100, "unfinished rubber: partscore"),
    )


def test_law80_variant_fifty_for_a_partscore() -> None:
    pad = RubberScore()
    pad.record("2D=", "NS")
    pad.record("2H=", "EW")
    assert pad.finish(partscore_bonus=50, each_side=True) == (
        Premium(NS, 50, "unfinished rubber: partscore"),
        Premium(EW, 50, "unfinished rubber: partscore"),
    )
    pad = RubberScore()
    pad.record("2D=", "NS")
    assert pad.finish(partscore_bonus=50) == (Premium(NS, 50, "unfinished rubber: partscore"),)


def test_law80_partscores_from_a_finished_game_do_not_count() -> None:
    pad = RubberScore()
    pad.record("2D=", "NS")  # game 1 partscore, wiped out by EW's game
    pad.record("3NT=", "EW")
    assert pad.finish() == (Premium(EW, 300, "unfinished rubber: game"),)


def test_law80_game_bonus_option_and_defaults() -> None:
    assert Law80(game_bonus=300, partscore_bonus=100, each_side=False) == LAW_80
    pad = RubberScore()
    pad.record("4S=", "NS")
    assert pad.finish(game_bonus=0) == ()
    with pytest.raises(bs.NotationError, match="partscore_bonus"):
        Law80(partscore_bonus=-50)


def test_law80_with_nothing_played() -> None:
    assert settle_unfinished([]) == ()


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("result", "by", "error", "quoted"),
    [
        ("4Z+1", "NS", bs.NotationError, "4Z+1"),
        ("8S=", "NS", bs.NotationError, "8S="),
        ("4S+4", "NS", bs.NotationError, "4S+4"),
        ("4S=", "XY", bs.NotationError, "XY"),
        ("4S=", 3, bs.NotationError, "3"),
        ("4S=", None, bs.RecordError, "4S="),
        ("4SN=", "EW", bs.RecordError, "4SN="),
        ("Pass", "NS", bs.RecordError, "NS"),
    ],
)
def test_bad_input_is_refused_quoting_it(result: str, by: object, error: type, quoted: str) -> None:
    pad = RubberScore()
    with pytest.raises(error, match=quoted.replace("+", r"\+")):
        pad.record(result, by)
    assert pad.entries == ()


def test_declarer_seat_in_the_result_gives_the_side() -> None:
    pad = RubberScore()
    assert pad.record("4SW=").declarer is EW
    assert pad.record("2H+1", bs.Seat.SOUTH).declarer is NS
    assert pad.record(bs.Result.parse("1NT="), NS).declarer is NS


def test_a_contract_without_tricks_is_refused() -> None:
    with pytest.raises(bs.NotationError):
        RubberScore().record(bs.Contract.parse("4S"), "NS")  # type: ignore[arg-type]


# ---------------------------------------------------------------- reference


def reference_deal(
    level: int, strain: int, doubling: int, tricks: int, vul: bool
) -> tuple[int, int, int]:
    """Rules.md §1 written out independently: (trick points, declarer premiums, penalty)."""
    m = (1, 2, 4)[doubling]
    made = tricks - (level + 6)
    if made < 0:
        down = -made
        if doubling == 0:
            return 0, 0, down * (100 if vul else 50)
        per = [200, 300, 300] if vul else [100, 200, 200]
        doubled = sum(per[min(i, 2)] if i < 3 else 300 for i in range(down))
        return 0, 0, doubled * m // 2
    per_trick = 20 if strain <= 1 else 30
    trick_points = m * (per_trick * level + (10 if strain == 4 else 0))
    over = made * (per_trick if m == 1 else (200 if vul else 100) * m // 2)
    slam = {6: 750 if vul else 500, 7: 1500 if vul else 1000}.get(level, 0)
    insult = {1: 0, 2: 50, 4: 100}[m]
    return trick_points, over + slam + insult, 0


deal_strategy = st.tuples(
    st.integers(1, 7), st.integers(0, 4), st.integers(0, 2), st.integers(0, 13), st.booleans()
)


@settings(max_examples=150, deadline=None)
@given(st.lists(deal_strategy, min_size=1, max_size=14))
def test_rubber_agrees_with_a_reference_scorer(
    deals: list[tuple[int, int, int, int, bool]],
) -> None:
    pad = RubberScore()
    games = [0, 0]
    below = [0, 0]
    points = [0, 0]
    for level, strain, doubling, tricks, ew in deals:
        side = 1 if ew else 0
        result = bs.Result(bs.Contract(level, bs.Strain(strain), bs.Doubling(doubling)), tricks)
        if max(games) == 2:
            with pytest.raises(bs.RecordError):
                pad.record(result, bs.Side(side))
            continue
        trick_points, premiums, penalty = reference_deal(
            level, strain, doubling, tricks, games[side] > 0
        )
        points[side] += trick_points + premiums
        points[1 - side] += penalty
        below[side] += trick_points
        if below[side] >= 100:
            games[side] += 1
            below = [0, 0]
            if games[side] == 2:
                points[side] += 700 if games[1 - side] == 0 else 500
        pad.record(result, bs.Side(side))
    assert pad.games == {"NS": games[0], "EW": games[1]}
    assert pad.totals() == {"NS": points[0], "EW": points[1]}
    assert pad.is_finished is (max(games) == 2)
    if not pad.is_finished:
        assert pad.below_line == {"NS": below[0], "EW": below[1]}
        # Law 80 by hand: 300 for a lone game, 100 when just one side has a partscore.
        expected = list(points)
        if sorted(games) == [0, 1]:
            expected[games.index(1)] += 300
        if (below[0] > 0) != (below[1] > 0):
            expected[0 if below[0] else 1] += 100
        pad.finish()
        assert pad.totals() == {"NS": expected[0], "EW": expected[1]}
    # Nothing is negative on a pad, and the pad's last line shows the totals.
    assert all(value >= 0 for value in above(pad).values())
    assert pad.pad().splitlines()[-1].split() == [
        str(pad.totals()["NS"]),
        "|",
        str(pad.totals()["EW"]),
    ]


@given(st.sampled_from(["NS", "EW"]), st.sampled_from([100, 150]), st.booleans())
def test_honours_text_round_trip(side: str, points: int, points_first: bool) -> None:
    honors = Honors(side, points)  # type: ignore[arg-type]
    text = f"honours {points} {side}" if points_first else str(honors)
    assert Honors.parse(text) == honors
    assert Honors.parse(str(honors)) == honors


def test_user_guide_examples() -> None:
    import doctest
    from pathlib import Path

    guide = Path(__file__).resolve().parents[2] / "docs" / "rubber.md"
    failures, tried = doctest.testfile(str(guide), module_relative=False)
    assert tried > 0 and failures == 0


def test_game_in_play() -> None:
    pad = RubberScore()
    seen = [pad.game]
    pad.record("4S=", "NS")
    seen.append(pad.game)
    pad.record("4S=", "NS")
    seen.append(pad.game)
    assert seen == [1, 2, 2]  # a 2-0 rubber ends in game 2


def test_pbn_history_refuses_bad_previous_points() -> None:
    pad = RubberScore()
    pad.record("2H=", "NS")
    with pytest.raises(bs.RecordError, match="above_previous"):
        pad.pbn_tags(above_previous=(-10, 0))


# ---------------------------------------------------------------- the running tally

# Deals for the tally tests: passed out, or a contract by a side (None: passed out).
pad_deal = st.one_of(
    st.none(),
    st.tuples(
        st.integers(1, 7), st.integers(0, 4), st.integers(0, 2), st.integers(0, 13), st.booleans()
    ),
)


def games_and_below(entries: tuple[Entry, ...]) -> tuple[list[int], list[int]]:
    """Games won and trick points in the game in play, counted from the whole pad."""
    games = [0, 0]
    for entry in entries:
        if entry.completes_game and entry.declarer is not None:
            games[entry.declarer] += 1
    in_play = 1 + sum(games)
    below = [sum(e.below[side] for e in entries if e.game == in_play) for side in bs.Side]
    return games, below


@settings(max_examples=150, deadline=None)
@given(st.lists(pad_deal, min_size=1, max_size=16), st.sampled_from([None, *bs.Seat]))
def test_pad_kept_by_tally_equals_rubber_entry_from_scratch(
    deals: list[tuple[int, int, int, int, bool] | None], first: bs.Seat | None
) -> None:
    # RubberScore moves a running tally on deal by deal; rubber_entry() counts every
    # earlier deal again. Both must give the same entries and the same state.
    pad = RubberScore(first_dealer=first)
    for deal in deals:
        if deal is None:
            result, side = bs.Result.parse("Pass"), None
        else:
            level, strain, doubling, tricks, ew = deal
            contract = bs.Contract(level, bs.Strain(strain), bs.Doubling(doubling))
            result, side = bs.Result(contract, tricks), bs.Side(int(ew))
        before = pad.entries
        if pad.is_finished:
            with pytest.raises(bs.RecordError, match="the rubber is over"):
                rubber_entry(before, result, side, first_dealer=first)
            break
        entry = pad.record(result, side)
        assert entry == rubber_entry(before, result, side, first_dealer=first)
        games, below = games_and_below(pad.entries)
        assert pad.games == {"NS": games[0], "EW": games[1]}
        assert pad.is_finished is (max(games) == 2)
        assert pad.below_line == {"NS": below[0], "EW": below[1]}
        assert pad.vulnerability == bs.Vulnerability.from_sides(games[0] > 0, games[1] > 0)
        assert pad.game == (sum(games) if max(games) == 2 else 1 + sum(games))
    history = [t["ScoreRubberHistory"] for t in pad.pbn_tags(above_previous=(50, 0))]
    entries = pad.entries
    assert history == [
        score_rubber_history_tag(entries[:i], e.game, (50, 0)) for i, e in enumerate(entries)
    ]
    if not pad.is_finished:
        assert pad.finish() == settle_unfinished(entries)


def test_a_long_pad_that_never_ends_keeps_count() -> None:
    # 2,000 passed-out deals and 2,000 one-off NS (not vulnerable: 50 each to EW),
    # then NS make 4S twice: game (120 below) and the rubber, 700 for 2-0.
    pad = RubberScore(first_dealer=bs.Seat.NORTH)
    for _ in range(2_000):
        pad.record("Pass")
        pad.record("4S-1", "NS")
    assert pad.games == {"NS": 0, "EW": 0} and pad.below_line == {"NS": 0, "EW": 0}
    assert pad.dealer is bs.Seat.NORTH  # 4,000 deals: the deal has gone round 1,000 times
    pad.record("2S=", "EW")  # 60 below for EW
    assert pad.below_line == {"NS": 0, "EW": 60}
    game = pad.record("4S=", "NS")
    assert game.completes_game and game.game == 1 and game.number == 4_002
    assert pad.vulnerability is bs.Vulnerability.NS and pad.below_line == {"NS": 0, "EW": 0}
    rubber = pad.record("4S=", "NS")
    assert rubber.game == 2 and Premium(NS, 700, "rubber") in rubber.above
    assert pad.totals() == {"NS": 120 + 120 + 700, "EW": 2_000 * 50 + 60}


# ---------------------------------------------------------------- an evening of rubbers


def test_an_evening_of_three_rubbers() -> None:
    # Figures from rules.md §2 (trick values §1.1, rubber bonus §2.3, Law 80 §2.4).
    evening = RubberEvening(first_dealer=bs.Seat.NORTH)
    # Rubber 1: NS 4S= is 120 below (game); NS, vulnerable now, 3NT+1 is 100 below
    # (game), 30 above and 700 for 2-0. NS 950.
    evening.record("4S=", "NS")
    evening.record("3NT+1", "NS")
    assert len(evening.rubbers) == 1 and evening.rubbers[0].is_finished
    # Rubber 2 starts with nobody vulnerable: EW 2H= 60 below; NS 3NT= 100 (game,
    # EW's 60 is dead); EW 4S= 120 (game); NS, vulnerable, 6S= 180 below, 750 slam
    # and 500 for 2-1. NS 100 + 180 + 750 + 500 = 1530, EW 60 + 120 = 180.
    first = evening.record("2H=", "EW")
    assert first.vulnerability is bs.Vulnerability.NONE and first.number == 1
    evening.record("3NT=", "NS")
    evening.record("4S=", "EW")
    slam = evening.record("6S=", "NS")
    assert slam.vulnerability is bs.Vulnerability.BOTH
    assert Premium(NS, 500, "rubber") in slam.above
    # Rubber 3: EW 3NT= 100 (game), NS 2D= 40 below. The evening ends: Law 80 gives
    # EW 300 for the only game and NS 100, the only side with a partscore.
    evening.record("3NT=", "EW")
    evening.record("2D=", "NS")
    assert evening.finish() == (
        Premium(EW, 300, "unfinished rubber: game"),
        Premium(NS, 100, "unfinished rubber: partscore"),
    )
    assert [rubber.totals() for rubber in evening.rubbers] == [
        {"NS": 950, "EW": 0},
        {"NS": 1530, "EW": 180},
        {"NS": 40 + 100, "EW": 100 + 300},
    ]
    assert evening.running_totals() == [
        {"NS": 950, "EW": 0},
        {"NS": 950 + 1530, "EW": 180},
        {"NS": 950 + 1530 + 140, "EW": 180 + 400},
    ]
    assert evening.totals() == {"NS": 2620, "EW": 580}
    # The deal goes round the table across rubbers: deals 1-8 by N E S W N E S W.
    dealers = [e.dealer for rubber in evening.rubbers for e in rubber.entries]
    assert dealers == [bs.Seat(i % 4) for i in range(8)]
    data = evening.as_dict()
    assert data["totals"] == {"NS": 2620, "EW": 580}
    assert [(r["rubber"], r["deals"], r["games"]) for r in data["rubbers"]] == [
        (1, 2, {"NS": 2, "EW": 0}),
        (2, 4, {"NS": 2, "EW": 1}),
        (3, 2, {"NS": 0, "EW": 1}),
    ]
    assert data["rubbers"][2]["running_totals"] == {"NS": 2620, "EW": 580}
    assert [e["rubber"] for e in data["entries"]] == [1, 1, 2, 2, 2, 2, 3, 3]


def test_an_evening_takes_no_deal_after_finish() -> None:
    evening = RubberEvening()
    evening.record("4S=", "NS")
    evening.record("4S=", "NS")
    assert evening.finish() == ()  # the last rubber is over: nothing to settle
    assert evening.is_closed and evening.totals() == {"NS": 120 + 120 + 700, "EW": 0}
    with pytest.raises(bs.RecordError, match="closed by finish"):
        evening.record("1NT=", "EW")
    with pytest.raises(bs.RecordError, match="already closed"):
        evening.finish()


def test_a_bad_deal_after_a_rubber_opens_no_new_rubber() -> None:
    evening = RubberEvening()
    evening.record("4S=", "NS")
    evening.record("4S=", "NS")
    with pytest.raises(bs.RecordError, match="who declared"):
        evening.record("4S=")
    with pytest.raises(bs.NotationError, match="'4Z='"):
        evening.record("4Z=", "NS")
    assert len(evening.rubbers) == 1
    assert evening.vulnerability is bs.Vulnerability.NONE  # the next rubber's first deal
    evening.record("Pass")
    assert len(evening.rubbers) == 2 and evening.totals() == {"NS": 940, "EW": 0}


def test_a_single_rubber_still_refuses_a_deal_after_its_end() -> None:
    pad = RubberScore()
    pad.record("4S=", "NS")
    pad.record("4S=", "NS")
    with pytest.raises(bs.RecordError, match=r"the rubber is over.*RubberEvening"):
        pad.record("1NT=", "EW")


def test_evening_pbn_history_counts_earlier_rubbers_above_the_line() -> None:
    # PBN 2.1 §4.2.6: <above_previous> is the points above the line in earlier
    # rubbers. Rubber 1: NS 30 overtrick + 700 rubber above; EW 100 for one down
    # against NS, vulnerable after their first game.
    evening = RubberEvening()
    evening.record("4S+1", "NS")
    evening.record("3H-1", "NS")
    evening.record("4S=", "NS")
    evening.record("2C=", "EW")
    tags = evening.pbn_tags()
    assert len(tags) == 4
    assert tags[3] == {
        "ScoreRubber": "NS 0/0 EW 0/40",
        "ScoreRubberHistory": "NS 730 0/0 EW 100 0/0",
    }


@settings(max_examples=150, deadline=None)
@given(st.lists(pad_deal, min_size=1, max_size=30), st.booleans())
def test_an_evening_agrees_with_a_reference_scorer(
    deals: list[tuple[int, int, int, int, bool] | None], finish: bool
) -> None:
    # The reference: rules.md §2 by hand, a fresh rubber (no games, nothing below the
    # line, nobody vulnerable) as soon as a side has won two games.
    evening = RubberEvening()
    rubbers: list[list[int]] = [[0, 0]]
    games, below = [0, 0], [0, 0]
    for deal in deals:
        if max(games) == 2:
            rubbers.append([0, 0])
            games, below = [0, 0], [0, 0]
        if deal is None:
            evening.record("Pass")
            continue
        level, strain, doubling, tricks, ew = deal
        side = int(ew)
        trick_points, premiums, penalty = reference_deal(
            level, strain, doubling, tricks, games[side] > 0
        )
        points = rubbers[-1]
        points[side] += trick_points + premiums
        points[1 - side] += penalty
        below[side] += trick_points
        if below[side] >= 100:
            games[side] += 1
            below = [0, 0]
            if games[side] == 2:
                points[side] += 700 if games[1 - side] == 0 else 500
        contract = bs.Contract(level, bs.Strain(strain), bs.Doubling(doubling))
        evening.record(bs.Result(contract, tricks), bs.Side(side))
    if finish and max(games) < 2:
        # Law 80 by hand: 300 for a lone game, 100 when just one side has a partscore.
        if sorted(games) == [0, 1]:
            rubbers[-1][games.index(1)] += 300
        if (below[0] > 0) != (below[1] > 0):
            rubbers[-1][0 if below[0] else 1] += 100
    if finish:
        evening.finish()
    assert [rubber.totals() for rubber in evening.rubbers] == [
        {"NS": ns, "EW": ew} for ns, ew in rubbers
    ]
    # The evening's total is the sum of its rubbers, and so is each running total.
    assert evening.totals() == {
        "NS": sum(ns for ns, _ in rubbers),
        "EW": sum(ew for _, ew in rubbers),
    }
    assert evening.running_totals() == [
        {"NS": sum(ns for ns, _ in rubbers[:k]), "EW": sum(ew for _, ew in rubbers[:k])}
        for k in range(1, len(rubbers) + 1)
    ]
    assert all(rubber.is_finished for rubber in evening.rubbers[:-1])
