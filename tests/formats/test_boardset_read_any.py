"""Board sets read through formats/: PBN and LIN by formats.read_records, USEBIO hand
sets, and formats' JSON list, as the hand records and `deal --verify` read them."""

from __future__ import annotations

from pathlib import Path

from bridgescore.boardset import DealSeed, deal_set
from bridgescore.core import Seat, Vulnerability
from bridgescore.deal import Deal
from bridgescore.formats import BoardRecord, format_records
from bridgescore.formats.boardset import board_file_text, guess_format, read_boards

DATA = Path(__file__).parents[1] / "data"


def test_usebio_hand_set_is_a_board_set() -> None:
    # The file is ISO-8859-1, as its XML declaration says: read as the hand records do.
    text = board_file_text((DATA / "usebio_pairs.xml").read_bytes())
    assert guess_format("results.xml", text) == "usebio"
    assert guess_format("results", text) == "usebio"  # by content alone
    boards, problems = read_boards(text, "usebio")
    assert problems == []
    assert [board.number for board in boards] == [1, 2, 3]
    # Board 1's HANDSET as the XML writes it (suits S, H, D, C per hand, N E S W).
    assert boards[0].deal == Deal.from_pbn(
        "N:K98652.J7.842.82 T.A92.75.AKJT976 A43.T863.AKQJ3.5 QJ7.KQ54.T96.Q43"
    )
    assert (
        boards[1].deal[Seat.NORTH]
        == Deal.from_pbn("N:AK763.8.KT854.Q4 QJ.KJ5.762.KJT98 T85.Q643.AJ.7652 942.AT972.Q93.A3")[
            Seat.NORTH
        ]
    )
    # USEBIO gives no dealer or vulnerability: the board number's (Law 2).
    assert (boards[2].dealer, boards[2].vulnerability) == (Seat.SOUTH, Vulnerability.EW)


def test_a_usebio_file_without_hands_says_so() -> None:
    text = '<USEBIO Version="1.2"><EVENT EVENT_TYPE="MP_PAIRS"></EVENT></USEBIO>'
    boards, problems = read_boards(text, "usebio")
    assert boards == [] and "no HANDSET" in problems[0].message
    boards, problems = read_boards("<USEBIO", "usebio")
    assert boards == [] and len(problems) == 1


def test_vugraph_archive_gives_each_board_once() -> None:
    text = (DATA / "formats" / "vugraph.lin").read_text(encoding="utf-8")
    boards, problems = read_boards(text, guess_format("match.lin", text))
    assert problems == []
    assert [board.number for board in boards] == [5, 6]
    five = boards[0]
    # md|3...: North deals; hands S, W, N as written, East the rest of the pack.
    south, west, north = "8.A94.AQJ92.A852", "A2.2.K543.KQJ974", "K75.KQJT763.T8.T"
    expected = Deal.from_pbn(f"S:{south} {west} {north} QJT9643.85.76.63")
    assert five.deal == expected
    assert (five.dealer, five.vulnerability) == (Seat.NORTH, Vulnerability.NS)
    assert (boards[1].dealer, boards[1].vulnerability) == (Seat.EAST, Vulnerability.EW)


def test_formats_json_list_reads_as_a_board_set() -> None:
    boards = deal_set(DealSeed.from_test_number(7), [3, 4, 9])
    records = [
        BoardRecord(board=b.number, dealer_seat=b.dealer, vulnerable=b.vulnerability, deal=b.deal)
        for b in boards
    ]
    text = format_records(records, "json")
    read, problems = read_boards(text, guess_format("records.json", text))
    assert problems == []
    assert [(b.number, b.deal, b.dealer, b.vulnerability) for b in read] == [
        (b.number, b.deal, b.dealer, b.vulnerability) for b in boards
    ]


def test_pbn_second_table_of_a_board_is_not_a_second_board() -> None:
    # PBN 2.1 lets the second table omit the board's tags (it takes them from the game
    # before): a board set holds the board once.
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    text = (
        f'[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{deal}"]\n[Room "Open"]\n\n'
        '[Room "Closed"]\n'
    )
    boards, problems = read_boards(text, "pbn")
    assert problems == [] and [b.number for b in boards] == [1]
    assert boards[0].deal == Deal.from_pbn(deal)


def test_a_bad_pbn_deal_is_reported_with_its_line() -> None:
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    good = f'[Board "2"]\n[Deal "{deal}"]\n'
    text = '[Board "1"]\n[Deal "N:AKQ"]\n\n' + good
    boards, problems = read_boards(text, "pbn")
    assert [board.number for board in boards] == [2]
    assert len(problems) == 1 and problems[0].line == 2 and "AKQ" in problems[0].message


def test_latin1_and_cp1252_board_files_read_as_their_utf8_twin() -> None:
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    text = f'[Event "Café Noël"]\n[Board "1"]\n[Deal "{deal}"]\n'
    for encoding in ("utf-8", "utf-8-sig", "latin-1", "cp1252"):
        assert board_file_text(text.encode(encoding)) == text


def test_json_board_set_too_deep_or_too_long_a_number_is_a_problem() -> None:
    """Both made json.loads raise a plain ValueError/RecursionError (not a
    JSONDecodeError), which used to escape as a traceback."""
    from bridgescore.formats.boardset import read_boards

    for text in ("[" * 100_000, '{"boards": ' + "7" * 5000 + "}"):
        boards, problems = read_boards(text, "json")
        assert boards == []
        assert len(problems) == 1 and "not JSON" in problems[0].message
