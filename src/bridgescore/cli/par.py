"""``bridgescore par``: par score and par contracts of a table, a deal, or a file of them."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Annotated, Any

import typer

from bridgescore.cli.common import (
    BadLines,
    echo_json,
    fail,
    no_boards,
    no_line_read,
    numbered_lines,
    read_input,
    refuse_results_file,
)
from bridgescore.cli.deal_input import (
    board_of_text,
    deal_or_file,
    read_board,
)
from bridgescore.core import Seat, Vulnerability, dealer_of_board
from bridgescore.ddtable import DDTable, Par
from bridgescore.deal import Deal
from bridgescore.errors import BridgeError, NotationError
from bridgescore.formats import BoardRecord, detect_format, read_text
from bridgescore.parscore import par

__all__ = ["format_par", "par_command"]

# A table on the command line: hex digits alone (DDTable.parse says if there are not 20).
_HEX = re.compile(r"[0-9a-fA-F]+")


# The tags that make a board (what par depends on), and a problem naming one of them
# ("Dealer tag: ...", "malformed tag pair '[Board ...").
_BOARD_TAGS = ("Board", "Dealer", "Vulnerable", "Deal", "DoubleDummyTricks")
_BOARD_TAG_NAMED = re.compile(r"\b(?:Board|Dealer|Vulnerable|Deal|DoubleDummyTricks)\b")


@dataclass
class _Board:
    """One line, or one board of a file of records: its table, or the deal to solve first."""

    line: int
    text: str
    vulnerability: Vulnerability
    dealer: Seat | None
    table: DDTable | None = None
    deal: Deal | None = None
    error: str | None = None
    result: Par | None = None
    number: int | None = None
    notes: tuple[str, ...] = ()  # the game's problems that leave its deal sound

    @property
    def label(self) -> str:
        """How the board is named in the output: by its number, else by its line."""
        if self.number is not None:
            return f"board {self.number}"
        return f"line {self.line}" if self.line else self.text


def format_par(result: Par, vulnerability: Vulnerability, dealer: Seat | None) -> str:
    """One line for people: ``NS +920: 6C= NS  (neutral, vulnerable: None)``."""
    convention = "neutral" if dealer is None else f"dealer {dealer.letter}"
    return f"{result}  ({convention}, vulnerable: {vulnerability})"


def _options(
    vul: str | None, board: int | None, dealer: str | None, neutral: bool
) -> tuple[Vulnerability, Seat | None]:
    """The vulnerability and dealer the options give (exit 2 on a contradiction)."""
    if vul is not None and board is not None:
        raise fail("give --vul or --board, not both", code=2)
    if neutral and dealer is not None:
        raise fail("--neutral and --dealer contradict each other: give one", code=2)
    try:
        vulnerability = Vulnerability.NONE
        seat = None
        if vul is not None:
            vulnerability = Vulnerability.parse(vul)
        if board is not None:
            vulnerability = Vulnerability.from_board(board)
            if not neutral:
                seat = dealer_of_board(board)
        if dealer is not None:
            seat = Seat.parse(dealer)
    except BridgeError as error:
        raise fail(error, code=2) from None
    return vulnerability, seat


def _stated_board(
    record: BoardRecord,
    vulnerability: Vulnerability,
    seat: Seat | None,
    vul: str | None,
    board: int | None,
    dealer: str | None,
) -> tuple[Vulnerability, Seat | None]:
    """The vulnerability and dealer of one LIN record or handviewer link on the command
    line: what it states (``sv``, ``md``; a link's ``v``, ``d``, ``b``), unless the
    options say otherwise (--vul, --board, --dealer win)."""
    if vul is None and board is None and record.vulnerability is not None:
        # "is not None": no one vulnerable is Vulnerability.NONE, a member worth 0.
        vulnerability = record.vulnerability
    if board is None and dealer is None:
        seat = record.dealer
    return vulnerability, seat


def _read_source(text: str) -> tuple[DDTable | None, Deal | None]:
    """A table (20 hex digits) or a deal (``N:`` and four hands)."""
    if ":" in text:
        return None, Deal.from_pbn(text)
    return DDTable.parse(text), None


def _read_line(
    text: str, vulnerability: Vulnerability, dealer: Seat | None, neutral: bool
) -> tuple[DDTable | None, Deal | None, Vulnerability, Seat | None, int | None]:
    """``<table or deal> [vulnerability] [dealer | board number]``, and the board number."""
    words = text.split()
    count = 4 if ":" in words[0] else 1  # a deal is "N:hand hand hand hand"
    source, extra = " ".join(words[:count]), words[count:]
    table, deal = _read_source(source)
    if len(extra) > 2:
        raise NotationError(
            f"too many words in {text!r}: expected a table or deal, then at most a "
            "vulnerability and a dealer (or a board number)"
        )
    given_vul = given_dealer = False
    number = None
    for word in extra:
        # isascii(): isdigit() also accepts '²', which int() refuses; and int()
        # refuses over 4,300 digits.
        board = word.isascii() and word.isdigit() and len(word) <= 9
        if board and not given_vul and not given_dealer:
            number = int(word)
            vulnerability = Vulnerability.from_board(number)
            dealer = None if neutral else dealer_of_board(number)
            given_vul = given_dealer = True
            continue
        if not given_vul:
            with contextlib.suppress(NotationError):
                vulnerability = Vulnerability.parse(word)
                given_vul = True
                continue
        if not given_dealer:
            with contextlib.suppress(NotationError):
                seat = Seat.parse(word)
                dealer = None if neutral else seat
                given_dealer = True
                continue
        raise NotationError(
            f"unexpected {word!r} in {text!r}: expected a table or deal, then optionally "
            "a vulnerability (None, NS, EW, Both) and a dealer (N, E, S, W) or a board number"
        )
    return table, deal, vulnerability, dealer, number


def _line_boards(
    lines: list[str], vulnerability: Vulnerability, dealer: Seat | None, neutral: bool
) -> list[_Board]:
    boards = []
    for number, line in numbered_lines(io.StringIO("".join(lines))):
        board = _Board(number, line, vulnerability, dealer)
        try:
            board.table, board.deal, board.vulnerability, board.dealer, board.number = _read_line(
                line, vulnerability, dealer, neutral
            )
        except BridgeError as error:
            board.error = str(error)
        boards.append(board)
    return boards


def _record_boards(
    records: Iterable[BoardRecord],
    vulnerability: Vulnerability,
    dealer: Seat | None,
    neutral: bool,
) -> list[_Board]:
    """One board per board of a PBN, LIN or JSON file, however many tables played it:
    its DoubleDummyTricks, else its deal; the record's vulnerability and dealer, else
    the options'. A game of a board whose deal another game gives (a result from
    another table) adds nothing; a record that cannot be read is reported."""
    boards: list[_Board] = []
    shown: set[tuple[int, str]] = set()  # (board number, its deal or else its table)
    numbered: set[int] = set()  # board numbers that have a row
    without: dict[int, _Board] = {}  # board numbers only seen without a deal so far
    for record in records:
        line = record.source.line
        number = record.board
        notes: tuple[str, ...] = ()
        errors = [problem for problem in record.problems if not problem.notice]
        if errors and (record.deal is not None or record.dd_tricks) and _board_sound(record):
            # A problem in the comments, the auction or the play leaves the deal sound:
            # its par is given, the problems told as notes (as solve solves it).
            notes = tuple(str(replace(problem, line=problem.line or line)) for problem in errors)
        elif errors:
            first = errors[0].line or line
            message = "; ".join(
                problem.message if problem.line == first else str(problem) for problem in errors
            )
            boards.append(
                _Board(first, _record_label(record), vulnerability, dealer, error=message)
            )
            continue
        # The deal names the board best (one table's file may carry DoubleDummyTricks
        # and the next not); a table alone names it when there is no deal.
        source = record.deal.to_pbn() if record.deal else record.dd_tricks
        if not source:
            if number is None:
                board = _Board(line, _record_label(record), vulnerability, dealer)
                board.error = "the game has neither a Deal nor a DoubleDummyTricks tag"
                boards.append(board)
            elif number not in numbered and number not in without:
                without[number] = _Board(line, f"board {number}", vulnerability, dealer)
            continue
        if number is not None and (number, source) in shown:
            continue  # the same board played at another table
        board = _Board(line, _record_label(record), vulnerability, dealer, number=number)
        board.notes = notes
        if record.vulnerable is not None:
            board.vulnerability = record.vulnerable
        if record.dealer_seat is not None and not neutral:
            board.dealer = record.dealer_seat
        if record.dd_tricks:
            try:
                board.table = DDTable.parse(record.dd_tricks)
            except BridgeError as error:
                board.error = f"DoubleDummyTricks tag: {error}"
        else:
            board.deal = record.deal
        boards.append(board)
        if number is not None:
            shown.add((number, source))
            numbered.add(number)
            without.pop(number, None)
    for number, board in without.items():  # boards that never got a row
        board.number = number
        board.error = f"no game of board {number} has a Deal or a DoubleDummyTricks tag"
        boards.append(board)
    boards.sort(key=lambda board: board.line)
    return boards


def _board_sound(record: BoardRecord) -> bool:
    """Whether the record's problems leave the board itself sound: its number, dealer,
    vulnerability, deal and table, which par depends on (a bad Dealer tag would give
    the wrong par silently), are each read without a problem."""
    lines = {record.source.line_of(tag) for tag in _BOARD_TAGS if tag in record.source.tag_names}
    return record.board is not None and not any(
        problem.line in lines or _BOARD_TAG_NAMED.search(problem.message)
        for problem in record.problems
        if not problem.notice
    )


def _record_label(record: BoardRecord) -> str:
    if record.board is not None:
        return f"board {record.board}"
    if record.source.line:
        return f"game at line {record.source.line}"
    return f"record {record.source.record}"


def _read_file(
    path: str, vulnerability: Vulnerability, dealer: Seat | None, neutral: bool
) -> list[_Board]:
    """The boards of a file (``-``: standard input), read by the one reader: a PBN,
    LIN or JSON file of records (by its name or its content), else lines of tables
    or deals. None at all exits 1 (``no boards found``)."""
    text = read_input(path)
    name = None if path == "-" else path
    try:
        format = detect_format(name, text)
    except BridgeError:
        refuse_results_file(path, text, "deals or double-dummy tables")
        boards = _line_boards(text.splitlines(keepends=True), vulnerability, dealer, neutral)
        if len(boards) > 1 and all(board.error is not None for board in boards):
            # Not one line is a deal or a table: say so once, not once a line.
            bad = BadLines()
            for board in boards:
                bad.report(board.line, board.text, str(board.error), quiet=True)
            raise no_line_read(path, bad, "deals or double-dummy tables") from None
    else:
        boards = _record_boards(read_text(text, format, name), vulnerability, dealer, neutral)
    if not boards:
        raise no_boards(path)
    return boards


def _solve_deals(boards: list[_Board]) -> None:
    """Solve (DDS) every deal still without a table, in one batch."""
    waiting = [board for board in boards if board.error is None and board.table is None]
    deals = [board.deal for board in waiting if board.deal is not None]
    if not deals:
        return
    try:
        from bridgescore.solver import solve_many

        tables = solve_many(deals)
    except ImportError as error:
        for board in waiting:
            board.error = str(error)
        return
    for board, table in zip(waiting, tables, strict=True):
        board.table = table


def _batch(boards: list[_Board], *, as_json: bool) -> None:
    _solve_deals(boards)
    records: list[dict[str, Any]] = []
    bad = BadLines()
    for board in boards:
        if board.error is None and board.table is not None:
            try:
                board.result = par(board.table, board.vulnerability, board.dealer)
            except BridgeError as error:
                board.error = str(error)
        if board.result is None:
            bad.report(board.line, board.text, str(board.error))
            records.append(bad.records[-1])
            continue
        for note in board.notes:
            typer.echo(f"note: {board.label}: {note} (its deal is sound: par given)", err=True)
        if as_json:
            records.append(
                {
                    "board": board.number,
                    "line": board.line,
                    "input": board.text,
                    "dd": str(board.table),
                    "vulnerability": str(board.vulnerability),
                    "dealer": None if board.dealer is None else board.dealer.letter,
                    **board.result.as_dict(),
                    **({"notes": list(board.notes)} if board.notes else {}),
                }
            )
        else:
            shown = format_par(board.result, board.vulnerability, board.dealer)
            typer.echo(f"{board.label:<10}  {board.table}  {shown}")
    if as_json:
        echo_json(records)
    bad.exit_if_any("board(s) failed")


def par_command(
    source: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="TABLE|DEAL|FILE",
            help="A double-dummy table (20 hex digits), a deal (PBN 'N:...', quoted or as "
            "words, a LIN record or a BBO handviewer link), or a FILE: tables or deals one "
            "per line, each optionally followed by a vulnerability and a dealer or a board "
            "number, or a PBN, LIN or JSON file of boards (by its extension or its content); "
            "'-' reads standard input.",
            show_default=False,
        ),
    ] = None,
    dd: Annotated[
        str | None,
        typer.Option("--dd", help="A double-dummy table: PBN DoubleDummyTricks, 20 hex digits."),
    ] = None,
    deal: Annotated[
        str | None,
        typer.Option("--deal", help="A deal in PBN ('N:AKQ.. ...'), solved with DDS first."),
    ] = None,
    vul: Annotated[
        str | None, typer.Option("--vul", help="Vulnerability: None, NS, EW or Both.")
    ] = None,
    board: Annotated[
        int | None,
        typer.Option("--board", help="Board number: its vulnerability and its dealer."),
    ] = None,
    dealer: Annotated[
        str | None,
        typer.Option("--dealer", help="Dealer N, E, S or W: the dealer-first convention."),
    ] = None,
    neutral: Annotated[
        bool,
        typer.Option(
            "--neutral", help="Neutral convention even when a board or PBN game has a dealer."
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
) -> None:
    """Par: the score under perfect bidding and play, and every par contract.

    Without a dealer the neutral convention is used (Pavlicek's); with --dealer,
    or the dealer of --board or of a PBN game, the dealer-first one (as DDS's
    DealerPar). Scores are from North-South's point of view. A file gives one
    row per board, named by its number (by its line when it has none), however
    many tables played the board.

    \b
    Examples:
      bridgescore par a989ca989c3453134531
      bridgescore par 32929329297a4a47a4a4 --vul Both --json
      bridgescore par "N:AKQ2.AK2.AK2.AK2 ..." --board 7
      bridgescore par tables.txt --vul NS
      bridgescore par session.pbn
      bridgescore par match.lin
    """
    words = deal_or_file(source)
    given = [
        name
        for name, value in (("--dd", dd), ("--deal", deal), ("a TABLE, DEAL or FILE", words))
        if value
    ]
    if len(given) != 1:
        raise fail(
            "give one of a TABLE, DEAL or FILE ('-' for standard input), --dd HEX or "
            "--deal PBN" + (f"; got {' and '.join(given)}" if given else ""),
            code=2,
        )
    vulnerability, seat = _options(vul, board, dealer, neutral)
    if words is not None and words.path is not None:
        _batch(_read_file(words.path, vulnerability, seat, neutral), as_json=as_json)
        return
    solved: Deal | None = None
    stated: BoardRecord | None = None
    if words is not None and words.text is not None:
        if _HEX.fullmatch(words.text):
            dd = words.text
        else:
            stated = board_of_text(words.text, other="a double-dummy table (20 hex digits), ")
    try:
        if dd is None and stated is None:
            assert deal is not None  # exactly one of the three was given
            stated = read_board(deal)
        if stated is not None:
            solved = stated.deal
            vulnerability, seat = _stated_board(stated, vulnerability, seat, vul, board, dealer)
            if neutral:
                seat = None
        if dd is not None:
            table = DDTable.parse(dd)
        else:
            assert solved is not None
            from bridgescore.solver import solve

            table = solve(solved)
        result = par(table, vulnerability, seat)
    except BridgeError as error:
        raise fail(error) from None
    except ImportError as error:
        raise fail(str(error)) from None
    if as_json:
        echo_json(result.as_dict())
        return
    if dd is None:
        typer.echo("Double-dummy tricks")
        typer.echo(table.grid())
        typer.echo("")
    typer.echo(format_par(result, vulnerability, seat))
