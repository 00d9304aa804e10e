"""Simulation reports: tricks, make %, scores, comparisons and leads, each with a standard error.

All statistics are means over deals; the standard error of a mean is the sample
standard deviation over the square root of the number of deals (for a
proportion p: sqrt(p (1 - p) / n)).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from bridgescore.compare.array import imps_array
from bridgescore.core import Contract, Side
from bridgescore.display.frame import frame_of
from bridgescore.errors import InvalidArgumentError
from bridgescore.scoring import score_array
from bridgescore.simulation.spec import Simulation, contract_label

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["FRAME_COLUMNS", "Report", "SimulationResult", "build_report"]

SimulationTable = Literal["contracts", "comparisons", "leads"]

FRAME_COLUMNS: dict[str, dict[str, str]] = {
    "contracts": {
        "contract": "string",
        "declarer": "string",
        "make": "float64",
        "make_se": "float64",
        "mean_tricks": "float64",
        "mean_tricks_se": "float64",
        "mean_score": "float64",
        "mean_score_se": "float64",
        **{f"tricks_{n}": "int64" for n in range(14)},
    },
    "comparisons": {
        "first": "string",
        "second": "string",
        "imps": "float64",
        "imps_se": "float64",
        "first_better": "float64",
        "first_better_se": "float64",
        "equal": "float64",
        "second_better": "float64",
        "matchpoints": "float64",
        "matchpoints_se": "float64",
    },
    "leads": {
        "contract": "string",
        "declarer": "string",
        "leader": "string",
        "cards": "string",
        "deals": "int64",
        "mean_tricks": "float64",
        "mean_tricks_se": "float64",
        "beat": "float64",
        "beat_se": "float64",
    },
}
"""The columns of each table :meth:`SimulationResult.to_frame` gives, with their dtypes."""


class SimulationResult(dict[str, Any]):
    """What :func:`bridgescore.simulate` returns: the ``--json`` object of ``bridgescore
    simulate`` (a plain ``dict`` in every other way), which shows itself as tables in a
    notebook and becomes a DataFrame with :meth:`to_frame`."""

    def _repr_html_(self) -> str:
        from bridgescore.simulation.display import simulation_html

        return simulation_html(self)

    def to_frame(self, table: SimulationTable = "contracts") -> pd.DataFrame:
        """One of the result's tables as a DataFrame (the pandas extra):

        - ``contracts``: one row per contract; make, tricks and score means with their
          standard errors, and ``tricks_0`` .. ``tricks_13`` the deals on which
          declarer took that many tricks;
        - ``comparisons``: one row per pair of contracts;
        - ``leads``: one row per opening lead (cards equal on every deal together)
          against each contract, best first.
        """
        columns = FRAME_COLUMNS.get(table) if isinstance(table, str) else None
        if columns is None:
            raise InvalidArgumentError(
                f"simulation table {table!r}: expected 'contracts', 'comparisons' or 'leads'"
            )
        rows: list[dict[str, Any]]
        if table == "contracts":
            rows = [
                {**entry, **{f"tricks_{n}": count for n, count in enumerate(entry["tricks"])}}
                for entry in self["contracts"]
            ]
        elif table == "comparisons":
            rows = list(self.get("comparisons", ()))
        else:
            rows = [
                {
                    **card,
                    "contract": lead["contract"],
                    "declarer": lead["declarer"],
                    "leader": lead["leader"],
                }
                for lead in self.get("leads", ())
                for card in lead["cards"]
            ]
        return frame_of(rows, columns, "SimulationResult.to_frame")


def _mean_se(values: npt.NDArray[Any]) -> tuple[float, float]:
    n = values.size
    if n == 0:
        return float("nan"), float("nan")
    mean = float(values.mean())
    se = float(values.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    return mean, se


def declarer_scores(
    contract: Contract, tricks: npt.NDArray[np.int8], vulnerable: bool
) -> npt.NDArray[np.int32]:
    """Declarer's score on each deal, from the tricks taken."""
    result = tricks.astype(np.int32) - (contract.level + 6)
    return score_array(
        contract.level, int(contract.strain), int(contract.doubling), result, vulnerable
    )


@dataclass(slots=True)
class Report:
    """A simulation's results as plain data (see :meth:`as_dict` for the JSON shape)."""

    simulation: Simulation
    deals: int
    contracts: list[dict[str, Any]] = field(default_factory=list)
    comparisons: list[dict[str, Any]] = field(default_factory=list)
    leads: list[dict[str, Any]] = field(default_factory=list)
    par: dict[str, Any] | None = None
    interrupted: bool = False

    def as_dict(self) -> SimulationResult:
        """The JSON object (``bridgescore simulate --json``), as a :class:`SimulationResult`."""
        sim = self.simulation
        data = SimulationResult(
            {
                "deals": self.deals,
                "seed": sim.seed,
                "where": sim.where,
                "predeal": list(sim.predeal),
                "vulnerability": str(sim.vulnerability),
                "interrupted": self.interrupted,
                "contracts": self.contracts,
            }
        )
        if self.comparisons:
            data["comparisons"] = self.comparisons
        if sim.lead is not None:
            data["leads"] = self.leads
        if self.par is not None:
            data["par"] = self.par
        return data

    def _repr_html_(self) -> str:
        return self.as_dict()._repr_html_()


def _contract_summary(
    contract: Contract, tricks: npt.NDArray[np.int8], scores: npt.NDArray[np.int32]
) -> dict[str, Any]:
    assert contract.declarer is not None
    made = (tricks >= contract.level + 6).astype(float)
    make, make_se = _mean_se(made)
    mean_tricks, tricks_se = _mean_se(tricks.astype(float))
    mean_score, score_se = _mean_se(scores.astype(float))
    return {
        "contract": str(Contract(contract.level, contract.strain, contract.doubling)),
        "declarer": contract.declarer.letter,
        "tricks": np.bincount(tricks, minlength=14).tolist(),
        "make": make,
        "make_se": make_se,
        "mean_tricks": mean_tricks,
        "mean_tricks_se": tricks_se,
        "mean_score": mean_score,
        "mean_score_se": score_se,
    }


def _comparison(
    a: Contract, b: Contract, ns_a: npt.NDArray[np.int32], ns_b: npt.NDArray[np.int32]
) -> dict[str, Any]:
    difference = ns_a.astype(np.int64) - ns_b
    # Seen from the side declaring the first contract: + means the first is better for it.
    assert a.declarer is not None
    sign = 1 if a.declarer.side is Side.NS else -1
    difference = sign * difference
    net_imps, imps_se = _mean_se(imps_array(difference).astype(float))
    better, better_se = _mean_se((difference > 0).astype(float))
    equal, _ = _mean_se((difference == 0).astype(float))
    worse, _ = _mean_se((difference < 0).astype(float))
    points = (difference > 0) + 0.5 * (difference == 0)
    matchpoints, matchpoints_se = _mean_se(points.astype(float))
    return {
        "first": contract_label(a),
        "second": contract_label(b),
        "imps": net_imps,
        "imps_se": imps_se,
        "first_better": better,
        "first_better_se": better_se,
        "equal": equal,
        "second_better": worse,
        "matchpoints": matchpoints,
        "matchpoints_se": matchpoints_se,
    }


def _card_names(cards: list[int]) -> str:
    ranks = "23456789TJQKA"
    suit = "CDHS"[cards[0] // 13]
    return suit + "".join(ranks[c % 13] for c in sorted(cards, reverse=True))


def _lead_table(contract: Contract, defence: npt.NDArray[np.int8]) -> list[dict[str, Any]]:
    """Per card (cards equal on every deal grouped): mean defence tricks and % beating."""
    needed = 14 - (contract.level + 6)  # defence tricks that beat the contract
    groups: dict[bytes, list[int]] = {}
    for card in range(52):
        column = defence[:, card]
        if (column < 0).all():
            continue
        # Equal cards: same suit and the same value on every deal (DDS's "equals").
        key = bytes([card // 13]) + column.tobytes()
        groups.setdefault(key, []).append(card)
    rows = []
    for cards in groups.values():
        column = defence[:, cards[0]]
        held = column >= 0
        values = column[held].astype(float)
        mean, mean_se = _mean_se(values)
        beat, beat_se = _mean_se((values >= needed).astype(float))
        rows.append(
            {
                "cards": _card_names(cards),
                "deals": int(held.sum()),
                "mean_tricks": mean,
                "mean_tricks_se": mean_se,
                "beat": beat,
                "beat_se": beat_se,
            }
        )
    rows.sort(key=_lead_order)
    return rows


def _lead_order(row: dict[str, Any]) -> tuple[float, float, str]:
    # Best lead first: most often beating the contract, then most tricks.
    return (-float(row["beat"]), -float(row["mean_tricks"]), str(row["cards"]))


def build_report(
    simulation: Simulation,
    tricks: npt.NDArray[np.int8],
    leads: npt.NDArray[np.int8],
    pars: npt.NDArray[np.int32] | None = None,
    *,
    interrupted: bool = False,
) -> Report:
    """The report of ``tricks`` (deals x contracts) and ``leads`` (deals x lead contracts x 52)."""
    report = Report(simulation, int(tricks.shape[0]), interrupted=interrupted)
    ns_scores = []
    for column, contract in enumerate(simulation.contracts):
        assert contract.declarer is not None
        vulnerable = simulation.vulnerability.is_vulnerable(contract.declarer)
        scores = declarer_scores(contract, tricks[:, column], vulnerable)
        report.contracts.append(_contract_summary(contract, tricks[:, column], scores))
        ns_scores.append(scores if contract.declarer.side is Side.NS else -scores)
    for i, a in enumerate(simulation.contracts):
        for j in range(i + 1, len(simulation.contracts)):
            b = simulation.contracts[j]
            report.comparisons.append(_comparison(a, b, ns_scores[i], ns_scores[j]))
    for column, position in enumerate(simulation.lead_contracts()):
        contract = simulation.contracts[position]
        assert contract.declarer is not None and simulation.lead is not None
        report.leads.append(
            {
                "contract": str(Contract(contract.level, contract.strain, contract.doubling)),
                "declarer": contract.declarer.letter,
                "leader": simulation.lead.letter,
                "cards": _lead_table(contract, leads[:, column]),
            }
        )
    if simulation.par and pars is not None:
        mean, se = _mean_se(pars.astype(float))
        values, counts = np.unique(pars, return_counts=True)
        # Par scores are North-South's view; keys are the scores as text (JSON objects).
        report.par = {
            "mean": mean,
            "mean_se": se,
            "scores": {str(int(v)): int(c) for v, c in zip(values, counts, strict=True)},
        }
    return report
