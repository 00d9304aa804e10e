"""Running a simulation: slices dealt and solved (here, on a pool or on Dask), then the report."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np

from bridgescore.core import Contract, Seat, Vulnerability
from bridgescore.distributed import run_ordered, worker_count
from bridgescore.simulation.report import Report, SimulationResult, build_report
from bridgescore.simulation.spec import Simulation, parse_contracts
from bridgescore.simulation.tasks import SliceResult, plan_slices, solve_slice
from bridgescore.validate import enum_arg

__all__ = ["run_simulation", "simulate"]

Progress = Callable[[int, int], None]


def run_simulation(
    simulation: Simulation,
    *,
    processes: int = 1,
    scheduler: Any = None,
    progress: Progress | None = None,
    keep_deals: bool = False,
) -> tuple[Report, list[SliceResult]]:
    """Deal and solve ``simulation``; return its report (and the slices if ``keep_deals``).

    ``processes`` worker processes (0: one per core; 1: this process, DDS on every
    core) or a Dask ``scheduler``. ``progress(done, total)`` after each slice.
    Ctrl-C stops the run: the report covers the deals finished, marked interrupted.
    """
    tasks = plan_slices(simulation.deals)
    # No more processes than slices: a run of one slice (500 deals or fewer) is solved
    # here, DDS on every core, not by one worker of a pool on one thread while the other
    # cores wait (300 layouts of a lead simulation: 7.3 s here, 15.1 s on a pool of two).
    workers = worker_count(processes)
    if scheduler is None:
        workers = max(1, min(workers, len(tasks)))
    # One process: DDS spreads each batch over all cores; several: one thread each.
    threads = None if workers <= 1 and scheduler is None else 1
    function = partial(solve_slice, simulation.to_json(), threads=threads)
    tricks, leads, pars, kept = [], [], [], []
    done = 0
    interrupted = False
    results = run_ordered(function, tasks, workers=workers, scheduler=scheduler)
    try:
        for result in results:
            tricks.append(result.tricks)
            leads.append(result.leads)
            pars.append(result.par)
            if keep_deals:
                kept.append(result)
            done += result.tricks.shape[0]
            if progress is not None:
                progress(done, simulation.deals)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        results.close()
    contracts = len(simulation.contracts)
    all_tricks = np.concatenate(tricks) if tricks else np.empty((0, contracts), np.int8)
    all_leads = (
        np.concatenate(leads)
        if leads
        else np.empty((0, len(simulation.lead_contracts()), 52), np.int8)
    )
    all_pars = np.concatenate(pars) if pars else np.empty(0, np.int32)
    report = build_report(simulation, all_tricks, all_leads, all_pars, interrupted=interrupted)
    return report, kept


def simulate(
    deals: int,
    *,
    seed: int,
    contract: Sequence[str | Contract] | str | Contract,
    by: Sequence[str | Seat] | str | Seat = (),
    where: str = "",
    predeal: Sequence[str] | str = (),
    vul: str | Vulnerability = Vulnerability.NONE,
    lead: str | Seat | None = None,
    par: bool = False,
    processes: int = 1,
    scheduler: Any = None,
    progress: Progress | None = None,
) -> SimulationResult:
    """Deal ``deals`` deals as :func:`bridgescore.deal_many` and solve the contracts on them.

    Same arguments as ``bridgescore simulate``; the result is its ``--json`` object:
    ``contracts`` (trick distribution, make, mean tricks and score, with standard
    errors), ``comparisons`` of each pair of contracts and ``leads`` when ``lead`` is set.
    In a notebook it shows as tables, and ``result.to_frame()`` makes a DataFrame of it
    (:class:`~bridgescore.simulation.report.SimulationResult`).
    ``by``, ``vul`` and ``lead`` take a ``Seat``/``Vulnerability`` or its text
    (``"S"``, ``"Both"``).

    >>> report = simulate(20, seed=1, contract="4S", by="S", where="spades(south) >= 6")
    >>> report["contracts"][0]["contract"], len(report["contracts"][0]["tricks"])
    ('4S', 14)
    """
    texts = [contract] if isinstance(contract, str | Contract) else list(contract)
    declarers = [by] if isinstance(by, str | Seat) else list(by)
    letters = [str(enum_arg(Seat, declarer, "by")) for declarer in declarers]
    contracts = parse_contracts([str(c) for c in texts], letters)
    simulation = Simulation(
        deals=deals,
        seed=seed,
        contracts=contracts,
        where=where,
        predeal=tuple([predeal] if isinstance(predeal, str) else predeal),
        vulnerability=enum_arg(Vulnerability, vul, "vul"),
        lead=None if lead is None else enum_arg(Seat, lead, "lead"),
        par=par,
    )
    simulation.deal_spec.plan()  # a bad condition or predeal is reported before any work
    report, _ = run_simulation(
        simulation, processes=processes, scheduler=scheduler, progress=progress
    )
    return report.as_dict()
