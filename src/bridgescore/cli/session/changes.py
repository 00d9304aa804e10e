"""``bridgescore session add-pair | swap | draw``: change the night while it runs, and draw a
Swiss teams event's next round.

Each works while ``session live`` serves the same event: the server rereads the movement
at once. The Swiss event is made by ``session new EVENT --movement swiss``
(:mod:`bridgescore.cli.session.night`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from bridgescore.cli.common import echo_json, fail
from bridgescore.cli.session.arguments import Json, LiveEventPath, Section
from bridgescore.errors import BridgeError

if TYPE_CHECKING:
    from bridgescore.session.live.swiss import SwissDrawn

__all__ = ["add_pair_command", "draw_command", "show_round", "swap_command"]


def _require_event(event: Path) -> None:
    if not event.is_file():
        raise fail(
            f"{str(event)!r} is not an event file: make one with "
            "'bridgescore session new EVENT --movement ...'",
            1,
        )


def add_pair_command(
    event: LiveEventPath,
    from_round: Annotated[
        int, typer.Option("--from-round", help="The first round the late pair plays.")
    ],
    name: Annotated[
        str | None, typer.Option("--name", help="The players' names: 'Ann Archer & Bob Baker'.")
    ] = None,
    section: Section = None,
    as_json: Json = False,
) -> None:
    """Seat a late pair in the movement's empty place (a Mitchell or Howell made for an odd
    number of pairs) from a round on; its earlier rounds stay sit-outs.

    The tables it reaches get its boards from that round on; a table that comes into
    play for the first time gets a link, shown only now. Refused (exit 1) for a movement
    without an empty place, a round outside it, and a round the pair's tables have
    already played past. The audit log records it.

    \b
    Examples:
      bridgescore session add-pair club.db --from-round 3 --name "Ann Archer & Bob Baker"
      bridgescore session add-pair club.db --from-round 3 --json
    """
    from bridgescore.session.live.changes import add_pair_to_event
    from bridgescore.session.live.recovery import COMMAND_LINE

    _require_event(event)
    try:
        joined = add_pair_to_event(
            event, from_round=from_round, name=name, section=section, who=COMMAND_LINE
        )
    except BridgeError as error:
        raise fail(error) from None
    if as_json:
        echo_json(joined.as_dict())
        return
    named = f" ({joined.name})" if joined.name else ""
    typer.echo(f"pair {joined.pair}{named} joins at round {joined.from_round}:")
    for row in joined.rows:
        boards = ", ".join(str(board) for board in row.boards)
        typer.echo(
            f"  round {row.round}: table {row.table}, {row.ns} NS v {row.ew} EW, boards {boards}"
        )
    if joined.new_tables:
        typer.echo("new table links (shown only now; the event keeps only a hash of each):")
        for table in joined.new_tables:
            typer.echo(f"  {table.section}{table.table}   {table.url}")


def swap_command(
    event: LiveEventPath,
    table: Annotated[int, typer.Option("--table", help="The table that sat the wrong way.")],
    round_number: Annotated[int, typer.Option("--round", help="The round it sat so.")],
    section: Section = None,
    as_json: Json = False,
) -> None:
    """A table sat the wrong way round: exchange its NS and EW pairs for that round, its
    stored results credited to the pairs as they sat (the results stay as played).

    The same command again undoes it. Refused (exit 1) for a table that plays no
    boards in that round. The audit log records it.

    \b
    Example:
      bridgescore session swap club.db --table 3 --round 2
    """
    from bridgescore.session.live.changes import swap_in_event
    from bridgescore.session.live.recovery import COMMAND_LINE

    _require_event(event)
    try:
        swapped = swap_in_event(
            event, table=table, round=round_number, section=section, who=COMMAND_LINE
        )
    except BridgeError as error:
        raise fail(error) from None
    if as_json:
        echo_json(swapped.as_dict())
        return
    row = swapped.row
    typer.echo(
        f"table {swapped.section}{row.table} round {row.round}: now {row.ns} NS v {row.ew} EW"
    )
    if swapped.relabelled:
        boards = ", ".join(str(board) for board in swapped.relabelled)
        typer.echo(f"  the results of board(s) {boards} are credited to them")


def show_round(drawn: SwissDrawn) -> None:
    """A round as ``session new`` and ``session draw`` print it: a match a line."""
    typer.echo(f"round {drawn.round}:")
    who = "pair" if drawn.field == "pairs" else "team"
    for (home, away), tables in zip(drawn.matches, drawn.match_tables):
        where = f"table {tables[0]}" if len(tables) == 1 else f"tables {tables[0]} and {tables[1]}"
        typer.echo(f"  {who} {home} v {who} {away}  ({where})")
    if drawn.bye is not None:
        typer.echo(f"  {who} {drawn.bye} has the bye")


def draw_command(
    event: Annotated[Path, typer.Argument(help="The Swiss event made by 'session new'.")],
    as_json: Json = False,
) -> None:
    """Draw the next round of a Swiss teams or Swiss pairs event from the standings so
    far: top-down by VPs, no two teams (pairs) meeting twice, a bye for the lowest
    without one in an odd field (the rule: docs/movements.md, "Swiss teams").

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
