"""A board: its number, its deal when known, who deals and who is vulnerable, and (once
given or analysed) its double-dummy table and par.

The one board value of the package. A board set (``bridgescore deal --boards``), a hand
record, an event's boards and a record read from a file
(:meth:`BoardRecord.as_board <bridgescore.formats.record.BoardRecord.as_board>`) all
give this value; :func:`bridgescore.formats.board.board_record` writes it to any format.

>>> Board(7).vulnerability, Board(7).dealer
(Vulnerability.BOTH, Seat.SOUTH)
>>> Board(13, dd_table=DDTable.parse("3322933229a7a4ca7a4c")).dd_table.tricks(Seat.EAST, 4)
10
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bridgescore.core import Seat, Vulnerability, dealer_of_board
from bridgescore.ddtable import DDTable, Par
from bridgescore.deal import SUITS, Deal
from bridgescore.display.markup import Markup, compass_html, hand_html, holding_html, text_html
from bridgescore.display.wording import dealer_words, vulnerability_words
from bridgescore.errors import InvalidTableError, NotationError, RecordError
from bridgescore.validate import enum_arg, whole_number_arg

__all__ = ["Board", "dd_table_html", "deal_html", "notebook_html"]


@dataclass(frozen=True, slots=True)
class Board:
    """One board: number, deal (``None``: the hand record is not known), and
    optionally its DD table and par.

    Dealer and vulnerability follow the board number (Law 2), unless given
    (``dealer_seat`` a ``Seat`` or its text such as ``"N"``, ``vulnerable`` a
    ``Vulnerability`` or its text such as ``"Both"``). A deal played outside a
    numbered set (a teaching hand, a file with no Board tag) has the number ``None``
    and gives both: :attr:`dealer` and :attr:`vulnerability` are always known.

    Values, not text: the hand record is read once, where it enters (a file, an
    import, the event file), and everything downstream uses the values.
    """

    number: int | None
    deal: Deal | None = None
    dd_table: DDTable | None = None
    par: Par | None = None
    dealer_seat: Seat | None = None
    vulnerable: Vulnerability | None = None

    def __post_init__(self) -> None:
        if self.number is not None:
            whole_number_arg(self.number, "board number", 1, error=NotationError)
        elif self.dealer_seat is None or self.vulnerable is None:
            # Law 2 gives them from the number; without one they must be given.
            raise RecordError(
                "a board without a number needs its dealer and its vulnerability: "
                "expected dealer_seat and vulnerable"
            )
        if self.deal is not None and not isinstance(self.deal, Deal):
            raise RecordError(
                f"{self._name}: the deal {self.deal!r} is not a Deal: "
                "read PBN text with Deal.from_pbn"
            )
        if self.dd_table is not None and not isinstance(self.dd_table, DDTable):
            raise RecordError(
                f"{self._name}: the double-dummy table {self.dd_table!r} is not a "
                "DDTable: read PBN DoubleDummyTricks with DDTable.parse"
            )
        if self.dealer_seat is not None:
            seat = enum_arg(Seat, self.dealer_seat, "dealer_seat")
            object.__setattr__(self, "dealer_seat", seat)
        if self.vulnerable is not None:
            vulnerable = enum_arg(Vulnerability, self.vulnerable, "vulnerable")
            object.__setattr__(self, "vulnerable", vulnerable)

    @property
    def dealer(self) -> Seat:
        """The seat that deals: the one given, else the board number's (Law 2)."""
        if self.dealer_seat is not None:
            return self.dealer_seat
        assert self.number is not None  # __post_init__: a board without one gives both
        return dealer_of_board(self.number)

    @property
    def vulnerability(self) -> Vulnerability:
        """Who is vulnerable: as given, else as the board number says (Law 2)."""
        if self.vulnerable is not None:
            return self.vulnerable
        assert self.number is not None
        return Vulnerability.from_board(self.number)

    @property
    def dealt(self) -> Deal:
        """The deal, for work that needs one (a hand record, a file of deals)."""
        if self.deal is None:
            raise RecordError(f"{self._name} has no deal: expected its hand record")
        return self.deal

    @property
    def numbered(self) -> int:
        """The number, for work that keys boards by it (an event's boards, a board
        set): :class:`~bridgescore.RecordError` for a board without one."""
        if self.number is None:
            raise RecordError("a board without a number: expected its board number")
        return self.number

    @property
    def _name(self) -> str:
        return "the board" if self.number is None else f"board {self.number}"

    def _repr_html_(self) -> str:
        """The board in a notebook: heading, compass diagram, DD table and par when known."""
        table = None if self.dd_table is None else Markup(self.dd_table._repr_html_())
        return notebook_html(
            self.number, self.dealer, self.vulnerability, self.deal, table=table, par=self.par
        )

    def with_analysis(self, table: DDTable, result: Par) -> Board:
        return replace(self, dd_table=table, par=result)


# -- a board in a notebook ------------------------------------------------------------
# The heading (board, dealer, vulnerability), the compass diagram under the players'
# names, then what is known: contract and result, auction, DD table, par, problems.
# Built on display/markup.py (every text escaped, no scripts); it takes the parts, not
# the board, so that BoardRecord's _repr_html_ shows a record the same way.


def deal_html(deal: Deal, players: Sequence[str] = ("", "", "", "")) -> Markup:
    """The compass diagram, each hand under its seat's name and its player's, if known."""
    hands = {}
    for seat in Seat:
        name = players[seat]
        label = f"{seat.full_name}: {name}" if name else seat.full_name
        hand = deal[seat]
        hands[seat] = hand_html([holding_html(suit, hand.suit(suit)) for suit in SUITS], label)
    return compass_html(hands)


def dd_table_html(text: str) -> Markup:
    """A file's DoubleDummyTricks as a grid, or as written when it is not 20 hex digits."""
    try:
        return Markup(DDTable.parse(text)._repr_html_())
    except InvalidTableError:
        return Markup(f"<div>DD tricks: {text_html(text)}</div>")


def notebook_html(
    number: int | None,
    dealer: Seat | None,
    vulnerability: Vulnerability | None,
    deal: Deal | None,
    *,
    players: Sequence[str] = ("", "", "", ""),
    lines: Sequence[str | Markup] = (),
    table: Markup | None = None,
    par: Par | None = None,
) -> Markup:
    """A board: heading, diagram (or "no deal"), ``lines`` of facts, the DD table, par."""
    heading = [f"Board {number}" if number is not None else "Board"]
    if dealer is not None:
        heading.append(dealer_words(dealer))
    if vulnerability is not None:
        heading.append(vulnerability_words(vulnerability))
    parts = [f"<div><b>{text_html(' · '.join(heading))}</b></div>"]
    parts.append(deal_html(deal, players) if deal is not None else "<div>no deal</div>")
    parts.extend(f"<div>{text_html(line)}</div>" for line in lines)
    if table is not None:
        parts.append(table)
    if par is not None:
        parts.append(par._repr_html_())
    return Markup('<div class="bridgescore board">' + "".join(parts) + "</div>")
