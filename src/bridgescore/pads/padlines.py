"""The text of a scorepad: one deal per line, as the rubber and Chicago pads read it.

The grammar (one line each)::

    line     := deal [honours] | honours
    deal     := "pass" | RESULT [["by"] SIDE]
    honours  := ("honors" | "honours") SIDE POINTS

``RESULT`` is any result :func:`~bridgescore.parse_result` reads (``4S+1``,
``3NTX-2``, ``4S by N making 5``); ``SIDE`` is ``NS`` or ``EW`` and may be left
out when the result names declarer (``4SN+1``). Honours on a line of their own
belong to the deal on the line before. Blank and comment lines are the
caller's to drop; every other line that cannot be read or recorded is kept as a
:class:`LineProblem` with its number, and the lines after it still count.
Pure: the lines come in as ``(number, text)`` pairs, from a file or a web form.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from bridgescore.core import Side
from bridgescore.errors import BridgeError, NotationError, RecordError
from bridgescore.notation import Result, parse_result
from bridgescore.pads.scorepad import Entry, Honors, as_side

__all__ = ["DealLine", "LineProblem", "parse_line", "read_deals", "record_deals"]


class LineProblem(NamedTuple):
    """A line that could not be read or recorded: its number, text and why."""

    number: int
    text: str
    message: str


_HONOURS = re.compile(r"\bhonou?rs?\b", re.IGNORECASE)
_SIDE_AT_END = re.compile(
    r"\s+(?:by\s+)?(?P<side>N\s*[-/]?\s*S|E\s*[-/]?\s*W|SN|WE)\s*$", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class DealLine:
    """One input line read: a deal (or None for an honours-only line) and honours."""

    number: int
    text: str
    result: Result | None
    by: Side | None
    honors: Honors | None


def parse_line(number: int, text: str) -> DealLine:
    """Read one line of the grammar above; raises a :class:`BridgeError` quoting it.

    >>> parse_line(1, "4S+1 NS honors EW 100").honors
    Honors(side=Side.EW, points=100)
    """
    deal_text, honors = text, None
    split = _HONOURS.search(text)
    if split is not None:
        deal_text = text[: split.start()].strip()
        honors = Honors.parse(text[split.end() :])
    if not deal_text:
        if honors is None:
            raise NotationError(f"empty line {text!r}: expected a deal such as '4S+1 NS'")
        return DealLine(number, text, None, None, honors)
    by: Side | None = None
    match = _SIDE_AT_END.search(deal_text)
    if match is not None:
        by = as_side(match["side"])
        deal_text = deal_text[: match.start()]
    try:
        result = parse_result(deal_text)
    except NotationError as error:
        raise NotationError(
            f"{error} (a deal line reads like '4S+1 NS', '3NTX-2 EW' or 'pass')"
        ) from None
    if result.is_passed_out and by is not None:
        raise RecordError(f"{text!r}: a passed-out deal has no declaring side")
    return DealLine(number, text, result, by, honors)


def read_deals(lines: Iterable[tuple[int, str]], problems: list[LineProblem]) -> Iterator[DealLine]:
    """Deals with their honours attached, in order; unreadable lines go to ``problems``.

    A deal is yielded once the next deal (or the end) shows that no honours line
    follows it.
    """
    pending: DealLine | None = None
    for number, text in lines:
        try:
            line = parse_line(number, text)
        except BridgeError as error:
            problems.append(LineProblem(number, text, str(error)))
            continue
        if line.result is not None:
            if pending is not None:
                yield pending
            pending = line
            continue
        if pending is None:
            problems.append(
                LineProblem(
                    number, text, f"honours {line.honors} follow no deal that could be read"
                )
            )
        elif pending.honors is not None:
            problems.append(
                LineProblem(number, text, f"the deal on line {pending.number} already has honours")
            )
        else:
            pending = DealLine(
                pending.number, pending.text, pending.result, pending.by, line.honors
            )
    if pending is not None:
        yield pending


Recorder = Callable[[Result, "Side | None", "Honors | None"], Entry]
"""A pad's ``record``: result, declaring side (if the result does not name
declarer) and honours, giving the pad's entry for the deal."""


def record_deals(
    lines: Iterable[tuple[int, str]], record: Recorder
) -> tuple[list[tuple[DealLine, Entry]], list[LineProblem]]:
    """Record every readable deal on a pad through ``record``, in order.

    Returns the recorded lines with their entries, and the problems in line order:
    lines that could not be read and deals the pad refused (such as a deal after
    the rubber is over).
    """
    recorded: list[tuple[DealLine, Entry]] = []
    problems: list[LineProblem] = []
    for line in read_deals(lines, problems):
        assert line.result is not None
        try:
            recorded.append((line, record(line.result, line.by, line.honors)))
        except BridgeError as error:
            problems.append(LineProblem(line.number, line.text, str(error)))
    problems.sort()
    return recorded, problems
