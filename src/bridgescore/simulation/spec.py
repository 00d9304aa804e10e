"""What a simulation asks for, as plain data: deals, contracts, vulnerability, lead.

A :class:`Simulation` travels to worker processes and Dask workers as JSON text
(:meth:`Simulation.to_json`), never as pickled code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from bridgescore.core import Contract, Seat, Vulnerability
from bridgescore.dealer.dealing import DealSpec
from bridgescore.errors import NotationError
from bridgescore.validate import whole_number_arg

__all__ = ["Simulation", "contract_label", "parse_contracts"]


def contract_label(contract: Contract) -> str:
    """``4S by S``: the contract and its declarer."""
    bare = Contract(contract.level, contract.strain, contract.doubling)
    return f"{bare} by {contract.declarer.letter if contract.declarer is not None else '?'}"


def parse_contracts(contracts: list[str], declarers: list[str]) -> tuple[Contract, ...]:
    """Pair each ``--contract`` with its ``--by`` (or a declarer written in the contract).

    >>> [str(c) for c in parse_contracts(["4S", "3NTN"], ["S"])]
    ['4SS', '3NTN']
    """
    if not contracts:
        raise NotationError(
            "no contract given: expected at least one, such as --contract 4S --by S"
        )
    by = list(declarers)
    if len(by) > len(contracts):
        # A --by with no --contract of its own would be dropped without a word.
        raise NotationError(
            f"{len(by)} --by for {len(contracts)} --contract: each --by names the declarer "
            f"of one --contract in turn (got --by {' '.join(by)})"
        )
    parsed = []
    for position, text in enumerate(contracts):
        contract = Contract.parse(text)
        if contract.declarer is None:
            if position >= len(by):
                raise NotationError(
                    f"contract {text!r} has no declarer: add --by N, E, S or W after it"
                )
            declarer = Seat.parse(by[position])
            contract = Contract(contract.level, contract.strain, contract.doubling, declarer)
        parsed.append(contract)
    return tuple(parsed)


@dataclass(frozen=True, slots=True)
class Simulation:
    """Deals (count, seed, condition, predeals) and the contracts to solve on them.

    ``lead`` is the opening leader whose every card is solved (DDS all-cards
    search) for each contract he leads against; ``par`` adds full tables and the
    par score (neutral convention) of each deal.
    """

    deals: int
    seed: int
    contracts: tuple[Contract, ...]
    where: str = ""
    predeal: tuple[str, ...] = field(default=())
    vulnerability: Vulnerability = Vulnerability.NONE
    lead: Seat | None = None
    par: bool = False

    def __post_init__(self) -> None:
        whole_number_arg(self.deals, "deal count", 1, error=NotationError)
        whole_number_arg(self.seed, "seed", 0, error=NotationError)
        if not self.contracts or any(c.declarer is None for c in self.contracts):
            raise NotationError("every contract needs a declarer (--contract 4S --by S)")
        if self.lead is not None and not self.lead_contracts():
            shown = ", ".join(contract_label(c) for c in self.contracts)
            raise NotationError(
                f"{self.lead.name.title()} is not on lead against any of {shown}: the opening "
                "leader sits on declarer's left"
            )

    @property
    def deal_spec(self) -> DealSpec:
        return DealSpec(self.where, self.predeal)

    def lead_contracts(self) -> list[int]:
        """Positions of the contracts that ``lead`` leads against."""
        if self.lead is None:
            return []
        return [
            i
            for i, contract in enumerate(self.contracts)
            if contract.declarer is not None and contract.declarer.rotate(1) == self.lead
        ]

    def to_json(self) -> str:
        return json.dumps(
            {
                "deals": self.deals,
                "seed": self.seed,
                "contracts": [str(c) for c in self.contracts],
                "where": self.where,
                "predeal": list(self.predeal),
                "vulnerability": self.vulnerability.name,
                "lead": None if self.lead is None else self.lead.letter,
                "par": self.par,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> Simulation:
        data = json.loads(text)
        return cls(
            deals=int(data["deals"]),
            seed=int(data["seed"]),
            contracts=tuple(Contract.parse(c) for c in data["contracts"]),
            where=str(data.get("where", "")),
            predeal=tuple(data.get("predeal", [])),
            vulnerability=Vulnerability[data.get("vulnerability", "NONE")],
            lead=None if data.get("lead") is None else Seat.parse(data["lead"]),
            par=bool(data.get("par", False)),
        )
