"""A scored event on paper: the report as a PDF, the event's name on every page.

The page is the one HTML report (:func:`~bridgescore.session.reports.html.html_report`:
the ranking, each board's traveller and, where the deal is known, its hand record
with the double-dummy table and par), with print rules added: A4, each hand record
beside its traveller and a board never split across pages (two boards a page), and a
running header (the event's title) and footer (page n of m) in the page margins (CSS
page-margin boxes, which Chromium prints).
:func:`write_pdf_report` prints it through headless Chromium
(:func:`bridgescore.boardset.pdf.html_to_pdf`).

>>> from bridgescore.session.scoring.event import Event, TableResult
>>> from bridgescore.session.scoring.scorer import score_event
>>> event = Event('Club "night"', "pairs", results=(
...     TableResult.played(1, "1", "2", "4SN="), TableResult.played(1, "3", "4", "4SN+1")))
>>> page = paper_html(score_event(event, "mp"))
>>> '@top-center { content: "Club \\\\"night\\\\" - matchpoints"' in page
True
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from bridgescore.board import Board
from bridgescore.session.reports.html import html_report
from bridgescore.session.scoring.display import report_title
from bridgescore.session.scoring.scored import SessionScore

__all__ = ["css_string", "paper_html", "write_pdf_report"]

_PAGE = """
@page { size: A4; margin: 18mm 14mm 16mm;
  @top-center { content: %s; font: 9pt "DejaVu Sans", sans-serif; color: #333; }
  @bottom-right { content: "page " counter(page) " of " counter(pages);
    font: 8pt "DejaVu Sans", sans-serif; color: #555; } }
@media print {
  body { margin: 0; max-width: none; font-size: 9pt; }
  section.traveller { break-inside: avoid; }
  /* The hand record beside its traveller: two boards fit a page. */
  section.traveller:has(> .record) { display: grid; column-gap: 1.2em; align-items: start;
    grid-template-columns: minmax(0, 26em) auto; }
  section.traveller > h3, section.traveller > p.meta { grid-column: 1 / -1; }
  section.traveller > .record { grid-column: 1; margin: 0; }
  section.traveller > table { grid-column: 2; margin: 0; }
  h2 { break-after: avoid; }
  tr { break-inside: avoid; }
}
"""


def css_string(text: str) -> str:
    """``text`` as a CSS string literal: quotes and backslashes escaped, and every
    character that could end the style element or the line written as a CSS escape.

    >>> css_string('Club "A" </style>')
    '"Club \\\\"A\\\\" \\\\3c /style\\\\3e "'
    """
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif char in "<>&" or ord(char) < 32 or ord(char) == 127:
            out.append(f"\\{ord(char):x} ")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def paper_html(session: SessionScore, boards: Mapping[int, Board] | None = None) -> str:
    """The report as the printed page: :func:`html_report` with the page rules and the
    event's title in every page's header."""
    return html_report(session, boards, style=_PAGE % css_string(report_title(session)))


def write_pdf_report(
    session: SessionScore, out: Path, boards: Mapping[int, Board] | None = None
) -> None:
    """Print the report to the PDF file ``out``.

    Raises :class:`~bridgescore.boardset.pdf.PdfUnavailableError` when no Chromium
    is installed or it fails.
    """
    from bridgescore.boardset.pdf import html_to_pdf

    html_to_pdf(paper_html(session, boards), Path(out))
