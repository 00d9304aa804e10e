"""Simulations: trick counts against full DDS tables of the same deals, statistics by hand.

The reference values come from ``solve`` (DDS CalcAllTables, a different DDS entry
point from the SolveAllBoards search simulate uses), the Laws' scores through
``score`` (scalar), and statistics recomputed here from those tricks.
"""

from __future__ import annotations

import importlib
import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

import bridgescore as bs
from bridgescore.cli.app import app
from bridgescore.core import Seat, Strain
from bridgescore.dealer.dealing import deal_many
from bridgescore.simulation import Simulation, parse_contracts, run_simulation, simulate
from bridgescore.simulation import tasks as simulation_tasks
from bridgescore.solver import lead_tricks
from fuzzing import FULL

runner = CliRunner()
WHERE = "spades(south) >= 5 && hcp(south) + hcp(north) >= 24"


@pytest.fixture(scope="module")
def reference() -> tuple[list[bs.Deal], list[bs.DDTable]]:
    deals = deal_many(40, seed=12, where=WHERE)
    return deals, bs.solve_many(deals)


def test_tricks_and_statistics_match_full_tables(
    reference: tuple[list[bs.Deal], list[bs.DDTable]],
) -> None:
    _, tables = reference
    report = simulate(40, seed=12, where=WHERE, contract=["4S", "3NT"], by=["S", "N"], vul="NS")
    spades = [t.tricks(Seat.SOUTH, Strain.SPADES) for t in tables]
    notrump = [t.tricks(Seat.NORTH, Strain.NOTRUMP) for t in tables]
    four, three = report["contracts"]
    assert (four["contract"], four["declarer"], three["contract"]) == ("4S", "S", "3NT")
    assert four["tricks"] == [spades.count(k) for k in range(14)]
    assert three["tricks"] == [notrump.count(k) for k in range(14)]
    assert four["make"] == pytest.approx(sum(t >= 10 for t in spades) / 40)
    assert four["mean_tricks"] == pytest.approx(sum(spades) / 40)
    scores4 = [bs.score("4S", tricks=t, vulnerable=True) for t in spades]
    scores3 = [bs.score("3NT", tricks=t, vulnerable=True) for t in notrump]
    assert four["mean_score"] == pytest.approx(sum(scores4) / 40)
    mean = sum(scores4) / 40
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores4) / 39)
    assert four["mean_score_se"] == pytest.approx(sd / math.sqrt(40))
    (comparison,) = report["comparisons"]
    net = [bs.imps(a - b) for a, b in zip(scores4, scores3)]
    assert comparison["imps"] == pytest.approx(sum(net) / 40)
    assert comparison["first_better"] == pytest.approx(
        sum(a > b for a, b in zip(scores4, scores3)) / 40
    )
    assert comparison["matchpoints"] == pytest.approx(
        sum(1.0 if a > b else 0.5 if a == b else 0.0 for a, b in zip(scores4, scores3)) / 40
    )


def test_leads_against_the_best_defence(
    reference: tuple[list[bs.Deal], list[bs.DDTable]],
) -> None:
    deals, tables = reference
    defence = lead_tricks(deals[:20], Strain.SPADES, Seat.SOUTH)
    for deal, table, row in zip(deals[:20], tables[:20], defence):
        held = row >= 0
        # Exactly West's cards, and the best lead gives the defence what the table says.
        assert held.tolist() == (deal.to_array() == Seat.WEST).tolist()
        assert row.max() == 13 - table.tricks(Seat.SOUTH, Strain.SPADES)
    report = simulate(20, seed=12, where=WHERE, contract="4S", by="S", lead="W")
    (lead,) = report["leads"]
    assert lead["leader"] == "W"
    total_deals = sum(row["deals"] for row in lead["cards"])
    assert total_deals >= 20 * 13 // 4  # grouped cards count their deals once per group
    top = lead["cards"][0]
    card = bs.Card.parse(top["cards"][:2])
    values = [int(r[card.index]) for r in defence if r[card.index] >= 0]
    assert top["deals"] == len(values)
    assert top["mean_tricks"] == pytest.approx(sum(values) / len(values))
    assert top["beat"] == pytest.approx(sum(v >= 4 for v in values) / len(values))


def test_contracts_read_from_the_lead_table_match_full_tables(
    reference: tuple[list[bs.Deal], list[bs.DDTable]],
) -> None:
    # With West on lead, the spade contracts take declarer's tricks from the lead table
    # (one solve for both levels); 3NT by North is solved on its own. All must agree
    # with CalcAllTables.
    _, tables = reference
    report = simulate(  # the first 16 of the reference's deals (the same seed)
        16, seed=12, where=WHERE, contract=["4S", "3S", "3NT"], by=["S", "S", "N"], lead="W"
    )
    spades = [t.tricks(Seat.SOUTH, Strain.SPADES) for t in tables[:16]]
    notrump = [t.tricks(Seat.NORTH, Strain.NOTRUMP) for t in tables[:16]]
    four, three, nt = report["contracts"]
    assert four["tricks"] == three["tricks"] == [spades.count(k) for k in range(14)]
    assert nt["tricks"] == [notrump.count(k) for k in range(14)]
    assert [lead["contract"] for lead in report["leads"]] == ["4S", "3S"]


def test_equal_cards_are_grouped() -> None:
    # West holds KQJ of hearts and nothing else near them: they are equal on every deal.
    report = simulate(
        8,
        seed=1,
        predeal="W=T92.KQJ.8765.432",
        where="hcp(north) >= 12",
        contract="2S",
        by="S",
        lead="W",
    )
    names = [row["cards"] for row in report["leads"][0]["cards"]]
    assert "HKQJ" in names
    assert sum(len(name) - 1 for name in names) == 13


def test_cli_json_shape_and_same_deals_as_deal(
    reference: tuple[list[bs.Deal], list[bs.DDTable]],
) -> None:
    args = ["simulate", "--deals", "30", "--seed", "12", "--where", WHERE, "--contract", "4S"]
    args += ["--by", "S", "--contract", "3NT", "--by", "N", "--vul", "NS", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= {"contracts", "comparisons", "deals", "seed"}
    first = data["contracts"][0]
    assert set(first) >= {"contract", "declarer", "tricks", "make", "mean_tricks", "mean_score"}
    assert len(first["tricks"]) == 14 and sum(first["tricks"]) == 30
    # The deals simulated are those `deal` prints for the same seed and condition: the
    # first 30 of the reference's 40 (deal n of a seed does not depend on the count),
    # whose tables are solved once for the module.
    dealt = runner.invoke(app, ["deal", "-n", "30", "--seed", "12", "--where", WHERE])
    deals, tables = reference
    assert dealt.stdout.splitlines() == [deal.to_pbn() for deal in deals[:30]]
    spades = [t.tricks(Seat.SOUTH, Strain.SPADES) for t in tables[:30]]
    assert first["tricks"] == [spades.count(k) for k in range(14)]


@pytest.mark.slow
def test_processes_and_text_report(monkeypatch: pytest.MonkeyPatch) -> None:
    # Three slices, the last one short, as 1,200 deals make at the real slice size
    # (500). By default the slices are made small, so the same cut costs 60 solves
    # instead of 1,200 (twice); BRIDGESCORE_FULL=1 runs the real size.
    deals = 1200 if FULL else 60
    if not FULL:
        monkeypatch.setattr(simulation_tasks, "SLICE", 25)
    simulation = Simulation(
        deals=deals, seed=4, contracts=parse_contracts(["3NT"], ["S"]), where="hcp(south) >= 16"
    )
    alone, slices = run_simulation(simulation, processes=1, keep_deals=True)
    size = simulation_tasks.SLICE
    assert [(s.task.start, s.task.stop) for s in slices] == [
        (0, size), (size, 2 * size), (2 * size, deals)
    ]  # fmt: skip
    pooled, _ = run_simulation(simulation, processes=2)
    assert alone.contracts == pooled.contracts
    owners = np.concatenate([s.owners for s in slices])
    expected = np.concatenate(list(bs_chunks(deals, 4, "hcp(south) >= 16")))
    assert np.array_equal(owners, expected)


def bs_chunks(count: int, seed: int, where: str) -> list[np.ndarray]:
    from bridgescore.dealer.dealing import iter_deal_chunks

    return list(iter_deal_chunks(count, seed=seed, where=where))


def test_dask_local_cluster_gives_the_same_report() -> None:
    distributed = pytest.importorskip("distributed")
    simulation = Simulation(
        deals=40, seed=9, contracts=parse_contracts(["4H"], ["N"]), where="hearts(north) >= 5"
    )
    here, _ = run_simulation(simulation)
    # A worker thread: this is the road of a Client handed in. Worker processes, the
    # spec sent to them as text, are tests/simulation/test_cluster.py's (a real
    # `dask scheduler` and `dask worker`s); a process LocalCluster here cost 20 s of CPU.
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        there, slices = run_simulation(simulation, scheduler=client, keep_deals=True)
    assert there.contracts == here.contracts
    # The workers dealt exactly the library's deals.
    owners = np.concatenate([s.owners for s in slices])
    assert np.array_equal(owners, np.concatenate(bs_chunks(40, 9, "hearts(north) >= 5")))


def test_errors_are_clear() -> None:
    bad = runner.invoke(app, ["simulate", "--seed", "1", "--contract", "4S"])
    assert bad.exit_code == 2 and "no declarer" in bad.stderr
    lead = runner.invoke(
        app, ["simulate", "--seed", "1", "--contract", "4S", "--by", "S", "--lead", "N"]
    )
    assert lead.exit_code == 2 and "not on lead" in lead.stderr
    where = runner.invoke(
        app, ["simulate", "--seed", "1", "--contract", "4S", "--by", "S", "--where", "hcp(x)"]
    )
    assert where.exit_code == 2 and "is not a seat" in where.stderr


def test_plot_is_written(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "sim.png"
    args = ["simulate", "-n", "10", "--seed", "1", "--contract", "4S", "--by", "S"]
    args += ["--contract", "4H", "--by", "S", "--plot", str(path)]
    assert runner.invoke(app, args).exit_code == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_ctrl_c_keeps_the_deals_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    # By name: the package's attribute `simulate` is the function, not the sub-package.
    tasks = importlib.import_module("bridgescore.simulation.tasks")
    monkeypatch.setattr(tasks, "SLICE", 5)
    simulation = Simulation(deals=12, seed=2, contracts=parse_contracts(["2S"], ["S"]))

    def interrupt(done: int, total: int) -> None:
        raise KeyboardInterrupt

    report, _ = run_simulation(simulation, progress=interrupt)
    assert report.interrupted and report.deals == 5
    assert sum(report.contracts[0]["tricks"]) == 5
    assert report.as_dict()["interrupted"] is True


def test_par_distribution_matches_scalar_par() -> None:
    deals = deal_many(6, seed=5, where="hcp(north) + hcp(south) >= 22")
    scores = [bs.par(bs.solve(deal), bs.Vulnerability.EW).score for deal in deals]
    report = simulate(
        6, seed=5, where="hcp(north) + hcp(south) >= 22", contract="3NT", by="N", vul="EW", par=True
    )
    par = report["par"]
    assert par["mean"] == pytest.approx(sum(scores) / 6)
    assert par["scores"] == {str(s): scores.count(s) for s in sorted(set(scores))}
    args = ["simulate", "-n", "6", "--seed", "5", "--where", "hcp(north) + hcp(south) >= 22"]
    args += ["--contract", "3NT", "--by", "N", "--vul", "EW", "--par"]
    text = runner.invoke(app, args).stdout
    assert "par (NS's view): mean" in text


# The command of issue 23: its old text report showed 5 of the 10 deals.
ISSUE_COMMAND = ["simulate", "-n", "10", "--seed", "1", "--contract", "4S", "--by", "N"]


def north_spade_tricks(count: int, seed: int) -> list[int]:
    """North's tricks in spades on the deals simulate deals, from full DDS tables."""
    return [t.tricks(Seat.NORTH, Strain.SPADES) for t in bs.solve_many(deal_many(count, seed=seed))]


def test_text_report_counts_every_deal_in_its_trick_columns() -> None:
    result = runner.invoke(app, ISSUE_COMMAND)
    assert result.exit_code == 0, result.output
    tricks = north_spade_tricks(10, 1)
    expected = [sum(t <= 5 for t in tricks)] + [tricks.count(k) for k in range(6, 14)]
    lines = result.stdout.splitlines()
    heading = next(line for line in lines if line.startswith("contract"))
    labels = ["0-5", *(str(k) for k in range(6, 14))]
    assert heading.split()[-9:] == labels
    row = next(line for line in lines if line.startswith("  4S by N"))
    counts = [int(word) for word in row.split()[-9:]]
    assert counts == expected
    assert sum(counts) == 10
    # Half the deals took fewer than 6 tricks: the ones the old columns left out.
    assert counts[0] == 5
    # Each count stands under its label (both right-aligned, four wide).
    assert len(row) == len(heading)
    for label, count in zip(labels, counts, strict=True):
        end = heading.index(f" {label}", 50) + len(label) + 1
        assert row[end - 4 : end].strip() == str(count)


def test_json_and_library_reports_count_every_deal() -> None:
    result = runner.invoke(app, [*ISSUE_COMMAND, "--json"])
    assert result.exit_code == 0, result.output
    (contract,) = json.loads(result.stdout)["contracts"]
    tricks = north_spade_tricks(10, 1)
    assert contract["tricks"] == [tricks.count(k) for k in range(14)]
    assert sum(contract["tricks"]) == 10


def test_a_bad_plot_path_stops_before_any_deal_is_solved(tmp_path: object) -> None:
    from pathlib import Path

    missing = Path(str(tmp_path)) / "nonexistent-dir" / "x.png"
    # --progress: a deal solved would print its progress line on standard error.
    result = runner.invoke(app, [*ISSUE_COMMAND, "--progress", "--plot", str(missing)])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"error: --plot {str(missing)!r}: the folder {str(missing.parent)!r} does not exist\n"
    )


def test_a_plot_that_fails_late_keeps_the_report(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pathlib import Path

    plot = importlib.import_module("bridgescore.simulation.plot")

    def refused(report: object, path: object) -> None:
        # As if the folder were taken away between the check and the write.
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(plot, "plot_report", refused)
    target = Path(str(tmp_path)) / "x.png"
    result = runner.invoke(app, [*ISSUE_COMMAND, "--plot", str(target)])
    assert result.exit_code == 1
    assert result.stdout.startswith("10 deals\n")
    assert "  4S by N" in result.stdout
    assert result.stderr == (
        f"error: cannot write the plot {str(target)!r}: Permission denied "
        "(the report above is complete)\n"
    )


@pytest.mark.parametrize(("deals", "workers", "threads"), [(20, 1, None), (60, 2, 1)])
def test_no_more_processes_than_slices(
    monkeypatch: pytest.MonkeyPatch, deals: int, workers: int, threads: int | None
) -> None:
    # One slice on a pool of two would leave a core idle while DDS solved on one
    # thread: it is solved here, DDS on every core (threads None). Slices of 25.
    run = importlib.import_module("bridgescore.simulation.run")
    monkeypatch.setattr(simulation_tasks, "SLICE", 25)
    asked: list[tuple[int | None, int | None]] = []
    real = run.run_ordered

    def recording(function, tasks, *, workers, scheduler):  # type: ignore[no-untyped-def]
        asked.append((workers, function.keywords["threads"]))
        return real(function, tasks, workers=workers, scheduler=scheduler)

    monkeypatch.setattr(run, "run_ordered", recording)
    simulation = Simulation(deals=deals, seed=5, contracts=parse_contracts(["4S"], ["S"]))
    report, _ = run_simulation(simulation, processes=2)
    assert asked == [(workers, threads)] and report.deals == deals
