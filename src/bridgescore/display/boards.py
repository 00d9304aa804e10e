"""A board in a notebook: the ``_repr_html_`` of :class:`~bridgescore.Board` and
:class:`~bridgescore.BoardRecord`.

The heading (board, dealer, vulnerability), the compass diagram under the players'
names, then what is known: contract and result, auction, DD table, par, problems.
Built on :mod:`bridgescore.display.markup` (every text escaped, no scripts); it takes
the parts, not the record, so the two classes can both call it.
"""

from __future__ import annotations

from collections.abc import Sequence

from bridgescore.core import Seat, Vulnerability
from bridgescore.ddtable import DDTable, Par
from bridgescore.deal import SUITS, Deal
from bridgescore.display.markup import Markup, compass_html, hand_html, holding_html, text_html
from bridgescore.display.wording import dealer_words, vulnerability_words
from bridgescore.errors import InvalidTableError

__all__ = ["board_html", "dd_table_html", "deal_html"]


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


def board_html(
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
