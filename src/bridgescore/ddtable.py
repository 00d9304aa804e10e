"""Double-dummy tables: the tricks each seat takes as declarer in each strain.

The text form is PBN's ``DoubleDummyTricks``: 20 hex digits, declarers N, S, E,
W, each in the order NT, S, H, D, C. The array form is shaped (4, 5) and indexed
by ``Seat`` (N=0, E=1, S=2, W=3) and ``Strain`` (C=0 .. NT=4) values.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from bridgescore.core import Seat, Strain
from bridgescore.display.markup import strain_html, table_html
from bridgescore.errors import InvalidTableError
from bridgescore.validate import enum_arg, is_whole_number

__all__ = ["OPTIMUM_RESULT_TABLE_COLUMNS", "PBN_SEAT_ORDER", "PBN_STRAIN_ORDER", "DDTable"]

PBN_SEAT_ORDER = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
PBN_STRAIN_ORDER = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
_HEX = re.compile(r"[0-9a-fA-F]{20}")

OPTIMUM_RESULT_TABLE_COLUMNS = "Declarer;Denomination\\2R;Result\\2R"
"""The column header of PBN's ``OptimumResultTable`` tag that we write."""
_TABLE_TAG = re.compile(r'\s*\[\s*OptimumResultTable\s+"(?P<columns>[^"]*)"\s*\]\s*', re.IGNORECASE)


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
                if not is_whole_number(tricks, 0, 13):
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

    def tricks(self, declarer: Seat | str, strain: Strain | str) -> int:
        """Tricks ``declarer`` takes in ``strain``: ``table.tricks(Seat.NORTH, Strain.SPADES)``
        or ``table.tricks("N", "S")``."""
        if type(declarer) is not Seat:
            declarer = enum_arg(Seat, declarer, "declarer")
        if type(strain) is not Strain:
            strain = enum_arg(Strain, strain, "strain")
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

    @classmethod
    def from_optimum_result_table(cls, text: str | Iterable[str]) -> DDTable:
        """Read PBN's ``OptimumResultTable``: one ``declarer strain tricks`` row per cell.

        ``text`` is the section (a string or its lines), optionally starting with
        the ``[OptimumResultTable "..."]`` tag line, whose column names (in any
        order) say where the declarer, denomination and result are. Rows may come
        in any order and spacing; all 20 cells must be given exactly once.

        >>> rows = [f"{seat} {strain} 7" for seat in "NSEW" for strain in "SHDC"]
        >>> rows += ["N NT 7", "S NT 7", "E NT 7", "W NT 7"]
        >>> str(DDTable.from_optimum_result_table(rows))
        '77777777777777777777'
        """
        lines = text.splitlines() if isinstance(text, str) else list(text)
        columns = OPTIMUM_RESULT_TABLE_COLUMNS
        numbered = [(n, line.strip()) for n, line in enumerate(lines, start=1) if line.strip()]
        if numbered and numbered[0][1].startswith("["):
            number, line = numbered.pop(0)
            tag = _TABLE_TAG.fullmatch(line)
            if tag is None:
                raise InvalidTableError(
                    f"line {number}: {line!r} is not an OptimumResultTable tag: expected "
                    f'[OptimumResultTable "{OPTIMUM_RESULT_TABLE_COLUMNS}"]'
                )
            columns = tag["columns"]
        names = [name.split("\\")[0].strip().lower() for name in columns.split(";")]
        try:
            where = [names.index(key) for key in ("declarer", "denomination", "result")]
        except ValueError:
            raise InvalidTableError(
                f"OptimumResultTable columns {columns!r} must name Declarer, Denomination "
                "and Result"
            ) from None
        cells: dict[tuple[Seat, Strain], int] = {}
        for number, line in numbered:
            words = line.split()
            if len(words) != len(names):
                raise InvalidTableError(
                    f"line {number}: {line!r} has {len(words)} value(s): expected "
                    f"{len(names)} ({columns})"
                )
            seat_word, strain_word, tricks_word = (words[i] for i in where)
            try:
                seat = Seat.parse(seat_word)
                strain = Strain.parse(strain_word)
            except ValueError as error:
                raise InvalidTableError(f"line {number}: {line!r}: {error}") from None
            # isascii(): str.isdigit() also accepts '²', which int() refuses.
            if (
                not (tricks_word.isascii() and tricks_word.isdigit())
                or int(tricks_word[-3:]) > 13  # int() refuses over 4,300 digits
                or tricks_word[:-3].strip("0")
            ):
                raise InvalidTableError(
                    f"line {number}: {line!r}: {tricks_word!r} tricks is impossible: "
                    "expected a whole number 0 to 13"
                )
            if (seat, strain) in cells:
                raise InvalidTableError(
                    f"line {number}: {line!r} gives {seat.letter} in {strain.letter} again"
                )
            cells[seat, strain] = int(tricks_word[-3:])
        missing = [
            f"{seat.letter} {strain.letter}"
            for seat in PBN_SEAT_ORDER
            for strain in PBN_STRAIN_ORDER
            if (seat, strain) not in cells
        ]
        if missing:
            raise InvalidTableError(
                f"OptimumResultTable has no row for {', '.join(missing)}: "
                "expected all 20 declarer and strain pairs"
            )
        return cls(_rows([[cells[seat, strain] for strain in Strain] for seat in Seat]))

    def to_optimum_result_table(self) -> str:
        """PBN's ``OptimumResultTable`` tag line and its 20 rows (N, S, E, W; NT, S, H, D, C).

        >>> DDTable.parse("78697786976573665746").to_optimum_result_table().splitlines()[:3]
        ['[OptimumResultTable "Declarer;Denomination\\\\2R;Result\\\\2R"]', 'N NT  7', 'N  S  8']
        """
        lines = [f'[OptimumResultTable "{OPTIMUM_RESULT_TABLE_COLUMNS}"]']
        for seat in PBN_SEAT_ORDER:
            for strain in PBN_STRAIN_ORDER:
                # The header's "\2R" asks for right-aligned columns two wide.
                lines.append(f"{seat.letter} {strain.letter:>2} {self.rows[seat][strain]:>2}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return "".join(
            f"{self.rows[seat][strain]:x}" for seat in PBN_SEAT_ORDER for strain in PBN_STRAIN_ORDER
        )

    def __repr__(self) -> str:
        return f"DDTable.parse({str(self)!r})"

    def _repr_html_(self) -> str:
        """The table in a notebook: the grid of :meth:`grid`, suits as coloured symbols."""
        rows = [
            [strain_html(strain), *(str(self.rows[seat][strain]) for seat in PBN_SEAT_ORDER)]
            for strain in PBN_STRAIN_ORDER
        ]
        headers = ["", *(seat.letter for seat in PBN_SEAT_ORDER)]
        return table_html(headers, rows, numeric={1, 2, 3, 4})

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickle by text: compact, and it re-validates on load.
        return (DDTable.parse, (str(self),))
