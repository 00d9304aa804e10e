"""Played deals: deal, board, auction, play or tricks -> contract, result, NS score.

PBN games as played deals are tested in tests/formats/pbn/test_played.py, the ``game`` command in
tests/cli/test_game.py."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from bridgescore import (
    Auction,
    Board,
    BridgeError,
    Contract,
    IllegalCallError,
    IllegalPlayError,
    NotationError,
    Play,
    Seat,
    Side,
    Vulnerability,
    play_deal,
)
from bridgescore.deal import Deal

DATA = Path(__file__).parent / "data"
N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST

STRIPED = Deal.from_pbn("N:AKQJ.AKQJ.AKQJ.2 654.654.654.AKQJ T987.T987.T987.3 32.32.32.T987654")
ONE_SUIT = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
# 3NT by South, West leads: East-West cash four clubs, North-South take the other
# nine tricks (see test_play.py for the reasoning).
STRIPED_3NT = (
    "C4 C2 CA C3 CK D7 C5 DJ CQ D8 C6 HJ CJ D9 C7 SJ S6 ST S2 SA SK S5 S9 S3 "
    "SQ S4 S8 C8 HA H6 HT H2 HK H5 H9 H3 HQ H4 H8 C9 DA D6 DT D2 DK D5 S7 D3 DQ D4 H7 CT"
)
# 4S by South: East-West win the club ace, then North-South take every trick: 12.
STRIPED_4S_START = "C4 C2 CA C3 CK S7 C5 DJ S8 S2 SJ S4 SA S5 S9 S3 SK S6 ST C6"


# -- the examples ---------------------------------------------------------------


def test_3nt_by_south_taking_nine_not_vulnerable_is_400() -> None:
    played = play_deal(
        STRIPED, "1NT Pass 3NT AP", dealer=S, vulnerability=Vulnerability.NONE, tricks=9
    )
    assert played.contract == Contract.parse("3NTS")
    assert played.declarer is S and played.tricks == 9
    assert str(played.result) == "3NTS="
    assert played.score == 400


def test_4s_by_south_taking_eleven_not_vulnerable_is_450() -> None:
    played = play_deal(None, "1S Pass 4S AP", dealer=S, vulnerability=Vulnerability.NONE, tricks=11)
    assert str(played.result) == "4SS+1"
    assert played.score == 450


def test_4s_doubled_by_south_taking_nine_vulnerable_is_minus_200() -> None:
    played = play_deal(None, "1S 2H 4S X AP", dealer=S, vulnerability=Vulnerability.BOTH, tricks=9)
    assert played.contract == Contract.parse("4SXS")
    assert played.score_for(Side.NS) == -200 and played.score == -200
    assert played.score_for(Side.EW) == 200
    assert played.declarer_score == -200


# -- boards, sides and signs -------------------------------------------------------------


def test_board_gives_dealer_and_vulnerability() -> None:
    # Board 7: South deals, both vulnerable (Law 2).
    played = play_deal(None, "4S X AP", board=7, tricks=9)
    assert played.dealer is S and played.vulnerability is Vulnerability.BOTH
    assert played.score == -200 and played.number == 7 and played.board == Board(7)
    # Explicit values win over the board.
    played = play_deal(
        None, "Pass 4S X AP", board=7, dealer=W, vulnerability=Vulnerability.NONE, tricks=9
    )
    assert played.contract == Contract.parse("4SXN") and played.score == -100
    # The board played is the one board value: its number, dealer and vulnerability.
    assert played.board == Board(7, dealer_seat=W, vulnerable=Vulnerability.NONE)
    assert played.board.dealer is W and played.as_dict()["board"] == 7


def test_a_deal_without_a_number_is_a_board_without_one() -> None:
    # A teaching hand: no board number, so dealer and vulnerability are given.
    played = play_deal(ONE_SUIT, "Pass Pass Pass Pass", dealer=E, vulnerability="EW")
    assert played.number is None and played.board.number is None
    assert played.board == Board(None, ONE_SUIT, dealer_seat=E, vulnerable=Vulnerability.EW)
    assert played.as_dict()["board"] is None and played.deal == ONE_SUIT
    # Law 2 gives them from a number; without one a board must state both.
    with pytest.raises(BridgeError, match="without a number needs its dealer and its vul"):
        Board(None, dealer_seat=E)
    with pytest.raises(BridgeError, match="board without a number: expected its board number"):
        _ = Board(None, dealer_seat=E, vulnerable="None").numbered
    assert Board(3).numbered == 3


def test_east_west_declarer_scores_negative_for_ns() -> None:
    # Board 2: East deals, North-South vulnerable, so East-West are not: 3NT= is 400 to EW.
    played = play_deal(None, "1NT Pass 3NT AP", board=2, tricks=9)
    assert played.declarer is E and not played.vulnerable
    assert played.score == -400 and played.score_for(Side.EW) == 400


def test_passed_out_scores_zero() -> None:
    played = play_deal(ONE_SUIT, "Pass Pass Pass Pass", board=1)
    assert played.is_passed_out and played.contract is None and played.declarer is None
    assert str(played.result) == "Pass" and played.score == 0 and played.tricks is None
    with pytest.raises(NotationError, match="passed out"):
        play_deal(None, "AP", board=1, tricks=7)
    with pytest.raises(IllegalPlayError, match="passed out"):
        play_deal(ONE_SUIT, "AP", board=1, play="HA")


def test_contract_without_auction() -> None:
    played = play_deal(None, contract="4SXS", board=7, tricks=9)
    assert played.score == -200 and played.auction is None
    assert play_deal(None, contract="Pass", board=1).score == 0
    with pytest.raises(NotationError, match="declarer"):
        play_deal(None, contract="4S", board=1, tricks=10)


# -- complete played deals, trick counts checked by hand ------------------------------------


def test_striped_deal_played_out_in_3nt() -> None:
    played = play_deal(STRIPED, "1NT Pass 3NT AP", board=3, play=STRIPED_3NT)
    # Board 3: East-West vulnerable, so North-South are not.
    assert played.tricks == 9 and played.score == 400
    assert played.play is not None and played.play.tricks == (9, 4)


def test_striped_deal_in_spades_with_a_claim() -> None:
    played = play_deal(STRIPED, "1S Pass 4S AP", board=3, play=STRIPED_4S_START, tricks=12)
    assert str(played.result) == "4SS+2" and played.score == 480
    assert played.play is not None and played.play.is_claimed


def test_one_suit_deal_east_in_notrump_goes_seven_down() -> None:
    # South leads diamonds and no one else holds any: South takes all 13 tricks.
    play = Play(ONE_SUIT, Contract.parse("1NTE"))
    while not play.is_complete:
        play.play(play.legal_cards()[0])
    played = play_deal(ONE_SUIT, "1NT AP", board=6, play=play)
    # Board 6: East deals, East-West vulnerable: 7 undoubled undertricks at 100.
    assert played.tricks == 0 and str(played.result) == "1NTE-7"
    assert played.score == 700


def test_play_and_tricks_must_agree() -> None:
    with pytest.raises(IllegalPlayError, match="disagrees"):
        play_deal(STRIPED, "1NT Pass 3NT AP", board=3, play=STRIPED_3NT, tricks=10)
    with pytest.raises(IllegalPlayError, match="cannot take"):
        play_deal(STRIPED, "1S Pass 4S AP", board=3, play=STRIPED_4S_START, tricks=13)
    with pytest.raises(IllegalPlayError, match="give the tricks declarer took"):
        play_deal(STRIPED, "1S Pass 4S AP", board=3, play=STRIPED_4S_START)


def test_illegal_card_in_the_play() -> None:
    with pytest.raises(IllegalPlayError, match="revoke"):
        play_deal(STRIPED, "1NT Pass 3NT AP", board=3, play="C4 SA")


def test_missing_or_inconsistent_pieces() -> None:
    with pytest.raises(NotationError, match="not finished"):
        play_deal(None, "1NT Pass 3NT Pass", board=3, tricks=9)
    with pytest.raises(NotationError, match="board number or its dealer"):
        play_deal(None, "1NT AP", tricks=7)
    with pytest.raises(NotationError, match="disagrees with the auction"):
        play_deal(None, "1NT Pass 3NT AP", board=3, contract="4SS", tricks=9)
    with pytest.raises(IllegalCallError):
        play_deal(None, "1NT 1S", board=3, tricks=9)
    with pytest.raises(NotationError, match="starts with"):
        play_deal(None, Auction.parse("1NT AP", dealer=N), board=3, tricks=7)
    with pytest.raises(NotationError, match="needs its play or the tricks"):
        play_deal(None, "1NT AP", board=3)
    with pytest.raises(BridgeError):
        play_deal(None, "1NT AP", board=3, tricks=14)
    with pytest.raises(NotationError, match="needs the deal"):
        play_deal(None, "1NT AP", board=3, play="C4")
    # A contract that agrees with the auction is accepted, with or without declarer.
    assert play_deal(None, "1NT AP", board=3, contract="1NT", tricks=7).score == 90
    assert play_deal(None, "1NT AP", board=3, contract="1NTS", tricks=7).score == 90


def test_as_dict() -> None:
    played = play_deal(None, "1S 2H 4S X AP", dealer=S, vulnerability=Vulnerability.BOTH, tricks=9)
    assert played.as_dict() == {
        "board": None,
        "dealer": "S",
        "vulnerable": "All",
        "contract": "4SX",
        "declarer": "S",
        "tricks": 9,
        "result": "4SXS-1",
        "score_ns": -200,
    }


def test_user_guide_examples() -> None:
    guide = Path(__file__).parent.parent / "docs" / "auction-and-play.md"
    failed, attempted = doctest.testfile(
        str(guide), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert attempted >= 30 and failed == 0
