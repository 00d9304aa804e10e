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

from bridgescore.board import Board
from bridgescore.boardset.handrecord import board_html, hand_record_css
from bridgescore.session.reports.site import hand_record
from bridgescore.session.reports.travellers import traveller_table
from bridgescore.session.scoring.display import ranking_tables, report_title
from bridgescore.session.scoring.matches import match_headers, match_rows
from bridgescore.session.scoring.scored import ScoredBoard, SessionScore

__all__ = ["html_report"]

# The matches' IMPs and VPs (match_headers: round, teams..., then the numbers).
_MATCH_NUMBERS = frozenset({3, 4})

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


def _cells(cells: tuple[str, ...], numeric: frozenset[int], tag: str = "td") -> str:
    return (
        "<tr>"
        + "".join(
            f'<{tag} class="n">{escape(c)}</{tag}>'
            if i in numeric
            else f"<{tag}>{escape(c)}</{tag}>"
            for i, c in enumerate(cells)
        )
        + "</tr>"
    )


def _head(names: tuple[str, ...]) -> str:
    return "<tr>" + "".join(f"<th>{escape(n)}</th>" for n in names) + "</tr>"


def _traveller(session: SessionScore, traveller: ScoredBoard, known: Board | None) -> list[str]:
    """The board's traveller; with ``known`` (the event's board, its deal and DD table),
    its hand record too."""
    table = traveller_table(session, traveller)
    board = traveller.board
    out = [
        f'<h3 id="board-{board.number}{escape(traveller.section)}">{escape(table.title)}</h3>',
        f'<p class="meta">{escape(" · ".join(table.about))}</p>',
    ]
    record = None if known is None else hand_record(known)
    if record is not None:
        anchor = f"record-{board.number}{traveller.section}"
        out.append(f'<div class="record">{board_html(record, anchor=anchor)}</div>')
    elif board.deal is not None:
        out.append(f'<p class="meta">Deal {escape(board.deal.to_pbn())}</p>')
    out.append("<table>" + _head(table.headers))
    out.extend(_cells(row, table.numeric) for row in table.rows)
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
    for ranking in ranking_tables(session):
        if ranking.caption != "Overall":
            parts.append(f"<h3>{escape(ranking.caption)}</h3>")
        parts.append("<table>" + _head(ranking.headers))
        parts.extend(_cells(row, ranking.numeric) for row in ranking.rows)
        parts.append("</table>")
    if session.matches:
        parts.append("<h2>Matches</h2><table>" + _head(match_headers(session.matches)))
        parts.extend(_cells(row, _MATCH_NUMBERS) for row in match_rows(session.matches))
        parts.append("</table>")
    if session.notes:
        parts.append('<ul class="notes">')
        parts.extend(f"<li>{escape(note)}</li>" for note in session.notes)
        parts.append("</ul>")
    parts.append("<h2>Travellers</h2>")
    for traveller in session.travellers:
        known = None if boards is None else boards.get(traveller.board.numbered)
        parts.extend(_traveller(session, traveller, known))
    parts.append('<p class="meta">Scored by bridgescore.</p></body></html>')
    return "\n".join(parts) + "\n"
