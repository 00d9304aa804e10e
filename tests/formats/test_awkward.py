"""Awkward text in every field, through every pair of formats (issue 24, item 2).

Each writer escapes what its format needs (PBN ``"`` and ``\\``, CSV quoting, JSON)
or, for a value its format cannot hold, refuses it with a clear error: never a
file that reads back different. What a format cannot hold is written out here,
from the formats' own rules, not read from the writers.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore.errors import NotationError
from bridgescore.formats import BoardRecord, format_records, read_records
from format_strategies import awkward_records, board_set_records

FORMATS = ("pbn", "lin", "json")
SET_FORMATS = ("pbn", "lin", "json", "csv")
_LINE_BREAKS = ("\n", "\r")


def _texts(record: BoardRecord) -> list[str]:
    explanations = [call.explanation for call in record.auction or ()]
    return [record.event, record.home_team, record.visit_team, *record.players, *explanations]


def _cannot_hold(fmt: str, record: BoardRecord) -> bool:
    """PBN: a tag value is one line. LIN: a record is one line, '|' ends a value and
    has no escape, and pn separates the names with commas. JSON and CSV quote all."""
    texts = _texts(record)
    breaks = any(mark in text for text in texts for mark in _LINE_BREAKS)
    if fmt == "pbn":
        return breaks
    if fmt == "lin":
        return breaks or any("|" in t for t in texts) or any("," in p for p in record.players)
    if fmt == "csv":
        # Every reader reads a lone carriage return as a line end; CSV quotes the rest.
        return any("\r" in text for text in texts)
    return False


def _read_one(text: str, fmt: str) -> BoardRecord:
    (record,) = read_records(text=text, format=fmt)
    assert [p for p in record.problems if not p.notice] == []
    return record


def _through(record: BoardRecord, first: str, second: str) -> BoardRecord | None:
    """The record written in ``first``, read, written in ``second`` and read; ``None``
    when a writer refused it (having checked the refusal is the one expected)."""
    current = record
    for fmt in (first, second):
        if _cannot_hold(fmt, current):
            with pytest.raises(NotationError, match=r"cannot|spans lines|carriage return"):
                format_records([current], fmt)
            return None
        current = _read_one(format_records([current], fmt), fmt)
    return current


@pytest.mark.parametrize("second", FORMATS)
@pytest.mark.parametrize("first", FORMATS)
@settings(max_examples=40, deadline=None)
@given(record=awkward_records())
def test_awkward_text_round_trips_or_is_refused(
    first: str, second: str, record: BoardRecord
) -> None:
    back = _through(record, first, second)
    if back is not None:
        assert back.without_source() == record.without_source()


@pytest.mark.parametrize("second", SET_FORMATS)
@pytest.mark.parametrize("first", SET_FORMATS)
@settings(max_examples=30, deadline=None)
@given(record=board_set_records())
def test_board_set_records_round_trip_through_every_pair(
    first: str, second: str, record: BoardRecord
) -> None:
    back = _through(record, first, second)
    if back is not None:
        assert back.without_source() == record.without_source()


@pytest.mark.parametrize(
    ("fmt", "event", "expected"),
    [
        ("pbn", "a\nb", "spans lines"),
        ("lin", "a|b", "holds '|'"),
        ("lin", "a\nb", "line break"),
    ],
)
def test_an_event_the_format_cannot_hold_is_refused(fmt: str, event: str, expected: str) -> None:
    record = BoardRecord(board=1, event=event)
    with pytest.raises(NotationError, match=expected):
        format_records([record], fmt)


@given(st.just(None))
def test_csv_refuses_what_its_columns_cannot_hold(_: None) -> None:
    record = BoardRecord(board=1, players=("Ann", "", "", ""))
    with pytest.raises(NotationError, match="CSV cannot hold its players"):
        format_records([record], "csv")
