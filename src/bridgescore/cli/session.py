"""``bridgescore session``: import travellers into an event file, score it, report it.

\b
  bridgescore session new club.db --movement mitchell --tables 7 --boards-per-round 3
  bridgescore session import club.db travellers.csv hands.pbn
  bridgescore session score club.db --method mp
  bridgescore session report club.db --html club.html
  bridgescore session export club.db club.xml
  bridgescore session correct club.db 3 1 8 4SN+1 --reason "scorer's slip"
  bridgescore session log club.db
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

from bridgescore.cli.common import command_group, echo_json, fail, read_input_bytes
from bridgescore.cli.new_event import new_command
from bridgescore.cli.outputs import check_output_path
from bridgescore.cli.words import WORD_SETTINGS, check_words
from bridgescore.errors import BridgeError

__all__ = [
    "app",
    "correct_command",
    "export_command",
    "import_command",
    "log_command",
    "report_command",
    "score_command",
]

app = command_group(
    "Duplicate sessions: matchpoints, Butler, cross-IMPs, teams IMPs and board-a-match."
)
# `session new` (an event from a movement, for a live session) has its own module.
app.command("new")(new_command)

NewEventPath = Annotated[Path, typer.Argument(help="The event file (SQLite; created if missing).")]
EventPath = Annotated[Path, typer.Argument(help="The event file made by 'session import'.")]
Method = Annotated[
    str | None,
    typer.Option(
        "--method",
        "-m",
        help="mp, butler or cross-imps (pairs); imps, bam or vp (teams: vp ranks by VPs). "
        "Default: the method the imported USEBIO file names, else mp for pairs, imps for teams.",
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


def _open(path: Path, mode: str = "read") -> Any:
    """The event store; ``read`` and ``write`` never create a file (mode: OpenMode)."""
    from bridgescore.session.live.recovery import COMMAND_LINE
    from bridgescore.session.store.events import EventStore

    try:
        # A change made from the shell is the director's, and the audit log says so.
        return EventStore(path, mode=mode, who=COMMAND_LINE)  # type: ignore[arg-type]
    except BridgeError as error:
        raise fail(error, 2) from None


@app.command("import")
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
    with _open(event, "create") as store:
        try:
            store.set_info(name=name, kind=None if teams is None else "teams" if teams else "pairs")
        except BridgeError as error:
            raise fail(error, 2) from None
        report = ImportReport()
        for source, data in contents:
            import_data(store, data, source, report, replace=replace_results)
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


def _score(
    event: Path,
    method: str | None,
    *,
    scale: str,
    neuberg: bool,
    per_section: bool | None,
    exclude: int,
    rounding: int,
    divide: str,
    session_percentage: bool,
    with_par: bool,
) -> Any:
    from bridgescore.session.scoring.methods import ScoringOptions, scoring_method
    from bridgescore.session.workflow import score_stored_event

    try:
        chosen = None if method is None else scoring_method(method)
        options = ScoringOptions(
            scale=scale,  # type: ignore[arg-type]
            neuberg=neuberg,
            per_section=bool(per_section),
            exclude=exclude,
            rounding=rounding,
            divide=divide,  # type: ignore[arg-type]
            session_percentage=session_percentage,
        )
    except BridgeError as error:
        raise fail(error, 2) from None
    with _open(event, _scoring_mode(event, with_par)) as store:
        try:
            scored = score_stored_event(
                store,
                chosen,
                options,
                pars="solve" if with_par else "none",
                per_section=per_section,
            )
        except BridgeError as error:
            raise fail(error) from None
    return scored  # an event no file named is titled by its file (score_stored_event)


def _sections_choice(per_section: bool, across: bool) -> bool | None:
    """``--per-section`` (True), ``--across`` (False) or neither (None: the event's
    own choice); both at once is an error (exit 2)."""
    if per_section and across:
        raise fail("--per-section and --across: choose one way to compare the sections", 2)
    return True if per_section else False if across else None


def _scoring_mode(event: Path, with_par: bool) -> str:
    """Scoring only reads the event; the one thing a report writes is the cache of
    the double-dummy tables it solves, so it opens the event for writing only when
    a board waits for its table and the file may be written."""
    if not with_par:
        return "read"
    with _open(event, "read") as store:
        try:
            waiting = any(b.deal and b.dd_table is None for b in store.boards().values())
        except BridgeError as error:
            raise fail(error) from None
    return "write" if waiting and os.access(event, os.W_OK) else "read"


@app.command("score")
def score_command(
    event: EventPath,
    method: Method = None,
    scale: Scale = "2/1",
    neuberg: Neuberg = True,
    per_section: PerSection = False,
    across: Across = False,
    exclude: Exclude = 1,
    rounding: Rounding = 10,
    divide: Divide = "comparisons",
    session_percentage: SessionPct = False,
    csv_file: Annotated[
        Path | None, typer.Option("--csv", help="Also write the ranking as CSV to this file.")
    ] = None,
    as_json: Json = False,
) -> None:
    """Score the event and print the ranking."""
    from bridgescore.session.reports.text import as_dict, ranking_csv, ranking_text

    if csv_file is not None:
        check_output_path(csv_file, "--csv")
    scored = _score(
        event,
        method,
        scale=scale,
        neuberg=neuberg,
        per_section=_sections_choice(per_section, across),
        exclude=exclude,
        rounding=rounding,
        divide=divide,
        session_percentage=session_percentage,
        with_par=False,
    )
    # The ranking first: a file that still fails to be written loses nothing computed.
    if as_json:
        echo_json(as_dict(scored, travellers=False))
    else:
        typer.echo(ranking_text(scored))
    if csv_file is not None:
        _write(csv_file, ranking_csv(scored))


@app.command("report")
def report_command(
    event: EventPath,
    method: Method = None,
    html_given: Annotated[
        str | None,
        typer.Option(
            "--html",
            metavar="<path>",
            help="A .html file: one self-contained page. A folder (an existing one, DIR/, "
            "or a new name without a suffix): a static site with the ranking, each board's "
            "traveller and hand record, each pair's scorecard.",
        ),
    ] = None,
    pdf: Annotated[
        Path | None,
        typer.Option(
            "--pdf",
            help="Print the report to this PDF (headless Chromium): the ranking, every "
            "traveller, the hand records with DD table and par; the event's name on "
            "every page.",
        ),
    ] = None,
    csv_file: Annotated[
        Path | None, typer.Option("--csv", help="Write every traveller line as CSV here.")
    ] = None,
    scale: Scale = "2/1",
    neuberg: Neuberg = True,
    per_section: PerSection = False,
    across: Across = False,
    exclude: Exclude = 1,
    rounding: Rounding = 10,
    divide: Divide = "comparisons",
    session_percentage: SessionPct = False,
    par: Par = True,
    as_json: Json = False,
) -> None:
    """The full report: travellers (with par when deals are known) and the ranking."""
    from bridgescore.cli.session_files import (
        check_html_target,
        check_pdf_target,
        write_page,
        write_pdf,
        write_site,
    )
    from bridgescore.session.reports.text import (
        as_dict,
        ranking_text,
        travellers_csv,
        travellers_text,
    )

    html = None if html_given is None else Path(html_given)
    site = html_given is not None and check_html_target(html_given) == "site"
    if pdf is not None:
        check_pdf_target(pdf)
    if csv_file is not None:
        check_output_path(csv_file, "--csv")
    scored = _score(
        event,
        method,
        scale=scale,
        neuberg=neuberg,
        per_section=_sections_choice(per_section, across),
        exclude=exclude,
        rounding=rounding,
        divide=divide,
        session_percentage=session_percentage,
        with_par=par,
    )
    # The report first: a file that still fails to be written loses nothing computed.
    if as_json:
        echo_json(as_dict(scored))
    elif html is None and csv_file is None and pdf is None:
        typer.echo(travellers_text(scored))
        typer.echo("")
        typer.echo(ranking_text(scored))
    else:
        typer.echo(ranking_text(scored))
    if html is not None and site:
        write_site(event, scored, html)
    elif html is not None:
        write_page(event, scored, html)
    if csv_file is not None:
        _write(csv_file, travellers_csv(scored))
    if pdf is not None:
        write_pdf(event, scored, pdf)
    if not as_json:
        for path in (html, csv_file, pdf):
            if path is not None:
                typer.echo(f"wrote {path}")


@app.command("export")
def export_command(
    event: EventPath,
    output: Annotated[
        Path, typer.Argument(help="The USEBIO 1.2 XML file to write ('-' for standard output).")
    ],
    method: Method = None,
) -> None:
    """Write the event as a USEBIO 1.2 results file, each line with its MPs or IMPs.

    A pair named by its number and home direction (a live Mitchell's 1N and
    1E, an imported 1NS) is written as its PAIR_NUMBER and DIRECTION; each
    player is a PLAYER, the club (session new --club) the CLUB_NAME, an opening
    lead entered at the table the line's LEAD; hand records are written in a
    HANDSET. Importing the file back gives the same ranking. A weighted score,
    which USEBIO cannot hold, is written as an adjusted score with its points
    stated, and a note says so.
    """
    from bridgescore.cli.session_files import export_extras
    from bridgescore.session.reports.usebio import export_usebio

    if str(output) != "-":
        check_output_path(output, "OUTPUT")
    from bridgescore.session.workflow import stored_home, stored_options

    with _open(event) as store:
        try:
            loaded = store.load()
            stored = store.method
            # Scored as 'session score' scores it: sections as the event chose them.
            options = stored_options(store)
            home = stored_home(store, loaded)
        except BridgeError as error:
            raise fail(error) from None
    club, leads = export_extras(event)
    notes: list[str] = []  # a weighted score written as an adjusted one says so
    try:
        text = export_usebio(loaded, method or stored, club=club, leads=leads,
                             options=options, home=home, notes=notes)  # fmt: skip
    except BridgeError as error:
        raise fail(error) from None
    for note in notes:
        typer.echo(f"note: {note}", err=True)
    if str(output) == "-":
        typer.echo(text, nl=False)
        return
    _write(output, text)
    typer.echo(f"wrote {output}: {len(loaded.results)} result(s)", err=True)


@app.command("correct", context_settings=WORD_SETTINGS)
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
    with _open(event, "write") as store:
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


@app.command("log")
def log_command(event: EventPath, as_json: Json = False) -> None:
    """The event's audit log, oldest first: every stored result changed by 'session
    correct' or 'session import --replace', and in a live session every result a table
    entered and the director changed or adjusted, with who, the old and the new result."""
    with _open(event) as store:
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


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise fail(f"cannot write {str(path)!r}: {error.strerror}", 2) from None


# `session live` lives in its own module (the web server); registered here so it is a subcommand.
from bridgescore.cli.live import live_command  # noqa: E402

app.command("live")(live_command)

# `session sim` (a simultaneous pairs across clubs): its own module, a subcommand here.
from bridgescore.cli.sim import sim_command  # noqa: E402

app.command("sim")(sim_command)

# Replacing a lost link, password or copy: their own module, subcommands here.
from bridgescore.cli.recovery import (  # noqa: E402
    backup_command,
    password_command,
    reissue_command,
)

app.command("reissue")(reissue_command)
app.command("password")(password_command)
app.command("backup")(backup_command)

# Drawing a Swiss round: its own module, a subcommand here.
from bridgescore.cli.swiss import draw_command  # noqa: E402

app.command("draw")(draw_command)

# The night's changes (a late pair, a table the wrong way round): their own module.
from bridgescore.cli.changes import add_pair_command, swap_command  # noqa: E402

app.command("add-pair")(add_pair_command)
app.command("swap")(swap_command)
