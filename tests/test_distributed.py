"""The one parallel runner (bridgescore.distributed): one default, one pool, one Dask rule."""

from __future__ import annotations

from collections.abc import Iterator
from math import factorial

import pytest

import bridgescore.distributed as runner
from bridgescore.errors import BridgeError


def test_worker_count_defaults_to_every_core() -> None:
    assert runner.worker_count(3) == 3
    assert runner.worker_count(None) == runner.worker_count(0) == runner.default_workers()


@pytest.mark.parametrize("workers", [1, 2])
def test_run_ordered_yields_in_task_order(workers: int) -> None:
    tasks = list(range(12, 0, -1))  # later tasks finish sooner: order must still hold
    results = list(runner.run_ordered(factorial, tasks, workers=workers))
    assert results == [479001600, 39916800, 3628800, 362880, 40320, 5040, 720, 120, 24, 6, 2, 1]


def test_no_workers_means_the_one_default(monkeypatch: pytest.MonkeyPatch) -> None:
    # With a default of one worker, 0 (and None) run in this process: a lambda, which a
    # process pool could not pickle, goes through. Simulations pass --processes 0 here.
    monkeypatch.setattr(runner, "default_workers", lambda: 1)
    assert list(runner.run_ordered(lambda n: n + 1, [1, 2, 3], workers=0)) == [2, 3, 4]
    assert list(runner.run_ordered(lambda n: n + 1, [1, 2, 3], workers=None)) == [2, 3, 4]


def test_simulation_processes_zero_is_the_runners_default(monkeypatch: pytest.MonkeyPatch) -> None:
    # simulation.run asks the runner how many workers --processes 0 means: with a
    # default of one it runs in this process, and DDS then gets every core (threads None).
    from bridgescore.simulation import run as simulation_run
    from bridgescore.simulation.spec import Simulation, parse_contracts

    monkeypatch.setattr(runner, "default_workers", lambda: 1)
    seen: list[object] = []

    def ordered(
        function: object, tasks: object, *, workers: int, scheduler: object
    ) -> Iterator[object]:
        seen.append((workers, function.keywords["threads"]))  # type: ignore[attr-defined]
        yield from ()

    monkeypatch.setattr(simulation_run, "run_ordered", ordered)
    simulation = Simulation(3, 1, parse_contracts(["3NT"], ["N"]))
    simulation_run.run_simulation(simulation, processes=0)
    assert seen == [(1, None)]


def test_a_bad_scheduler_is_refused_the_same_way_everywhere() -> None:
    pytest.importorskip("distributed")
    with pytest.raises(BridgeError, match="'nowhere' is not a Dask scheduler address"):
        list(runner.run_ordered(factorial, [1, 2], scheduler="nowhere"))
    from bridgescore.study.runner import run_study

    with pytest.raises(BridgeError, match="'nowhere' is not a Dask scheduler address"):
        run_study("/nonexistent-run24/study", deals=1, seed=1, scheduler="nowhere")
