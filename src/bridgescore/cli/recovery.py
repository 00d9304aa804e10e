"""``bridgescore session reissue | password | backup``: replace what a director lost.

Each works while ``session live`` serves the same event: the server reads the new
token or password at once, and the backup is SQLite's online backup, not a file copy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bridgescore.cli.common import echo_json, fail
from bridgescore.cli.outputs import check_output_path
from bridgescore.errors import BridgeError

__all__ = ["backup_command", "password_command", "reissue_command"]

LiveEventPath = Annotated[Path, typer.Argument(help="The event file made by 'session new'.")]
Json = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]


def _require_event(event: Path) -> None:
    if not event.is_file():
        raise fail(
            f"{str(event)!r} is not an event file: make one with "
            "'bridgescore session new EVENT --movement ...'",
            1,
        )


def reissue_command(
    event: LiveEventPath,
    table: Annotated[int, typer.Option("--table", min=1, help="The table whose link was lost.")],
    section: Annotated[
        str | None,
        typer.Option("--section", help="The table's section (needed when the event has several)."),
    ] = None,
    url_base: Annotated[
        str | None,
        typer.Option(
            "--url-base",
            help="Where the phones reach 'session live' (default: as 'session new' was told).",
        ),
    ] = None,
    cards: Annotated[
        Path | None,
        typer.Option(
            "--cards", help="Also print the table's card with its new link as a QR code (PDF)."
        ),
    ] = None,
    as_json: Json = False,
) -> None:
    """Give one table a new link: the old one is refused at once, even by a running server.

    The new link is shown only now (the event keeps only a hash of its token); with
    --cards the table's card carries it as a QR code.

    \b
    Examples:
      bridgescore session reissue club.db --table 3
      bridgescore session reissue club.db --table 3 --cards table3.pdf --json
    """
    from bridgescore.session.live.recovery import reissue_table

    _require_event(event)
    if cards is not None:
        check_output_path(cards, "--cards")
    try:
        made = reissue_table(event, table, section=section, url_base=url_base)
    except BridgeError as error:
        raise fail(error) from None
    if as_json:
        echo_json(made.as_dict())
    else:
        typer.echo(f"table {made.section}{made.table}: new link (the old one no longer works)")
        typer.echo(f"  {made.url}")
        typer.echo("  keep it: it is shown only this once (the event keeps only a hash of it)")
    if cards is not None:
        _write_card(event, made.section, made.table, made.url, cards, as_json=as_json)


def _write_card(
    event: Path, section: str, table: int, url: str, pdf: Path, *, as_json: bool
) -> None:
    from bridgescore.session.reports.cards import write_cards
    from bridgescore.session.store.events import EventStore

    try:
        with EventStore(event, mode="read") as store:
            movements, name = store.movements, store.name or event.stem
        links = {(section, table): url}
        write_cards(movements[section], pdf=pdf, event=name, links=links, table=table)
    except BridgeError as error:
        raise fail(
            f"the new link is made and shown above, but the card could not be written: {error}"
        ) from None
    if not as_json:
        typer.echo(f"table {table}'s card with its new link written to {pdf}")


def password_command(event: LiveEventPath, as_json: Json = False) -> None:
    """Set a new director password: the old one is refused and every director login ends.

    Whoever can write the event file is the director. The new password is shown only
    now (the event keeps only its scrypt hash).

    \b
    Examples:
      bridgescore session password club.db
      bridgescore session password club.db --json
    """
    from bridgescore.session.live.recovery import reset_director_password

    _require_event(event)
    try:
        password = reset_director_password(event)
    except BridgeError as error:
        raise fail(error) from None
    if as_json:
        echo_json({"director_password": password})
    else:
        typer.echo(f"director password: {password}")
        typer.echo("  keep it: it is shown only this once (the old password no longer works)")


def backup_command(
    event: Annotated[Path, typer.Argument(help="The event file, live or not.")],
    out: Annotated[Path, typer.Argument(help="The copy to write (never overwritten).")],
    as_json: Json = False,
) -> None:
    """Write a complete, consistent copy of an event, safe while 'session live' runs.

    A plain file copy taken while the server runs can miss every recent result (they
    are in the '-wal' file beside the event until SQLite moves them); this uses
    SQLite's online backup, so the copy holds everything committed, in one file.
    The backup is logged in the event's audit log ('session log').

    \b
    Example:
      bridgescore session backup club.db club-2130.db
    """
    from bridgescore.session.live.recovery import backup_event

    _require_event(event)
    if out.exists() or out.is_symlink():
        raise fail(f"{str(out)!r} already exists: a backup never overwrites a file", 2)
    check_output_path(out, "OUT")
    try:
        logged = backup_event(event, out)
    except BridgeError as error:
        raise fail(error) from None
    if as_json:
        echo_json({"event": str(event), "backup": str(out), "logged": logged})
    else:
        typer.echo(f"{event} backed up to {out}")
    if not logged:
        typer.echo(
            f"note: {str(event)!r} is read-only, so the backup is not in its audit log",
            err=True,
        )
