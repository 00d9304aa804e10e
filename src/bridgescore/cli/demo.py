"""``bridgescore demo``: the main job on built-in examples (what ``make run`` shows)."""

from __future__ import annotations

import typer

from bridgescore.cli.score import format_breakdown, score_table
from bridgescore.scoring import score_breakdown

__all__ = ["demo_command"]

EXAMPLES = [
    ("4DX +1", True),
    ("3NT-2", False),
    ("6NTXX=", False),
    ("4♠ by N making 5", False),
    ("1NTXX+6", True),
    ("7SX-13", True),
]


def demo_command() -> None:
    """Show what bridgescore does, on built-in examples."""
    typer.echo("== Scoring duplicate results (Law 77) ==\n")
    for text, vulnerable in EXAMPLES:
        typer.echo(f"> {text!r}, {'vulnerable' if vulnerable else 'not vulnerable'}")
        typer.echo(format_breakdown(score_breakdown(text, vulnerable), symbols=True))
        typer.echo("")
    for vulnerable in (False, True):
        typer.echo(score_table(vulnerable))
        typer.echo("")
