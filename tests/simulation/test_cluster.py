"""Simulations (and ``deal``) on a real Dask cluster whose workers share no disk.

The cluster is ``dask scheduler`` and ``dask worker`` processes reached through a
``tcp://`` address, as a user would run them (fixtures in conftest.py, shared with
the par study's cluster tests). The reports must equal those of a local run with
the same seed, whether a worker cannot see the client's directory or one worker
is SIGKILLed in the middle of a slice (held there through the hold hook, never
timed). Slices are made small (3 deals) so a dozen deals give several tasks.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import threading
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.distributed import connect_scheduler
from bridgescore.errors import BridgeError
from bridgescore.simulation import Simulation, parse_contracts, run_simulation
from bridgescore.simulation import tasks as slice_tasks
from bridgescore.simulation.report import Report
from conftest import HOLD_TIMEOUT, MakeHoldPoints, blind_to, can_unshare, cluster, nth

distributed = pytest.importorskip("distributed")

runner = CliRunner()
SEED = 21
DEALS = 12
SMALL_SLICE = 3
WHERE = "hcp(south) >= 10"
SIMULATE = [
    "simulate", "-n", str(DEALS), "--seed", str(SEED), "--where", WHERE,
    "-c", "4S", "--by", "S", "-c", "3NT", "--by", "N", "--par", "--json", "--no-progress",
]  # fmt: skip
DEAL = ["deal", "-n", str(DEALS), "--seed", str(SEED), "--where", WHERE, "--json"]


def invoke(arguments: list[str]) -> dict[str, object]:
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.stdout)
    return data


@pytest.fixture(scope="module")
def local_reports() -> tuple[dict[str, object], dict[str, object]]:
    """``simulate --json`` and ``deal --json`` run here, with the default slices."""
    return invoke(SIMULATE), invoke(DEAL)


def test_a_worker_that_cannot_see_the_client_gives_the_local_reports(
    local_reports: tuple[dict[str, object], dict[str, object]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reason = can_unshare()
    if reason is not None:
        pytest.skip(reason)
    hidden = tmp_path / "client"
    hidden.mkdir()
    (hidden / "only-the-client-sees-this").write_text("x")
    # The client works from the directory the worker cannot see.
    monkeypatch.chdir(hidden)
    monkeypatch.setattr(slice_tasks, "SLICE", SMALL_SLICE)
    with cluster(tmp_path / "cluster", [blind_to(hidden)], {}) as (client, _):
        assert list(client.run(os.listdir, str(hidden)).values()) == [[]]  # type: ignore[attr-defined]
        address = client.scheduler.address  # type: ignore[attr-defined]
        assert address.startswith("tcp://")
        there = invoke([*SIMULATE, "--scheduler", address])
        dealt = invoke([*DEAL, "--scheduler", address])
        assert list(client.run(os.listdir, str(hidden)).values()) == [[]]  # type: ignore[attr-defined]
    here, here_dealt = local_reports
    assert there == here
    assert dealt == here_dealt
    assert sorted(os.listdir(hidden)) == ["only-the-client-sees-this"]


def test_a_worker_killed_mid_slice_costs_that_slice_only(
    local_reports: tuple[dict[str, object], dict[str, object]],
    tmp_path: Path,
    hold_points: MakeHoldPoints,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(slice_tasks, "SLICE", SMALL_SLICE)
    simulation = Simulation(
        deals=DEALS,
        seed=SEED,
        contracts=parse_contracts(["4S", "3NT"], ["S", "N"]),
        where=WHERE,
        par=True,
    )
    # The first slice to start anywhere is held: no slice has finished yet, so the
    # killed worker takes no finished rows with it (they would be recomputed and
    # announced again) and costs exactly the slice in its hands.
    points = hold_points(nth("chunk-started", 1))
    with cluster(tmp_path / "cluster", [[], []], points.environment) as (client, workers):
        pids = {worker.pid for worker in workers}
        address = client.scheduler.address  # type: ignore[attr-defined]
        outcome: list[object] = []

        def run() -> None:
            try:
                outcome.append(run_simulation(simulation, scheduler=address)[0])
            except BaseException as error:  # handed to the test below
                outcome.append(error)

        thread = threading.Thread(target=run)
        thread.start()
        held = points.next(alive=thread.is_alive)
        assert held.pid in pids
        os.kill(held.pid, signal.SIGKILL)  # the worker dies with the slice in hand
        held.release()
        thread.join(HOLD_TIMEOUT)
        assert not thread.is_alive(), "the run did not finish"
    assert len(outcome) == 1 and isinstance(outcome[0], Report), outcome
    report = outcome[0]
    assert not report.interrupted
    # The same numbers as the CLI's local run (its JSON is the report's dictionary).
    assert json.loads(json.dumps(report.as_dict())) == local_reports[0]
    # Slices are announced by their first deal: 0, 3, 6, 9; the killed one twice.
    started = Counter(points.events("chunk-started"))
    assert sorted(started) == list(range(0, DEALS, SMALL_SLICE))
    assert started[held.chunk] == 2
    assert sum(started.values()) == DEALS // SMALL_SLICE + 1


@pytest.mark.parametrize("command", [SIMULATE, DEAL])
def test_a_malformed_scheduler_address_is_a_message(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--scheduler", "head-node"])
    assert result.exit_code == 1
    assert "'head-node' is not a Dask scheduler address" in result.output
    assert "expected tcp://host:port" in result.output
    assert "Traceback" not in result.output


def _is_client(value: object) -> bool:
    # type(), not isinstance(): the collector also holds weak proxies (numba and pandas
    # leave some), and isinstance() asks a dead one for its class and raises.
    return issubclass(type(value), distributed.Client)


@pytest.mark.parametrize(
    "address", ["head-node", "tcp://head:port", "nonsense://head:8786", "tcp://[::1", ""]
)
def test_a_refused_address_leaves_no_dask_client_behind(address: str) -> None:
    # A Client refused half-way through its construction kept its IO loop thread,
    # and when the garbage collector finalised it, it took the lock every Dask client
    # in the process shares: collected while this thread was starting another client,
    # it deadlocked that thread (a cluster test hung for ever in its Client()).
    threads_before = set(threading.enumerate())
    clients_before = {id(c) for c in gc.get_objects() if _is_client(c)}
    with pytest.raises(BridgeError, match="is not a Dask scheduler address") as refused:
        connect_scheduler(address)
    assert repr(address) in str(refused.value)
    assert "expected tcp://host:port" in str(refused.value)
    started = [thread.name for thread in set(threading.enumerate()) - threads_before]
    assert started == []
    made = [c for c in gc.get_objects() if _is_client(c) and id(c) not in clients_before]
    assert made == []


def test_deal_scheduler_is_not_for_board_sets() -> None:
    result = runner.invoke(app, ["deal", "--boards", "1-4", "--scheduler", "tcp://head:8786"])
    assert result.exit_code == 2
    assert "--scheduler deal random deals, not a board set" in result.output
