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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bridgescore.ddtable import DDTable
from bridgescore.errors import BridgeError, NotationError, RecordError
from bridgescore.formats import check_record, decode_text, detect_format, read_text
from bridgescore.formats.pbnrecord import read_pbn
from bridgescore.formats.record import BoardRecord, Traveller
from bridgescore.formats.usebio import UsebioError
from bridgescore.notation import Result, parse_result
from bridgescore.session.event import Adjusted, Board, TableResult
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
# A LIN file starts with a two-letter tag and a bar (vg|, qx|, pn|, md|...): no CSV does.
_LIN_START = re.compile(r"\s*[A-Za-z]{2}\|")
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
    return parse_records(read_pbn(lines, source), source)


def parse_records(records: Iterable[BoardRecord], source: str = "(input)") -> Parsed:
    """Results and hand records of board records, as :func:`bridgescore.formats.read_records`
    reads them from PBN or JSON (see the module docstring): each tag is read once, by
    the record, exactly as ``bridgescore game`` reads it."""
    parsed = Parsed()
    hands: dict[int, Board] = {}
    for record in records:
        errors = reading_problems(record, source, parsed)
        board = record.board
        if board is None:
            if not errors:
                parsed.problems.append(
                    LineProblem(source, record.source.line, "no board number: expected a Board tag")
                )
            continue
        add_hand_record(record, board, source, parsed, hands)
        if record.traveller is not None:
            line = record.source.line_of("ScoreTable")
            _score_table(board, record.traveller, line, source, parsed)
        if not _states_a_result(record):
            continue  # a hand record only
        try:
            ns, ew = _record_pairs(board, record)
        except RecordError as error:
            line = record.source.line_of("Contract")
            parsed.problems.append(LineProblem(source, line, str(error)))
            continue
        result = table_result(record, board, (ns, ew), source, parsed, errors=errors)
        if result is not None:
            parsed.results.append((result, Origin(source, record.source.line_of("Board"))))
    return parsed


def reading_problems(record: BoardRecord, source: str, parsed: Parsed) -> bool:
    """Add what the reader found wrong in ``record`` to ``parsed`` (its notices to the
    notes); whether there was anything wrong."""
    errors = False
    for problem in record.problems:
        line = problem.line or record.source.line
        if problem.notice:
            parsed.notes.append(f"{source}:{line}: {problem.message}")
        else:
            parsed.problems.append(LineProblem(source, line, problem.message))
            errors = True
    return errors


def _states_a_result(record: BoardRecord) -> bool:
    """Whether the record gives a table's result (else it is a hand record only): a
    contract, a result or a score; or an auction played by named pairs."""
    if record.contract is not None or record.passed_out or record.result is not None:
        return True
    if record.score_tag("Score") is not None:
        return True
    return bool(record.auction) and _who_played(record) is not None


def _who_played(record: BoardRecord) -> tuple[str, str] | None:
    ns, ew = (record.note("PairNS") or "").strip(), (record.note("PairEW") or "").strip()
    if ns and ew:
        return ns, ew
    home, visit = record.home_team, record.visit_team
    if home and visit and record.room is not None:
        return (home, visit) if record.room == "open" else (visit, home)
    return None


def _record_pairs(board: int, record: BoardRecord) -> tuple[str, str]:
    pairs = _who_played(record)
    if pairs is None:
        raise RecordError(
            f"board {board}: the game does not say who played it: expected PairNS and PairEW "
            "tags, or HomeTeam, VisitTeam and Room (Open/Closed)"
        )
    return pairs


def table_result(
    record: BoardRecord,
    board: int,
    pairs: tuple[str, str],
    source: str,
    parsed: Parsed,
    *,
    errors: bool,
    check_score: bool = True,
) -> TableResult | None:
    """The result ``record`` states for ``pairs`` (NS, EW), scored as ``bridgescore game``
    scores it (:func:`~bridgescore.formats.check_record`: the contract from a complete
    auction, the tricks from a complete play, else the Contract, Declarer and Result
    tags), or the file's Score alone when it gives nothing else.

    Where the file contradicts itself (the auction and the Contract tag, the play and
    the Result, the Score and ours) the result is kept and the disagreement goes to
    ``parsed.checks`` (``check_score=False`` leaves the Score to the caller). A record
    that cannot be scored is a problem, unless ``errors`` says it was reported already.
    """
    ns, ew = pairs
    section = (record.note("Section") or "").strip()
    line = record.source.line_of("Contract")
    unplayed = record.contract is None and not record.passed_out and record.result is None
    score = record.score_tag("Score")
    if unplayed and not record.auction and record.play is None and score is not None:
        if errors:
            return None
        try:
            return _scored(board, ns, ew, score.strip(), (section, ""))
        except BridgeError as error:
            parsed.problems.append(LineProblem(source, record.source.line_of("Score"), str(error)))
            return None
    checked = check_record(_to_check(record, check_score))
    found = [problem for problem in checked.problems if problem not in record.problems]
    said = [LineProblem(source, p.line or line, f"board {board}: {p.message}") for p in found]
    if checked.played is None:
        if not errors:
            parsed.problems.extend(said or [LineProblem(source, line, f"board {board}: no result")])
        return None
    parsed.checks.extend(said)
    return TableResult(board, ns, ew, result=checked.played.result, section=section)


def _to_check(record: BoardRecord, check_score: bool) -> BoardRecord:
    """The record as :func:`check_record` should see it: without its Score when the
    caller checks it, and without a DoubleDummyTricks tag already reported as bad."""
    changes: dict[str, Any] = {}
    if not check_score and record.scores:
        changes["scores"] = ()
    if record.dd_tricks:
        try:
            _dd_table(record)
        except BridgeError:
            changes["dd_tricks"] = ""
    return replace(record, **changes) if changes else record


def _dd_table(record: BoardRecord) -> DDTable | None:
    return DDTable.parse(record.dd_tricks) if record.dd_tricks else None


def add_hand_record(
    record: BoardRecord, board: int, source: str, parsed: Parsed, added: dict[int, Board]
) -> None:
    """Add the record's deal (with its DoubleDummyTricks) as the board's hand record,
    unless this file gave the same already (every table of a board carries its deal)."""
    if record.deal is None:
        return
    try:
        hand = Board(board, record.deal, _dd_table(record))
    except BridgeError as error:
        line = record.source.line_of("DoubleDummyTricks")
        parsed.problems.append(LineProblem(source, line, f"DoubleDummyTricks: {error}"))
        hand = Board(board, record.deal)
    before = added.get(board)
    if before is not None and before.deal == hand.deal and hand.dd_table in (None, before.dd_table):
        return
    added[board] = hand
    parsed.boards.append((hand, Origin(source, record.source.line_of("Board"))))


_TABLE_COLUMNS = {
    "pairid_ns": "ns",
    "pairid_ew": "ew",
    "contract": "contract",
    "declarer": "declarer",
    "result": "result",
    "score_ns": "score_ns",
    "score_ew": "score_ew",
    "section": "section",
}


def _score_table(board: int, table: Traveller, line: int, source: str, parsed: Parsed) -> None:
    """The rows of a traveller (PBN ``ScoreTable``: one row per table) on ``line``."""
    names = [_TABLE_COLUMNS.get(column.lower(), "") for column in table.columns]
    if "ns" not in names or "ew" not in names:
        parsed.problems.append(
            LineProblem(
                source,
                line,
                f"ScoreTable {table.header!r} has no PairId_NS and "
                "PairId_EW columns: its rows cannot be read as results",
            )
        )
        return
    for row in table.rows:
        cells = row.cells
        try:
            if len(cells) != len(names):
                written = " ".join(cell or "-" for cell in cells)
                raise RecordError(
                    f"ScoreTable row {written!r} has {len(cells)} entries: "
                    f"expected {len(names)} ({table.header})"
                )
            values = {name: cell for name, cell in zip(names, cells, strict=True) if name}
            parsed.results.append((_table_row(board, values), Origin(source, row.line)))
        except BridgeError as error:
            parsed.problems.append(LineProblem(source, row.line, str(error)))


def _table_row(board: int, values: dict[str, str]) -> TableResult:
    ns, ew = values.get("ns", ""), values.get("ew", "")
    where = (values.get("section", ""), "")
    contract = values.get("contract", "")
    result = values.get("result", "")
    if contract and not _PASSED.match(contract):
        if not _whole(result):
            raise RecordError(f"board {board}: Result {result!r} is not a number of tricks 0-13")
        played = parse_result(
            f"{contract} {values.get('declarer', '')}".strip(), tricks=int(result)
        )
        return TableResult(board, ns, ew, result=played, section=where[0])
    if contract:
        return TableResult(board, ns, ew, result=Result(None), section=where[0])
    if values.get("score_ns"):
        return _scored(board, ns, ew, values["score_ns"], where)
    if values.get("score_ew"):
        return _scored(board, ns, ew, f"EW {values['score_ew'].lstrip('+')}", where)
    raise RecordError(f"board {board} {ns} v {ew}: the ScoreTable row has no contract and no score")


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


def import_files(store: EventStore, paths: Iterable[str | Path]) -> ImportReport:
    """Import CSV, PBN, USEBIO and LIN vugraph files, each recognised by its content (LIN
    also by its ``.lin`` name); one transaction each.

    A USEBIO file (XML) sets the event's name (when it has none), its kind and
    the scoring method the file names; an online teams PBN file (``HomeTeam``,
    ``VisitTeam`` and ``Table``, no ``Room``) makes the event a teams event; so does a
    BBO vugraph archive (LIN), whose two rooms are scored by IMPs.
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
        import_data(store, data, name, report)
    return report


def import_data(
    store: EventStore, data: bytes, name: str, report: ImportReport | None = None
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
    report.problems.extend(parsed.problems)
    report.disagreements.extend(str(check) for check in parsed.checks)
    report.notes.extend(parsed.notes)
    boards, results = store.add(parsed.boards, parsed.results, info=info)
    report.boards.merge(boards)
    report.results.merge(results)
    return report


def _parse_file(
    data: bytes, name: str, store: EventStore, report: ImportReport
) -> tuple[Parsed, dict[str, str | None]]:
    """Pick the reader by content; return what it read and the event settings it implies."""
    from bridgescore.formats.usebio import looks_like_usebio

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
    if kind == "lin":
        from bridgescore.session.vugraph import parse_vugraph

        match = parse_vugraph(text, name)
        report.notes.append(
            f"{name}: a vugraph archive: a teams match scored by IMPs (the vg header's "
            "first team sits NS in the open room)"
        )
        named = None if store.name or not match.name else match.name
        method = None if store.method else "imps"  # a method the director chose stands
        return match.parsed, {"kind": "teams", "method": method, "name": named}
    if kind == "csv":
        return parse_csv(text.splitlines(), name), {}
    from bridgescore.session.teams_pbn import records_are_online_teams, teams_from_records

    records = list(read_text(text, kind, name))
    if records_are_online_teams(records):
        online = teams_from_records(records, name)
        report.disagreements.extend(f"{name}:{d.line}: {d}" for d in online.disagreements)
        report.notes.append(f"{name}: an online teams file (HomeTeam sits NS at its Table)")
        named = None if store.name or not online.name else online.name
        return online.parsed, {"kind": "teams", "name": named}
    return parse_records(records, name), {}


def _text(data: bytes) -> str:
    """The file's text, decoded as every format reader decodes it (UTF-8, else
    Windows-1252, else Latin-1). A UTF-16 file (by its byte order mark, or the NUL byte
    beside every ASCII character) or a binary one is refused: read as text it would
    give one confusing error per line."""
    start = data[:4096]
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or start.count(0) * 8 > len(start):
        offset = 0 if start.startswith((b"\xff", b"\xfe")) else data.find(b"\x00")
        raise RecordError(
            f"cannot read the file: byte {data[offset : offset + 1]!r} at offset {offset} "
            "is not UTF-8, Windows-1252 or Latin-1 text (a UTF-16 or binary file?): "
            "expected a text file"
        )
    return decode_text(data)


def _format_of(name: str, text: str) -> str:
    """``pbn``, ``lin``, ``json`` (by the name's extension, then the content) or ``csv``."""
    try:
        return detect_format(name, text)
    except NotationError:
        return "csv"
