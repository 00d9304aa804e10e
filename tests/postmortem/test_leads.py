"""``analyse --lead-sim``: each lead's single-dummy figures checked against the same layouts
dealt here (``bs.deal_many``, the one dealing of ``deal``/``simulate``) and solved one by one
with DDS's SolveBoard, the standard errors by their formula."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from typer.testing import CliRunner

import bridgescore as bs
from bridgescore.cli.app import app
from bridgescore.postmortem.leads import lead_simulation
from bridgescore.postmortem.review import analyse
from dds_reference import tricks_after_each_lead

# South's 3NT, board 3: West holds A7.KQ42.K5.J7652 and leads the DK.
LIN = (
    "md|1SK98HA83DAQJ93CQT,SA7HKQ42DK5CJ7652,SJ54HT975DT82CAK8,|sv|e|ah|Board 3|"
    "mb|1N|mb|p|mb|3N|mb|p|mb|p|mb|p|pc|DK|mc|10|"
)
WHERE = "hcp(south) >= 15 && hcp(south) <= 17"
LAYOUTS = 12
SEED = 5


def _mean_se(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(variance / n)


@pytest.fixture(scope="module")
def simulated() -> dict[str, Any]:
    board = analyse(text=LIN)[0]
    found = lead_simulation(board, LAYOUTS, where=WHERE, seed=SEED, processes=1)
    assert found is not None
    return found


def test_each_lead_against_the_layouts_solved_here(simulated: dict[str, Any]) -> None:
    layouts = bs.deal_many(LAYOUTS, seed=SEED, where=WHERE, predeal="W=A7.KQ42.K5.J7652")
    tricks: dict[str, list[float]] = {}
    for layout in layouts:
        assert str(layout.hands[bs.Seat.WEST]) == "A7.KQ42.K5.J7652"
        assert 15 <= layout.hands[bs.Seat.SOUTH].hcp <= 17
        after = tricks_after_each_lead(layout.to_pbn(), bs.Strain.NOTRUMP, bs.Seat.SOUTH)
        for card, declarer in after.items():
            tricks.setdefault(card, []).append(declarer)
    assert set(simulated["leads"]) == set(tricks)  # every card West holds
    for card, values in tricks.items():
        figures = simulated["leads"][card]
        mean, mean_se = _mean_se(values)
        made = [1.0 if v < 9 else 0.0 for v in values]  # 3NT set: fewer than 9 tricks
        chance, chance_se = _mean_se(made)
        assert figures["tricks"] == pytest.approx(mean)
        assert figures["tricks_se"] == pytest.approx(mean_se)
        assert figures["set"] == pytest.approx(chance)
        assert figures["set_se"] == pytest.approx(chance_se)
    assert simulated["layouts"] == LAYOUTS and simulated["seed"] == SEED
    assert simulated["where"] == WHERE


def test_the_same_seed_deals_the_same_layouts(simulated: dict[str, Any]) -> None:
    board = analyse(text=LIN)[0]
    assert lead_simulation(board, LAYOUTS, where=WHERE, seed=SEED, processes=1) == simulated


def test_a_board_without_a_contract_has_no_lead_to_simulate() -> None:
    board = analyse(
        text='[Board "1"][Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 '
        '6543.876.876.876 2.5432.5432.5432"]'
    )[0]
    assert lead_simulation(board, 5, seed=1, processes=1) is None


def test_cli_json_gives_lead_sim_beside_each_board() -> None:
    result = CliRunner().invoke(
        app, ["analyse", LIN, "--json", "--lead-sim", "4", "--seed", "2", "--where", WHERE]
    )
    assert result.exit_code == 0, result.output
    (board,) = json.loads(result.stdout)
    assert set(board["lead_sim"]) == {"layouts", "seed", "where", "leads"}
    assert board["lead_sim"]["seed"] == 2 and len(board["lead_sim"]["leads"]) == 13


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["--where", WHERE], "--where needs --lead-sim N"),
        (["--seed", "3"], "--seed needs --lead-sim N"),
        (["--lead-sim", "5", "--where", "hcp(south) >>> 15"], "--where: "),
        (["--lead-sim", "0"], "--lead-sim"),
    ],
)
def test_cli_bad_lead_sim_options(words: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["analyse", LIN, *words])
    assert result.exit_code == 2
    assert message in result.output
