"""``bridgescore solve`` (double-dummy tables) and ``bridgescore deal`` (random deals)."""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer

from bridgescore.cli.common import echo_json, fail, numbered_lines, open_input
from bridgescore.core import Seat
from bridgescore.ddtable import DDTable
from bridgescore.deal import Deal, random_deals
from bridgescore.errors import BridgeError, NotationError
from bridgescore.formats import BoardRecord, detect_format, read_records

__all__ = ["deal_command", "format_solution", "solve_command"]


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
        parsed = _deal_of(text)
    except BridgeError as error:
        raise fail(error) from None
    (table,) = _solve([parsed], threads)
    if as_json:
        echo_json(_solution_json(parsed, table))
    elif as_hex:
        typer.echo(str(table))
    else:
        typer.echo(format_solution(parsed, table, symbols=symbols))


def _deal_of(text: str) -> Deal:
    """A PBN deal, or the deal of one LIN record or handviewer link."""
    try:
        return Deal.from_pbn(text)
    except BridgeError as error:
        try:
            format = detect_format(None, text)
        except BridgeError:
            raise error from None
        records = list(read_records(text=text, format=format))
        if len(records) != 1 or records[0].deal is None:
            problems = "; ".join(str(p) for r in records for p in r.problems)
            raise NotationError(
                f"expected one deal: {text[:60]!r} gives {len(records)} record(s)"
                + (f" ({problems})" if problems else "")
            ) from None
        return records[0].deal


def _file_records(path: str) -> tuple[list[BoardRecord] | None, str | None]:
    """The records of a PBN, LIN or JSON file (by name or content), else ``None``;
    and standard input's text, read once."""
    if path == "-":
        text = sys.stdin.read()
        try:
            format = detect_format(None, text)
        except BridgeError:
            return None, text
        return list(read_records(text=text, format=format)), text
    try:
        head = Path(path).read_bytes()[:4096].decode("utf-8", errors="replace")
        format = detect_format(path, head)
    except OSError as error:
        raise fail(f"cannot read {path!r}: {error.strerror}", code=2) from None
    except BridgeError:
        return None, None
    return list(read_records(path, format=format)), None


def _solve_batch(path: str, threads: int | None, *, as_json: bool, as_hex: bool) -> None:
    # Read and check every line first, then solve the good deals in one batched call.
    good: list[tuple[int, Deal]] = []
    errors: list[dict[str, Any]] = []
    boards, text = _file_records(path)
    if boards is not None:
        # A PBN, LIN or JSON file: the deal of each record (numbered by its line).
        for board in boards:
            number = board.source.line or board.source.record
            if board.deal is not None:
                good.append((number, board.deal))
                continue
            problem = "; ".join(str(p) for p in board.problems) or "the record has no deal"
            typer.echo(f"line {number}: {problem}", err=True)
            errors.append({"line": number, "input": str(board.source), "error": problem})
    else:
        stream = open_input(path) if text is None else io.StringIO(text)
        with stream if path != "-" else contextlib.nullcontext(stream):
            for number, line in numbered_lines(stream):
                try:
                    good.append((number, Deal.from_pbn(line)))
                except BridgeError as error:
                    typer.echo(f"line {number}: {error}", err=True)
                    errors.append({"line": number, "input": line, "error": str(error)})
    tables = _solve([deal for _, deal in good], threads)
    records = errors + [
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
    if errors:
        typer.echo(f"{len(errors)} line(s) could not be solved", err=True)
        raise typer.Exit(1)


def deal_command(
    count: Annotated[int, typer.Option("--count", "-n", min=0, help="How many deals.")] = 1,
    seed: Annotated[
        int | None,
        typer.Option(min=0, help="Seed for reproducible deals (default: a fresh one, shown)."),
    ] = None,
    diagram: Annotated[bool, typer.Option(help="Show each deal as a hand diagram.")] = False,
    symbols: Annotated[bool, typer.Option(help="Show suit symbols in diagrams.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
) -> None:
    """Deal uniformly random deals, printed in PBN (one a line).

    The same seed gives the same deals on any machine.

    \b
    Examples:
      bridgescore deal --count 5 --seed 1
      bridgescore deal --seed 7 --diagram
      bridgescore deal -n 100 --seed 2 --json
    """
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0])
        typer.echo(f"seed {seed} (pass --seed {seed} to deal these again)", err=True)
    deals = random_deals(seed, count)
    if as_json:
        echo_json(
            {
                "seed": seed,
                "deals": [
                    {"number": number, "deal": deal.to_pbn(), "hands": _hand_json(deal)}
                    for number, deal in enumerate(deals, start=1)
                ],
            }
        )
        return
    for number, deal in enumerate(deals, start=1):
        if diagram:
            typer.echo(f"Deal {number}: {deal.to_pbn()}\n")
            typer.echo(deal.diagram(symbols=symbols) + "\n")
        else:
            typer.echo(deal.to_pbn())
