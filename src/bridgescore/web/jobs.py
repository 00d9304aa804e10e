"""The jobs ``serve`` runs in its solver's worker processes, and what they share with it.

A job is a module-level function of text (a PBN deal, a simulation as JSON) that returns
text or plain data, so nothing but short strings crosses the process boundary. A worker
imports the module that defines the job it is given, and this one imports no web
framework: a worker starts with the deal and solver modules and what its job needs
(0.17 s of CPU), not FastAPI and every route (0.6 s). :func:`warm_up` is what the
server runs in each worker as it starts.

>>> solve_pbn("N:KJ52.K7.T85.AJ87 A9863.Q3.Q3.T543 Q4.AJ862.J762.K2 T7.T954.AK94.Q96")
'87788877884655556555'
"""

from __future__ import annotations

import base64
import json
from html import escape
from typing import TYPE_CHECKING, Any

from bridgescore.errors import BridgeError, NotationError

if TYPE_CHECKING:
    from bridgescore.formats import BoardRecord

__all__ = [
    "FeatureMissing",
    "parse_record",
    "review_record",
    "run_simulation_json",
    "solve_pbn",
    "solve_tables",
    "warm_up",
]

_MEDIA_TYPES = {"png": "image/png", "svg": "image/svg+xml"}


class FeatureMissing(Exception):
    """A part of the package this route needs is not installed (answered with 503)."""


def parse_record(text: str) -> BoardRecord:
    """The board a deal field gives: a PBN deal, a LIN record or a handviewer link."""
    try:
        from bridgescore.deal import Deal
        from bridgescore.formats import BoardRecord, read_records
    except ImportError as error:
        raise FeatureMissing(f"deals are not available in this installation: {error}") from None
    try:
        return BoardRecord(deal=Deal.from_pbn(text))
    except BridgeError:
        if not _looks_like_lin(text):
            raise
    records = list(read_records(text=text, format="lin"))
    if len(records) != 1 or records[0].deal is None:
        problems = "; ".join(str(p) for record in records for p in record.problems)
        raise NotationError(
            f"expected one deal: the LIN text gives {len(records)} board(s)"
            + ("" if records and records[0].deal else " and no deal")
            + (f" ({problems})" if problems else "")
        )
    return records[0]


def _looks_like_lin(text: str) -> bool:
    from bridgescore.formats import detect_format

    try:
        return detect_format(None, text) == "lin"
    except BridgeError:
        return False


def solve_pbn(pbn: str) -> str:
    """Solve a PBN deal double-dummy and return the table as 20 hex digits."""
    # Imported here so the web app starts (and scores) without the DDS extra.
    from bridgescore.deal import Deal
    from bridgescore.solver import solve

    return str(solve(Deal.from_pbn(pbn)))


def solve_tables(deals: list[str]) -> list[str]:
    """DD tables of PBN deals, as hex text (an upload's boards that came without one)."""
    from bridgescore.solver import solve_many

    return [str(table) for table in solve_many(deals)]


def review_record(text: str) -> dict[str, Any]:
    """Review the one board of a LIN record or handviewer link: ``{"review", "html"}``, or
    ``{"skipped": reason}`` when it cannot be reviewed."""
    from bridgescore.postmortem.review import analyse, board_html

    review = analyse([parse_record(text)])
    if not review.boards:
        return {"skipped": review.skipped[0].reason if review.skipped else "no board"}
    board = review.boards[0]
    notes = [item.reason for item in (*review.skipped_plays, *review.misread)]
    html = str(board_html(board)) + "".join(f"<p>{escape(note)}</p>" for note in notes)
    return {"review": board.as_dict(), "html": html, "notes": notes}


def run_simulation_json(simulation_json: str, plot: str | None = None) -> str:
    """Run a simulation given as JSON text; the report as JSON text.

    With ``plot`` ("png" or "svg") the report also holds its plot as a ``data:`` URI,
    drawn here in the worker so the server's event loop never renders.
    """
    from bridgescore.simulation.run import run_simulation
    from bridgescore.simulation.spec import Simulation

    report, _ = run_simulation(Simulation.from_json(simulation_json))
    answer = report.as_dict()
    if plot is not None:
        from bridgescore.simulation.plot import render_report

        image = base64.b64encode(render_report(answer, "svg" if plot == "svg" else "png"))
        answer["plot"] = f"data:{_MEDIA_TYPES[plot]};base64,{image.decode('ascii')}"
    return json.dumps(answer)


def warm_up() -> bool:
    """Import the deal and solver modules in a worker; False when DDS is not installed."""
    try:
        import bridgescore.deal
        import bridgescore.solver  # noqa: F401
    except ImportError:
        return False
    return True
