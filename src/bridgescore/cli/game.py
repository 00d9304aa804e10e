"""``bridgescore game``: score the played games of a PBN file and report every problem."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, BinaryIO

import typer

from bridgescore.cli.common import echo_json, fail
from bridgescore.pbn import decode_lines
from bridgescore.pbngame import PlayedGame, read_played_games

__all__ = ["game_command"]


def _open_binary(path: str) -> BinaryIO:
    if path == "-":
        return sys.stdin.buffer
    try:
        return Path(path).open("rb")
    except OSError as error:
        raise fail(f"cannot read {path!r}: {error.strerror}", code=2) from None


def _summary(record: PlayedGame) -> dict[str, Any]:
    played = record.played
    data: dict[str, Any] = {"board": record.board, "line": record.game.line}
    if played is not None:
        data.update(played.as_dict())
        data["board"] = record.board
    data["problems"] = [
        {"line": problem.line, "message": problem.message} for problem in record.problems
    ]
    return data


def _text(record: PlayedGame, *, symbols: bool) -> str:
    played = record.played
    board = record.board or "?"
    head = f"board {board:<4}"
    if played is None:
        line = f"{head} line {record.game.line}: cannot be scored"
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
    return "\n".join([line, *(f"  {problem}" for problem in record.problems)])


def game_command(
    file: Annotated[
        str, typer.Argument(help="A PBN file ('-' reads standard input).", show_default=False)
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
    symbols: Annotated[bool, typer.Option(help="Show suit symbols (♠♥♦♣).")] = False,
) -> None:
    """Score the games of a PBN file: contract, declarer, result and NS score.

    Contract and declarer are rebuilt from the auction, the tricks from the play
    where given, and checked against the Contract, Declarer, Result and Score
    tags. Every problem is printed with its line number; the exit code is 1 if
    there was any.

    \b
    Examples:
      bridgescore game session.pbn
      bridgescore game session.pbn --json
    """
    stream = _open_binary(file)
    records: list[dict[str, Any]] = []
    games = problems = 0
    try:
        for record in read_played_games(decode_lines(stream)):
            games += 1
            problems += len(record.problems)
            if as_json:
                records.append(_summary(record))
            else:
                typer.echo(_text(record, symbols=symbols))
    finally:
        if file != "-":
            stream.close()
    if as_json:
        echo_json(records)
    elif games == 0:
        typer.echo(f"no games found in {file!r}", err=True)
    if problems:
        typer.echo(f"{problems} problem(s) in {games} game(s)", err=True)
        raise typer.Exit(1)
    if games == 0:
        raise typer.Exit(1)
