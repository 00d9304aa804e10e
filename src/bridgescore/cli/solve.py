"""``bridgescore solve``: double-dummy tables (``deal`` lives in cli/deal.py)."""

from __future__ import annotations

import io
from typing import Annotated, Any

import typer

from bridgescore.cli.common import (
    BadLines,
    echo_json,
    fail,
    hand_json,
    no_boards,
    no_line_read,
    numbered_lines,
    read_input,
    refuse_results_file,
)
from bridgescore.cli.deal_input import board_of_text, deal_or_file
from bridgescore.ddtable import DDTable
from bridgescore.deal import Deal
from bridgescore.errors import BridgeError
from bridgescore.formats import BoardRecord, detect_format, read_text

__all__ = ["format_solution", "solve_command"]


def format_solution(deal: Deal, table: DDTable, *, symbols: bool = False) -> str:
    """The hand diagram, then the double-dummy grid, for people."""
    return "\n".join(
        [deal.to_pbn(), "", deal.diagram(symbols=symbols), "", "Double-dummy tricks", table.grid()]
    )


def _solution_json(deal: Deal, table: DDTable) -> dict[str, Any]:
    return {
        "deal": deal.to_pbn(),
        "dd": str(table),
        "tricks": table.as_dict(),
        "hands": hand_json(deal),
    }


def _solve(deals: list[Deal], threads: int | None) -> list[DDTable]:
    from bridgescore.solver import solve_many

    try:
        return solve_many(deals, threads=threads)
    except ImportError as error:
        raise fail(str(error)) from None


def solve_command(
    deal: Annotated[
        list[str] | None,
        typer.Argument(
            help="A deal in PBN, such as 'N:AKQ.JT9.8765.432 ...' (quoted, or as four words "
            "after the first), a LIN record or a BBO handviewer link; '-' reads one deal "
            "per line (or a PBN, LIN or JSON file) from standard input.",
            show_default=False,
        ),
    ] = None,
    file: Annotated[
        str | None,
        typer.Option(
            "--file",
            "-f",
            help="Solve one PBN deal per line of a file, or every deal of a PBN, LIN or "
            "JSON file of boards.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
    as_hex: Annotated[
        bool,
        typer.Option("--hex", help="Print only PBN's DoubleDummyTricks (20 hex digits)."),
    ] = False,
    symbols: Annotated[bool, typer.Option(help="Show suit symbols (♠♥♦♣).")] = False,
    threads: Annotated[
        int | None, typer.Option(min=1, help="DDS threads (default: one per core).")
    ] = None,
) -> None:
    """Solve a deal double-dummy (DDS): tricks for every declarer and strain.

    \b
    Examples:
      bridgescore solve "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
      bridgescore solve --hex "N:..."
      bridgescore solve session.pbn --json
      bridgescore deal --count 10 --seed 3 | bridgescore solve - --json
    """
    given = deal_or_file(deal)
    if given is not None and file is not None:
        raise fail("give a DEAL (or a FILE) or --file F, not both", code=2)
    if given is not None and given.path is not None:
        file = given.path
    if file is not None:
        _solve_batch(file, threads, as_json=as_json, as_hex=as_hex)
        return
    if given is None or given.text is None:
        raise fail(
            "nothing to solve: give a DEAL in PBN, a FILE, '-' or --file F (see --help)", code=2
        )
    stated = board_of_text(given.text)
    parsed = stated.deal
    assert parsed is not None
    (table,) = _solve([parsed], threads)
    if as_json:
        echo_json({**_stated_json(stated), **_solution_json(parsed, table)})
    elif as_hex:
        typer.echo(str(table))
    else:
        heading = _stated_words(stated)
        if heading:
            typer.echo(heading)
        typer.echo(format_solution(parsed, table, symbols=symbols))


def _stated_json(record: BoardRecord) -> dict[str, Any]:
    """What a LIN record or a handviewer link states of its board, for --json."""
    stated: dict[str, Any] = {}
    if record.board is not None:
        stated["board"] = record.board
    if record.dealer_seat is not None:
        stated["dealer"] = record.dealer_seat.letter
    if record.vulnerable is not None:
        stated["vulnerability"] = str(record.vulnerable)
    return stated


def _stated_words(record: BoardRecord) -> str:
    """``Board 7, Dealer South, Vul Both``: what a LIN record or a link states."""
    from bridgescore.display.wording import dealer_words, vulnerability_words

    words = [] if record.board is None else [f"Board {record.board}"]
    if record.dealer_seat is not None:
        words.append(dealer_words(record.dealer_seat))
    if record.vulnerable is not None:
        words.append(vulnerability_words(record.vulnerable))
    return ", ".join(words)


def _file_records(path: str) -> tuple[list[BoardRecord] | None, str]:
    """The text of a file or of standard input (``-``), read once by the one
    reader; and its records when it is a PBN, LIN or JSON file (by name or
    content), else ``None``."""
    text = read_input(path)
    try:
        format = detect_format(None if path == "-" else path, text)
    except BridgeError:
        refuse_results_file(path, text, "deals")
        return None, text
    return list(read_text(text, format, None if path == "-" else path)), text


def _solve_batch(path: str, threads: int | None, *, as_json: bool, as_hex: bool) -> None:
    # Read and check every line first, then solve the good deals in one batched call.
    bad = BadLines()
    good: list[tuple[int, Deal]] = []
    boards, text = _file_records(path)
    if boards is not None:
        # A PBN, LIN or JSON file: the deal of each record (numbered by its line).
        for board in boards:
            number = board.source.line or board.source.record
            if board.deal is not None:
                good.append((number, board.deal))
                continue
            problem = "; ".join(str(p) for p in board.problems) or "the record has no deal"
            bad.report(number, str(board.source), problem)
    else:
        # Plain deal lines.
        for number, line in numbered_lines(io.StringIO(text)):
            try:
                good.append((number, Deal.from_pbn(line)))
            except BridgeError as error:
                # Told once the file is read: a file with no deal at all is told once.
                bad.report(number, line, error, quiet=True)
    if boards is None and (good or len(bad) == 1):
        bad.tell()
    if not good and not bad:
        raise no_boards(path)
    if boards is None and not good and len(bad) > 1:
        raise no_line_read(path, bad, "deals")
    tables = _solve([deal for _, deal in good], threads)
    records = bad.records + [
        {"line": number, **_solution_json(deal, table)}
        for (number, deal), table in zip(good, tables, strict=True)
    ]
    records.sort(key=lambda record: int(record["line"]))
    if as_json:
        echo_json(records)
    else:
        for record in records:
            if "dd" in record:
                shown = record["dd"] if as_hex else f"{record['deal']}  {record['dd']}"
                typer.echo(shown)
    bad.exit_if_any("line(s) could not be solved")
