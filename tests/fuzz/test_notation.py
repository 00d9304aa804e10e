"""Fuzzing the value readers: results, contracts, calls, cards, seats, hands, deals,
DD tables (both forms), auctions, play, adjusted scores and honours.

Each reader gets mutated good text (tests/fuzzing.py) and arbitrary text, and
must either read it or raise a BridgeError with a message, in work bounded by
the input's length. The regression tests at the end hold the minimal inputs
that crashed a reader before it was fixed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bridgescore as bs
from bridgescore.auction import Auction, Call
from bridgescore.core import Contract, Doubling, Seat, Side, Strain, Vulnerability
from bridgescore.ddtable import DDTable
from bridgescore.deal import Card, Deal, Hand
from bridgescore.errors import BridgeError
from bridgescore.notation import Result, parse_result
from bridgescore.pads.scorepad import Honors
from bridgescore.play import Play
from bridgescore.session.scoring.event import Adjusted
from fuzzing import Refused, fuzz_settings, mutated_text, read_or_refuse

DEAL = "N:KJ52.K7.T85.AJ87 A9863.Q3.Q3.T543 Q4.AJ862.J762.K2 T7.T954.AK94.Q96"
TABLE = "78697786976573665746"


def _play(text: str) -> Play:
    play = Play(Deal.from_pbn(DEAL), Contract.parse("3NTN"))
    play.extend(text)
    return play


# reader, good seeds: every reader is fuzzed from text it accepts.
READERS: dict[str, tuple[Callable[[str], Any], tuple[str, ...]]] = {
    "parse_result": (
        parse_result,
        ("4DX +1", "4♦x+1", "3NT-2", "6NTXX=", "4S by N making 5", "Pass", "7NT= S", "1C down 7"),
    ),
    "Result.parse": (Result.parse, ("4SXN+1", "3NTW-2", "Pass")),
    "parse_result tricks": (lambda text: parse_result(text, tricks=11), ("4SX", "4SXN", "5C")),
    "Contract.parse": (Contract.parse, ("4SX", "4♠x", "3N", "6NTXX", "4SXN", "4S by N")),
    "Call.parse": (Call.parse, ("1C", "3N", "4♠", "Pass", "X", "Rdbl", "7NT")),
    "Card.parse": (Card.parse, ("SA", "hq", "D10", "♠A")),
    "Seat.parse": (Seat.parse, ("N", "north", "W")),
    "Side.parse": (Side.parse, ("NS", "E/W", "n-s")),
    "Strain.parse": (Strain.parse, ("NT", "s", "♣", "hearts")),
    "Doubling.parse": (Doubling.parse, ("", "X", "Rdbl", "**")),
    "Vulnerability.parse": (Vulnerability.parse, ("None", "Both", "E-W", "-")),
    "Hand.from_pbn": (Hand.from_pbn, ("KJ52.K7.T85.AJ87", "AKQJT98765432...", "-.-.-.-")),
    "Deal.from_pbn": (Deal.from_pbn, (DEAL, "E:" + DEAL[2:])),
    "DDTable.parse": (DDTable.parse, (TABLE, "32929329297a4a47a4a4", "dddddddddddddddddddd")),
    "DDTable.from_optimum_result_table": (
        DDTable.from_optimum_result_table,
        (DDTable.parse(TABLE).to_optimum_result_table(),),
    ),
    "Auction.parse": (
        lambda text: Auction.parse(text, dealer=Seat.NORTH),
        ("1S 2H 2S 4H 4S X P P P", "1NT, Pass, 3NT, AP", "P P P P"),
    ),
    "Play.extend": (_play, ("S6 S4 ST SJ", "S6 S4 ST SJ HK H3 H2 H4")),
    "Adjusted.parse": (Adjusted.parse, ("A+", "A+/A+", "60/40", "ave-")),
    "Honors.parse": (Honors.parse, ("NS 100", "honours EW 150", "honors 150 NS")),
    "score": (bs.score, ("4DX +1", "7SX-9")),
}


@st.composite
def _reader_and_text(draw: st.DrawFn) -> tuple[str, str]:
    name = draw(st.sampled_from(sorted(READERS)))
    seed = draw(st.sampled_from(READERS[name][1]))
    return name, draw(mutated_text(seed))


@pytest.mark.parametrize("name", sorted(READERS))
def test_every_seed_reads(name: str) -> None:
    """The seeds are good text, so the fuzz tests below start from accepted input."""
    reader, seeds = READERS[name]
    for seed in seeds:
        assert not isinstance(read_or_refuse(reader, seed), Refused), (name, seed)


@fuzz_settings(examples=250)
@given(_reader_and_text())
def test_mutated_text_reads_or_is_refused(case: tuple[str, str]) -> None:
    name, text = case
    read_or_refuse(READERS[name][0], text)


@fuzz_settings(examples=120)
@given(st.sampled_from(sorted(READERS)), st.text(max_size=200))
def test_arbitrary_text_reads_or_is_refused(name: str, text: str) -> None:
    read_or_refuse(READERS[name][0], text)


@fuzz_settings(examples=40)
@given(st.sampled_from(sorted(READERS)), st.sampled_from(("9", "1 ", "+", "-", "X", "♠", ". ")))
def test_long_input_costs_work_in_proportion(name: str, unit: str) -> None:
    """20,000 characters of one repeated unit: a quadratic reader would run ~10^8
    lines and fail the budget (and a regex that backtracks would not finish)."""
    read_or_refuse(READERS[name][0], unit * (20_000 // len(unit)), base=50_000, per_char=50)


def test_canonical_text_reads_back_after_fuzzing() -> None:
    """Whatever a reader accepts prints as text the same reader reads back to the
    same value (checked on a fixed set of accepted near-misses)."""
    for text in ("4 S X N + 1", "4s by north making 5", "3ntw-2", "6NT XX ="):
        result = parse_result(text)
        assert parse_result(str(result)) == result


# -- regression tests: the minimal inputs that crashed a reader --------------------

# Each of these raised ValueError or ZeroDivisionError (not a BridgeError) before
# the fix; the expected words are what the message must say.
CRASHES = [
    # int() refuses more than 4,300 digits: the level and the trick counts.
    (parse_result, "9" * 5000 + "S=", "level"),
    (parse_result, "4S+" + "9" * 5000, "tricks"),
    (parse_result, "4S-" + "9" * 5000, "tricks"),
    (parse_result, "4S making " + "9" * 5000, "making"),
    # str.isdigit() accepts superscript digits, int() does not.
    (DDTable.from_optimum_result_table, "N NT ²", "tricks"),
    (DDTable.from_optimum_result_table, "N NT " + "9" * 5000, "tricks"),
    (Honors.parse, "NS ²", "honours"),
    (Honors.parse, "NS " + "1" * 5000, "honours"),
]


@pytest.mark.parametrize(("reader", "text", "word"), CRASHES)
def test_former_crash_is_a_clear_error(reader: Callable[[str], Any], text: str, word: str) -> None:
    with pytest.raises(BridgeError) as caught:
        reader(text)
    message = str(caught.value)
    assert word in message.lower()
    assert text[:20] in message  # the offending text is quoted


def test_long_level_still_names_the_level_range() -> None:
    with pytest.raises(BridgeError, match="expected a level from 1 to 7"):
        parse_result("1" * 5000 + "NT=")
