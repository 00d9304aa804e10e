"""Results as players write them: ``4DX +1``, ``4♦x+1``, ``3NT-2``, ``6NTXX=``.

:class:`Result` is a contract with the number of tricks declarer took (or a
passed-out board). :func:`parse_result` reads every everyday form of
docs/rules.md §5.3; ``str(result)`` gives the canonical one (``4SXN+1``, ``3NT=``,
``Pass``), which the parser reads back to the same value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bridgescore.core import DECLARER_PATTERN, DOUBLING_PATTERN, Contract, Seat, read_contract
from bridgescore.errors import NotationError
from bridgescore.validate import is_whole_number

__all__ = ["PASSED_OUT", "Result", "means_passed_out", "parse_result"]

TRICKS_IN_A_DEAL = 13


@dataclass(frozen=True, slots=True)
class Result:
    """A contract and the tricks declarer took; ``Result(None)`` is a passed-out board.

    >>> Result.parse("4DX +1")
    Result.parse('4DX+1')
    >>> Result.parse("4DX +1").tricks
    11
    """

    contract: Contract | None
    tricks: int | None = None

    def __post_init__(self) -> None:
        if self.contract is None:
            if self.tricks is not None:
                raise NotationError(
                    f"a passed-out board has no count of tricks, got {self.tricks!r}"
                )
            return
        if not isinstance(self.contract, Contract):
            raise NotationError(f"contract must be a Contract, not {self.contract!r}")
        tricks = self.tricks
        if not is_whole_number(tricks):
            raise NotationError(
                f"tricks for {self.contract} must be a whole number 0-13, got {tricks!r}"
            )
        if not 0 <= tricks <= TRICKS_IN_A_DEAL:
            raise NotationError(
                f"{tricks} tricks for {self.contract} is impossible: expected 0 to 13"
            )

    @classmethod
    def passed_out(cls) -> Result:
        return cls(None)

    @classmethod
    def parse(cls, text: str) -> Result:
        """Same as :func:`parse_result`."""
        return parse_result(text)

    @property
    def is_passed_out(self) -> bool:
        return self.contract is None

    @property
    def relative(self) -> int:
        """Tricks over (positive) or under (negative) the contract; 0 when passed out."""
        if self.contract is None or self.tricks is None:
            return 0
        return self.tricks - self.contract.tricks_needed

    @property
    def is_made(self) -> bool:
        return self.contract is not None and self.relative >= 0

    @property
    def overtricks(self) -> int:
        return max(self.relative, 0)

    @property
    def undertricks(self) -> int:
        return max(-self.relative, 0)

    def format(self, *, symbols: bool = False) -> str:
        """Canonical text: ``4SXN+1``, ``3NT=``, ``3NTW-2``, ``Pass``."""
        if self.contract is None:
            return "Pass"
        relative = self.relative
        outcome = "=" if relative == 0 else f"{relative:+d}"
        return self.contract.format(symbols=symbols) + outcome

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"Result.parse({self.format()!r})"


# Everyday variants folded to one spelling before parsing.
_TRANSLATE = str.maketrans(
    {
        "−": "-",  # minus sign
        "–": "-",  # en dash
        "—": "-",  # em dash
        "＋": "+",
        "﹦": "=",
        "＝": "=",
    }
)
#: A passed-out board as people and files write it, one rule for every reader of results
#: (parse_result, the traveller CSV, USEBIO, the live API and its pages): ``PASS``, ``P``,
#: ``PASSED``, ``PASS OUT``, ``PASSED OUT``, ``PASSOUT``, ``PO``, ``AP``, ``ALL PASS``,
#: in any case, with spaces around.
PASSED_OUT = re.compile(r"\s*(?:PASS(?:ED)?(?:\s*OUT)?|PO|P|AP|ALL\s*PASS)\s*", re.I)


def means_passed_out(text: object) -> bool:
    """Whether ``text`` says the board was passed out (:data:`PASSED_OUT`).

    >>> [means_passed_out(t) for t in ("PASS", "passed out", "AP", "PassOut", "4S", "")]
    [True, True, True, True, False, False]
    """
    return isinstance(text, str) and PASSED_OUT.fullmatch(text) is not None


_OUTCOMES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "made",
        re.compile(r"\s*(?:=|\+\s*0(?![0-9])|0(?![0-9])|MADE|MAKING|MAKES)(?!\s*[0-9])", re.I),
    ),
    ("making", re.compile(r"\s*(?:MAKING|MADE|MAKES)\s*([0-9]+)", re.I)),
    ("over", re.compile(r"\s*\+\s*([0-9]+)", re.I)),
    ("down", re.compile(r"\s*(?:-|DOWN|OFF)\s*([0-9]+)", re.I)),
)
_EXPECTED_OUTCOME = "'=', '+k', '-k', 'making n', 'down k' or 'off k'"


def parse_result(text: str, *, tricks: int | None = None) -> Result:
    """Parse a duplicate result in any everyday notation.

    With ``tricks`` (as PBN's ``Result`` tag gives them), ``text`` is the contract
    alone: ``parse_result("4SX", tricks=11)``.

    Raises :class:`~bridgescore.NotationError` quoting the text and saying what was
    expected, for impossible levels, unknown strains, more than 13 or fewer than 0
    tricks, a doubling after the result, or anything else that is not a result.
    """
    if not isinstance(text, str):
        raise NotationError(f"a result must be text, not {type(text).__name__}: {text!r}")
    source = text
    clean = text.translate(_TRANSLATE).strip()
    if not clean:
        raise NotationError(
            f"empty result {source!r}: expected a contract and its outcome, "
            "such as '4SX+1' or '3NT='"
        )
    if means_passed_out(clean):
        if tricks is not None:
            raise NotationError(f"{source!r} is a passed-out board; it cannot take tricks")
        return Result(None)

    if tricks is not None and not is_whole_number(tricks, 0, TRICKS_IN_A_DEAL):
        # Checked before the contract, so -1 or 14 is called what it is (not a
        # trick count) rather than "11 down" or "needs 14 tricks".
        raise NotationError(
            f"tricks for {source!r} must be a whole number from 0 to 13, got {tricks!r}"
        )
    contract, pos = read_contract(clean, source=source, what="result")
    relative: int | None = None
    declarer = contract.declarer

    for kind, pattern in _OUTCOMES:
        match = pattern.match(clean, pos)
        if match is None:
            continue
        if tricks is not None:
            raise NotationError(
                f"{source!r} already gives its outcome, so it takes no separate count of "
                f"tricks (got {tricks})"
            )
        relative = _relative(kind, match, contract, source)
        pos = match.end()
        break

    # A declarer may also follow the outcome, as in par contracts ("4S+1 N").
    after = DECLARER_PATTERN.match(clean, pos)
    if after is not None and relative is not None:
        if declarer is not None:
            raise NotationError(f"{source!r} names the declarer twice: expected it once")
        declarer = Seat.parse(after.group(1))
        pos = after.end()

    rest = clean[pos:].strip()
    if rest:
        if DOUBLING_PATTERN.fullmatch(rest) or rest.upper() in ("XX", "X", "*", "**"):
            raise NotationError(
                f"{source!r} has its doubling after the result: write it after the strain, "
                "as in '4SX+1'"
            )
        raise NotationError(
            f"unexpected {rest!r} in {source!r}: expected a result such as '4SX+1', "
            f"'3NT-2' or '4S by N making 5'"
        )
    if relative is None:
        if tricks is None:
            raise NotationError(
                f"{source!r} has no outcome: expected {_EXPECTED_OUTCOME} after the contract"
            )
        relative = tricks - contract.tricks_needed

    taken = contract.tricks_needed + relative
    if taken > TRICKS_IN_A_DEAL:
        raise NotationError(
            f"{source!r} needs {taken} tricks, but a deal has only 13: "
            f"{contract.level}{contract.strain} can make at most {7 - contract.level} overtricks"
        )
    if taken < 0:
        raise NotationError(
            f"{source!r} is {-relative} down, but {contract.level}{contract.strain} "
            f"can go at most {contract.tricks_needed} down"
        )
    return Result(contract.with_declarer(declarer), taken)


def _relative(kind: str, match: re.Match[str], contract: Contract, source: str) -> int:
    if kind == "made":
        return 0
    digits = match.group(1).lstrip("0") or "0"
    if len(digits) > 2:
        # int() refuses over 4,300 digits, and no count of tricks has three.
        raise NotationError(
            f"{source!r}: {kind} {match.group(1)!r} is impossible: a deal has only 13 tricks"
        )
    number = int(digits)
    if kind == "over":
        return number
    if kind == "down":
        return -number  # down 0 ('4S-0') is made exactly, as '4S+0' is
    # "making n": n odd tricks, so n must reach the contract's level.
    if not contract.level <= number <= 7:
        raise NotationError(
            f"{source!r}: 'making {number}' must name the odd tricks made, from "
            f"{contract.level} to 7 for a level-{contract.level} contract "
            "(use 'down k' for a contract that failed)"
        )
    return number - contract.level
