"""Which module holds each subcommand, and the Typer application built from them.

The table names modules rather than importing them, so ``bridgescore deal`` can
build an application holding only ``deal`` and import nothing the other commands
need (their formats, the web server, DDS): start-up is part of every command's
time. :data:`bridgescore.cli.app.app` is the whole application, built the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module
from typing import Annotated, Any

import typer

from bridgescore.cli.common import CommandGroup
from bridgescore.cli.words import WORD_SETTINGS

__all__ = ["COMMANDS", "CONTEXT_SETTINGS", "GROUPS", "TAKES_MINUS_WORDS", "build_app"]

COMMANDS = {
    "score": "score:score_command",
    "demo": "demo:demo_command",
    "serve": "serve:serve_command",
    "rubber": "rubber:rubber_command",
    "chicago": "rubber:chicago_command",
    "solve": "solve:solve_command",
    "deal": "deal:deal_command",
    "simulate": "simulate:simulate_command",
    "game": "game:game_command",
    "analyse": "analyse:analyse_command",
    "handrecord": "handrecord:handrecord_command",
    "convert": "convert:convert_command",
    "par": "par:par_command",
    "vp": "vp:vp_command",
}
"""Subcommand -> ``module:function`` in :mod:`bridgescore.cli`, in --help's order."""
TAKES_MINUS_WORDS = frozenset({"score", "vp"})
"""Subcommands whose words may start with a minus sign (``score 3NT -1``): see
:mod:`bridgescore.cli.words`."""
GROUPS = {
    "study": "study:app",
    "session": "session:app",
    "movement": "movement:app",
    "club": "club:app",
}
"""Subcommand groups -> ``module:Typer application``."""
CONTEXT_SETTINGS: dict[str, Any] = {
    "help_option_names": ["-h", "--help"],
    # Help text as wide as the terminal up to 100 columns (click's default stops at 80);
    # narrower terminals wrap it.
    "max_content_width": 100,
}
"""Settings every command inherits from the group: ``-h`` beside ``--help``, and the width."""


def _load(target: str) -> Any:
    module, name = target.split(":")
    return getattr(import_module(f"bridgescore.cli.{module}"), name)


def _show_version(value: bool) -> None:
    if value:
        from bridgescore import __version__

        typer.echo(f"bridgescore {__version__}")
        raise typer.Exit()


def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Show the version and exit.",
            is_eager=True,
            callback=_show_version,
        ),
    ] = False,
) -> None:
    """Exact contract bridge scoring, double-dummy tables and par."""


def build_app(only: Iterable[str] | None = None) -> typer.Typer:
    """The ``bridgescore`` application: every subcommand, or only those named in ``only``.

    An application built for some subcommands stays a group (``bridgescore NAME ...``),
    so usage lines and errors read as in the whole application.
    """
    wanted = None if only is None else set(only)
    app = typer.Typer(
        name="bridgescore",
        help="Exact contract bridge scoring, double-dummy tables and par.",
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode=None,
        pretty_exceptions_enable=False,
        cls=CommandGroup,
        context_settings=CONTEXT_SETTINGS,
    )
    for name, target in COMMANDS.items():
        if wanted is None or name in wanted:
            settings = WORD_SETTINGS if name in TAKES_MINUS_WORDS else None
            app.command(name, context_settings=settings)(_load(target))
    for name, target in GROUPS.items():
        if wanted is None or name in wanted:
            app.add_typer(_load(target), name=name, cls=CommandGroup)
    app.callback()(_root)
    return app
