"""``bridgescore session new | live | reissue | password | backup``: the live night, from
making the event to serving it and replacing what a director lost.

\b
  bridgescore session new club.db --movement mitchell --tables 7 --boards-per-round 3
  bridgescore session live club.db

``reissue``, ``password`` and ``backup`` work while ``session live`` serves the same event:
the server reads the new token or password at once, and the backup is SQLite's online
backup, not a file copy.
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from bridgescore.cli.common import echo_json, fail, read_input_bytes
from bridgescore.cli.listening import (
    ForwardedAllowIps,
    Host,
    announce,
    listening_sockets,
    proxy_addresses,
    run_server,
    web_extra_missing,
)
from bridgescore.cli.movement_options import (
    ArrowSwitch,
    GeneratorOptions,
    NamedBoardsPerRound,
    NamedTables,
    Pairs,
    Relay,
    Rounds,
    SwissSeed,
    named_movement,
    swiss_options,
    swiss_pairs_options,
)
from bridgescore.cli.outputs import check_output_path
from bridgescore.cli.session.arguments import Json, LiveEventPath
from bridgescore.errors import BridgeError
from bridgescore.validate import date_text

__all__ = [
    "backup_command",
    "live_command",
    "log_config",
    "new_command",
    "password_command",
    "reissue_command",
]


def new_command(
    event: Annotated[Path, typer.Argument(help="The event file to make (never overwritten).")],
    movement: Annotated[
        str,
        typer.Option(
            "--movement",
            help="mitchell, howell, teams (a round robin of --teams teams, each match at two "
            "tables), swiss (--teams teams over --rounds rounds, each round drawn from the "
            "standings by 'session draw'), swiss-pairs (--pairs pairs, the same, each match "
            "at one table, scored in Butler IMPs and VPs), individual (--players players, "
            "ranked player by player), or a movement file (.json as 'movement ... --json' "
            "writes it, or .asc).",
        ),
    ],
    tables: NamedTables = None,
    teams: Annotated[
        int | None,
        typer.Option(
            "--teams",
            help="--movement teams: the teams of the round robin (2 to 40); --movement "
            "swiss: the teams of the Swiss. Ranked in victory points, match by match.",
        ),
    ] = None,
    boards_per_round: NamedBoardsPerRound = None,
    rounds: Rounds = None,
    pairs: Pairs = None,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            help="--movement individual: the players (a multiple of four, 8 to 40); each "
            "partners every other once (2 boards a round unless --boards-per-round says).",
        ),
    ] = None,
    seed: SwissSeed = None,
    sections: Annotated[
        int,
        typer.Option(
            "--sections",
            help="Sections A, B, ... (1 to 26) of the same movement on the same boards, "
            "each table of each with its own link (B3: section B, table 3). Pairs "
            "movements only.",
        ),
    ] = 1,
    score_across: Annotated[
        bool,
        typer.Option(
            "--score-across",
            help="Matchpoint each board across every section's results (Neuberg where "
            "the counts differ) instead of within each section (the default); 'session "
            "score --across/--per-section' may override it.",
        ),
    ] = False,
    name: Annotated[
        str | None, typer.Option(help="The event's name (default: the file's).")
    ] = None,
    club: Annotated[
        str | None,
        typer.Option(
            help="The club's name (the USEBIO export's CLUB_NAME; the director "
            "may change it on the names page)."
        ),
    ] = None,
    date: Annotated[
        str | None,
        typer.Option(
            help="The day the event is played, year-month-day (default: today, UTC): "
            "the date 'club add' files it under."
        ),
    ] = None,
    boards: Annotated[
        Path | None,
        typer.Option(
            "--boards",
            help="Hand records to attach now (a PBN, JSON or LIN file of deals, as "
            "'session import EVENT FILE' attaches them).",
        ),
    ] = None,
    relay: Relay = False,
    arrow_switch: ArrowSwitch = False,
    url_base: Annotated[
        str,
        typer.Option(
            "--url-base",
            help="Where the tables' phones reach 'session live': each table's link is "
            "URL-BASE/table?token=TOKEN.",
        ),
    ] = "http://127.0.0.1:8000",
    cards: Annotated[
        Path | None,
        typer.Option(
            "--cards",
            help="Also print the guide and table cards to this PDF, each table card with "
            "its table's link as a QR code (the links exist only now).",
        ),
    ] = None,
    cards_html: Annotated[
        Path | None,
        typer.Option("--cards-html", help="The same cards as HTML."),
    ] = None,
    as_json: Json = False,
) -> None:
    """Make an event from a movement, for a live session: one secret link per table and a
    director password, both shown only now (the event keeps only their hashes).

    The movement is checked first: one with a pair at two tables in a round, or a board
    played twice by a pair, is refused (exit 2). An existing event file is never
    overwritten (exit 1). A teams movement makes a teams event, ranked in victory points
    unless 'session score --method imps' asks otherwise. A Swiss has round 1 drawn now
    (printed) and each later round drawn by 'session draw'. With --cards the table
    cards carry the links as QR codes: print them now, since the links cannot be shown
    again.
    """
    from bridgescore.cli.session.changes import show_round
    from bridgescore.cli.session.files import attach_boards, read_hand_records
    from bridgescore.session.live.creation import create_event
    from bridgescore.session.live.players import club_name
    from bridgescore.session.live.swiss import (
        SwissDrawn,
        create_swiss_event,
        create_swiss_pairs_event,
    )
    from bridgescore.session.store.events import EventStore

    for path, option in ((cards, "--cards"), (cards_html, "--cards-html")):
        if path is not None:
            check_output_path(path, option)
    try:
        club = None if club is None else club_name(club)
    except BridgeError as error:
        raise fail(f"--club: {error}", 2) from None
    try:
        today = datetime.now(UTC).date().isoformat()
        played_on = today if date is None else date_text(date, "--date")
    except BridgeError as error:
        raise fail(error, 2) from None
    # The hand records are read (and refused) before the event is made.
    hands = (
        None if boards is None else read_hand_records(str(boards), read_input_bytes(str(boards)))
    )

    given = GeneratorOptions(
        tables,
        boards_per_round,
        rounds,
        pairs,
        relay,
        arrow_switch,
        teams=teams,
        seed=seed,
        players=players,
    )
    field = {"swiss": "teams", "swiss-pairs": "pairs"}.get(movement.lower())
    swiss = None if field is None else _swiss_for(given, field)
    chosen = None if swiss is not None else _movement_for(movement, given)
    _check_sections(sections, chosen, swiss=swiss is not None)
    if event.exists() or event.is_symlink():
        raise fail(
            f"{str(event)!r} already exists: an event is made once (choose another file, "
            "or remove this one if it is no longer wanted)"
        )
    first_round: SwissDrawn | None = None
    try:
        if swiss is not None and field == "pairs":
            made, first_round = create_swiss_pairs_event(
                event, **swiss, name=name, url_base=url_base
            )
            with EventStore(event) as made_store:
                chosen = made_store.movement
        elif swiss is not None:
            made, first_round = create_swiss_event(event, **swiss, name=name, url_base=url_base)
            with EventStore(event) as made_store:
                chosen = made_store.movement
        else:
            assert chosen is not None
            made = create_event(
                event,
                chosen,
                name=name,
                url_base=url_base,
                sections=sections,
                # One section has nothing to compare across: its file stays as it was.
                score_across=True if score_across else None,
            )
        with EventStore(event, mode="write") as store:
            store.set_info(club=club, date=played_on)
    except BridgeError as error:
        raise fail(error, 2) from None
    if as_json:
        document = made.as_dict()
        if first_round is not None:
            document["round"] = first_round.as_dict()
        echo_json(document)
    else:
        _show_new_event(event, name, chosen, made, swiss, sections, score_across)
        if first_round is not None:
            show_round(first_round)
    if hands is not None:
        attached = attach_boards(event, hands)
        if not as_json:
            typer.echo(f"{attached} hand record(s) attached from {boards}")
    if cards is not None or cards_html is not None:
        from bridgescore.session.live.sections import sections_of

        assert chosen is not None  # made above, or read back from the Swiss's file
        movements = list(sections_of(chosen, sections).values())
        _write_table_cards(movements, made, name or event.stem, cards, cards_html, as_json=as_json)


def _write_table_cards(
    movement: Any, made: Any, title: str, pdf: Path | None, html: Path | None, *, as_json: bool
) -> None:
    """The cards with the tables' links, written after the links are shown: should the
    printing fail, the event and its links are not lost."""
    from bridgescore.session.reports.cards import write_cards

    links = {(access.section, access.table): access.url for access in made.tables}
    try:
        write_cards(movement, pdf=pdf, html=html, event=title, links=links)
    except BridgeError as error:
        raise fail(
            f"the event is made and its links are shown above, but the cards could not be "
            f"written: {error} (make them from Python with write_cards and the links)"
        ) from None
    if not as_json:
        written = " and ".join(str(path) for path in (pdf, html) if path is not None)
        typer.echo(f"cards with the tables' links written to {written}")


def _show_new_event(
    event: Path,
    name: str | None,
    chosen: Any,
    made: Any,
    swiss: dict[str, Any] | None = None,
    sections: int = 1,
    score_across: bool = False,
) -> None:
    sizes = sorted({len(row.boards) for row in chosen.rows})
    per_round = "/".join(str(size) for size in sizes)
    if swiss is not None and "pairs" in swiss:
        typer.echo(
            f"{event}: {name or event.stem}, a Swiss pairs: {chosen.tables} table(s), "
            f"{swiss['rounds']} round(s) of {per_round} board(s), {swiss['pairs']} pairs, "
            "scored in Butler IMPs and VPs; each round after the first drawn by "
            "'session draw'"
        )
    elif swiss is not None:
        typer.echo(
            f"{event}: {name or event.stem}, a Swiss teams: {chosen.tables} table(s), "
            f"{swiss['rounds']} round(s) of {per_round} board(s), {swiss['teams']} teams; "
            "each round after the first drawn by 'session draw'"
        )
    elif chosen.kind == "individual":
        typer.echo(
            f"{event}: {name or event.stem}, an individual movement: {chosen.tables} "
            f"table(s), {chosen.rounds} round(s) of {per_round} board(s), "
            f"{len(chosen.players)} players, each ranked on their own"
        )
    else:
        typer.echo(
            f"{event}: {name or event.stem}, a {chosen.kind} movement: {chosen.tables} table(s), "
            f"{chosen.rounds} round(s) of {per_round} board(s), {len(chosen.pairs)} "
            f"{'teams' if chosen.kind == 'teams' else 'pairs'}"
        )
    if sections > 1:
        names = sorted({access.section for access in made.tables})
        typer.echo(
            f"{sections} sections, {', '.join(names)}, on the same boards; each board "
            + (
                "matchpointed across every section"
                if score_across
                else "matchpointed within its section"
            )
        )
    typer.echo(f"director password: {made.director_password}")
    typer.echo("  keep it: it is shown only this once (the event keeps only a hash of it)")
    typer.echo("table links (each opens its own table's page; they are on the table cards):")
    for access in made.tables:
        typer.echo(f"  {access.section}{access.table:<3} {access.url}")


def _check_sections(sections: int, chosen: Any, *, swiss: bool) -> None:
    """Refuse (exit 2) a number of sections out of range, or sections of a teams
    movement or a Swiss (one field each: sections are for pairs)."""
    from bridgescore.session.live.sections import MAX_SECTIONS, sections_of

    if not 1 <= sections <= MAX_SECTIONS:
        raise fail(f"--sections {sections}: an event has 1 to {MAX_SECTIONS} sections (A to Z)", 2)
    if sections > 1 and swiss:
        raise fail(
            f"--sections {sections} with a Swiss: a Swiss is drawn from one "
            "field's standings, so it has one section",
            2,
        )
    if chosen is not None:
        try:
            sections_of(chosen, sections)
        except BridgeError as error:
            raise fail(f"--sections: {error}", 2) from None


def _swiss_for(given: GeneratorOptions, field: str) -> dict[str, Any]:
    """``create_swiss_event``'s (``field`` "teams") or ``create_swiss_pairs_event``'s
    (``field`` "pairs") arguments from the options (exit 2 when one is wrong)."""
    from bridgescore.session.live.swiss import MAX_SWISS_TEAMS

    if field == "pairs":
        entries, rounds, per_round = swiss_pairs_options(given)
    else:
        entries, rounds, per_round = swiss_options(given)
    if not 2 <= entries <= MAX_SWISS_TEAMS:
        raise fail(f"--{field} {entries}: a Swiss has 2 to {MAX_SWISS_TEAMS} {field}", 2)
    most = entries - 1 + entries % 2
    if not 1 <= rounds <= most:
        raise fail(
            f"--rounds {rounds}: {entries} {field} can play 1 to {most} Swiss rounds without "
            f"two {field} meeting twice",
            2,
        )
    if per_round < 1:
        raise fail(f"--boards-per-round {per_round}: a match has at least one board", 2)
    return {field: entries, "rounds": rounds, "boards_per_round": per_round, "seed": given.seed}


def _movement_for(spec: str, given: GeneratorOptions) -> Any:
    """The movement ``session new --movement`` names, checked sound (exit 2 if not)."""
    from bridgescore.movement.check import require_sound

    chosen = named_movement(spec, given)
    try:
        require_sound(chosen)
    except BridgeError as error:
        raise fail(error, 2) from None
    return chosen


TLS_WARNING = (
    "warning: listening on {host}: other machines can reach this server, and plain HTTP "
    "shows the tables' tokens and the director's password to anyone on the network. "
    "Put TLS in front: a reverse proxy with HTTPS such as Caddy or nginx "
    "(see docs/live-server.md, 'Behind a reverse proxy')"
)


def log_config(access_log: bool) -> dict[str, Any]:
    """uvicorn's logging configuration with tokens and passwords redacted from every line."""
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact"] = {"()": "bridgescore.web.live.guards.RedactSecrets"}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("redact")
    if not access_log:
        config["loggers"]["uvicorn.access"]["level"] = "WARNING"
    return config


def live_command(
    event: Annotated[Path, typer.Argument(help="The event file made by 'session new'.")],
    host: Host = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="TCP port (0: any free port).")
    ] = 8000,
    access_log: Annotated[
        bool,
        typer.Option(help="Log every request (tokens and passwords are always redacted)."),
    ] = True,
    forwarded_allow_ips: ForwardedAllowIps = None,
    connections_per_address: Annotated[
        int,
        typer.Option(
            min=1,
            max=10_000,
            help="Connections one address may hold that have not sent a whole request "
            "(half-open ones: past it, its oldest is closed). Connections being served, "
            "or kept alive between requests, do not count.",
        ),
    ] = 32,
    read_timeout: Annotated[
        float,
        # For tests: a request slower than this is dropped (docs/live-server.md).
        typer.Option(min=0.01, max=300.0, hidden=True),
    ] = 15.0,
) -> None:
    """Serve the live session: table entry, the director's pages, the live ranking.

    Results are on disk before a table sees them acknowledged; stop with Ctrl+C and
    start again at any time, nothing entered is lost.

    \b
    Examples:
      bridgescore session live club.db
      bridgescore session live club.db --host 0.0.0.0 --port 8080
      bridgescore session live club.db --forwarded-allow-ips 127.0.0.1
    """
    proxies = proxy_addresses(forwarded_allow_ips)
    try:
        import uvicorn

        from bridgescore.web.connections import ConnectionGuard
        from bridgescore.web.live.app import create_live_app
    except ImportError as error:
        raise web_extra_missing("session live", error) from None
    if not event.is_file():
        raise fail(
            f"{str(event)!r} is not an event file: make one with "
            "'bridgescore session new EVENT --movement ...'",
            1,
        )
    try:
        app = create_live_app(event)
    except BridgeError as error:
        raise fail(error) from None
    listeners = listening_sockets(host, port)
    for listener in listeners:
        # Listening before saying so: a phone (or a test) that connects at once waits in the
        # queue until the server accepts, rather than being refused.
        listener.listen(2048)
    port = listeners[0].getsockname()[1]
    announce(host, port, TLS_WARNING, what=str(event))
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_config=log_config(access_log),
        access_log=access_log,
        # More connections than a club's phones need; past it, 503 rather than exhausting the host.
        limit_concurrency=500,
    )
    try:
        guard = ConnectionGuard(read_timeout, connections_per_address, proxies)
        run_server(config, listeners, proxies=proxies, guard=guard)
    finally:
        app.state.live.close()


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
