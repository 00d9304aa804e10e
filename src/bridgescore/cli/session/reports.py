"""``bridgescore session score | report | export``: the event scored, reported and
written as USEBIO."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

import typer

from bridgescore.cli.common import echo_json, fail
from bridgescore.cli.outputs import check_output_path
from bridgescore.cli.session.arguments import (
    Across,
    Divide,
    EventPath,
    Exclude,
    Json,
    Method,
    Neuberg,
    Par,
    PerSection,
    Rounding,
    Scale,
    SessionPct,
    open_event,
)
from bridgescore.errors import BridgeError

__all__ = ["export_command", "report_command", "score_command"]


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
    with open_event(event, _scoring_mode(event, with_par)) as store:
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
    with open_event(event, "read") as store:
        try:
            waiting = any(b.deal and b.dd_table is None for b in store.boards().values())
        except BridgeError as error:
            raise fail(error) from None
    return "write" if waiting and os.access(event, os.W_OK) else "read"


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
    from bridgescore.cli.session.files import (
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
    from bridgescore.cli.session.files import export_extras
    from bridgescore.session.reports.usebio import export_usebio

    if str(output) != "-":
        check_output_path(output, "OUTPUT")
    from bridgescore.session.workflow import stored_home, stored_options

    with open_event(event) as store:
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


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise fail(f"cannot write {str(path)!r}: {error.strerror}", 2) from None
