"""Importing files into an event: each file's reader picked by its content.

CSV traveller lines are read by :mod:`bridgescore.session.importers.csv`; a CSV of
names (``pair,player,player``) by :mod:`bridgescore.session.importers.players_csv`. PBN and
JSON records: the file is read by :func:`bridgescore.formats.read_records` into
board records, the one reading of the tags every command shares (tag
inheritance, ``#`` values, a board's second table without its Board, Dealer,
Vulnerable and Deal tags, Latin-1 and CP1252 text). Each game with a contract, a
result or a ``Score`` (or an auction) and the pair tags ``PairNS``/``PairEW`` (or
``HomeTeam``/``VisitTeam`` with ``Room``) is a result, scored as ``bridgescore
game`` scores it; so is each row of a ``ScoreTable`` (columns ``PairId_NS``,
``PairId_EW``, ``Contract``, ``Declarer``, ``Result``, ``Score_NS``, ``Score_EW``,
``Section``); each deal is a hand record (with ``DoubleDummyTricks`` when given):
see :mod:`bridgescore.session.importers.records`. Online teams PBN
(:mod:`~bridgescore.session.importers.teams_pbn`), USEBIO
(:mod:`~bridgescore.session.importers.usebio`), LIN vugraph archives
(:mod:`~bridgescore.session.importers.vugraph`) and Bridgemate's scoring databases
(BWS, :mod:`~bridgescore.session.importers.bws`) have readers of their own.

Each board is dealt as the file says: its dealer and vulnerability from the file
(PBN ``Dealer`` and ``Vulnerable``, LIN ``md`` and ``sv``, USEBIO ``DEALER`` and
``VULNERABILITY``, CSV ``dealer`` and ``vulnerable`` columns) when given, from its
number (Law 2) when not; the event keeps them and scores with them, and a note says
how many boards a file deals otherwise than their numbers. Two records of a file
dealing a board differently are a problem naming both lines; a file dealing a board
otherwise than the event holds it is a conflict.

A bad line is a :class:`~bridgescore.session.importers.parsed.Problem` naming the file
and line; the rest is read. Where a file contradicts itself (its Score and ours,
its auction and its Contract tag) the result is imported and the difference
listed with the checks.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import cast

from bridgescore.errors import ArgumentTypeError, BridgeError, NotationError, RecordError
from bridgescore.formats import check_input, decode_text, file_format, no_boards, read_text
from bridgescore.formats.csv import is_board_set
from bridgescore.formats.record import BoardRecord, Problem
from bridgescore.formats.sources import (
    InputSource,
    path_given_as_text,
    source_bytes,
    source_name,
)
from bridgescore.formats.usebio import UsebioError
from bridgescore.session.importers.accessdb import looks_like_bws
from bridgescore.session.importers.bws import read_bws_event
from bridgescore.session.importers.csv import parse_csv
from bridgescore.session.importers.parsed import Parsed, line_problem, stated_note
from bridgescore.session.importers.players_csv import looks_like_players, parse_players
from bridgescore.session.importers.records import parse_records
from bridgescore.session.importers.teams_pbn import records_are_online_teams, teams_from_records
from bridgescore.session.importers.usebio import check_file, read_usebio_event
from bridgescore.session.importers.vugraph import parse_vugraph
from bridgescore.session.store.events import AddReport, EventStore
from bridgescore.validate import date_text, quoted

__all__ = ["ImportReport", "import_data", "import_files"]


@dataclass(slots=True)
class ImportReport:
    """Everything an import did, over all its files.

    ``disagreements`` lists every score a file states that bridgescore computes
    differently (the file's error or ours); ``notes`` what the import decided
    on its own (the event's kind and scoring method, as the file names them).
    """

    files: int = 0
    results: AddReport = field(default_factory=AddReport)
    boards: AddReport = field(default_factory=AddReport)
    problems: list[Problem] = field(default_factory=list)
    disagreements: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.problems or self.results.conflicts or self.boards.conflicts)


def import_files(
    store: EventStore,
    paths: InputSource | Iterable[InputSource],
    *,
    replace: bool = False,
) -> ImportReport:
    """Import CSV, PBN, USEBIO and LIN vugraph files, each recognised by its content (LIN
    also by its ``.lin`` name); one transaction each.

    ``paths`` are what the user holds: paths (str or ``Path``), ``-`` for standard
    input, open files (binary or text), or one of these alone. A file that cannot be
    read (no such file, a directory, a file's text given as a path: pass that to
    :func:`import_data`) is a problem in the report, and the other files are read.

    The event takes its name, when it has none, from the first file that names
    one: a PBN ``Event`` tag, a USEBIO ``EVENT_DESCRIPTION`` (or ``EVENT_NAME``), a
    vugraph ``vg`` header. A USEBIO file (XML) sets the event's kind and the
    scoring method the file names; an online teams PBN file (``HomeTeam``,
    ``VisitTeam`` and ``Table``, no ``Room``) makes the event a teams event; so
    does a BBO vugraph archive (LIN), whose two rooms are scored by IMPs. With
    ``replace``, a result that differs from the stored one replaces it (logged in
    the event's audit log) instead of being a conflict.
    """
    if isinstance(paths, (bytes, bytearray, memoryview)):
        raise ArgumentTypeError(
            f"import_files was given {type(paths).__name__} {bytes(paths)[:30]!r}: expected "
            "paths or open files (a file's bytes: import_data(store, data, name))"
        )
    report = ImportReport()
    # One path alone (not a list of them) is one file, not the characters of its name.
    one = isinstance(paths, (str, os.PathLike)) or hasattr(paths, "read")
    sources = [cast(InputSource, paths)] if one else list(cast(Iterable[InputSource], paths))
    for source in sources:
        name = source_name(source) or ("-" if source == "-" else f"<{type(source).__name__}>")
        try:
            data = source_bytes(source, "import_files", "import_data(store, text, name)")
        except BridgeError as error:
            report.problems.append(line_problem(name, 0, f"cannot read the file: {error}"))
            continue
        import_data(store, data, name, report, replace=replace)
    return report


def import_data(
    store: EventStore,
    data: bytes | str,
    name: str,
    report: ImportReport | None = None,
    *,
    replace: bool = False,
) -> ImportReport:
    """Import one file's bytes, or its text (a str), picking the reader by content as
    :func:`import_files` does; ``name`` is how the problems name the file, and tells
    a ``.pbn`` or ``.lin`` file. Adds to ``report`` when given.

    A str that is the path of an existing file (one line) is refused with an
    :class:`~bridgescore.errors.InputFileError` saying to pass it to
    :func:`import_files`: read as a file's text, it would give no boards.
    """
    if isinstance(data, str):
        path_given_as_text(data, "import_data", "import_files(store, [path])")
        data = data.encode("utf-8", "surrogateescape")
    elif not isinstance(data, (bytes, bytearray, memoryview)):
        raise ArgumentTypeError(
            f"import_data cannot read {type(data).__name__} {quoted(data)}: expected a file's "
            "bytes or text (open files and paths: import_files(store, [file]))"
        )
    report = ImportReport() if report is None else report
    try:
        parsed, info = _parse_file(data, name, store, report)
    except UsebioError as error:
        report.problems.append(line_problem(name, error.line, error.detail))
        return report
    except BridgeError as error:
        report.problems.append(line_problem(name, 0, str(error)))
        return report
    report.files += 1
    if not (parsed.results or parsed.boards or parsed.problems or parsed.members):
        report.problems.append(line_problem(name, 0, str(no_boards(name))))
    report.problems.extend(parsed.problems)
    report.disagreements.extend(str(check) for check in parsed.checks)
    report.notes.extend(parsed.notes)
    dealt = stated_note(name, parsed.boards)
    if dealt is not None:
        report.notes.append(dealt)
    boards, results = store.add(
        parsed.boards,
        parsed.results,
        info=info,
        members=parsed.members,
        replace=replace,
        movements=parsed.movements,
        leads=parsed.leads,
        plays=parsed.plays,
    )
    report.boards.merge(boards)
    report.results.merge(results)
    return report


def _parse_file(
    data: bytes, name: str, store: EventStore, report: ImportReport
) -> tuple[Parsed, dict[str, str | None]]:
    """Pick the reader by content; return what it read and the event settings it implies.

    An empty file or a binary one (UTF-16 included: read as text it would give one
    confusing error per line) is refused by the one check every reader makes.
    """
    if looks_like_bws(data):
        return _bws(data, name, store)
    check_input(data, name)
    kind = _format_of(name, data)
    if kind == "usebio":
        imported = read_usebio_event(data, name)
        report.notes.extend(imported.notes)
        checked = check_file(imported)
        report.disagreements.extend(f"{name}: {d}" for d in checked.disagreements)
        if imported.method:
            report.notes.append(
                f"{name}: a {imported.kind} event scored by {imported.method}, as the file says"
            )
        info = {"kind": imported.kind, "method": imported.method}
        # The event ranks its sections as the file's scorer did, unless it already chose.
        if checked.per_section is not None and store.sections_across is None:
            way = "within each section" if checked.per_section else "across the field"
            report.notes.append(
                f"{name}: the file's sections were compared {way}, as its figures say; the "
                "event is scored so ('session score --across/--per-section' may override it)"
            )
            info["sections_scored"] = "per section" if checked.per_section else "across"
        info["name"] = None if store.name or not imported.name else imported.name
        info["club"] = None if store.club or not imported.club else imported.club
        info["date"] = None if store.date or not imported.date else imported.date
        return imported.parsed, info
    text = _text(data)
    # LIN is a vugraph archive (a teams match), unless it holds hand records alone
    # (as 'deal --boards --format lin' writes them), which are read as PBN's are.
    if kind == "lin" and not _hand_records_only(text, name):
        _refuse_a_hand_history(text, name)
        match = parse_vugraph(text, name)
        report.notes.extend(match.describe(name))
        # A method the director chose stands; see VugraphMatch.settings.
        return match.parsed, match.settings(store)
    if kind == "csv" and looks_like_players(text):
        return parse_players(text.splitlines(), name, movements=store.movements), {}
    if kind == "csv" and not is_board_set(text):
        return parse_csv(text.splitlines(), name, movements=store.movements), {}
    records = list(read_text(text, kind, name))
    # The day played, from the PBN Date tag, unless the event has one.
    dated = None if store.date else _pbn_date(records, name, report)
    if records_are_online_teams(records):
        online = teams_from_records(records, name)
        report.disagreements.extend(f"{name}:{d.line}: {d}" for d in online.disagreements)
        report.notes.append(f"{name}: an online teams file (HomeTeam sits NS at its Table)")
        named = None if store.name or not online.name else online.name
        return online.parsed, {"kind": "teams", "name": named, "date": dated}
    # The PBN Event tag (the first game's that names one; "?" is PBN's unknown).
    events = (r.event.strip() for r in records if r.event.strip() not in ("", "?", "#"))
    named = None if store.name else next(events, None)
    settings: dict[str, str | None] = {"name": named} if named else {}
    if dated:
        settings["date"] = dated
    if any(_is_teams_room(record) for record in records):
        # The two rooms of a teams match: scored in IMPs between the teams, not as a
        # field of pairs (where a two-team match gives 100% and 0%).
        report.notes.append(
            f"{name}: a teams file (HomeTeam and VisitTeam at the Open and Closed rooms): "
            "a teams event scored in IMPs"
        )
        settings["kind"] = "teams"
    return parse_records(records, name), settings


def _pbn_date(records: Iterable[BoardRecord], name: str, report: ImportReport) -> str | None:
    """The day the first game that has a ``Date`` tag says, as year-month-day. PBN
    writes ``2026.11.20``, and ``?`` for a part not known: such a date (``2026.??.??``)
    leaves the event undated; one that is no date at all does too, with a note."""
    for record in records:
        written = next((value.strip() for tag, value in record.notes if tag == "Date"), "")
        if not written:
            continue
        if "?" in written:
            return None
        try:
            return date_text(written.replace(".", "-"), "Date", error=RecordError)
        except RecordError:
            report.notes.append(
                f"{name}: Date {quoted(written[:40])} is not a date: expected "
                "year.month.day (2026.11.20); the event is left undated (give --date)"
            )
            return None
    return None


def _is_teams_room(record: BoardRecord) -> bool:
    """Whether a record is one room of a teams match: both teams and its room named."""
    return bool(record.home_team and record.visit_team) and record.room is not None


def _bws(data: bytes, name: str, store: EventStore) -> tuple[Parsed, dict[str, str | None]]:
    """A Bridgemate scoring database: its results, hands, players, movement and leads."""
    try:
        imported = read_bws_event(data, name)
    except ImportError as error:
        # The reader is an extra: a missing one is this file's problem, and the others are read.
        raise RecordError(str(error)) from None
    parsed = imported.parsed
    parsed.leads = imported.leads
    parsed.plays = imported.table_plays()
    if store.movements:
        parsed.notes.append(f"{name}: the event's own movement is kept, not the database's")
    else:
        parsed.movements = imported.movements
    named = None if store.name or not imported.name else imported.name
    dated = None if store.date or not imported.date else imported.date
    return parsed, {"name": named, "date": dated}


def _refuse_a_hand_history(text: str, name: str) -> None:
    """Refuse, in one message, a LIN file that is a player's hand history, not a match.

    BBO writes a player's tournament as one record per board (a ``qx|o1|`` each, or
    none), with no ``vg|`` header naming two teams and no board in two rooms: one table's
    results, which no field of results can be scored from. Read as a vugraph archive it
    would give one confusing error per board.
    """
    records = [record for record in read_text(text, "lin", name) if not record.problems]
    if not records or any(record.match is not None for record in records):
        return
    rooms: dict[object, set[object]] = defaultdict(set)
    for record in records:
        rooms[record.board].add(record.room)
    if any({"open", "closed"} <= seen for seen in rooms.values()):
        return
    boards = len(rooms)
    raise RecordError(
        f"a BBO hand history (one table's play of {boards} board{'s' * (boards != 1)}, "
        "with no vg| header naming two teams), not an event's results: session import "
        "takes a vugraph archive (a vg| header, each board in the open and the closed "
        f"room) or every table's results; 'bridgescore analyse {name}' reviews these "
        f"boards and 'bridgescore convert {name} OUT.pbn' writes them as PBN"
    )


def _hand_records_only(text: str, name: str) -> bool:
    """Whether every LIN record is a deal alone: no vg header, auction, play or result."""
    return all(
        record.match is None
        and record.auction is None
        and not record.play
        and record.contract_text is None
        and record.result is None
        and record.claim is None
        for record in read_text(text, "lin", name)
    )


def _text(data: bytes) -> str:
    """The file's text, decoded as every format reader decodes it (UTF-8, else
    Windows-1252, else Latin-1); :func:`_parse_file` has refused binary files."""
    return decode_text(data)


def _format_of(name: str, data: bytes) -> str:
    """What :func:`~bridgescore.formats.file_format` says the file is (``usebio``,
    ``pbn``, ``lin``, ``json``, ``csv``), else ``csv``: the results and player lists
    the session reads itself."""
    try:
        return file_format(data, name)
    except NotationError:
        return "csv"
