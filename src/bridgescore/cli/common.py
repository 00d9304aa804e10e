"""Helpers shared by the subcommands: the one input reader, line-numbered batches,
error output (with ``--json``, a JSON error object too) and the command group.

Every command that reads a file reads it through :func:`read_input` (lines) or
:func:`read_input_records` (PBN, LIN, JSON), so an empty file and a binary one
get the same answer everywhere: ``no boards found in 'F'`` (exit 1) and
``cannot tell the format of 'F': it holds binary data ...`` (exit 2).
"""

from __future__ import annotations

import contextlib
import inspect
import io
import json
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

import typer
from typer.core import TyperGroup

from bridgescore.errors import BridgeError, EmptyInputError

# Only errors at import: this module is loaded with every command (the group class),
# so `bridgescore deal` starts without the scoring, deal and formats modules.
if TYPE_CHECKING:
    from bridgescore.deal import Deal
    from bridgescore.formats import BoardRecord
    from bridgescore.scoring import Rules

__all__ = [
    "BadLines",
    "CommandGroup",
    "command_group",
    "echo_json",
    "error_json",
    "fail",
    "fail_input",
    "hand_json",
    "json_asked",
    "no_boards",
    "no_line_read",
    "numbered_lines",
    "open_input",
    "open_lines",
    "parse_rules",
    "read_batch",
    "read_input",
    "read_input_bytes",
    "read_input_records",
    "refuse_results_file",
]

_Value = TypeVar("_Value")

# Whether the command line being run holds --json: set by CommandGroup.main for the
# whole run, read by fail(), so every command's errors follow the one rule.
_JSON_ERRORS: ContextVar[bool] = ContextVar("bridgescore_json_errors", default=False)


def command_group(help_text: str) -> typer.Typer:
    """A group of subcommands (``bridgescore movement ...``) with the application's
    settings: bare help when no subcommand is given, plain text (no rich markup), no
    shell-completion options and no pretty tracebacks."""
    return typer.Typer(
        help=help_text,
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode=None,
        pretty_exceptions_enable=False,
    )


def echo_json(data: Any) -> None:
    """Print JSON for scripts: UTF-8, suit symbols kept, stable key order.

    JSON has no NaN or Infinity (Python's ``json`` would write them, and other
    readers refuse the document): such a number (a standard error of one deal)
    is written as ``null``, and a note on standard error names where.
    """
    from bridgescore.formats.json import finite

    replaced: list[str] = []
    written = finite(data, replaced)
    if replaced:
        shown = ", ".join(replaced[:5]) + (f" and {len(replaced) - 5} more" if replaced[5:] else "")
        typer.echo(
            f"note: {len(replaced)} value(s) not a number or infinite, written as null "
            f"(JSON has no NaN or Infinity): {shown}",
            err=True,
        )
    typer.echo(json.dumps(written, ensure_ascii=False, indent=2, allow_nan=False))


def error_json(message: str, code: int) -> dict[str, Any]:
    """The JSON error object: ``{"error": message, "exit_code": code}``."""
    return {"error": message, "exit_code": code}


def json_asked(args: Sequence[str]) -> bool:
    """Whether a command line asks for JSON: ``--json`` before any ``--``."""
    words = list(args)
    if "--" in words:
        words = words[: words.index("--")]
    return "--json" in words


def fail(error: BridgeError | str, code: int = 1) -> typer.Exit:
    """Print an error and return the exit to raise.

    The message goes to standard error as ``error: ...``; when the command line
    holds ``--json``, standard output also gets the JSON error object
    (:func:`error_json`), so a script reading standard output always reads JSON.
    """
    message = str(error)
    typer.echo(f"error: {message}", err=True)
    if _JSON_ERRORS.get():
        echo_json(error_json(message, code))
    return typer.Exit(code)


def fail_input(error: BridgeError) -> typer.Exit:
    """:func:`fail` for a file that could not be read: exit 1 when it holds no
    boards, 2 when it cannot be read at all (binary, format unknown)."""
    return fail(error, code=1 if isinstance(error, EmptyInputError) else 2)


def no_boards(path: str) -> typer.Exit:
    """:func:`fail` with the one message for input without boards (exit 1)."""
    from bridgescore.formats import no_boards as no_boards_error

    return fail(no_boards_error(path), code=1)


def refuse_results_file(path: str, text: str, wanted: str) -> None:
    """Exit 2 with one message when a file read for ``wanted`` (``deals``) is an XML
    file, where each of its lines would be an error of its own: a USEBIO results
    file says where it is read (``session import``, ``handrecord``)."""
    from bridgescore.formats.usebio import looks_like_usebio

    if not looks_like_usebio(text):
        return
    if re.search(r"<(?:!DOCTYPE\s+)?USEBIO\b", text[:4096], re.IGNORECASE):
        raise fail(
            f"{path} is a USEBIO results file (XML), not a file of {wanted}: import its "
            f"results with 'bridgescore session import EVENT {path}', or print its hand "
            f"records with 'bridgescore handrecord {path} --out F.html'",
            code=2,
        )
    raise fail(f"{path} is an XML file, not a file of {wanted}", code=2)


def no_line_read(path: str, bad: BadLines, wanted: str) -> typer.Exit:
    """:func:`fail` (exit 1) for a file of lines none of which is one of ``wanted``:
    one message naming the first line's problem, not one a line."""
    first = bad.records[0]
    return fail(
        f"{path} holds no {wanted}: none of its {len(bad)} lines reads as one "
        f"(line {first['line']}: {first['error']})"
    )


def parse_rules(name: str) -> Rules:
    """The ``--rules`` option read by :meth:`Rules.parse`; a bad name exits 2."""
    from bridgescore.scoring import Rules

    try:
        return Rules.parse(name)
    except BridgeError as error:
        raise fail(error, code=2) from None


def read_input_bytes(path: str, binary: Callable[[bytes], bool] | None = None) -> bytes:
    """The bytes of a file, or of standard input (``-``), once the one check of
    :func:`bridgescore.formats.check_input` passes them: an empty file exits 1
    (``no boards found in 'F'``), a binary one 2 (``cannot tell the format of
    'F'``), an unreadable one 2. A binary file for which ``binary`` says True (the
    Bridgemate databases ``session import`` reads) is not checked."""
    from bridgescore.formats import check_input

    try:
        if path == "-":
            stream = sys.stdin
            data = stream.buffer.read() if hasattr(stream, "buffer") else stream.read().encode()
        else:
            data = Path(path).read_bytes()
    except OSError as error:
        raise fail(f"cannot read {path!r}: {error.strerror}", code=2) from None
    if binary is not None and binary(data):
        return data
    try:
        check_input(data, path)
    except BridgeError as error:
        raise fail_input(error) from None
    return data


def read_input(path: str) -> str:
    """The text of a file, or of standard input (``-``): :func:`read_input_bytes`
    decoded as every reader decodes (UTF-8, else Windows-1252, else Latin-1, line
    by line)."""
    from bridgescore.formats import decode_text

    return decode_text(read_input_bytes(path))


def read_input_records(path: str, format: str | None = None) -> list[BoardRecord]:
    """Every record of a PBN, LIN or JSON file (``-``: standard input), its format
    ``format`` or told by its name, then its content.

    Read by :func:`read_input`; a file whose format cannot be told exits 2, one
    without records 1 (``no boards found in 'F'``).
    """
    from bridgescore.formats import read_text

    text = read_input(path)
    if format is None:
        refuse_results_file(path, text, "boards (PBN, LIN or JSON)")
    try:
        records = list(read_text(text, format, None if path == "-" else path))
    except BridgeError as error:
        raise fail_input(error) from None
    if not records:
        raise no_boards(path)
    return records


def open_input(path: str) -> TextIO:
    """The text of a file or of standard input (``-``) as a stream: :func:`read_input`."""
    return io.StringIO(read_input(path))


def numbered_lines(stream: TextIO) -> Iterator[tuple[int, str]]:
    """Non-blank, non-comment lines with their 1-based line numbers."""
    for number, line in enumerate(stream, start=1):
        text = line.strip()
        if text and not text.startswith("#"):
            yield number, text


@contextlib.contextmanager
def open_lines(path: str) -> Iterator[Iterator[tuple[int, str]]]:
    """The numbered lines of a file or of standard input (``-``), read by
    :func:`read_input`; none at all (comments and blank lines only) exits 1 with
    ``no boards found``."""
    lines = list(numbered_lines(open_input(path)))
    if not lines:
        raise no_boards(path)
    yield iter(lines)


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
        self._untold: list[dict[str, Any]] = []

    def report(
        self, number: int, text: str, error: BridgeError | str, *, quiet: bool = False
    ) -> None:
        """Keep a bad line, and tell it now; ``quiet`` keeps it untold until
        :meth:`tell` (a file none of whose lines is good is told once instead)."""
        record = {"line": number, "input": text, "error": str(error)}
        if quiet:
            self._untold.append(record)
        elif not self._deferred:
            typer.echo(f"line {number}: {error}", err=True)
        self.records.append(record)

    def tell(self) -> None:
        """Tell the lines kept quiet, in their order."""
        for record in self._untold:
            typer.echo(f"line {record['line']}: {record['error']}", err=True)
        self._untold.clear()

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
    from bridgescore.core import Seat

    return {
        seat.letter: {
            "hand": deal[seat].to_pbn(),
            "hcp": deal[seat].hcp,
            "shape": list(deal[seat].shape),
        }
        for seat in Seat
    }


def _first_sentence(command: Any) -> str:
    """A command's short help: its own, else the first sentence of its help, whole."""
    if command.short_help:
        return str(command.short_help)
    paragraph = inspect.cleandoc(command.help or "").split("\n\n")[0].replace("\b", "")
    text = " ".join(paragraph.split())
    end = re.search(r"\.(\s|$)", text)
    return text if end is None else text[: end.start() + 1]


class CommandGroup(TyperGroup):
    """The ``bridgescore`` group and its subgroups (``study``, ``session``).

    Two changes to Typer's group: the command list shows each command's whole
    first sentence, wrapped to the width, where click cuts it short with "...";
    and a command line holding ``--json`` gets a JSON error object on standard
    output for every error, the usage errors click reports included.
    """

    def main(self, args: Sequence[str] | None = None, *rest: Any, **extra: Any) -> Any:
        words = list(sys.argv[1:] if args is None else args)
        token = _JSON_ERRORS.set(json_asked(words))
        try:
            return super().main(words, *rest, **extra)
        finally:
            _JSON_ERRORS.reset(token)

    def make_context(
        self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any
    ) -> Any:
        with _usage_errors_as_json():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Any) -> Any:
        with _usage_errors_as_json():
            return super().invoke(ctx)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None and not hasattr(command, "commands") and not ctx.resilient_parsing:
            _refuse_repeated_options(command, name, ctx, rest)
        return name, command, rest

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, _first_sentence(command)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _takes_one_value(param: Any) -> bool:
    return (
        getattr(param, "param_type_name", "") == "option"
        and not param.multiple
        and not param.is_flag
        and not getattr(param, "count", False)
        and param.nargs == 1
    )


def _refuse_repeated_options(command: Any, name: str | None, parent: Any, args: list[str]) -> None:
    """A usage error for an option that takes one value given more than once
    (``--seed 1 --seed 2``): click keeps the last and says nothing, so the first
    would be lost without a word. Options that may repeat (``--contract``) and
    flags are not counted.

    The words are parsed by the command's own parser on a context of their own,
    so nothing is read twice; words it cannot parse are left to the real parse,
    which reports them.
    """
    probe = command.context_class(
        command, info_name=name, parent=parent, **command.context_settings
    )
    try:
        _, _, order = command.make_parser(probe).parse_args(args=list(args))
    except Exception:  # a usage error: the real parse reports it
        return
    counts: dict[str, int] = {}
    for param in order:
        if _takes_one_value(param):
            counts[param.name] = counts.get(param.name, 0) + 1
    for param in command.params:
        if counts.get(param.name, 0) > 1:
            option = max(param.opts, key=len)
            probe.fail(
                f"Option '{option}' was given {counts[param.name]} times: it takes one "
                "value, so give it once"
            )


def _suggest_nearest_option(error: Exception) -> None:
    """Click's "No such option" suggests the closest spellings alone (``--table``
    for ``--vulnerable``); suggest the option the word starts with first
    (``--vul``), by :func:`bridgescore.cli.words.nearest_options`."""
    from bridgescore.cli.words import nearest_options

    name = getattr(error, "option_name", None)
    context = getattr(error, "ctx", None)
    if not isinstance(name, str) or not hasattr(error, "possibilities") or context is None:
        return
    known = [option for param in context.command.params for option in param.opts]
    known += [option for param in context.command.params for option in param.secondary_opts]
    close = nearest_options(name, known)
    # One wording with the commands that read words themselves (cli/words.py).
    setattr(error, "possibilities", None)  # noqa: B010
    if close:
        setattr(error, "message", f"No such option: {name} (did you mean {' or '.join(close)}?)")  # noqa: B010


@contextlib.contextmanager
def _usage_errors_as_json() -> Iterator[None]:
    """With --json, a usage error (a bad option, a missing argument) also as JSON.

    Click's usage errors carry ``exit_code`` and ``format_message``; they are told
    apart by those (typer.Exit has no message), since Typer vendors its own click.
    """
    try:
        yield
    except Exception as error:
        _suggest_nearest_option(error)
        code = getattr(error, "exit_code", None)
        message = getattr(error, "format_message", None)
        shown = getattr(error, "_bridgescore_json_shown", False)
        if _JSON_ERRORS.get() and isinstance(code, int) and callable(message) and not shown:
            echo_json(error_json(str(message()), code))
            # A subgroup's error passes through the top group too: print it once.
            setattr(error, "_bridgescore_json_shown", True)  # noqa: B010
        raise
