"""A simulation's results in a notebook: the ``_repr_html_`` of
:class:`~bridgescore.simulation.report.SimulationResult` (what ``bs.simulate`` returns).

Tables of the contracts (make, tricks, score), the comparisons and the best opening
leads, each figure with its standard error, as ``bridgescore simulate`` prints them.
It reads the result's JSON shape (:meth:`~bridgescore.simulation.report.Report.as_dict`),
so it needs nothing of the report module.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from bridgescore.core import Contract, Strain
from bridgescore.display.markup import Markup, contract_html, strain_html, table_html, text_html

__all__ = ["simulation_html"]

_SUITS = {"S": Strain.SPADES, "H": Strain.HEARTS, "D": Strain.DIAMONDS, "C": Strain.CLUBS}


def _figure(value: float, se: float, *, percent: bool = False, digits: int = 2) -> str:
    """``62.5% ± 7.7`` or ``9.38 ± 0.41``; the ± part left out when there is no error
    (a single deal)."""
    if math.isnan(value):
        return ""
    scale = 100.0 if percent else 1.0
    places = 1 if percent else digits
    text = f"{value * scale:.{places}f}{'%' if percent else ''}"
    return text if math.isnan(se) else f"{text} ± {se * scale:.{places}f}"


def _contract(entry: Mapping[str, Any]) -> Markup:
    return Markup(f"{contract_html(Contract.parse(entry['contract']))} by {entry['declarer']}")


def _cards(text: str) -> Markup:
    """A lead's cards (``HKQ``: the king or queen of hearts) with the suit's symbol."""
    return Markup(f"{strain_html(_SUITS[text[0]])}{text_html(text[1:])}")


def simulation_html(data: Mapping[str, Any]) -> Markup:
    """The result as tables; every text escaped, no scripts."""
    heading = [f"{data['deals']:,} deals", f"seed {data['seed']}", f"vul {data['vulnerability']}"]
    if data.get("where"):
        heading.append(f"where {data['where']}")
    if data.get("predeal"):
        heading.append("predeal " + " ".join(data["predeal"]))
    if data.get("interrupted"):
        heading.append("interrupted")
    parts = [f"<div><b>Simulation</b>: {text_html(', '.join(heading))}</div>"]
    rows = [
        [
            _contract(entry),
            _figure(entry["make"], entry["make_se"], percent=True),
            _figure(entry["mean_tricks"], entry["mean_tricks_se"]),
            _figure(entry["mean_score"], entry["mean_score_se"], digits=0),
        ]
        for entry in data["contracts"]
    ]
    headers = ["Contract", "Makes", "Tricks", "Score (declarer)"]
    parts.append(table_html(headers, rows, numeric={1, 2, 3}))
    if data.get("comparisons"):
        rows = [
            [
                entry["first"],
                entry["second"],
                _figure(entry["imps"], entry["imps_se"]),
                _figure(entry["first_better"], entry["first_better_se"], percent=True),
                _figure(entry["equal"], math.nan, percent=True),
                _figure(entry["second_better"], math.nan, percent=True),
                _figure(entry["matchpoints"], entry["matchpoints_se"], percent=True),
            ]
            for entry in data["comparisons"]
        ]
        headers = ["First", "Second", "IMPs", "First better", "Equal", "Second better", "MP"]
        parts.append(table_html(headers, rows, numeric=set(range(2, 7)), caption="Comparisons"))
    for lead in data.get("leads", ()):
        rows = [
            [
                _cards(card["cards"]),
                f"{card['deals']:,}",
                _figure(card["mean_tricks"], card["mean_tricks_se"]),
                _figure(card["beat"], card["beat_se"], percent=True),
            ]
            for card in lead["cards"]
        ]
        caption = Markup(f"Opening leads by {text_html(lead['leader'])} against {_contract(lead)}")
        headers = ["Lead", "Deals", "Defence tricks", "Beats it"]
        parts.append(table_html(headers, rows, numeric={1, 2, 3}, caption=caption))
    if data.get("par") is not None:
        par = data["par"]
        figure = _figure(par["mean"], par["mean_se"], digits=0)
        parts.append(f"<div>Par (NS): {text_html(figure)}</div>")
    return Markup('<div class="bridgescore simulation">' + "".join(parts) + "</div>")
