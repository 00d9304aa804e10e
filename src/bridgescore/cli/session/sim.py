"""``bridgescore session sim``: several clubs' events on the same boards, scored as one field."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bridgescore.cli.common import echo_json, fail
from bridgescore.cli.outputs import check_output_path
from bridgescore.errors import BridgeError

__all__ = ["sim_command"]


def sim_command(
    out: Annotated[Path, typer.Argument(help="The sim's event file to write (never overwritten).")],
    events: Annotated[
        list[Path],
        typer.Argument(help="The clubs' event files (two or more), played on the same boards."),
    ],
    name: Annotated[
        str | None, typer.Option(help="The sim's name (default: the OUT file's).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
) -> None:
    """Score a simultaneous pairs: clubs' events on the same boards, matchpointed as one field.

    Writes OUT, an event file holding every club's results (each pair labelled
    CLUB/PAIR, its club as its section: 'session score OUT' and 'session report OUT'
    rank the same field), and prints the field's ranking, each club's own ranking and
    the outliers: results most likely entered the wrong way round. The club is the
    event's club name ('session new --club'), else its file's name. A board dealt
    differently in two events is refused (exit 1), as is an existing OUT.
    """
    from bridgescore.session.sim import sim_dict, sim_text, write_sim

    if len(events) < 2:
        raise fail(f"a sim needs the events of two clubs or more, got {len(events)}", 2)
    if not (out.exists() or out.is_symlink()):
        # An existing OUT is refused by write_sim (exit 1); a folder that takes no file now.
        check_output_path(out, "OUT")
    for event in events:
        if not event.is_file():
            raise fail(f"no event file {str(event)!r}: expected a club's event file", 2)
    try:
        sim = write_sim(out, events, name or "")
    except BridgeError as error:
        raise fail(error) from None
    if as_json:
        echo_json({"event_file": str(out), **sim_dict(sim)})
    else:
        typer.echo(sim_text(sim))
        typer.echo(f"\nwrote {out}")
