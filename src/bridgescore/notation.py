"""Results as players write them: ``4DX +1``, ``4♦x+1``, ``3NT-2``, ``6NTXX=``.

:class:`Result` is a contract with the number of tricks declarer took (or a
passed-out board). :func:`parse_result` reads every everyday form of
rules.md §5.3; ``str(result)`` gives the canonical one (``4SXN+1``, ``3NT=``,
``Pass``), which the parser reads back to the same value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bridgescore.core import Contract, Doubling, Seat, Strain
from bridgescore.errors import NotationError

__all__ = ["Result", "parse_result"]

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
                    f"a passed-out board has no trick count, got tricks={self.tricks!r}"
                )
            return
        if not isinstance(self.contract, Contract):
            raise NotationError(f"contract must be a Contract, not {self.contract!r}")
        tricks = self.tricks
        if isinstance(tricks, bool) or not isinstance(tricks, int):
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
_PASSED_OUT = re.compile(r"(?:PASS(?:ED)?(?:\s*OUT)?|P|AP|ALL\s*PASS|PASSOUT)", re.I)
_LEVEL = re.compile(r"\s*([0-9]+)")
_STRAIN = re.compile(
    r"\s*(NO\s*TRUMPS?|SPADES?|HEARTS?|DIAMONDS?|CLUBS?|NT|N|S|H|D|C|♠|♥|♦|♣|♤|♡|♢|♧)", re.I
)
_DOUBLING = re.compile(r"\s*(XX|X|\*\*|\*|RDBL|DBL|REDOUBLED|DOUBLED)", re.I)
_DECLARER = re.compile(r"\s*(?:BY\s*)?(NORTH|EAST|SOUTH|WEST|N|E|S|W)(?![A-WYZ])", re.I)
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
    if _PASSED_OUT.fullmatch(clean):
        if tricks is not None:
            raise NotationError(f"{source!r} is a passed-out board; it cannot take tricks")
        return Result(None)

    contract, pos = _parse_contract_prefix(clean, source)
    relative: int | None = None
    declarer = contract.declarer

    for kind, pattern in _OUTCOMES:
        match = pattern.match(clean, pos)
        if match is None:
            continue
        if tricks is not None:
            raise NotationError(
                f"{source!r} already gives its outcome; do not also pass tricks={tricks}"
            )
        relative = _relative(kind, match, contract, source)
        pos = match.end()
        break

    # A declarer may also follow the outcome, as in par contracts ("4S+1 N").
    after = _DECLARER.match(clean, pos)
    if after is not None and relative is not None:
        if declarer is not None:
            raise NotationError(f"{source!r} names the declarer twice: expected it once")
        declarer = Seat.parse(after.group(1))
        pos = after.end()

    rest = clean[pos:].strip()
    if rest:
        if _DOUBLING.fullmatch(rest) or rest.upper() in ("XX", "X", "*", "**"):
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
        if isinstance(tricks, bool) or not isinstance(tricks, int):
            raise NotationError(f"tricks for {source!r} must be a whole number, got {tricks!r}")
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


def _parse_contract_prefix(clean: str, source: str) -> tuple[Contract, int]:
    """Read level, strain, doubling and an optional declarer from the start."""
    level_match = _LEVEL.match(clean)
    if level_match is None:
        raise NotationError(
            f"not a result: {source!r}: expected a contract level 1-7 first, "
            "as in '4SX+1', '3NT=' or 'Pass'"
        )
    # int() refuses over 4,300 digits; a level of three digits is impossible anyway.
    digits = level_match.group(1).lstrip("0") or "0"
    level = int(digits) if len(digits) <= 2 else 0
    if not 1 <= level <= 7:
        raise NotationError(
            f"impossible level {level_match.group(1)} in {source!r}: expected a level from 1 to 7"
        )
    strain_match = _STRAIN.match(clean, level_match.end())
    if strain_match is None:
        found = clean[level_match.end() :].strip()[:1] or "nothing"
        raise NotationError(
            f"unknown strain {found!r} in {source!r}: expected C, D, H, S or NT "
            "(or ♣ ♦ ♥ ♠) after the level"
        )
    strain = Strain.parse(re.sub(r"\s+", "", strain_match.group(1)))
    pos = strain_match.end()
    doubling = Doubling.UNDOUBLED
    doubling_match = _DOUBLING.match(clean, pos)
    if doubling_match is not None:
        doubling = Doubling.parse(doubling_match.group(1))
        pos = doubling_match.end()
    declarer: Seat | None = None
    declarer_match = _DECLARER.match(clean, pos)
    if declarer_match is not None:
        declarer = Seat.parse(declarer_match.group(1))
        pos = declarer_match.end()
        # "4S N X": a doubling after the declarer is still before the result.
        late = _DOUBLING.match(clean, pos)
        if late is not None:
            if doubling is not Doubling.UNDOUBLED:
                raise NotationError(f"{source!r} gives the doubling twice: expected it once")
            doubling = Doubling.parse(late.group(1))
            pos = late.end()
    return Contract(level, strain, doubling, declarer), pos


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
        if number == 0:
            raise NotationError(f"{source!r} says down 0: write '=' for a contract made exactly")
        return -number
    # "making n": n odd tricks, so n must reach the contract's level.
    if not contract.level <= number <= 7:
        raise NotationError(
            f"{source!r}: 'making {number}' must name the odd tricks made, from "
            f"{contract.level} to 7 for a level-{contract.level} contract "
            "(use 'down k' for a contract that failed)"
        )
    return number - contract.level
