"""Single-dummy lead advice beside double dummy: what each opening lead is worth when the
leader sees only their own hand.

The three hidden hands are dealt round the leader's hand (``bridgescore simulate``'s
dealing: a predeal of that hand, and a ``dealer`` condition for what the auction showed),
and each layout is solved double dummy for every card the leader may lead. For each lead:
declarer's mean tricks and the chance the contract is set, each with its standard error.
"""

from __future__ import annotations

from typing import Any

from bridgescore.dealer.dealing import fresh_seed
from bridgescore.distributed import default_workers
from bridgescore.postmortem.review import BoardReview
from bridgescore.simulation.run import simulate

__all__ = ["lead_simulation"]

_RANKS = "23456789TJQKA"


def lead_simulation(
    board: BoardReview,
    layouts: int,
    *,
    where: str = "",
    seed: int | None = None,
    processes: int | None = None,
    scheduler: Any = None,
) -> dict[str, Any] | None:
    """``{"layouts", "seed", "where", "leads": {CARD: {"tricks", "tricks_se", "set",
    "set_se"}}}`` for the board's contract and opening leader (``None`` for a board
    without a contract). ``tricks`` are declarer's mean tricks after the lead, ``set``
    the share of layouts where the contract goes down. ``seed`` (a fresh one when
    ``None``, reported) gives the same layouts again; the layouts are solved in
    ``processes`` worker processes (all cores by default) or on a Dask ``scheduler``."""
    contract, lead = board.contract, board.lead
    if contract is None or lead is None or contract.declarer is None:
        return None
    chosen = fresh_seed() if seed is None else seed
    leader = lead.seat
    result = simulate(
        layouts,
        seed=chosen,
        contract=f"{contract.level}{contract.strain}",
        by=contract.declarer,
        where=where,
        predeal=[f"{leader.letter}={board.deal.hands[leader]}"],
        vul=board.vulnerability,
        lead=leader,
        processes=default_workers() if processes is None else processes,
        scheduler=scheduler,
    )
    table = result["leads"][0]["cards"]
    leads: dict[str, dict[str, float]] = {}
    for group in table:
        suit, ranks = group["cards"][0], group["cards"][1:]
        for rank in ranks:
            leads[suit + rank] = {
                "tricks": 13 - float(group["mean_tricks"]),
                "tricks_se": float(group["mean_tricks_se"]),
                "set": float(group["beat"]),
                "set_se": float(group["beat_se"]),
            }
    order = sorted(leads, key=lambda card: ("CDHS".index(card[0]), _RANKS.index(card[1])))
    return {
        "layouts": layouts,
        "seed": chosen,
        "where": where,
        "leads": {card: leads[card] for card in order},
    }
