"""A simulation's result in a notebook (issue 27, item 4): ``_repr_html_`` and
``to_frame`` of what ``bs.simulate`` returns.

The report is built from tricks written here (no DDS): four deals, not vulnerable,
4♠ by South taking 10, 9, 10, 11 tricks (+420, -50, +420, +450: mean 310) and 3NT by
North taking 9, 9, 8, 10 (+400, +400, -50, +430: mean 295). Each standard error is
the sample standard deviation over √4, worked out by hand in the comments.
"""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

import bridgescore as bs
from bridgescore.core import Contract
from bridgescore.errors import InvalidArgumentError
from bridgescore.simulation.report import FRAME_COLUMNS, SimulationResult, build_report
from bridgescore.simulation.spec import Simulation

SPADE = '<span style="color:#000000">♠</span>'


def _result() -> SimulationResult:
    simulation = Simulation(
        deals=4,
        seed=7,
        contracts=(Contract.parse("4SS"), Contract.parse("3NTN")),
        where="hcp(north) < 15 & <b>",
    )
    tricks = np.array([[10, 9], [9, 9], [10, 8], [11, 10]], dtype=np.int8)
    leads = np.empty((4, 0, 52), dtype=np.int8)
    return build_report(simulation, tricks, leads).as_dict()


def _cells(html: str) -> list[list[str]]:
    return [
        re.findall(r"<td style=[^>]*>(.*?)</td>", row)
        for row in re.findall(r"<tr>(.*?)</tr>", html)
        if "<td" in row
    ]


def test_the_result_in_a_notebook_is_its_tables() -> None:
    html = _result()._repr_html_()
    assert html.startswith(
        '<div class="bridgescore simulation"><div><b>Simulation</b>: 4 deals, seed 7, '
        "vul None, where hcp(north) &lt; 15 &amp; &lt;b&gt;</div>"
    )
    assert _cells(html) == [
        # makes 1,0,1,1: 75% ± √(0.75/3)/2 = 25; tricks ± √(2/3)/2 = 0.41;
        # scores ± √(173400/3)/2 = 120.2
        [f"4{SPADE} by S", "75.0% ± 25.0", "10.00 ± 0.41", "310 ± 120"],
        # makes 1,1,0,1; tricks ± √(2/3)/2; scores ± √(159300/3)/2 = 115.2
        ["3NT by N", "75.0% ± 25.0", "9.00 ± 0.41", "295 ± 115"],
        # differences +20, -450, +470, +20: IMPs 1, -10, 10, 1 (mean 0.5, ± √(201/3)/2)
        ["4S by S", "3NT by N", "0.50 ± 4.09", "75.0% ± 25.0", "0.0%", "25.0%", "75.0% ± 25.0"],
    ]
    assert "<b>Simulation</b>" in html and "<script" not in html


def test_the_result_is_still_the_json_object() -> None:
    result = _result()
    assert isinstance(result, dict)
    assert json.loads(json.dumps(result)) == result
    assert repr(result) == repr(dict(result))


def test_the_contracts_frame() -> None:
    frame = _result().to_frame()
    assert list(frame.columns) == list(FRAME_COLUMNS["contracts"])
    assert {name: str(dtype) for name, dtype in frame.dtypes.items()} == FRAME_COLUMNS["contracts"]
    assert frame["contract"].tolist() == ["4S", "3NT"]
    assert frame["declarer"].tolist() == ["S", "N"]
    assert frame["make"].tolist() == [0.75, 0.75]
    assert frame["mean_score"].tolist() == [310.0, 295.0]
    assert frame["mean_tricks"].tolist() == [10.0, 9.0]
    assert frame["mean_score_se"].tolist() == pytest.approx(
        [math.sqrt(173400 / 3) / 2, math.sqrt(159300 / 3) / 2]
    )
    assert frame.loc[0, [f"tricks_{n}" for n in (9, 10, 11)]].tolist() == [1, 2, 1]
    assert frame.loc[1, [f"tricks_{n}" for n in (8, 9, 10)]].tolist() == [1, 2, 1]
    assert frame.filter(regex=r"^tricks_\d+$").sum(axis=1).tolist() == [4, 4]


def test_the_comparisons_frame() -> None:
    frame = _result().to_frame("comparisons")
    assert list(frame.columns) == list(FRAME_COLUMNS["comparisons"])
    assert frame[["first", "second", "imps", "first_better", "equal"]].values.tolist() == [
        ["4S by S", "3NT by N", 0.5, 0.75, 0.0]
    ]


def test_no_leads_make_an_empty_leads_frame_and_a_wrong_table_is_refused() -> None:
    frame = _result().to_frame("leads")
    assert len(frame) == 0 and list(frame.columns) == list(FRAME_COLUMNS["leads"])
    with pytest.raises(InvalidArgumentError, match=r"^simulation table 'deals': expected"):
        _result().to_frame("deals")  # type: ignore[arg-type]


def test_simulate_returns_the_result_and_its_leads_frame() -> None:
    result = bs.simulate(4, seed=1, contract="3NT", by="S", lead="W")
    assert isinstance(result, SimulationResult)
    frame = result.to_frame("leads")
    # Every lead West holds on some deal is in one row; equal cards share a row.
    assert set(frame["leader"]) == {"W"} and set(frame["contract"]) == {"3NT"}
    assert frame["deals"].between(1, 4).all()
    assert frame["cards"].tolist() == [group["cards"] for group in result["leads"][0]["cards"]]
    assert "Opening leads by W against 3NT by S" in result._repr_html_()
