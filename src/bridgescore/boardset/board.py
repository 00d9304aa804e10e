"""A board of a set: its number, the dealer and vulnerability the number gives,
the deal, and (once analysed) its double-dummy table and par."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from bridgescore.core import Seat, Vulnerability, dealer_of_board
from bridgescore.ddtable import DDTable
from bridgescore.deal import Deal
from bridgescore.errors import BridgeError, NotationError
from bridgescore.parscore import Par, ParContract
from bridgescore.validate import enum_arg, whole_number_arg

__all__ = ["Board", "par_contract_text", "par_score_text", "parse_board_range"]

_RANGE_PART = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")
_MAX_BOARDS = 10_000  # far beyond any session; stops "1-999999999" eating memory


def parse_board_range(text: str) -> list[int]:
    """Board numbers from ``1-36``, ``5`` or ``1-4,9,13-16`` (in the order given).

    >>> parse_board_range("1-3,7")
    [1, 2, 3, 7]
    """
    numbers: list[int] = []
    for part in text.split(","):
        match = _RANGE_PART.match(part)
        if match is None:
            raise BridgeError(
                f"board range {text!r}: {part.strip()!r} is not a board or range: "
                "expected numbers like 1-36 or 1-4,9"
            )
        first = int(match[1])
        last = int(match[2]) if match[2] else first
        if first < 1 or last < first:
            raise BridgeError(
                f"board range {text!r}: {part.strip()!r} is empty or starts below 1: "
                "expected a range like 1-36"
            )
        numbers.extend(range(first, last + 1))
        if len(numbers) > _MAX_BOARDS:
            raise BridgeError(f"board range {text!r} has over {_MAX_BOARDS} boards")
    if len(set(numbers)) != len(numbers):
        raise BridgeError(f"board range {text!r} names a board twice")
    return numbers


@dataclass(frozen=True, slots=True)
class Board:
    """One board: number, deal, and optionally its DD table and par.

    Dealer and vulnerability follow the board number (Law 2), unless given
    (``dealer_seat`` a ``Seat`` or its text such as ``"N"``, ``vulnerable`` a
    ``Vulnerability`` or its text such as ``"Both"``).
    """

    number: int
    deal: Deal
    table: DDTable | None = None
    par: Par | None = None
    dealer_seat: Seat | None = None
    vulnerable: Vulnerability | None = None

    def __post_init__(self) -> None:
        whole_number_arg(self.number, "board number", 1, error=NotationError)
        if self.dealer_seat is not None:
            seat = enum_arg(Seat, self.dealer_seat, "dealer_seat")
            object.__setattr__(self, "dealer_seat", seat)
        if self.vulnerable is not None:
            vulnerable = enum_arg(Vulnerability, self.vulnerable, "vulnerable")
            object.__setattr__(self, "vulnerable", vulnerable)

    @property
    def dealer(self) -> Seat:
        return self.dealer_seat if self.dealer_seat is not None else dealer_of_board(self.number)

    @property
    def vulnerability(self) -> Vulnerability:
        if self.vulnerable is not None:
            return self.vulnerable
        return Vulnerability.from_board(self.number)

    def with_analysis(self, table: DDTable, result: Par) -> Board:
        return replace(self, table=table, par=result)


def par_score_text(result: Par) -> str:
    """PBN's ``OptimumScore``: ``NS 420`` or ``NS -100`` (always North-South's view)."""
    return f"NS {result.score}"


def _contract_text(contract: ParContract) -> str:
    who = contract.declarers[0].letter if len(contract.declarers) == 1 else contract.side.name
    level, strain = contract.contract.level, contract.contract.strain.letter
    outcome = "" if contract.relative == 0 else f"{contract.relative:+d}"
    return f"{who} {level}{strain}{contract.contract.doubling}{outcome}"


def par_contract_text(result: Par) -> str:
    """PBN's ``ParContract``: every par contract, ``NS 4S; NS 4H`` or ``EW 5HX-2``;
    ``Pass`` when the deal is passed out."""
    if not result.contracts:
        return "Pass"
    return "; ".join(_contract_text(contract) for contract in result.contracts)
