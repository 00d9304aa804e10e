"""The fuzzing harness itself: it must catch what it claims to catch.

A fuzz test that cannot fail is a defect, so each check of tests/fuzzing.py is
shown failing on a reader built to break it: one that lets a ValueError out,
one that raises a BridgeError without a message, one that does quadratic work.
The mutation strategies are shown producing each kind of damage.
"""

from __future__ import annotations

import pytest
from hypothesis import Phase, find, settings
from hypothesis import strategies as st

from bridgescore.errors import BridgeError, NotationError
from fuzzing import Refused, WorkCounter, mutated_bytes, mutated_text, read_or_refuse

SEED = '[Event "Club"]\n[Board "1"]\n[Dealer "N"]\n\n[Board "2"]\n'


def _quadratic(text: str) -> int:
    pairs = 0
    for a in text:
        for b in text:
            pairs += a == b
    return pairs


def _linear(text: str) -> int:
    return sum(1 for char in text if char == "a")


def test_a_value_error_escaping_fails_the_check() -> None:
    with pytest.raises(AssertionError, match="ValueError escaped"):
        read_or_refuse(int, "x")


def test_a_bridge_error_is_a_refusal() -> None:
    def refuse(text: str) -> None:
        raise NotationError(f"not a result: {text!r}")

    outcome = read_or_refuse(refuse, "4Q=")
    assert isinstance(outcome, Refused)
    assert str(outcome.error) == "not a result: '4Q='"


def test_a_bridge_error_without_a_message_fails_the_check() -> None:
    def refuse(text: str) -> None:
        raise BridgeError(" ")

    with pytest.raises(AssertionError, match="no message"):
        read_or_refuse(refuse, "x")


def test_quadratic_work_fails_the_budget_and_linear_work_passes() -> None:
    text = "ab" * 600  # 1,200 characters: about 1.4 million inner-loop lines if quadratic
    with pytest.raises(AssertionError, match="over the budget"):
        read_or_refuse(_quadratic, text)
    assert read_or_refuse(_linear, text) == 600


def test_work_counter_counts_lines_in_proportion() -> None:
    with WorkCounter() as small:
        _linear("a" * 100)
    with WorkCounter() as large:
        _linear("a" * 1000)
    # The loop body runs once per character; the ratio is 10 up to the fixed lines.
    assert 9 * small.lines <= large.lines <= 11 * small.lines


# Derandomized, so each search gives the same answer on every run; no shrinking.
_SEARCH = settings(max_examples=3000, database=None, derandomize=True, phases=(Phase.generate,))


def _found(predicate: object, strategy: st.SearchStrategy[bytes]) -> bytes:
    return find(strategy, predicate, settings=_SEARCH)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda data: b"\x00" in data, id="nul"),
        pytest.param(lambda data: data.startswith(b"\xff\xfe"), id="utf16"),
        pytest.param(lambda data: b"\r\n" in data, id="crlf"),
        pytest.param(lambda data: data.count(b"[Board") == 3, id="duplicated-line"),
        pytest.param(lambda data: b"[Event" not in data, id="dropped-or-truncated"),
        pytest.param(lambda data: b'[Board "N"]' in data, id="swapped-values"),
        pytest.param(lambda data: len(data) > 4 * len(SEED), id="repeated-slice"),
    ],
)
def test_mutations_produce_each_damage(damage: object) -> None:
    assert _found(damage, mutated_bytes(SEED))


def test_mutated_text_is_text_with_latin1_or_replacement_characters() -> None:
    text = find(
        mutated_text(SEED),
        lambda text: "\ufffd" in text or "ÿ" in text,
        settings=_SEARCH,
    )
    assert isinstance(text, str)


def test_a_reader_that_never_ends_is_stopped_at_its_budget() -> None:
    def forever(text: str) -> None:
        while True:
            pass

    with pytest.raises(AssertionError, match="was stopped"):
        read_or_refuse(forever, "x", base=10_000)


def test_a_reader_cannot_swallow_the_stop() -> None:
    def stubborn(text: str) -> str:
        try:
            while True:
                pass
        except Exception:  # the stop is not an Exception: it goes through
            return "swallowed"

    with pytest.raises(AssertionError, match="was stopped"):
        read_or_refuse(stubborn, "x", base=10_000)
