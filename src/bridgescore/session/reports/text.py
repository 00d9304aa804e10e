"""Reports of a scored event: plain-text tables, JSON-ready dicts and CSV.

>>> from bridgescore.session.scoring.event import Event, TableResult
>>> from bridgescore.session.scoring.scorer import score_event
>>> event = Event("Club", "pairs", results=(
...     TableResult.played(1, "1", "2", "4SN="), TableResult.played(1, "3", "4", "4SN+1")))
>>> print(ranking_text(score_event(event, "mp")).splitlines()[0])
Club - matchpoints
"""

from __future__ import annotations

import csv
import io
from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import Any

from bridgescore.session.reports.travellers import traveller_table
from bridgescore.session.scoring.display import figure, fmt, ranking_tables, report_title
from bridgescore.session.scoring.event import Member, players_of
from bridgescore.session.scoring.matches import match_headers, match_rows
from bridgescore.session.scoring.scored import Line, ScoredBoard, SessionScore, Standing

__all__ = [
    "as_dict",
    "line_dict",
    "ranking_csv",
    "ranking_text",
    "traveller_dict",
    "traveller_text",
    "travellers_csv",
    "travellers_text",
]


def _table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], right: Collection[int]
) -> list[str]:
    widths = [len(h) for h in headers]
    for row in rows:
        widths = [max(w, len(cell)) for w, cell in zip(widths, row, strict=True)]

    def render(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.rjust(w) if i in right else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return [render(headers), render(["-" * w for w in widths]), *(render(r) for r in rows)]


def ranking_text(session: SessionScore) -> str:
    """The ranking as text tables (one per direction in a Mitchell movement)."""
    lines = [report_title(session)]
    for table in ranking_tables(session):
        lines += ["", table.caption]
        lines.extend(_table(table.headers, table.rows, table.numeric))
    if session.matches:
        lines += ["", "Matches"]
        headers = match_headers(session.matches)
        lines.extend(_table(headers, match_rows(session.matches), {3, 4}))
    for note in session.notes:
        lines.append(f"note: {note}")
    return "\n".join(lines)


def traveller_text(session: SessionScore, traveller: ScoredBoard) -> str:
    """One board's traveller: a line about the board, then its table."""
    table = traveller_table(session, traveller)
    head = "  ".join((table.title, *table.about))
    return "\n".join([head, *_table(table.headers, table.rows, table.numeric)])


def travellers_text(session: SessionScore) -> str:
    return "\n\n".join(traveller_text(session, t) for t in session.travellers)


# ----------------------------------------------------------------------- JSON


def line_dict(line: Line) -> dict[str, Any]:
    """One traveller line as JSON: the pairs, the result, the score and each side's points
    (the JSON report's and :func:`~bridgescore.session.reports.frames.travellers_frame`'s)."""
    result = line.result
    return {
        "ns": result.ns,
        "ew": result.ew,
        "section": result.section,
        "variant": result.variant,
        "kind": result.kind,
        "result": result.describe(),
        "ns_score": line.ns_score,
        # Each figure as the traveller shows it (figure: rounded once).
        "ns_points": figure(line.ns),
        "ew_points": figure(line.ew),
        "ns_percent": figure(line.ns_percent),
        "ew_percent": figure(line.ew_percent),
        "imps_vs_par": figure(line.imps_vs_par),
    }


def traveller_dict(traveller: ScoredBoard) -> dict[str, Any]:
    """One board's traveller as JSON (the JSON report's, and the live session's
    ``GET /api/live/traveller/{board}``): the board, its deal and double-dummy table
    when known (``dd_table``: ``{"N": {"NT": 7, "S": 8, ...}, ...}``), par, and each
    line (:func:`line_dict`, with the ``contract`` and ``declarer`` of a played one)."""
    board = traveller.board
    return {
        "board": board.number,
        "section": traveller.section,
        "dealer": board.dealer.letter,
        "vulnerability": board.vulnerability.to_pbn(),
        "deal": None if board.deal is None else board.deal.to_pbn(),
        "dd_table": None if board.dd_table is None else board.dd_table.as_dict(),
        "top": figure(traveller.top),
        "datum": figure(traveller.datum),
        "par": traveller.par,
        "par_contracts": traveller.par_text or None,
        "results": [{**line_dict(line), **_played_by(line)} for line in traveller.lines],
    }


def _played_by(line: Line) -> dict[str, str | None]:
    # The contract without its declarer (4SX) and the declarer apart, as a table enters them.
    played = line.result.result
    contract = None if played is None else played.contract
    if contract is None:
        return {"contract": "PASS" if played is not None else None, "declarer": None}
    declarer = contract.declarer
    undeclared = replace(contract, declarer=None)
    return {"contract": str(undeclared), "declarer": None if declarer is None else declarer.letter}


def _standing_dict(standing: Standing, members: tuple[Member, ...] | None = None) -> dict[str, Any]:
    """A standing as JSON; ``players`` only for an event that knows its players."""
    data: dict[str, Any] = {
        "rank": standing.rank,
        "name": standing.name,
        "section": standing.section,
        "direction": standing.direction or None,
        # Each figure as the ranking shows it (figure: rounded once).
        "total": figure(standing.total),
        "boards": standing.boards,
        "percent": figure(standing.percent),
        "average": figure(standing.average),
    }
    if members is not None:
        data["players"] = [{"name": m.name, "number": m.number or None} for m in members]
    return data


def as_dict(session: SessionScore, *, travellers: bool = True) -> dict[str, Any]:
    """Everything, ready for ``json.dumps``; without ``"travellers"`` (and without
    drawing them) when ``travellers`` is false: the ranking ``session score --json``
    prints."""
    options = session.options
    return {
        "event": session.name,
        "kind": session.kind,
        "method": session.method,
        "unit": session.unit,
        "ranking_unit": session.ranking_unit,
        "options": {
            "scale": options.scale,
            "neuberg": options.neuberg,
            "per_section": options.per_section,
            "butler_exclude": options.exclude,
            "butler_rounding": options.rounding,
            "cross_imps_divide": options.divide,
            "session_percentage": options.session_percentage,
            "adjusted_imps": options.adjusted_imps,
        },
        "ranking": [
            _standing_dict(
                s, players_of(session.members, s.section, s.name) if session.members else None
            )
            for s in session.standings
        ],
        **({"travellers": [traveller_dict(t) for t in session.travellers]} if travellers else {}),
        "notes": list(session.notes),
        **(
            {"matches": [m.as_dict() for m in session.matches]}
            if session.ranking_unit == "VP"
            else {}
        ),
    }


# ------------------------------------------------------------------------ CSV


def ranking_csv(session: SessionScore) -> str:
    """The ranking as CSV: rank, section, direction, name, boards, total, percent, average."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["rank", "section", "direction", "name", "boards", "total", "percent", "average"]
    )
    for s in session.standings:
        writer.writerow(
            [
                s.rank,
                s.section,
                s.direction,
                s.name,
                s.boards,
                fmt(s.total),
                fmt(s.percent),
                fmt(s.average),
            ]
        )
    return out.getvalue()


def travellers_csv(session: SessionScore) -> str:
    """Every traveller line as CSV."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            "board",
            "section",
            "ns",
            "ew",
            "result",
            "ns_score",
            "ns_points",
            "ew_points",
            "ns_percent",
            "imps_vs_par",
        ]
    )
    for t in session.travellers:
        for line in t.lines:
            writer.writerow(
                [
                    t.board.number,
                    line.result.section,
                    line.result.ns,
                    line.result.ew,
                    line.result.describe(),
                    line.ns_score,
                    fmt(line.ns),
                    fmt(line.ew),
                    fmt(line.ns_percent),
                    line.imps_vs_par,
                ]
            )
    return out.getvalue()
