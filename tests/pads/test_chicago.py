"""Chicago scorepad (docs/rules.md §3): expected values worked out by hand from the rules,
or by the small reference scorer at the end of this module."""

from __future__ import annotations

from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bridgescore as bs
from bridgescore.pads.chicago import (
    ACBL_CHICAGO,
    DUPLICATE_STYLE,
    ChicagoEvening,
    ChicagoRules,
    ChicagoScore,
    chicago_dealer,
    chicago_entry,
    chicago_vulnerability,
)
from bridgescore.pads.scorepad import Premium

NS, EW = bs.Side.NS, bs.Side.EW
V = bs.Vulnerability
N, E, S, W = bs.Seat.NORTH, bs.Seat.EAST, bs.Seat.SOUTH, bs.Seat.WEST


def worked_example() -> ChicagoScore:
    pad = ChicagoScore()
    pad.record("2H=", "NS")
    pad.record("2S=", "NS")
    pad.record("pass")
    pad.record("3NT-1", "EW")
    pad.record("2C=", "EW")
    return pad


def test_worked_example_of_rules_3_3() -> None:
    pad = ChicagoScore()
    # Deal 1: NS 2H= score 60, no premium; 60 carries.
    assert pad.record("2H=", "NS").above == ()
    # Deal 2 (EW vulnerable): NS 2S= reach 120, a game; NS are NV on this deal: 60 + 300.
    two = pad.record("2S=", "NS")
    assert two.vulnerability is V.EW and not two.vulnerable
    assert two.below == (60, 0) and two.above == (Premium(NS, 300, "game"),)
    assert two.completes_game
    # Deal 3 (not in the example): passed out, redealt by South, then EW 3NT-1 NV: NS 50.
    assert pad.record("pass").deal == 3
    three = pad.record("3NT-1", "EW")
    assert (three.deal, three.dealer, three.vulnerability) == (3, S, V.NS)
    assert three.above == (Premium(NS, 50, "undertricks"),)
    # Deal 4 (both vulnerable): EW 2C= is 40, not game: 40 + 100.
    four = pad.record("2C=", "EW")
    assert four.vulnerability is V.BOTH
    assert four.below == (0, 40) and four.above == (Premium(EW, 100, "deal 4 partscore"),)
    # NS 60 + 60 + 300 + 50 = 470; EW 40 + 100 = 140.
    assert pad.totals() == {"NS": 470, "EW": 140}
    assert pad.is_finished and pad.deals_played == 4


def test_worked_example_pad_and_pbn() -> None:
    pad = worked_example()
    assert pad.pad().splitlines() == [
        "   WE (NS) | THEY (EW)",
        "-----------+-----------",
        "        50 |",
        "       300 |    100",
        "===========+===========",
        "        60 |",
        "        60 |",
        "-----------+-----------",
        "           |     40",
        "===========+===========",
        "       470 |    140",
    ]
    assert [tags["ScoreRubber"] for tags in pad.pbn_tags()] == [
        "NS 0/60 EW 0/0",
        "NS 300/60 EW 0/0",
        "NS 0/0 EW 0/0",
        "NS 50/0 EW 0/0",
        "NS 0/0 EW 100/40",
    ]


# ---------------------------------------------------------------- schedules

# docs/rules.md §3.1 by hand: dealer rotates clockwise; deal 1 none, deal 4 both;
# deals 2 and 3 the dealer's side (standard) or the other side (switched).
SCHEDULE_TABLE = {
    (N, "standard"): ((N, V.NONE), (E, V.EW), (S, V.NS), (W, V.BOTH)),
    (N, "switched"): ((N, V.NONE), (E, V.NS), (S, V.EW), (W, V.BOTH)),
    (E, "standard"): ((E, V.NONE), (S, V.NS), (W, V.EW), (N, V.BOTH)),
    (E, "switched"): ((E, V.NONE), (S, V.EW), (W, V.NS), (N, V.BOTH)),
    (S, "standard"): ((S, V.NONE), (W, V.EW), (N, V.NS), (E, V.BOTH)),
    (S, "switched"): ((S, V.NONE), (W, V.NS), (N, V.EW), (E, V.BOTH)),
    (W, "standard"): ((W, V.NONE), (N, V.NS), (E, V.EW), (S, V.BOTH)),
    (W, "switched"): ((W, V.NONE), (N, V.EW), (E, V.NS), (S, V.BOTH)),
}


@pytest.mark.parametrize(("first", "schedule"), list(SCHEDULE_TABLE))
def test_both_schedules_for_every_first_dealer(first: bs.Seat, schedule: str) -> None:
    expected = SCHEDULE_TABLE[(first, schedule)]
    for deal, (dealer, vulnerability) in enumerate(expected, start=1):
        assert chicago_dealer(deal, first) is dealer
        assert chicago_vulnerability(deal, first, schedule) is vulnerability
    pad = ChicagoScore(first, schedule)
    seen = []
    for _ in range(4):
        seen.append((pad.deal_number, pad.dealer, pad.vulnerability))
        pad.record("pass")  # redealt: same deal, same dealer, same vulnerability
        assert (pad.deal_number, pad.dealer, pad.vulnerability) == seen[-1]
        pad.record("1C-1", "NS")
    assert seen == [(n, d, v) for n, (d, v) in enumerate(expected, start=1)]


def test_game_premium_uses_vulnerability_of_the_completing_deal() -> None:
    standard = ChicagoScore()
    standard.record("2S=", "NS")  # deal 1: 60
    # Deal 2, dealer East: standard makes EW vulnerable, so NS's game is NV: 300.
    assert standard.record("2S=", "NS").above == (Premium(NS, 300, "game"),)
    switched = ChicagoScore(schedule="switched")
    switched.record("2S=", "NS")
    # Switched: NS vulnerable on deal 2: 500.
    assert switched.record("2S=", "NS").above == (Premium(NS, 500, "game"),)


def test_a_game_cancels_both_sides_partscores() -> None:
    pad = ChicagoScore()
    pad.record("2H=", "NS")  # NS 60
    assert pad.record("4S=", "EW").above == (Premium(EW, 500, "game"),)  # deal 2: EW V
    three = pad.record("1NT=", "NS")  # 40: NS's 60 is gone, so no game
    assert not three.completes_game and three.above == ()
    assert pad.totals() == {"NS": 100, "EW": 620}


def test_deal_four_partscore_with_opponents_partscore_pending() -> None:
    pad = ChicagoScore()
    pad.record("2H=", "EW")  # EW 60, never completed
    pad.record("4S-1", "NS")  # deal 2 NS NV: EW 50
    pad.record("4S-1", "NS")  # deal 3 NS V: EW 100
    four = pad.record("2C=", "NS")  # deal 4: 40, not game: 100
    assert four.above == (Premium(NS, 100, "deal 4 partscore"),)
    assert pad.totals() == {"NS": 140, "EW": 210}


def test_deal_four_partscore_that_completes_a_game_gets_500_instead() -> None:
    pad = ChicagoScore()
    pad.record("2H=", "NS")  # 60
    pad.record("1C-1", "EW")
    pad.record("1C-1", "EW")
    four = pad.record("2C=", "NS")  # 60 + 40 = 100: game, both vulnerable
    assert four.above == (Premium(NS, 500, "game"),)
    assert four.completes_game


def test_deal_four_game_and_slam_values() -> None:
    pad = ChicagoScore()
    pad.record("7SX=", "NS")  # deal 1 NV: 420 + 300 + 1000 + 50 = 1770
    pad.record("3NTX+1", "EW")  # deal 2 EW V: 200 + 200 + 500 + 50 = 950
    pad.record("1C-1", "NS")  # deal 3 NS V: EW 100
    pad.record("6NT=", "NS")  # deal 4 V: 190 + 500 + 750 = 1440
    assert [entry.points(entry.declarer or NS) for entry in pad.entries] == [1770, 950, 0, 1440]
    assert pad.totals() == {"NS": 1770 + 1440, "EW": 950 + 100}


def test_deal_four_undertricks_earn_no_partscore_premium() -> None:
    pad = ChicagoScore(first_dealer=E)
    for _ in range(3):
        pad.record("1C-1", "EW")
    assert pad.record("3NT-2", "NS").above == (Premium(EW, 200, "undertricks"),)


# ---------------------------------------------------------------- variants


def test_default_options_follow_the_acbl_text() -> None:
    assert ChicagoRules() == ACBL_CHICAGO
    assert ACBL_CHICAGO.carry_partscores and ACBL_CHICAGO.honors
    assert (ACBL_CHICAGO.partscore_premium, ACBL_CHICAGO.fourth_deal_premium) == (0, 100)


def test_duplicate_style_variant() -> None:
    pad = ChicagoScore(variant=DUPLICATE_STYLE)
    pad.record("2S+1", "NS")  # deal 1 NV: 90 + 30 + 50 = 140
    pad.record("2S=", "NS")  # deal 2: no carry-over: 60 + 50 = 110
    pad.record("4H=", "NS")  # deal 3 NS V: 120 + 500 = 620
    pad.record("2C=", "EW")  # deal 4: 40 + 50, no 100
    assert [entry.points(entry.declarer or NS) for entry in pad.entries] == [140, 110, 620, 90]
    assert pad.totals() == {"NS": 870, "EW": 90}
    assert not pad.entries[1].completes_game
    with pytest.raises(bs.RecordError, match="honours"):
        ChicagoScore(variant=DUPLICATE_STYLE).record("4S=", "NS", honors=("NS", 100))


def test_fifty_partscore_premium_instead_of_the_deal_four_100() -> None:
    pad = ChicagoScore(partscore_premium=50, fourth_deal_premium=0)
    pad.record("2H=", "NS")  # 60 + 50
    pad.record("1NT=", "NS")  # 40 completes the game (deal 2 NS NV): 300, no 50
    pad.record("1C=", "EW")  # 20 + 50
    pad.record("1D=", "EW")  # 20: 40, no game: 50 only
    assert pad.totals() == {"NS": 450, "EW": 140}


def test_fifty_partscore_premium_as_well_as_the_deal_four_100() -> None:
    pad = ChicagoScore(partscore_premium=50)
    for _ in range(3):
        pad.record("1C-1", "NS")
    four = pad.record("2C=", "EW")  # 40 + 50 + 100
    assert four.above == (Premium(EW, 50, "partscore"), Premium(EW, 100, "deal 4 partscore"))


def test_no_deal_four_premium() -> None:
    pad = ChicagoScore(fourth_deal_premium=0)
    for _ in range(3):
        pad.record("1C-1", "NS")
    assert pad.record("2C=", "EW").above == ()


def test_honours_flag() -> None:
    pad = ChicagoScore()
    pad.record("4S=", "NS", honors=("EW", 100))  # 120 + 300 to NS; 100 honours to EW
    assert pad.totals() == {"NS": 420, "EW": 100}
    off = ChicagoScore(honors=False)
    with pytest.raises(bs.RecordError, match="does not score them"):
        off.record("4S=", "NS", honors=("EW", 100))
    assert off.entries == ()


def test_keyword_options_override_a_variant() -> None:
    pad = ChicagoScore(variant=DUPLICATE_STYLE, honors=True)
    assert pad.options == ChicagoRules(
        carry_partscores=False, partscore_premium=50, fourth_deal_premium=0, honors=True
    )


# ---------------------------------------------------------------- the end


def test_every_record_is_refused_after_deal_four() -> None:
    pad = worked_example()
    for result, by in (("pass", None), ("1C=", "NS"), ("7NTXX=", "EW")):
        with pytest.raises(bs.RecordError, match="round is over"):
            pad.record(result, by)
    with pytest.raises(bs.RecordError):
        pad.record("4S=", "NS", honors=("NS", 100))
    for name in ("deal_number", "dealer", "vulnerability"):
        with pytest.raises(bs.RecordError, match="round is over"):
            getattr(pad, name)
    assert len(pad.entries) == 5


@pytest.mark.parametrize(
    ("kwargs", "quoted"),
    [
        ({"schedule": "acbl2"}, "acbl2"),
        ({"first_dealer": "Q"}, "first_dealer must be N, E, S or W, got 'Q'"),
        ({"partscore_premium": -50}, "-50"),
        ({"honors": "yes"}, "yes"),
    ],
)
def test_bad_options_are_refused(kwargs: dict[str, object], quoted: str) -> None:
    with pytest.raises(bs.NotationError, match=quoted):
        ChicagoScore(**kwargs)  # type: ignore[arg-type]


def test_bad_results_and_sides_are_refused() -> None:
    pad = ChicagoScore()
    with pytest.raises(bs.NotationError, match="9NT"):
        pad.record("9NT=", "NS")
    with pytest.raises(bs.NotationError, match="NE"):
        pad.record("4S=", "NE")
    with pytest.raises(bs.RecordError):
        pad.record("4S=")
    assert pad.deals_played == 0


# ---------------------------------------------------------------- reference


def reference_deal(
    level: int, strain: int, doubling: int, tricks: int, vul: bool
) -> tuple[int, int, int]:
    """Rules.md §1 written out independently: (trick points, declarer premiums, penalty);
    no game or partscore premium."""
    m = (1, 2, 4)[doubling]
    made = tricks - (level + 6)
    if made < 0:
        down = -made
        if doubling == 0:
            return 0, 0, down * (100 if vul else 50)
        first = 200 if vul else 100
        later = [300, 300] if vul else [200, 200]
        doubled = sum(([first, *later] + [300] * 10)[:down])
        return 0, 0, doubled * m // 2
    per_trick = 20 if strain <= 1 else 30
    trick_points = m * (per_trick * level + (10 if strain == 4 else 0))
    over = made * (per_trick if m == 1 else (200 if vul else 100) * m // 2)
    slam = {6: 750 if vul else 500, 7: 1500 if vul else 1000}.get(level, 0)
    insult = {1: 0, 2: 50, 4: 100}[m]
    return trick_points, over + slam + insult, 0


deal_strategy = st.one_of(
    st.none(),  # passed out
    st.tuples(
        st.integers(1, 7), st.integers(0, 4), st.integers(0, 2), st.integers(0, 13), st.booleans()
    ),
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(deal_strategy, min_size=1, max_size=7),
    st.sampled_from(list(bs.Seat)),
    st.sampled_from(["standard", "switched"]),
    st.booleans(),
)
def test_chicago_agrees_with_a_reference_scorer(
    deals: list[tuple[int, int, int, int, bool] | None],
    first: bs.Seat,
    schedule: str,
    duplicate_style: bool,
) -> None:
    pad = ChicagoScore(first, schedule, variant=DUPLICATE_STYLE if duplicate_style else None)
    points = [0, 0]
    below = [0, 0]
    played = 0
    for deal in deals:
        if played == 4:
            with pytest.raises(bs.RecordError):
                pad.record("pass")
            break
        if deal is None:
            pad.record("pass")
            continue
        played += 1
        level, strain, doubling, tricks, ew = deal
        side = 1 if ew else 0
        dealer_side = (first + played - 1) % 2  # 0 = NS deals
        vul_side = dealer_side if schedule == "standard" else 1 - dealer_side
        vulnerable = played == 4 or (played in (2, 3) and vul_side == side)
        trick_points, premiums, penalty = reference_deal(
            level, strain, doubling, tricks, vulnerable
        )
        points[side] += trick_points + premiums
        points[1 - side] += penalty
        if trick_points:
            running = trick_points + (0 if duplicate_style else below[side])
            if running >= 100:
                points[side] += 500 if vulnerable else 300
                below = [0, 0]
            else:
                below[side] = running
                if duplicate_style:
                    points[side] += 50
                elif played == 4:
                    points[side] += 100
        result = bs.Result(bs.Contract(level, bs.Strain(strain), bs.Doubling(doubling)), tricks)
        pad.record(result, bs.Side(side))
    assert pad.totals() == {"NS": points[0], "EW": points[1]}
    assert pad.deals_played == played


# ---------------------------------------------------------------- the running tally


@settings(max_examples=150, deadline=None)
@given(
    st.lists(deal_strategy, min_size=1, max_size=9),
    st.sampled_from(list(bs.Seat)),
    st.sampled_from(["standard", "switched"]),
    st.sampled_from([ACBL_CHICAGO, DUPLICATE_STYLE, ChicagoRules(partscore_premium=50)]),
)
def test_pad_kept_by_tally_equals_chicago_entry_from_scratch(
    deals: list[tuple[int, int, int, int, bool] | None],
    first: bs.Seat,
    schedule: str,
    options: ChicagoRules,
) -> None:
    # ChicagoScore moves a running tally on record by record; chicago_entry() counts
    # every earlier record again. Both must give the same entries.
    pad = ChicagoScore(first, schedule, variant=options)
    for deal in deals:
        if deal is None:
            result, side = bs.Result.parse("Pass"), None
        else:
            level, strain, doubling, tricks, ew = deal
            contract = bs.Contract(level, bs.Strain(strain), bs.Doubling(doubling))
            result, side = bs.Result(contract, tricks), bs.Side(int(ew))
        before = pad.entries
        from_scratch = partial(
            chicago_entry,
            before,
            result,
            side,
            first_dealer=first,
            schedule=schedule,
            options=options,
        )
        if pad.is_finished:
            with pytest.raises(bs.RecordError, match="the Chicago round is over"):
                from_scratch()
            break
        entry = pad.record(result, side)
        assert entry == from_scratch()
        played = sum(1 for e in pad.entries if e.declarer is not None)
        assert pad.deals_played == played and pad.is_finished is (played == 4)


def test_a_long_round_of_passed_out_deals_keeps_count() -> None:
    # 5,000 passed-out deals are all redealt by North as deal 1; then the four deals.
    pad = ChicagoScore(bs.Seat.NORTH)
    for _ in range(5_000):
        entry = pad.record("Pass")
    assert (entry.number, entry.deal, entry.dealer) == (5_000, 1, bs.Seat.NORTH)
    assert pad.deals_played == 0 and pad.vulnerability is bs.Vulnerability.NONE
    pad.record("2S=", "NS")  # deal 1: 60 below, carried
    pad.record("Pass")
    second = pad.record("2H=", "NS")  # deal 2 (East deals, EW vulnerable): 120, NS game nv
    assert second.completes_game and Premium(NS, 300, "game") in second.above
    pad.record("1NT=", "EW")  # deal 3, EW not vulnerable (South deals): 40 below
    fourth = pad.record("1C=", "EW")  # deal 4: 60 below, no game: 100 premium
    assert Premium(EW, 100, "deal 4 partscore") in fourth.above
    assert pad.is_finished and pad.totals() == {"NS": 60 + 60 + 300, "EW": 40 + 20 + 100}


# ---------------------------------------------------------------- an evening of rounds


def test_an_evening_of_rounds_repeats_the_schedule_and_carries_nothing_over() -> None:
    # rules.md §3.1: rounds of four deals may be repeated; each is totalled on its
    # own. First dealer North, standard schedule.
    evening = ChicagoEvening(N)
    evening.record("2H=", "NS")  # deal 1: 60 carried
    evening.record("Pass")  # East redeals deal 2
    evening.record("3C-1", "EW")  # deal 2 (EW vul): 100 to NS
    evening.record("1S+1", "EW")  # deal 3 (NS vul, EW not): 30 below, 30 above
    evening.record("1C=", "NS")  # deal 4: 60 + 20 = 80, no game: 20 + 100
    assert evening.rounds[0].totals() == {"NS": 60 + 100 + 20 + 100, "EW": 60}
    # Round 2: the four played deals took the deal once round the table, so North
    # deals again, nobody vulnerable; NS's 80 from round 1 is not carried into it.
    assert (evening.deal_number, evening.dealer, evening.vulnerability) == (1, N, V.NONE)
    first = evening.record("2D=", "NS")  # 40 below: no game (80 + 40 would be)
    assert (first.deal, first.dealer, first.vulnerability, first.completes_game) == (
        1,
        N,
        V.NONE,
        False,
    )
    second = evening.record("2NT=", "NS")  # deal 2 (EW vul): 40 + 70 = 110, game nv: 300
    assert second.completes_game and Premium(NS, 300, "game") in second.above
    assert (evening.deal_number, evening.dealer, evening.vulnerability) == (3, S, V.NS)
    assert evening.rounds[1].totals() == {"NS": 40 + 70 + 300, "EW": 0}
    assert evening.totals() == {"NS": 280 + 410, "EW": 60}
    assert evening.running_totals() == [{"NS": 280, "EW": 60}, {"NS": 690, "EW": 60}]
    data = evening.as_dict()
    assert [(r["round"], r["deals_played"], r["finished"]) for r in data["rounds"]] == [
        (1, 4, True),
        (2, 2, False),
    ]
    assert [e["round"] for e in data["entries"]] == [1, 1, 1, 1, 1, 2, 2]
    assert data["totals"] == {"NS": 690, "EW": 60}


def test_an_evening_keeps_the_options_of_its_first_round() -> None:
    evening = ChicagoEvening(E, "switched", variant=DUPLICATE_STYLE)
    for _ in range(4):
        evening.record("1C=", "EW")  # duplicate style: 20 + 50 each
    fifth = evening.record("1C=", "EW")  # round 2, deal 1: East deals again
    assert fifth.dealer is E and Premium(EW, 50, "partscore") in fifth.above
    assert evening.rounds[1].options == DUPLICATE_STYLE
    assert evening.rounds[1].schedule == "switched"
    assert evening.totals() == {"NS": 0, "EW": 5 * 70}


def test_a_bad_record_after_a_round_opens_no_new_round() -> None:
    evening = ChicagoEvening(honors=False)
    for _ in range(4):
        evening.record("Pass")
        evening.record("1C=", "EW")
    with pytest.raises(bs.RecordError, match="does not score them"):
        evening.record("4S=", "NS", honors="EW 100")
    assert len(evening.rounds) == 1 and evening.rounds[0].is_finished


@settings(max_examples=150, deadline=None)
@given(
    st.lists(deal_strategy, min_size=1, max_size=20),
    st.sampled_from(list(bs.Seat)),
    st.sampled_from(["standard", "switched"]),
)
def test_an_evening_agrees_with_a_reference_scorer(
    deals: list[tuple[int, int, int, int, bool] | None], first: bs.Seat, schedule: str
) -> None:
    # The reference: rules.md §3 by hand (ACBL text), a fresh round after four
    # played deals, nothing carried into it, the deal still going round the table.
    evening = ChicagoEvening(first, schedule)
    rounds: list[list[int]] = [[0, 0]]
    below = [0, 0]
    played = 0
    for deal in deals:
        if played == 4:
            rounds.append([0, 0])
            below, played = [0, 0], 0
        if deal is None:
            evening.record("Pass")
            continue
        played += 1
        level, strain, doubling, tricks, ew = deal
        side = int(ew)
        dealer = bs.Seat((first + played - 1) % 4)
        dealer_side = dealer % 2  # 0 = NS deals
        vul_side = dealer_side if schedule == "standard" else 1 - dealer_side
        vulnerable = played == 4 or (played in (2, 3) and vul_side == side)
        trick_points, premiums, penalty = reference_deal(
            level, strain, doubling, tricks, vulnerable
        )
        points = rounds[-1]
        points[side] += trick_points + premiums
        points[1 - side] += penalty
        if trick_points:
            if below[side] + trick_points >= 100:
                points[side] += 500 if vulnerable else 300
                below = [0, 0]
            else:
                below[side] += trick_points
                if played == 4:
                    points[side] += 100
        result = bs.Result(bs.Contract(level, bs.Strain(strain), bs.Doubling(doubling)), tricks)
        assert evening.record(result, bs.Side(side)).dealer is dealer
    assert [pad.totals() for pad in evening.rounds] == [{"NS": ns, "EW": ew} for ns, ew in rounds]
    # The evening's total is the sum of its rounds, and so is each running total.
    assert evening.totals() == {
        "NS": sum(ns for ns, _ in rounds),
        "EW": sum(ew for _, ew in rounds),
    }
    assert evening.running_totals() == [
        {"NS": sum(ns for ns, _ in rounds[:k]), "EW": sum(ew for _, ew in rounds[:k])}
        for k in range(1, len(rounds) + 1)
    ]
