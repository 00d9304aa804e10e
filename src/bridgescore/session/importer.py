"""Reading travellers and hand records: CSV traveller lines and PBN files.

CSV: one result a line, ``board,ns,ew,contract,declarer,result`` or
``board,ns,ew,score`` (also ``board,ns,ew,contract,result`` with the declarer
inside the contract, ``4SXN``, and ``board,ns,ew,4SXN+1``: the whole result in
the score field). An optional header line names the columns
(``board,ns,ew,contract,declarer,result,score,section,variant``) in any order.
``result`` is ``=``, ``+k``, ``-k`` or the number of tricks taken (1-13);
``score`` is the NS score (``+620``, ``-100``, ``NS 620``, ``EW 100``), ``Pass``,
or an artificial adjusted score (``A+``, ``A``, ``A-``, ``A+/A+``, ``60/40``).

PBN: each game with ``Contract``/``Declarer``/``Result`` (or ``Score``) and the
pair tags ``PairNS``/``PairEW`` (or ``HomeTeam``/``VisitTeam`` with ``Room``) is a
result; so is each row of a ``ScoreTable`` (columns ``PairId_NS``, ``PairId_EW``,
``Contract``, ``Declarer``, ``Result``, ``Score_NS``, ``Score_EW``, ``Section``);
each ``Deal`` is a hand record (with ``DoubleDummyTricks`` when given).

A bad line is a :class:`LineProblem` naming the file and line; the rest is read.

>>> parsed = parse_csv(["board,ns,ew,score", "1,1,2,+420", "1,3,4,oops"], "t.csv")
>>> [r.score for r, _ in parsed.results], [p.line for p in parsed.problems]
([420], [3])
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bridgescore.errors import BridgeError, RecordError
from bridgescore.formats.usebio import UsebioError
from bridgescore.notation import Result, parse_result
from bridgescore.pbn import TagPair
from bridgescore.session.event import Adjusted, Board, Member, TableResult
from bridgescore.session.store import AddReport, EventStore, Origin

__all__ = [
    "ImportReport",
    "LineProblem",
    "Parsed",
    "import_data",
    "import_files",
    "parse_csv",
    "parse_pbn",
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
    """What one file gave: results and hand records with their origins, and problems."""

    results: list[tuple[TableResult, Origin]] = field(default_factory=list)
    boards: list[tuple[Board, Origin]] = field(default_factory=list)
    problems: list[LineProblem] = field(default_factory=list)
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


# ------------------------------------------------------------------------ PBN


def parse_pbn(lines: Iterable[str], source: str = "(input)") -> Parsed:
    """Read results and hand records from PBN games (see the module docstring)."""
    from bridgescore.pbn import read_games

    parsed = Parsed()
    for game in read_games(lines):
        for problem in game.problems:
            parsed.problems.append(LineProblem(source, problem.line, problem.message))
        tags = game.tags
        line = game.line_of("Board")
        try:
            board = _board_number(tags.get("Board", "").strip())
        except RecordError as error:
            parsed.problems.append(LineProblem(source, line, str(error)))
            continue
        deal_text = tags.get("Deal", "").strip()
        if deal_text:
            try:
                parsed.boards.append((_hand_record(board, deal_text, tags), Origin(source, line)))
            except BridgeError as error:
                parsed.problems.append(LineProblem(source, game.line_of("Deal"), str(error)))
        table = game.section("ScoreTable")
        if table is not None:
            _score_table(board, table, source, parsed)
        if not any(tags.get(t, "").strip() for t in ("Contract", "Score", "Result")):
            continue  # a hand record only
        try:
            parsed.results.append((_pbn_result(board, tags), Origin(source, line)))
        except BridgeError as error:
            parsed.problems.append(LineProblem(source, game.line_of("Contract"), str(error)))
    return parsed


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


def _score_table(board: int, table: TagPair, source: str, parsed: Parsed) -> None:
    """The rows of a PBN ``ScoreTable`` (a traveller: one row per table)."""
    columns = [part.split("\\")[0].strip().lower() for part in table.value.split(";")]
    names = [_TABLE_COLUMNS.get(column, "") for column in columns]
    if "ns" not in names or "ew" not in names:
        parsed.problems.append(
            LineProblem(
                source,
                table.line,
                f"ScoreTable {table.value!r} has no PairId_NS and "
                "PairId_EW columns: its rows cannot be read as results",
            )
        )
        return
    for row in table.rows:
        line = row[0].line if row else table.line
        cells = [token.text.strip('"') for token in row]
        try:
            if len(cells) != len(columns):
                raise RecordError(
                    f"ScoreTable row {' '.join(cells)!r} has {len(cells)} entries: "
                    f"expected {len(columns)} ({table.value})"
                )
            values = {n: ("" if c == "-" else c) for n, c in zip(names, cells, strict=True) if n}
            parsed.results.append((_table_row(board, values), Origin(source, line)))
        except BridgeError as error:
            parsed.problems.append(LineProblem(source, line, str(error)))


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


def _hand_record(board: int, deal_text: str, tags: Mapping[str, str]) -> Board:
    from bridgescore.ddtable import DDTable
    from bridgescore.deal import Deal

    dd = tags.get("DoubleDummyTricks", "").strip()
    return Board(board, Deal.from_pbn(deal_text), DDTable.parse(dd) if dd else None)


def _pbn_pairs(board: int, tags: Mapping[str, str]) -> tuple[str, str]:
    ns, ew = tags.get("PairNS", "").strip(), tags.get("PairEW", "").strip()
    if ns and ew:
        return ns, ew
    home, visit = tags.get("HomeTeam", "").strip(), tags.get("VisitTeam", "").strip()
    room = tags.get("Room", "").strip().lower()
    if home and visit and room in ("open", "closed"):
        return (home, visit) if room == "open" else (visit, home)
    raise RecordError(
        f"board {board}: the game does not say who played it: expected PairNS and PairEW "
        "tags, or HomeTeam, VisitTeam and Room (Open/Closed)"
    )


def _pbn_result(board: int, tags: Mapping[str, str]) -> TableResult:
    ns, ew = _pbn_pairs(board, tags)
    where = (tags.get("Section", "").strip(), "")
    contract = tags.get("Contract", "").strip()
    if contract:
        declarer = tags.get("Declarer", "").strip().lstrip("^")
        result = tags.get("Result", "").strip().lstrip("^")
        if _PASSED.match(contract):
            return TableResult(
                board, ns, ew, result=Result(None), section=where[0], variant=where[1]
            )
        if not _whole(result):
            raise RecordError(
                f"board {board}: Result {result!r} is not a number of tricks 0-13 (PBN)"
            )
        parsed = parse_result(f"{contract} {declarer}".strip(), tricks=int(result))
        return TableResult(board, ns, ew, result=parsed, section=where[0], variant=where[1])
    return _scored(board, ns, ew, tags.get("Score", "").strip(), where)


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
    boards, results = store.add(parsed.boards, parsed.results, info=info, members=parsed.members)
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
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RecordError(
            f"cannot read the file: byte {data[error.start : error.start + 1]!r} at offset "
            f"{error.start} is not UTF-8: expected a UTF-8 text file"
        ) from None
    if name.lower().endswith(".lin") or _LIN_START.match(text):
        from bridgescore.session.vugraph import parse_vugraph

        match = parse_vugraph(text, name)
        report.notes.extend(match.describe(name))
        # A method the director chose stands; see VugraphMatch.settings.
        return match.parsed, match.settings(store)
    lines = text.splitlines()
    is_pbn = name.lower().endswith(".pbn") or text.lstrip().startswith(("%", "["))
    if not is_pbn:
        return parse_csv(lines, name), {}
    from bridgescore.session.teams_pbn import is_online_teams, parse_online_teams

    if is_online_teams(lines):
        online = parse_online_teams(lines, name)
        report.disagreements.extend(f"{name}:{d.line}: {d}" for d in online.disagreements)
        report.notes.append(f"{name}: an online teams file (HomeTeam sits NS at its Table)")
        named = None if store.name or not online.name else online.name
        return online.parsed, {"kind": "teams", "name": named}
    return parse_pbn(lines, name), {}
