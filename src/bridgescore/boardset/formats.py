"""A board set as text: PBN, LIN (BBO upload form), CSV and JSON, both ways.

Writers are strict; readers go on past a bad board and report every problem
with its line number (:class:`BoardProblem`).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from bridgescore.boardset.board import Board, par_contract_text, par_score_text
from bridgescore.core import Seat, Vulnerability
from bridgescore.ddtable import DDTable
from bridgescore.deal import RANK_CHARS, SUITS, Card, Deal, Hand
from bridgescore.errors import BridgeError

__all__ = [
    "FORMATS",
    "BoardProblem",
    "BoardSetFormat",
    "format_boards",
    "guess_format",
    "read_boards",
]

BoardSetFormat = Literal["pbn", "lin", "csv", "json"]
FORMATS: tuple[BoardSetFormat, ...] = ("pbn", "lin", "csv", "json")

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


def guess_format(name: str, text: str) -> BoardSetFormat:
    """The format by file name (``.pbn``, ``.lin``, ``.csv``, ``.json``), else by content."""
    lowered = name.lower()
    for fmt in FORMATS:
        if lowered.endswith("." + fmt):
            return fmt
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
        f"cannot tell the format of {name!r}: expected a .pbn, .lin, .csv or .json file"
    )


def _read_pbn(text: str) -> tuple[list[Board], list[BoardProblem]]:
    from bridgescore.pbn import read_games

    boards: list[Board] = []
    problems: list[BoardProblem] = []
    for game in read_games(text):
        tags = game.tags
        if game.problems:
            problems.extend(BoardProblem(p.line, p.message) for p in game.problems)
            continue
        if not tags.get("Deal"):
            continue  # a game without a deal (a results-only game) is no board
        tag = "Board"
        try:
            number = _board_number(tags.get("Board", ""))
            tag = "Deal"
            deal = Deal.from_pbn(tags["Deal"])
            tag = "Dealer"
            dealer = Seat.parse(tags["Dealer"]) if tags.get("Dealer", "?") != "?" else None
            tag = "Vulnerable"
            vulnerable = (
                Vulnerability.from_pbn(tags["Vulnerable"])
                if tags.get("Vulnerable", "?") != "?"
                else None
            )
            tag = "DoubleDummyTricks"
            table = None
            if tags.get(tag):
                table = DDTable.parse(tags[tag])
            elif game.section("OptimumResultTable") is not None:
                tag = "OptimumResultTable"
                section = game.section(tag)
                assert section is not None
                rows = [" ".join(token.text for token in row) for row in section.rows]
                table = DDTable.from_optimum_result_table(
                    [f'[OptimumResultTable "{section.value}"]', *rows]
                )
            boards.append(Board(number, deal, table, None, dealer, vulnerable))
        except BridgeError as error:
            problems.append(BoardProblem(game.line_of(tag), f"{tag} tag: {error}"))
    return boards, problems


def _board_number(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise BridgeError(f"board number {text!r} is not valid: expected a whole number >= 1")
    return int(text)


def _lin_deal(md: str, number: int) -> tuple[Seat, Deal]:
    if not md or md[0] not in "1234":
        raise BridgeError(
            f"md {md!r}: expected the dealer (1 South, 2 West, 3 North, 4 East) then hands"
        )
    dealer = _LIN_SEATS[int(md[0]) - 1]
    parts = md[1:].split(",")
    hands: dict[Seat, str] = {}
    for seat, part in zip(_LIN_SEATS, parts, strict=False):
        if not part.strip():
            continue
        match = re.fullmatch(r"S([^SHDC]*)H([^SHDC]*)D([^SHDC]*)C([^SHDC]*)", part.upper())
        if match is None:
            raise BridgeError(
                f"board {number}: LIN hand {part!r}: expected S, H, D and C each followed "
                "by its ranks, as in 'SAKQHJT9D8765C432'"
            )
        hands[seat] = ".".join(match.groups())
    if len(hands) == 3:
        # BBO often leaves East out: East holds the cards nobody else does.
        known = {card for text in hands.values() for card in Hand.from_pbn(text).cards}
        everything = {Card.from_index(index) for index in range(52)}
        missing = next(seat for seat in _LIN_SEATS if seat not in hands)
        hands[missing] = Hand(frozenset(everything - known)).to_pbn()
    if len(hands) != 4:
        raise BridgeError(f"board {number}: md {md!r} gives {len(hands)} hands: expected 3 or 4")
    deal = Deal.from_pbn("N:" + " ".join(hands[seat] for seat in Seat))
    return dealer, deal


def _read_lin(text: str) -> tuple[list[Board], list[BoardProblem]]:
    boards: list[Board] = []
    problems: list[BoardProblem] = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        words = line.strip().split("|")
        pairs = dict(zip(words[0::2], words[1::2], strict=False))
        try:
            if "md" not in pairs:
                raise BridgeError(f"{line.strip()[:60]!r} has no md| (deal): not a LIN board")
            label = pairs.get("ah", "") or pairs.get("qx", "")
            digits = re.findall(r"\d+", label)
            number = int(digits[-1]) if digits else len(boards) + 1
            dealer, deal = _lin_deal(pairs["md"], number)
            vulnerable = None
            if "sv" in pairs:
                codes = {"o": Vulnerability.NONE, "0": Vulnerability.NONE, "-": Vulnerability.NONE}
                codes |= {"n": Vulnerability.NS, "e": Vulnerability.EW, "b": Vulnerability.BOTH}
                key = pairs["sv"].lower()
                if key not in codes:
                    raise BridgeError(f"sv {pairs['sv']!r}: expected o, n, e or b")
                vulnerable = codes[key]
            boards.append(Board(number, deal, None, None, dealer, vulnerable))
        except BridgeError as error:
            problems.append(BoardProblem(line_number, str(error)))
    return boards, problems


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
    records = data.get("boards") if isinstance(data, dict) else None
    if not isinstance(records, list):
        return [], [BoardProblem(1, 'expected an object with a "boards" list')]
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


def read_boards(text: str, fmt: BoardSetFormat) -> tuple[list[Board], list[BoardProblem]]:
    """The boards of a set in ``fmt``, and the problems of the boards that could not be read."""
    readers = {"pbn": _read_pbn, "lin": _read_lin, "csv": _read_csv, "json": _read_json}
    if fmt not in readers:
        raise BridgeError(f"unknown board-set format {fmt!r}: expected one of {', '.join(FORMATS)}")
    return readers[fmt](text)
