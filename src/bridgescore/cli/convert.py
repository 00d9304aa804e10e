"""``bridgescore convert``: boards from one format to another (PBN, LIN, JSON, CSV, and
the dealing machine's DLM and DUP)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from bridgescore.cli.common import fail, read_input_records
from bridgescore.cli.outputs import check_output_path
from bridgescore.errors import BridgeError
from bridgescore.formats import FORMATS, BoardRecord, format_records
from bridgescore.formats.duplimate import DEALING_FORMATS

__all__ = ["convert_command"]

_TARGETS = (*FORMATS, *DEALING_FORMATS)


def _target(output: str, to: str | None) -> str:
    if to is not None:
        if to not in _TARGETS:
            raise fail(f"--to {to!r}: expected one of {', '.join(_TARGETS)}", code=2)
        return to
    suffix = Path(output).suffix.lower().lstrip(".")
    if output == "-" or suffix not in _TARGETS:
        raise fail(
            f"cannot tell the output format of {output!r}: name it .pbn, .lin, .json, "
            ".csv, .dlm or .dup, or give --to pbn|lin|json|csv|dlm|dup",
            code=2,
        )
    return suffix


def convert_command(
    source: Annotated[
        str,
        typer.Argument(
            metavar="IN",
            help="A PBN, LIN, JSON or board-set CSV file, a Duplimate DLM or DUP file, or a "
            "handviewer link in a text file ('-' reads standard input).",
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
        typer.Option(
            "--to", help="pbn, lin, json, csv, dlm or dup (default: from OUT's extension)."
        ),
    ] = None,
    from_: Annotated[
        str | None,
        typer.Option(
            "--from",
            help="pbn, lin, json, csv, dlm or dup (default: from IN's extension, then its "
            "content).",
        ),
    ] = None,
) -> None:
    """Convert boards between PBN, LIN, JSON, CSV, DLM and DUP: every tag the target can hold.

    Each board is read into one record and written back: deal, dealer,
    vulnerability, players, teams, table and room, auction with alerts and
    explanations, play, claim, contract, result, the file's scores and unknown
    tags (kept and written back). Problems met while reading are printed with
    their line (exit code 1); the boards are written all the same. LIN is
    written one board a line, in the form BBO's handviewer accepts: a table's
    rows (OptimumResultTable) go on their board's line as + tags; a board
    with a line break in any other value, or a comma in a player's name, is
    left out and named (exit code 1). A board played to the last card keeps
    its result (the tricks its play gives) where no claim or Result states it.
    Duplimate's DLM and DUP files hold the
    deals alone, of a run of boards up to 99.

    \b
    Examples:
      bridgescore convert match.lin match.pbn
      bridgescore convert session.pbn - --to lin
      bridgescore convert - boards.json --from lin < hands.txt
    """
    target = _target(output, to)
    if output != "-":
        check_output_path(output, "OUT")
    if from_ is not None and from_ not in _TARGETS:
        raise fail(f"--from {from_!r}: expected one of {', '.join(_TARGETS)}", code=2)
    records = read_input_records(source, from_)
    problems = 0
    good: list[BoardRecord] = []
    for record in records:
        if record.result is None and record.claim is None and record.tricks_taken is not None:
            # A board played to the last card (LIN's pc cards, no mc): its result is in
            # the play, and a format that states results (PBN's Result) keeps it.
            record = replace(record, result=record.tricks_taken)
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
    try:
        text = format_records(good, target)
    except BridgeError as error:
        raise fail(f"cannot write {output!r} as {target}: {error}") from None
    if output == "-":
        sys.stdout.write(text)
    else:
        try:
            # As bytes: a DLM file's CR LF and a DUP file's bytes are written unchanged.
            Path(output).write_bytes(text.encode("utf-8"))
        except OSError as error:
            raise fail(f"cannot write {output!r}: {error.strerror}", code=2) from None
    if problems:
        typer.echo(f"{problems} problem(s) in {len(records)} board(s)", err=True)
        raise typer.Exit(1)
