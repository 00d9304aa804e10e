"""``bridgescore convert``: boards from one format to another (PBN, LIN, JSON, CSV)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from bridgescore.cli.common import fail, read_input_records
from bridgescore.cli.outputs import check_output_path
from bridgescore.errors import BridgeError
from bridgescore.formats import FORMATS, BoardRecord, format_records

__all__ = ["convert_command"]


def _target(output: str, to: str | None) -> str:
    if to is not None:
        if to not in FORMATS:
            raise fail(f"--to {to!r}: expected one of {', '.join(FORMATS)}", code=2)
        return to
    suffix = Path(output).suffix.lower().lstrip(".")
    if output == "-" or suffix not in FORMATS:
        raise fail(
            f"cannot tell the output format of {output!r}: name it .pbn, .lin, .json "
            "or .csv, or give --to pbn|lin|json|csv",
            code=2,
        )
    return suffix


def convert_command(
    source: Annotated[
        str,
        typer.Argument(
            metavar="IN",
            help="A PBN, LIN, JSON or board-set CSV file, or a handviewer link in a text file "
            "('-' reads standard input).",
            show_default=False,
        ),
    ],
    output: Annotated[
        str,
        typer.Argument(
            metavar="OUT",
            help="The file to write ('-' writes standard output).",
            show_default=False,
        ),
    ],
    to: Annotated[
        str | None,
        typer.Option("--to", help="pbn, lin, json or csv (default: from OUT's extension)."),
    ] = None,
    from_: Annotated[
        str | None,
        typer.Option(
            "--from", help="pbn, lin, json or csv (default: from IN's extension, then its content)."
        ),
    ] = None,
) -> None:
    """Convert boards between PBN, LIN, JSON and CSV: every tag the target can hold.

    Each board is read into one record and written back: deal, dealer,
    vulnerability, players, teams, table and room, auction with alerts and
    explanations, play, claim, contract, result, the file's scores and unknown
    tags (kept and written back). Problems met while reading are printed with
    their line (exit code 1); the boards are written all the same. LIN is
    written one board a line, in the form BBO's handviewer accepts: a table's
    rows (OptimumResultTable) go on their board's line as + tags; a board
    with a line break in any other value, or a comma in a player's name, is
    left out and named (exit code 1).

    \b
    Examples:
      bridgescore convert match.lin match.pbn
      bridgescore convert session.pbn - --to lin
      bridgescore convert - boards.json --from lin < hands.txt
    """
    target = _target(output, to)
    if output != "-":
        check_output_path(output, "OUT")
    if from_ is not None and from_ not in FORMATS:
        raise fail(f"--from {from_!r}: expected one of {', '.join(FORMATS)}", code=2)
    records = read_input_records(source, from_)
    problems = 0
    good: list[BoardRecord] = []
    for record in records:
        for problem in record.problems:
            problems += not problem.notice
            typer.echo(f"{record.source}: {problem}", err=True)
        try:
            format_records([record], target)
        except BridgeError as error:
            problems += 1
            typer.echo(f"{record.source}: cannot be written as {target}: {error}", err=True)
            continue
        good.append(record)
    text = format_records(good, target)
    if output == "-":
        sys.stdout.write(text)
    else:
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as error:
            raise fail(f"cannot write {output!r}: {error.strerror}", code=2) from None
    if problems:
        typer.echo(f"{problems} problem(s) in {len(records)} board(s)", err=True)
        raise typer.Exit(1)
