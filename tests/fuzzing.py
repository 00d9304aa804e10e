"""The shared fuzzing harness: mutated input, and "only a BridgeError, in bounded work".

Every reader of user text is fuzzed the same way (see docs/testing.md):

- :func:`mutated_bytes` and :func:`mutated_text` take a good seed text (a fixture
  file, a valid result) and damage it the way files get damaged: flipped and
  stray bytes (NUL, invalid UTF-8, quotes and brackets, long digit runs),
  dropped, duplicated and swapped lines, truncation, swapped tag values, a slice
  repeated many times, CRLF or bare CR line ends, and a wrong encoding (Latin-1
  or UTF-16) for the whole text.
- :func:`read_or_refuse` calls a reader on one input and fails the test if
  anything but a :class:`~bridgescore.BridgeError` escapes, or if the reader
  executes more Python lines than ``base + per_char * len(input)``. Counting
  executed lines (``sys.settrace``) makes quadratic loops and runaway work
  visible on a few kilobytes of input, on any machine, without a clock.
- :func:`fuzz_settings` gives the number of examples: a fixed, small number in
  CI, ten times more with ``BRIDGESCORE_FULL=1`` (or under the ``slow`` marker).

This is a test helper module, not a test module (pytest collects ``test_*.py``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import FrameType
from typing import Any, TypeVar

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from bridgescore.errors import BridgeError

__all__ = [
    "FULL",
    "STRAY",
    "Refused",
    "WorkCounter",
    "WorkExceeded",
    "fuzz_settings",
    "mutated_bytes",
    "mutated_text",
    "read_or_refuse",
]

FULL = os.environ.get("BRIDGESCORE_FULL") == "1"

T = TypeVar("T")
R = TypeVar("R")

# Bytes and words that readers trip over: NUL and control bytes, invalid and
# truncated UTF-8, a byte order mark, the PBN and CSV punctuation, suit symbols,
# a superscript digit (str.isdigit() says yes, int() says no), fullwidth and
# Arabic-Indic digits, and digit runs longer than int()'s 4,300-digit limit.
STRAY: tuple[bytes, ...] = (
    b"\x00",
    b"\x01",
    b"\x1b",
    b"\x7f",
    b"\xff",
    b"\xfe",
    b"\xc3",
    b"\xc3(",
    b"\xe2\x99",
    b"\xed\xa0\x80",
    b"\xef\xbb\xbf",
    b'"',
    b"\\",
    b"[",
    b"]",
    b"{",
    b"}",
    b";",
    b"%",
    b",",
    b":",
    b".",
    b"#",
    b"=",
    b"+",
    b"-",
    b"^",
    b"*",
    b"/",
    b" ",
    b"\t",
    b"\r",
    b"\n",
    b"\x0c",
    b"\xc2\x85",
    b"\xe2\x80\xa8",
    "♠".encode(),
    "♥".encode(),
    "²".encode(),
    "١".encode(),
    "９".encode(),
    "−".encode(),
    b"0",
    b"13",
    b"99",
    b"-1",
    b"1e9",
    b"NaN",
    b"9" * 5000,
    b"1" + b"0" * 30,
)


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True) or [b""]


def _swap_quoted(data: bytes, first: int, second: int) -> bytes:
    """Swap the ``first`` and ``second`` double-quoted values (PBN tag values)."""
    spans: list[tuple[int, int]] = []
    start = data.find(b'"')
    while start >= 0:
        end = data.find(b'"', start + 1)
        if end < 0:
            break
        spans.append((start + 1, end))
        start = data.find(b'"', end + 1)
    if len(spans) < 2:
        return data
    a, b = sorted((spans[first % len(spans)], spans[second % len(spans)]))
    if a == b:
        return data
    return data[: a[0]] + data[b[0] : b[1]] + data[a[1] : b[0]] + data[a[0] : a[1]] + data[b[1] :]


@st.composite
def _mutation(draw: st.DrawFn, data: bytes) -> bytes:
    kind = draw(
        st.sampled_from(
            (
                "flip",
                "stray",
                "delete",
                "truncate",
                "drop_line",
                "duplicate_line",
                "swap_lines",
                "swap_values",
                "repeat",
                "crlf",
                "cr",
            )
        )
    )
    size = len(data)
    at = draw(st.integers(0, size))
    if kind == "flip" and size:
        index = min(at, size - 1)
        return data[:index] + bytes([draw(st.integers(0, 255))]) + data[index + 1 :]
    if kind == "stray":
        return data[:at] + draw(st.sampled_from(STRAY)) + data[at:]
    if kind == "delete":
        return data[:at] + data[at + draw(st.integers(1, 16)) :]
    if kind == "truncate":
        return data[:at]
    lines = _lines(data)
    line = draw(st.integers(0, len(lines) - 1))
    if kind == "drop_line":
        return b"".join(lines[:line] + lines[line + 1 :])
    if kind == "duplicate_line":
        return b"".join(lines[: line + 1] + lines[line:])
    if kind == "swap_lines":
        other = draw(st.integers(0, len(lines) - 1))
        lines[line], lines[other] = lines[other], lines[line]
        return b"".join(lines)
    if kind == "swap_values":
        return _swap_quoted(data, draw(st.integers(0, 63)), draw(st.integers(0, 63)))
    if kind == "repeat":
        # A slice repeated many times: long lines and long files for the work bound.
        end = min(size, at + draw(st.integers(1, 80)))
        return data[:at] + data[at:end] * draw(st.integers(2, 60)) + data[end:]
    if kind == "crlf":
        return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r")  # "cr"


@st.composite
def mutated_bytes(draw: st.DrawFn, seed: bytes | str, max_mutations: int = 4) -> bytes:
    """``seed`` (UTF-8 if text) with 0 to ``max_mutations`` damages, then maybe re-encoded.

    Zero mutations is allowed on purpose: the seed itself must read cleanly, and
    hypothesis shrinks a failure towards the fewest mutations.
    """
    data = seed.encode() if isinstance(seed, str) else seed
    for _ in range(draw(st.integers(0, max_mutations))):
        data = draw(_mutation(data))
    encoding = draw(st.sampled_from(("same", "same", "same", "latin-1", "utf-16")))
    if encoding == "same":
        return data
    text = data.decode("utf-8", errors="replace")
    if encoding == "latin-1":
        return text.encode("latin-1", errors="replace")
    return text.encode("utf-16")  # with its byte order mark, as Windows tools write it


@st.composite
def mutated_text(draw: st.DrawFn, seed: str, max_mutations: int = 4) -> str:
    """``seed`` damaged as by :func:`mutated_bytes`, decoded the ways a program might:
    UTF-8 with replacement characters, or Latin-1 (every byte a character)."""
    data = draw(mutated_bytes(seed, max_mutations))
    if draw(st.booleans()):
        return data.decode("utf-8", errors="replace")
    return data.decode("latin-1")


def fuzz_settings(examples: int = 60, **overrides: Any) -> settings:
    """Hypothesis settings for a fuzz test: ``examples`` in CI, ten times more when
    ``BRIDGESCORE_FULL=1``. No deadline: the work bound, not the clock, catches hangs."""
    return settings(
        max_examples=examples * 10 if FULL else examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        **overrides,
    )


class WorkExceeded(BaseException):
    """Raised inside the traced code once it runs past its budget.

    A BaseException, so the reader's own ``except Exception`` cannot swallow it:
    a reader that would run for hours fails at once instead of hanging CI.
    """


class WorkCounter:
    """Counts the Python lines executed while active (``sys.settrace``).

    The count is the same on a fast or a loaded machine, so it can be bounded;
    with a ``budget``, the count stops the traced code (:class:`WorkExceeded`)
    as soon as it runs past it.
    """

    def __init__(self, budget: int | None = None) -> None:
        self.lines = 0
        self.budget = budget
        self._previous: Any = None

    def _trace(self, frame: FrameType, event: str, arg: object) -> Any:
        if event == "line":
            self.lines += 1
            if self.budget is not None and self.lines > self.budget:
                raise WorkExceeded(self.lines)
        return self._trace

    def __enter__(self) -> WorkCounter:
        self._previous = sys.gettrace()
        sys.settrace(self._trace)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.settrace(self._previous)


@dataclass(frozen=True)
class Refused:
    """A reader's refusal: the BridgeError it raised."""

    error: BridgeError


def read_or_refuse(
    reader: Callable[[T], R],
    data: T,
    *,
    base: int = 50_000,
    per_char: int = 400,
) -> R | Refused:
    """Call ``reader(data)``: return its value, or :class:`Refused` with its BridgeError.

    Fails the test (AssertionError quoting the input) when any other exception
    escapes, when a BridgeError has an empty message, or when the reader runs
    more than ``base + per_char * len(data)`` Python lines: reading must cost
    work in proportion to the input, so a quadratic loop on a few kilobytes
    shows at once. Lazy readers must be consumed inside ``reader``
    (``lambda text: list(read_games(text))``).
    """
    size = len(data) if isinstance(data, str | bytes | Sequence) else 0
    budget = base + per_char * size
    shown = repr(data) if size <= 300 else repr(data[:300]) + f"... ({size} in all)"  # type: ignore[index]
    counter = WorkCounter(budget)
    try:
        with counter:
            value = reader(data)
    except WorkExceeded:
        raise AssertionError(
            f"reading {size} characters ran over the budget of {budget} Python lines "
            f"({base} + {per_char} per character) and was stopped: {shown}"
        ) from None
    except BridgeError as error:
        if not str(error).strip():
            raise AssertionError(f"{type(error).__name__} with no message for {shown}") from error
        outcome: R | Refused = Refused(error)
    except Exception as error:
        raise AssertionError(
            f"{type(error).__name__} escaped (only BridgeError may): {error!r}\ninput: {shown}"
        ) from error
    else:
        outcome = value
    if counter.lines > budget:
        raise AssertionError(
            f"reading {size} characters ran {counter.lines} Python lines, over the "
            f"budget of {budget} ({base} + {per_char} per character): {shown}"
        )
    return outcome
