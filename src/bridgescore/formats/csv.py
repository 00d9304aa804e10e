"""Board records as CSV: a board set's columns, one row a board.

The header names the columns, in any order: ``board``, ``dealer``, ``vulnerable``
(PBN words), ``deal`` (a PBN deal), then, for an analysed set, ``dd`` (PBN
DoubleDummyTricks), ``par_score`` (North-South's view) and ``par_contracts``
(PBN ParContract), and ``event`` when the set names one. Values are quoted as
CSV quotes them (a comma, a quote or a line break inside a value is kept).

A record holding what these columns cannot (players, an auction, the play, a
contract, a result, other tags) is refused, never written without it.

>>> text = format_csv([BoardRecord(board=1, dealer_seat=Seat.NORTH, event='The "Big" Cup')])
>>> text.splitlines()
['board,dealer,vulnerable,deal,event', '1,N,,,"The ""Big"" Cup"']
>>> [record.event for record in read_csv(text)]
['The "Big" Cup']
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator

from bridgescore.core import Seat, Vulnerability
from bridgescore.deal import Deal
from bridgescore.errors import BridgeError, NotationError
from bridgescore.formats.record import BoardRecord, Problem, Source

__all__ = ["COLUMNS", "format_csv", "is_board_set", "looks_like_csv", "read_csv"]

COLUMNS = ("board", "dealer", "vulnerable", "deal")
"""The columns every board-set CSV file has, in the order written."""
_ANALYSIS = ("dd", "par_score", "par_contracts")
_EVENT = "event"
_KNOWN = frozenset((*COLUMNS, *_ANALYSIS, _EVENT))
_PAR_CONTRACT = "ParContract"
_OPTIMUM = re.compile(r"(NS|EW) (-?[0-9]{1,5})")
_SCORE = re.compile(r"-?[0-9]{1,5}")


def looks_like_csv(text: str) -> bool:
    """Whether the text's first non-blank line is a board-set CSV header."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return first.lower().startswith("board,")


def is_board_set(text: str) -> bool:
    """Whether CSV text is a board set: its header names every one of :data:`COLUMNS`
    (a file of results, ``board,ns,ew,...``, is not)."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        names = next(csv.reader([first]), [])
    except csv.Error:
        return False
    return set(COLUMNS) <= {name.strip().lower() for name in names}


def _par_score(record: BoardRecord) -> str:
    if not record.optimum_score:
        return ""
    match = _OPTIMUM.fullmatch(record.optimum_score.strip())
    if match is None:
        raise NotationError(
            f"board {record.board}: OptimumScore {record.optimum_score!r} cannot be written "
            "as CSV's par_score: expected 'NS 420' or 'EW 420'"
        )
    score = int(match[2])
    return str(score if match[1] == "NS" else -score)


def _refuse_unheld(record: BoardRecord) -> None:
    held = {_PAR_CONTRACT, "OptimumResultTable"}
    unheld = [
        name
        for name, present in (
            ("players", any(record.players)),
            ("home team", bool(record.home_team)),
            ("visit team", bool(record.visit_team)),
            ("table", bool(record.table)),
            ("room", record.room is not None),
            ("auction", record.auction is not None),
            ("play", record.play is not None),
            ("claim", record.claim is not None),
            ("contract", record.contract is not None or record.passed_out),
            ("result", record.result is not None),
            ("scores", bool(record.scores)),
            ("match header", record.match is not None),
            *((f"tag {name}", True) for name, _ in record.notes if name not in held),
        )
        if present
    ]
    if unheld:
        raise NotationError(
            f"board {record.board}: CSV cannot hold its {', '.join(unheld)}: expected a "
            "board set (board, dealer, vulnerable, deal, analysis, event); write PBN, LIN "
            "or JSON instead"
        )


def format_csv(records: Iterable[BoardRecord]) -> str:
    """Records as a board-set CSV file, ending with a newline.

    The DD table's rows (``OptimumResultTable``) are not written: ``dd`` holds the
    same tricks. Raises :class:`~bridgescore.NotationError` for a record holding
    what the columns cannot (see the module's text).
    """
    rows = list(records)
    for record in rows:
        _refuse_unheld(record)
    analysed = any(record.dd_tricks or record.optimum_score for record in rows)
    named = any(record.event for record in rows)
    header = COLUMNS + (_ANALYSIS if analysed else ()) + ((_EVENT,) if named else ())
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for record in rows:
        # What the record states (a board set states both); "" reads back as not given.
        dealer, vulnerability = record.dealer_seat, record.vulnerable
        row = [
            "" if record.board is None else str(record.board),
            "" if dealer is None else dealer.letter,
            "" if vulnerability is None else vulnerability.to_pbn(),
            "" if record.deal is None else record.deal.to_pbn(),
        ]
        if analysed:
            row += [record.dd_tricks, _par_score(record), record.note(_PAR_CONTRACT) or ""]
        if named:
            row.append(record.event)
        for cell in row:
            if "\r" in cell:
                # Every reader reads a carriage return as a line end (as files from
                # Windows and old Macs have them), so the value would not read back.
                raise NotationError(
                    f"board {record.board}: value {cell!r} holds a carriage return, which "
                    "CSV cannot keep: expected text without one"
                )
        writer.writerow(row)
    return out.getvalue()


def _record(row: dict[str, str], source: Source) -> BoardRecord:
    def cell(name: str) -> str:
        return (row.get(name) or "").strip()

    board_text = cell("board")
    if not (board_text.isascii() and board_text.isdigit()) or int(board_text) < 1:
        raise NotationError(f"board number {board_text!r} is not valid: expected 1 or more")
    dealer = Seat.parse(cell("dealer")) if cell("dealer") else None
    vulnerable = cell("vulnerable")
    vulnerability = Vulnerability.from_pbn(vulnerable) if vulnerable else None
    deal = Deal.from_pbn(cell("deal")) if cell("deal") else None
    optimum = ""
    if cell("par_score"):
        if not _SCORE.fullmatch(cell("par_score")):
            raise NotationError(
                f"par_score {cell('par_score')!r}: expected North-South's score such as 420"
            )
        optimum = f"NS {int(cell('par_score'))}"
    contracts = cell("par_contracts")
    return BoardRecord(
        board=int(board_text),
        dealer_seat=dealer,
        vulnerable=vulnerability,
        deal=deal,
        event=row.get(_EVENT) or "",
        dd_tricks=cell("dd"),
        optimum_score=optimum,
        notes=((_PAR_CONTRACT, contracts),) if contracts else (),
        source=source,
    )


def read_csv(text: str, file: str | None = None) -> Iterator[BoardRecord]:
    """Board records of a board-set CSV file, one a row. A row that cannot be read
    comes back as a record with its problem and its line; a file whose header lacks
    a column gives one record with that problem."""
    stream = io.StringIO(text)
    reader = csv.DictReader(stream)
    try:
        names = reader.fieldnames or []
    except csv.Error as error:
        yield BoardRecord(source=Source(file, 1, 1), problems=(Problem(1, f"not CSV: {error}"),))
        return
    missing = [name for name in COLUMNS if name not in names]
    if missing:
        message = (
            f"the header {','.join(names)!r} lacks {', '.join(missing)}: "
            f"expected {','.join(COLUMNS)}"
        )
        yield BoardRecord(source=Source(file, 1, 1), problems=(Problem(1, message),))
        return
    unknown = [name for name in names if name not in _KNOWN]
    number = 0
    while True:
        first = reader.line_num + 1  # a quoted value may span lines: the row's first
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            number += 1
            problem = Problem(reader.line_num, f"not CSV: {error}")
            yield BoardRecord(source=Source(file, first, number), problems=(problem,))
            return
        number += 1
        source = Source(file, first, number)
        if None in row or any(value is None for value in row.values()):
            more = "more" if None in row else "fewer"
            message = f"the row has {more} values than the header's {len(names)} columns"
            yield BoardRecord(source=source, problems=(Problem(first, message),))
            continue
        try:
            record = _record(row, source)
        except BridgeError as error:
            yield BoardRecord(source=source, problems=(Problem(first, str(error)),))
            continue
        if unknown and number == 1:
            note = f"column(s) {', '.join(map(repr, unknown))} not read: expected {_KNOWN_TEXT}"
            record = record.with_problems([Problem(1, note, notice=True)])
        yield record


_KNOWN_TEXT = ", ".join((*COLUMNS, *_ANALYSIS, _EVENT))
