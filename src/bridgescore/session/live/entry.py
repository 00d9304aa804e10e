"""One board as a table enters it (:class:`ResultEntry`): the round, the board, the
played result and the opening lead as values, made once from a request's JSON
(:meth:`ResultEntry.from_json`) or a page's form (:meth:`ResultEntry.from_form`), each
error a :class:`~bridgescore.errors.RecordError` naming its field."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from bridgescore.core import Contract, Seat
from bridgescore.deal import Card
from bridgescore.errors import BridgeError, RecordError
from bridgescore.notation import Result, means_passed_out, parse_result
from bridgescore.session.scoring.event import TableResult
from bridgescore.validate import is_whole_number, quoted, whole_number_text

__all__ = [
    "DOUBLINGS",
    "LEVELS",
    "MAX_FORM_NUMBER",
    "RESULTS",
    "SEATS",
    "STRAINS",
    "ResultEntry",
    "form_number",
    "whole_number",
]

_LONGEST_FIELD = 20
_RESULT = re.compile(r"=|[+-][0-9]{1,2}")
_LARGEST_NUMBER = 999_999

#: The form's choices, as a table's phone and the director's page post them.
LEVELS = ("1", "2", "3", "4", "5", "6", "7")
STRAINS = ("C", "D", "H", "S", "NT")
DOUBLINGS = ("", "X", "XX")
SEATS = ("N", "E", "S", "W")
#: What a form may say about the tricks: made exactly, overtricks, undertricks.
RESULTS = ("=", *(f"+{n}" for n in range(1, 7)), *(f"-{n}" for n in range(1, 14)))
#: The largest table, round or board number a form may name (a club's numbers are far smaller).
MAX_FORM_NUMBER = 9999
_PASS = "PASS"


@dataclass(frozen=True, slots=True)
class ResultEntry:
    """One board as a table enters it: the ``round``, the ``board``, the ``result``
    played (a :class:`~bridgescore.notation.Result`: the contract with its declarer
    and the tricks, or ``Result(None)`` for a passed-out board) and the opening
    ``lead`` (a :class:`~bridgescore.deal.Card`, or ``None``).

    >>> entry = ResultEntry.from_json({"round": 2, "board": 7, "contract": "4SX",
    ...                                "declarer": "N", "result": "+1", "lead": "hq"})
    >>> entry
    ResultEntry(round=2, board=7, result=Result.parse('4SXN+1'), lead=Card.parse('HQ'))
    >>> entry.contract, entry.declarer
    (Contract.parse('4SXN'), Seat.NORTH)
    >>> entry.as_dict()["result"]
    '+1'
    """

    round: int
    board: int
    result: Result
    lead: Card | None = None

    def __post_init__(self) -> None:
        _number(self.round, "round")
        _number(self.board, "board")
        if not isinstance(self.result, Result):
            raise RecordError(f"result: {quoted(self.result)} is not a Result")
        contract = self.result.contract
        if contract is not None and contract.declarer is None:
            raise RecordError(f"declarer: missing for {contract}: expected N, E, S or W")
        if self.lead is not None:
            if not isinstance(self.lead, Card):
                raise RecordError(f"lead: {quoted(self.lead)} is not a card")
            if contract is None:
                raise RecordError(
                    f"lead: {quoted(str(self.lead))} given for a passed-out board: PASS has no lead"
                )

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> ResultEntry:
        """The entry a request body gives (``{"round", "board", "contract", "declarer",
        "result", "lead"}``, as :meth:`as_dict` writes it); a
        :class:`~bridgescore.errors.RecordError` naming the field for anything malformed
        or impossible (``7NT`` ``+1``, ``1S`` ``-8``, a declarer missing for a contract
        or given for ``PASS``)."""
        if not isinstance(data, Mapping):
            raise RecordError(
                f"a result must be a JSON object with round, board, contract, declarer and "
                f"result, got {type(data).__name__}"
            )
        round_number = whole_number(data.get("round"), "round")
        board = whole_number(data.get("board"), "board")
        contract_text = _text(data.get("contract"), "contract")
        declarer = _text(data.get("declarer"), "declarer")
        outcome = _text(data.get("result"), "result")
        lead = _text(data.get("lead"), "lead")
        if contract_text is None:
            raise RecordError("contract: missing: expected a contract such as 4SX or 3NT, or PASS")
        if means_passed_out(contract_text):
            for field, value in (("declarer", declarer), ("result", outcome), ("lead", lead)):
                if value is not None:
                    raise RecordError(
                        f"{field}: {quoted(value)} given for a passed-out board: "
                        f"PASS has no {field}"
                    )
            return cls(round_number, board, Result(None))
        played = _played(contract_text, declarer, outcome)
        return cls(round_number, board, played, None if lead is None else _card(lead))

    @classmethod
    def from_form(cls, form: Mapping[str, str]) -> ResultEntry:
        """The entry a table's or the director's form gives: ``round``, ``board``,
        ``level`` (1-7 or ``PASS``), ``strain``, ``doubling``, ``declarer``, ``result``
        (one of :data:`RESULTS`) and ``lead``, each a text field; a
        :class:`~bridgescore.errors.RecordError` naming the field and what was expected.
        Read into the JSON API's body, then checked as that is (one road).

        >>> ResultEntry.from_form({"round": "2", "board": "5", "level": "4", "strain": "S",
        ...                        "doubling": "X", "declarer": "N", "result": "+1"}).result
        Result.parse('4SXN+1')
        >>> ResultEntry.from_form({"round": "1", "board": "1", "level": "Pass"}).result
        Result.parse('Pass')
        """
        data: dict[str, object] = {
            "round": form_number(form, "round"),
            "board": form_number(form, "board"),
        }
        level = _field(form, "level").upper()
        if means_passed_out(level):  # the one rule for a passed-out board (notation.PASSED_OUT)
            data["contract"] = _PASS
        else:
            if level not in LEVELS:
                raise RecordError(f"level {level!r}: expected a level from 1 to 7, or Pass")
            strain = _field(form, "strain").upper()
            if strain not in STRAINS:
                raise RecordError(f"strain {strain!r}: expected one of C, D, H, S or NT")
            doubling = _field(form, "doubling").upper()
            if doubling not in DOUBLINGS:
                raise RecordError(f"doubling {doubling!r}: expected nothing, X or XX")
            declarer = _field(form, "declarer").upper()
            if declarer not in SEATS:
                raise RecordError(f"declarer {declarer!r}: expected N, E, S or W")
            result = _field(form, "result")
            if result not in RESULTS:
                raise RecordError(f"result {result!r}: expected =, +1 to +6 or -1 to -13")
            data.update(contract=f"{level}{strain}{doubling}", declarer=declarer, result=result)
        lead = _field(form, "lead").upper()
        if lead:
            data["lead"] = lead
        return cls.from_json(data)

    @property
    def contract(self) -> Contract | None:
        """The contract with its declarer (``4SXN``), ``None`` for a passed-out board."""
        return self.result.contract

    @property
    def declarer(self) -> Seat | None:
        contract = self.result.contract
        return None if contract is None else contract.declarer

    def table_result(self, ns: str, ew: str, *, section: str = "") -> TableResult:
        """The entry as the event stores it, for the pairs ``ns`` and ``ew`` (as they played)."""
        return TableResult(self.board, ns, ew, result=self.result, section=section)

    def as_dict(self) -> dict[str, int | str | None]:
        """The JSON :meth:`from_json` reads: ``{"round": 2, "board": 7, "contract": "4SX",
        "declarer": "N", "result": "+1", "lead": "HQ"}`` (``contract`` ``"PASS"`` and the
        rest ``None`` for a passed-out board)."""
        contract = self.result.contract
        if contract is None:
            return {
                "round": self.round,
                "board": self.board,
                "contract": _PASS,
                "declarer": None,
                "result": None,
                "lead": None,
            }
        relative = self.result.relative
        return {
            "round": self.round,
            "board": self.board,
            "contract": str(replace(contract, declarer=None)),
            "declarer": str(contract.declarer),
            "result": "=" if relative == 0 else f"{relative:+d}",
            "lead": None if self.lead is None else str(self.lead),
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
    if number is None or number < 1 or number > _LARGEST_NUMBER:
        raise RecordError(_not_a_number(value, field))
    return number


def _number(value: object, field: str) -> None:
    # A value made directly holds the number itself, never its text.
    if not is_whole_number(value, 1, _LARGEST_NUMBER):
        raise RecordError(_not_a_number(value, field))


def _not_a_number(value: object, field: str) -> str:
    return (
        f"{field}: {quoted(value)} is not a {field} number: expected a whole number "
        f"from 1 to {_LARGEST_NUMBER}"
    )


def _text(value: object, field: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise RecordError(f"{field}: {quoted(value)} is not text")
    # No contract, seat, result or card is longer; a message never quotes a whole body.
    if len(value) > _LONGEST_FIELD:
        raise RecordError(f"{field}: {quoted(value)} is too long to be a {field}")
    return value.strip() or None


def _played(contract_text: str, declarer: str | None, outcome: str | None) -> Result:
    """The result a contract's, declarer's and result's texts give, each checked."""
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
    if declarer.upper() not in SEATS:
        raise RecordError(f"declarer: {quoted(declarer)} is not a seat: expected N, E, S or W")
    seat = Seat.parse(declarer)
    if outcome is None:
        raise RecordError(f"result: missing for {contract}: expected =, +1, -2 ...")
    if not _RESULT.fullmatch(outcome):
        raise RecordError(
            f"result: {quoted(outcome)} is not a result: expected = (made exactly), +k "
            "(overtricks) or -k (undertricks)"
        )
    relative = 0 if outcome == "=" else int(outcome)  # +0 and -00 are made exactly
    made = "=" if relative == 0 else f"{relative:+d}"
    try:
        return parse_result(f"{replace(contract, declarer=seat)}{made}")
    except BridgeError as error:
        raise RecordError(f"result: {error}") from None


def _card(lead: str) -> Card:
    try:
        return Card.parse(lead)
    except BridgeError as error:
        raise RecordError(f"lead: {error}") from None


def _field(form: Mapping[str, str], name: str) -> str:
    return str(form.get(name, "")).strip()


def form_number(form: Mapping[str, str], name: str) -> int:
    """The table, round or board number a form's field ``name`` holds (ASCII digits,
    1 to :data:`MAX_FORM_NUMBER`), else a :class:`~bridgescore.errors.RecordError`
    naming it: the one reader of a form's numbers (the entry's, the director's pages')."""
    return whole_number_text(str(form.get(name, "")), name, 1, MAX_FORM_NUMBER, error=RecordError)
