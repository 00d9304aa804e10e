"""One seed, one sequence of deals: library, `deal`, `study`, `simulate` and the demo.

Deal n of seed s is written out here independently of the workflows: row n of
the dealer's own chunk 0 (child 0 of ``SeedSequence(s)``) for n < 10000. Every
workflow, whatever its chunk size and number of workers, must deal those.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.core import Seat, Strain
from bridgescore.deal import Deal
from bridgescore.dealer.dealing import DealSpec, deal_chunk, deal_many, pbn_strings

runner = CliRunner()
SEEDS = (1, 7, 2026)
COUNT = 5


def seed_deals(seed: int, count: int = COUNT) -> list[str]:
    return pbn_strings(deal_chunk(DealSpec(), seed, 0, count)[0])


@pytest.mark.parametrize("seed", SEEDS)
def test_deal_many_deals_the_seeds_deals(seed: int) -> None:
    assert [deal.to_pbn() for deal in deal_many(COUNT, seed=seed)] == seed_deals(seed)


@pytest.mark.parametrize("processes", [1, 2])
@pytest.mark.parametrize("seed", SEEDS)
def test_bridgescore_deal_prints_the_seeds_deals(seed: int, processes: int) -> None:
    arguments = ["deal", "-n", str(COUNT), "--seed", str(seed), "--processes", str(processes)]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == seed_deals(seed)


@pytest.mark.parametrize(("seed", "chunk", "workers"), [(1, 1, 1), (7, 2, 2), (2026, 256, 1)])
def test_a_study_run_from_the_shell_holds_the_seeds_deals(
    tmp_path: Path, seed: int, chunk: int, workers: int
) -> None:
    out = tmp_path / "study"
    arguments = ["study", "run", "--deals", str(COUNT), "--seed", str(seed)]
    arguments += ["--chunk", str(chunk), "--workers", str(workers), "--out", str(out)]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    dealt = [
        text
        for shard in sorted(out.glob("chunk-*.parquet"))
        for text in pq.read_table(shard).column("deal").to_pylist()
    ]
    assert dealt == seed_deals(seed)


@pytest.mark.parametrize("processes", [1, 2])
@pytest.mark.parametrize("seed", SEEDS)
def test_a_simulation_deals_the_seeds_deals(seed: int, processes: int) -> None:
    from bridgescore.simulation.run import run_simulation
    from bridgescore.simulation.spec import Simulation, parse_contracts

    simulation = Simulation(COUNT, seed, parse_contracts(["3NT"], ["N"]))
    _, slices = run_simulation(simulation, processes=processes, keep_deals=True)
    owners = np.concatenate([piece.owners for piece in slices])
    assert pbn_strings(owners) == seed_deals(seed)


def test_bridgescore_simulate_solves_the_seeds_deals() -> None:
    # The trick counts `simulate` reports for 3NT by North are those of DDS's full
    # tables of the seed's deals (another DDS entry point than simulate's).
    from bridgescore.solver import solve_many

    seed = 7
    tables = solve_many([Deal.from_pbn(text) for text in seed_deals(seed)], threads=1)
    expected = Counter(table.tricks(Seat.NORTH, Strain.NOTRUMP) for table in tables)
    arguments = ["simulate", "-n", str(COUNT), "--seed", str(seed), "--contract", "3NT"]
    result = runner.invoke(app, [*arguments, "--by", "N", "--json"])
    assert result.exit_code == 0, result.output
    tricks = json.loads(result.stdout)["contracts"][0]["tricks"]
    assert {number: count for number, count in enumerate(tricks) if count} == dict(expected)


def test_the_demo_shows_the_seeds_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    # The demo's random boards are those of `bridgescore deal --seed 2026`; DDS is
    # replaced by a recorder, since the boards dealt are what is tested.
    import bridgescore.solver
    from bridgescore.cli import demo

    given: list[str] = []

    def recorder(deals: list[Deal], **options: object) -> list[object]:
        given.extend(deal.to_pbn() for deal in deals)
        raise ImportError("solver replaced by the test")

    monkeypatch.setattr(bridgescore.solver, "solve_many", recorder)
    demo._deals_section()
    assert given == seed_deals(2026, 3)
