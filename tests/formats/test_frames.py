"""Board records in a notebook (issue 27, item 4): ``bs.records_frame`` and the
``_repr_html_`` of a record and of a board. The PBN below is written here."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

import bridgescore as bs
from bridgescore.board import Board
from bridgescore.errors import ArgumentTypeError
from bridgescore.formats import read_records
from bridgescore.formats.frames import RECORD_COLUMNS
from bridgescore.formats.record import BoardRecord

DATA = Path(__file__).resolve().parents[1] / "data"

PBN = """\
[Event "Club <Monday> & friends"]
[Board "7"]
[West "Wendy"]
[North "<Ann>"]
[East "Ed"]
[South "Sam & Co"]
[Dealer "S"]
[Vulnerable "All"]
[Deal "N:AKQ.JT9.8765.432 JT9.8765.432.AKQ 8765.432.AKQ.JT9 432.AKQ.JT9.8765"]
[Declarer "N"]
[Contract "4HX"]
[Result "8"]
[Score "EW 500"]
[Auction "S"]
Pass Pass 1C =1= 1H X Pass 2H Pass 4H X AP
[Note "1:Precision"]

[Event "Club <Monday> & friends"]
[Board "8"]
[Dealer "W"]
[Vulnerable "None"]
[Deal "N:AKQ.JT9.8765.432 JT9.8765.432.AKQ 8765.432.AKQ.JT9 432.AKQ.JT9.8765"]
[Contract "Pass"]
[DoubleDummyTricks "666655656566565665656"]
"""


def _records() -> list[BoardRecord]:
    return list(read_records(text=PBN))


def test_one_row_per_record_and_one_column_per_field() -> None:
    frame = bs.records_frame(_records())
    assert list(frame.columns) == [
        "board", "dealer", "vulnerability", "deal", "north", "east", "south", "west",
        "event", "home_team", "visit_team", "table", "room", "auction", "play", "claim",
        "contract", "declarer", "passed_out", "result", "adjusted", "score", "score_imp",
        "score_mp", "score_percentage", "dd_tricks", "optimum_score", "notes", "match",
        "file", "line", "problems",
    ]  # fmt: skip
    assert len(frame) == 2
    assert {name: str(dtype) for name, dtype in frame.dtypes.items()} == RECORD_COLUMNS
    assert frame["board"].dtype == "Int64" and frame["deal"].dtype == "string"
    assert frame["passed_out"].dtype == bool


def test_the_values_are_the_records() -> None:
    frame = bs.records_frame(_records())
    first = frame.iloc[0]
    assert first["board"] == 7
    assert first["dealer"] == "S"
    assert first["vulnerability"] == "Both"
    assert first["deal"] == (
        "N:AKQ.JT9.8765.432 JT9.8765.432.AKQ 8765.432.AKQ.JT9 432.AKQ.JT9.8765"
    )
    assert [first[seat] for seat in ("north", "east", "south", "west")] == [
        "<Ann>", "Ed", "Sam & Co", "Wendy",
    ]  # fmt: skip
    assert first["event"] == "Club <Monday> & friends"
    assert first["auction"] == "Pass Pass 1C! 1H X Pass 2H Pass 4H X Pass Pass Pass"
    assert first["contract"] == "4HX" and first["declarer"] == "N" and first["result"] == 8
    assert first["score"] == "EW 500" and pd.isna(first["score_imp"])
    assert not first["passed_out"] and not first["adjusted"]
    assert pd.isna(first["play"]) and pd.isna(first["room"]) and first["table"] == ""
    assert first["notes"] == {} and pd.isna(first["match"]) and pd.isna(first["file"])
    assert first["line"] == 1 and first["problems"] == []
    second = frame.iloc[1]
    assert second["board"] == 8 and second["dealer"] == "W" and second["vulnerability"] == "None"
    assert second["contract"] == "Pass" and bool(second["passed_out"])
    assert pd.isna(second["declarer"]) and pd.isna(second["result"]) and pd.isna(second["auction"])


def test_a_file_of_tests_data_reads_into_a_frame() -> None:
    records = list(read_records(DATA / "games_import.pbn"))
    frame = bs.records_frame(records)
    assert frame["board"].tolist() == [record.board for record in records] == [3, 4, 2]
    # Board 4 gives no Contract tag (only its auction): the record does not know it.
    assert frame["contract"].tolist() == ["3NT", pd.NA, "4SX"]
    assert frame["result"].tolist() == [9, 12, 9]
    assert frame["line"].tolist() == [3, 29, 47]
    assert frame["file"].tolist() == [str(DATA / "games_import.pbn")] * 3


def test_no_records_make_an_empty_frame_with_every_column() -> None:
    frame = bs.records_frame([])
    assert len(frame) == 0 and list(frame.columns) == list(RECORD_COLUMNS)


def test_anything_but_records_is_refused_clearly() -> None:
    with pytest.raises(ArgumentTypeError, match=r"records_frame takes board records, got str"):
        bs.records_frame(PBN)
    with pytest.raises(ArgumentTypeError, match=r"record 2 is 7: expected a BoardRecord"):
        bs.records_frame([_records()[0], 7])  # type: ignore[list-item]


def test_a_record_in_a_notebook_escapes_every_name() -> None:
    html = _records()[0]._repr_html_()
    opening = '<div class="bridgescore board"><div><b>Board 7 · Dealer South · Vul Both'
    assert html.startswith(opening)
    assert "<div><b>North: &lt;Ann&gt;</b></div>" in html
    assert "<div><b>South: Sam &amp; Co</b></div>" in html
    assert "<div>Event: Club &lt;Monday&gt; &amp; friends</div>" in html
    assert '<div>Contract 4<span style="color:#c00000">♥</span>X by N, 8 tricks</div>' in html
    assert "<div>Auction: Pass Pass 1C! 1H X Pass 2H Pass 4H X Pass Pass Pass</div>" in html
    assert "<div>Score: EW 500</div>" in html
    assert "<Ann>" not in html and "<script" not in html
    # The North hand's spades, as the diagram shows them.
    assert '<span style="color:#000000">♠</span> A K Q</div>' in html


def test_a_passed_out_record_and_its_dd_table() -> None:
    html = _records()[1]._repr_html_()
    assert "<div>Passed out</div>" in html
    # A DoubleDummyTricks of 21 digits is shown as written, not as a grid.
    assert "<div>DD tricks: 666655656566565665656</div>" in html


def test_a_board_shows_its_deal_dd_table_and_par() -> None:
    table = bs.DDTable.parse("a989ca989c3453134531")
    par = bs.par(table, bs.Vulnerability.NONE)
    board = Board(1, bs.Deal.from_pbn(_records()[0].deal.to_pbn()), table, par)  # type: ignore[union-attr]
    html = board._repr_html_()
    assert "<div><b>Board 1 · Dealer North · Vul None</b></div>" in html
    assert '<div>Par NS +920: 6<span style="color:#000000">♣</span>= NS</div>' in html
    cells = re.findall(r"<td style=[^>]*>(\d+)</td>", html)
    assert cells[:4] == ["10", "10", "3", "3"]  # NT row: N S E W
    assert repr(board).startswith("Board(number=1, deal=Deal.from_pbn(")


def test_a_board_without_a_deal() -> None:
    html = Board(5)._repr_html_()
    assert html == (
        '<div class="bridgescore board"><div><b>Board 5 · Dealer North · Vul NS</b></div>'
        "<div>no deal</div></div>"
    )


def test_a_teams_record_names_its_teams_table_and_room() -> None:
    record = BoardRecord(
        board=2, home_team="Lions <A>", visit_team="Tigers", table="B12", room="closed"
    )
    html = record._repr_html_()
    assert "<div>Teams: Lions &lt;A&gt; v Tigers</div>" in html
    assert "<div>Table B12 · closed room</div>" in html
    assert "<div>no deal</div>" in html
