"""Helpers shared by the subcommands: line-numbered batches and error output."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

import typer

from bridgescore.errors import BridgeError

__all__ = ["echo_json", "fail", "numbered_lines", "open_input"]


def echo_json(data: Any) -> None:
    """Print JSON for scripts: UTF-8, suit symbols kept, stable key order."""
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def fail(error: BridgeError | str, code: int = 1) -> typer.Exit:
    """Print an error for a person and return the exit to raise."""
    typer.echo(f"error: {error}", err=True)
    return typer.Exit(code)


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
