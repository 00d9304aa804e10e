"""One board as a table enters it (:class:`ResultEntry`), checked field by field:
each error a :class:`~bridgescore.errors.RecordError` naming its field."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bridgescore.core import Contract, Seat
from bridgescore.deal import Card
from bridgescore.errors import BridgeError, RecordError
from bridgescore.notation import Result, means_passed_out, parse_result
from bridgescore.session.scoring.event import TableResult
from bridgescore.validate import is_whole_number, quoted

__all__ = ["ResultEntry", "whole_number"]

_LONGEST_FIELD = 20
_RESULT = re.compile(r"=|[+-][0-9]{1,2}")


@dataclass(frozen=True, slots=True)
class ResultEntry:
    """One board as a table enters it: round, board, contract (``4SX``, ``3NT``,
    ``PASS``), declarer (``N``/``E``/``S``/``W``; ``None`` for ``PASS``), result
    (``=``, ``+1``, ``-2``; ``None`` for ``PASS``) and the opening lead (``HQ``).

    Made with :meth:`parse` from a request's JSON, or directly (checked the same way).
    """

    round: int
    board: int
    contract: str
    declarer: str | None
    result: str | None
    lead: str | None = None

    def __post_init__(self) -> None:
        # One check for both ways in: the normalised fields replace what was given.
        checked = _checked(self.as_dict())
        for name, value in checked.items():
            object.__setattr__(self, name, value)

    @classmethod
    def parse(cls, data: Mapping[str, object]) -> ResultEntry:
        """The entry a request body gives; a :class:`~bridgescore.errors.RecordError`
        naming the field for anything malformed or impossible (``7NT`` ``+1``,
        ``1S`` ``-8``, a declarer missing for a contract or given for ``PASS``)."""
        if not isinstance(data, Mapping):
            raise RecordError(
                f"a result must be a JSON object with round, board, contract, declarer and "
                f"result, got {type(data).__name__}"
            )
        return cls(
            data.get("round"),  # type: ignore[arg-type]
            data.get("board"),  # type: ignore[arg-type]
            data.get("contract"),  # type: ignore[arg-type]
            data.get("declarer"),  # type: ignore[arg-type]
            data.get("result"),  # type: ignore[arg-type]
            data.get("lead"),  # type: ignore[arg-type]
        )

    @property
    def played(self) -> Result:
        """The result as a value: ``Result.parse('4SN+1')``, or a passed-out board."""
        if self.declarer is None:
            return Result(None)
        return parse_result(f"{self.contract}{self.declarer}{self.result}")

    def table_result(self, ns: str, ew: str, *, section: str = "") -> TableResult:
        return TableResult(self.board, ns, ew, result=self.played, section=section)

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "board": self.board,
            "contract": self.contract,
            "declarer": self.declarer,
            "result": self.result,
            "lead": self.lead,
        }


def whole_number(value: object, field: str) -> int:
    """``value`` as a round or board number from 1 to 999999, else a
    :class:`~bridgescore.errors.RecordError` naming ``field``."""
    # JSON numbers and digit strings; never a bool (True is an int to Python).
    number = None
    if is_whole_number(value):
        number = value
    elif isinstance(value, str):
        text = value.strip()
        number = int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else None
    if number is None or number < 1 or number > 999_999:
        raise RecordError(
            f"{field}: {quoted(value)} is not a {field} number: expected a whole number "
            "from 1 to 999999"
        )
    return number


def _text(value: object, field: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise RecordError(f"{field}: {quoted(value)} is not text")
    # No contract, seat, result or card is longer; a message never quotes a whole body.
    if len(value) > _LONGEST_FIELD:
        raise RecordError(f"{field}: {quoted(value)} is too long to be a {field}")
    return value.strip() or None


def _checked(data: Mapping[str, object]) -> dict[str, Any]:
    round_number = whole_number(data.get("round"), "round")
    board = whole_number(data.get("board"), "board")
    contract_text = _text(data.get("contract"), "contract")
    declarer = _text(data.get("declarer"), "declarer")
    result = _text(data.get("result"), "result")
    lead = _text(data.get("lead"), "lead")
    if contract_text is None:
        raise RecordError("contract: missing: expected a contract such as 4SX or 3NT, or PASS")
    if means_passed_out(contract_text):
        for field, value in (("declarer", declarer), ("result", result), ("lead", lead)):
            if value is not None:
                raise RecordError(
                    f"{field}: {quoted(value)} given for a passed-out board: PASS has no {field}"
                )
        return {
            "round": round_number,
            "board": board,
            "contract": "PASS",
            "declarer": None,
            "result": None,
            "lead": None,
        }
    try:
        contract = Contract.parse(contract_text)
    except BridgeError as error:
        raise RecordError(f"contract: {error}") from None
    if contract.declarer is not None:
        raise RecordError(
            f"contract: {quoted(contract_text)} names its declarer: give the contract alone "
            "(4SX) and the declarer in 'declarer'"
        )
    if declarer is None:
        raise RecordError(f"declarer: missing for {contract}: expected N, E, S or W")
    if declarer.upper() not in ("N", "E", "S", "W"):
        raise RecordError(f"declarer: {quoted(declarer)} is not a seat: expected N, E, S or W")
    seat = Seat.parse(declarer)
    if result is None:
        raise RecordError(f"result: missing for {contract}: expected =, +1, -2 ...")
    if not _RESULT.fullmatch(result):
        raise RecordError(
            f"result: {quoted(result)} is not a result: expected = (made exactly), +k "
            "(overtricks) or -k (undertricks)"
        )
    outcome = "=" if result in ("=", "+0", "-0", "+00", "-00") else f"{int(result):+d}"
    try:
        parse_result(f"{contract}{seat}{outcome}")
    except BridgeError as error:
        raise RecordError(f"result: {error}") from None
    card = None
    if lead is not None:
        try:
            card = str(Card.parse(lead))
        except BridgeError as error:
            raise RecordError(f"lead: {error}") from None
    return {
        "round": round_number,
        "board": board,
        "contract": str(contract),
        "declarer": str(seat),
        "result": outcome,
        "lead": card,
    }
