"""A board set as text: PBN, LIN (BBO upload form), CSV, JSON and the dealing
machine's DLM and DUP (:mod:`~bridgescore.formats.duplimate`), both ways.

Every board goes through the one record (:func:`~bridgescore.formats.board.board_record`)
and every file is read back by :func:`~bridgescore.formats.read_records`, so a set
``bridgescore deal --boards`` writes, in any format, reads in every command that
reads boards. Writers escape what their format needs and refuse what it cannot hold
(LIN: ``|`` and line breaks; PBN: line breaks); readers go on past a bad board and
report every problem with its line (:class:`~bridgescore.formats.record.Problem`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from bridgescore.board import Board
from bridgescore.core import Seat
from bridgescore.ddtable import DDTable
from bridgescore.deal import RANK_CHARS, SUITS, Deal, Hand
from bridgescore.errors import BridgeError, InvalidArgumentError, NotationError
from bridgescore.formats import (
    check_input,
    decode_text,
    detect_format,
    format_records,
    read_records,
)
from bridgescore.formats.board import board_record
from bridgescore.formats.csv import format_csv
from bridgescore.formats.lin import lin_value
from bridgescore.formats.pbn import pbn_value
from bridgescore.formats.record import BoardRecord, Problem
from bridgescore.formats.sources import (
    InputSource,
    path_given_as_text,
    source_bytes,
    source_name,
)
from bridgescore.formats.usebio import dealt_board, looks_like_usebio, read_usebio
from bridgescore.formats.usebio.safexml import UsebioError
from bridgescore.formats.usebio.safexml import decode as usebio_decode

__all__ = [
    "FORMATS",
    "BoardSetFormat",
    "BoardSetRead",
    "ReadableFormat",
    "board_file_text",
    "check_event",
    "format_boards",
    "guess_format",
    "read_board_set",
    "read_board_text",
    "read_boards",
]

BoardSetFormat = Literal["pbn", "lin", "csv", "json", "dlm", "dup"]
FORMATS: tuple[BoardSetFormat, ...] = ("pbn", "lin", "csv", "json", "dlm", "dup")
ReadableFormat = Literal["pbn", "lin", "csv", "json", "dlm", "dup", "usebio"]
"""What a board set is read from: every format it is written in, and USEBIO hand sets."""

# LIN numbers seats from South: md's leading digit is the dealer, hands go S, W, N, E.
_LIN_SEATS = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)
_LIN_VULNERABILITY = {"None": "o", "NS": "n", "EW": "e", "All": "b"}


# -- writers -------------------------------------------------------------------


def _stated(record: BoardRecord) -> tuple[int, Seat, str, Deal]:
    """What every board of a set states: number, dealer, vulnerability (PBN), deal."""
    dealer, vulnerability = record.dealer, record.vulnerability
    if record.board is None or dealer is None or vulnerability is None or record.deal is None:
        raise NotationError(
            f"board {record.board} has no deal: a board set states each board's number and deal"
        )
    return record.board, dealer, vulnerability.to_pbn(), record.deal


def _pbn_game(record: BoardRecord) -> str:
    # A hand record's layout (no "?" for the tags a game would have), each value
    # escaped as PBN escapes it.
    number, dealer, vulnerable, deal = _stated(record)
    tags = []
    if record.event:
        tags.append(f'[Event "{pbn_value(record.event, "Event")}"]')
    tags += [
        f'[Board "{number}"]',
        f'[Dealer "{dealer.letter}"]',
        f'[Vulnerable "{vulnerable}"]',
        f'[Deal "{deal.to_pbn(dealer)}"]',
    ]
    if record.dd_tricks:
        tags.append(f'[DoubleDummyTricks "{record.dd_tricks}"]')
    if record.optimum_score:
        tags.append(f'[OptimumScore "{record.optimum_score}"]')
    for name, value in record.notes:
        first, *rows = value.split("\n")
        # The table's rows as DDTable writes them (aligned), under their tag.
        tags.append("\n".join([f'[{name} "{first}"]', *rows]))
    return "\n".join(tags)


def _lin_hand(hand: Hand) -> str:
    return "".join(
        suit.letter + "".join(RANK_CHARS[rank - 2] for rank in hand.suit(suit)) for suit in SUITS
    )


def _lin_line(record: BoardRecord) -> str:
    number, dealer_seat, vulnerability, deal = _stated(record)
    dealer = _LIN_SEATS.index(dealer_seat) + 1
    hands = ",".join(_lin_hand(deal[seat]) for seat in _LIN_SEATS)
    vulnerable = _LIN_VULNERABILITY[vulnerability]
    # The event as LIN's reader reads it back (our own tag, as formats/lin writes it).
    event = f"Event|{lin_value('Event', record.event)}|" if record.event else ""
    return f"qx|o{number}|md|{dealer}{hands}|rh||ah|Board {number}|{event}sv|{vulnerable}|pg||"


def _json_board(board: Board) -> dict[str, Any]:
    deal = board.dealt
    record: dict[str, Any] = {
        "board": board.number,
        "dealer": board.dealer.letter,
        "vulnerable": board.vulnerability.to_pbn(),
        "deal": deal.to_pbn(),
        "hcp": {seat.letter: deal[seat].hcp for seat in Seat},
    }
    if board.dd_table is not None:
        record["dd"] = str(board.dd_table)
        record["tricks"] = board.dd_table.as_dict()
    if board.par is not None:
        record["par"] = board.par.as_dict()
    return record


def check_event(event: str | None, fmt: BoardSetFormat) -> None:
    """Raise :class:`~bridgescore.NotationError` when ``fmt`` cannot hold ``event``:
    a line break in PBN or LIN, a ``|`` in LIN (which has no escape), a carriage
    return in CSV. JSON holds any text. Called before a set is dealt, so nothing is
    dealt or written in vain."""
    if event and fmt == "pbn":
        pbn_value(event, "Event")
    elif event and fmt == "lin":
        lin_value("Event", event)
    elif event and fmt == "csv":
        format_csv([BoardRecord(board=1, event=event)])


def format_boards(boards: Sequence[Board], fmt: BoardSetFormat, *, event: str | None = None) -> str:
    """The whole set in ``fmt`` (``pbn``, ``lin``, ``csv`` or ``json``, ending with a
    newline; ``dlm`` or ``dup``, a dealing machine's file, to be written as bytes
    unchanged: the deals alone).

    Raises :class:`~bridgescore.NotationError` for a board without its deal, for an
    event the format cannot hold (:func:`check_event`), and for a set a dealing
    machine's file cannot hold (boards that do not run on, or past 99).
    """
    if fmt not in FORMATS:
        raise NotationError(
            f"unknown board-set format {fmt!r}: expected one of {', '.join(FORMATS)}"
        )
    check_event(event, fmt)
    records = [board_record(board, event or "") for board in boards]
    for record in records:
        _stated(record)
    if fmt in ("dlm", "dup"):
        return format_records(records, fmt)
    if fmt == "json":
        data: dict[str, Any] = {"boards": [_json_board(board) for board in boards]}
        if event:
            data = {"event": event, **data}
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    if fmt == "pbn":
        return "% PBN 2.1\n% EXPORT\n\n" + "\n\n".join(map(_pbn_game, records)) + "\n"
    if fmt == "lin":
        return "".join(_lin_line(record) + "\n" for record in records)
    # CSV keeps the analysis in its columns: the table's rows restate "dd".
    return format_csv(
        replace(record, notes=tuple(note for note in record.notes if note[0] == "ParContract"))
        for record in records
    )


# -- readers -------------------------------------------------------------------


def guess_format(name: str, text: str) -> ReadableFormat:
    """The format by file name (``.pbn``, ``.lin``, ``.csv``, ``.json``, ``.dlm``,
    ``.dup``, ``.xml`` for USEBIO), else by content (as
    :func:`~bridgescore.formats.detect_format` tells it)."""
    lowered = name.lower()
    for fmt in FORMATS:
        if lowered.endswith("." + fmt):
            return fmt
    if lowered.endswith(".xml") or looks_like_usebio(text):
        return "usebio"
    try:
        found = detect_format(None, text)
    except NotationError:
        found = ""
    for fmt in FORMATS:
        if found == fmt:
            return fmt
    raise NotationError(
        f"cannot tell the format of {name!r}: expected a .pbn, .lin, .csv, .json, "
        "Duplimate .dlm or .dup, or USEBIO .xml file"
    )


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


def _boards_of_records(records: Iterable[BoardRecord], fmt: str) -> BoardSetRead:
    boards: list[Board] = []
    problems: list[Problem] = []
    missing = 0
    previous: tuple[int | None, Deal | None] | None = None
    for record in records:
        errors = [problem for problem in record.problems if not problem.notice]
        line = record.source.line
        if errors:
            problems.extend(Problem(p.line or line, p.message) for p in errors)
        if record.deal is None:
            # A game without a deal (results only) is no board; one whose deal could
            # not be read has its problem above, and its board is missing.
            missing += bool(errors) and (fmt == "lin" or "Deal" in record.source.tag_names)
            continue
        if (record.board, record.deal) == previous:
            continue  # another table of the same board (PBN's second room)
        previous = (record.board, record.deal)
        number = record.board
        if number is None:
            if fmt != "lin":
                if not errors:
                    problems.append(Problem(line, "no Board tag: expected a whole number >= 1"))
                missing += 1
                continue
            number = len(boards) + 1  # LIN hand records may name no board: count them
        if errors and fmt == "lin":
            missing += 1
            continue
        tag = "DoubleDummyTricks"
        try:
            tag, table = _dd_table(record)
            boards.append(record.as_board(number, table))
        except BridgeError as error:
            problems.append(Problem(record.source.line_of(tag), f"{tag} tag: {error}"))
            missing += 1
    return BoardSetRead(boards, problems, missing)


def _read_usebio(text: str) -> BoardSetRead:
    # A USEBIO results file's HANDSET: the deals the scorer had, by board number.
    try:
        found = read_usebio(text, "USEBIO file")
    except UsebioError as error:
        return BoardSetRead([], [Problem(error.line, error.detail)], 0)
    # Only the hand records' problems: a bad traveller line or participant loses no deal.
    problems = [problem for problem in found.problems if "hand" in problem.message.lower()]
    boards: list[Board] = []
    missing = len(problems)  # each problem of a hand is a hand not read
    for hand in found.hands:
        if not hand.deal:
            continue  # a board's dealer or vulnerability alone: no deal to read
        try:
            boards.append(dealt_board(hand))
        except BridgeError as error:
            problems.append(Problem(hand.line, f"board {hand.board}: {error}"))
            missing += 1
    if not boards and not problems:
        problems.append(Problem(0, "the USEBIO file has no HANDSET: no deals to read"))
    return BoardSetRead(boards, problems, missing)


def board_file_text(data: bytes) -> str:
    """A board file's bytes as text, as formats/ reads them: a USEBIO file by its XML
    declaration, any other line by line (UTF-8, else Windows-1252, else Latin-1,
    a byte order mark dropped), so files of older programs read without an error."""
    if looks_like_usebio(data):
        try:
            return usebio_decode(data, "USEBIO file")
        except UsebioError:
            pass  # the reader says what is wrong with it
    return decode_text(data)


@dataclass(frozen=True, slots=True)
class BoardSetRead:
    """A board set read: its boards, the file's problems, and how many boards the
    problems cost (``missing``): a problem in a game's comment or play loses no
    board, one in its deal loses it, so the two counts differ."""

    boards: list[Board]
    problems: list[Problem]
    missing: int


def read_boards(text: str, fmt: ReadableFormat) -> tuple[list[Board], list[Problem]]:
    """The boards of a set in ``fmt``, and the problems found reading it: every format
    but USEBIO is read by :func:`~bridgescore.formats.read_records`
    (:func:`read_board_text` also counts the boards lost).

    ``text`` is the file's text; the path of a file given instead is refused with an
    :class:`~bridgescore.errors.InputFileError` pointing to :func:`read_board_set`."""
    read = read_board_text(text, fmt)
    return read.boards, read.problems


def read_board_text(text: str, fmt: ReadableFormat) -> BoardSetRead:
    """:func:`read_boards`, with the number of boards its problems cost."""
    path_given_as_text(text, "read_boards", "read_board_set(path)")
    if fmt == "usebio":
        return _read_usebio(text)
    if fmt not in FORMATS:
        readers = ", ".join((*FORMATS, "usebio"))
        raise NotationError(f"unknown board-set format {fmt!r}: expected one of {readers}")
    return _boards_of_records(read_records(text=text, format=fmt), fmt)


def read_board_set(
    source: InputSource | None = None,
    *,
    text: str | None = None,
    format: ReadableFormat | None = None,
) -> tuple[list[Board], list[Problem]]:
    """The boards of a board-set file (hand records, in any format :func:`read_boards`
    reads) from what the user holds: a path (str or ``Path``), ``-`` for standard
    input, an open file (binary or text: the encoding found as for a path), or
    ``text=``. The format is ``format``, else told by the file's name, then its content.

    A path that cannot be read, or a file's text given as the path, raises an
    :class:`~bridgescore.errors.InputFileError`, as :func:`~bridgescore.formats.read_records` does.
    """
    if text is not None:
        if source is not None:
            raise InvalidArgumentError(
                f"read_board_set was given both a path ({source!r}) and text: expected one"
            )
        name = "the text"
    elif source is None:
        raise InvalidArgumentError("read_board_set needs a path, an open file or text")
    else:
        data = source_bytes(source, "read_board_set")
        check_input(data, source_name(source) or "-")
        text = board_file_text(data)
        name = source_name(source) or ("standard input" if source == "-" else "the open file")
    return read_boards(text, format or guess_format(name, text))
