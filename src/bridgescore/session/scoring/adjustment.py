"""The director's decisions on one table's board: the words they are written in.

One vocabulary for every road in: the live server's ``PUT``, the director's pages,
``session correct`` and the CSV import.

- An artificial adjusted score (Law 12C2), :func:`read_adjusted`: ``A+``, ``A``,
  ``A-`` (NS's award; EW get the mirror), both sides' awards (``A+/A+``, ``A-/A-``,
  ``A+/A-``, ``A-/A+``), fixed percentages of the top (``60/40``, ``50/50``,
  ``40/60``), or ``not played`` (the board is left out of the scoring).
- A weighted score (Law 12C1c), :func:`read_weighted`: a JSON list of
  ``{"weight", "contract", "declarer", "result"}``, the weights summing to 1.
- The director's reason, :func:`read_reason`: free text kept in the audit log.

>>> read_adjusted("60/40"), read_adjusted("not played")
(Adjusted.parse('60/40'), None)
>>> str(read_weighted([{"weight": "1/2", "contract": "4S", "declarer": "N", "result": "="},
...                    {"weight": 0.5, "contract": "4S", "declarer": "N", "result": "-1"}]))
'1/2 4SN=; 1/2 4SN-1'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bridgescore.errors import BridgeError, RecordError
from bridgescore.notation import Result, parse_result
from bridgescore.session.scoring.event import Adjusted
from bridgescore.session.scoring.weighted import MAX_PARTS, Weighted, weight_of
from bridgescore.validate import quoted

__all__ = [
    "ADJUSTED_WORDS",
    "LONGEST_REASON",
    "NOT_PLAYED",
    "read_adjusted",
    "read_reason",
    "read_weighted",
]

#: The adjusted scores by name, as the API documents them, and what each means.
ADJUSTED_WORDS = {
    "60/40": "60 % of the top to NS, 40 % to EW, whatever the scoring options",
    "50/50": "50 % to both",
    "40/60": "40 % to NS, 60 % to EW",
    "A+": "average plus to NS, average minus to EW (as the club scores averages)",
    "A": "average to both",
    "A-": "average minus to NS, average plus to EW",
    "A+/A+": "average plus to both",
    "A-/A-": "average minus to both",
    "A+/A-": "average plus to NS, average minus to EW",
    "A-/A+": "average minus to NS, average plus to EW",
    "not played": "the board is left out of the scoring",
}
_PASS = re.compile(r"P|PASS|PASSED|PASSED OUT|ALL PASS|AP", re.I)
_RESULT = re.compile(r"=|[+-][0-9]{1,2}")
NOT_PLAYED = re.compile(r"NOT\s*PLAYED|NP|N/P", re.I)
#: The longest reason kept: a sentence or three, never a pasted file.
LONGEST_REASON = 500
_LONGEST_WORDS = 40


def read_adjusted(text: object) -> Adjusted | None:
    """An artificial adjusted score from its words, ``None`` for ``not played``; a
    :class:`~bridgescore.errors.RecordError` naming the words expected otherwise.
    ``Avg+``, ``AVE-`` and the like are read as ``A+``, ``A-``."""
    if not isinstance(text, str) or len(text) > _LONGEST_WORDS:
        raise RecordError(f"adjusted: {quoted(text)} is not an adjusted score: {_expected()}")
    if NOT_PLAYED.fullmatch(text.strip()):
        return None
    try:
        return Adjusted.parse(text)
    except BridgeError:
        raise RecordError(
            f"adjusted: {quoted(text)} is not an adjusted score: {_expected()}"
        ) from None


def read_weighted(parts: object) -> Weighted:
    """A weighted score from its JSON parts, each ``{"weight", "contract", "declarer",
    "result"}`` (weight ``1/2``, ``0.5`` or ``50%``; the contract, declarer and result as
    a table enters them); a :class:`~bridgescore.errors.RecordError` naming the part."""
    if not isinstance(parts, list) or not 2 <= len(parts) <= MAX_PARTS:
        raise RecordError(
            f"weighted: {quoted(parts)} is not a weighted score: expected a list of 2 to "
            f'{MAX_PARTS} parts, each {{"weight", "contract", "declarer", "result"}}'
        )
    read = []
    for number, part in enumerate(parts, start=1):
        where = f"weighted part {number}"
        if not isinstance(part, Mapping):
            raise RecordError(f"{where}: {quoted(part)} is not an object")
        unknown = sorted(set(part) - {"weight", "contract", "declarer", "result"})
        if unknown:
            raise RecordError(
                f"{where}: unknown key {quoted(unknown[0])}: expected weight, contract, "
                "declarer and result"
            )
        if "weight" not in part:
            raise RecordError(f"{where}: weight: missing: expected such as 1/2, 0.5 or 50%")
        try:
            read.append((weight_of(part["weight"]), _played(part)))
        except BridgeError as error:
            raise RecordError(f"{where}: {error}") from None
    return Weighted(tuple(read))


def _played(part: Mapping[str, Any]) -> Result:
    """A part's contract, declarer and result as one result (``PASS``: passed out)."""
    fields = [part.get(key) for key in ("contract", "declarer", "result")]
    for key, value in zip(("contract", "declarer", "result"), fields, strict=True):
        if value is not None and (not isinstance(value, str) or len(value) > 20):
            raise RecordError(f"{key}: {quoted(value)} is not a {key}")
    contract, declarer, result = (str(value or "").strip() for value in fields)
    if not contract:
        raise RecordError("contract: missing: expected a contract such as 4S or 3NTX, or PASS")
    if _PASS.fullmatch(contract):
        if declarer or result:
            raise RecordError("a passed-out board has no declarer or result")
        return Result(None)
    if declarer.upper() not in ("N", "E", "S", "W"):
        raise RecordError(f"declarer: {quoted(declarer)} is not a seat: expected N, E, S or W")
    if not _RESULT.fullmatch(result):
        raise RecordError(f"result: {quoted(result)} is not a result: expected =, +1, -2 ...")
    outcome = "=" if result.strip("+-0") in ("", "=") else f"{int(result):+d}"
    return parse_result(f"{contract}{declarer.upper()}{outcome}")


def read_reason(text: object) -> str:
    """The director's reason: free text (``""`` when not given), at most
    :data:`LONGEST_REASON` characters, its white space made single spaces."""
    if text is None:
        return ""
    if not isinstance(text, str):
        raise RecordError(f"reason: {quoted(text)} is not text")
    if len(text) > LONGEST_REASON:
        raise RecordError(
            f"reason: {quoted(text)} is too long: at most {LONGEST_REASON} characters"
        )
    return " ".join(text.split())


def _expected() -> str:
    return "expected " + ", ".join(ADJUSTED_WORDS)
