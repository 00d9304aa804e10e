"""LIN: BBO hand histories, vugraph archives and handviewer links read into board
records; the single-line writer; the PBN ⇄ LIN ⇄ JSON round trips.

Scores are worked out here from the Laws; trick counts of played boards by an
independent trick-winner rule written in this file.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

from hypothesis import given, settings

from bridgescore import Card, Contract, Seat, Strain, Vulnerability
from bridgescore.formats import (
    BoardRecord,
    check_record,
    format_records,
    handviewer_link,
    read_records,
)
from bridgescore.formats.lin import format_lin, lin_from_link, read_lin
from format_strategies import records

DATA = Path(__file__).parent / "data" / "formats"


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
    assert first.dealer is Seat.NORTH and first.vulnerability is Vulnerability.NONE
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
    shown = BoardRecord(deal=record.deal, dealer=Seat.NORTH)
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
