"""The match header of a vugraph archive (LIN ``vg``): read into a MatchHeader, written
back exactly, carried through PBN and JSON; and the players of both rooms (``pn``)."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore import Seat
from bridgescore.errors import BridgeError, NotationError
from bridgescore.formats import BoardRecord, format_records, read_records
from bridgescore.formats.lin import format_lin, read_lin
from bridgescore.formats.record import MatchHeader
from format_strategies import records

DATA = Path(__file__).parents[2] / "data" / "formats"

_FIELD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789 _-.'éø", max_size=14).map(
    lambda text: " ".join(text.split())
)
_CARRY = st.none() | st.decimals(
    min_value=-999, max_value=999, places=1, allow_nan=False, allow_infinity=False
)
_BOARD = st.none() | st.integers(1, 999)
headers = st.builds(
    MatchHeader,
    event=_FIELD,
    segment=_FIELD,
    scoring=st.sampled_from(["", "I", "B", "P", "i"]),
    first_board=_BOARD,
    last_board=_BOARD,
    home_team=_FIELD,
    visit_team=_FIELD,
    home_carry=_CARRY,
    visit_carry=_CARRY,
    extra=st.lists(_FIELD, max_size=2).map(tuple),
)


def test_archive_header_is_read_into_fields() -> None:
    records_ = list(read_records(DATA / "vugraph.lin"))
    # The fixture's header: vg|Autumn Cup,Final Segment 1,I,5,6,Lions,0,Tigers,12.5|
    expected = MatchHeader(
        event="Autumn Cup",
        segment="Final Segment 1",
        scoring="I",
        first_board=5,
        last_board=6,
        home_team="Lions",
        visit_team="Tigers",
        home_carry=Decimal("0"),
        visit_carry=Decimal("12.5"),
    )
    assert [record.match for record in records_] == [expected] * 4
    assert expected.scoring_method == "imps" and expected.scoring_text == "IMPs"
    assert expected.carried_over == {"Lions": Decimal("0"), "Tigers": Decimal("12.5")}
    # It is a field now, not a note.
    assert all(record.note("LIN_vg") is None for record in records_)
    # Written back as the archive wrote it, once per record, before the board.
    assert format_lin(records_[1]).startswith(
        "vg|Autumn Cup,Final Segment 1,I,5,6,Lions,0,Tigers,12.5|qx|c5|"
    )


def test_header_shaped_like_a_later_segment() -> None:
    # A third segment of 16 boards, with the scores of the first two carried over.
    text = (
        "vg|Spring Teams,Final - Seg 3_4,I,33,48,Harbour,69,Castle,54|\n"
        "pn|,,,,,,,|pg||\n"
        "qx|o33|md|1,,,|mb|1s|mb|p|mb|p|mb|p|mc|7|\n"
    )
    (record,) = read_lin(text)
    assert record.problems == ()
    match = record.match
    assert match is not None
    assert (match.segment, match.first_board, match.last_board) == ("Final - Seg 3_4", 33, 48)
    assert match.carried_over == {"Harbour": Decimal(69), "Castle": Decimal(54)}
    assert (record.event, record.home_team, record.visit_team) == (
        "Spring Teams",
        "Harbour",
        "Castle",
    )


def test_short_and_long_headers() -> None:
    short = MatchHeader.parse("Club night,Round 2")
    assert short == MatchHeader(event="Club night", segment="Round 2")
    assert short.scoring_method is None and short.carried_over == {}
    assert MatchHeader.parse(str(short)) == short
    long = MatchHeader.parse("E,S,B,1,8,A,1,B,2,later,more")
    assert long.extra == ("later", "more") and long.scoring_text == "board-a-match"
    assert str(long) == "E,S,B,1,8,A,1,B,2,later,more"


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("Cup,Final,I,one,16,A,0,B,0", "'one'"),
        ("Cup,Final,I,1,16,A,lots,B,0", "'lots'"),
        ("Cup,Final,I,1,0,A,0,B,0", "'0'"),
        ("Cup,Final,I,1,16,A,0,B,1e3", "'1e3'"),
    ],
)
def test_bad_header_is_reported_and_kept(text: str, quoted: str) -> None:
    with pytest.raises(NotationError, match=quoted):
        MatchHeader.parse(text)
    (record,) = read_lin(f"vg|{text}|qx|o1|md|3,,,|mb|p|mb|p|mb|p|mb|p|")
    assert record.match is None
    assert len(record.problems) == 1 and quoted in record.problems[0].message
    assert "expected" in record.problems[0].message
    # Nothing dropped: the header as written goes back out, first.
    assert record.note("LIN_vg") == text
    assert format_lin(record).startswith(f"vg|{text}|qx|o1|")


def test_header_fields_cannot_hold_the_separator() -> None:
    with pytest.raises(BridgeError, match="'Smith, Jones'"):
        MatchHeader(home_team="Smith, Jones")
    with pytest.raises(BridgeError, match="board 0"):
        MatchHeader(first_board=0)
    with pytest.raises(BridgeError, match="board 1000000"):
        MatchHeader(last_board=1_000_000)  # the LIN reader would not read it back


def test_header_alone_is_still_a_record() -> None:
    (record,) = read_lin("vg|Cup,Final,I,1,16,A,0,B,3|")
    assert record.match == MatchHeader.parse("Cup,Final,I,1,16,A,0,B,3")


@settings(max_examples=200, deadline=None)
@given(headers)
def test_header_text_round_trip(header: MatchHeader) -> None:
    assert MatchHeader.parse(str(header)) == header


@settings(max_examples=100, deadline=None)
@given(records(), headers)
def test_records_with_a_header_round_trip_in_every_format(
    record: BoardRecord, header: MatchHeader
) -> None:
    record = replace(record, match=header)
    (again,) = read_lin(format_lin(record))
    assert again.problems == ()
    assert again.without_source() == record
    for target in ("json", "pbn"):
        (read,) = read_records(text=format_records([record], target))
        assert read.problems == ()
        assert read.without_source() == record


# -- players of both rooms ------------------------------------------------------

_PASSED = "md|3,,,|mb|p|mb|p|mb|p|mb|p|"


def _players(text: str) -> list[tuple[int | None, str | None, tuple[str, str, str, str]]]:
    return [(r.board, r.room, r.players) for r in read_lin(text)]


def test_eight_names_open_room_first_then_closed() -> None:
    # pn lists S, W, N, E of the open room, then of the closed room; records are N, E, S, W.
    text = f"pn|s1,w1,n1,e1,s2,w2,n2,e2|qx|o1|{_PASSED}qx|c1|{_PASSED}"
    assert _players(text) == [
        (1, "open", ("n1", "e1", "s1", "w1")),
        (1, "closed", ("n2", "e2", "s2", "w2")),
    ]


def test_eight_names_again_after_a_substitution() -> None:
    text = (
        f"pn|s1,w1,n1,e1,s2,w2,n2,e2|qx|o1|{_PASSED}qx|c1|{_PASSED}"
        f"pn|S1,W1,N1,E1,S2,W2,N2,E2|qx|o2|{_PASSED}qx|c2|{_PASSED}"
    )
    assert _players(text)[2:] == [
        (2, "open", ("N1", "E1", "S1", "W1")),
        (2, "closed", ("N2", "E2", "S2", "W2")),
    ]


def test_eight_names_inside_the_closed_rooms_board() -> None:
    text = f"qx|o1|pn|s1,w1,n1,e1,s2,w2,n2,e2|{_PASSED}qx|c1|pn|s1,w1,n1,e1,s2,w2,n2,e2|{_PASSED}"
    assert [players for _, _, players in _players(text)] == [
        ("n1", "e1", "s1", "w1"),
        ("n2", "e2", "s2", "w2"),
    ]


def test_four_names_inside_a_rooms_board_change_that_room_only() -> None:
    text = (
        f"pn|s1,w1,n1,e1,s2,w2,n2,e2|qx|o1|{_PASSED}qx|c1|pn|x,y,z,t|{_PASSED}"
        f"qx|o2|{_PASSED}qx|c2|{_PASSED}"
    )
    players = [players for _, _, players in _players(text)]
    assert players == [
        ("n1", "e1", "s1", "w1"),
        ("z", "t", "x", "y"),
        ("n1", "e1", "s1", "w1"),  # the open room keeps its players
        ("z", "t", "x", "y"),
    ]
    assert read_lin(text).__next__().player(Seat.SOUTH) == "s1"


def test_whole_archive_round_trips_through_each_format() -> None:
    records_ = [r.without_source() for r in read_records(DATA / "vugraph.lin")]
    for target in ("lin", "json", "pbn"):
        text = format_records(records_, target)
        assert [r.without_source() for r in read_records(text=text)] == records_, target


@pytest.mark.parametrize(
    ("match", "quoted"),
    [
        ({"first_board": "x"}, "first_board must be a whole number, got 'x'"),
        ({"home_carry": "lots"}, "'lots'"),
        ({"home_team": "A, B"}, "'A, B'"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_json_match_is_a_clear_problem(match: dict[str, object], quoted: str) -> None:
    import json

    text = json.dumps([{"board": 1, "match": match}])
    (record,) = read_records(text=text)
    assert record.match is None
    assert len(record.problems) == 1 and quoted in record.problems[0].message
