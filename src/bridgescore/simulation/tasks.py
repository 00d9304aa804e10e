"""The unit of work of a simulation: one slice of one dealing chunk, dealt and solved.

:func:`solve_slice` is a plain function of text and numbers, so a process pool and
a Dask cluster run the same thing and get plain numpy arrays back; nothing is
written on workers. A worker keeps its last dealt chunk, so the slices of one
chunk it receives in turn are dealt once.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from bridgescore.core import Seat, Strain
from bridgescore.dealer.dealing import DEALS_PER_CHUNK, DealSpec, deal_chunk
from bridgescore.simulation.spec import Simulation

__all__ = ["SLICE", "SliceResult", "SliceTask", "plan_slices", "solve_slice"]

SLICE = 500
"""Deals per task: small enough for a lively progress bar and a cheap Ctrl-C."""


@dataclass(frozen=True, slots=True)
class SliceTask:
    """Deals ``start .. stop - 1`` of dealing chunk ``chunk`` (of ``size`` deals)."""

    chunk: int
    size: int
    start: int
    stop: int


@dataclass(frozen=True, slots=True)
class SliceResult:
    """What a worker sends back: the deals and their double-dummy answers."""

    task: SliceTask
    owners: npt.NDArray[np.int8]  # (n, 52)
    tricks: npt.NDArray[np.int8]  # (n, contracts): declarer's tricks
    leads: npt.NDArray[np.int8]  # (n, lead contracts, 52): defence tricks per card, -1 if not held
    par: npt.NDArray[np.int32]  # (n,) par scores (NS's view) when asked, else (0,)


def plan_slices(deals: int) -> list[SliceTask]:
    """The slices of ``deals`` deals, in deal order."""
    tasks: list[SliceTask] = []
    for chunk, first in enumerate(range(0, deals, DEALS_PER_CHUNK)):
        size = min(DEALS_PER_CHUNK, deals - first)
        tasks.extend(
            SliceTask(chunk, size, start, min(start + SLICE, size))
            for start in range(0, size, SLICE)
        )
    return tasks


@lru_cache(maxsize=2)
def _chunk(spec_json: str, seed: int, chunk: int, size: int) -> npt.NDArray[np.int8]:
    owners, _ = deal_chunk(DealSpec.from_json(spec_json), seed, chunk, size)
    owners.setflags(write=False)
    return owners


def solve_slice(simulation_json: str, task: SliceTask, threads: int | None = 1) -> SliceResult:
    """Deal the slice (from its chunk, as ``deal`` does) and solve what the simulation asks."""
    from bridgescore.distributed import hold
    from bridgescore.solver import declarer_tricks, lead_tricks

    # The test hook (see bridgescore.distributed); a slice is named by its first deal.
    hold("chunk-started", task.chunk * DEALS_PER_CHUNK + task.start)
    simulation = Simulation.from_json(simulation_json)
    owners = _chunk(simulation.deal_spec.to_json(), simulation.seed, task.chunk, task.size)
    part = np.ascontiguousarray(owners[task.start : task.stop])
    # Each strain and declarer is solved once, however many levels are asked. Where the
    # leader's table is solved, it gives declarer's tricks too (13 less the defence's
    # best lead), so the one solve serves both and the simulation solves no deal twice.
    lead_positions = simulation.lead_contracts()
    by_lead: dict[tuple[Strain, Seat], npt.NDArray[np.int8]] = {}
    for position in lead_positions:
        contract = simulation.contracts[position]
        assert contract.declarer is not None
        key = (contract.strain, contract.declarer)
        if key not in by_lead:
            by_lead[key] = lead_tricks(part, *key, threads=threads)
    by_declarer: dict[tuple[Strain, Seat], npt.NDArray[np.int8]] = {}
    for contract in simulation.contracts:
        if contract.declarer is None:
            continue
        key = (contract.strain, contract.declarer)
        if key in by_declarer:
            continue
        if key in by_lead:
            by_declarer[key] = (13 - by_lead[key].max(axis=1)).astype(np.int8)
        else:
            by_declarer[key] = declarer_tricks(part, *key, threads=threads)
    tricks = np.stack(
        [
            by_declarer[(contract.strain, contract.declarer)]
            for contract in simulation.contracts
            if contract.declarer is not None
        ],
        axis=1,
    )
    leads = np.empty((part.shape[0], len(lead_positions), 52), dtype=np.int8)
    for column, position in enumerate(lead_positions):
        contract = simulation.contracts[position]
        assert contract.declarer is not None
        leads[:, column] = by_lead[(contract.strain, contract.declarer)]
    par = np.empty(0, dtype=np.int32)
    if simulation.par:
        from bridgescore.deal import Deal
        from bridgescore.pararray import par_array
        from bridgescore.solver import solve_many

        tables = solve_many([Deal.from_array(row) for row in part], threads=threads)
        stacked = np.stack([table.to_array() for table in tables])
        par = par_array(stacked, simulation.vulnerability)
    return SliceResult(task, part, tricks, leads, par)
