"""Board pars: from the hand record's DoubleDummyTricks, or solved by DDS."""

from __future__ import annotations

import pytest

from bridgescore.ddtable import DDTable
from bridgescore.deal import Deal
from bridgescore.session.pars import board_pars
from bridgescore.session.scoring.event import Board

# Each hand holds one whole suit. Board 1: N spades, E hearts, S diamonds, W clubs.
# NS make 7S and 7D, EW 7H and 7C; NT fails for everybody (the leader runs a suit).
DEAL_1 = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
# Board 2 (NS vul): N hearts, E spades, S clubs, W diamonds: EW's 7S outranks NS's 7H.
DEAL_2 = Deal.from_pbn("N:.AKQJT98765432.. AKQJT98765432... ...AKQJT98765432 ..AKQJT98765432.")
TABLE_2 = DDTable.parse("00d0d00d0d0d0d00d0d0")  # PBN order: N S E W, each NT S H D C


def test_par_from_a_given_table_without_solving() -> None:
    found = board_pars({2: Board(2, DEAL_2, TABLE_2)}, solve=False)
    # EW bid 7S first (neutral: the higher-ranking makeable contract); NS's only
    # higher bid, 7NT, goes 13 down vulnerable doubled (-3800), so EW keep +1510.
    assert found.pars[2].score == -1510
    assert "7S" in found.pars[2].text
    assert found.solved == {}


def test_boards_without_tables_are_noted_when_not_solving() -> None:
    found = board_pars({1: Board(1, DEAL_1), 3: Board(3)}, solve=False)
    assert found.pars == {} and "1 board" in found.notes[0]


def test_par_solved_by_dds() -> None:
    pytest.importorskip("endplay")
    found = board_pars({1: Board(1, DEAL_1), 2: Board(2, DEAL_2, TABLE_2)})
    # NS's 7S (+1510, not vulnerable) outranks EW's 7H; 7NT by EW would go 13 down.
    assert found.pars[1].score == 1510
    assert found.pars[2].score == -1510
    # N and S each take all 13 tricks in spades and diamonds, none in NT, hearts or clubs.
    assert found.solved == {1: DDTable.parse("0d0d00d0d000d0d00d0d")}
