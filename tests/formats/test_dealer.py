"""``dealer`` means the same seat on a board and on a record (issue 44): the seat that
deals, the one stated, else the board number's (Law 2: North deals boards 1, 5, 9, 13;
East 2, 6, 10, 14; South 3, 7, 11, 15; West 4, 8, 12, 16). ``dealer_seat`` is, on both,
the seat stated, ``None`` when none is. ``vulnerability`` and ``vulnerable`` likewise
(Law 2: None on 1, 8, 11, 14; NS on 2, 5, 12, 15; EW on 3, 6, 9, 16; Both on 4, 7, 10,
13)."""

from __future__ import annotations

import pytest

from bridgescore.board import Board
from bridgescore.core import Seat, Vulnerability
from bridgescore.errors import RecordError
from bridgescore.formats.board import board_record
from bridgescore.formats.pbn import read_pbn
from bridgescore.formats.record import BoardRecord

LAW_2 = {1: Seat.NORTH, 2: Seat.EAST, 3: Seat.SOUTH, 4: Seat.WEST, 14: Seat.EAST, 16: Seat.WEST}


@pytest.mark.parametrize("number", sorted(LAW_2))
def test_an_unstated_dealer_is_the_board_numbers_on_both(number: int) -> None:
    board, record = Board(number), BoardRecord(board=number)
    assert board.dealer is record.dealer is LAW_2[number]
    assert board.dealer_seat is record.dealer_seat is None


@pytest.mark.parametrize("number", sorted(LAW_2))
def test_a_stated_dealer_wins_on_both(number: int) -> None:
    # West deals every board here, as a file may state against the board number.
    board = Board(number, dealer_seat=Seat.WEST)
    record = BoardRecord(board=number, dealer_seat=Seat.WEST)
    assert board.dealer is record.dealer is Seat.WEST
    assert board.dealer_seat is record.dealer_seat is Seat.WEST


def test_a_record_with_neither_has_no_dealer() -> None:
    assert BoardRecord().dealer is None and BoardRecord().dealer_seat is None


def test_a_board_and_its_record_agree() -> None:
    for board in (Board(6), Board(6, dealer_seat=Seat.SOUTH)):
        assert board_record(board).dealer is board.dealer


def test_a_pbn_game_without_a_dealer_tag_is_dealt_by_its_number() -> None:
    (stated, unstated) = list(read_pbn('[Board "7"]\n[Dealer "W"]\n\n[Board "8"]\n'))
    assert (stated.dealer, stated.dealer_seat) == (Seat.WEST, Seat.WEST)
    assert (unstated.dealer, unstated.dealer_seat) == (Seat.WEST, None)
    assert Board(8).dealer is unstated.dealer


def test_a_record_gives_the_board_it_holds() -> None:
    # What the file states stays stated (dealer_seat, vulnerable), the rest follows the
    # number; a file that numbers its boards otherwise (a LIN hand record) passes it.
    (game,) = read_pbn('[Board "6"]\n[Dealer "N"]\n[Vulnerable "None"]\n')
    board = game.as_board()
    assert (board.number, board.dealer_seat, board.vulnerable) == (
        6,
        Seat.NORTH,
        Vulnerability.NONE,
    )
    assert (board.dealer, board.vulnerability) == (Seat.NORTH, Vulnerability.NONE)
    plain = BoardRecord().as_board(3)
    assert (plain.number, plain.dealer_seat, plain.vulnerable) == (3, None, None)
    assert (plain.dealer, plain.vulnerability) == (Seat.SOUTH, Vulnerability.EW)
    with pytest.raises(RecordError, match="no number"):
        BoardRecord().as_board()
    # No number, but its dealer and vulnerability: a board without a number.
    loose = BoardRecord(dealer_seat=Seat.EAST, vulnerable=Vulnerability.BOTH).as_board()
    assert (loose.number, loose.dealer, loose.vulnerability) == (
        None,
        Seat.EAST,
        Vulnerability.BOTH,
    )


LAW_2_VULNERABLE = {1: "None", 2: "NS", 3: "EW", 4: "Both", 8: "None", 13: "Both", 16: "EW"}


@pytest.mark.parametrize("number", sorted(LAW_2_VULNERABLE))
@pytest.mark.parametrize("stated", [None, *Vulnerability])
def test_vulnerability_means_the_same_on_a_board_and_a_record(
    number: int, stated: Vulnerability | None
) -> None:
    board = Board(number, vulnerable=stated)
    record = BoardRecord(board=number, vulnerable=stated)
    expected = Vulnerability.parse(LAW_2_VULNERABLE[number]) if stated is None else stated
    assert board.vulnerability is record.vulnerability is expected
    assert board.vulnerable is record.vulnerable is stated
    assert record.as_board() == board


def test_a_record_with_neither_has_no_vulnerability() -> None:
    assert BoardRecord().vulnerability is None and BoardRecord().vulnerable is None
