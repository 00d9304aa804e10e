"""CSV traveller lines, and one result written as a traveller line writes it.

One result a line, ``board,ns,ew,contract,declarer,result`` or
``board,ns,ew,score`` (also ``board,ns,ew,contract,result`` with the declarer
inside the contract, ``4SXN``, and ``board,ns,ew,4SXN+1``: the whole result in
the score field). An optional header line names the columns
(``board,ns,ew,contract,declarer,result,score,section,variant``) in any order.
``result`` is ``=``, ``+k``, ``-k`` or the number of tricks taken (1-13);
``score`` is the NS score (``+620``, ``-100``, ``NS 620``, ``EW 100``), ``Pass``,
or an artificial adjusted score (``A+``, ``A``, ``A-``, ``A+/A+``, ``60/40``).

Table scorers name the table and round instead of the pairs: with a header holding
``table`` and ``round`` (``table,round,board,contract,declarer,result``), an event
made from a movement (``session new``) finds the pairs through it, as they played
(:func:`~bridgescore.session.live.seating.pairs_at`). A line the movement contradicts (a
board not played at that table in that round, other pairs than the movement seats
there) is a problem naming its line; the other lines are read.

Optional ``dealer`` (``N``, ``E``, ``S``, ``W``) and ``vulnerable`` (``None``, ``NS``,
``EW``, ``Both``) columns say how a board was dealt, when not as its number says
(Law 2); a blank cell follows the number. A line giving a board another dealer or
vulnerability than an earlier line gave it is a problem naming both lines.

The field readers (:func:`scored_result`, :func:`is_whole`) also
read the rows of a PBN ``ScoreTable`` (:mod:`bridgescore.session.importers.records`),
so a score means the same in both files. A bad line is a
:class:`~bridgescore.session.importers.parsed.Problem` naming the file and line; the
rest is read.

>>> parsed = parse_csv(["board,ns,ew,score", "1,1,2,+420", "1,3,4,oops"], "t.csv")
>>> [r.score for r, _ in parsed.results], [p.line for p in parsed.problems]
([420], [3])
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Mapping, Sequence

from bridgescore.board import Board
from bridgescore.core import Seat, Vulnerability
from bridgescore.errors import BridgeError, MovementError, RecordError
from bridgescore.movement.model import Movement
from bridgescore.notation import Result, means_passed_out, parse_result
from bridgescore.session.importers.parsed import BoardsStated, Parsed, line_problem
from bridgescore.session.live.seating import pairs_at
from bridgescore.session.scoring.event import Adjusted, TableResult
from bridgescore.session.store.events import Origin

__all__ = ["is_whole", "parse_csv", "parse_table_result", "scored_result"]

_COLUMNS = (
    "board",
    "ns",
    "ew",
    "contract",
    "declarer",
    "result",
    "score",
    "section",
    "variant",
    "table",
    "round",
    "dealer",
    "vulnerable",
)
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
    "tbl": "table",
    "table_no": "table",
    "rnd": "round",
    "round_no": "round",
    "dlr": "dealer",
    "vul": "vulnerable",
    "vulnerability": "vulnerable",
}
_BY_COUNT = {
    4: ("board", "ns", "ew", "score"),
    5: ("board", "ns", "ew", "contract", "result"),
    6: ("board", "ns", "ew", "contract", "declarer", "result"),
}
_SCORE_RE = re.compile(
    r"^\s*(?:(?P<side>NS|EW|N-S|E-W)\s*)?(?P<sign>[+\-−]?)\s*(?P<points>\d{1,9})\s*$", re.I
)


def parse_csv(
    lines: Iterable[str],
    source: str = "(input)",
    *,
    movement: Movement | None = None,
    movements: Mapping[str, Movement] | None = None,
) -> Parsed:
    """Read CSV traveller lines; blank lines and ``#`` comments are skipped.

    ``movement`` (the event's), or ``movements`` (each section's, by name), seats the
    lines that give a table and round; in an event of several sections each such line
    names its section (a ``section`` column) and is stored under it."""
    if movements is None:
        movements = {} if movement is None else {movement.section: movement}
    parsed = Parsed()
    stated = BoardsStated(source, parsed)
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
                line_problem(source, number, f"{line[:40]!r}... is too long to read: {error}")
            )
            continue
        first = not parsed.results and not parsed.problems
        if columns is None and first and any(_is_board_column(cell) for cell in cells):
            try:
                columns = _header(cells)
            except RecordError as error:
                parsed.problems.append(line_problem(source, number, str(error)))
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
            row = dict(zip(names, cells, strict=True))
            seated = "table" in row or "round" in row
            if seated:
                row = _seated(row, movements)
            result = _row(row)
            if movements and not seated:
                _check_meeting(_section_movement(movements, result.section), result)
            dealt = _dealt(result.board, row)
            if dealt is not None and not stated.add(dealt, number):
                continue
            parsed.results.append((result, origin))
        except BridgeError as error:
            parsed.problems.append(line_problem(source, number, str(error)))
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
    seated = "table" in names and "round" in names
    for needed in ("board",) if seated else ("board", "ns", "ew"):
        if needed not in names:
            raise RecordError(
                f"the header has no {needed!r} column"
                + ("" if needed == "board" else " (nor 'table' and 'round' to find the pairs by)")
            )
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


def is_whole(text: str) -> bool:
    """Whether int() reads ``text`` as a whole number of at most 9 digits: ASCII
    digits only (``str.isdigit()`` also accepts ``²``, which int() refuses) and
    never the thousands of digits int() refuses."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def _section_movement(movements: Mapping[str, Movement], section: str) -> Movement:
    """The movement of a line's section: the event's one movement, or (several
    sections) the one the line names."""
    if len(movements) == 1:
        return next(iter(movements.values()))
    if section not in movements:
        raise RecordError(
            f"section {section!r}: the event has {len(movements)} sections, "
            f"{', '.join(movements)}: a line names its section (a section column)"
        )
    return movements[section]


def _seated(row: dict[str, str], movements: Mapping[str, Movement]) -> dict[str, str]:
    """``row`` with the pairs the movement seats at its table and round, as they played;
    pairs the line also names must be those."""
    table, round_number = row.get("table", ""), row.get("round", "")
    if not movements:
        raise RecordError(
            f"table {table!r}, round {round_number!r}: the event has no movement to find the "
            "pairs by (make the event with 'bridgescore session new', or give ns and ew)"
        )
    for name, text in (("table", table), ("round", round_number)):
        if not is_whole(text) or int(text) < 1:
            raise RecordError(f"{name} {text!r} is not a {name} number: expected 1 or more")
    board = _board_number(row.get("board", ""))
    section = row.get("section", "")
    movement = _section_movement(movements, section)
    ns, ew = pairs_at(movement, int(table), int(round_number), board)
    if section and section != movement.section:
        raise RecordError(
            f"section {section!r} is not the movement's: expected {movement.section!r}"
        )
    named = (row.get("ns", ""), row.get("ew", ""))
    if any(named) and set(named) != {ns, ew}:
        raise RecordError(
            f"board {board}: the line names {named[0] or '?'} v {named[1] or '?'}, but the "
            f"movement seats {ns} v {ew} at table {table} in round {round_number}"
        )
    # One section: stored without its name, as a live session stores it.
    return {**row, "ns": ns, "ew": ew, "section": "" if len(movements) == 1 else section}


def _check_meeting(movement: Movement, result: TableResult) -> None:
    """A line naming its pairs, in an event with a movement: the movement must have them
    meet on that board."""
    pairs = {result.ns, result.ew}
    tables = [row for row in movement.rows if result.board in row.boards]
    if any(set(row.pairs) == pairs for row in tables):
        return
    played = "; ".join(
        f"{row.ns} v {row.ew} at table {row.table} in round {row.round}" for row in tables[:4]
    )
    raise MovementError(
        f"board {result.board}: {result.ns} v {result.ew} do not play it in the event's "
        "movement: "
        + (
            f"it is played by {played}" + ("; ..." if len(tables) > 4 else "")
            if tables
            else "no table plays it"
        )
    )


def _dealt(board: int, row: dict[str, str]) -> Board | None:
    """The board as the line's ``dealer`` and ``vulnerable`` cells deal it (``None``:
    the line says nothing of it; the board follows its number)."""
    dealer, vulnerable = row.get("dealer", ""), row.get("vulnerable", "")
    if not dealer and not vulnerable:
        return None
    return Board(
        board,
        dealer_seat=Seat.parse(dealer) if dealer else None,
        vulnerable=Vulnerability.parse(vulnerable) if vulnerable else None,
    )


def _board_number(text: str) -> int:
    if not is_whole(text) or int(text) < 1:
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
        return scored_result(board, ns, ew, score_text, where)
    raise RecordError(f"board {board} {ns} v {ew}: no contract and no score")


def _played(
    board: int, ns: str, ew: str, contract: str, declarer: str, result: str, where: tuple[str, str]
) -> TableResult:
    if means_passed_out(contract) or Adjusted.looks_like(contract):
        if declarer or result:
            raise RecordError(
                f"board {board}: {contract!r} takes no declarer or result, got "
                f"{declarer!r} and {result!r}"
            )
        return scored_result(board, ns, ew, contract, where)
    text = f"{contract} {declarer}".strip()
    parsed: Result
    if is_whole(result):
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


def scored_result(board: int, ns: str, ew: str, text: str, where: tuple[str, str]) -> TableResult:
    """The result a score field states: NS points (``+620``, ``NS 620``, ``EW 100``),
    ``Pass``, an artificial adjusted score (``A+``, ``60/40``) or a whole result with its
    declarer (``4SXN+1``); ``where`` is the result's (section, variant).

    >>> scored_result(1, "3", "8", "EW 100", ("", "")).score
    -100
    """
    if means_passed_out(text):
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
            "+620 or -100 (or 'NS 620', 'EW 100', Pass, an adjusted score A+, A, A-, "
            "A+/A+, 60/40, 50/50, 40/60, or a result with its declarer such as 4SXN+1; "
            "a board not played has no line)"
        )
    points = int(match["points"])
    negative = match["sign"] in ("-", "−")
    side = (match["side"] or "NS").upper().replace("-", "")
    if side == "EW":
        negative = not negative
    return TableResult(
        board, ns, ew, score=-points if negative else points, section=where[0], variant=where[1]
    )
