"""``bridgescore session import | correct | log``: the event's results, put in, put right
and accounted for."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from bridgescore.cli.common import echo_json, fail, read_input_bytes
from bridgescore.cli.session.arguments import EventPath, Json, NewEventPath, open_event
from bridgescore.cli.words import check_words
from bridgescore.display.wording import board_ranges
from bridgescore.errors import BridgeError

if TYPE_CHECKING:
    from bridgescore.session.store.events import EventStore

__all__ = ["correct_command", "import_command", "log_command"]


def import_command(
    event: NewEventPath,
    files: Annotated[
        list[Path],
        typer.Argument(
            help="CSV travellers, PBN (pairs, teams, online teams; UTF-8, Windows-1252 or "
            "Latin-1) or JSON board records (as 'bridgescore convert' writes them), USEBIO "
            "XML files, BBO vugraph archives (.lin: both rooms of a teams match), CSV "
            "files of names (pair,player,player, and a section column in an event of "
            "several sections) and Bridgemate scoring databases (.bws), each recognised "
            "by its content."
        ),
    ],
    name: Annotated[
        str | None,
        typer.Option(
            help="The event's name. Default: the name the first file gives (PBN Event tag, "
            "USEBIO EVENT_DESCRIPTION, vugraph vg header) when the event has none."
        ),
    ] = None,
    teams: Annotated[
        bool | None, typer.Option("--teams/--pairs", help="A teams or a pairs event.")
    ] = None,
    date: Annotated[
        str | None,
        typer.Option(
            help="The day the event was played, year-month-day (2026-11-16). Default: "
            "the date the first file gives (USEBIO DATE, a Bridgemate session's Date) "
            "when the event has none."
        ),
    ] = None,
    replace_results: Annotated[
        bool,
        typer.Option(
            "--replace",
            help="A result that differs from the one stored for its board and pairs "
            "replaces it (each change written to the event's audit log) instead of "
            "being reported as a conflict.",
        ),
    ] = False,
    as_json: Json = False,
) -> None:
    """Import results and hand records; bad lines are reported, the rest imported.

    USEBIO files set the event's kind and scoring method; online teams PBN
    files (HomeTeam, VisitTeam and Table tags) and BBO vugraph archives (LIN:
    the vg header's first team sits NS in the open room; its scoring, I for IMPs
    or B for board-a-match, its segment and the scores it carries over are kept
    and used by 'session report') make it a teams event. USEBIO players are kept
    with their pair or team. A Bridgemate database (BWS) gives the sections, the
    movement, every result (erased ones skipped, a later entry replacing an
    earlier one), the players with their membership numbers, the opening leads
    and its hand records (or give a PBN hand record beside it). Scores a
    file states that bridgescore computes differently are listed ("check:").
    Each board is scored with the dealer and vulnerability its file states (PBN
    Dealer and Vulnerable, LIN md and sv, USEBIO DEALER and VULNERABILITY, CSV
    dealer and vulnerable columns), else its number's; a note says how many boards
    a file deals otherwise than their numbers.
    Importing a file twice adds nothing; a different result for a board and
    pairs already stored is reported as a conflict and the stored one is kept
    (with --replace the file's result replaces it, and the change is logged: see
    'session log'). Exits 1 if any line could not be imported.
    """
    from bridgescore.session.importers.accessdb import looks_like_bws
    from bridgescore.session.importers.importer import ImportReport, import_data

    # Each file is read once, here: an empty or binary one (not a Bridgemate database) stops
    # the import before the event is touched, and standard input ('-') is read only once.
    contents = [(str(file), read_input_bytes(str(file), looks_like_bws)) for file in files]
    with open_event(event, "create") as store:
        try:
            store.set_info(
                name=name,
                kind=None if teams is None else "teams" if teams else "pairs",
                date=date,
            )
        except BridgeError as error:
            raise fail(error, 2) from None
        report = ImportReport()
        for source, data in contents:
            import_data(store, data, source, report, replace=replace_results)
        if report.results.added:
            report.notes.extend(_boards_without_deals(store))
    for problem in report.problems:
        typer.echo(f"error: {problem}", err=True)
    for conflict in [*report.boards.conflicts, *report.results.conflicts]:
        typer.echo(f"conflict: {conflict}", err=True)
    for disagreement in report.disagreements:
        typer.echo(f"check: {disagreement}", err=True)
    for note in report.notes:
        typer.echo(f"note: {note}", err=True)
    for replaced in report.results.replaced:
        typer.echo(f"replaced: {replaced}", err=True)
    if report.results.conflicts and not replace_results:
        typer.echo(
            "note: the stored results are kept: to change one on purpose, use "
            "'bridgescore session correct' or import again with --replace",
            err=True,
        )
    conflicts = [str(c) for c in [*report.boards.conflicts, *report.results.conflicts]]
    summary = {
        "files": report.files,
        "results_added": report.results.added,
        "results_unchanged": report.results.unchanged,
        "boards_added": report.boards.added,
        "boards_unchanged": report.boards.unchanged,
        "conflicts": conflicts,
        "replaced": [str(r) for r in report.results.replaced],
        "problems": [str(p) for p in report.problems],
        "disagreements": report.disagreements,
        "notes": report.notes,
    }
    if as_json:
        echo_json(summary)
    else:
        typer.echo(
            f"{event}: {report.results.added} result(s) added, {report.results.unchanged} "
            f"already there; {report.boards.added} hand record(s) added; "
            f"{len(conflicts)} conflict(s); {len(report.problems)} bad line(s)"
            + (f"; {len(report.disagreements)} score(s) differ" if report.disagreements else "")
            + (f"; {len(report.results.replaced)} replaced" if report.results.replaced else "")
        )
    if not report.ok:
        raise typer.Exit(1)


def _boards_without_deals(store: EventStore) -> list[str]:
    """A note when boards with results have no deal: a Bridgemate file whose hand record
    the club keeps apart (the dealing machine's PBN), results typed in. They score, but
    par, the hand records and ``analyse`` need the deals."""
    boards = store.boards()
    missing = sorted(
        {r.board for r in store.results()}
        - {number for number, board in boards.items() if board.deal is not None}
    )
    if not missing:
        return []
    return [
        f"{len(missing)} board(s) with results have no deal ({board_ranges(missing)}): "
        "import their hand record (a PBN of the deals) for par, the hand records and "
        "'bridgescore analyse'"
    ]


def correct_command(
    context: typer.Context,
    event: EventPath,
    board: Annotated[str, typer.Argument(help="The board number.")],
    ns: Annotated[str, typer.Argument(help="The NS pair (or team) as the event names it.")],
    ew: Annotated[str, typer.Argument(help="The EW pair (or team) as the event names it.")],
    result: Annotated[
        list[str],
        typer.Argument(
            help="The corrected result, as a CSV traveller line gives it after board,ns,ew: "
            "4SXN+1 | +620 | 'NS 620' | Pass | A+ | 60/40, or 4SN +1, or 4S N +1 "
            "(tricks 1-13 also: 4S N 11)."
        ),
    ],
    section: Annotated[str, typer.Option(help="The section, for an event with sections.")] = "",
    variant: Annotated[
        str | None,
        typer.Option(help="The fouled-board version (default: the stored result's)."),
    ] = None,
    reason: Annotated[str, typer.Option(help="Why: kept with the change in the audit log.")] = "",
    as_json: Json = False,
) -> None:
    """Correct a stored result on purpose; the change goes to the event's audit log.

    The result is found by its board and pairs (and section) as the event
    stores them; the old and the new result, the time and the reason are
    appended to the audit log ('session log'), and every report scores the new
    result. Correcting a result to what is stored changes nothing.
    """
    from bridgescore.session.importers.csv import parse_table_result

    check_words(result, context)  # '-2' is a result; '--reasn' is still a mistyped option
    with open_event(event, "write") as store:
        try:
            new = parse_table_result(board, ns, ew, result, section=section, variant=variant or "")
            stored = store.stored_result(new.key)
            if variant is None:  # a fouled board's correction stays in its version
                new = replace(new, variant=stored.variant)
            entry = store.correct(new, reason=reason)
        except BridgeError as error:
            raise fail(error, 2) from None
    label = f"board {new.board}" + (f" section {section}" if section else "") + f" {ns} v {ew}"
    if as_json:
        echo_json(
            {
                "board": new.board,
                "section": section,
                "ns": ns,
                "ew": ew,
                "old": stored.describe(),
                "new": new.describe(),
                "changed": entry is not None,
                "entry": None if entry is None else entry.entry,
            }
        )
    elif entry is None:
        typer.echo(f"{event}: {label} already has {new.describe()}: nothing changed")
    else:
        typer.echo(f"{event}: {label}: {entry.old} -> {entry.new} (audit log entry #{entry.entry})")


def log_command(event: EventPath, as_json: Json = False) -> None:
    """The event's audit log, oldest first: every stored result changed by 'session
    correct' or 'session import --replace', and in a live session every result a table
    entered and the director changed or adjusted, with who, the old and the new result."""
    with open_event(event) as store:
        try:
            entries = store.audit_log()
        except BridgeError as error:
            raise fail(error) from None
    if as_json:
        echo_json(
            [
                {
                    "entry": e.entry,
                    "at": e.at,
                    "action": e.action,
                    "section": e.section,
                    "board": e.board,
                    "ns": e.ns,
                    "ew": e.ew,
                    "old": e.old or None,  # None: a first entry
                    "new": e.new,
                    "source": e.origin or None,
                    "reason": e.reason,
                    "who": e.who,
                }
                for e in entries
            ]
        )
        return
    if not entries:
        typer.echo(f"{event}: no result has been changed")
    for entry in entries:
        typer.echo(str(entry))
