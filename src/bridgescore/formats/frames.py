"""Board records as a pandas DataFrame: :func:`records_frame` (the pandas extra).

One row per record, one column per record field, in the order of
:class:`~bridgescore.formats.record.BoardRecord`; a field that holds several values
is spread over columns (``players``: ``north`` .. ``west``; ``scores``: one column
per score tag; ``source``: ``file`` and ``line``). What the record does not know is
``<NA>``; texts the record holds as ``""`` (not given) stay ``""``.

>>> from bridgescore.formats import read_records
>>> frame = records_frame(read_records(text='[Board "1"]\\n[Contract "3NT"]\\n'
...                                      '[Declarer "S"]\\n[Result "9"]\\n'))
>>> frame.loc[0, ["board", "contract", "declarer", "result"]].astype(str).tolist()
['1', '3NT', 'S', '9']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from bridgescore.display.frame import frame_of, pandas_module
from bridgescore.errors import ArgumentTypeError
from bridgescore.formats.record import BoardRecord

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["RECORD_COLUMNS", "records_frame"]

_TEXT = "string"
_WHOLE = "Int64"  # pandas' whole numbers with <NA>
_FLAG = "bool"
_ANY = "object"

# The file's score tags (formats.record.SCORE_TAGS), as column names.
_SCORE_COLUMNS = {
    "Score": "score",
    "ScoreIMP": "score_imp",
    "ScoreMP": "score_mp",
    "ScorePercentage": "score_percentage",
}

RECORD_COLUMNS: dict[str, str] = {
    "board": _WHOLE,
    "dealer": _TEXT,
    "vulnerability": _TEXT,
    "deal": _TEXT,
    "north": _TEXT,
    "east": _TEXT,
    "south": _TEXT,
    "west": _TEXT,
    "event": _TEXT,
    "home_team": _TEXT,
    "visit_team": _TEXT,
    "table": _TEXT,
    "room": _TEXT,
    "auction": _TEXT,
    "play": _TEXT,
    "claim": _WHOLE,
    "contract": _TEXT,
    "declarer": _TEXT,
    "passed_out": _FLAG,
    "result": _WHOLE,
    "adjusted": _FLAG,
    **dict.fromkeys(_SCORE_COLUMNS.values(), _TEXT),
    "dd_tricks": _TEXT,
    "optimum_score": _TEXT,
    "notes": _ANY,
    "match": _TEXT,
    "file": _TEXT,
    "line": _WHOLE,
    "problems": _ANY,
}
"""The columns of :func:`records_frame` and their pandas dtypes."""


def _row(record: BoardRecord) -> dict[str, Any]:
    contract = record.contract
    row: dict[str, Any] = {
        "board": record.board,
        "dealer": None if record.dealer_seat is None else record.dealer_seat.letter,
        "vulnerability": None if record.vulnerable is None else str(record.vulnerable),
        "deal": None if record.deal is None else record.deal.to_pbn(),
        **dict(zip(("north", "east", "south", "west"), record.players)),
        "event": record.event,
        "home_team": record.home_team,
        "visit_team": record.visit_team,
        "table": record.table,
        "room": record.room,
        # Alerted calls keep PBN's "!" so an analyst sees them in the sequence.
        "auction": None
        if record.auction is None
        else " ".join(call.call + ("!" if call.alerted else "") for call in record.auction),
        "play": None if record.play is None else " ".join(str(card) for card in record.play),
        "claim": record.claim,
        "contract": record.contract_text,
        "declarer": None
        if contract is None or contract.declarer is None
        else contract.declarer.letter,
        "passed_out": record.passed_out,
        "result": record.result,
        "adjusted": record.adjusted,
        **{column: record.score_tag(tag) for tag, column in _SCORE_COLUMNS.items()},
        "dd_tricks": record.dd_tricks,
        "optimum_score": record.optimum_score,
        "notes": dict(record.notes),
        "match": None if record.match is None else str(record.match),
        "file": record.source.file,
        "line": record.source.line or None,
        "problems": [str(problem) for problem in record.problems],
    }
    return row


def records_frame(records: Iterable[BoardRecord]) -> pd.DataFrame:
    """A DataFrame of ``records`` (what :func:`~bridgescore.formats.read_records` yields):
    one row per record, the columns of :data:`RECORD_COLUMNS` with their dtypes.

    Raises ``ImportError`` naming the extra (``pip install 'bridgescore[pandas]'``)
    without pandas, and :class:`~bridgescore.errors.ArgumentTypeError` for anything
    that is not a record.
    """
    pandas_module("records_frame")  # said before a whole file is read, not after
    if isinstance(records, str | bytes | BoardRecord):
        raise ArgumentTypeError(
            f"records_frame takes board records, got {type(records).__name__} "
            f"{str(records)[:60]!r}: pass read_records(path) or a list of BoardRecord"
        )
    rows = []
    for position, record in enumerate(records, 1):
        if not isinstance(record, BoardRecord):
            raise ArgumentTypeError(
                f"record {position} is {record!r}: expected a BoardRecord, as read_records gives"
            )
        rows.append(_row(record))
    return frame_of(rows, RECORD_COLUMNS, "records_frame")
