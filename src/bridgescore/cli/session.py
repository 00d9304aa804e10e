"""``bridgescore session``: import travellers into an event file, score it, report it.

\b
  bridgescore session import club.db travellers.csv hands.pbn
  bridgescore session score club.db --method mp
  bridgescore session report club.db --html club.html
  bridgescore session export club.db club.xml
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from bridgescore.cli.common import echo_json, fail, read_input_bytes
from bridgescore.errors import BridgeError

__all__ = ["app", "export_command", "import_command", "report_command", "score_command"]

app = typer.Typer(
    help="Duplicate sessions: matchpoints, Butler, cross-IMPs, teams IMPs and board-a-match.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)

NewEventPath = Annotated[Path, typer.Argument(help="The event file (SQLite; created if missing).")]
EventPath = Annotated[Path, typer.Argument(help="The event file made by 'session import'.")]
Method = Annotated[
    str | None,
    typer.Option(
        "--method",
        "-m",
        help="mp, butler or cross-imps (pairs); imps or bam (teams). "
        "Default: the method the imported USEBIO file names, else mp for pairs, imps for teams.",
    ),
]
Scale = Annotated[str, typer.Option(help="Matchpoint scale: 2/1 (WBF, EBU) or 1/0.5 (ACBL).")]
Neuberg = Annotated[
    bool, typer.Option(help="Factor boards with fewer results up to the full size (Neuberg).")
]
PerSection = Annotated[
    bool, typer.Option("--per-section", help="Compare within each section, not across the field.")
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


def _open(path: Path, *, must_exist: bool = True) -> Any:
    from bridgescore.session.store import EventStore

    if must_exist and not path.exists():
        raise fail(f"no event file {str(path)!r}: create it with 'bridgescore session import'", 2)
    try:
        return EventStore(path)
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
            "XML files and BBO vugraph archives (.lin: both rooms of a teams match), each "
            "recognised by its content."
        ),
    ],
    name: Annotated[str | None, typer.Option(help="The event's name.")] = None,
    teams: Annotated[
        bool | None, typer.Option("--teams/--pairs", help="A teams or a pairs event.")
    ] = None,
    as_json: Json = False,
) -> None:
    """Import results and hand records; bad lines are reported, the rest imported.

    USEBIO files set the event's kind and scoring method; online teams PBN
    files (HomeTeam, VisitTeam and Table tags) and BBO vugraph archives (LIN:
    the vg header's first team sits NS in the open room; its scoring, I for IMPs
    or B for board-a-match, its segment and the scores it carries over are kept
    and used by 'session report') make it a teams event. USEBIO players are kept
    with their pair or team. Scores a
    file states that bridgescore computes differently are listed ("check:").
    Importing a file twice adds nothing; a different result for a board and
    pairs already stored is reported as a conflict and the stored one is kept.
    Exits 1 if any line could not be imported.
    """
    from bridgescore.session.importer import import_files

    for file in files:
        read_input_bytes(str(file))  # an empty or binary file stops here, before the event
    with _open(event, must_exist=False) as store:
        try:
            store.set_info(name=name, kind=None if teams is None else "teams" if teams else "pairs")
        except BridgeError as error:
            raise fail(error, 2) from None
        report = import_files(store, files)
    for problem in report.problems:
        typer.echo(f"error: {problem}", err=True)
    for conflict in [*report.boards.conflicts, *report.results.conflicts]:
        typer.echo(f"conflict: {conflict}", err=True)
    for disagreement in report.disagreements:
        typer.echo(f"check: {disagreement}", err=True)
    for note in report.notes:
        typer.echo(f"note: {note}", err=True)
    conflicts = [str(c) for c in [*report.boards.conflicts, *report.results.conflicts]]
    summary = {
        "files": report.files,
        "results_added": report.results.added,
        "results_unchanged": report.results.unchanged,
        "boards_added": report.boards.added,
        "boards_unchanged": report.boards.unchanged,
        "conflicts": conflicts,
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
        )
    if not report.ok:
        raise typer.Exit(1)


def _score(
    event: Path,
    method: str | None,
    *,
    scale: str,
    neuberg: bool,
    per_section: bool,
    exclude: int,
    rounding: int,
    divide: str,
    session_percentage: bool,
    with_par: bool,
) -> Any:
    from bridgescore.session.methods import ScoringOptions, scoring_method
    from bridgescore.session.workflow import score_stored_event

    try:
        chosen = None if method is None else scoring_method(method)
        options = ScoringOptions(
            scale=scale,  # type: ignore[arg-type]
            neuberg=neuberg,
            per_section=per_section,
            exclude=exclude,
            rounding=rounding,
            divide=divide,  # type: ignore[arg-type]
            session_percentage=session_percentage,
        )
    except BridgeError as error:
        raise fail(error, 2) from None
    with _open(event) as store:
        try:
            return score_stored_event(store, chosen, options, pars="solve" if with_par else "none")
        except BridgeError as error:
            raise fail(error) from None


@app.command("score")
def score_command(
    event: EventPath,
    method: Method = None,
    scale: Scale = "2/1",
    neuberg: Neuberg = True,
    per_section: PerSection = False,
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
    from bridgescore.session.report import as_dict, ranking_csv, ranking_text

    scored = _score(
        event,
        method,
        scale=scale,
        neuberg=neuberg,
        per_section=per_section,
        exclude=exclude,
        rounding=rounding,
        divide=divide,
        session_percentage=session_percentage,
        with_par=False,
    )
    if csv_file is not None:
        _write(csv_file, ranking_csv(scored))
    if as_json:
        data = as_dict(scored)
        del data["travellers"]
        echo_json(data)
    else:
        typer.echo(ranking_text(scored))


@app.command("report")
def report_command(
    event: EventPath,
    method: Method = None,
    html: Annotated[
        Path | None,
        typer.Option(
            "--html",
            help="A .html file: one self-contained page. A directory (DIR/): a static site "
            "with the ranking, each board's traveller and hand record, each pair's scorecard.",
        ),
    ] = None,
    csv_file: Annotated[
        Path | None, typer.Option("--csv", help="Write every traveller line as CSV here.")
    ] = None,
    scale: Scale = "2/1",
    neuberg: Neuberg = True,
    per_section: PerSection = False,
    exclude: Exclude = 1,
    rounding: Rounding = 10,
    divide: Divide = "comparisons",
    session_percentage: SessionPct = False,
    par: Par = True,
    as_json: Json = False,
) -> None:
    """The full report: travellers (with par when deals are known) and the ranking."""
    from bridgescore.session.html_report import html_report
    from bridgescore.session.report import as_dict, ranking_text, travellers_csv, travellers_text

    scored = _score(
        event,
        method,
        scale=scale,
        neuberg=neuberg,
        per_section=per_section,
        exclude=exclude,
        rounding=rounding,
        divide=divide,
        session_percentage=session_percentage,
        with_par=par,
    )
    if html is not None and (html.is_dir() or html.suffix.lower() not in (".html", ".htm")):
        _write_site(event, scored, html)
    elif html is not None:
        _write(html, html_report(scored))
    if csv_file is not None:
        _write(csv_file, travellers_csv(scored))
    if as_json:
        echo_json(as_dict(scored))
    elif html is None and csv_file is None:
        typer.echo(travellers_text(scored))
        typer.echo("")
        typer.echo(ranking_text(scored))
    else:
        typer.echo(ranking_text(scored))
        for path in (html, csv_file):
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

    Pairs keep their names (a pair named 1NS is written as pair 1, direction
    NS); hand records are written in a HANDSET. Importing the file back gives
    the same event.
    """
    from bridgescore.session.usebio_import import export_usebio

    with _open(event) as store:
        try:
            loaded = store.load()
            stored = store.method
        except BridgeError as error:
            raise fail(error) from None
    try:
        text = export_usebio(loaded, method or stored)
    except BridgeError as error:
        raise fail(error) from None
    if str(output) == "-":
        typer.echo(text, nl=False)
        return
    _write(output, text)
    typer.echo(f"wrote {output}: {len(loaded.results)} result(s)", err=True)


def _write_site(event: Path, scored: Any, directory: Path) -> None:
    from bridgescore.session.site import results_site, write_site

    with _open(event) as store:
        boards = store.load().boards  # with the DD tables solved while scoring
    try:
        write_site(results_site(scored, boards), directory)
    except OSError as error:
        raise fail(f"cannot write the site into {str(directory)!r}: {error.strerror}", 2) from None


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise fail(f"cannot write {str(path)!r}: {error.strerror}", 2) from None
