"""A scored event as pandas DataFrames (the pandas extra): :func:`ranking_frame` and
:func:`travellers_frame`, the same columns as the CSV reports, numbers as numbers.

>>> from bridgescore.session.scoring.event import Event, TableResult
>>> from bridgescore.session.scoring.scorer import score_event
>>> scored = score_event(Event("Club", "pairs", results=(
...     TableResult.played(1, "1", "2", "4SN="), TableResult.played(1, "3", "4", "4SN+1"))), "mp")
>>> ranking_frame(scored)[["name", "total"]].values.tolist()
[['3', 2.0], ['1', 0.0], ['2', 2.0], ['4', 0.0]]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bridgescore.display.frame import frame_of
from bridgescore.session.reports.text import line_dict
from bridgescore.session.scoring.display import players_text
from bridgescore.session.scoring.scored import SessionScore

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["RANKING_COLUMNS", "TRAVELLER_COLUMNS", "ranking_frame", "travellers_frame"]

RANKING_COLUMNS = {
    "rank": "string",
    "section": "string",
    "direction": "string",
    "name": "string",
    "players": "string",
    "boards": "int64",
    "total": "float64",
    "percent": "Float64",
    "average": "float64",
}
"""The columns of :func:`ranking_frame` and their pandas dtypes."""

TRAVELLER_COLUMNS = {
    "board": "int64",
    "section": "string",
    "ns": "string",
    "ew": "string",
    "kind": "string",
    "result": "string",
    "ns_score": "Int64",
    "ns_points": "Float64",
    "ew_points": "Float64",
    "ns_percent": "Float64",
    "ew_percent": "Float64",
    "imps_vs_par": "Int64",
    "note": "string",
    "top": "Float64",
    "datum": "Float64",
    "par": "Int64",
}
"""The columns of :func:`travellers_frame` and their pandas dtypes."""


def ranking_frame(session: SessionScore) -> pd.DataFrame:
    """The ranking, one row per pair or team in ranking order: rank (``"2="`` for a
    tie), section, direction (``""`` when ranked overall), name, players (``""``
    when the event does not know them), boards, total, percent (``<NA>`` unless
    the method ranks by percentage) and average per board."""
    rows: list[dict[str, Any]] = [
        {
            "rank": s.rank,
            "section": s.section,
            "direction": s.direction,
            "name": s.name,
            "players": players_text(session, s.section, s.name),
            "boards": s.boards,
            "total": s.total,
            "percent": s.percent,
            "average": s.average,
        }
        for s in session.standings
    ]
    return frame_of(rows, RANKING_COLUMNS, "ranking_frame")


def travellers_frame(session: SessionScore) -> pd.DataFrame:
    """Every traveller line, one row per result: the board, the pairs, the result as
    text (``4SN+1``, ``+450``, ``A+/A-``), NS's score and each side's points in the
    method's unit, and the board's top, datum and par where the method has them."""
    rows: list[dict[str, Any]] = [
        {
            "board": traveller.board.number,
            **line_dict(line),
            "note": line.note,
            "top": traveller.top,
            "datum": traveller.datum,
            "par": traveller.par,
        }
        for traveller in session.travellers
        for line in traveller.lines
    ]
    return frame_of(rows, TRAVELLER_COLUMNS, "travellers_frame")
