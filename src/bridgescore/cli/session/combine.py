"""``bridgescore session combine``: an event of several sessions, ranked over all of them."""

from __future__ import annotations

import csv
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bridgescore.cli.common import echo_json, fail, read_input
from bridgescore.cli.outputs import check_output_path
from bridgescore.cli.session.arguments import Json
from bridgescore.errors import BridgeError

if TYPE_CHECKING:
    from bridgescore.season.combine import Combined

__all__ = ["combine_command"]


def combine_command(
    out: Annotated[
        Path, typer.Argument(help="The combined event file to write (never overwritten).")
    ],
    sessions: Annotated[
        list[Path], typer.Argument(help="The sessions' event files (two or more), in order.")
    ],
    by_number: Annotated[
        bool,
        typer.Option(
            "--by-number",
            help="The same pair number is the same pair in every session (default: the "
            "same players, by membership number or name).",
        ),
    ] = False,
    carry_over: Annotated[
        Path | None,
        typer.Option(
            "--carry-over",
            help="A CSV pair,points (team,points): points carried over, added to the total.",
        ),
    ] = None,
    name: Annotated[
        str | None, typer.Option(help="The event's name (default: the first session's).")
    ] = None,
    as_json: Json = False,
) -> None:
    """Rank an event of several sessions: each session scored on its own, the total over all.

    Each session is matchpointed (and Neuberg-factored) on its own; a pair is the same
    pair in every session when its players are (their membership numbers, else their
    names), or with --by-number when its pair number is. The total is the percentage
    over every board the pair played, each session's percentage printed beside it.
    Teams segments combine the same way, their IMPs or VPs added up. OUT holds every
    session's results, session N as section SN ranked on its own ('session score OUT').
    """
    from bridgescore.season.combine import combine_sessions, write_combined
    from bridgescore.session.store.events import EventStore
    from bridgescore.session.workflow import score_stored_event

    if len(sessions) < 2:
        raise fail(f"combining needs two sessions or more, got {len(sessions)}", 2)
    for session in sessions:
        if not session.is_file():
            raise fail(f"no event file {str(session)!r}: expected a session's event file", 2)
    if out.exists() or out.is_symlink():
        raise fail(f"{str(out)!r} already exists: a combined event is written to a new file")
    check_output_path(out, "OUT")
    carried = {} if carry_over is None else _carried(carry_over)
    scored = []
    try:
        for session in sessions:
            with EventStore(session, mode="read") as store:
                scored.append(score_stored_event(store))
        combined = combine_sessions(
            scored, by_number=by_number, carry_over=carried, names=[str(s) for s in sessions]
        )
        title = name or scored[0].name or out.stem
        write_combined(out, sessions, title)
    except BridgeError as error:
        raise fail(error) from None
    if as_json:
        echo_json({"event_file": str(out), "name": title, **_as_dict(combined)})
        return
    typer.echo(_text(combined, title))
    typer.echo(f"\nwrote {out}")


def _carried(path: Path) -> dict[str, Decimal]:
    """The carried-over points of a CSV ``pair,points`` (``team,points``; a header
    line naming them is skipped)."""
    out: dict[str, Decimal] = {}
    for number, row in enumerate(csv.reader(read_input(str(path)).splitlines()), start=1):
        cells = [cell.strip() for cell in row]
        if not any(cells):
            continue
        if number == 1 and [c.lower() for c in cells[:2]] in (
            ["pair", "points"],
            ["team", "points"],
        ):
            continue
        if len(cells) != 2 or not cells[0]:
            raise fail(f"{path}:{number}: expected pair,points, got {','.join(cells)[:60]!r}", 2)
        try:
            points = Decimal(cells[1])
        except InvalidOperation:
            points = Decimal("NaN")
        if not points.is_finite():
            raise fail(
                f"{path}:{number}: points {cells[1][:30]!r} for {cells[0]!r}: expected a "
                "number such as 3.5 or -2",
                2,
            )
        out[cells[0]] = points
    return out


def _as_dict(combined: Combined) -> dict[str, Any]:
    return {
        "kind": combined.kind,
        "unit": combined.unit,
        "sessions": list(combined.sessions),
        "ranking": [
            {
                "rank": entry.rank,
                "name": entry.name,
                "players": [{"name": m.name, "number": m.number} for m in entry.players],
                "sessions": list(entry.sessions),
                "boards": entry.boards,
                "carried_over": entry.carried,
                "total": entry.total,
            }
            for entry in combined.entries
        ],
    }


def _text(combined: Combined, title: str) -> str:
    headers = ["Rank", "Pair" if combined.kind == "pairs" else "Team", "Players"]
    headers += [f"S{i}" for i in range(1, len(combined.sessions) + 1)]
    carries = any(entry.carried for entry in combined.entries)
    headers += ["Boards", *(["Carried"] if carries else []), f"Total {combined.unit}"]
    rows = []
    for entry in combined.entries:
        cells = [entry.rank, entry.name, " & ".join(str(m) for m in entry.players)]
        cells += ["-" if score is None else f"{score:.2f}" for score in entry.sessions]
        cells += [str(entry.boards), *([f"{entry.carried:g}"] if carries else [])]
        cells.append(f"{entry.total:.2f}")
        rows.append(cells)
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(headers)]
    numbers = set(range(3, len(headers)))

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.rjust(widths[i]) if i in numbers else c.ljust(widths[i]) for i, c in enumerate(cells)
        ).rstrip()

    sessions = "; ".join(f"S{i} {s}" for i, s in enumerate(combined.sessions, start=1))
    return "\n".join(
        [
            f"{title} - {len(combined.sessions)} sessions combined ({sessions})",
            "",
            line(headers),
            line(["-" * w for w in widths]),
            *map(line, rows),
        ]
    )
