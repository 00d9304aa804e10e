"""Fuzzing every reader: mutated fixtures and generated text never raise anything but
BridgeError, and the work stays bounded (records no more than the input's size)."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore.errors import BridgeError
from bridgescore.formats import FORMATS, check_record, format_records, read_records
from bridgescore.formats.crosscheck import cross_check, ns_value
from bridgescore.formats.pbn import decode_line

DATA = Path(__file__).parents[1] / "data" / "formats"
FIXTURES = sorted(path for path in DATA.iterdir() if path.is_file())


def _exercise(text: str, format: str | None) -> None:
    try:
        records = list(read_records(text=text, format=format))
    except BridgeError:
        return  # only "cannot tell the format" may stop the reading itself
    assert len(records) <= len(text) + 1
    checked = []
    for record in records:
        checked.append(check_record(record))
    cross_check(checked)
    for target in FORMATS:
        with contextlib.suppress(BridgeError):
            written = format_records(records, target)
            if target == "lin":
                # One record, one line, whatever the values held.
                assert written.count("\n") == len(written.splitlines()) == len(records)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """A fixture with byte flips, a truncation, dropped or duplicated lines."""
    data = draw(st.sampled_from(FIXTURES)).read_bytes()
    kind = draw(st.sampled_from(["flip", "truncate", "drop", "duplicate", "splice"]))
    if kind == "flip" and data:
        raw = bytearray(data)
        for _ in range(draw(st.integers(1, 8))):
            raw[draw(st.integers(0, len(raw) - 1))] = draw(st.integers(0, 255))
        return bytes(raw)
    if kind == "truncate":
        return data[: draw(st.integers(0, len(data)))]
    lines = data.splitlines(keepends=True)
    if not lines:
        return data
    index = draw(st.integers(0, len(lines) - 1))
    if kind == "drop":
        del lines[index]
    elif kind == "duplicate":
        lines.insert(index, lines[index])
    else:
        lines.insert(index, draw(st.binary(max_size=40)))
    return b"".join(lines)


def _decode(data: bytes) -> str:
    return "".join(decode_line(line) for line in data.splitlines(keepends=True))


@settings(max_examples=300, deadline=None)
@given(mutated(), st.sampled_from([None, *FORMATS]))
def test_mutated_fixtures(data: bytes, format: str | None) -> None:
    _exercise(_decode(data), format)


@settings(max_examples=200, deadline=None)
@given(mutated())
def test_wrong_encodings(data: bytes) -> None:
    # The bytes read as if they were another encoding than they are.
    for encoding in ("utf-16", "latin-1"):
        _exercise(data.decode(encoding, errors="replace"), None)


_PIECES = st.sampled_from(
    [
        "|",
        "||",
        "md|",
        "mb|",
        "pc|",
        "qx|",
        "an|",
        "mc|",
        "vg|",
        "pn|",
        "sv|",
        "ah|",
        "+|",
        "nt|",
        "1",
        "3",
        "S",
        "H",
        "A",
        "K",
        "T",
        "!",
        ",",
        "p",
        "1n",
        "o5",
        "c5",
        "Board 9",
        '[Board "',
        '"]',
        '[Deal "N:',
        '[Auction "',
        '[Play "',
        "=1=",
        '[Note "1:',
        "\n",
        " ",
        "{",
        "}",
        ";",
        "%",
        "#",
        "*",
        "-",
        "AP",
        '{"board": ',
        "[",
        "]",
        '"',
        "\\",
        "\x00",
        "é",
        "\ufeff",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=60).map("".join), st.sampled_from([None, *FORMATS]))
def test_generated_text(text: str, format: str | None) -> None:
    _exercise(text, format)


# -- the score tags' values (ns_value) -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "total", "ns"),
    [
        ("NS 6", 0, 6.0),
        ("EW 6", 0, -6.0),
        ("-6", 0, -6.0),  # a bare value is NS's
        ("NS 4 EW -4", 0, 4.0),  # RealBridge names both sides
        ("NS -12 EW 12", 0, -12.0),
        ("E-W 40%", 100, 60.0),  # a percentage: the sides add up to 100
        ("NS 60 EW 40", 100, 60.0),
        ("EW 3", 10, 7.0),  # matchpoints on a top of 10
        ("NS 66,67", 100, 66.67),
    ],
)
def test_a_score_tag_states_the_ns_value(text: str, total: float, ns: float) -> None:
    assert ns_value(text, total) == pytest.approx(ns)


@pytest.mark.parametrize("text", ["NS 4 EW 4", "NS 4 NS 4", "four", "NS", ""])
def test_a_score_tag_that_is_no_value(text: str) -> None:
    # Two sides that do not add up, one side twice, words: not a value (a problem, not
    # a number read wrong).
    assert ns_value(text) is None
