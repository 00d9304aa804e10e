"""Seats, sides, strains, doubling, vulnerability, boards and contracts."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bridgescore as bs
from bridgescore import Contract, Doubling, Seat, Side, Strain, Vulnerability

# docs/rules.md §5.1, boards 1-16, typed in.
BOARD_DEALERS = "NESWNESWNESWNESW"
BOARD_VULNERABILITY = [
    "-", "NS", "EW", "All", "NS", "EW", "All", "-",
    "EW", "All", "-", "NS", "All", "-", "NS", "EW",
]  # fmt: skip


@pytest.mark.parametrize("board", range(1, 65))
def test_board_dealer_and_vulnerability(board: int) -> None:
    i = (board - 1) % 16
    assert bs.dealer_of_board(board) is Seat.parse(BOARD_DEALERS[i])
    assert Vulnerability.from_board(board) is Vulnerability.from_pbn(BOARD_VULNERABILITY[i])


def test_design_examples() -> None:
    assert Vulnerability.from_board(7) is Vulnerability.BOTH
    assert bs.dealer_of_board(7) is Seat.SOUTH


@pytest.mark.parametrize("board", [0, -1, True, 1.0, "3"])
def test_bad_board_numbers(board: object) -> None:
    with pytest.raises(bs.NotationError, match="board number"):
        Vulnerability.from_board(board)  # type: ignore[arg-type]
    with pytest.raises(bs.NotationError, match="board number"):
        bs.dealer_of_board(board)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("None", Vulnerability.NONE),
        ("none", Vulnerability.NONE),
        ("Love", Vulnerability.NONE),
        ("-", Vulnerability.NONE),
        ("NS", Vulnerability.NS),
        ("ns", Vulnerability.NS),
        ("EW", Vulnerability.EW),
        ("All", Vulnerability.BOTH),
        ("BOTH", Vulnerability.BOTH),
        ("both", Vulnerability.BOTH),
    ],
)
def test_vulnerability_from_pbn(word: str, expected: Vulnerability) -> None:
    assert Vulnerability.from_pbn(word) is expected


@pytest.mark.parametrize("word", ["", "NSEW", "vul", "yes", "N"])
def test_bad_vulnerability(word: str) -> None:
    with pytest.raises(bs.NotationError, match=repr(word)):
        Vulnerability.from_pbn(word)


def test_vulnerability_text() -> None:
    assert [v.to_pbn() for v in Vulnerability] == ["None", "NS", "EW", "All"]
    assert [str(v) for v in Vulnerability] == ["None", "NS", "EW", "Both"]
    for v in Vulnerability:
        assert Vulnerability.from_pbn(v.to_pbn()) is v
        assert Vulnerability.parse(str(v)) is v
        assert eval(repr(v), {"Vulnerability": Vulnerability}) is v


def test_is_vulnerable() -> None:
    table = {
        Vulnerability.NONE: (False, False),
        Vulnerability.NS: (True, False),
        Vulnerability.EW: (False, True),
        Vulnerability.BOTH: (True, True),
    }
    for vulnerability, (ns, ew) in table.items():
        assert vulnerability.is_vulnerable(Side.NS) is ns
        assert vulnerability.is_vulnerable(Side.EW) is ew
        assert vulnerability.is_vulnerable(Seat.NORTH) is ns
        assert vulnerability.is_vulnerable(Seat.SOUTH) is ns
        assert vulnerability.is_vulnerable(Seat.EAST) is ew
        assert vulnerability.is_vulnerable(Seat.WEST) is ew
        assert Vulnerability.from_sides(ns, ew) is vulnerability


def test_seats() -> None:
    assert [int(s) for s in Seat] == [0, 1, 2, 3]
    assert [str(s) for s in Seat] == ["N", "E", "S", "W"]
    assert Seat.NORTH.partner is Seat.SOUTH
    assert Seat.NORTH.lho is Seat.EAST
    assert Seat.NORTH.rho is Seat.WEST
    assert Seat.WEST.lho is Seat.NORTH
    assert Seat.EAST.side is Side.EW
    assert Seat.SOUTH.side is Side.NS
    assert Seat.WEST.rotate(2) is Seat.EAST
    assert Seat.parse("south") is Seat.SOUTH
    assert Side.NS.opponents is Side.EW
    assert Side.EW.seats == (Seat.EAST, Seat.WEST)
    assert Side.parse("e-w") is Side.EW
    with pytest.raises(bs.NotationError, match="'Q'"):
        Seat.parse("Q")
    with pytest.raises(bs.NotationError, match="'NE'"):
        Side.parse("NE")


def test_strains() -> None:
    assert [int(s) for s in Strain] == [0, 1, 2, 3, 4]
    assert [str(s) for s in Strain] == ["C", "D", "H", "S", "NT"]
    assert Strain.CLUBS < Strain.DIAMONDS < Strain.HEARTS < Strain.SPADES < Strain.NOTRUMP
    for text, strain in [("n", Strain.NOTRUMP), ("♠", Strain.SPADES), ("clubs", Strain.CLUBS)]:
        assert Strain.parse(text) is strain
    with pytest.raises(bs.NotationError, match="'Z'"):
        Strain.parse("Z")


def test_doubling() -> None:
    assert [d.multiplier for d in Doubling] == [1, 2, 4]
    assert [str(d) for d in Doubling] == ["", "X", "XX"]
    assert Doubling.parse("*") is Doubling.DOUBLED
    assert Doubling.parse("rdbl") is Doubling.REDOUBLED
    with pytest.raises(bs.NotationError, match="'XXX'"):
        Doubling.parse("XXX")


def test_contract_fields_and_text() -> None:
    contract = Contract.parse("4SX")
    assert contract == Contract(4, Strain.SPADES, Doubling.DOUBLED, None)
    assert str(contract) == "4SX"
    assert repr(contract) == "Contract.parse('4SX')"
    assert contract.format(symbols=True) == "4♠X"
    assert Contract.parse("3NT by W") == Contract(3, Strain.NOTRUMP, Doubling.UNDOUBLED, Seat.WEST)
    assert str(Contract.parse("6ntxxs")) == "6NTXXS"
    assert Contract.parse("4SXN").to_pbn() == "4SX"
    assert Contract.parse("1C").rank == 0
    assert Contract.parse("7NT").rank == 34
    assert Contract.parse("4S").tricks_needed == 10
    assert Contract.parse("4SN").side is Side.NS


def test_contract_equality_covers_every_field() -> None:
    assert Contract.parse("4SX") != Contract.parse("4S")
    assert Contract.parse("4SXX") != Contract.parse("4SX")
    assert Contract.parse("4SN") != Contract.parse("4S")
    assert Contract.parse("4SN") != Contract.parse("4SS")
    assert len({Contract.parse("4S"), Contract.parse("4SX"), Contract.parse("4SN")}) == 3
    # Plain ints are stored as the enums, so equality does not depend on construction.
    assert Contract(4, 3, 1, 0) == Contract.parse("4SXN")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text", ["", "4", "0S", "8NT", "4Z", "4SXXX", "4S+1", "4S by", "S4", "44S", "4SQ"]
)
def test_bad_contracts(text: str) -> None:
    with pytest.raises(bs.NotationError, match=re.escape(repr(text))):
        Contract.parse(text)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [((0, Strain.SPADES), "level 0"), ((8, Strain.SPADES), "level 8"),
     ((4, 7), "strain must be C, D, H, S or NT, got 7"),
     ((4, Strain.SPADES, 5), "field"), ((True, Strain.SPADES), "whole number")],
)  # fmt: skip
def test_bad_contract_values(args: tuple[object, ...], fragment: str) -> None:
    with pytest.raises(bs.NotationError, match=fragment):
        Contract(*args)  # type: ignore[arg-type]


contracts = st.builds(
    Contract,
    st.integers(1, 7),
    st.sampled_from(list(Strain)),
    st.sampled_from(list(Doubling)),
    st.none() | st.sampled_from(list(Seat)),
)


@given(contracts)
def test_contract_round_trip(contract: Contract) -> None:
    assert Contract.parse(str(contract)) == contract
    assert Contract.parse(contract.format(symbols=True)) == contract
    assert eval(repr(contract), {"Contract": Contract}) == contract
    assert hash(Contract.parse(str(contract))) == hash(contract)


def test_values_are_immutable() -> None:
    contract = Contract.parse("4S")
    with pytest.raises(AttributeError):
        contract.level = 5  # type: ignore[misc]


# The contract grammar is the one parse_result reads before the outcome, so every
# contract written inside a result is also a contract on its own.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4NT by North", Contract(4, Strain.NOTRUMP, Doubling.UNDOUBLED, Seat.NORTH)),
        ("4 spades X", Contract(4, Strain.SPADES, Doubling.DOUBLED, None)),
        ("4S N X", Contract(4, Strain.SPADES, Doubling.DOUBLED, Seat.NORTH)),
        ("4SNX", Contract(4, Strain.SPADES, Doubling.DOUBLED, Seat.NORTH)),
        ("2 hearts doubled", Contract(2, Strain.HEARTS, Doubling.DOUBLED, None)),
        ("3 no trump by S", Contract(3, Strain.NOTRUMP, Doubling.UNDOUBLED, Seat.SOUTH)),
        ("6 clubs redoubled by west", Contract(6, Strain.CLUBS, Doubling.REDOUBLED, Seat.WEST)),
        ("1 diamond East", Contract(1, Strain.DIAMONDS, Doubling.UNDOUBLED, Seat.EAST)),
    ],
)
def test_contract_words_as_in_results(text: str, expected: Contract) -> None:
    assert Contract.parse(text) == expected
    assert bs.parse_result(text + " =").contract == expected


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("4S N X X", "unexpected 'X'"),
        ("4SX N X", "doubling twice"),
        ("10S", "impossible level 10"),
        ("pass", "not a contract"),
        ("4 spadez", "unexpected"),
        ("4S by Q", "unexpected 'by Q'"),
    ],
)
def test_contract_errors_share_the_result_messages(text: str, fragment: str) -> None:
    with pytest.raises(bs.NotationError, match=re.escape(fragment)) as info:
        Contract.parse(text)
    assert repr(text) in str(info.value)


def test_contract_parse_rejects_non_text() -> None:
    with pytest.raises(bs.NotationError, match="text, not int"):
        Contract.parse(4)  # type: ignore[arg-type]


def test_seat_full_names() -> None:
    assert [seat.full_name for seat in Seat] == ["North", "East", "South", "West"]
