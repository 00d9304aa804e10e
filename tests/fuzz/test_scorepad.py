"""Fuzzing the rubber and Chicago pad text (``bridgescore rubber`` / ``chicago``):
the line grammar of cli/rubber.py, recorded deal by deal on a pad, as the
commands do. Bad lines are reported with their numbers; nothing but a
BridgeError escapes, in work bounded by the length of the text.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgescore.cli.common import numbered_lines
from bridgescore.cli.rubber import read_deals
from bridgescore.errors import BridgeError
from bridgescore.pads.chicago import ChicagoScore
from bridgescore.pads.rubber import RubberScore
from fuzzing import Refused, fuzz_settings, mutated_text, read_or_refuse

PADS = (
    "2H+1 NS\n3NT= EW\n# play stops after the next deal\n4HX-1 EW\n",
    "4S+1 NS honors EW 100\n3NTX-2 EW\npass\n6NTXX= by NS\nhonours NS 150\n",
    "4SN+1\n3NT by E making 4\n2C= NS\n1NT-1 EW\n",
)


def _score(text: str, pad: RubberScore | ChicagoScore) -> tuple[int, list[int]]:
    """Record every readable deal as the commands do: (deals recorded, bad line numbers)."""
    problems: list[tuple[int, str, str]] = []
    recorded = 0
    for line in read_deals(numbered_lines(io.StringIO(text)), problems):
        assert line.result is not None
        try:
            pad.record(line.result, line.by, honors=line.honors)
            recorded += 1
        except BridgeError as error:
            problems.append((line.number, line.text, str(error)))
    return recorded, sorted(number for number, _, _ in problems)


def test_seed_pads_read_without_problems() -> None:
    for text in PADS:
        recorded, problems = _score(text, RubberScore())
        assert problems == [] and recorded >= 3, text


@fuzz_settings(examples=150)
@given(st.sampled_from(PADS).flatmap(mutated_text), st.booleans())
def test_damaged_pad_text_is_recorded_or_reported(text: str, chicago: bool) -> None:
    pad = ChicagoScore() if chicago else RubberScore()
    outcome = read_or_refuse(lambda source: _score(source, pad), text)
    assert not isinstance(outcome, Refused)  # bad lines are reported, never raised
    _, problems = outcome
    lines = len(io.StringIO(text).readlines())
    assert all(1 <= number <= lines for number in problems)


# Passed-out deals and contracts going down never end a rubber, nor passed-out
# deals a Chicago round: the pads keep a running tally, so each line costs the same.
@pytest.mark.parametrize("chicago", [False, True])
@pytest.mark.parametrize(
    "unit",
    [
        "4S+1 NS\n",
        "honours NS 100\n",
        "9",
        "by ",
        "pass\n",
        "4S-1 NS\n",
    ],
)
def test_long_pad_costs_work_in_proportion(unit: str, chicago: bool) -> None:
    text = unit * (8_000 // len(unit))
    pad = ChicagoScore() if chicago else RubberScore()

    def score_and_show(source: str) -> object:
        # All the commands print: the pad, its JSON form and the PBN tags.
        return _score(source, pad), pad.pad(), pad.as_dict(), pad.pbn_tags()

    read_or_refuse(score_and_show, text, per_char=200)


def test_former_crash_honours_with_superscript_is_a_bad_line() -> None:
    # Honors.parse let ValueError out: '²'.isdigit() is true, int('²') is not.
    recorded, problems = _score("4S= NS honours NS ²\n", RubberScore())
    assert (recorded, problems) == (0, [1])
