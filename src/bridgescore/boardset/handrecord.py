"""Hand records as HTML: the four hands in compass layout, DD table and par,
2, 4 or 6 boards to a printed page (A4 or US Letter), never a board split.

Pure: text in, text out. The same page prints to PDF through headless Chromium
(:mod:`bridgescore.boardset.pdf`); one self-contained file, no scripts.

>>> from bridgescore.boardset import DealSeed, deal_set
>>> page = hand_records_html(deal_set(DealSeed.from_test_number(1), [1, 2]), per_page=2)
>>> page.count('<article class="board"'), page.count('<section class="page"')
(2, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Literal

from bridgescore.board import Board
from bridgescore.core import Seat, Side, Strain
from bridgescore.ddtable import DDTable, Par, ParContract
from bridgescore.deal import RANK_CHARS, SUITS, Hand
from bridgescore.display.wording import dealer_words, vulnerability_words
from bridgescore.errors import InvalidArgumentError

__all__ = [
    "PAPERS",
    "PER_PAGE",
    "Paper",
    "board_html",
    "hand_record_css",
    "hand_records_html",
    "makeable_contracts",
    "par_html",
]

Paper = Literal["a4", "letter"]
PAPERS: tuple[Paper, ...] = ("a4", "letter")
PER_PAGE = (2, 4, 6)

# Printable area (mm) inside a 10 mm margin, and the CSS name of each paper.
_PAPER_SIZE = {"a4": ("A4", 190.0, 277.0), "letter": ("letter", 195.9, 259.4)}
# Boards per page -> (columns, rows, base font size in pt).
_GRID = {2: (1, 2, 15.0), 4: (2, 2, 12.5), 6: (2, 3, 9.5)}
_PAGE_HEADER_MM = 7.0
_MM_PER_POINT = 25.4 / 72
_STRAIN_ORDER = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
_SEAT_ORDER = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
_RED = (Strain.HEARTS, Strain.DIAMONDS)


def _strain_html(strain: Strain) -> str:
    if strain is Strain.NOTRUMP:
        return "NT"
    colour = "red" if strain in _RED else "black"
    return f'<span class="{colour}">{strain.symbol}</span>'


def _holding(hand: Hand, suit: Strain) -> str:
    ranks = hand.suit(suit)
    # "10" reads better than "T" on a printed hand record.
    return "".join("10" if r == 10 else RANK_CHARS[r - 2] for r in ranks) if ranks else "—"


def _hand_html(board: Board, seat: Seat) -> str:
    hand = board.dealt[seat]
    lines = "".join(
        f'<div class="holding">{_strain_html(suit)} {_holding(hand, suit)}</div>' for suit in SUITS
    )
    name = seat.name.title()
    return f'<div class="hand {seat.name.lower()}" aria-label="{name}">{lines}</div>'


def _compass(board: Board) -> str:
    """The table in the middle: each seat's HCP on its edge, the dealer marked,
    vulnerable sides' edges in red (as on a duplicate board)."""
    vulnerable = board.vulnerability
    classes = ["compass"]
    if vulnerable.is_vulnerable(Side.NS):
        classes.append("vul-ns")
    if vulnerable.is_vulnerable(Side.EW):
        classes.append("vul-ew")
    cells = []
    for seat in Seat:
        hcp = board.dealt[seat].hcp
        dealer = ' class="dealer" title="dealer"' if seat is board.dealer else ""
        cells.append(
            f'<span class="{seat.name.lower()[0]}" title="{seat.name.title()}: {hcp} HCP">'
            f"<i{dealer}>{seat.letter}</i><b>{hcp}</b></span>"
        )
    return f'<div class="{" ".join(classes)}">' + "".join(cells) + "</div>"


def _contract_html(contract: ParContract) -> str:
    who = contract.declarers[0].letter if len(contract.declarers) == 1 else contract.side.name
    outcome = "" if contract.relative == 0 else f"{contract.relative:+d}"
    level = contract.contract.level
    return (
        f"{level}{_strain_html(contract.contract.strain)}{contract.contract.doubling}"
        f"{outcome} {who}"
    )


def par_html(result: Par) -> str:
    """``Par NS +420: 4♠ N, 4♥ S`` with coloured suits; every par contract listed."""
    if not result.contracts:
        return "Par 0: passed out"
    side = "NS" if result.score > 0 else "EW"
    contracts = ", ".join(_contract_html(contract) for contract in result.contracts)
    return f"Par {side} +{abs(result.score)}: {contracts}"


def makeable_contracts(table: DDTable) -> dict[Side, list[tuple[int, Strain, tuple[Seat, ...]]]]:
    """For each side, the highest makeable level in each strain (NT, ♠, ♥, ♦, ♣
    order) and which partner(s) make it; strains where the side makes no
    contract are left out.

    >>> made = makeable_contracts(DDTable.parse("87788877884655556555"))
    >>> [(level, strain.letter) for level, strain, _ in made[Side.NS]], made[Side.EW]
    ([(2, 'NT'), (1, 'S'), (1, 'H'), (2, 'D'), (2, 'C')], [])
    """
    result: dict[Side, list[tuple[int, Strain, tuple[Seat, ...]]]] = {}
    for side in Side:
        entries: list[tuple[int, Strain, tuple[Seat, ...]]] = []
        for strain in _STRAIN_ORDER:
            tricks = {seat: table.tricks(seat, strain) for seat in side.seats}
            best = max(tricks.values())
            if best >= 7:
                who = tuple(seat for seat in side.seats if tricks[seat] == best)
                entries.append((best - 6, strain, who))
        result[side] = entries
    return result


def _makeable_html(table: DDTable) -> str:
    parts = []
    for side, entries in makeable_contracts(table).items():
        words = [
            f"{level}{_strain_html(strain)}"
            + ("" if len(who) == 2 else f"<sub>{who[0].letter}</sub>")
            for level, strain, who in entries
        ]
        parts.append(f"{side.name} {' '.join(words) if words else '—'}")
    return '<p class="makeable">Makeable: ' + "; ".join(parts) + "</p>"


def _grid_html(table: DDTable) -> str:
    head = "".join(f"<th>{_strain_html(strain)}</th>" for strain in _STRAIN_ORDER)
    rows = "".join(
        f"<tr><th>{seat.letter}</th>"
        + "".join(f"<td>{table.tricks(seat, strain)}</td>" for strain in _STRAIN_ORDER)
        + "</tr>"
        for seat in _SEAT_ORDER
    )
    return (
        '<table class="dd" aria-label="Double-dummy tricks">'
        f"<thead><tr><th></th>{head}</tr></thead><tbody>{rows}</tbody></table>"
    )


def _hand_width_em(hand: Hand) -> float:
    # A suit symbol and space (~1.1em) and DejaVu Sans's ~0.7em per rank character.
    widest = max(len(_holding(hand, suit)) for suit in SUITS)
    return 1.1 + 0.7 * widest


def _layout_width_em(board: Board) -> float:
    """An upper estimate of the compass layout's width, in em of the board's font."""
    deal = board.dealt
    west = max(_hand_width_em(deal[Seat.WEST]), 6.6)  # shares its column with "Dealer South"
    middle = max(_hand_width_em(deal[Seat.NORTH]), _hand_width_em(deal[Seat.SOUTH]), 5.1)
    return west + middle + _hand_width_em(deal[Seat.EAST]) + 1.2


def board_html(
    board: Board,
    *,
    makeable: bool = False,
    anchor: str | None = None,
    width_em: float | None = None,
) -> str:
    """One board's hand record (an ``<article>``): header, hands around the
    compass with HCP, the DD grid (or makeable contracts) and par.

    ``width_em`` is the room the board has, in em of its font: hands with very
    long suits are set smaller so that they never spill out of a printed box.
    """
    ident = anchor or f"board-{board.number}"
    info = (
        f'<div class="info"><h2>Board {board.number}</h2>'
        f"<div>{dealer_words(board.dealer)}</div>"
        f"<div>{vulnerability_words(board.vulnerability)}</div></div>"
    )
    analysis = ""
    if board.dd_table is not None:
        analysis = _makeable_html(board.dd_table) if makeable else _grid_html(board.dd_table)
    cells = [
        info,
        _hand_html(board, Seat.NORTH),
        '<div class="corner"></div>',
        _hand_html(board, Seat.WEST),
        _compass(board),
        _hand_html(board, Seat.EAST),
        '<div class="corner"></div>',
        _hand_html(board, Seat.SOUTH),
        '<div class="corner"></div>',
    ]
    below = analysis
    if board.par is not None:
        below += f'<p class="par">{par_html(board.par)}</p>'
    return (
        f'<article class="board" id="{escape(ident)}">'
        f'<div class="layout"{_shrink(board, width_em)}>{"".join(cells)}</div>'
        f'<div class="analysis">{below}</div></article>'
    )


def _shrink(board: Board, width_em: float | None) -> str:
    if width_em is None:
        return ""
    needed = _layout_width_em(board)
    if needed <= width_em:
        return ""
    return f' style="font-size: {width_em / needed:.2f}em"'


def hand_record_css() -> str:
    """The style of a board (shared with the results site)."""
    return _BOARD_CSS


_BOARD_CSS = """
.board { box-sizing: border-box; padding: .6em .8em; border: 1px solid #999;
  border-radius: 4px; background: #fff; color: #111; break-inside: avoid;
  page-break-inside: avoid; font-family: "DejaVu Sans", system-ui, sans-serif; }
.board .layout { display: grid; grid-template-columns: 1fr auto 1fr; align-items: center;
  gap: .2em .6em; }
.board h2 { font-size: 1.25em; margin: 0 0 .15em; }
.board .info { align-self: start; font-size: .9em; line-height: 1.3; white-space: nowrap; }
.board .hand { font-size: 1.05em; line-height: 1.3; white-space: nowrap; }
.board .hand.north, .board .hand.south, .board .hand.east { justify-self: start; }
.board .hand.west { justify-self: end; }
.board .red { color: #c8102e; }
.board .black { color: #111; }
.board .compass { display: grid; justify-self: center; width: 6em; height: 6em;
  grid-template: 1fr 1fr 1fr / 1fr 1fr 1fr; border: .3em solid #ccc; border-radius: 3px;
  background: #f6f6f6; box-sizing: border-box; font-size: .85em; line-height: 1; }
.board .compass.vul-ns { border-top-color: #c8102e; border-bottom-color: #c8102e; }
.board .compass.vul-ew { border-left-color: #c8102e; border-right-color: #c8102e; }
.board .compass span { display: flex; flex-direction: column; align-items: center;
  justify-content: center; }
.board .compass i { font-style: normal; font-size: .75em; color: #555; }
.board .compass i.dealer { color: #fff; background: #111; border-radius: 50%;
  padding: .1em .25em; }
.board .compass b { font-weight: 600; }
.board .compass .n { grid-area: 1 / 2; }
.board .compass .e { grid-area: 2 / 3; }
.board .compass .s { grid-area: 3 / 2; }
.board .compass .w { grid-area: 2 / 1; }
.board .analysis { display: flex; flex-wrap: wrap; align-items: center; gap: .3em 1em;
  margin-top: .5em; }
.board table.dd { border-collapse: collapse; font-size: .8em; }
.board table.dd th, .board table.dd td { padding: 0 .3em; text-align: center;
  border: 1px solid #bbb; font-variant-numeric: tabular-nums; }
.board table.dd thead th { background: #eee; }
.board p.par, .board p.makeable { margin: 0; font-size: .95em; }
"""

_PRINT_CSS = """
html { background: #888; }
body { margin: 0; padding: 1em 0; }
.page { box-sizing: border-box; margin: 0 auto 1em; padding: 0; background: #fff;
  box-shadow: 0 0 6px rgba(0,0,0,.5); overflow: hidden; }
.page-head { height: %(head)smm; display: flex; justify-content: space-between;
  align-items: baseline; font: 9pt "DejaVu Sans", sans-serif; color: #444;
  border-bottom: 1px solid #999; box-sizing: border-box; }
.boards { display: grid; grid-template-columns: repeat(%(columns)s, 1fr);
  grid-template-rows: repeat(%(rows)s, 1fr); gap: 3mm; height: %(grid)smm;
  padding-top: 3mm; box-sizing: border-box; }
.boards .board { height: 100%%; overflow: hidden; }
@page { size: %(paper)s; margin: 10mm; }
@media print {
  html { background: none; }
  body { padding: 0; }
  .page { margin: 0; box-shadow: none; break-after: page; page-break-after: always; }
  .page:last-child { break-after: auto; page-break-after: auto; }
}
"""


def hand_records_html(
    boards: Sequence[Board],
    *,
    per_page: int = 4,
    paper: Paper = "a4",
    title: str | None = None,
    makeable: bool = False,
) -> str:
    """A printable document of hand records, ``per_page`` (2, 4 or 6) boards to a
    page of ``paper`` (``a4`` or ``letter``). Each page is a fixed-size box
    holding whole boards, so no board is ever split across pages."""
    if per_page not in _GRID:
        raise InvalidArgumentError(f"{per_page} boards a page: expected 2, 4 or 6")
    if paper not in _PAPER_SIZE:
        raise InvalidArgumentError(f"paper {paper!r}: expected a4 or letter")
    if not boards:
        raise InvalidArgumentError("no boards to print")
    css_paper, width, height = _PAPER_SIZE[paper]
    columns, rows, font = _GRID[per_page]
    # The sizes suit A4's height; shorter paper (Letter) gets a proportionally smaller font.
    font = round(font * min(1.0, height / _PAPER_SIZE["a4"][2]), 2)
    style = _PRINT_CSS % {
        "head": _PAGE_HEADER_MM,
        "columns": columns,
        "rows": rows,
        "grid": f"{height - _PAGE_HEADER_MM:.1f}",
        "paper": css_paper,
    }
    name = escape(title or "Hand records")
    # The board's width in em: its share of the page less the gap, padding and border.
    room = ((width - 3.0 * (columns - 1)) / columns - 2.0) / (font * _MM_PER_POINT) - 1.6
    pages = []
    total = (len(boards) + per_page - 1) // per_page
    for number in range(total):
        chunk = boards[number * per_page : (number + 1) * per_page]
        first, last = chunk[0].number, chunk[-1].number
        span = f"Board {first}" if first == last else f"Boards {first}–{last}"
        articles = "".join(board_html(board, makeable=makeable, width_em=room) for board in chunk)
        pages.append(
            f'<section class="page" style="width:{width}mm;height:{height}mm">'
            f'<div class="page-head"><span>{name}</span><span>{span}</span>'
            f"<span>page {number + 1} of {total}</span></div>"
            f'<div class="boards">{articles}</div></section>'
        )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{name}</title>"
        f"<style>{_BOARD_CSS}{style}.board {{ font-size: {font}pt; }}</style></head>"
        f"<body>{''.join(pages)}</body></html>\n"
    )
