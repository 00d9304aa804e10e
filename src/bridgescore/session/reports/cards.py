"""Guide cards and table cards for a movement, as printable HTML and as PDF.

A guide card follows one pair (a team, in a teams movement; a player, in an
individual) through the evening: each round's table, direction (an individual's
seat and partner), opponents and boards, or "sit out". A table card stays
on one table: each round's NS and EW pairs and boards, and where the boards go next
(:func:`bridgescore.movement.flow.next_stops`). Given the tables' links (``session new``
issues them), each table card carries its link as a QR code, so a phone that scans the
card opens that table's page.

The HTML is one self-contained document (no scripts) that prints on A4 or US Letter,
never splitting a card; :func:`write_cards` prints it to PDF through the hand records'
headless Chromium (:mod:`bridgescore.boardset.pdf`).

>>> from bridgescore.movement.model import Movement, rows_from
>>> rows = rows_from([(1, 1, "1N", "1E", [1, 2]), (2, 1, "1N", "2E", [3, 4]),
...                   (1, 2, "2N", "2E", [3, 4]), (2, 2, "2N", "1E", [1, 2])])
>>> page = cards_html(Movement("mitchell", 2, 2, 2, rows), event="Tuesday pairs")
>>> page.count('<article class="card guide"'), page.count('<article class="card table-card"')
(4, 2)
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Literal

from bridgescore.boardset.pdf import html_to_pdf
from bridgescore.display.wording import board_ranges
from bridgescore.errors import ArgumentTypeError, InvalidArgumentError, MovementError
from bridgescore.movement.check import seated
from bridgescore.movement.flow import NextStop, next_stops
from bridgescore.movement.model import Movement, Row
from bridgescore.validate import is_whole_number, whole_number_arg

__all__ = [
    "Links",
    "cards_html",
    "guide_cards_html",
    "qr_svg",
    "table_cards_html",
    "write_cards",
]

Paper = Literal["a4", "letter"]
#: Table number, or (section, table) when a session has several sections, to its URL.
#: (A union of mappings: a Mapping's key type is invariant, so a ``dict[int, str]``
#: would not pass as a ``Mapping[int | tuple[str, int], str]``.)
Links = Mapping[int, str] | Mapping[tuple[str, int], str] | Mapping[int | tuple[str, int], str]

_PAPER = {"a4": "A4", "letter": "letter"}
# A link a phone can open from a printed card: absolute http(s), no spaces.
_URL = re.compile(r"https?://[^\s\x00-\x1f\x7f]+")
_SWITCH = "⇄"


def _who(movement: Movement) -> str:
    return "Team" if movement.kind == "teams" else "Pair"


def _other_direction(direction: str) -> str:
    return "EW" if direction == "NS" else "NS"


def _heading(movement: Movement, event: str | None) -> str:
    parts = [escape(event)] if event else []
    parts.append(f"Section {escape(movement.section)}")
    return f'<p class="event">{" · ".join(parts)}</p>'


def _section_id(movement: Movement) -> str:
    # A card's id is unique in a document of several sections' cards: 1N of B is B1N.
    return "" if movement.section == "A" else escape(movement.section)


def _legend(movement: Movement) -> str:
    if not movement.arrow_switch:
        return ""
    return (
        f'<p class="legend">{_SWITCH} arrow switch: in this round NS and EW play each'
        " other's cards.</p>"
    )


def _pair_rounds(movement: Movement) -> dict[str, dict[int, list[Row]]]:
    """Each pair's rows, round by round. A pair at two tables in one round cannot be
    told where to sit (the two rooms of a teams match apart): refused."""
    rounds: dict[str, dict[int, list[Row]]] = defaultdict(lambda: defaultdict(list))
    for row in movement.rows:
        for pair in row.pairs:
            rounds[pair][row.round].append(row)
    for pair, by_round in rounds.items():
        for number, rows in by_round.items():
            if len(rows) > 1 and movement.kind != "teams":
                tables = " and ".join(str(row.table) for row in rows)
                raise MovementError(
                    f"round {number}, tables {tables}: pair {pair} is at both tables;"
                    " a pair plays at one table a round"
                )
            if pair in movement.sitting_out(number):
                raise MovementError(
                    f"round {number}, table {rows[0].table}: pair {pair} plays there but"
                    " is also listed as sitting out"
                )
    return rounds


def _guide_card(
    movement: Movement, pair: str, rows_by_round: Mapping[int, Sequence[Row]], event: str | None
) -> str:
    lines = []
    for number in range(1, movement.rounds + 1):
        rows = rows_by_round.get(number, ())
        if not rows:
            # A team that sits out a round of a teams event has the bye.
            out = "bye" if movement.kind == "teams" else "sit out"
            what = out if pair in movement.sitting_out(number) else "not playing"
            lines.append(f'<tr class="out"><td>{number}</td><td colspan="4">{what}</td></tr>')
            continue
        for row in rows:
            direction = "NS" if row.ns == pair else "EW"
            opponents = row.ew if direction == "NS" else row.ns
            switch = ""
            if movement.is_arrow_switched(number):
                switch = (
                    f' <span class="switch">{_SWITCH} plays {_other_direction(direction)}</span>'
                )
            lines.append(
                f"<tr><td>{number}</td><td>{row.table}</td>"
                f'<td class="direction">{direction}{switch}</td>'
                f"<td>{escape(opponents)}</td><td>{board_ranges(row.boards)}</td></tr>"
            )
    return (
        f'<article class="card guide" id="pair-{_section_id(movement)}{escape(pair)}">'
        f"{_heading(movement, event)}"
        f"<h2>{_who(movement)} {escape(pair)}</h2>"
        "<table><thead><tr><th>Round</th><th>Table</th><th>Direction</th>"
        "<th>Opponents</th><th>Boards</th></tr></thead>"
        f"<tbody>{''.join(lines)}</tbody></table>"
        f"{_legend(movement)}</article>"
    )


_SEATS = ("North", "South", "East", "West")


def _player_card(movement: Movement, player: str, event: str | None) -> str:
    """An individual's guide card: each round's table, seat, partner, opponents, boards."""
    lines = []
    for number in range(1, movement.rounds + 1):
        found = [
            (row, seat)
            for row in movement.rows_in_round(number)
            for who, seat in zip(seated(row), _SEATS, strict=True)
            if who == player
        ]
        if not found:
            lines.append(f'<tr class="out"><td>{number}</td><td colspan="5">sit out</td></tr>')
            continue
        row, seat = found[0]
        north, south, east, west = seated(row)
        partner = {"North": south, "South": north, "East": west, "West": east}[seat]
        opponents = (east, west) if seat in ("North", "South") else (north, south)
        lines.append(
            f"<tr><td>{number}</td><td>{row.table}</td><td>{seat}</td>"
            f"<td>{escape(partner)}</td><td>{' &amp; '.join(map(escape, opponents))}</td>"
            f"<td>{board_ranges(row.boards)}</td></tr>"
        )
    return (
        f'<article class="card guide" id="player-{_section_id(movement)}{escape(player)}">'
        f"{_heading(movement, event)}"
        f"<h2>Player {escape(player)}</h2>"
        "<table><thead><tr><th>Round</th><th>Table</th><th>Seat</th><th>Partner</th>"
        "<th>Opponents</th><th>Boards</th></tr></thead>"
        f"<tbody>{''.join(lines)}</tbody></table></article>"
    )


def _stops_text(stops: Sequence[NextStop], table: int) -> str:
    def one(stop: NextStop) -> str:
        return "stay at this table" if stop.tables == (table,) else str(stop)

    if len(stops) == 1:
        return one(stops[0])
    return "; ".join(f"{board_ranges(stop.boards)}: {one(stop)}" for stop in stops)


def _sharing(movement: Movement, row: Row) -> str:
    others = sorted(
        other.table
        for other in movement.rows_in_round(row.round)
        if other.table != row.table and set(other.boards) & set(row.boards)
    )
    if not others:
        return ""
    return f' <span class="shared">shared with table {" and ".join(map(str, others))}</span>'


def qr_svg(url: str) -> str:
    """``url`` as a QR code (error correction at least M), an inline ``<svg>``
    with a viewBox and no fixed size, so the page's CSS sets its printed size."""
    try:
        import segno
    except ImportError:
        raise ImportError(
            "QR codes on the table cards need segno: pip install 'bridgescore[cards]'"
        ) from None
    code = segno.make(url, error="m", micro=False)
    svg: str = code.svg_inline(omitsize=True, svgclass="qr", lineclass="qr-modules")
    return svg


def _table_card(
    movement: Movement,
    table: int,
    stops: Mapping[tuple[int, int], Sequence[NextStop]],
    event: str | None,
    link: str | None,
    sectioned: bool = False,
) -> str:
    lines = []
    # An individual's table card seats each player (N, S, E, W), not the partnerships.
    by_seat = movement.kind == "individual"
    for number in range(1, movement.rounds + 1):
        row = movement.row_at(number, table)
        mark = (
            f' <span class="switch">{_SWITCH}</span>' if movement.is_arrow_switched(number) else ""
        )
        if row is None:
            empty = f'<td colspan="{6 if by_seat else 4}">table not in play</td>'
            lines.append(f'<tr class="out"><td>{number}{mark}</td>{empty}</tr>')
            continue
        sides: Sequence[str] = seated(row) if by_seat else (row.ns, row.ew)
        cells = "".join(f"<td>{escape(side)}</td>" for side in sides)
        lines.append(
            f"<tr><td>{number}{mark}</td>{cells}"
            f"<td>{board_ranges(row.boards)}{_sharing(movement, row)}</td>"
            f"<td>{_stops_text(stops[(number, table)], table)}</td></tr>"
        )
    head = "<th>N</th><th>S</th><th>E</th><th>W</th>" if by_seat else "<th>NS</th><th>EW</th>"
    qr = ""
    if link is not None:
        url = escape(link)
        qr = (
            f'<figure class="link">{qr_svg(link)}'
            f"<figcaption>Scan to enter this table's results:<br>"
            f'<span class="url">{url}</span></figcaption></figure>'
        )
    # In an event of several sections a table is named with its section (B3).
    place = escape(movement.section) if sectioned or movement.section != "A" else ""
    title = f"Section {place}, table {table}" if place else f"Table {table}"
    return (
        f'<article class="card table-card" id="table-{place}{table}"><div class="top"><div>'
        f"{_heading(movement, event)}<h2>{title}</h2></div>{qr}</div>"
        f"<table><thead><tr><th>Round</th>{head}<th>Boards</th>"
        "<th>Boards go to</th></tr></thead>"
        f"<tbody>{''.join(lines)}</tbody></table>"
        f"{_legend(movement)}</article>"
    )


def _table_links(movement: Movement, links: Links | None) -> dict[int, str]:
    """The links of this movement's section by table, each checked."""
    if links is None:
        return {}
    chosen: dict[int, str] = {}
    for key, url in links.items():
        section = movement.section
        if isinstance(key, tuple) and len(key) == 2:
            section, key = key
        if section != movement.section:
            continue  # another section's table
        if not is_whole_number(key):
            raise InvalidArgumentError(
                f"links: key {key!r} is not a table number or a (section, table) pair"
            )
        # A table the movement lacks: the links are likely another event's.
        table = whole_number_arg(key, "links: table", 1, movement.tables)
        if not isinstance(url, str) or not _URL.fullmatch(url):
            raise InvalidArgumentError(
                f"links: table {table}'s link {url!r} is not a URL a phone can open"
                " (expected http:// or https:// and no spaces)"
            )
        if table in chosen and chosen[table] != url:
            raise InvalidArgumentError(f"links: table {table} has two different links")
        chosen[table] = url
    return chosen


_CSS = """
@page { size: %(paper)s; margin: 10mm; }
* { box-sizing: border-box; }
body { margin: 0; color: #111; background: #fff;
  font-family: "DejaVu Sans", system-ui, sans-serif; }
h1 { font-size: 14pt; margin: 0 0 3mm; }
.cards { display: flex; flex-wrap: wrap; gap: 4mm; align-items: flex-start; }
.cards + h1 { break-before: page; page-break-before: always; }
.card { border: 1px solid #555; border-radius: 3px; padding: 2.5mm 3.5mm;
  break-inside: avoid; page-break-inside: avoid; }
.card .event { margin: 0; font-size: .8em; color: #444; }
.card h2 { margin: 0 0 .2em; font-size: 1.4em; }
.card table { border-collapse: collapse; width: 100%%; }
.card th, .card td { border: 1px solid #999; padding: .1em .35em; text-align: left;
  vertical-align: top; font-variant-numeric: tabular-nums; }
.card th { background: #eee; font-size: .85em; }
.card tr.out td { font-style: italic; color: #444; }
.card .switch, .card .shared { font-size: .8em; white-space: nowrap; }
.card .legend { margin: .4em 0 0; font-size: .8em; }
/* Two guide cards across and, up to 13 rounds, three down a page. */
.guide { width: calc(50%% - 2mm); font-size: 9pt; }
.guide td.direction { white-space: nowrap; }
/* Up to 13 rounds, two table cards a page: cut in two, one for each table. */
.table-card { width: 100%%; font-size: 11pt; }
.table-card .top { display: flex; justify-content: space-between; align-items: flex-start;
  gap: 4mm; }
.table-card figure.link { margin: 0 0 2mm; display: flex; align-items: center; gap: 3mm;
  max-width: 60%%; }
.table-card svg.qr { width: 30mm; height: 30mm; flex: none; }
.table-card figcaption { font-size: .7em; }
.table-card .url { font-family: "DejaVu Sans Mono", monospace; word-break: break-all; }
@media screen { body { margin: 4mm; } }
"""


def _document(title: str, parts: Sequence[str], paper: Paper) -> str:
    if paper not in _PAPER:
        raise InvalidArgumentError(f"paper {paper!r}: expected a4 or letter")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_CSS % {'paper': _PAPER[paper]}}</style>"
        f"</head><body>{''.join(parts)}</body></html>\n"
    )


def _check(movement: object, event: object) -> None:
    if not isinstance(movement, Movement):
        raise ArgumentTypeError(f"cards are made from a Movement, got {movement!r:.80}")
    if event is not None and not isinstance(event, str):
        raise ArgumentTypeError(f"the event's name must be text, got {event!r:.80}")


def _sections(movement: Movement | Sequence[Movement]) -> tuple[Movement, ...]:
    """The movements of the event's sections (one Movement: its one section)."""
    if isinstance(movement, Movement):
        return (movement,)
    if isinstance(movement, Sequence) and not isinstance(movement, str) and movement:
        return tuple(movement)
    raise ArgumentTypeError(
        f"cards are made from a Movement, got {movement!r:.80} (or a list of each section's)"
    )


def _guide_part(movement: Movement | Sequence[Movement], event: str | None) -> str:
    cards: list[str] = []
    for section in _sections(movement):
        _check(section, event)
        if section.kind == "individual":
            cards.extend(_player_card(section, player, event) for player in section.players)
            continue
        rounds = _pair_rounds(section)
        cards.extend(
            _guide_card(section, pair, rounds.get(pair, {}), event) for pair in section.pairs
        )
    return f'<h1>Guide cards</h1><div class="cards">{"".join(cards)}</div>'


def _table_part(
    movement: Movement | Sequence[Movement],
    event: str | None,
    links: Links | None,
    tables: Sequence[int] | None = None,
) -> str:
    sections = _sections(movement)
    cards: list[str] = []
    for section in sections:
        _check(section, event)
        chosen = _table_links(section, links)
        stops = next_stops(section)
        numbers = range(1, section.tables + 1) if tables is None else tables
        cards.extend(
            _table_card(section, table, stops, event, chosen.get(table), len(sections) > 1)
            for table in numbers
        )
    return f'<h1>Table cards</h1><div class="cards">{"".join(cards)}</div>'


def _title(kind: str, event: str | None) -> str:
    return f"{event}: {kind}" if event else kind


def guide_cards_html(
    movement: Movement | Sequence[Movement], *, event: str | None = None, paper: Paper = "a4"
) -> str:
    """A printable document of guide cards, one per pair (team) in the order clubs
    list them, two across the page. ``event`` names the session on every card; each
    section's movement (``movement`` a sequence of them) makes its own cards."""
    return _document(_title("guide cards", event), [_guide_part(movement, event)], paper)


def table_cards_html(
    movement: Movement | Sequence[Movement],
    *,
    event: str | None = None,
    links: Links | None = None,
    paper: Paper = "a4",
) -> str:
    """A printable document of table cards, one per table. ``links`` maps a table
    number, or ``(section, table)``, to that table's URL, printed and as a QR code.
    Several sections' movements: each table card is named with its section
    ("Section B, table 3")."""
    parts = [_table_part(movement, event, links)]
    return _document(_title("table cards", event), parts, paper)


def cards_html(
    movement: Movement | Sequence[Movement],
    *,
    event: str | None = None,
    links: Links | None = None,
    paper: Paper = "a4",
) -> str:
    """The guide cards, then (from a new page) the table cards, in one printable
    document. Raises :class:`MovementError` for a pair at two tables in one round
    and :class:`InvalidArgumentError` for a link that is not an http(s) URL of one
    of the movement's tables."""
    parts = [_guide_part(movement, event), _table_part(movement, event, links)]
    return _document(_title("cards", event), parts, paper)


def write_cards(
    movement: Movement | Sequence[Movement],
    *,
    pdf: Path | str | None = None,
    html: Path | str | None = None,
    event: str | None = None,
    links: Links | None = None,
    paper: Paper = "a4",
    table: int | None = None,
) -> None:
    """Write the cards as HTML to ``html`` and/or as PDF to ``pdf`` (headless
    Chromium; :class:`~bridgescore.boardset.pdf.PdfUnavailableError` without it).
    With ``table``, only that table's card (a reissued link's)."""
    if pdf is None and html is None:
        raise InvalidArgumentError("write_cards needs a pdf or an html path to write")
    if table is None:
        page = cards_html(movement, event=event, links=links, paper=paper)
    else:
        most = max(section.tables for section in _sections(movement))
        number = whole_number_arg(table, "table", 1, most)
        part = _table_part(movement, event, links, (number,))
        page = _document(_title(f"table {number}'s card", event), [part], paper)
    if html is not None:
        Path(html).write_text(page, encoding="utf-8")
    if pdf is not None:
        html_to_pdf(page, Path(pdf))
