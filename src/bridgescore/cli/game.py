"""``bridgescore game``: score the boards of a PBN, LIN or JSON file and report every problem."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from bridgescore.cli.common import echo_json, fail, read_input_records
from bridgescore.formats import FORMATS, CheckedRecord, check_record
from bridgescore.formats.crosscheck import cross_check, dd_disagreements
from bridgescore.formats.record import BoardRecord, Problem

__all__ = ["game_command", "is_hand_record", "read_checked"]


def read_checked(
    file: str, format: str | None, *, check_dd: bool = False
) -> list[tuple[CheckedRecord, tuple[Problem, ...]]]:
    """Every record of ``file`` scored, with all its problems (its own, the
    disagreements of the file's comparison scores and, with ``check_dd``, of its
    DoubleDummyTricks tags with DDS). Exit 2 when unreadable, 1 when it holds no boards."""
    if format is not None and format not in FORMATS:
        raise fail(f"--format {format!r}: expected one of {', '.join(FORMATS)}", code=2)
    checked = [_checked(record) for record in read_input_records(file, format)]
    extra = cross_check(checked)
    if check_dd:
        _check_dd(checked, extra)
    return [
        (item, tuple(sorted(item.problems + tuple(more), key=lambda p: p.line)))
        for item, more in zip(checked, extra, strict=True)
    ]


def _checked(record: BoardRecord) -> CheckedRecord:
    """The record scored; a hand record (:func:`is_hand_record`) keeps only the
    problems of its reading: it has no result to lack."""
    checked = check_record(record)
    if checked.played is None and is_hand_record(record):
        return CheckedRecord(record, None, record.problems)
    return checked


def _check_dd(checked: list[CheckedRecord], extra: list[list[Problem]]) -> None:
    """Solve (DDS) every deal with a DoubleDummyTricks tag and list the disagreements."""
    try:
        from bridgescore.solver import solve_many
    except ImportError as error:
        raise fail(
            f"--dd needs the DDS extra: pip install 'bridgescore[dds]' ({error})", code=2
        ) from None
    wanted = [i for i, item in enumerate(checked) if item.record.dd_tricks and item.record.deal]
    deals = [checked[i].record.deal for i in wanted]
    tables = solve_many([deal for deal in deals if deal is not None])
    for index, table in zip(wanted, tables, strict=True):
        extra[index].extend(dd_disagreements(checked[index], table))


def is_hand_record(record: BoardRecord) -> bool:
    """Whether a record is a board's hand record only: a deal and nothing played (no
    contract, result, score, calls or cards), so there is nothing to score."""
    return (
        record.deal is not None
        and record.contract is None
        and not record.passed_out
        and record.result is None
        and record.claim is None
        and not record.scores
        and not record.auction
        and not record.play
    )


def _text(item: CheckedRecord, problems: tuple[Problem, ...], *, symbols: bool) -> str:
    played, record = item.played, item.record
    head = f"board {record.board or '?':<4}"
    if record.room:
        head += f" {record.room:<6}"
    if record.table:
        head += f" table {record.table:<3}"
    if played is None and is_hand_record(record):
        line = f"{head} a hand record: no result"
    elif played is None:
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
            help="A PBN, LIN, JSON or board-set CSV file, or a text file holding a BBO "
            "handviewer link ('-' reads standard input).",
            show_default=False,
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
    format: Annotated[
        str | None,
        typer.Option(
            "--format",
            help="pbn, lin, json or csv: the input's format when neither its name nor its "
            "content tells.",
        ),
    ] = None,
    symbols: Annotated[bool, typer.Option(help="Show suit symbols (♠♥♦♣).")] = False,
    dd: Annotated[
        bool,
        typer.Option(
            "--dd",
            help="Also solve every deal that has a DoubleDummyTricks tag (DDS) and list "
            "each tag that disagrees.",
        ),
    ] = False,
) -> None:
    """Score the boards of a file: contract, declarer, result and NS score.

    Reads PBN (with tag inheritance, '#' values and tables that leave out a
    board's tags), LIN (BBO hand records, vugraph archives, handviewer links) and
    JSON. Contract and declarer are rebuilt from the auction, the tricks from the
    play and claim, and checked against the file's own Contract, Declarer,
    Result, Score, ScoreIMP, ScoreMP, ScorePercentage and OptimumScore tags (and,
    with --dd, DoubleDummyTricks against DDS).
    Every problem and disagreement is printed with its line number; the exit
    code is 1 if there was any or the file holds no boards, 2 if the file cannot
    be read.

    \b
    Examples:
      bridgescore game session.pbn
      bridgescore game match.lin --json
      bridgescore game championship.pbn --dd
      bridgescore game - --format lin < hands.txt
    """
    results = read_checked(file, format, check_dd=dd)
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
    hand_records = sum(is_hand_record(item.record) for item, _ in results)
    if hand_records == len(results):
        typer.echo(
            f"{file} is a hand record: {hand_records} board(s), no results to score "
            "(its deals: bridgescore par, solve or handrecord)",
            err=True,
        )
    if problems:
        typer.echo(f"{problems} problem(s) in {len(results)} game(s)", err=True)
        raise typer.Exit(1)
