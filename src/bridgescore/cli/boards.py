"""The board-set options of ``bridgescore deal``: ``--boards``, ``--seed-file``,
``--commit``, ``--analyse`` and ``--verify`` (``deal_command`` only dispatches here)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

import typer

from bridgescore.board import Board
from bridgescore.boardset import (
    DealSeed,
    SeedError,
    analyse_boards,
    commitment_text,
    deal_set,
    parse_board_range,
    read_commitment,
    verify_set,
)
from bridgescore.cli.common import fail, no_boards, read_input_bytes
from bridgescore.cli.outputs import check_output_path
from bridgescore.cli.progress import ProgressDisplay
from bridgescore.deal import Deal
from bridgescore.errors import BridgeError
from bridgescore.formats.boardset import (
    BoardSetFormat,
    board_file_text,
    check_event,
    format_boards,
    guess_format,
    read_board_text,
)
from bridgescore.formats.duplimate import check_board_run

__all__ = [
    "BoardFile",
    "analyse_with_progress",
    "check_set_output",
    "deal_board_set",
    "deal_practice_set",
    "read_board_file",
    "verify_board_set",
    "write_board_set",
]

# The dealing machine's files: written to a named file, never to a terminal.
_MACHINE_FORMATS = ("dlm", "dup")


def _read_text(path: str, what: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise fail(f"cannot read {what} {path!r}: {error.strerror}", code=2) from None
    except UnicodeDecodeError:
        raise fail(f"{what} {path!r} is not UTF-8 text", code=2) from None


def _write_private(path: Path, text: str) -> None:
    """Write a secret: only the owner may read it, and never over an existing file."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise fail(f"{str(path)!r} already exists: not overwriting it", code=2) from None
    except OSError as error:
        raise fail(f"cannot write {str(path)!r}: {error.strerror}", code=2) from None
    with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
        stream.write(text)


def _seed(seed_number: int | None, seed_file: str | None, boards: int) -> DealSeed:
    if seed_number is not None:
        typer.echo(
            f"warning: --seed {seed_number} deals a guessable set, for tests and examples only; "
            "deal boards for play with --seed-file",
            err=True,
        )
        seed = DealSeed.from_test_number(seed_number)
        if seed_file is not None:
            _write_private(Path(seed_file), seed.to_text())
        return seed
    if seed_file is not None and Path(seed_file).exists():
        try:
            seed = DealSeed.from_text(_read_text(seed_file, "seed file"))
        except SeedError as error:
            raise fail(f"{seed_file}: {error}", code=2) from None
        typer.echo(f"dealing again from the seed in {seed_file}", err=True)
        return seed
    seed = DealSeed.fresh(boards)
    if seed_file is not None:
        _write_private(Path(seed_file), seed.to_text())
        typer.echo(
            f"new secret seed ({seed.bits} bits) written to {seed_file}: keep it secret "
            "until play is over; it deals this set again",
            err=True,
        )
    else:
        typer.echo(
            f"secret seed ({seed.bits} bits), keep it to deal this set again "
            "(or use --seed-file F next time):\n" + seed.to_text().rstrip(),
            err=True,
        )
    return seed


def analyse_with_progress(
    boards: list[Board], threads: int | None = None, progress: bool | None = None
) -> list[Board]:
    """DD tables and par for the boards, with progress on standard error.

    ``progress`` is the ``--progress/--no-progress`` option (None: only on a terminal).
    """
    display = ProgressDisplay(progress, unit="boards", transient=True)
    try:
        return analyse_boards(
            boards, threads=threads, progress=None if display.mode == "off" else display
        )
    except ImportError as error:
        raise fail(str(error)) from None
    finally:
        display.close()


def check_set_output(numbers: list[int], fmt: BoardSetFormat, output: str | None) -> None:
    """Refuse, before anything is dealt, a set its file cannot hold or a place it
    cannot be written: a dealing machine's file (DLM, DUP) goes to a named file and
    holds a run of boards up to 99."""
    if fmt in _MACHINE_FORMATS:
        if output is None or output == "-":
            raise fail(
                f"--format {fmt} writes the dealing machine's file: name it, as in "
                f"'bridgescore deal --boards 1-32 --format {fmt} set.{fmt}'",
                code=2,
            )
        try:
            check_board_run(numbers, fmt)
        except BridgeError as error:
            raise fail(error, code=2) from None
    if output is not None and output != "-":
        check_output_path(output, "OUT")


def write_board_set(text: str, output: str | None, count: int) -> None:
    """The set's text to ``output`` (as bytes, unchanged: a DUP file's control
    characters and a DLM file's CR LF stay as they are), else to standard output."""
    if output is None or output == "-":
        typer.echo(text, nl=False)
        return
    try:
        Path(output).write_bytes(text.encode("utf-8"))
    except OSError as error:
        raise fail(f"cannot write {output!r}: {error.strerror}", code=2) from None
    typer.echo(f"{count} board(s) written to {output}", err=True)


def deal_practice_set(
    deals: list[Deal], numbers: list[int], fmt: BoardSetFormat, output: str | None
) -> None:
    """``deal --where/--predeal --boards``: practice deals as the numbered boards of a
    file, each board's dealer and vulnerability by its number."""
    boards = [Board(number, deal) for number, deal in zip(numbers, deals, strict=True)]
    try:
        text = format_boards(boards, fmt)
    except BridgeError as error:
        raise fail(error, code=2) from None
    write_board_set(text, output, len(boards))


def deal_board_set(
    *,
    boards_text: str,
    fmt: BoardSetFormat,
    seed_number: int | None,
    seed_file: str | None,
    commit: str | None,
    analysed: bool,
    threads: int | None,
    event: str | None,
    progress: bool | None = None,
    output: str | None = None,
) -> None:
    """``deal --boards``: deal, optionally commit and analyse, print the set (or
    write it to ``output``)."""
    try:
        numbers = parse_board_range(boards_text)
        check_event(event, fmt)
    except BridgeError as error:
        raise fail(error, code=2) from None
    check_set_output(numbers, fmt, output)
    # Every file this writes is checked before the first is written or a board solved.
    if seed_file is not None and not Path(seed_file).exists():
        check_output_path(seed_file, "--seed-file")
    if commit is not None:
        if Path(commit).exists():
            raise fail(f"{commit!r} already exists: not overwriting it", code=2)
        check_output_path(commit, "--commit")
    seed = _seed(seed_number, seed_file, len(numbers))
    if commit is not None:
        _write_private(Path(commit), commitment_text(seed))
        typer.echo(f"commitment written to {commit}: publish it before play", err=True)
    boards = deal_set(seed, numbers)
    if analysed:
        boards = analyse_with_progress(boards, threads, progress)
    write_board_set(format_boards(boards, fmt, event=event), output, len(boards))


class BoardFile(NamedTuple):
    """The boards of a file, and two counts that differ: the problems reported, and
    the boards they cost (a problem in a comment or the play loses no board)."""

    boards: list[Board]
    problems: int
    missing: int

    def summary(self, path: str) -> str:
        """``1 problem(s) in F (above); no board is missing``: each count its own."""
        lost = (
            f"{self.missing} board(s) could not be read and are missing"
            if self.missing
            else "no board is missing"
        )
        return f"{self.problems} problem(s) in {path} (above); {lost}"


def read_board_file(path: str) -> BoardFile:
    """The boards of a PBN, LIN, CSV or JSON file, its problems and the boards lost.

    Every problem is reported on standard error with its line; the caller goes
    on with the good boards and exits 1 at the end. No board at all exits 1 now;
    an empty or binary file gets the one reader's answer (:func:`read_input_bytes`).
    """
    # Bytes, decoded as formats/ does: Latin-1 PBN and USEBIO files read too.
    text = board_file_text(read_input_bytes(path))
    try:
        read = read_board_text(text, guess_format(path, text))
    except BridgeError as error:
        raise fail(error, code=2) from None
    for problem in read.problems:
        typer.echo(f"{path}: {problem}", err=True)
    if not read.boards and not read.problems:
        raise no_boards(path)
    if not read.boards:
        raise fail(f"{path} holds no deals that could be read", code=1)
    return BoardFile(read.boards, len(read.problems), read.missing)


def verify_board_set(path: str, seed_file: str | None, commit: str | None) -> None:
    """``deal --verify SET --seed-file F [--commit C]``: exit 0 only when every
    board is the one the seed deals and the commitment is the seed's hash."""
    if seed_file is None:
        raise fail("--verify needs the set's revealed seed: give --seed-file F", code=2)
    try:
        seed = DealSeed.from_text(_read_text(seed_file, "seed file"))
        committed = read_commitment(_read_text(commit, "commitment")) if commit else None
    except SeedError as error:
        raise fail(error, code=2) from None
    read = read_board_file(path)
    result = verify_set(read.boards, seed, committed)
    typer.echo(result.summary())
    if read.missing:
        typer.echo(f"{read.missing} board(s) could not be read, so were not checked", err=True)
    unreadable = read.problems
    if seed.test_number is not None:
        typer.echo(f"note: the seed comes from --seed {seed.test_number}: guessable", err=True)
    if not result.ok or unreadable:
        raise typer.Exit(1)
