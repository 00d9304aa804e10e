"""A weighted adjusted score (Law 12C1c): several results, each with its weight.

The director may give a table a weighted score instead of one result: "60 % of 4S
made, 40 % of 4S one down". Each listed result is scored against the rest of the
field as if the table had played it, and each side gets the weighted sum
(:mod:`bridgescore.session.scoring.weighing` does the scoring). The weights are exact
fractions and must sum to exactly 1.

Text: the parts separated by ``;``, each a weight (``1/2``, ``0.6``, ``60%``) and a
result with its declarer: ``3/5 4SN=; 2/5 4SN-1``.

>>> w = Weighted.parse("60% 4SN=; 40% 4SN-1")
>>> str(w), [weight for weight, _ in w.parts]
('3/5 4SN=; 2/5 4SN-1', [Fraction(3, 5), Fraction(2, 5)])
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from bridgescore.errors import BridgeError, RecordError
from bridgescore.notation import Result, parse_result
from bridgescore.validate import is_number

__all__ = ["MAX_PARTS", "Weighted", "weight_of"]

# No director weighs more outcomes than this; it also bounds the scoring's work.
MAX_PARTS = 6
_WEIGHT = re.compile(r"\s*(\S+)\s+(\S+)\s*")


@dataclass(frozen=True, slots=True)
class Weighted:
    """The parts of a weighted score: (weight, result) pairs, weights above 0 summing to 1,
    every result a contract with its declarer (or a passed-out board)."""

    parts: tuple[tuple[Fraction, Result], ...]

    def __post_init__(self) -> None:
        if not isinstance(self.parts, tuple) or not 2 <= len(self.parts) <= MAX_PARTS:
            raise RecordError(
                f"a weighted score has 2 to {MAX_PARTS} parts, got "
                f"{len(self.parts) if isinstance(self.parts, tuple) else self.parts!r}"
            )
        for weight, result in self.parts:
            if not isinstance(weight, Fraction) or not 0 < weight <= 1:
                raise RecordError(f"weight {weight!r}: expected a fraction above 0, at most 1")
            if not isinstance(result, Result):
                raise RecordError(f"a weighted score's part must be a Result, got {result!r}")
            contract = result.contract
            if contract is not None and contract.declarer is None:
                raise RecordError(f"{result} has no declarer: expected N, E, S or W")
        total = sum((weight for weight, _ in self.parts), Fraction(0))
        if total != 1:
            raise RecordError(
                f"the weights of a weighted score must sum to 1, got {total} "
                f"({', '.join(str(weight) for weight, _ in self.parts)})"
            )

    @classmethod
    def parse(cls, text: str) -> Weighted:
        """``3/5 4SN=; 2/5 4SN-1`` (weights as fractions, decimals or percentages)."""
        if not isinstance(text, str):
            raise RecordError(f"a weighted score must be text, got {text!r}")
        parts = []
        for piece in text.split(";"):
            found = _WEIGHT.fullmatch(piece)
            if found is None:
                raise RecordError(
                    f"weighted score part {piece.strip()!r}: expected a weight and a result "
                    "with its declarer, such as '1/2 4SN='"
                )
            try:
                result = parse_result(found[2])
            except BridgeError as error:
                raise RecordError(f"weighted score part {piece.strip()!r}: {error}") from None
            parts.append((weight_of(found[1]), result))
        return cls(tuple(parts))

    def __str__(self) -> str:
        return "; ".join(f"{weight} {result}" for weight, result in self.parts)

    def __repr__(self) -> str:
        return f"Weighted.parse({str(self)!r})"


def weight_of(value: object) -> Fraction:
    """A weight as an exact fraction: ``1/3``, ``0.25``, ``"60%"``, or a JSON number
    (read by its decimal text, so ``0.1`` is exactly one tenth).

    >>> weight_of("1/3"), weight_of(0.1), weight_of("60%")
    (Fraction(1, 3), Fraction(1, 10), Fraction(3, 5))
    """
    text = value if isinstance(value, str) else None
    if is_number(value, int | float):
        text = repr(value)
    if text is None:
        raise RecordError(f"weight {value!r} is not a number: expected such as 1/2, 0.5 or 50%")
    cleaned = text.strip()
    if len(cleaned) > 20:
        raise RecordError(f"weight {cleaned[:20]!r}... is too long: expected such as 1/2")
    percent = cleaned.endswith("%")
    cleaned = cleaned.removesuffix("%").strip()
    weight = _exact_weight(cleaned)
    if weight is None:
        raise RecordError(f"weight {text[:20]!r} is not a number: expected such as 1/2, 0.5 or 50%")
    return weight / 100 if percent else weight


def _exact_weight(text: str) -> Fraction | None:
    """``1/3`` or a decimal as a fraction; ``None`` for anything else."""
    try:
        if "/" in text:
            top, _, bottom = text.partition("/")
            return Fraction(int(top), int(bottom))
        decimal = Decimal(text)
        # 1e-99999999 is short text but a huge fraction: no weight is that far from 1.
        if not decimal.is_finite() or not -12 <= decimal.adjusted() <= 3:
            return None
        return Fraction(decimal)
    except (ValueError, ZeroDivisionError, OverflowError, InvalidOperation):
        return None
