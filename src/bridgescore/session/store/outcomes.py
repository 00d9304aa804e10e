"""How a table's outcome is stored: a played result, a score, an adjusted or a weighted
score as one text (``R:4SXN+1``, ``S:+450``, ``A:A+/A-``, ``W:...``), a board not
played, a change to the event itself, and each as the audit log shows it."""

from __future__ import annotations

from functools import lru_cache

from bridgescore.errors import RecordError
from bridgescore.notation import parse_result
from bridgescore.session.scoring.event import Adjusted, TableResult
from bridgescore.session.scoring.weighted import Weighted

__all__ = [
    "EVENT_CHANGE",
    "NOT_PLAYED",
    "decode_outcome",
    "encode_outcome",
    "outcome_pair",
    "shown_outcome",
    "shown_result",
    "stored_outcome",
]

# The outcome of a board the director marked "not played": kept as a row (nothing is
# ever deleted) and left out of the event's results, so the board is scored without it.
NOT_PLAYED = "N:"
# The audit log's variant for a change to the event itself (a table's new link, a new
# director password, a session reopened): its outcome is the change in words.
EVENT_CHANGE = "~event"


def encode_outcome(result: TableResult) -> str:
    """The stored text of a table's outcome: ``R:4SXN+1``, ``R:Pass``, ``S:+450``, ``A:A+/A-``."""
    if result.result is not None:
        return f"R:{result.result}"
    if result.score is not None:
        return f"S:{result.score:+d}"
    if result.weighted is not None:
        return f"W:{result.weighted}"
    return f"A:{result.adjusted}"


# An event repeats a few hundred outcomes ("4SN=") over its results; Result is immutable,
# so each stored text is parsed once (a live ranking reloads the event after every result).
_stored_result = lru_cache(maxsize=4096)(parse_result)


def decode_outcome(
    text: str, board: int, ns: str, ew: str, section: str, variant: str
) -> TableResult:
    tag, _, body = text.partition(":")
    if tag == "R":
        return TableResult(
            board, ns, ew, result=_stored_result(body), section=section, variant=variant
        )
    if tag == "S":
        return TableResult(board, ns, ew, score=int(body), section=section, variant=variant)
    if tag == "A":
        return TableResult(
            board, ns, ew, adjusted=Adjusted.parse(body), section=section, variant=variant
        )
    if tag == "W":
        return TableResult(
            board, ns, ew, weighted=Weighted.parse(body), section=section, variant=variant
        )
    raise RecordError(f"stored outcome {text!r} of board {board} is not readable")


# A live ranking reads the event afresh after every result: each stored row is decoded
# once, not on every read (at 60 tables x 27 boards, decoding was half of the 50 ms a
# ranking took). Keyed by the whole row, so a corrected result is a new key; a congress
# is a few thousand. TableResult is immutable, so sharing it is safe.
stored_outcome = lru_cache(maxsize=1 << 16)(decode_outcome)


def outcome_pair(result: TableResult) -> tuple[str, str]:
    """The stored (variant, outcome) of a result."""
    return (result.variant, encode_outcome(result))


def shown_outcome(stored: tuple[str, str], key: tuple[str, int, str, str]) -> str:
    """A stored (variant, outcome) as the log and conflicts show it: ``""`` for no
    result (a first entry's old side), ``not played``, else the result described."""
    variant, outcome = stored
    if not outcome:
        return ""
    if variant == EVENT_CHANGE:
        return outcome
    if outcome == NOT_PLAYED:
        return "not played"
    section, board, ns, ew = key
    return shown_result(decode_outcome(outcome, board, ns, ew, section, variant))


def shown_result(result: TableResult) -> str:
    """A result as the audit log and conflicts show it, naming its fouled version."""
    text = result.describe()
    return f"{text} (fouled version {result.variant!r})" if result.variant else text
