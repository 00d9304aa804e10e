"""What the ``bridgescore session`` commands share: their arguments and options, and
opening the event file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from bridgescore.cli.common import fail
from bridgescore.errors import BridgeError

__all__ = [
    "Across",
    "Divide",
    "EventPath",
    "Exclude",
    "Json",
    "LiveEventPath",
    "Method",
    "Neuberg",
    "NewEventPath",
    "Par",
    "PerSection",
    "Rounding",
    "Scale",
    "Section",
    "SessionPct",
    "open_event",
]

NewEventPath = Annotated[Path, typer.Argument(help="The event file (SQLite; created if missing).")]
EventPath = Annotated[Path, typer.Argument(help="The event file made by 'session import'.")]
Method = Annotated[
    str | None,
    typer.Option(
        "--method",
        "-m",
        help="mp, butler, cross-imps or butler-vp (pairs: Butler IMPs, each match in VPs, as "
        "a Swiss pairs is scored); imps, bam or vp (teams: vp ranks by VPs). Default: the "
        "method the event names (an imported USEBIO file's, a Swiss pairs' butler-vp), else "
        "mp for pairs, imps for teams.",
    ),
]
Scale = Annotated[str, typer.Option(help="Matchpoint scale: 2/1 (WBF, EBU) or 1/0.5 (ACBL).")]
Neuberg = Annotated[
    bool, typer.Option(help="Factor boards with fewer results up to the full size (Neuberg).")
]
PerSection = Annotated[
    bool,
    typer.Option(
        "--per-section",
        help="Compare within each section, not across the field (default: as 'session new' "
        "chose, else across).",
    ),
]
Across = Annotated[
    bool,
    typer.Option(
        "--across",
        help="Compare each board across every section's results (Neuberg where the counts "
        "differ), whatever 'session new' chose.",
    ),
]
Exclude = Annotated[int, typer.Option(help="Butler: scores dropped at each end for the datum.")]
Rounding = Annotated[int, typer.Option(help="Butler: round the datum to this many points (0: no).")]
Divide = Annotated[
    str, typer.Option(help="Cross-IMPs divisor: comparisons (n-1), scores (n) or none.")
]
SessionPct = Annotated[
    bool,
    typer.Option(
        "--session-percentage",
        help="Average plus/minus: the better/worse of 60/40 % and the pair's own percentage.",
    ),
]
Par = Annotated[
    bool, typer.Option(help="Show each board's par and IMPs against par when deals are known.")
]
Json = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
LiveEventPath = Annotated[Path, typer.Argument(help="The event file made by 'session new'.")]
Section = Annotated[
    str | None, typer.Option("--section", help="The section (default: the event's only one).")
]


def open_event(path: Path, mode: str = "read") -> Any:
    """The event store; ``read`` and ``write`` never create a file (mode: OpenMode)."""
    from bridgescore.session.live.recovery import COMMAND_LINE
    from bridgescore.session.store.events import EventStore

    try:
        # A change made from the shell is the director's, and the audit log says so.
        return EventStore(path, mode=mode, who=COMMAND_LINE)  # type: ignore[arg-type]
    except BridgeError as error:
        raise fail(error, 2) from None
