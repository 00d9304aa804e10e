"""One self-contained HTML page of a scored event: ranking and travellers.

No scripts, no external files: the style sheet is inline, every name is escaped,
so a club can put the file on its website as it is.

>>> from bridgescore.session.scoring.event import Event, TableResult
>>> from bridgescore.session.scoring.scorer import score_event
>>> event = Event("Club <night>", "pairs", results=(
...     TableResult.played(1, "1", "2", "4SN="), TableResult.played(1, "3", "4", "4SN+1")))
>>> page = html_report(score_event(event, "mp"))
>>> "<title>Club &lt;night&gt; - matchpoints</title>" in page
True
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from bridgescore.boardset.handrecord import board_html, hand_record_css
from bridgescore.formats.board import Board
from bridgescore.session.reports.display import (
    fmt,
    last_column,
    players_text,
    ranked_as,
    ranking_numbers,
    report_title,
)
from bridgescore.session.reports.site import hand_record
from bridgescore.session.reports.text import score_text
from bridgescore.session.scoring.matches import MATCH_HEADERS, match_rows
from bridgescore.session.scoring.scored import SessionScore, Traveller

__all__ = ["html_report"]

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; }
h3 { font-size: 1.05em; margin: 1.5em 0 .3em; }
table { border-collapse: collapse; margin: .3em 0 1em; }
th, td { padding: .2em .7em; border-bottom: 1px solid #ddd; }
th { background: #f0f0f0; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.meta { color: #555; font-size: .9em; }
.notes { color: #a40; }
.record { max-width: 30em; margin: .3em 0 .6em; }
"""


def _cell(text: str, numeric: bool = False) -> str:
    return f'<td class="n">{escape(text)}</td>' if numeric else f"<td>{escape(text)}</td>"


def _row(cells: list[str], numeric_from: int) -> str:
    return "<tr>" + "".join(_cell(c, i >= numeric_from) for i, c in enumerate(cells)) + "</tr>"


def _head(names: list[str]) -> str:
    return "<tr>" + "".join(f"<th>{escape(n)}</th>" for n in names) + "</tr>"


def _traveller(session: SessionScore, traveller: Traveller, known: Board | None) -> list[str]:
    """The board's traveller; with ``known`` (the event's board, its deal and DD table),
    its hand record too."""
    board = traveller.board
    title = f"Board {board.number}" + (
        f" (section {traveller.section})" if traveller.section else ""
    )
    meta = [f"Dealer {board.dealer.letter}", f"Vul {board.vulnerability}"]
    if traveller.top is not None:
        meta.append(f"top {fmt(traveller.top)}")
    if traveller.datum is not None:
        meta.append(f"datum {fmt(traveller.datum, signed=True)}")
    if traveller.par_text:
        meta.append(f"par {traveller.par_text}")
    out = [
        f'<h3 id="board-{board.number}{escape(traveller.section)}">{escape(title)}</h3>',
        f'<p class="meta">{escape(" · ".join(meta))}</p>',
    ]
    record = None if known is None else hand_record(known)
    if record is not None:
        anchor = f"record-{board.number}{traveller.section}"
        out.append(f'<div class="record">{board_html(record, anchor=anchor)}</div>')
    elif board.deal is not None:
        out.append(f'<p class="meta">Deal {escape(board.deal.to_pbn())}</p>')
    unit, signed = session.unit, session.scoring_method.signed
    names = ["NS", "EW", "Result", "NS score", f"NS {unit}", f"EW {unit}"]
    has_par = traveller.par is not None
    if has_par:
        names.append("IMPs v par")
    out.append("<table>" + _head(names))
    for line in traveller.lines:
        result = line.result.describe() + (f" ({line.note})" if line.note else "")
        cells = [
            line.result.ns,
            line.result.ew,
            result,
            score_text(line.ns_score),
            fmt(line.ns, signed=signed),
            fmt(line.ew, signed=signed),
        ]
        if has_par:
            cells.append(fmt(line.imps_vs_par, signed=True))
        out.append(_row(cells, 3))
    out.append("</table>")
    return ['<section class="traveller">', *out, "</section>"]


def html_report(
    session: SessionScore, boards: Mapping[int, Board] | None = None, *, style: str = ""
) -> str:
    """The whole event as one HTML document (UTF-8).

    ``boards`` (the event's, by number) adds each known deal's hand record (hands,
    DD table, par) to its traveller; ``style`` is more CSS, after the page's own
    (the printed report's page rules).
    """
    heading = report_title(session)
    css = _STYLE + (hand_record_css() if boards else "") + style
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(heading)}</title><style>{css}</style></head><body>",
        f"<h1>{escape(heading)}</h1>",
        "<h2>Ranking</h2>",
    ]
    has_section = any(s.section for s in session.standings)
    numbers = ranking_numbers(session)
    for direction in dict.fromkeys(s.direction for s in session.standings):
        label = {"NS": "North-South", "EW": "East-West"}.get(direction, "")
        if label:
            parts.append(f"<h3>{label}</h3>")
        names = [
            "Rank",
            *(["Section"] if has_section else []),
            ranked_as(session),
            *(["Players"] if session.members else []),
            "Boards",
            f"Total {session.ranking_unit}",
            *([last_column(session)] if last_column(session) else []),
        ]
        parts.append("<table>" + _head(names))
        for s in session.standings:
            if s.direction != direction:
                continue
            cells = [
                s.rank,
                *([s.section] if has_section else []),
                s.name,
                *([players_text(session, s.name)] if session.members else []),
                str(s.boards),
                *numbers[s][: 2 if last_column(session) else 1],
            ]
            first_number = (3 if has_section else 2) + (1 if session.members else 0)
            parts.append(_row(cells, first_number))
        parts.append("</table>")
    if session.matches:
        parts.append("<h2>Matches</h2><table>" + _head(list(MATCH_HEADERS)))
        parts.extend(_row(list(row), 3) for row in match_rows(session.matches))
        parts.append("</table>")
    if session.notes:
        parts.append('<ul class="notes">')
        parts.extend(f"<li>{escape(note)}</li>" for note in session.notes)
        parts.append("</ul>")
    parts.append("<h2>Travellers</h2>")
    for traveller in session.travellers:
        known = None if boards is None else boards.get(traveller.board.number)
        parts.extend(_traveller(session, traveller, known))
    parts.append('<p class="meta">Scored by bridgescore.</p></body></html>')
    return "\n".join(parts) + "\n"
