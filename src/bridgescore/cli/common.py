"""Helpers shared by the subcommands: line-numbered batches and error output."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO, TypeVar

import typer

from bridgescore.core import Seat
from bridgescore.deal import Deal
from bridgescore.errors import BridgeError
from bridgescore.scoring import Rules

__all__ = [
    "BadLines",
    "echo_json",
    "fail",
    "hand_json",
    "numbered_lines",
    "open_input",
    "open_lines",
    "parse_rules",
    "read_batch",
]

_Value = TypeVar("_Value")


def echo_json(data: Any) -> None:
    """Print JSON for scripts: UTF-8, suit symbols kept, stable key order."""
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def fail(error: BridgeError | str, code: int = 1) -> typer.Exit:
    """Print an error for a person and return the exit to raise."""
    typer.echo(f"error: {error}", err=True)
    return typer.Exit(code)


def parse_rules(name: str) -> Rules:
    """The ``--rules`` option read by :meth:`Rules.parse`; a bad name exits 2."""
    try:
        return Rules.parse(name)
    except BridgeError as error:
        raise fail(error, code=2) from None


def open_input(path: str) -> TextIO:
    """``-`` is standard input; anything else a file, with a clear error if unreadable.

    Text is UTF-8 (a byte order mark is dropped). Bytes that are not UTF-8 are
    read as U+FFFD, so the line holding them is reported as a bad line with its
    number, and the batch goes on, instead of stopping with a decoding error.
    """
    if path == "-":
        if isinstance(sys.stdin, io.TextIOWrapper):
            sys.stdin.reconfigure(errors="replace")
        return sys.stdin
    try:
        return Path(path).open(encoding="utf-8-sig", errors="replace")
    except OSError as error:
        raise fail(f"cannot read {path!r}: {error.strerror}", code=2) from None


def numbered_lines(stream: TextIO) -> Iterator[tuple[int, str]]:
    """Non-blank, non-comment lines with their 1-based line numbers."""
    for number, line in enumerate(stream, start=1):
        text = line.strip()
        if text and not text.startswith("#"):
            yield number, text


@contextlib.contextmanager
def open_lines(path: str) -> Iterator[Iterator[tuple[int, str]]]:
    """The numbered lines of a file or of standard input (``-``), closed afterwards."""
    stream = open_input(path)
    with stream if path != "-" else contextlib.nullcontext(stream):
        yield numbered_lines(stream)


class BadLines:
    """The lines of a batch that could not be used.

    Each is told to the user on standard error as ``line N: message`` and kept
    (``records``) for ``--json``; :meth:`exit_if_any` ends the command with exit
    code 1 when there were any, so one bad line never stops the batch but is
    never silent either. With ``deferred=True`` the messages wait for
    :meth:`exit_if_any`, after the command's output (the scorepads, whose
    problems are only known once every deal is in).
    """

    def __init__(self, *, deferred: bool = False) -> None:
        self.records: list[dict[str, Any]] = []
        self._deferred = deferred

    def report(self, number: int, text: str, error: BridgeError | str) -> None:
        if not self._deferred:
            typer.echo(f"line {number}: {error}", err=True)
        self.records.append({"line": number, "input": text, "error": str(error)})

    def __len__(self) -> int:
        return len(self.records)

    def exit_if_any(self, summary: str) -> None:
        """Print ``<count> <summary>`` and exit 1 if any line was bad."""
        if not self.records:
            return
        if self._deferred:
            for record in self.records:
                typer.echo(f"line {record['line']}: {record['error']}", err=True)
        typer.echo(f"{len(self.records)} {summary}", err=True)
        raise typer.Exit(1)


def read_batch(
    path: str, read: Callable[[str], _Value], bad: BadLines
) -> Iterator[tuple[int, str, _Value]]:
    """``(line number, line, read(line))`` for every line ``read`` accepts.

    A line on which ``read`` raises a :class:`BridgeError` goes to ``bad`` and the
    batch goes on with the next one.
    """
    with open_lines(path) as lines:
        for number, line in lines:
            try:
                value = read(line)
            except BridgeError as error:
                bad.report(number, line, error)
                continue
            yield number, line, value


def hand_json(deal: Deal) -> dict[str, Any]:
    """Each hand's PBN text, points and shape, keyed by seat letter."""
    return {
        seat.letter: {
            "hand": deal[seat].to_pbn(),
            "hcp": deal[seat].hcp,
            "shape": list(deal[seat].shape),
        }
        for seat in Seat
    }
