"""HTML fragments for notebooks: suit symbols, hands, a compass, tables.

Plain HTML with inline styles (a notebook keeps no style sheet of ours), never a
script. Every text is escaped unless it is :class:`Markup`, the fragments these
functions build; so a player's name such as ``<b>Ann</b>`` shows as written.

>>> strain_html(Strain.HEARTS)
Markup('<span style="color:#c00000">♥</span>')
>>> ">A &amp; B</td>" in table_html(["Pair", "Total"], [["A & B", "7"]], numeric={1})
True
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from html import escape

from bridgescore.core import Contract, Seat, Strain

__all__ = [
    "Markup",
    "card_html",
    "compass_html",
    "contract_html",
    "hand_html",
    "holding_html",
    "strain_html",
    "table_html",
    "text_html",
]

# Red and black as printed hand records show the suits.
_RED = "#c00000"
_BLACK = "#000000"
# "10" reads better than "T" for people; files keep "T".
_RANK_TEXT = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
_CELL = "padding:1px 6px;"
_TABLE = 'class="bridgescore" style="border-collapse:collapse"'


class Markup(str):
    """Text that is already HTML (built here, its texts escaped): passed through as is."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Markup({str.__repr__(self)})"


def text_html(text: str | Markup) -> Markup:
    """``text`` escaped, unless it is already :class:`Markup`."""
    return text if isinstance(text, Markup) else Markup(escape(str(text)))


def strain_html(strain: Strain) -> Markup:
    """A suit symbol, hearts and diamonds in red; ``NT`` for notrump."""
    if strain is Strain.NOTRUMP:
        return Markup("NT")
    colour = _RED if strain in (Strain.HEARTS, Strain.DIAMONDS) else _BLACK
    return Markup(f'<span style="color:{colour}">{strain.symbol}</span>')


def card_html(suit: Strain, rank: int) -> Markup:
    """One card: its suit symbol (hearts and diamonds in red) and rank (2..14), ``♠10``."""
    return Markup(f"{strain_html(suit)}{_RANK_TEXT.get(rank, str(rank))}")


def holding_html(suit: Strain, ranks: Iterable[int]) -> Markup:
    """One suit of a hand: ``♠ A K Q`` (ranks 2..14, highest first as given; ``—`` void)."""
    cards = " ".join(_RANK_TEXT.get(rank, str(rank)) for rank in ranks)
    return Markup(f"{strain_html(suit)} {cards or '—'}")


def hand_html(holdings: Sequence[Markup], label: str | Markup = "") -> Markup:
    """A hand: an optional label (the seat, a player's name) over one line per suit."""
    lines = [f"<div>{line}</div>" for line in holdings]
    if label:
        lines.insert(0, f"<div><b>{text_html(label)}</b></div>")
    return Markup('<div class="hand" style="white-space:nowrap">' + "".join(lines) + "</div>")


def compass_html(hands: Mapping[Seat, Markup], centre: str | Markup = "") -> Markup:
    """The four hands round a table: North on top, West and East either side, South below."""

    def cell(content: str, align: str = "left") -> str:
        return f'<td style="{_CELL}vertical-align:top;text-align:{align}">{content}</td>'

    middle = text_html(centre) if centre else Markup("")
    rows = [
        (cell(""), cell(hands[Seat.NORTH]), cell("")),
        (cell(hands[Seat.WEST]), cell(middle, "center"), cell(hands[Seat.EAST])),
        (cell(""), cell(hands[Seat.SOUTH]), cell("")),
    ]
    body = "".join("<tr>" + "".join(row) + "</tr>" for row in rows)
    return Markup(
        f'<table class="bridgescore deal" style="border-collapse:collapse">{body}</table>'
    )


def contract_html(contract: Contract) -> Markup:
    """``4♠XN``: level, suit symbol, doubling and declarer (when known)."""
    declarer = "" if contract.declarer is None else contract.declarer.letter
    return Markup(f"{contract.level}{strain_html(contract.strain)}{contract.doubling}{declarer}")


def table_html(
    headers: Sequence[str | Markup],
    rows: Iterable[Sequence[str | Markup]],
    *,
    numeric: Collection[int] = (),
    caption: str | Markup = "",
) -> Markup:
    """A table: a header row, then ``rows``; columns in ``numeric`` aligned right."""

    def cells(tag: str, values: Sequence[str | Markup]) -> str:
        return "".join(
            f'<{tag} style="{_CELL}text-align:{"right" if i in numeric else "left"}">'
            f"{text_html(value)}</{tag}>"
            for i, value in enumerate(values)
        )

    parts = [f"<table {_TABLE}>"]
    if caption:
        parts.append(f'<caption style="text-align:left">{text_html(caption)}</caption>')
    parts.append(f"<thead><tr>{cells('th', headers)}</tr></thead><tbody>")
    parts.extend(f"<tr>{cells('td', row)}</tr>" for row in rows)
    parts.append("</tbody></table>")
    return Markup("".join(parts))
