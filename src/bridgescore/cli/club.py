"""``bridgescore club``: the club's season: its register, its events, the ladder and
the grades.

\b
  bridgescore club new club.db --name "Riverside Bridge Club"
  bridgescore club players club.db players.csv
  bridgescore club add club.db monday.db tuesday.db
  bridgescore club player club.db 1010
  bridgescore club ladder club.db --best 10 --from 2026-01-01
  bridgescore club ratings club.db
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bridgescore.cli.common import command_group, echo_json, fail, read_input
from bridgescore.errors import BridgeError

if TYPE_CHECKING:
    from bridgescore.season.register import ClubFile

__all__ = ["app"]

app = command_group("The club's season: the register, its events, the ladder and the grades.")

ClubPath = Annotated[Path, typer.Argument(help="The club file made by 'club new'.")]
Json = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]


def _open(path: Path, mode: str = "read", name: str = "") -> ClubFile:
    from bridgescore.season.register import ClubFile

    try:
        return ClubFile(path, mode=mode, name=name)  # type: ignore[arg-type]
    except BridgeError as error:
        raise fail(error, 2) from None


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: set[int]) -> str:
    """Columns as wide as their widest cell; the columns in ``right`` are numbers."""
    widths = [max([len(h), *(len(row[i]) for row in rows)]) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])
            for i, cell in enumerate(cells)
        ).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *map(line, rows)])


def _figure(value: float) -> str:
    """A percentage as the reports print it: two decimals."""
    return f"{value:.2f}"


@app.command("new")
def new_command(
    club: Annotated[Path, typer.Argument(help="The club file to make (never overwritten).")],
    name: Annotated[str, typer.Option("--name", help="The club's name.")],
    as_json: Json = False,
) -> None:
    """Make a club file: the register of players and the season's events."""
    from bridgescore.session.live.players import club_name

    try:
        named = club_name(name)
    except BridgeError as error:
        raise fail(f"--name: {error}", 2) from None
    with _open(club, "create", named):
        pass
    if as_json:
        echo_json({"club_file": str(club), "name": named})
    else:
        typer.echo(f"{club}: {named}, a new club file (no players, no events)")


@app.command("players")
def players_command(
    club: ClubPath,
    file: Annotated[
        Path | None,
        typer.Argument(
            help="A CSV of players, header number,name (and email): each added, or updated "
            "when the register holds the number."
        ),
    ] = None,
    events: Annotated[
        list[Path] | None,
        typer.Option(
            "--from",
            help="An event file whose players have membership numbers (from a Bridgemate "
            "database, a USEBIO file or a names CSV): each number the register does not "
            "hold is added with its name; numbers it holds are left as they are. May be "
            "given more than once.",
        ),
    ] = None,
    as_json: Json = False,
) -> None:
    """Add players to the register, or update them, from a CSV (number,name[,email]),
    or add the numbered players of events (--from EVENT.db).

    Without FILE or --from, lists the register. Players of events already added who were
    left unmatched are matched again against the new register. A bad line is reported
    with its line number and the other lines are read; the exit status is then 1.
    """
    from bridgescore.season.roster import event_players, read_roster

    problems: list[str] = []
    notes: list[str] = []
    added = updated = unchanged = rematched = 0
    if file is not None and events:
        raise fail("give a register CSV or --from EVENT.db, not both: add them one by one", 2)
    if events:
        missing = [str(path) for path in events if not path.is_file()]
        if missing:
            raise fail(f"no event file {missing[0]!r}: expected a session's event file", 2)
        try:
            players, notes = event_players(events)
        except BridgeError as error:
            raise fail(error) from None
        with _open(club, "write") as opened:
            try:
                report = opened.add_new_players(players)
            except BridgeError as error:
                raise fail(error) from None
            added, unchanged, rematched = report.added, report.unchanged, report.rematched
    if file is not None:
        players, found = read_roster(read_input(str(file)).splitlines(), str(file))
        problems = [str(problem) for problem in found]
        with _open(club, "write") as opened:
            try:
                report = opened.update_players(players)
            except BridgeError as error:
                raise fail(error) from None
            added, updated, unchanged = report.added, report.updated, report.unchanged
            rematched = report.rematched
    with _open(club) as opened:
        register = list(opened.players().values())
    for problem in problems:
        typer.echo(f"error: {problem}", err=True)
    for note in notes:
        typer.echo(f"note: {note}", err=True)
    changed = file is not None or bool(events)
    if as_json:
        document: dict[str, Any] = {
            "players": [{"number": p.number, "name": p.name, "email": p.email} for p in register]
        }
        if changed:
            document.update(
                added=added,
                updated=updated,
                unchanged=unchanged,
                rematched=rematched,
                problems=problems,
                notes=notes,
            )
        echo_json(document)
    else:
        if changed:
            typer.echo(
                f"{club}: {added} player(s) added, {updated} updated, {unchanged} unchanged; "
                f"{len(problems)} bad line(s); {len(register)} in the register"
            )
            if rematched:
                typer.echo(f"{rematched} player(s) of the season's events matched now")
        else:
            rows = [[p.number, p.name, p.email] for p in register]
            typer.echo(_table(["Number", "Name", "Email"], rows, set()))
    if problems:
        raise typer.Exit(1)


@app.command("add")
def add_command(
    club: ClubPath,
    events: Annotated[
        list[Path], typer.Argument(help="Event files (imported or live), pairs scored by mp.")
    ],
    as_json: Json = False,
) -> None:
    """Add events to the season, each pair's players matched to the register.

    A player is matched by membership number (a Bridgemate database's, a USEBIO
    file's, a names CSV's number column), failing that by their exact name; every
    player left unmatched is listed and nothing is guessed. An event added twice is
    added once; an event file added again after its results changed replaces what
    the season kept of it. An event that cannot be read is reported and the others
    are added; the exit status is then 1.
    """
    from bridgescore.season.summary import read_event_summary

    answers: list[dict[str, Any]] = []
    failed: list[str] = []
    notes: list[str] = []
    with _open(club, "write") as opened:
        for path in events:
            try:
                summary = read_event_summary(path)
                added = opened.add_event(summary, str(path))
            except BridgeError as error:
                failed.append(f"{path}: {error}")
                continue
            notes.extend(summary.notes)
            answers.append(
                {
                    "event_file": added.path,
                    "name": added.name,
                    "date": added.date,
                    "status": added.status,
                    "pairs": added.pairs,
                    "matched": len(added.matched),
                    "matched_by_name": added.by_name,
                    "unmatched": [
                        {
                            "pair": pair,
                            "name": player.member.name,
                            "number": player.member.number,
                            "why": player.why,
                        }
                        for pair, player in added.unmatched
                    ],
                }
            )
    for problem in failed:
        typer.echo(f"error: {problem}", err=True)
    for note in notes:
        typer.echo(f"note: {note}", err=True)
    if as_json:
        echo_json({"events": answers, "problems": failed, "notes": notes})
    else:
        for answer in answers:
            said = {
                "added": "added",
                "replaced": "replaced (its results changed)",
                "unchanged": "already in the season",
            }[answer["status"]]
            typer.echo(
                f"{answer['event_file']}: {answer['name'] or '(unnamed)'}, {answer['date']}: "
                f"{said}; {answer['pairs']} pair(s), {answer['matched']} player(s) matched "
                f"({answer['matched_by_name']} by name), {len(answer['unmatched'])} unmatched"
            )
            for player in answer["unmatched"]:
                who = player["name"] or "(no player named)"
                typer.echo(f"  unmatched: pair {player['pair']}: {who}: {player['why']}")
    if failed:
        raise typer.Exit(1)


@app.command("player")
def player_command(
    club: ClubPath,
    number: Annotated[str, typer.Argument(help="The player's membership number.")],
    as_json: Json = False,
) -> None:
    """A player's history: each event with its date, partner, percentage and rank."""
    with _open(club) as opened:
        try:
            lines = opened.history(number.strip())
        except BridgeError as error:
            raise fail(error) from None
        player = opened.players()[number.strip()]
    if as_json:
        echo_json(
            {
                "number": player.number,
                "name": player.name,
                "events": [
                    {
                        "date": line.date,
                        "event": line.event,
                        "pair": line.pair,
                        "partners": list(line.partners),
                        "percent": line.percent,
                        "rank": line.rank,
                        "field_size": line.field_size,
                        "boards": line.boards,
                    }
                    for line in lines
                ],
            }
        )
        return
    typer.echo(f"{player.name} ({player.number}): {len(lines)} event(s)")
    if lines:
        rows = [
            [
                line.date,
                line.event,
                " & ".join(line.partners),
                _figure(line.percent),
                f"{line.rank} of {line.field_size}",
            ]
            for line in lines
        ]
        typer.echo(_table(["Date", "Event", "Partner", "%", "Rank"], rows, {3}))


@app.command("ladder")
def ladder_command(
    club: ClubPath,
    best: Annotated[
        int, typer.Option("--best", help="Each player's best N session percentages count.")
    ] = 10,
    least: Annotated[
        int | None,
        typer.Option(
            "--min",
            help="Sessions a player needs to be ranked (default: --best); players with "
            "fewer are listed apart.",
        ),
    ] = None,
    start: Annotated[
        str | None, typer.Option("--from", help="The first day counted (year-month-day).")
    ] = None,
    end: Annotated[
        str | None, typer.Option("--to", help="The last day counted (year-month-day).")
    ] = None,
    as_json: Json = False,
) -> None:
    """Rank players, not pairs, by the mean of their best N session percentages."""
    from bridgescore.season.ladder import season_ladder
    from bridgescore.validate import date_text

    try:
        start_day = "" if start is None else date_text(start, "--from")
        end_day = "" if end is None else date_text(end, "--to")
    except BridgeError as error:
        raise fail(error, 2) from None
    with _open(club) as opened:
        sessions = opened.sessions(start=start_day, end=end_day)
        players = opened.players()
        title = opened.name or club.stem
    played: dict[str, list[float]] = {}
    for session in sessions:
        for pair in session.pairs:
            for number in pair.numbers:
                if number:
                    played.setdefault(number, []).append(pair.percent)
    try:
        ladder = season_ladder(played, best=best, least=least)
    except BridgeError as error:
        raise fail(error, 2) from None

    def row_dict(row: Any) -> dict[str, Any]:
        return {
            "rank": row.rank,
            "number": row.number,
            "name": players[row.number].name,
            "sessions": row.sessions,
            "counted": list(row.counted),
            "score": row.score,
        }

    if as_json:
        echo_json(
            {
                "best": ladder.best,
                "min": ladder.least,
                "from": start_day or None,
                "to": end_day or None,
                "events": len(sessions),
                "ranked": [row_dict(row) for row in ladder.ranked],
                "apart": [row_dict(row) for row in ladder.apart],
            }
        )
        return
    period = f"{start_day or 'the start'} to {end_day or 'the end'}"
    typer.echo(
        f"{title} ladder: best {ladder.best} session(s), at least "
        f"{ladder.least} to be ranked; {len(sessions)} event(s), {period}"
    )
    headers = ["Rank", "Number", "Name", "Sessions", "Best mean %"]
    rows = [
        [r.rank, r.number, players[r.number].name, str(r.sessions), _figure(r.score)]
        for r in ladder.ranked
    ]
    typer.echo(_table(headers, rows, {3, 4}))
    if ladder.apart:
        typer.echo(f"\nFewer than {ladder.least} session(s)")
        rows = [
            ["", r.number, players[r.number].name, str(r.sessions), _figure(r.score)]
            for r in ladder.apart
        ]
        typer.echo(_table(headers, rows, {3, 4}))


@app.command("ratings")
def ratings_command(club: ClubPath, as_json: Json = False) -> None:
    """Each player's grade: the percentage expected with an average partner against an
    average field, updated event by event (docs/season.md says how)."""
    from bridgescore.season.ratings import (
        AVERAGE,
        DECAY,
        PRIOR_BOARDS,
        grades_table,
        season_grades,
    )

    with _open(club) as opened:
        sessions = opened.sessions()
        players = opened.players()
        title = opened.name or club.stem
    grades = grades_table(season_grades(session.pairs for session in sessions))
    if as_json:
        echo_json(
            {
                "events": len(sessions),
                # What a script needs to work the grades again (docs/season.md).
                "method": {"average": AVERAGE, "decay": DECAY, "prior_boards": PRIOR_BOARDS},
                "grades": [
                    {
                        "number": g.number,
                        "name": players[g.number].name,
                        "grade": g.shown,
                        "sessions": g.sessions,
                        "boards": g.boards,
                    }
                    for g in grades
                ],
            }
        )
        return
    typer.echo(f"{title} grades after {len(sessions)} event(s)")
    rows = [
        [g.number, players[g.number].name, _figure(g.shown), str(g.sessions), str(g.boards)]
        for g in grades
    ]
    typer.echo(_table(["Number", "Name", "Grade", "Sessions", "Boards"], rows, {2, 3, 4}))
