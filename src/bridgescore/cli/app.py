"""The Typer application with every subcommand (the table is in :mod:`bridgescore.cli.commands`)."""

from __future__ import annotations

from bridgescore.cli.commands import build_app

app = build_app()
