"""The Typer application: one registration line per subcommand."""

from __future__ import annotations

import typer

from bridgescore.cli import demo, score

app = typer.Typer(
    name="bridgescore",
    help="Exact contract bridge scoring, double-dummy tables and par.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)

app.command("score")(score.score_command)
app.command("demo")(demo.demo_command)
