"""Results and hand records of board records: session import of PBN and JSON files.

A file is read by :func:`bridgescore.formats.read_records` into board records (the
one reading of the tags that ``game``, ``par``, ``solve``, ``convert`` and the web
page share); this module turns each record into what an event holds: the table's
result, scored as ``bridgescore game`` scores it, with the pairs the record names
(``PairNS``/``PairEW``, or ``HomeTeam``/``VisitTeam`` with a room), the rows of its
traveller (PBN ``ScoreTable``, its scores read as a CSV traveller's are) and its
deal as the board's hand record. See :mod:`bridgescore.session.importers.importer` for the
rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from bridgescore.ddtable import DDTable
from bridgescore.errors import BridgeError, RecordError
from bridgescore.formats import check_record
from bridgescore.formats.pbn import read_pbn
from bridgescore.formats.record import BoardRecord, Traveller
from bridgescore.notation import Result, means_passed_out, parse_result
from bridgescore.session.importers.csv import is_whole, scored_result
from bridgescore.session.importers.parsed import BoardsStated, Parsed, line_problem
from bridgescore.session.scoring.event import TableResult
from bridgescore.session.store.events import Origin

__all__ = ["add_hand_record", "parse_pbn", "parse_records", "reading_problems", "table_result"]


def parse_records(records: Iterable[BoardRecord], source: str = "(input)") -> Parsed:
    """Results and hand records of board records, as :func:`bridgescore.formats.read_records`
    reads them from PBN or JSON (see the module docstring): each tag is read once, by
    the record, exactly as ``bridgescore game`` reads it."""
    parsed = Parsed()
    stated = BoardsStated(source, parsed)
    for record in records:
        errors = reading_problems(record, source, parsed)
        board = record.board
        if board is None:
            if not errors:
                parsed.problems.append(
                    line_problem(
                        source, record.source.line, "no board number: expected a Board tag"
                    )
                )
            continue
        if not add_hand_record(record, board, source, parsed, stated):
            continue
        if record.traveller is not None:
            line = record.source.line_of("ScoreTable")
            _score_table(board, record.traveller, line, source, parsed)
        if not _states_a_result(record):
            continue  # a hand record only
        try:
            ns, ew = _record_pairs(board, record)
        except RecordError as error:
            line = record.source.line_of("Contract")
            parsed.problems.append(line_problem(source, line, str(error)))
            continue
        result = table_result(record, board, (ns, ew), source, parsed, errors=errors)
        if result is not None:
            parsed.results.append((result, Origin(source, record.source.line_of("Board"))))
    return parsed


def parse_pbn(lines: Iterable[str], source: str = "(input)") -> Parsed:
    """Results and hand records of PBN games (:func:`parse_records` of the games)."""
    return parse_records(read_pbn(lines, source), source)


def reading_problems(record: BoardRecord, source: str, parsed: Parsed) -> bool:
    """Add what the reader found wrong in ``record`` to ``parsed`` (its notices to the
    notes); whether there was anything wrong."""
    errors = False
    for problem in record.problems:
        line = problem.line or record.source.line
        if problem.notice:
            parsed.notes.append(f"{source}:{line}: {problem.message}")
        else:
            parsed.problems.append(line_problem(source, line, problem.message))
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
            return scored_result(board, ns, ew, score.strip(), (section, ""))
        except BridgeError as error:
            parsed.problems.append(line_problem(source, record.source.line_of("Score"), str(error)))
            return None
    checked = check_record(_to_check(record, check_score))
    found = [problem for problem in checked.problems if problem not in record.problems]
    said = [line_problem(source, p.line or line, f"board {board}: {p.message}") for p in found]
    if checked.played is None:
        if not errors:
            parsed.problems.extend(
                said or [line_problem(source, line, f"board {board}: no result")]
            )
        return None
    try:
        result = TableResult(board, ns, ew, result=checked.played.result, section=section)
    except BridgeError as error:  # the pairs themselves: one pair at both NS and EW
        parsed.problems.append(line_problem(source, record.source.line_of("PairNS"), str(error)))
        return None
    parsed.checks.extend(said)
    return result


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
    record: BoardRecord, board: int, source: str, parsed: Parsed, stated: BoardsStated
) -> bool:
    """Add what the record states of its board: the deal (with its DoubleDummyTricks),
    the dealer and the vulnerability, each when the file gives it (else the board
    follows its number). False, with a problem naming both lines, when the record
    deals the board otherwise than an earlier record of the file did."""
    if record.deal is None and record.dealer_seat is None and record.vulnerable is None:
        return True  # the record states nothing of the board itself
    table = None
    try:
        table = _dd_table(record)
    except BridgeError as error:
        line = record.source.line_of("DoubleDummyTricks")
        parsed.problems.append(line_problem(source, line, f"DoubleDummyTricks: {error}"))
    if record.deal is None:
        table = None  # a table without its deal is not a hand record
    hand = record.as_board(board, table)
    where = record.source
    return stated.add(
        hand,
        where.line_of("Board"),
        dealer_line=where.line_of("Dealer"),
        vulnerable_line=where.line_of("Vulnerable"),
    )


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
            line_problem(
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
            parsed.problems.append(line_problem(source, row.line, str(error)))


def _table_row(board: int, values: dict[str, str]) -> TableResult:
    ns, ew = values.get("ns", ""), values.get("ew", "")
    where = (values.get("section", ""), "")
    contract = values.get("contract", "")
    result = values.get("result", "")
    if contract and not means_passed_out(contract):
        if not is_whole(result):
            raise RecordError(f"board {board}: Result {result!r} is not a number of tricks 0-13")
        played = parse_result(
            f"{contract} {values.get('declarer', '')}".strip(), tricks=int(result)
        )
        return TableResult(board, ns, ew, result=played, section=where[0])
    if contract:
        return TableResult(board, ns, ew, result=Result(None), section=where[0])
    if values.get("score_ns"):
        return scored_result(board, ns, ew, values["score_ns"], where)
    if values.get("score_ew"):
        return scored_result(board, ns, ew, f"EW {values['score_ew'].lstrip('+')}", where)
    raise RecordError(f"board {board} {ns} v {ew}: the ScoreTable row has no contract and no score")
