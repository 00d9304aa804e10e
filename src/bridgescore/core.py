"""Bridge values: seats, sides, strains, doubling, vulnerability and contracts.

These are small immutable values. The enums are :class:`~enum.IntEnum` so they
index arrays directly (``Seat`` N=0, E=1, S=2, W=3; ``Strain`` C=0 .. NT=4).
Each has a text pair: ``X.parse(text)`` and ``str(x)``.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from bridgescore.errors import NotationError
from bridgescore.validate import enum_arg, is_whole_number

__all__ = [
    "Contract",
    "Doubling",
    "Seat",
    "Side",
    "Strain",
    "Vulnerability",
    "dealer_of_board",
]


class Side(enum.IntEnum):
    """A partnership: North-South or East-West."""

    NS = 0
    EW = 1

    @property
    def opponents(self) -> Side:
        """The other side."""
        return _SIDES[1 - self]

    @property
    def seats(self) -> tuple[Seat, Seat]:
        """The two seats of the side, North or East first."""
        return (_SEATS[self], _SEATS[self + 2])

    @classmethod
    def parse(cls, text: str) -> Side:
        """``Side.parse("ns")`` is ``Side.NS``; also accepts ``N-S`` and ``E/W``."""
        key = re.sub(r"[\s\-/]", "", str(text)).upper()
        if key in ("NS", "SN"):
            return cls.NS
        if key in ("EW", "WE"):
            return cls.EW
        raise NotationError(f"unknown side {text!r}: expected NS or EW")

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Side.{self.name}"


class Seat(enum.IntEnum):
    """A player's seat. Values follow the order of play: N=0, E=1, S=2, W=3."""

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    # The answers below are looked up in tuples of members rather than computed
    # with Seat(...): an enum call costs a Python frame, and auctions and plays ask
    # for these on every call and card.

    @property
    def side(self) -> Side:
        """The side this seat belongs to."""
        return _SIDES[self & 1]

    @property
    def partner(self) -> Seat:
        return _ROTATED[self][2]

    @property
    def lho(self) -> Seat:
        """Left-hand opponent: the next seat in the order of play."""
        return _ROTATED[self][1]

    @property
    def rho(self) -> Seat:
        """Right-hand opponent: the previous seat in the order of play."""
        return _ROTATED[self][3]

    @property
    def letter(self) -> str:
        return "NESW"[self]

    @property
    def full_name(self) -> str:
        """``North``, ``East``, ``South`` or ``West``, as messages and reports write it."""
        return self.name.capitalize()

    def rotate(self, steps: int = 1) -> Seat:
        """The seat ``steps`` places clockwise (N -> E for one step)."""
        return _ROTATED[self][steps % 4]

    @classmethod
    def parse(cls, text: str) -> Seat:
        """``Seat.parse("n")`` or ``Seat.parse("North")`` is ``Seat.NORTH``."""
        key = str(text).strip().upper()
        for seat in cls:
            if key in (seat.letter, seat.name):
                return seat
        raise NotationError(f"unknown seat {text!r}: expected N, E, S or W")

    def __str__(self) -> str:
        return self.letter

    def __repr__(self) -> str:
        return f"Seat.{self.name}"


_SIDES = (Side.NS, Side.EW)
_SEATS = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
# _ROTATED[seat][steps]: the seat ``steps`` places clockwise of ``seat``.
_ROTATED = tuple(tuple(_SEATS[(seat + steps) % 4] for steps in range(4)) for seat in range(4))


class Strain(enum.IntEnum):
    """A denomination, ordered by rank: clubs lowest, notrump highest."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    NOTRUMP = 4

    @property
    def letter(self) -> str:
        """``C``, ``D``, ``H``, ``S`` or ``NT``."""
        return _STRAIN_LETTERS[self]

    @property
    def symbol(self) -> str:
        """``♣``, ``♦``, ``♥``, ``♠`` or ``NT``."""
        return _STRAIN_SYMBOLS[self]

    @property
    def is_minor(self) -> bool:
        return self <= Strain.DIAMONDS

    @property
    def is_major(self) -> bool:
        return self in (Strain.HEARTS, Strain.SPADES)

    @classmethod
    def parse(cls, text: str) -> Strain:
        """``Strain.parse("nt")``, ``Strain.parse("N")``, ``Strain.parse("♠")``."""
        key = str(text).strip().upper()
        strain = _STRAIN_WORDS.get(key)
        if strain is None:
            raise NotationError(f"unknown strain {text!r}: expected C, D, H, S or NT (or ♣ ♦ ♥ ♠)")
        return strain

    def __str__(self) -> str:
        return self.letter

    def __repr__(self) -> str:
        return f"Strain.{self.name}"


_STRAIN_LETTERS = ("C", "D", "H", "S", "NT")
_STRAIN_SYMBOLS = ("♣", "♦", "♥", "♠", "NT")
_STRAIN_WORDS: dict[str, Strain] = {
    **{letter: Strain(i) for i, letter in enumerate(_STRAIN_LETTERS)},
    **{symbol: Strain(i) for i, symbol in enumerate(_STRAIN_SYMBOLS[:4])},
    "♧": Strain.CLUBS,
    "♢": Strain.DIAMONDS,
    "♡": Strain.HEARTS,
    "♤": Strain.SPADES,
    "N": Strain.NOTRUMP,
    "NOTRUMP": Strain.NOTRUMP,
    "NOTRUMPS": Strain.NOTRUMP,
    **{
        name + plural: Strain[name + "S"]
        for name in ("CLUB", "DIAMOND", "HEART", "SPADE")
        for plural in ("", "S")
    },
}


class Doubling(enum.IntEnum):
    """Undoubled, doubled (X) or redoubled (XX)."""

    UNDOUBLED = 0
    DOUBLED = 1
    REDOUBLED = 2

    @property
    def multiplier(self) -> int:
        """1, 2 or 4: the factor on trick score (Law 77)."""
        return 1 << self

    @classmethod
    def parse(cls, text: str) -> Doubling:
        """``""`` is undoubled, ``X``/``*``/``Dbl`` doubled, ``XX``/``**``/``Rdbl`` redoubled."""
        key = str(text).strip().upper()
        for doubling, words in _DOUBLING_WORDS.items():
            if key in words:
                return doubling
        raise NotationError(f"unknown doubling {text!r}: expected '', X or XX")

    def __str__(self) -> str:
        return ("", "X", "XX")[self]

    def __repr__(self) -> str:
        return f"Doubling.{self.name}"


_DOUBLING_WORDS = {
    Doubling.UNDOUBLED: ("",),
    Doubling.DOUBLED: ("X", "*", "DBL", "DOUBLED"),
    Doubling.REDOUBLED: ("XX", "**", "RDBL", "REDOUBLED"),
}


class Vulnerability(enum.IntEnum):
    """Who is vulnerable on a board."""

    NONE = 0
    NS = 1
    EW = 2
    BOTH = 3

    def is_vulnerable(self, who: Side | Seat | str) -> bool:
        """Whether a side (or the side of a seat) is vulnerable.

        ``who`` is a ``Side`` or a ``Seat``, or the text of either (``"NS"``,
        ``"E"``: no word is both), or a side's number.

        >>> Vulnerability.NS.is_vulnerable("S"), Vulnerability.NS.is_vulnerable("EW")
        (True, False)
        """
        if isinstance(who, Seat):
            side = who.side
        elif isinstance(who, str) and _is_seat_text(who):
            side = Seat.parse(who).side
        else:
            try:
                side = enum_arg(Side, who, "who")
            except NotationError:
                # enum_arg's words name the sides only; a seat is as good here.
                raise NotationError(
                    f"who must be NS or EW, or a seat (N, E, S or W), got {who!r}"
                ) from None
        return bool(self & (1 << side))

    @classmethod
    def from_board(cls, board: int) -> Vulnerability:
        """The vulnerability of a duplicate board number (Law 2; repeats every 16)."""
        _check_board(board)
        b = board - 1
        return _BOARD_VULNERABILITY[(b + b // 4) % 4]

    @classmethod
    def from_pbn(cls, word: str) -> Vulnerability:
        """PBN's ``Vulnerable`` tag: None/Love/-, NS, EW, All/Both, in any case."""
        key = str(word).strip().upper()
        for vulnerability, words in _VULNERABILITY_WORDS.items():
            if key in words:
                return vulnerability
        raise NotationError(
            f"unknown vulnerability {word!r}: expected None, NS, EW or Both (or Love, -, All)"
        )

    @classmethod
    def parse(cls, text: str) -> Vulnerability:
        """The same words as :meth:`from_pbn`."""
        return cls.from_pbn(text)

    @classmethod
    def from_sides(cls, ns: bool, ew: bool) -> Vulnerability:
        return cls(int(ns) | int(ew) << 1)

    def to_pbn(self) -> str:
        """The PBN export form: ``None``, ``NS``, ``EW`` or ``All``."""
        return ("None", "NS", "EW", "All")[self]

    def __str__(self) -> str:
        return ("None", "NS", "EW", "Both")[self]

    def __repr__(self) -> str:
        return f"Vulnerability.{self.name}"


def _is_seat_text(text: str) -> bool:
    try:
        Seat.parse(text)
    except NotationError:
        return False
    return True


_BOARD_VULNERABILITY = (Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW, Vulnerability.BOTH)
_VULNERABILITY_WORDS = {
    Vulnerability.NONE: ("NONE", "LOVE", "-", "NIL"),
    Vulnerability.NS: ("NS", "N-S", "N/S"),
    Vulnerability.EW: ("EW", "E-W", "E/W"),
    Vulnerability.BOTH: ("ALL", "BOTH"),
}


def _check_board(board: int) -> None:
    if not is_whole_number(board, 1):
        raise NotationError(f"board number {board!r} is not valid: expected a whole number >= 1")


def dealer_of_board(board: int) -> Seat:
    """The dealer of a duplicate board: N, E, S, W in turn from board 1 (Law 2)."""
    _check_board(board)
    return Seat((board - 1) % 4)


# The contract grammar, shared with parse_result (notation.py), which reads a
# result as a contract followed by its outcome. Each piece matches at a
# position, so the reader can report where the text stops being a contract.
_LEVEL = re.compile(r"\s*([0-9]+)")
_STRAIN = re.compile(
    r"\s*(NO\s*TRUMPS?|SPADES?|HEARTS?|DIAMONDS?|CLUBS?|NT|N|S|H|D|C|♠|♥|♦|♣|♤|♡|♢|♧)", re.I
)
DOUBLING_PATTERN = re.compile(r"\s*(XX|X|\*\*|\*|RDBL|DBL|REDOUBLED|DOUBLED)", re.I)
DECLARER_PATTERN = re.compile(r"\s*(?:BY\s*)?(NORTH|EAST|SOUTH|WEST|N|E|S|W)(?![A-WYZ])", re.I)


def read_contract(text: str, *, source: str, what: str = "contract") -> tuple[Contract, int]:
    """Read a contract from the start of ``text``; return it and where it ends.

    The grammar is: a level, a strain (letter, symbol or word), an optional
    doubling (``X``, ``*``, ``Dbl``, ``doubled`` ...), then an optional declarer
    (``N``, ``North``, ``by N``), which may come before the doubling (``4S N X``).
    ``source`` is the text as the user gave it, quoted in errors; ``what`` names
    what was being read (``"contract"`` or ``"result"``) in the error messages.
    """
    level_match = _LEVEL.match(text)
    if level_match is None:
        raise NotationError(
            f"not a {what}: {source!r}: expected a contract level 1-7 first, "
            f"as in {_EXAMPLES[what]}"
        )
    # int() refuses over 4,300 digits; a level of three digits is impossible anyway.
    digits = level_match.group(1).lstrip("0") or "0"
    level = int(digits) if len(digits) <= 2 else 0
    if not 1 <= level <= 7:
        raise NotationError(
            f"impossible level {level_match.group(1)} in {source!r}: expected a level from 1 to 7"
        )
    strain_match = _STRAIN.match(text, level_match.end())
    if strain_match is None:
        found = text[level_match.end() :].strip()[:1] or "nothing"
        raise NotationError(
            f"unknown strain {found!r} in {source!r}: expected C, D, H, S or NT "
            "(or ♣ ♦ ♥ ♠) after the level"
        )
    strain = Strain.parse(re.sub(r"\s+", "", strain_match.group(1)))
    pos = strain_match.end()
    doubling = Doubling.UNDOUBLED
    doubling_match = DOUBLING_PATTERN.match(text, pos)
    if doubling_match is not None:
        doubling = Doubling.parse(doubling_match.group(1))
        pos = doubling_match.end()
    declarer: Seat | None = None
    declarer_match = DECLARER_PATTERN.match(text, pos)
    if declarer_match is not None:
        declarer = Seat.parse(declarer_match.group(1))
        pos = declarer_match.end()
        # "4S N X": a doubling written after the declarer still belongs to the contract.
        late = DOUBLING_PATTERN.match(text, pos)
        if late is not None:
            if doubling is not Doubling.UNDOUBLED:
                raise NotationError(f"{source!r} gives the doubling twice: expected it once")
            doubling = Doubling.parse(late.group(1))
            pos = late.end()
    return Contract(level, strain, doubling, declarer), pos


_EXAMPLES = {
    "contract": "'4SX', '3NT by N' or '4 spades X'",
    "result": "'4SX+1', '3NT=' or 'Pass'",
}


@dataclass(frozen=True, slots=True)
class Contract:
    """A final contract: level 1-7, strain, doubling and (optionally) declarer.

    Equality covers every field: ``4SX`` is not ``4S``, and ``4SN`` is not ``4S``.

    >>> Contract.parse("4SX")
    Contract.parse('4SX')
    >>> str(Contract(4, Strain.SPADES, Doubling.DOUBLED, Seat.NORTH))
    '4SXN'
    """

    level: int
    strain: Strain
    doubling: Doubling = Doubling.UNDOUBLED
    declarer: Seat | None = None

    def __post_init__(self) -> None:
        level = self.level
        if type(level) is not int or not 1 <= level <= 7:
            if not is_whole_number(level):
                raise NotationError(f"contract level {level!r} is not a whole number 1-7")
            if not 1 <= level <= 7:
                raise NotationError(f"contract level {level} is impossible: expected 1 to 7")
        # Accept the enums' text and numbers (the package's one rule, enum_arg) but
        # store the enums, so equality and hashing never depend on how the value
        # was built. (Members already are the enums: the type test spares the call
        # readers would pay for every contract.)
        if type(self.strain) is not Strain:
            object.__setattr__(self, "strain", enum_arg(Strain, self.strain, "strain"))
        if type(self.doubling) is not Doubling:
            try:
                object.__setattr__(self, "doubling", Doubling(self.doubling))
            except ValueError as error:
                raise NotationError(f"invalid contract field: {error}") from None
        if self.declarer is not None and type(self.declarer) is not Seat:
            object.__setattr__(self, "declarer", enum_arg(Seat, self.declarer, "declarer"))

    @property
    def tricks_needed(self) -> int:
        """Tricks declarer must take: level + 6."""
        return self.level + 6

    @property
    def rank(self) -> int:
        """Position among the 35 bids, 0 for 1C up to 34 for 7NT."""
        return (self.level - 1) * 5 + self.strain

    @property
    def side(self) -> Side | None:
        """The declaring side, when declarer is known."""
        return None if self.declarer is None else self.declarer.side

    def with_declarer(self, declarer: Seat | None) -> Contract:
        return Contract(self.level, self.strain, self.doubling, declarer)

    @classmethod
    def parse(cls, text: str) -> Contract:
        """Parse ``4S``, ``4♠x``, ``3N``, ``6NTXX``, ``4SXN``, ``4S by N``, ``4 spades X``.

        The grammar is the one :func:`~bridgescore.parse_result` reads before
        the outcome (see :func:`read_contract`).

        Raises :class:`NotationError` naming the text when it is not a contract.
        """
        if not isinstance(text, str):
            raise NotationError(f"contract must be text, not {type(text).__name__}: {text!r}")
        contract, pos = read_contract(text, source=text)
        rest = text[pos:].strip()
        if rest:
            raise NotationError(
                f"unexpected {rest!r} in {text!r}: expected a contract such as "
                f"{_EXAMPLES['contract']}"
            )
        return contract

    def format(self, *, symbols: bool = False) -> str:
        """The canonical text, with suit symbols if asked: ``4♠XN``."""
        strain = self.strain.symbol if symbols else self.strain.letter
        declarer = "" if self.declarer is None else self.declarer.letter
        return f"{self.level}{strain}{self.doubling}{declarer}"

    def to_pbn(self) -> str:
        """PBN's ``Contract`` tag value (declarer goes in its own tag)."""
        return f"{self.level}{self.strain.letter}{self.doubling}"

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"Contract.parse({self.format()!r})"
