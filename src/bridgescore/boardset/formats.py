"""A board set as text: PBN, LIN (BBO upload form), CSV and JSON, both ways.

Writers are strict; readers go on past a bad board and report every problem
with its line number (:class:`BoardProblem`).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from bridgescore.boardset.board import Board, par_contract_text, par_score_text
from bridgescore.core import Seat, Vulnerability
from bridgescore.ddtable import DDTable
from bridgescore.deal import RANK_CHARS, SUITS, Deal, Hand
from bridgescore.errors import BridgeError
from bridgescore.formats import BoardRecord, read_records
from bridgescore.formats.pbn import decode_line
from bridgescore.formats.usebio import UsebioError, looks_like_usebio, read_usebio
from bridgescore.formats.usebio_xml import decode as usebio_decode

__all__ = [
    "FORMATS",
    "BoardProblem",
    "BoardSetFormat",
    "ReadableFormat",
    "board_file_text",
    "format_boards",
    "guess_format",
    "read_boards",
]

BoardSetFormat = Literal["pbn", "lin", "csv", "json"]
FORMATS: tuple[BoardSetFormat, ...] = ("pbn", "lin", "csv", "json")
ReadableFormat = Literal["pbn", "lin", "csv", "json", "usebio"]
"""What a board set is read from: every format it is written in, and USEBIO hand sets."""

# LIN numbers seats from South: md's leading digit is the dealer, hands go S, W, N, E.
_LIN_SEATS = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)
_LIN_VULNERABILITY = {
    Vulnerability.NONE: "o",
    Vulnerability.NS: "n",
    Vulnerability.EW: "e",
    Vulnerability.BOTH: "b",
}
_CSV_COLUMNS = ("board", "dealer", "vulnerable", "deal")
_CSV_ANALYSIS = ("dd", "par_score", "par_contracts")


@dataclass(frozen=True, slots=True)
class BoardProblem:
    """A board that could not be read, with its 1-based line."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


# -- writers -------------------------------------------------------------------


def _pbn_game(board: Board, event: str | None) -> str:
    tags = []
    if event:
        tags.append(f'[Event "{event}"]')
    tags += [
        f'[Board "{board.number}"]',
        f'[Dealer "{board.dealer.letter}"]',
        f'[Vulnerable "{board.vulnerability.to_pbn()}"]',
        f'[Deal "{board.deal.to_pbn(board.dealer)}"]',
    ]
    if board.table is not None:
        tags.append(f'[DoubleDummyTricks "{board.table}"]')
    if board.par is not None:
        tags.append(f'[OptimumScore "{par_score_text(board.par)}"]')
        tags.append(f'[ParContract "{par_contract_text(board.par)}"]')
    if board.table is not None:
        tags.append(board.table.to_optimum_result_table())
    return "\n".join(tags)


def _lin_hand(hand: Hand) -> str:
    return "".join(
        suit.letter + "".join(RANK_CHARS[rank - 2] for rank in hand.suit(suit)) for suit in SUITS
    )


def _lin_line(board: Board) -> str:
    dealer = _LIN_SEATS.index(board.dealer) + 1
    hands = ",".join(_lin_hand(board.deal[seat]) for seat in _LIN_SEATS)
    vulnerable = _LIN_VULNERABILITY[board.vulnerability]
    return f"qx|o{board.number}|md|{dealer}{hands}|rh||ah|Board {board.number}|sv|{vulnerable}|pg||"


def _json_board(board: Board) -> dict[str, Any]:
    record: dict[str, Any] = {
        "board": board.number,
        "dealer": board.dealer.letter,
        "vulnerable": board.vulnerability.to_pbn(),
        "deal": board.deal.to_pbn(),
        "hcp": {seat.letter: board.deal[seat].hcp for seat in Seat},
    }
    if board.table is not None:
        record["dd"] = str(board.table)
        record["tricks"] = board.table.as_dict()
    if board.par is not None:
        record["par"] = board.par.as_dict()
    return record


def format_boards(boards: Sequence[Board], fmt: BoardSetFormat, *, event: str | None = None) -> str:
    """The whole set in ``fmt`` (``pbn``, ``lin``, ``csv`` or ``json``), ending with a newline."""
    if fmt == "pbn":
        games = [_pbn_game(board, event) for board in boards]
        return "% PBN 2.1\n% EXPORT\n\n" + "\n\n".join(games) + "\n"
    if fmt == "lin":
        return "".join(_lin_line(board) + "\n" for board in boards)
    if fmt == "csv":
        out = io.StringIO()
        analysed = any(board.table is not None for board in boards)
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(_CSV_COLUMNS + (_CSV_ANALYSIS if analysed else ()))
        for board in boards:
            row = [
                str(board.number),
                board.dealer.letter,
                board.vulnerability.to_pbn(),
                board.deal.to_pbn(),
            ]
            if analysed:
                row += [
                    str(board.table) if board.table is not None else "",
                    str(board.par.score) if board.par is not None else "",
                    par_contract_text(board.par) if board.par is not None else "",
                ]
            writer.writerow(row)
        return out.getvalue()
    if fmt == "json":
        data: dict[str, Any] = {"boards": [_json_board(board) for board in boards]}
        if event:
            data = {"event": event, **data}
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    raise BridgeError(f"unknown board-set format {fmt!r}: expected one of {', '.join(FORMATS)}")


# -- readers -------------------------------------------------------------------


def guess_format(name: str, text: str) -> ReadableFormat:
    """The format by file name (``.pbn``, ``.lin``, ``.csv``, ``.json``, ``.xml`` for
    USEBIO), else by content."""
    lowered = name.lower()
    for fmt in FORMATS:
        if lowered.endswith("." + fmt):
            return fmt
    if lowered.endswith(".xml") or looks_like_usebio(text):
        return "usebio"
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if first.startswith("{"):
        return "json"
    if first.startswith("%") or first.startswith("["):
        return "pbn"
    if "|md|" in text or first.startswith(("qx|", "md|")):
        return "lin"
    if first.lower().startswith("board,"):
        return "csv"
    raise BridgeError(
        f"cannot tell the format of {name!r}: expected a .pbn, .lin, .csv, .json "
        "or USEBIO .xml file"
    )


def _records(text: str, fmt: str) -> Iterator[BoardRecord]:
    # One reading of PBN tags and LIN words for the whole project: formats/ reads
    # them, a board set only keeps the deal, its number, dealer, vulnerability and DD.
    return read_records(text=text, format=fmt)


def _dd_table(record: BoardRecord) -> tuple[str, DDTable | None]:
    """The record's DD table, from DoubleDummyTricks else an OptimumResultTable kept
    as a note (its value, then its rows, one a line); with the tag to blame."""
    if record.dd_tricks:
        return "DoubleDummyTricks", DDTable.parse(record.dd_tricks)
    kept = record.note("OptimumResultTable")
    if kept is None:
        return "DoubleDummyTricks", None
    value, *rows = kept.split("\n")
    return "OptimumResultTable", DDTable.from_optimum_result_table(
        [f'[OptimumResultTable "{value}"]', *rows]
    )


def _boards_of_records(
    records: Iterable[BoardRecord], fmt: str
) -> tuple[list[Board], list[BoardProblem]]:
    boards: list[Board] = []
    problems: list[BoardProblem] = []
    previous: tuple[int | None, Deal | None] | None = None
    for record in records:
        errors = [problem for problem in record.problems if not problem.notice]
        line = record.source.line
        if errors:
            problems.extend(BoardProblem(p.line or line, p.message) for p in errors)
        if record.deal is None:
            # A game without a deal (results only) is no board; one whose deal could
            # not be read has its problem above.
            continue
        if (record.board, record.deal) == previous:
            continue  # another table of the same board (PBN's second room)
        previous = (record.board, record.deal)
        number = record.board
        if number is None:
            if fmt != "lin":
                if not errors:
                    problems.append(
                        BoardProblem(line, "no Board tag: expected a whole number >= 1")
                    )
                continue
            number = len(boards) + 1  # LIN hand records may name no board: count them
        if errors and fmt == "lin":
            continue
        tag = "DoubleDummyTricks"
        try:
            tag, table = _dd_table(record)
            boards.append(
                Board(number, record.deal, table, None, record.dealer, record.vulnerability)
            )
        except BridgeError as error:
            problems.append(BoardProblem(record.source.line_of(tag), f"{tag} tag: {error}"))
    return boards, problems


def _read_pbn(text: str) -> tuple[list[Board], list[BoardProblem]]:
    return _boards_of_records(_records(text, "pbn"), "pbn")


def _board_number(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise BridgeError(f"board number {text!r} is not valid: expected a whole number >= 1")
    return int(text)


def _read_lin(text: str) -> tuple[list[Board], list[BoardProblem]]:
    return _boards_of_records(_records(text, "lin"), "lin")


def _read_csv(text: str) -> tuple[list[Board], list[BoardProblem]]:
    boards: list[Board] = []
    problems: list[BoardProblem] = []
    reader = csv.DictReader(io.StringIO(text))
    missing = [name for name in _CSV_COLUMNS if name not in (reader.fieldnames or [])]
    if missing:
        return [], [
            BoardProblem(
                1, f"the header lacks {', '.join(missing)}: expected {','.join(_CSV_COLUMNS)}"
            )
        ]
    for row in reader:
        line = reader.line_num
        try:
            table = DDTable.parse(row["dd"]) if row.get("dd") else None
            boards.append(
                Board(
                    _board_number(row["board"] or ""),
                    Deal.from_pbn(row["deal"] or ""),
                    table,
                    None,
                    Seat.parse(row["dealer"] or "?"),
                    Vulnerability.from_pbn(row["vulnerable"] or "?"),
                )
            )
        except BridgeError as error:
            problems.append(BoardProblem(line, str(error)))
    return boards, problems


def _read_json(text: str) -> tuple[list[Board], list[BoardProblem]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        return [], [BoardProblem(error.lineno, f"not JSON: {error.msg}")]
    except (ValueError, RecursionError) as error:  # a 5,000-digit number; "[[[[..."
        return [], [BoardProblem(1, f"not JSON: {str(error) or type(error).__name__}")]
    if isinstance(data, list):
        # formats/ JSON (a list of board records, as `bridgescore convert` writes).
        return _boards_of_records(_records(text, "json"), "json")
    records = data.get("boards") if isinstance(data, dict) else None
    if not isinstance(records, list):
        return [], [
            BoardProblem(1, 'expected an object with a "boards" list, or a list of records')
        ]
    boards: list[Board] = []
    problems: list[BoardProblem] = []
    for position, record in enumerate(records, start=1):
        try:
            if not isinstance(record, dict):
                raise BridgeError(f"board entry {record!r} is not an object")
            boards.append(
                Board(
                    _board_number(str(record.get("board", ""))),
                    Deal.from_pbn(str(record.get("deal", ""))),
                    DDTable.parse(record["dd"]) if record.get("dd") else None,
                    None,
                    Seat.parse(str(record["dealer"])) if record.get("dealer") else None,
                    Vulnerability.from_pbn(str(record["vulnerable"]))
                    if record.get("vulnerable")
                    else None,
                )
            )
        except BridgeError as error:
            # JSON has no line per board: report the entry's position instead.
            problems.append(BoardProblem(position, f"board entry {position}: {error}"))
    return boards, problems


def _read_usebio(text: str) -> tuple[list[Board], list[BoardProblem]]:
    # A USEBIO results file's HANDSET: the deals the scorer had, by board number.
    try:
        found = read_usebio(text, "USEBIO file")
    except UsebioError as error:
        return [], [BoardProblem(error.line, error.detail)]
    # Only the hand records' problems: a bad traveller line or participant loses no deal.
    problems = [
        BoardProblem(problem.line, problem.message)
        for problem in found.problems
        if "hand" in problem.message.lower()
    ]
    boards: list[Board] = []
    for hand in found.hands:
        try:
            boards.append(Board(hand.board, Deal.from_pbn(hand.deal)))
        except BridgeError as error:
            problems.append(BoardProblem(hand.line, f"board {hand.board}: {error}"))
    if not boards and not problems:
        problems.append(BoardProblem(0, "the USEBIO file has no HANDSET: no deals to read"))
    return boards, problems


def board_file_text(data: bytes) -> str:
    """A board file's bytes as text, as formats/ reads them: a USEBIO file by its XML
    declaration, any other line by line (UTF-8, else Windows-1252, else Latin-1,
    a byte order mark dropped), so files of older programs read without an error."""
    if looks_like_usebio(data):
        try:
            return usebio_decode(data, "USEBIO file")
        except UsebioError:
            pass  # the reader says what is wrong with it
    data = data.removeprefix(b"\xef\xbb\xbf")
    return "".join(decode_line(line) for line in data.splitlines(keepends=True))


def read_boards(text: str, fmt: ReadableFormat) -> tuple[list[Board], list[BoardProblem]]:
    """The boards of a set in ``fmt``, and the problems of the boards that could not be read."""
    readers = {
        "pbn": _read_pbn,
        "lin": _read_lin,
        "csv": _read_csv,
        "json": _read_json,
        "usebio": _read_usebio,
    }
    if fmt not in readers:
        raise BridgeError(f"unknown board-set format {fmt!r}: expected one of {', '.join(readers)}")
    return readers[fmt](text)
