"""The shared argument checks: whole numbers (bools never count, bounds are inclusive)
and the one rule for seats, strains, sides and vulnerabilities given as text."""

from __future__ import annotations

import enum

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgescore.core import Seat, Side, Strain, Vulnerability
from bridgescore.errors import (
    ArgumentTypeError,
    InvalidArgumentError,
    NotationError,
    RecordError,
)
from bridgescore.validate import (
    bool_arg,
    enum_arg,
    is_number,
    is_whole_number,
    whole_number_arg,
    whole_number_text,
)


@pytest.mark.parametrize("value", [True, False, 1.0, "3", None, 2 + 0j, np.int64(3)])
def test_not_whole_numbers(value: object) -> None:
    assert not is_whole_number(value)


def test_numpy_integers_only_when_asked() -> None:
    assert is_whole_number(np.int32(4), 0, 13, numpy=True)
    assert not is_whole_number(np.bool_(True), numpy=True)
    assert not is_whole_number(np.float64(4.0), numpy=True)


@given(st.integers(-50, 50), st.none() | st.integers(-20, 20), st.none() | st.integers(-20, 20))
def test_bounds_are_inclusive(value: int, low: int | None, high: int | None) -> None:
    inside = (low is None or low <= value) and (high is None or value <= high)
    assert is_whole_number(value, low, high) is inside


@pytest.mark.parametrize(
    ("value", "low", "high", "message"),
    [
        (-1, 0, None, "count must be a whole number from 0 up, got -1"),
        (8, 1, 7, "count must be a whole number from 1 to 7, got 8"),
        (14, None, 13, "count must be a whole number up to 13, got 14"),
        (True, None, None, "count must be a whole number, got True"),
        ("3", 0, None, "count must be a whole number from 0 up, got '3'"),
        (2.0, 0, None, "count must be a whole number from 0 up, got 2.0"),
    ],
)
def test_whole_number_arg_refuses_in_words(
    value: object, low: int | None, high: int | None, message: str
) -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        whole_number_arg(value, "count", low, high)
    assert str(raised.value) == message


def test_whole_number_arg_returns_a_plain_int() -> None:
    number = whole_number_arg(np.int16(12), "tricks", 0, 13, numpy=True)
    assert (number, type(number)) == (12, int)
    with pytest.raises(InvalidArgumentError):
        whole_number_arg(np.int16(12), "tricks", 0, 13)  # numpy only when asked


def test_whole_number_arg_raises_the_callers_error() -> None:
    with pytest.raises(RecordError, match=r"^board 3: score must be a whole number, got None$"):
        whole_number_arg(None, "board 3: score", error=RecordError)


@pytest.mark.parametrize(
    ("value", "numpy"), [(True, False), (False, False), (np.bool_(True), True)]
)
def test_bool_arg_takes_true_and_false(value: object, numpy: bool) -> None:
    assert bool_arg(value, "honors", numpy=numpy) is bool(value)


@pytest.mark.parametrize(
    ("value", "numpy"), [(1, False), ("yes", False), (None, False), (np.bool_(True), False)]
)
def test_bool_arg_refuses_the_rest(value: object, numpy: bool) -> None:
    with pytest.raises(ArgumentTypeError) as raised:
        bool_arg(value, "honors", numpy=numpy)
    assert str(raised.value) == f"honors must be True or False, got {value!r}"
    assert isinstance(raised.value, InvalidArgumentError)


@pytest.mark.parametrize(
    ("value", "kinds", "number"),
    [
        (3, int, True),
        (2.5, int | float, True),
        (True, int, False),
        (np.bool_(False), int | np.integer, False),
        (np.int8(3), int | np.integer, True),
        ("3", int | float, False),
    ],
)
def test_is_number_never_counts_a_bool(value: object, kinds: type, number: bool) -> None:
    assert is_number(value, kinds) is number


# enum_arg: the one rule by which public functions read seats, strains, sides and
# vulnerabilities. The expected members are the Laws' names for the words.
@pytest.mark.parametrize(
    ("kind", "text", "member"),
    [
        (Seat, "N", Seat.NORTH),
        (Seat, "north", Seat.NORTH),
        (Seat, " w ", Seat.WEST),
        (Seat, "South", Seat.SOUTH),
        (Strain, "NT", Strain.NOTRUMP),
        (Strain, "n", Strain.NOTRUMP),
        (Strain, "♠", Strain.SPADES),
        (Strain, "hearts", Strain.HEARTS),
        (Strain, "c", Strain.CLUBS),
        (Vulnerability, "Both", Vulnerability.BOTH),
        (Vulnerability, "All", Vulnerability.BOTH),
        (Vulnerability, "None", Vulnerability.NONE),
        (Vulnerability, "-", Vulnerability.NONE),
        (Vulnerability, "n-s", Vulnerability.NS),
        (Vulnerability, "EW", Vulnerability.EW),
        (Side, "E-W", Side.EW),
        (Side, "ns", Side.NS),
    ],
)
def test_enum_arg_reads_text(kind: type[enum.IntEnum], text: str, member: enum.IntEnum) -> None:
    assert enum_arg(kind, text, "arg") is member


@pytest.mark.parametrize(
    ("kind", "value", "member"),
    [
        (Seat, Seat.EAST, Seat.EAST),
        (Seat, 2, Seat.SOUTH),
        (Strain, np.int8(4), Strain.NOTRUMP),
        (Vulnerability, 3, Vulnerability.BOTH),
    ],
)
def test_enum_arg_takes_members_and_numbers(
    kind: type[enum.IntEnum], value: object, member: enum.IntEnum
) -> None:
    assert enum_arg(kind, value, "arg") is member


@pytest.mark.parametrize(
    ("kind", "value", "message"),
    [
        (Seat, "Q", "dealer must be N, E, S or W, got 'Q'"),
        (Seat, 4, "dealer must be N, E, S or W, got 4"),
        (Seat, None, "dealer must be N, E, S or W, got None"),
        (Strain, Seat.SOUTH, "dealer must be C, D, H, S or NT, got Seat.SOUTH"),
        (Strain, True, "dealer must be C, D, H, S or NT, got True"),
        (Strain, 2.0, "dealer must be C, D, H, S or NT, got 2.0"),
        (Vulnerability, "Sideways", "dealer must be None, NS, EW or Both, got 'Sideways'"),
        (Side, "X", "dealer must be NS or EW, got 'X'"),
    ],
)
def test_enum_arg_refuses_in_words(kind: type[enum.IntEnum], value: object, message: str) -> None:
    with pytest.raises(NotationError) as raised:
        enum_arg(kind, value, "dealer")
    assert str(raised.value) == message


# -- whole_number_text: the reader of numbers typed into forms ------------------------


@pytest.mark.parametrize(
    ("text", "number"), [("1", 1), ("12", 12), (" 7 ", 7), ("0009", 9), ("9999", 9999)]
)
def test_whole_number_text_reads_ascii_digits(text: str, number: int) -> None:
    assert whole_number_text(text, "board", 1, 9999) == number


@pytest.mark.parametrize(
    "text",
    [
        "\u00b2",  # SUPERSCRIPT TWO: str.isdigit says yes, int() raises
        "\u0663",  # ARABIC-INDIC DIGIT THREE: int() reads 3
        "\uff17",  # FULLWIDTH DIGIT SEVEN: int() reads 7
        "1_0",  # int() reads 10
        "+3",
        "-1",
        "0",
        "10000",
        "00001",  # more digits than 9999 has
        "",
        "1.0",
        "0x1",
        "9" * 5000,  # int() refuses past 4,300 digits, and is slow before that
    ],
)
def test_whole_number_text_refuses_all_but_ascii_digits_in_range(text: str) -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        whole_number_text(text, "board", 1, 9999)
    message = str(raised.value)
    assert message.startswith("board must be a whole number from 1 to 9999, got ")
    assert len(message) < 100


@given(st.text(max_size=8))
def test_whole_number_text_agrees_with_a_plain_ascii_reading(text: str) -> None:
    # An independent reading: strip, then every character one of the ten ASCII digits.
    stripped = text.strip()
    plain = 0 < len(stripped) <= 3 and all(c in "0123456789" for c in stripped)
    expected = int(stripped) if plain and 1 <= int(stripped) <= 500 else None
    try:
        found: int | None = whole_number_text(text, "deals", 1, 500)
    except InvalidArgumentError:
        found = None
    assert found == expected
