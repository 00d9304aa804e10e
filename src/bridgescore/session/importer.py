"""Reading travellers and hand records: CSV traveller lines and PBN files.

CSV: one result a line, ``board,ns,ew,contract,declarer,result`` or
``board,ns,ew,score`` (also ``board,ns,ew,contract,result`` with the declarer
inside the contract, ``4SXN``, and ``board,ns,ew,4SXN+1``: the whole result in
the score field). An optional header line names the columns
(``board,ns,ew,contract,declarer,result,score,section,variant``) in any order.
``result`` is ``=``, ``+k``, ``-k`` or the number of tricks taken (1-13);
``score`` is the NS score (``+620``, ``-100``, ``NS 620``, ``EW 100``), ``Pass``,
or an artificial adjusted score (``A+``, ``A``, ``A-``, ``A+/A+``, ``60/40``).

PBN (and JSON records): the file is read by :func:`bridgescore.formats.read_records`
into board records, the one reading of the tags every command shares (tag
inheritance, ``#`` values, a board's second table without its Board, Dealer,
Vulnerable and Deal tags, Latin-1 and CP1252 text). Each game with a contract, a
result or a ``Score`` (or an auction) and the pair tags ``PairNS``/``PairEW`` (or
``HomeTeam``/``VisitTeam`` with ``Room``) is a result, scored as ``bridgescore
game`` scores it; so is each row of a ``ScoreTable`` (columns ``PairId_NS``,
``PairId_EW``, ``Contract``, ``Declarer``, ``Result``, ``Score_NS``, ``Score_EW``,
``Section``); each deal is a hand record (with ``DoubleDummyTricks`` when given).

A bad line is a :class:`LineProblem` naming the file and line; the rest is read.
Where a file contradicts itself (its Score and ours, its auction and its Contract
tag) the result is imported and the difference listed with the checks.

>>> parsed = parse_csv(["board,ns,ew,score", "1,1,2,+420", "1,3,4,oops"], "t.csv")
>>> [r.score for r, _ in parsed.results], [p.line for p in parsed.problems]
([420], [3])
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bridgescore.errors import BridgeError, NotationError, RecordError
from bridgescore.formats import check_input, decode_text, detect_format, no_boards, read_text
from bridgescore.formats.board import Board
from bridgescore.formats.csv import is_board_set
from bridgescore.formats.pbnrecord import read_pbn
from bridgescore.formats.record import BoardRecord
from bridgescore.formats.usebio import UsebioError
from bridgescore.notation import Result, parse_result
from bridgescore.session.event import Adjusted, Member, TableResult
from bridgescore.session.store import AddReport, EventStore, Origin

__all__ = [
    "ImportReport",
    "LineProblem",
    "Parsed",
    "import_data",
    "import_files",
    "parse_csv",
    "parse_pbn",
    "parse_records",
    "parse_table_result",
]

_COLUMNS = ("board", "ns", "ew", "contract", "declarer", "result", "score", "section", "variant")
_ALIASES = {
    "bd": "board",
    "board_no": "board",
    "pairns": "ns",
    "ns_pair": "ns",
    "pair_ns": "ns",
    "pairew": "ew",
    "ew_pair": "ew",
    "pair_ew": "ew",
    "by": "declarer",
    "decl": "declarer",
    "tricks": "result",
    "ns_score": "score",
    "score_ns": "score",
    "fouled": "variant",
}
_BY_COUNT = {
    4: ("board", "ns", "ew", "score"),
    5: ("board", "ns", "ew", "contract", "result"),
    6: ("board", "ns", "ew", "contract", "declarer", "result"),
}
_SCORE_RE = re.compile(
    r"^\s*(?:(?P<side>NS|EW|N-S|E-W)\s*)?(?P<sign>[+\-−]?)\s*(?P<points>\d{1,9})\s*$", re.I
)
_PASSED = re.compile(r"^\s*(?:P|PASS|PASSED(?:\s*OUT)?|PASSOUT|AP|ALL\s*PASS)\s*$", re.I)


@dataclass(frozen=True, slots=True)
class LineProblem:
    """A line that could not be read, with its file and line number."""

    source: str
    line: int
    message: str

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}" if self.line else self.source
        return f"{where}: {self.message}"


@dataclass(slots=True)
class Parsed:
    """What one file gave: results and hand records with their origins, problems,
    ``checks`` (where the file contradicts itself or us, the result still imported)
    and ``notes`` (how an unusual file was read)."""

    results: list[tuple[TableResult, Origin]] = field(default_factory=list)
    boards: list[tuple[Board, Origin]] = field(default_factory=list)
    problems: list[LineProblem] = field(default_factory=list)
    checks: list[LineProblem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    members: dict[str, tuple[Member, ...]] = field(default_factory=dict)


# ------------------------------------------------------------------------ CSV


def parse_csv(lines: Iterable[str], source: str = "(input)") -> Parsed:
    """Read CSV traveller lines; blank lines and ``#`` comments are skipped."""
    parsed = Parsed()
    columns: Sequence[str] | None = None
    numbered = (
        (number, line)
        for number, line in enumerate(lines, start=1)
        if line.strip() and not line.lstrip().startswith("#")
    )
    for number, line in numbered:
        try:
            cells = [cell.strip() for cell in next(csv.reader([line]))]
        except csv.Error as error:  # a field over the csv module's limit (131,072)
            parsed.problems.append(
                LineProblem(source, number, f"{line[:40]!r}... is too long to read: {error}")
            )
            continue
        first = not parsed.results and not parsed.problems
        if columns is None and first and any(_is_board_column(cell) for cell in cells):
            try:
                columns = _header(cells)
            except RecordError as error:
                parsed.problems.append(LineProblem(source, number, str(error)))
                return parsed
            continue
        origin = Origin(source, number)
        try:
            names = columns or _BY_COUNT.get(len(cells))
            if names is None:
                raise RecordError(
                    f"{line.strip()!r} has {len(cells)} fields: expected "
                    "board,ns,ew,contract,declarer,result or board,ns,ew,score"
                )
            if len(cells) != len(names):
                raise RecordError(
                    f"{line.strip()!r} has {len(cells)} fields: the header names {len(names)}"
                )
            parsed.results.append((_row(dict(zip(names, cells, strict=True))), origin))
        except BridgeError as error:
            parsed.problems.append(LineProblem(source, number, str(error)))
    return parsed


def _is_board_column(cell: str) -> bool:
    return cell.strip().lower().replace(" ", "_") in ("board", "bd", "board_no")


def _header(cells: list[str]) -> list[str]:
    names = []
    for cell in cells:
        key = re.sub(r"[\s\-]+", "_", cell.strip().lower())
        key = _ALIASES.get(key.replace("_", ""), _ALIASES.get(key, key))
        if key not in _COLUMNS:
            raise RecordError(
                f"unknown column {cell!r} in the header: expected some of {', '.join(_COLUMNS)}"
            )
        names.append(key)
    for needed in ("board", "ns", "ew"):
        if needed not in names:
            raise RecordError(f"the header has no {needed!r} column")
    if "score" not in names and "contract" not in names:
        raise RecordError("the header needs a 'contract' or a 'score' column")
    return names


def parse_table_result(
    board: str, ns: str, ew: str, fields: Sequence[str], *, section: str = "", variant: str = ""
) -> TableResult:
    """One result read as a CSV traveller line reads it, from the fields after
    ``board,ns,ew``: one (``4SXN+1``, ``+620``, ``NS 620``, ``Pass``, ``A+``,
    ``60/40``), two (``4SN``, ``+1``) or three (``4S``, ``N``, ``=``).

    >>> str(parse_table_result("3", "1", "8", ["4S", "N", "10"]).result)
    '4SN='
    """
    names = _BY_COUNT.get(3 + len(fields))
    if names is None:
        raise RecordError(
            f"{' '.join(fields)!r} is not a result: expected one field (4SXN+1, +620, "
            "'NS 620', Pass, A+, 60/40), two (4SN +1) or three (4S N +1)"
        )
    row = dict(zip(names, [board, ns, ew, *(f.strip() for f in fields)], strict=True))
    return _row({**row, "section": section, "variant": variant})


def _whole(text: str) -> bool:
    """Whether int() reads ``text`` as a whole number of at most 9 digits: ASCII
    digits only (``str.isdigit()`` also accepts ``²``, which int() refuses) and
    never the thousands of digits int() refuses."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def _board_number(text: str) -> int:
    if not _whole(text) or int(text) < 1:
        raise RecordError(f"board {text!r} is not a board number: expected a whole number >= 1")
    return int(text)


def _row(row: dict[str, str]) -> TableResult:
    board = _board_number(row.get("board", ""))
    ns, ew = row.get("ns", ""), row.get("ew", "")
    where = (row.get("section", ""), row.get("variant", ""))
    contract = row.get("contract", "")
    score_text = row.get("score", "")
    if contract:
        return _played(
            board, ns, ew, contract, row.get("declarer", ""), row.get("result", ""), where
        )
    if score_text:
        return _scored(board, ns, ew, score_text, where)
    raise RecordError(f"board {board} {ns} v {ew}: no contract and no score")


def _played(
    board: int, ns: str, ew: str, contract: str, declarer: str, result: str, where: tuple[str, str]
) -> TableResult:
    if _PASSED.match(contract) or Adjusted.looks_like(contract):
        if declarer or result:
            raise RecordError(
                f"board {board}: {contract!r} takes no declarer or result, got "
                f"{declarer!r} and {result!r}"
            )
        return _scored(board, ns, ew, contract, where)
    text = f"{contract} {declarer}".strip()
    parsed: Result
    if _whole(result):
        tricks = int(result)
        if tricks == 0:
            raise RecordError(
                f"board {board}: result '0' is ambiguous (made exactly, or no tricks?): "
                "write '=' for made exactly or the tricks taken as '-k'"
            )
        parsed = parse_result(text, tricks=tricks)
    else:
        if not result:
            raise RecordError(
                f"board {board}: {text!r} has no result: expected =, +k, -k or tricks"
            )
        parsed = parse_result(f"{text}{result}")
    return TableResult(board, ns, ew, result=parsed, section=where[0], variant=where[1])


def _whole_result(text: str) -> Result | None:
    try:
        played = parse_result(text)
    except BridgeError:
        return None
    contract = played.contract
    return played if contract is not None and contract.declarer is not None else None


def _scored(board: int, ns: str, ew: str, text: str, where: tuple[str, str]) -> TableResult:
    if _PASSED.match(text):
        return TableResult(board, ns, ew, result=Result(None), section=where[0], variant=where[1])
    if Adjusted.looks_like(text) or "/" in text:
        return TableResult(
            board, ns, ew, adjusted=Adjusted.parse(text), section=where[0], variant=where[1]
        )
    match = _SCORE_RE.match(text)
    if match is None and text[:1].isdigit():
        # A whole result with its declarer in one field: "4SXN+1".
        played = _whole_result(text)
        if played is not None:
            return TableResult(board, ns, ew, result=played, section=where[0], variant=where[1])
    if match is None:
        raise RecordError(
            f"score {text!r} of board {board} is not a score: expected NS points such as "
            "+620 or -100 (or 'NS 620', 'EW 100', Pass, A+, A, A-, or a result with its "
            "declarer such as 4SXN+1)"
        )
    points = int(match["points"])
    negative = match["sign"] in ("-", "−")
    side = (match["side"] or "NS").upper().replace("-", "")
    if side == "EW":
        negative = not negative
    return TableResult(
        board, ns, ew, score=-points if negative else points, section=where[0], variant=where[1]
    )


# ---------------------------------------------------------------- PBN, JSON


def parse_pbn(lines: Iterable[str], source: str = "(input)") -> Parsed:
    """Read results and hand records from PBN games (see the module docstring)."""
    from bridgescore.session.record_import import parse_records

    return parse_records(read_pbn(lines, source), source)


def parse_records(records: Iterable[BoardRecord], source: str = "(input)") -> Parsed:
    """Results and hand records of board records (PBN or JSON, as
    :func:`bridgescore.formats.read_records` reads them): see
    :func:`bridgescore.session.record_import.parse_records`."""
    from bridgescore.session.record_import import parse_records as parse

    return parse(records, source)


# --------------------------------------------------------------------- files


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
    problems: list[LineProblem] = field(default_factory=list)
    disagreements: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.problems or self.results.conflicts or self.boards.conflicts)


def import_files(
    store: EventStore, paths: Iterable[str | Path], *, replace: bool = False
) -> ImportReport:
    """Import CSV, PBN, USEBIO and LIN vugraph files, each recognised by its content (LIN
    also by its ``.lin`` name); one transaction each.

    The event takes its name, when it has none, from the first file that names
    one: a PBN ``Event`` tag, a USEBIO ``EVENT_DESCRIPTION`` (or ``EVENT_NAME``), a
    vugraph ``vg`` header. A USEBIO file (XML) sets the event's kind and the
    scoring method the file names; an online teams PBN file (``HomeTeam``,
    ``VisitTeam`` and ``Table``, no ``Room``) makes the event a teams event; so
    does a BBO vugraph archive (LIN), whose two rooms are scored by IMPs. With
    ``replace``, a result that differs from the stored one replaces it (logged in
    the event's audit log) instead of being a conflict.
    """
    report = ImportReport()
    for path in paths:
        name = str(path)
        try:
            data = Path(path).read_bytes()
        except OSError as error:
            message = error.strerror or str(error)
            report.problems.append(LineProblem(name, 0, f"cannot read the file: {message}"))
            continue
        import_data(store, data, name, report, replace=replace)
    return report


def import_data(
    store: EventStore,
    data: bytes,
    name: str,
    report: ImportReport | None = None,
    *,
    replace: bool = False,
) -> ImportReport:
    """Import one file's bytes (``name`` as the problems name it and to tell a ``.pbn``
    or ``.lin`` file), picking the reader by content as :func:`import_files` does;
    add to ``report`` when given."""
    report = ImportReport() if report is None else report
    try:
        parsed, info = _parse_file(data, name, store, report)
    except UsebioError as error:
        report.problems.append(LineProblem(name, error.line, error.detail))
        return report
    except BridgeError as error:
        report.problems.append(LineProblem(name, 0, str(error)))
        return report
    report.files += 1
    if not (parsed.results or parsed.boards or parsed.problems):
        report.problems.append(LineProblem(name, 0, str(no_boards(name))))
    report.problems.extend(parsed.problems)
    report.disagreements.extend(str(check) for check in parsed.checks)
    report.notes.extend(parsed.notes)
    boards, results = store.add(
        parsed.boards, parsed.results, info=info, members=parsed.members, replace=replace
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
    from bridgescore.formats.usebio import looks_like_usebio

    check_input(data, name)
    if looks_like_usebio(data):
        from bridgescore.session.usebio_import import cross_check, read_usebio_event

        imported = read_usebio_event(data, name)
        report.notes.extend(imported.notes)
        report.disagreements.extend(f"{name}: {d}" for d in cross_check(imported))
        if imported.method:
            report.notes.append(
                f"{name}: a {imported.kind} event scored by {imported.method}, as the file says"
            )
        info = {"kind": imported.kind, "method": imported.method}
        info["name"] = None if store.name or not imported.name else imported.name
        return imported.parsed, info
    text = _text(data)
    kind = _format_of(name, text)
    # LIN is a vugraph archive (a teams match), unless it holds hand records alone
    # (as 'deal --boards --format lin' writes them), which are read as PBN's are.
    if kind == "lin" and not _hand_records_only(text, name):
        from bridgescore.session.vugraph import parse_vugraph

        match = parse_vugraph(text, name)
        report.notes.extend(match.describe(name))
        # A method the director chose stands; see VugraphMatch.settings.
        return match.parsed, match.settings(store)
    if kind == "csv" and not is_board_set(text):
        return parse_csv(text.splitlines(), name), {}
    from bridgescore.session.teams_pbn import records_are_online_teams, teams_from_records

    records = list(read_text(text, kind, name))
    if records_are_online_teams(records):
        online = teams_from_records(records, name)
        report.disagreements.extend(f"{name}:{d.line}: {d}" for d in online.disagreements)
        report.notes.append(f"{name}: an online teams file (HomeTeam sits NS at its Table)")
        named = None if store.name or not online.name else online.name
        return online.parsed, {"kind": "teams", "name": named}
    # The PBN Event tag (the first game's that names one; "?" is PBN's unknown).
    events = (r.event.strip() for r in records if r.event.strip() not in ("", "?", "#"))
    named = None if store.name else next(events, None)
    return parse_records(records, name), {"name": named} if named else {}


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


def _format_of(name: str, text: str) -> str:
    """``pbn``, ``lin``, ``json`` (by the name's extension, then the content) or ``csv``."""
    try:
        return detect_format(name, text)
    except NotationError:
        return "csv"
