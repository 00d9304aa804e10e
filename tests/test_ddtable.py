"""Double-dummy tables: PBN DoubleDummyTricks and OptimumResultTable, arrays and grids.

Expected values are read off the PBN text by hand (position i of the 20 digits
is declarer "NSEW"[i // 5] in strain (NT, S, H, D, C)[i % 5]).
"""

from __future__ import annotations

import pickle
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore import BridgeError, DDTable, InvalidTableError, Seat, Strain
from fuzzing import Refused, fuzz_settings, read_or_refuse

TEXT = "78697786976573665746"
# The same table read by hand: declarer -> {strain: tricks}.
BY_HAND = {
    Seat.NORTH: {"NT": 7, "S": 8, "H": 6, "D": 9, "C": 7},
    Seat.SOUTH: {"NT": 7, "S": 8, "H": 6, "D": 9, "C": 7},
    Seat.EAST: {"NT": 6, "S": 5, "H": 7, "D": 3, "C": 6},
    Seat.WEST: {"NT": 6, "S": 5, "H": 7, "D": 4, "C": 6},
}


def test_parse_reads_pbn_order() -> None:
    table = DDTable.parse(TEXT)
    for seat, cells in BY_HAND.items():
        for letter, tricks in cells.items():
            assert table.tricks(seat, Strain.parse(letter)) == tricks
    assert str(table) == TEXT
    assert DDTable.parse(" " + TEXT.upper() + "\n") == table
    assert DDTable.parse("abcd0" * 4).tricks(Seat.NORTH, Strain.NOTRUMP) == 10


def test_array_is_indexed_by_enum_values() -> None:
    array = DDTable.parse(TEXT).to_array()
    assert array.shape == (4, 5) and array.dtype == np.int8
    # Row East (1): C, D, H, S, NT.
    assert array[1].tolist() == [6, 3, 7, 5, 6]
    assert array[Seat.WEST, Strain.DIAMONDS] == 4
    assert DDTable.from_array(array) == DDTable.parse(TEXT)


def test_rotate_as_dict_grid_repr_pickle() -> None:
    table = DDTable.parse(TEXT)
    turned = table.rotate(1)
    assert turned.tricks(Seat.EAST, Strain.DIAMONDS) == BY_HAND[Seat.NORTH]["D"]
    assert turned.tricks(Seat.NORTH, Strain.DIAMONDS) == BY_HAND[Seat.WEST]["D"]
    assert table.rotate(4) == table
    assert table.as_dict()["E"] == BY_HAND[Seat.EAST]
    assert table.grid().splitlines() == [
        "      N   S   E   W",
        "  NT   7   7   6   6",
        "  S    8   8   5   5",
        "  H    6   6   7   7",
        "  D    9   9   3   4",
        "  C    7   7   6   6",
    ]
    assert eval(repr(table), {"DDTable": DDTable}) == table
    assert pickle.loads(pickle.dumps(table)) == table


@pytest.mark.parametrize(
    "text,words",
    [
        ("", ["0 digits", "20"]),
        (TEXT[:-1], ["19 digits"]),
        (TEXT + "7", ["21 digits"]),
        (TEXT[:-1] + "g", ["non-hex", "'g'"]),
        (TEXT[:-1] + " ", ["19 digits"]),
        (TEXT[:5] + "e" + TEXT[6:], ["'e'", "14 tricks", "S in NT"]),
        (TEXT[:9] + "f" + TEXT[10:], ["15 tricks", "S in C"]),
        ("7869778697657366574-", ["non-hex", "'-'"]),
    ],
)
def test_parse_errors(text: str, words: list[str]) -> None:
    with pytest.raises(InvalidTableError) as info:
        DDTable.parse(text)
    for word in words:
        assert word in str(info.value)


def test_constructor_errors() -> None:
    with pytest.raises(InvalidTableError):
        DDTable.parse(78697786976573665746)  # type: ignore[arg-type]
    with pytest.raises(InvalidTableError, match="4 rows"):
        DDTable(((1, 2, 3, 4, 5),))
    with pytest.raises(InvalidTableError, match="shaped"):
        DDTable.from_array(np.zeros((5, 4), dtype=int))
    with pytest.raises(InvalidTableError, match="14 tricks"):
        DDTable.from_array(np.full((4, 5), 14))


@given(st.lists(st.integers(0, 13), min_size=20, max_size=20))
def test_round_trips(cells: list[int]) -> None:
    text = "".join(f"{value:x}" for value in cells)
    table = DDTable.parse(text)
    assert str(table) == text
    assert DDTable.from_array(table.to_array()) == table
    assert DDTable.from_optimum_result_table(table.to_optimum_result_table()) == table


@given(st.text(max_size=30))
@settings(max_examples=300)
def test_fuzz_parse_arbitrary_text(text: str) -> None:
    try:
        table = DDTable.parse(text)
    except BridgeError:
        return
    assert DDTable.parse(str(table)) == table


@given(
    st.lists(st.sampled_from("0123456789abcdefABCDEFgxz -"), min_size=18, max_size=22),
)
@settings(max_examples=300)
def test_fuzz_parse_near_misses(chars: list[str]) -> None:
    text = "".join(chars)
    try:
        table = DDTable.parse(text)
    except BridgeError:
        return
    assert all(0 <= t <= 13 for row in table.rows for t in row)


# --- OptimumResultTable ----------------------------------------------------------------------

# As written by one scoring program: West first, suits before notrump, no alignment.
FOREIGN = """[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]
W S 5
W H 7
W D 4
W C 6
W NT 6
N S 8
N H 6
N D 9
N C 7
N NT 7
E S 5
E H 7
E D 3
E C 6
E NT 6
S S 8
S H 6
S D 9
S C 7
S NT 7
"""


def test_optimum_result_table_read_any_order() -> None:
    assert DDTable.from_optimum_result_table(FOREIGN) == DDTable.parse(TEXT)
    assert DDTable.from_optimum_result_table(FOREIGN.splitlines()[1:]) == DDTable.parse(TEXT)


def test_optimum_result_table_columns_by_name() -> None:
    rows = [line.split() for line in FOREIGN.splitlines()[1:]]
    text = '[OptimumResultTable "Result;Declarer;Denomination"]\n' + "\n".join(
        f"{tricks} {seat} {strain}" for seat, strain, tricks in rows
    )
    assert DDTable.from_optimum_result_table(text) == DDTable.parse(TEXT)


def test_optimum_result_table_write() -> None:
    lines = DDTable.parse(TEXT).to_optimum_result_table().splitlines()
    assert lines[0] == '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]'
    assert lines[1:6] == ["N NT  7", "N  S  8", "N  H  6", "N  D  9", "N  C  7"]
    assert lines[16:] == ["W NT  6", "W  S  5", "W  H  7", "W  D  4", "W  C  6"]
    assert len(lines) == 21


@pytest.mark.parametrize(
    "change,words",
    [
        (("W S 5", "W S 14"), ["line 2", "'14' tricks"]),
        (("W S 5", "W S x"), ["line 2", "'x' tricks"]),
        (("W S 5", "W S -1"), ["'-1' tricks"]),
        (("W S 5", "W S"), ["line 2", "2 value(s)", "expected 3"]),
        (("W S 5", "Q S 5"), ["line 2", "unknown seat"]),
        (("W S 5", "W Z 5"), ["line 2", "unknown strain"]),
        (("W H 7", "W S 7"), ["line 3", "W in S again"]),
        (("W S 5\n", ""), ["no row for W S"]),
        (('"Declarer;Denomination', '"Player;Denomination'), ["must name Declarer"]),
        (("[OptimumResultTable", "[OptimumResult"), ["line 1", "not an OptimumResultTable"]),
    ],
)
def test_optimum_result_table_errors(change: tuple[str, str], words: list[str]) -> None:
    text = FOREIGN.replace(*change, 1)
    with pytest.raises(InvalidTableError) as info:
        DDTable.from_optimum_result_table(text)
    for word in words:
        assert word in str(info.value)


_CELL = re.compile(r"([NESW])\s+(NT|[SHDC])\s+([0-9]+)")
_ROWS = [f"{seat} {strain} {(3 * i + len(strain)) % 14}" for i, seat in enumerate("NESW")
         for strain in ("NT", "S", "H", "D", "C")]  # fmt: skip


@given(
    st.lists(st.text(max_size=12), max_size=22)
    | st.permutations(_ROWS).flatmap(
        lambda rows: (
            st.lists(st.sampled_from([*rows, "N NT 14", "X S 3", "E H", ""]), max_size=24)
            | st.just(rows)
        )
    )
)
@fuzz_settings(examples=200)
def test_fuzz_optimum_result_table(lines: list[str]) -> None:
    outcome = read_or_refuse(DDTable.from_optimum_result_table, lines)
    if isinstance(outcome, Refused):
        return
    # Read: every cell is one of the rows, read here by a pattern of the test's own.
    cells = {}
    for line in lines:
        found = _CELL.fullmatch(line.strip())
        assert found is not None or not line.strip(), f"{line!r} was accepted"
        if found:
            cells[found[1], found[2]] = int(found[3])
    assert len(cells) == 20
    for (seat, strain), tricks in cells.items():
        assert outcome.tricks(seat, strain) == tricks
