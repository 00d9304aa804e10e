"""The double-dummy values of a deal: the table of tricks each seat takes as declarer
in each strain, and the par it gives (:class:`Par`, :class:`ParContract`; worked out
by :func:`bridgescore.par`).

The text form is PBN's ``DoubleDummyTricks``: 20 hex digits, declarers N, S, E,
W, each in the order NT, S, H, D, C. The array form is shaped (4, 5) and indexed
by ``Seat`` (N=0, E=1, S=2, W=3) and ``Strain`` (C=0 .. NT=4) values.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from bridgescore.core import Contract, Seat, Side, Strain
from bridgescore.display.markup import Markup, strain_html, table_html, text_html
from bridgescore.errors import InvalidTableError, NotationError
from bridgescore.notation import parse_result
from bridgescore.validate import enum_arg, is_whole_number

__all__ = [
    "OPTIMUM_RESULT_TABLE_COLUMNS",
    "PBN_SEAT_ORDER",
    "PBN_STRAIN_ORDER",
    "Convention",
    "DDTable",
    "Par",
    "ParContract",
]

Convention = Literal["neutral", "dealer"]
"""The par conventions: ``neutral`` (either side may bid first) or ``dealer`` (the
dealer's side bids first)."""

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


# -- par, as a value (worked out in bridgescore.parscore) ---------------------------

_PAR_CONTRACT_RE = re.compile(r"^\s*(?P<result>.+?)\s+(?P<who>NS|EW|[NESW])\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ParContract:
    """One par contract: the contract, who may declare it, and its result.

    ``contract`` has no declarer; ``declarers`` is one seat, or both seats of the
    side when either partner takes the same number of tricks; ``relative`` is the
    result against the contract (``+1``, ``0``, ``-2``).

    >>> ParContract.parse("5HX-2 NS").declarers
    (Seat.NORTH, Seat.SOUTH)
    >>> str(ParContract(Contract(4, Strain.SPADES), (Seat.NORTH,), 1))
    '4S+1 N'
    """

    contract: Contract
    declarers: tuple[Seat, ...]
    relative: int

    def __post_init__(self) -> None:
        contract = self.contract
        if not isinstance(contract, Contract) or contract.declarer is not None:
            raise NotationError(
                f"a par contract needs a Contract without declarer, got {contract!r}"
            )
        declarers = tuple(enum_arg(Seat, seat, "declarers") for seat in self.declarers)
        if not declarers or len(declarers) > 2 or len({seat.side for seat in declarers}) != 1:
            raise NotationError(
                f"par contract {contract} declarers {self.declarers!r}: expected one seat "
                "or both seats of one side"
            )
        if len(declarers) == 2 and declarers[0] == declarers[1]:
            raise NotationError(f"par contract {contract} names {declarers[0]} twice")
        object.__setattr__(self, "declarers", tuple(sorted(declarers)))
        relative = self.relative
        if not is_whole_number(relative):
            raise NotationError(f"result of {contract} must be a whole number, got {relative!r}")
        if not -contract.tricks_needed <= relative <= 13 - contract.tricks_needed:
            raise NotationError(
                f"{contract} with result {relative:+d} is impossible: expected "
                f"{-contract.tricks_needed} to {13 - contract.tricks_needed:+d}"
            )

    @property
    def side(self) -> Side:
        """The declaring side."""
        return self.declarers[0].side

    @property
    def tricks(self) -> int:
        """Tricks declarer takes double-dummy."""
        return self.contract.tricks_needed + self.relative

    @classmethod
    def parse(cls, text: str) -> ParContract:
        """Read ``6C= NS``, ``5HX-2 S``, ``4S+1 N`` (the form ``str`` writes)."""
        if not isinstance(text, str):
            raise NotationError(f"a par contract must be text, not {text!r}")
        match = _PAR_CONTRACT_RE.match(text)
        if match is None:
            raise NotationError(
                f"not a par contract: {text!r}: expected a result and its declarer(s), "
                "as in '6C= NS' or '5HX-2 N'"
            )
        who = match["who"].upper()
        declarers = Side.parse(who).seats if len(who) == 2 else (Seat.parse(who),)
        try:
            result = parse_result(match["result"])
        except NotationError as error:
            raise NotationError(f"not a par contract: {text!r}: {error}") from None
        if result.contract is None or result.tricks is None:
            raise NotationError(f"not a par contract: {text!r}: a par contract is not a pass")
        if result.contract.declarer is not None:
            raise NotationError(f"{text!r} names the declarer twice: expected it once, at the end")
        return cls(result.contract, declarers, result.relative)

    def __str__(self) -> str:
        contract = self.contract
        relative = self.relative
        outcome = "=" if relative == 0 else f"{relative:+d}"
        who = self.declarers[0].letter if len(self.declarers) == 1 else self.side.name
        return f"{contract.level}{contract.strain.letter}{contract.doubling}{outcome} {who}"

    def __repr__(self) -> str:
        return f"ParContract.parse({str(self)!r})"

    def _html(self) -> Markup:
        """:meth:`__str__` with the suit as a coloured symbol: ``6♣= NS``."""
        level, strain = self.contract.level, self.contract.strain
        # What __str__ writes after the level (one digit) and the strain's letter:
        # doubling, result and declarer(s).
        rest = str(self)[1 + len(strain.letter) :]
        return Markup(f"{level}{strain_html(strain)}{text_html(rest)}")


@dataclass(frozen=True, slots=True)
class Par:
    """The par of a deal: the score (North-South's view), its contracts and convention.

    ``contracts`` are in rank order; empty when the deal is passed out.

    >>> str(Par(920, (ParContract.parse("6C= NS"),)))
    'NS +920: 6C= NS'
    """

    score: int
    contracts: tuple[ParContract, ...]
    convention: Convention = "neutral"

    def __post_init__(self) -> None:
        if self.convention not in ("neutral", "dealer"):
            raise NotationError(
                f"par convention {self.convention!r}: expected 'neutral' or 'dealer'"
            )

    @property
    def side(self) -> Side | None:
        """The side that scores plus, or None when passed out."""
        if self.score == 0:
            return None
        return Side.NS if self.score > 0 else Side.EW

    @property
    def is_passed_out(self) -> bool:
        return self.score == 0

    def as_dict(self) -> dict[str, object]:
        """``{"score": 920, "convention": "neutral", "contracts": ["6C= NS"]}`` for JSON."""
        return {
            "score": self.score,
            "convention": self.convention,
            "contracts": [str(contract) for contract in self.contracts],
        }

    def _repr_html_(self) -> str:
        """``Par NS +920: 6♣= NS`` in a notebook, suits as coloured symbols."""
        if not self.contracts:
            return Markup(f"<div>Par {text_html(str(self))}</div>")
        side = self.side
        assert side is not None
        contracts = ", ".join(contract._html() for contract in self.contracts)
        return Markup(f"<div>Par {side.name} +{abs(self.score)}: {contracts}</div>")

    def __str__(self) -> str:
        if not self.contracts:
            return f"{self.score}: passed out" if self.score == 0 else f"{self.score:+d}"
        side = self.side
        assert side is not None
        return f"{side.name} +{abs(self.score)}: " + ", ".join(map(str, self.contracts))
