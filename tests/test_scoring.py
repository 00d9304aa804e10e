"""Law 77 scoring against an independent formulation typed in from docs/rules.md.

The expected values come from the tables of docs/rules.md (§1.5 overtricks, §1.6
cumulative penalties, §1.9 made-exactly scores), not from the code under test.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import bridgescore as bs
from bridgescore import Contract, Doubling, Result, Strain

# docs/rules.md §1.9: made exactly. Columns: minor NV, minor V, major NV, major V, NT NV, NT V.
MADE_EXACTLY = {
    Doubling.UNDOUBLED: [
        (70, 70, 80, 80, 90, 90),
        (90, 90, 110, 110, 120, 120),
        (110, 110, 140, 140, 400, 600),
        (130, 130, 420, 620, 430, 630),
        (400, 600, 450, 650, 460, 660),
        (920, 1370, 980, 1430, 990, 1440),
        (1440, 2140, 1510, 2210, 1520, 2220),
    ],
    Doubling.DOUBLED: [
        (140, 140, 160, 160, 180, 180),
        (180, 180, 470, 670, 490, 690),
        (470, 670, 530, 730, 550, 750),
        (510, 710, 590, 790, 610, 810),
        (550, 750, 650, 850, 670, 870),
        (1090, 1540, 1210, 1660, 1230, 1680),
        (1630, 2330, 1770, 2470, 1790, 2490),
    ],
    Doubling.REDOUBLED: [
        (230, 230, 520, 720, 560, 760),
        (560, 760, 640, 840, 680, 880),
        (640, 840, 760, 960, 800, 1000),
        (720, 920, 880, 1080, 920, 1120),
        (800, 1000, 1000, 1200, 1040, 1240),
        (1380, 1830, 1620, 2070, 1660, 2110),
        (1960, 2660, 2240, 2940, 2280, 2980),
    ],
}

# docs/rules.md §1.6: cumulative penalty for down 1..13.
PENALTY = {
    (Doubling.UNDOUBLED, False): [50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 550, 600, 650],
    (Doubling.DOUBLED, False): [
        100, 300, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500,
    ],
    (Doubling.REDOUBLED, False): [
        200, 600, 1000, 1600, 2200, 2800, 3400, 4000, 4600, 5200, 5800, 6400, 7000,
    ],
    (Doubling.UNDOUBLED, True): [
        100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300,
    ],
    (Doubling.DOUBLED, True): [
        200, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500, 3800,
    ],
    (Doubling.REDOUBLED, True): [
        400, 1000, 1600, 2200, 2800, 3400, 4000, 4600, 5200, 5800, 6400, 7000, 7600,
    ],
}  # fmt: skip


def overtrick_value(strain: Strain, doubling: Doubling, vulnerable: bool) -> int:
    """docs/rules.md §1.5."""
    if doubling is Doubling.UNDOUBLED:
        return 20 if strain in (Strain.CLUBS, Strain.DIAMONDS) else 30
    base = 200 if vulnerable else 100
    return base if doubling is Doubling.DOUBLED else 2 * base


def expected_score(level: int, strain: Strain, doubling: Doubling, tricks: int, vul: bool) -> int:
    relative = tricks - level - 6
    if relative < 0:
        return -PENALTY[doubling, vul][-relative - 1]
    column = {Strain.CLUBS: 0, Strain.DIAMONDS: 0, Strain.HEARTS: 2, Strain.SPADES: 2}.get(
        strain, 4
    ) + int(vul)
    made = MADE_EXACTLY[doubling][level - 1][column]
    return made + relative * overtrick_value(strain, doubling, vul)


ALL_RESULTS = list(itertools.product(range(1, 8), Strain, Doubling, range(14), (False, True)))


def test_the_space_has_2940_results() -> None:
    assert len(ALL_RESULTS) == 2940


@pytest.mark.parametrize("level", range(1, 8))
def test_every_result_matches_the_tables(level: int) -> None:
    for lv, strain, doubling, tricks, vul in ALL_RESULTS:
        if lv != level:
            continue
        contract = Contract(lv, strain, doubling)
        expected = expected_score(lv, strain, doubling, tricks, vul)
        assert bs.score(contract, vul, tricks=tricks) == expected, (contract, tricks, vul)
        text = str(Result(contract, tricks))
        assert bs.score(text, vulnerable=vul) == expected, text
        if tricks == lv + 6:
            # Made exactly, however the zero is signed (issue 23: '4S-0' is '4S+0').
            for zero in ("+0", "-0", " -0", " down 0"):
                assert bs.score(f"{contract}{zero}", vulnerable=vul) == expected, zero
        breakdown = bs.score_breakdown(contract, vul, tricks=tricks)
        assert breakdown.total == expected
        assert sum(breakdown.parts().values()) == expected


def test_distinct_absolute_scores() -> None:
    """docs/rules.md §6: 204 distinct non-zero absolute scores (141 NV, 171 V)."""
    by_vul: dict[bool, set[int]] = {False: set(), True: set()}
    for level, strain, doubling, tricks, vul in ALL_RESULTS:
        by_vul[vul].add(abs(bs.score(Contract(level, strain, doubling), vul, tricks=tricks)))
    assert 0 not in by_vul[False] | by_vul[True]
    assert len(by_vul[False]) == 141
    assert len(by_vul[True]) == 171
    assert len(by_vul[False] | by_vul[True]) == 204
    assert len(by_vul[False] | by_vul[True] | {bs.score("Pass")}) == 205


def test_distinct_absolute_scores_before_1987() -> None:
    """docs/rules.md §1.10: the pre-1987 table yields 206 distinct non-zero absolute scores."""
    scores = {
        abs(bs.score(Contract(level, strain, doubling), vul, tricks=tricks, rules=bs.PRE_1987))
        for level, strain, doubling, tricks, vul in ALL_RESULTS
    }
    assert len(scores) == 206


def test_extremes() -> None:
    scores = [
        bs.score(Contract(level, strain, doubling), vul, tricks=tricks)
        for level, strain, doubling, tricks, vul in ALL_RESULTS
    ]
    assert max(scores) == 3160 == bs.score("1NTXX+6", vulnerable=True)
    assert min(scores) == -7600 == bs.score("7NTXX-13", vulnerable=True)
    assert bs.score("7NTXX=", vulnerable=True) == 2980


@pytest.mark.parametrize(
    ("text", "vulnerable", "expected"),
    [
        ("4DX +1", True, 910),  # design.md
        ("6NTXX=", False, 1660),  # docs/rules.md §6: 760 + 300 + 500 + 100
        ("6NTXX=", True, 2110),
        ("1HX=", False, 160),  # docs/rules.md §1.4: 60 + 50 + 50
        ("2HX=", False, 470),  # 2HX has trick score 120: a game
        ("1CXX=", False, 230),  # redoubled partscore: 80 + 50 + 100
        ("1DXX=", True, 230),
        ("3NT=", False, 400),
        ("3NT-2", False, -100),
        ("3NT-2", True, -200),
        ("4S+1", False, 450),  # 4S making 5
        ("5CXX+1", True, 1400),  # docs/rules.md §1.10
        ("6C=", True, 1370),
        ("7SX-9", False, -2300),  # docs/rules.md §1.10, 1981 Bermuda Bowl deal, current table
        ("Pass", False, 0),
        ("Pass", True, 0),
    ],
)
def test_worked_examples(text: str, vulnerable: bool, expected: int) -> None:
    assert bs.score(text, vulnerable=vulnerable) == expected


def test_pre_1987_rules() -> None:
    assert bs.score("7SX-9", vulnerable=False, rules=bs.PRE_1987) == -1700
    assert bs.score("5CXX+1", vulnerable=True, rules=bs.PRE_1987) == 1350
    # The two switches are independent.
    only_undertricks = bs.Rules(nv_doubled_4th_plus=200, redoubled_insult=100)
    assert bs.score("5CXX+1", vulnerable=True, rules=only_undertricks) == 1400
    assert bs.score("7SX-9", vulnerable=False, rules=only_undertricks) == -1700
    only_insult = bs.Rules(nv_doubled_4th_plus=300, redoubled_insult=50)
    assert bs.score("7SX-9", vulnerable=False, rules=only_insult) == -2300
    # Vulnerable and first-three undertricks never changed.
    assert bs.score("4SX-3", vulnerable=False, rules=bs.PRE_1987) == -500
    assert bs.score("4SX-4", vulnerable=True, rules=bs.PRE_1987) == -1100
    assert bs.score("4SXX-4", vulnerable=False, rules=bs.PRE_1987) == -1400  # 200 + 3 x 400


@pytest.mark.parametrize(("nv4", "insult"), [(250, 100), (300, 75), (0, 0)])
def test_bad_rules_raise(nv4: int, insult: int) -> None:
    with pytest.raises(bs.BridgeError, match="must be"):
        bs.Rules(nv_doubled_4th_plus=nv4, redoubled_insult=insult)


def test_breakdown_parts() -> None:
    b = bs.score_breakdown("6NTXX=", vulnerable=False)
    assert (b.trick_score, b.game_premium, b.slam_premium, b.insult_premium) == (760, 300, 500, 100)
    assert (b.overtricks, b.partscore_premium, b.undertricks, b.total) == (0, 0, 0, 1660)
    b = bs.score_breakdown("4DX +1", vulnerable=True)
    assert (b.trick_score, b.overtricks, b.game_premium, b.insult_premium) == (160, 200, 500, 50)
    b = bs.score_breakdown("2S+2", vulnerable=True)
    assert (b.trick_score, b.overtricks, b.partscore_premium, b.total) == (60, 60, 50, 170)
    b = bs.score_breakdown("3NTX-3", vulnerable=False)
    assert b.undertricks == b.total == -500
    assert bs.score_breakdown("Pass").total == 0


def test_breakdown_as_dict() -> None:
    data = bs.score_breakdown("4SXN+1", vulnerable=False).as_dict()
    assert data["contract"] == "4SXN"
    assert data["result"] == "4SXN+1"
    assert data["tricks"] == 11
    assert data["score"] == 590 + 100
    assert data["breakdown"]["overtricks"] == 100


def test_contract_with_tricks_as_pbn_gives_them() -> None:
    assert bs.score("4SX", tricks=11) == 690
    assert bs.score(Contract.parse("3NT"), tricks=7, vulnerable=True) == -200
    assert bs.score(Result(Contract.parse("3NT"), 9)) == 400


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: bs.score(Contract.parse("4S")), "needs the tricks declarer took"),
        (lambda: bs.score(Contract.parse("4S"), tricks=14), "14"),
        (lambda: bs.score(Contract.parse("4S"), tricks=-1), "-1"),
        (lambda: bs.score("4S+1", tricks=11), "already"),
        (lambda: bs.score(Result.parse("4S="), tricks=10), "already"),
        (lambda: bs.score("4S=", vulnerable="yes"), "vulnerable"),  # type: ignore[arg-type]
        (lambda: bs.score(42), "42"),  # type: ignore[arg-type]
        (lambda: bs.score("Pass", tricks=3), "passed-out"),
        (lambda: bs.score("4S", tricks=-1), "from 0 to 13, got -1"),
    ],
)
def test_bad_score_calls(call: object, message: str) -> None:
    with pytest.raises(bs.BridgeError, match=message) as info:
        call()  # type: ignore[operator]
    # Said in words, not in Python's keyword syntax (issue 23).
    assert "=" not in str(info.value).replace("4S=", "")


# --- score_array -------------------------------------------------------------


def test_score_array_equals_scalar_on_every_result() -> None:
    for rules in (bs.LAW_2017, bs.PRE_1987):
        level, strain, doubling, tricks, vul = (np.array(column) for column in zip(*ALL_RESULTS))
        result = tricks - level - 6
        got = bs.score_array(level, strain, doubling, result, vul, rules=rules)
        expected = [
            bs.score(Contract(lv, st_, db), v, tricks=tr, rules=rules)
            for lv, st_, db, tr, v in ALL_RESULTS
        ]
        assert got.tolist() == expected


@given(
    st.lists(
        st.tuples(
            st.integers(1, 7),
            st.sampled_from(list(Strain)),
            st.sampled_from(list(Doubling)),
            st.integers(0, 13),
            st.booleans(),
        ),
        min_size=1,
        max_size=50,
    )
)
def test_score_array_matches_scalar_on_random_batches(
    rows: list[tuple[int, Strain, Doubling, int, bool]],
) -> None:
    level, strain, doubling, tricks, vul = (np.array([r[i] for r in rows]) for i in range(5))
    got = bs.score_array(level, strain, doubling, tricks - level - 6, vul)
    assert got.tolist() == [expected_score(*row) for row in rows]


def test_score_array_broadcasts() -> None:
    got = bs.score_array(4, 3, 0, np.array([-1, 0, 1]), [[False], [True]])
    assert got.tolist() == [[-50, 420, 450], [-100, 620, 650]]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([1, 8], 0, 0, 0, False), r"level\[1\] = 8"),
        ((1, [0, 0, 5], 0, 0, False), r"strain\[2\] = 5"),
        ((1, 0, [3], 0, False), r"doubling\[0\] = 3"),
        ((1, 0, 0, [0, 7], False), r"result\[1\]"),
        (([7, 7], 0, 0, [0, 1], False), r"result\[1\] = \+1 is impossible for a level-7"),
        (([1, 1], 0, 0, [-7, -8], False), r"result\[1\]"),
        ((1, 0, 0, 0, [0, 2]), r"vulnerable\[1\] = 2"),
        ((1.5, 0, 0, 0, False), "integer"),
    ],
)
def test_score_array_rejects_bad_input(args: tuple[object, ...], message: str) -> None:
    with pytest.raises(bs.NotationError, match=message):
        bs.score_array(*args)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "rules"),
    [("law2017", bs.LAW_2017), ("LAW2017", bs.LAW_2017), ("2017", bs.LAW_2017),
     ("current", bs.LAW_2017), ("pre1987", bs.PRE_1987), ("Pre-1987", bs.PRE_1987),
     ("pre_1987", bs.PRE_1987)],
)  # fmt: skip
def test_rule_set_names(text: str, rules: bs.Rules) -> None:
    assert bs.Rules.parse(text) == rules
    assert bs.Rules.parse(str(rules.name)) == rules


def test_rule_set_values_and_unknown_names() -> None:
    # Law 77 since 1987: 300 per non-vulnerable doubled undertrick from the 4th, 100
    # for making a redoubled contract; before: 200 and 50.
    assert (bs.Rules.parse("law2017").nv_doubled_4th_plus, bs.LAW_2017.redoubled_insult) == (
        300,
        100,
    )
    assert (bs.PRE_1987.nv_doubled_4th_plus, bs.PRE_1987.redoubled_insult) == (200, 50)
    assert bs.Rules(200, 100).name is None
    with pytest.raises(bs.NotationError, match=r"'1990'.*law2017 or pre1987"):
        bs.Rules.parse("1990")
