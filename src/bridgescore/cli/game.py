"""``bridgescore game``: score the boards of a PBN, LIN or JSON file and report every problem."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from bridgescore.cli.common import echo_json, fail
from bridgescore.errors import BridgeError
from bridgescore.formats import FORMATS, CheckedRecord, check_record, read_records
from bridgescore.formats.crosscheck import cross_check
from bridgescore.formats.record import Problem

__all__ = ["game_command", "read_checked"]


def read_checked(file: str, format: str | None) -> list[tuple[CheckedRecord, tuple[Problem, ...]]]:
    """Every record of ``file`` scored, with all its problems (its own and the
    disagreements of the file's comparison scores). Exit 2 when unreadable."""
    if format is not None and format not in FORMATS:
        raise fail(f"--format {format!r}: expected one of {', '.join(FORMATS)}", code=2)
    try:
        checked = [check_record(record) for record in read_records(file, format=format)]
    except OSError as error:
        raise fail(f"cannot read {file!r}: {error.strerror}", code=2) from None
    except BridgeError as error:
        raise fail(error, code=2) from None
    extra = cross_check(checked)
    return [
        (item, tuple(sorted(item.problems + tuple(more), key=lambda p: p.line)))
        for item, more in zip(checked, extra, strict=True)
    ]


def _text(item: CheckedRecord, problems: tuple[Problem, ...], *, symbols: bool) -> str:
    played, record = item.played, item.record
    head = f"board {record.board or '?':<4}"
    if record.room:
        head += f" {record.room:<6}"
    if record.table:
        head += f" table {record.table:<3}"
    if played is None:
        line = f"{head} line {record.source.line}: cannot be scored"
    elif played.contract is None:
        line = f"{head} passed out{'':<20}NS {0:+d}"
    else:
        contract = played.contract
        declarer = "?" if contract.declarer is None else contract.declarer.letter
        shown = f"{contract.level}{contract.strain.symbol if symbols else contract.strain.letter}"
        shown += str(contract.doubling)
        made = played.result.format(symbols=symbols)
        line = (
            f"{head} {shown:<6} by {declarer}  {played.tricks:>2} tricks  {made:<10}"
            f"NS {played.score:+d}"
        )
    return "\n".join([line, *(f"  {problem}" for problem in problems)])


def game_command(
    file: Annotated[
        str,
        typer.Argument(
            help="A PBN, LIN or JSON file, or a text file holding a BBO handviewer link "
            "('-' reads standard input).",
            show_default=False,
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
    format: Annotated[
        str | None,
        typer.Option(
            "--format",
            help="pbn, lin or json: the input's format when neither its name nor its "
            "content tells.",
        ),
    ] = None,
    symbols: Annotated[bool, typer.Option(help="Show suit symbols (♠♥♦♣).")] = False,
) -> None:
    """Score the boards of a file: contract, declarer, result and NS score.

    Reads PBN (with tag inheritance, '#' values and tables that leave out a
    board's tags), LIN (BBO hand records, vugraph archives, handviewer links) and
    JSON. Contract and declarer are rebuilt from the auction, the tricks from the
    play and claim, and checked against the file's own Contract, Declarer,
    Result, Score, ScoreIMP, ScoreMP, ScorePercentage and OptimumScore tags.
    Every problem and disagreement is printed with its line number; the exit
    code is 1 if there was any, 2 if the file cannot be read.

    \b
    Examples:
      bridgescore game session.pbn
      bridgescore game match.lin --json
      bridgescore game - --format lin < hands.txt
    """
    results = read_checked(file, format)
    records: list[dict[str, Any]] = []
    problems = 0
    for item, found in results:
        problems += sum(not problem.notice for problem in found)
        if as_json:
            data = item.as_dict()
            data["problems"] = CheckedRecord(item.record, item.played, found).as_dict()["problems"]
            records.append(data)
        else:
            typer.echo(_text(item, found, symbols=symbols))
    if as_json:
        echo_json(records)
    elif not results:
        typer.echo(f"no games found in {file!r}", err=True)
    if problems:
        typer.echo(f"{problems} problem(s) in {len(results)} game(s)", err=True)
        raise typer.Exit(1)
    if not results:
        raise typer.Exit(1)
