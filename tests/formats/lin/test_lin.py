"""LIN: BBO hand histories, vugraph archives and handviewer links read into board
records; the single-line writer; the PBN ⇄ LIN ⇄ JSON round trips.

Scores are worked out here from the Laws; trick counts of played boards by an
independent trick-winner rule written in this file.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest
from hypothesis import given, settings

from bridgescore import Card, Contract, NotationError, Seat, Strain, Vulnerability
from bridgescore.formats import (
    BoardRecord,
    RecordedCall,
    check_record,
    format_records,
    handviewer_link,
    read_records,
)
from bridgescore.formats.lin import format_lin, lin_from_link, read_lin
from format_strategies import records

DATA = Path(__file__).parents[2] / "data" / "formats"


def _declarer_tricks(cards: tuple[Card, ...], declarer: Seat, trump: Strain) -> int:
    """Tricks won by declarer's side, by the rule of Law 44 written out here."""
    leader, won = declarer.rotate(1), 0
    for start in range(0, len(cards) - len(cards) % 4, 4):
        trick = cards[start : start + 4]
        led = trick[0].suit
        trumps = [i for i, card in enumerate(trick) if card.suit == trump]
        pool = trumps or [i for i, card in enumerate(trick) if card.suit == led]
        best = max(pool, key=lambda i: trick[i].rank)
        leader = leader.rotate(best)
        won += leader in (declarer, declarer.partner)
    return won


def test_hand_history_reads_every_board() -> None:
    records_ = list(read_records(DATA / "hand_history.lin"))
    assert [r.board for r in records_] == [1, 2, 3, 4]
    first = records_[0]
    # pn is South first: S, W, N, E.
    assert first.player(Seat.SOUTH) == "Sally Smith" and first.player(Seat.NORTH) == "norbert"
    assert first.dealer is Seat.NORTH and first.vulnerable is Vulnerability.NONE
    assert first.auction is not None
    assert [c.call for c in first.auction] == ["1NT", "Pass", "3NT", "Pass", "Pass", "Pass"]
    assert first.auction[0].alerted and first.auction[0].explanation == "15-17 balanced"
    assert first.claim == 9 and first.play is not None and len(first.play) == 8
    checked = [check_record(r) for r in records_]
    assert all(c.problems == () for c in checked)
    # Board 1: 3NT= not vul 400. Board 2 passed out. Board 4 (both vul): 2H by E,
    # 7 tricks: one down vulnerable, 100 to NS.
    assert [c.as_dict()["score_ns"] for c in checked][:2] == [400, 0]
    assert checked[3].as_dict()["result"] == "2HE-1" and checked[3].as_dict()["score_ns"] == 100
    # Board 3: 4SX by South, played out. Its tricks by the rule above, its score by
    # the Laws: doubled undertricks not vulnerable 100, 300, 500, 800, then +300 each.
    third = records_[2]
    assert third.play is not None and len(third.play) == 52
    tricks = _declarer_tricks(third.play, Seat.SOUTH, Strain.SPADES)
    down = 10 - tricks
    assert down > 0
    penalty = [0, 100, 300, 500, 800][down] if down <= 4 else 800 + 300 * (down - 4)
    assert checked[2].as_dict()["tricks"] == tricks
    assert checked[2].as_dict()["score_ns"] == -penalty
    # Unknown tags and commentary are kept, not errors.
    assert ("LIN_zz", "kept") in third.notes and ("LIN_nt", "well played") in third.notes


def test_vugraph_archive_has_both_rooms_and_teams() -> None:
    records_ = list(read_records(DATA / "vugraph.lin"))
    assert [(r.board, r.room) for r in records_] == [
        (5, "open"),
        (5, "closed"),
        (6, "open"),
        (6, "closed"),
    ]
    open_, closed = records_[0], records_[1]
    assert open_.event == "Autumn Cup"
    assert (open_.home_team, open_.visit_team) == ("Lions", "Tigers")
    # Eight names: the open room's S, W, N, E, then the closed room's.
    assert open_.player(Seat.SOUTH) == "Ann South" and open_.player(Seat.EAST) == "Di East"
    assert closed.player(Seat.SOUTH) == "Eve South" and closed.player(Seat.EAST) == "Hal East"
    assert closed.deal == open_.deal
    # The rs header is kept on the first board, to be written back.
    assert open_.note("LIN_rs") == "3NTN=,4SE-1,2HS+1,2HS="
    # Board 5 (dealer N, NS vul): 3NT= vulnerable 600 in the open room; 4S-1 by East
    # (EW not vul) 50 to NS in the closed room.
    scores = [check_record(r).as_dict()["score_ns"] for r in records_]
    assert scores[:2] == [600, 50]
    assert records_[2].auction is not None and records_[2].auction[1].explanation == "weak"


def test_handviewer_link() -> None:
    text = (DATA / "handviewer.txt").read_text()
    (record,) = read_records(text=text)
    assert record.board == 8 and record.dealer is Seat.WEST
    assert record.player(Seat.SOUTH) == "Sue"
    assert record.contract == Contract.parse("1NTN") and record.claim == 7
    assert lin_from_link(text).startswith("pn|Sue,Wes,Ned,Eve|")


def test_lin_quirks() -> None:
    text = "md|1SAAKQ,HAKQ|"  # the ace of spades twice
    (record,) = read_lin("pn|a,b,c,d|" + text + "sv|x|ah|Board 0|mb|9Z|")
    messages = [p.message for p in record.problems]
    assert any("repeats a card" in m for m in messages)
    assert any("expected o (none), n, e or b" in m for m in messages)
    assert any("Board 12" in m for m in messages)
    assert any("not a call" in m for m in messages)


def test_fourth_hand_is_the_rest_of_the_pack() -> None:
    lin = "md|3SAKQJHAKQDAKQCAKQ,S2345H2345D2345C2,S6789H6789D6789C3,|ah|Board 1|"
    (record,) = read_lin(lin)
    assert record.deal is not None
    east = record.deal[Seat.EAST]
    assert len(east.cards) == 13 and Card.parse("ST") in east.cards


def test_handviewer_link_for_any_deal() -> None:
    record = next(iter(read_records(DATA / "championship.pbn")))
    assert record.deal is not None
    link = handviewer_link(record.deal)
    assert link.startswith("https://www.bridgebase.com/tools/handviewer.html?lin=")
    assert "|" not in link  # URL-encoded
    (again,) = read_records(text=link)
    assert again.deal == record.deal
    shown = BoardRecord(deal=record.deal, dealer_seat=Seat.NORTH)
    assert unquote(link.partition("lin=")[2]) == format_lin(shown)


@settings(max_examples=150, deadline=None)
@given(records())
def test_lin_round_trip(record: BoardRecord) -> None:
    (again,) = read_lin(format_lin(record))
    assert again.problems == ()
    assert again.without_source() == record


@settings(max_examples=150, deadline=None)
@given(records())
def test_pbn_round_trip(record: BoardRecord) -> None:
    (again,) = read_records(text=format_records([record], "pbn"))
    assert again.problems == ()
    assert again.without_source() == record


@settings(max_examples=150, deadline=None)
@given(records())
def test_json_round_trip(record: BoardRecord) -> None:
    (again,) = read_records(text=format_records([record], "json"))
    assert again.problems == ()
    assert again.without_source() == record


@settings(max_examples=60, deadline=None)
@given(records())
def test_pbn_lin_json_chain(record: BoardRecord) -> None:
    text = format_records([record], "pbn")
    for target in ("lin", "json", "pbn"):
        (read,) = read_records(text=text)
        text = format_records([read], target)
    (final,) = read_records(text=text)
    assert final.without_source() == record


# -- where a board starts, and one board a line -----------------------------------

# A deal written by hand: md's digit 3 makes North the dealer; the hands go S, W, N, E.
# South holds the ace, king and queen of every suit and the jack of spades, West the
# 2-5 of spades, hearts and diamonds and the two of clubs, North the 6-9 and the three
# of clubs; East, left out, holds the rest: ST, HJT, DJT, CJT987654.
_MD = "md|3SAKQJHAKQDAKQCAKQ,S2345H2345D2345C2,S6789H6789D6789C3,|"
_BOARD_1 = _MD + "ah|Board 1|mb|1N|mb|p|mb|p|mb|p|mc|8|"
# No md: board 2's dealer is East (Law 2). East passes, South passes, West opens 1S,
# North passes, East raises to 4S, South doubles, three passes: 4SX by West.
_BOARD_2 = "ah|Board 2|mb|p|mb|p|mb|1S|mb|p|mb|4S|mb|d|mb|p|mb|p|mb|p|mc|9|"


def test_a_board_without_a_deal_on_its_own_line_is_its_own_board() -> None:
    first, second = read_lin(_BOARD_1 + "\n" + _BOARD_2 + "\n")
    assert first.board == 1 and first.deal is not None and first.claim == 8
    assert first.auction is not None and [c.call for c in first.auction] == [
        "1NT", "Pass", "Pass", "Pass",
    ]  # fmt: skip
    assert first.contract == Contract.parse("1NTN")
    assert second.board == 2 and second.deal is None and second.dealer_seat is None
    assert second.source.line == 2
    assert second.contract == Contract.parse("4SXW") and second.claim == 9
    assert first.problems == () and second.problems == ()
    checked = [check_record(record).as_dict() for record in (first, second)]
    # Board 1, nobody vulnerable: 1NT with one overtrick, 40 + 30 + the part-score 50.
    # Board 2, NS vulnerable (Law 2) so West is not: 4SX one down, 100 to NS.
    assert [(c["result"], c["score_ns"]) for c in checked] == [("1NTN+1", 120), ("4SXW-1", 100)]
    assert all(c["problems"] == [] for c in checked)


def test_a_second_header_on_one_line_starts_the_next_board() -> None:
    apart = [r.without_source() for r in read_lin(_BOARD_1 + "\n" + _BOARD_2)]
    together = [r.without_source() for r in read_lin(_BOARD_1 + _BOARD_2)]
    assert len(together) == 2 and together == apart


def test_a_line_with_no_header_and_no_deal_is_still_a_board() -> None:
    first, second = read_lin(_BOARD_1 + "\nmb|p|mb|p|mb|1S|mb|p|mb|p|mb|p|mc|8|\n")
    assert first.auction is not None and len(first.auction) == 4 and first.claim == 8
    assert second.board is None and second.claim == 8
    assert second.auction is not None and len(second.auction) == 6
    # With no board number there is no dealer to read the auction from: said, not guessed.
    messages = [p.message for p in check_record(second).problems]
    assert any("no Dealer and no board number" in m for m in messages)


def test_header_lines_before_the_boards_are_no_board() -> None:
    text = "pn|Sue,Wes,Ned,Eve|\nEvent|Club pairs|\n" + _BOARD_1 + "\n"
    (record,) = read_lin(text)
    assert record.board == 1 and record.event == "Club pairs"
    assert record.player(Seat.SOUTH) == "Sue" and record.player(Seat.EAST) == "Eve"


def test_qx_starts_a_board_whose_play_runs_over_several_lines() -> None:
    # A vugraph archive: the open room's play goes on over the lines after its qx, and
    # the closed room's board gives no deal. East leads the jack of clubs against 1NT
    # by North; dummy (South) wins with the ace, West and North follow.
    text = (
        "vg|Cup,Final,I,1,1,Lions,0,Tigers,0|\n"
        f"qx|o1|{_MD}ah|Board 1|mb|1N|mb|p|mb|p|mb|p|pg||\n"
        "pc|CJ|pc|CA|pc|C2|pc|C3|pg||\n"
        "mc|8|\n"
        "qx|c1|mb|1N|mb|p|mb|p|mb|p|mc|6|qx|o2|ah|Board 2|mb|p|mb|p|mb|p|mb|p|\n"
    )
    open_, closed, passed = read_lin(text)
    assert (open_.board, open_.room, closed.board, closed.room) == (1, "open", 1, "closed")
    assert open_.play == tuple(Card.parse(card) for card in ("CJ", "CA", "C2", "C3"))
    assert open_.source.card_lines == (3, 3, 3, 3) and open_.claim == 8
    assert closed.deal is None and closed.claim == 6 and closed.source.line == 5
    # Board 1's dealer is North (Law 2), so the closed room's auction is North's 1NT.
    assert closed.contract == Contract.parse("1NTN")
    assert (passed.board, passed.room, passed.passed_out) == (2, "open", True)
    assert all(r.problems == () for r in (open_, closed, passed))
    # Nobody vulnerable on board 1: 1NT+1 is 120 to NS, 1NT-1 is 50 to EW.
    scores = [check_record(r).as_dict()["score_ns"] for r in (open_, closed)]
    assert scores == [120, -50]


def test_multi_line_tags_are_written_as_rows_on_one_line() -> None:
    table = "Declarer;Denomination\\2R;Result\\2R\nN NT 1\nN S 4"
    record = BoardRecord(board=1, notes=(("OptimumResultTable", table), ("LIN_nt", "well\nplayed")))
    line = format_lin(record)
    assert line == (
        "ah|Board 1|OptimumResultTable|Declarer;Denomination\\2R;Result\\2R|"
        "+|N NT 1|+|N S 4|nt|well|+|played|"
    )
    (again,) = read_lin(line)
    assert again.notes == record.notes and again.problems == ()


def test_a_row_with_no_tag_before_it_is_a_problem() -> None:
    (record,) = read_lin("ah|Board 1|mb|1N|+|N NT 1|")
    assert record.notes == ()
    assert any("+|" in p.message and "no kept tag before it" in p.message for p in record.problems)


def test_values_lin_cannot_hold_on_one_line_are_refused() -> None:
    for record, quoted in (
        (BoardRecord(board=1, event="Spring\nCup"), "'Spring\\nCup'"),
        (BoardRecord(board=1, players=("Ned", "Eve", "Smith, Sue", "Wes")), "'Smith, Sue'"),
        (
            BoardRecord(board=1, auction=(RecordedCall("1NT", True, "15-17\r\nbalanced"),)),
            "'15-17\\r\\nbalanced'",
        ),
        (BoardRecord(board=1, notes=(("+", "x"),)), "'+'"),
    ):
        with pytest.raises(NotationError, match=re.escape(quoted)):
            format_lin(record)
