"""Double-dummy tables: the tricks each seat takes as declarer in each strain.

The text form is PBN's ``DoubleDummyTricks``: 20 hex digits, declarers N, S, E,
W, each in the order NT, S, H, D, C. The array form is shaped (4, 5) and indexed
by ``Seat`` (N=0, E=1, S=2, W=3) and ``Strain`` (C=0 .. NT=4) values.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from bridgescore.core import Seat, Strain
from bridgescore.errors import InvalidTableError

__all__ = ["PBN_SEAT_ORDER", "PBN_STRAIN_ORDER", "DDTable"]

PBN_SEAT_ORDER = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
PBN_STRAIN_ORDER = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
_HEX = re.compile(r"[0-9a-fA-F]{20}")


Row = tuple[int, int, int, int, int]


def _rows(rows: Sequence[Sequence[int]]) -> tuple[Row, ...]:
    # Shape problems are reported by DDTable itself; this only freezes the lists.
    return tuple(tuple(row) for row in rows)  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class DDTable:
    """Tricks for each (declarer seat, strain): ``rows[seat][strain]``, each 0..13.

    >>> table = DDTable.parse("78697786976573665746")
    >>> table.tricks(Seat.NORTH, Strain.NOTRUMP)
    7
    >>> str(table)
    '78697786976573665746'
    """

    rows: tuple[Row, ...]

    def __post_init__(self) -> None:
        rows = self.rows
        if not isinstance(rows, tuple) or len(rows) != 4:
            raise InvalidTableError(f"a double-dummy table needs 4 rows (N, E, S, W), got {rows!r}")
        for seat, row in zip(Seat, rows, strict=True):
            if not isinstance(row, tuple) or len(row) != 5:
                raise InvalidTableError(
                    f"row {seat.letter} of a double-dummy table needs 5 trick counts "
                    f"(C, D, H, S, NT), got {row!r}"
                )
            for strain, tricks in zip(Strain, row, strict=True):
                if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 13:
                    raise InvalidTableError(
                        f"{tricks!r} tricks for {seat.letter} in {strain.letter} is impossible: "
                        "expected a whole number 0 to 13"
                    )

    @classmethod
    def from_array(cls, array: npt.ArrayLike | Sequence[Sequence[int]]) -> DDTable:
        """From anything shaped (4, 5), indexed by ``Seat`` and ``Strain`` values."""
        try:
            values = np.asarray(array)
        except (TypeError, ValueError) as error:
            raise InvalidTableError(f"not a table of trick counts: {error}") from None
        if values.shape != (4, 5):
            raise InvalidTableError(
                f"a double-dummy table array must be shaped (4, 5), got {values.shape}"
            )
        if not np.issubdtype(values.dtype, np.integer):
            raise InvalidTableError(f"trick counts must be whole numbers, got dtype {values.dtype}")
        return cls(_rows([[int(v) for v in row] for row in values]))

    @classmethod
    def parse(cls, text: str) -> DDTable:
        """Read PBN's ``DoubleDummyTricks``: 20 hex digits, N S E W, each NT S H D C."""
        if not isinstance(text, str):
            raise InvalidTableError(f"a double-dummy table must be text, not {text!r}")
        clean = text.strip()
        if len(clean) != 20:
            raise InvalidTableError(
                f"{text!r} has {len(clean)} digits: expected 20 hex digits "
                "(declarers N, S, E, W, each NT, S, H, D, C)"
            )
        if not _HEX.fullmatch(clean):
            bad = next(ch for ch in clean if ch not in "0123456789abcdefABCDEF")
            raise InvalidTableError(f"{text!r} has the non-hex digit {bad!r}: expected 0-9 and a-d")
        rows = [[0] * 5 for _ in range(4)]
        for i, digit in enumerate(clean):
            seat = PBN_SEAT_ORDER[i // 5]
            strain = PBN_STRAIN_ORDER[i % 5]
            value = int(digit, 16)
            if value > 13:
                raise InvalidTableError(
                    f"{text!r}: digit {digit!r} ({value} tricks for {seat.letter} in "
                    f"{strain.letter}) is impossible: expected at most 13 (d)"
                )
            rows[seat][strain] = value
        return cls(_rows(rows))

    def tricks(self, declarer: Seat, strain: Strain) -> int:
        """Tricks ``declarer`` takes in ``strain``."""
        return self.rows[declarer][strain]

    def to_array(self) -> npt.NDArray[np.int8]:
        """A fresh (4, 5) int8 array indexed by ``Seat`` and ``Strain`` values."""
        return np.array(self.rows, dtype=np.int8)

    def rotate(self, steps: int = 1) -> DDTable:
        """The table with every seat moved ``steps`` places clockwise (N's tricks go to E)."""
        return DDTable(tuple(self.rows[(seat - steps) % 4] for seat in range(4)))

    def as_dict(self) -> dict[str, dict[str, int]]:
        """``{"N": {"NT": 7, "S": 8, ...}, ...}`` for JSON."""
        return {
            seat.letter: {strain.letter: self.rows[seat][strain] for strain in PBN_STRAIN_ORDER}
            for seat in PBN_SEAT_ORDER
        }

    def grid(self) -> str:
        """A text grid for people: rows NT, S, H, D, C; columns N, S, E, W."""
        lines = ["      N   S   E   W"]
        for strain in PBN_STRAIN_ORDER:
            cells = "".join(f"{self.rows[seat][strain]:>4}" for seat in PBN_SEAT_ORDER)
            lines.append(f"  {strain.letter:<2}{cells}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return "".join(
            f"{self.rows[seat][strain]:x}" for seat in PBN_SEAT_ORDER for strain in PBN_STRAIN_ORDER
        )

    def __repr__(self) -> str:
        return f"DDTable.parse({str(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickle by text: compact, and it re-validates on load.
        return (DDTable.parse, (str(self),))
