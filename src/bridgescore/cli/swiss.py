"""``bridgescore session draw``: draw a Swiss teams event's next round.

Registered in :mod:`bridgescore.cli.session` as a subcommand of ``session``; the event
is made by ``session new EVENT --movement swiss`` (:mod:`bridgescore.cli.new_event`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from bridgescore.cli.common import echo_json, fail
from bridgescore.errors import BridgeError

if TYPE_CHECKING:
    from bridgescore.session.live.swiss import SwissDrawn

__all__ = ["draw_command", "show_round"]

Json = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]


def show_round(drawn: SwissDrawn) -> None:
    """A round as ``session new`` and ``session draw`` print it: a match a line."""
    typer.echo(f"round {drawn.round}:")
    for (home, away), (first, second) in zip(drawn.matches, drawn.match_tables):
        typer.echo(f"  team {home} v team {away}  (tables {first} and {second})")
    if drawn.bye is not None:
        typer.echo(f"  team {drawn.bye} has the bye")


def draw_command(
    event: Annotated[Path, typer.Argument(help="The Swiss event made by 'session new'.")],
    as_json: Json = False,
) -> None:
    """Draw the next round of a Swiss teams event from the standings so far: top-down by
    VPs, no two teams meeting twice, a bye for the lowest team without one in an odd
    field (the rule: docs/movements.md, "Swiss teams").

    Refused (exit 1) while a table of the current round has a board without a result,
    naming those tables, and once the last round is drawn. A running 'session live'
    shows the new round to the tables at once; the audit log records the draw.

    \b
    Example:
      bridgescore session draw swiss.db
    """
    from bridgescore.session.live.recovery import COMMAND_LINE
    from bridgescore.session.live.swiss import draw_event_round

    if not event.is_file():
        raise fail(
            f"{str(event)!r} is not an event file: make one with "
            "'bridgescore session new EVENT --movement swiss ...'",
            1,
        )
    try:
        drawn = draw_event_round(event, who=COMMAND_LINE)
    except BridgeError as error:
        raise fail(error, 1) from None
    if as_json:
        echo_json(drawn.as_dict())
    else:
        show_round(drawn)
