"""Result notation: every everyday form, canonical output, round trips, bad input."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import bridgescore as bs
from bridgescore import Contract, Doubling, Result, Seat, Strain

N, E, S, W = Seat
C, D, H, SP, NT = Strain
U, X, XX = Doubling


@pytest.mark.parametrize(
    ("text", "contract", "tricks"),
    [
        ("4DX +1", Contract(4, D, X), 11),
        ("4DX+1", Contract(4, D, X), 11),
        ("4♦x+1", Contract(4, D, X), 11),
        ("4♢x+1", Contract(4, D, X), 11),
        ("4D*=", Contract(4, D, X), 10),
        ("4D**=", Contract(4, D, XX), 10),
        ("4D Dbl =", Contract(4, D, X), 10),
        ("4D rdbl -1", Contract(4, D, XX), 9),
        ("3NT-2", Contract(3, NT, U), 7),
        ("3N-2", Contract(3, NT, U), 7),
        ("3nt−2", Contract(3, NT, U), 7),  # a real minus sign
        ("3NT–2", Contract(3, NT, U), 7),  # an en dash
        ("6NTXX=", Contract(6, NT, XX), 12),
        ("4SXN+1", Contract(4, SP, X, N), 11),
        ("4SX N +1", Contract(4, SP, X, N), 11),
        ("4S by N +1", Contract(4, SP, U, N), 11),
        ("4S by North +1", Contract(4, SP, U, N), 11),
        ("4S N X +1", Contract(4, SP, X, N), 11),
        ("4S making 5", Contract(4, SP, U), 11),
        ("4 spades making 5", Contract(4, SP, U), 11),
        ("3 no trump by S down 1", Contract(3, NT, U, S), 8),
        ("2 hearts doubled =", Contract(2, H, X), 8),
        ("4S making 4", Contract(4, SP, U), 10),
        ("4S making", Contract(4, SP, U), 10),
        ("4S made", Contract(4, SP, U), 10),
        ("4S down 2", Contract(4, SP, U), 8),
        ("4S off 2", Contract(4, SP, U), 8),
        ("1S 0", Contract(1, SP, U), 7),
        ("1S +0", Contract(1, SP, U), 7),
        # Zero under is zero over: made exactly (issue 23), whichever sign is written.
        ("4S-0", Contract(4, SP, U), 10),
        ("4S -0", Contract(4, SP, U), 10),
        ("4SX−0", Contract(4, SP, X), 10),  # a real minus sign
        ("4S down 0", Contract(4, SP, U), 10),
        ("3NTN off 0", Contract(3, NT, U, N), 9),
        ("3NTW-2", Contract(3, NT, U, W), 7),
        ("3NW-2", Contract(3, NT, U, W), 7),
        ("3NS=", Contract(3, NT, U, S), 9),
        ("4SS+1", Contract(4, SP, U, S), 11),
        ("4S+1 N", Contract(4, SP, U, N), 11),
        ("4♠X by S making 5", Contract(4, SP, X, S), 11),
        ("  4hx by e down 3  ", Contract(4, H, X, E), 7),
        ("7NT=", Contract(7, NT, U), 13),
        ("1C-7", Contract(1, C, U), 0),
        ("7CXX-13", Contract(7, C, XX), 0),
        ("1NTXX+6", Contract(1, NT, XX), 13),
    ],
)
def test_everyday_forms(text: str, contract: Contract, tricks: int) -> None:
    result = Result.parse(text)
    assert result == Result(contract, tricks)
    assert result.contract == contract
    assert result.tricks == tricks


@pytest.mark.parametrize(
    "text", ["Pass", "pass", "PASSED OUT", "passed out", "P", "AP", "all pass"]
)
def test_passed_out(text: str) -> None:
    result = Result.parse(text)
    assert result.is_passed_out
    assert str(result) == "Pass"
    assert bs.score(result) == 0


@pytest.mark.parametrize(
    ("text", "canonical", "symbols"),
    [
        ("4sx +1", "4SX+1", "4♠X+1"),
        ("4SX N +1", "4SXN+1", "4♠XN+1"),
        ("3n=", "3NT=", "3NT="),
        ("3NT w down 2", "3NTW-2", "3NTW-2"),
        ("6ntxx=", "6NTXX=", "6NTXX="),
        ("2♥ making 4", "2H+2", "2♥+2"),
        ("pass", "Pass", "Pass"),
    ],
)
def test_canonical_output(text: str, canonical: str, symbols: str) -> None:
    result = Result.parse(text)
    assert str(result) == canonical
    assert result.format(symbols=True) == symbols
    assert repr(result) == f"Result.parse({canonical!r})"


def test_relative_properties() -> None:
    result = Result.parse("4SX-3")
    assert (result.relative, result.undertricks, result.overtricks, result.is_made) == (
        -3,
        3,
        0,
        False,
    )
    result = Result.parse("2H+2")
    assert (result.relative, result.undertricks, result.overtricks, result.is_made) == (
        2,
        0,
        2,
        True,
    )


def test_contract_alone_with_tricks() -> None:
    assert bs.parse_result("4SX", tricks=11) == Result.parse("4SX+1")
    assert bs.parse_result("3NT", tricks=0) == Result.parse("3NT-9")


results = st.builds(
    lambda level, strain, doubling, declarer, data: Result(
        Contract(level, strain, doubling, declarer), data
    ),
    st.integers(1, 7),
    st.sampled_from(list(Strain)),
    st.sampled_from(list(Doubling)),
    st.none() | st.sampled_from(list(Seat)),
    st.integers(0, 13),
) | st.just(Result(None))


@given(results)
def test_result_round_trip(result: Result) -> None:
    assert Result.parse(str(result)) == result
    assert Result.parse(result.format(symbols=True)) == result
    assert eval(repr(result), {"Result": Result}) == result


@given(results)
def test_result_round_trip_in_other_forms(result: Result) -> None:
    contract = result.contract
    if contract is None:
        return
    declarer = f" by {contract.declarer}" if contract.declarer is not None else ""
    dbl = {U: "", X: " x", XX: " xx"}[contract.doubling]
    body = f"{contract.level}{contract.strain.symbol.lower()}{dbl}{declarer}"
    relative = result.relative
    if relative > 0:
        words = [f"{body} +{relative}", f"{body} making {contract.level + relative}"]
    elif relative < 0:
        words = [f"{body} -{-relative}", f"{body} down {-relative}", f"{body} off {-relative}"]
    else:
        words = [f"{body} =", f"{body} 0", f"{body} making", f"{body} +0", f"{body} -0"]
    for text in words:
        assert Result.parse(text) == result, text


# At least 40 malformed inputs, each with the fragment the message must contain.
MALFORMED = [
    ("", "empty"),
    ("   ", "empty"),
    ("garbage", "garbage"),
    ("0S=", "level 0"),
    ("8S=", "level 8"),
    ("9NT-1", "level 9"),
    ("10C=", "level 10"),
    ("4Z=", "'Z'"),
    ("4=", "strain"),
    ("4", "strain"),
    ("4 spadez =", "unexpected"),
    ("S4=", "level"),
    ("7NT+1", "14 tricks"),
    ("6S+2", "14 tricks"),
    ("1C+7", "14 tricks"),
    ("1S-8", "8 down"),
    ("3NT-10", "10 down"),
    ("7C-14", "14 down"),
    ("4S+1X", "doubling after the result"),
    ("4S=X", "doubling after the result"),
    ("4S-2XX", "doubling after the result"),
    ("4S", "no outcome"),
    ("4SX", "no outcome"),
    ("3NTN", "no outcome"),
    ("4S 10", "'10'"),
    ("4S 11 tricks", "unexpected"),
    ("4S making 3", "making 3"),
    ("4S making 8", "making 8"),
    ("1S making 0", "making 0"),
    ("4SXXX=", "unexpected"),
    ("4SN by S =", "unexpected"),
    ("4SN=S", "declarer twice"),
    ("4S by N +1 E", "declarer twice"),
    ("4S +", "unexpected"),
    ("4S ++1", "unexpected"),
    ("4S =1", "unexpected"),
    ("4S X X =", "unexpected"),
    ("4SXN X =", "doubling twice"),
    ("4S+1+1", "unexpected"),
    ("4S down", "unexpected"),
    ("4S by Q =", "unexpected"),
    ("pass 3", "not a result"),
    ("4S ? ", "unexpected"),
    ("4.5S=", "strain"),
    ("-4S=", "level"),
    ("4S making five", "unexpected"),
]


def test_there_are_at_least_40_malformed_cases() -> None:
    assert len(MALFORMED) >= 40


@pytest.mark.parametrize(("text", "fragment"), MALFORMED)
def test_malformed_results_raise_with_the_input_quoted(text: str, fragment: str) -> None:
    with pytest.raises(bs.NotationError) as info:
        Result.parse(text)
    message = str(info.value)
    assert repr(text) in message, message
    assert fragment in message, message


@pytest.mark.parametrize("tricks", [-1, 14, 99, True, 10.0])
def test_a_trick_count_out_of_0_to_13_is_named_as_such(tricks: object) -> None:
    # `score 4S --tricks -1` (issue 23) used to say "11 down"; the count itself is wrong.
    with pytest.raises(bs.NotationError) as info:
        bs.parse_result("4S", tricks=tricks)  # type: ignore[arg-type]
    message = str(info.value)
    assert "'4S'" in message and "from 0 to 13" in message, message
    assert f"got {tricks!r}" in message, message


def test_made_exactly_prints_one_way_whatever_sign_was_read() -> None:
    assert str(Result.parse("4S-0")) == str(Result.parse("4S+0")) == "4S="
    assert Result.parse("4SXN -0") == Result.parse("4SXN=") == Result(Contract(4, SP, X, N), 10)


def test_notation_error_is_a_value_error() -> None:
    assert issubclass(bs.NotationError, bs.BridgeError)
    assert issubclass(bs.NotationError, ValueError)
    assert not issubclass(bs.BridgeError, ValueError)  # the base: bad input or not


def test_parse_rejects_non_text() -> None:
    with pytest.raises(bs.NotationError, match="text"):
        Result.parse(4)  # type: ignore[arg-type]


def test_result_value_validation() -> None:
    with pytest.raises(bs.NotationError, match="14 tricks"):
        Result(Contract.parse("4S"), 14)
    with pytest.raises(bs.NotationError, match="whole number"):
        Result(Contract.parse("4S"), None)
    with pytest.raises(bs.NotationError, match="passed-out"):
        Result(None, 3)


VALID = ["4DX +1", "4♦x+1", "3NT-2", "6NTXX=", "4SX N +1", "4S by N making 5", "Pass", "1S 0"]


@given(st.text(max_size=30))
@example("4S by")
@example("4S by N by S +1")
@example("7NTXX+0")
@example("\x00")
def test_fuzz_arbitrary_text_never_crashes(text: str) -> None:
    try:
        result = Result.parse(text)
    except bs.BridgeError:
        return
    # Whatever is accepted is a valid value that prints and parses back.
    assert Result.parse(str(result)) == result


@given(
    st.sampled_from(VALID),
    st.lists(
        st.tuples(
            st.sampled_from(["insert", "delete", "replace", "swap"]),
            st.integers(0, 30),
            st.sampled_from(list("0123456789+-=xX*NESWnesw CDHST♠♥♦♣ by")),
        ),
        min_size=1,
        max_size=3,
    ),
)
def test_fuzz_near_misses_never_crash(base: str, edits: list[tuple[str, int, str]]) -> None:
    text = base
    for operation, position, char in edits:
        at = position % (len(text) + 1)
        if operation == "insert":
            text = text[:at] + char + text[at:]
        elif operation == "delete" and text:
            at = min(at, len(text) - 1)
            text = text[:at] + text[at + 1 :]
        elif operation == "replace" and text:
            at = min(at, len(text) - 1)
            text = text[:at] + char + text[at + 1 :]
        elif operation == "swap" and len(text) > 1:
            at = min(at, len(text) - 2)
            text = text[:at] + text[at + 1] + text[at] + text[at + 2 :]
    try:
        result = Result.parse(text)
    except bs.BridgeError:
        return
    assert Result.parse(str(result)) == result
    assert 0 <= (result.tricks or 0) <= 13
