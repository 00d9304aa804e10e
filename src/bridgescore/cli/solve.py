"""``bridgescore solve``: double-dummy tables."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from bridgescore.cli.common import BadLines, echo_json, fail, read_batch
from bridgescore.core import Seat
from bridgescore.ddtable import DDTable
from bridgescore.deal import Deal
from bridgescore.errors import BridgeError

__all__ = ["format_solution", "solve_command"]


def format_solution(deal: Deal, table: DDTable, *, symbols: bool = False) -> str:
    """The hand diagram, then the double-dummy grid, for people."""
    return "\n".join(
        [deal.to_pbn(), "", deal.diagram(symbols=symbols), "", "Double-dummy tricks", table.grid()]
    )


def _hand_json(deal: Deal) -> dict[str, Any]:
    return {
        seat.letter: {
            "hand": deal[seat].to_pbn(),
            "hcp": deal[seat].hcp,
            "shape": list(deal[seat].shape),
        }
        for seat in Seat
    }


def _solution_json(deal: Deal, table: DDTable) -> dict[str, Any]:
    return {
        "deal": deal.to_pbn(),
        "dd": str(table),
        "tricks": table.as_dict(),
        "hands": _hand_json(deal),
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
            "after the first); '-' reads one deal per line from standard input.",
            show_default=False,
        ),
    ] = None,
    file: Annotated[
        str | None, typer.Option("--file", "-f", help="Solve one PBN deal per line of a file.")
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
      bridgescore deal --count 10 --seed 3 | bridgescore solve - --json
    """
    text = " ".join(deal or [])
    if file is None and text == "-":
        file = "-"
    if file is not None:
        _solve_batch(file, threads, as_json=as_json, as_hex=as_hex)
        return
    if not text:
        raise fail("nothing to solve: give a DEAL in PBN, '-' or --file F (see --help)", code=2)
    try:
        parsed = Deal.from_pbn(text)
    except BridgeError as error:
        raise fail(error) from None
    (table,) = _solve([parsed], threads)
    if as_json:
        echo_json(_solution_json(parsed, table))
    elif as_hex:
        typer.echo(str(table))
    else:
        typer.echo(format_solution(parsed, table, symbols=symbols))


def _solve_batch(path: str, threads: int | None, *, as_json: bool, as_hex: bool) -> None:
    # Read and check every line first, then solve the good deals in one batched call.
    bad = BadLines()
    good = [(number, deal) for number, _, deal in read_batch(path, Deal.from_pbn, bad)]
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
