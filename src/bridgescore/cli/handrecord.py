"""``bridgescore handrecord``: printable hand records (HTML or PDF) from a file of deals."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from bridgescore.board import Board
from bridgescore.boardset.handrecord import PAPERS, Paper, hand_records_html
from bridgescore.cli.boards import analyse_with_progress, read_board_file
from bridgescore.cli.common import fail
from bridgescore.cli.deal_input import board_of_text, deal_or_file
from bridgescore.cli.outputs import check_output_path
from bridgescore.cli.progress import ProgressOption
from bridgescore.errors import BridgeError

__all__ = ["handrecord_command"]


class PerPage(StrEnum):
    """The layouts of hand records: boards a page (help and validation share them)."""

    two = "2"
    four = "4"
    six = "6"


def handrecord_command(
    source: Annotated[
        list[str],
        typer.Argument(
            metavar="FILE|DEAL",
            help="A file of deals: PBN, LIN (hand records or a vugraph archive), CSV, "
            "JSON, or a USEBIO results file's hand set (such as a set from "
            "'bridgescore deal --boards'); the format is told by name, then content. "
            "Or one deal (PBN 'N:...', a LIN record or a BBO handviewer link), printed "
            "as the board it states (its number, dealer and vulnerability), else board 1.",
            show_default=False,
        ),
    ],
    out: Annotated[
        str,
        typer.Option(
            "--out", "-o", help="Where to write: a .html or .pdf file.", show_default=False
        ),
    ],
    per_page: Annotated[
        PerPage, typer.Option(help="Boards a printed page: 2, 4 or 6.")
    ] = PerPage.four,
    paper: Annotated[str, typer.Option(help="Paper size: a4 or letter.")] = "a4",
    makeable: Annotated[
        bool,
        typer.Option(help="Show makeable contracts (NS 4♥; EW 3♣) instead of the DD grid."),
    ] = False,
    title: Annotated[
        str | None, typer.Option(help="Title on every page (default: the file name).")
    ] = None,
    threads: Annotated[
        int | None, typer.Option(min=1, help="DDS threads (default: one per core).")
    ] = None,
    progress: ProgressOption = None,
) -> None:
    """Hand records: each board's hands in compass layout with HCP, dealer and
    vulnerability, the double-dummy table and par with every par contract.

    Boards without a DD table (DoubleDummyTricks or OptimumResultTable) are
    solved first. PDF is printed by headless Chromium from the same HTML.

    \b
    Examples:
      bridgescore handrecord set.pbn --out records.html
      bridgescore handrecord set.pbn --out records.pdf --per-page 6 --paper letter
      bridgescore handrecord bbo.lin --out records.pdf --makeable
      bridgescore handrecord "N:KJ52.K7.T85.AJ87 A9863.Q3.Q3.T543 ..." --out deal.html
    """
    target = Path(out)
    kind = target.suffix.lower()
    if kind not in (".html", ".htm", ".pdf"):
        raise fail(f"--out {out!r}: expected a file name ending in .html or .pdf", code=2)
    chosen: Paper | None = next((p for p in PAPERS if p == paper.lower()), None)
    if chosen is None:
        raise fail(f"--paper {paper!r}: expected a4 or letter", code=2)
    check_output_path(out, "--out")  # before the boards are solved
    given = deal_or_file(source)
    if given is None or given.path is None:
        # One deal on the command line: the board a LIN record or a link states (its
        # number, dealer and vulnerability), else board 1: North deals, no one vulnerable.
        text = "" if given is None or given.text is None else given.text
        stated = board_of_text(text)
        assert stated.deal is not None
        board = Board(
            stated.board or 1, stated.deal, None, None, stated.dealer_seat, stated.vulnerable
        )
        found, read, file = [board], None, None
    else:
        file = given.path
        read = read_board_file(file)
        found = read.boards
    boards = analyse_with_progress(found, threads, progress)
    try:
        html = hand_records_html(
            boards,
            per_page=int(per_page),
            paper=chosen,
            title=title or (Path(file).name if file else "Hand record"),
            makeable=makeable,
        )
    except BridgeError as error:
        raise fail(error) from None
    if kind == ".pdf":
        from bridgescore.boardset.pdf import PdfUnavailableError, html_to_pdf

        try:
            html_to_pdf(html, target)
        except PdfUnavailableError as error:
            raise fail(str(error)) from None
    else:
        try:
            target.write_text(html, encoding="utf-8")
        except OSError as error:
            raise fail(f"cannot write {out!r}: {error.strerror}", code=2) from None
    typer.echo(f"{len(boards)} board(s) written to {out}", err=True)
    if read is not None and read.problems:
        raise fail(read.summary(str(file)))
