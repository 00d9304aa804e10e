"""Values in a notebook (issue 27, item 4): ``_repr_html_`` of a deal, a hand, a DD
table, a par and a score breakdown, and the pandas extra's missing-package message.

The expected fragments are written out here by hand: a North hand of ♠AKQ is the
line ``♠ A K Q`` with a black spade; hearts and diamonds are red.
"""

from __future__ import annotations

import builtins
import doctest
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

import bridgescore as bs
from bridgescore.display.frame import pandas_module
from bridgescore.display.markup import Markup, table_html, text_html

DEAL = "N:AKQ.JT9.8765.432 JT9.8765.432.AKQ 8765.432.AKQ.JT9 432.AKQ.JT9.8765"
SPADE = '<span style="color:#000000">♠</span>'
HEART = '<span style="color:#c00000">♥</span>'
DIAMOND = '<span style="color:#c00000">♦</span>'
CLUB = '<span style="color:#000000">♣</span>'


def _text(html: str) -> str:
    """The text a reader sees: tags dropped."""
    return re.sub(r"<[^>]+>", "", html)


def test_a_hand_shows_one_line_per_suit_with_red_hearts_and_diamonds() -> None:
    hand = bs.Hand.from_pbn("AKQ.JT9.8765.-")
    assert hand._repr_html_() == (
        '<div class="hand" style="white-space:nowrap">'
        f"<div>{SPADE} A K Q</div>"
        f"<div>{HEART} J 10 9</div>"
        f"<div>{DIAMOND} 8 7 6 5</div>"
        f"<div>{CLUB} —</div>"
        "</div>"
    )


def test_a_deal_is_a_compass_north_on_top_south_below() -> None:
    html = bs.Deal.from_pbn(DEAL)._repr_html_()
    north = f"<div><b>North</b></div><div>{SPADE} A K Q</div><div>{HEART} J 10 9</div>"
    assert north in html
    assert f"<div><b>East</b></div><div>{SPADE} J 10 9</div>" in html
    assert f"<div><b>South</b></div><div>{SPADE} 8 7 6 5</div>" in html
    assert f"<div><b>West</b></div><div>{SPADE} 4 3 2</div>" in html
    rows = html.split("<tr>")[1:]
    assert [re.findall(r"<b>(\w+)</b>", row) for row in rows] == [
        ["North"],
        ["West", "East"],
        ["South"],
    ]
    assert "<script" not in html


def test_text_reprs_are_unchanged() -> None:
    deal = bs.Deal.from_pbn(DEAL)
    assert repr(deal) == f"Deal.from_pbn({DEAL!r})"
    assert repr(deal[bs.Seat.NORTH]) == "Hand.from_pbn('AKQ.JT9.8765.432')"
    assert repr(bs.DDTable.parse("78697786976573665746")) == "DDTable.parse('78697786976573665746')"


def test_a_dd_table_is_a_grid_strains_down_seats_across() -> None:
    # PBN order: N S E W, each NT S H D C.
    html = bs.DDTable.parse("78697786976573665746")._repr_html_()
    cells = re.findall(r"<t[dh] style=[^>]*>(.*?)</t[dh]>", html)
    assert cells[:5] == ["", "N", "S", "E", "W"]
    rows = [cells[i : i + 5] for i in range(5, 30, 5)]
    assert rows == [
        ["NT", "7", "7", "6", "6"],
        [SPADE, "8", "8", "5", "5"],
        [HEART, "6", "6", "7", "7"],
        [DIAMOND, "9", "9", "3", "4"],
        [CLUB, "7", "7", "6", "6"],
    ]


def test_a_par_names_its_contracts_with_symbols() -> None:
    par = bs.par(bs.DDTable.parse("a989ca989c3453134531"), bs.Vulnerability.NONE)
    assert str(par) == "NS +920: 6C= NS"
    assert par._repr_html_() == f"<div>Par NS +920: 6{CLUB}= NS</div>"


def test_a_passed_out_par() -> None:
    par = bs.Par(0, ())
    assert par._repr_html_() == "<div>Par 0: passed out</div>"


def test_a_score_breakdown_lists_the_parts_that_score_and_the_total() -> None:
    # Law 77: 4♠X+1 vulnerable: 240 tricks, 200 doubled overtrick, 500 game, 50 insult.
    html = bs.score_breakdown("4SXN+1", vulnerable=True)._repr_html_()
    assert f'<caption style="text-align:left">4{SPADE}XN+1, vulnerable</caption>' in html
    assert _text(html).endswith(
        "PartPointsTrick score240Overtricks200Game premium500Insult premium50Total990"
    )


def test_a_passed_out_breakdown_is_a_total_of_nothing() -> None:
    html = bs.score_breakdown("Pass", vulnerable=False)._repr_html_()
    assert _text(html) == "Pass, not vulnerablePartPointsTotal0"


def test_every_text_in_a_table_is_escaped_and_markup_is_kept() -> None:
    html = table_html(["<th>"], [["<script>alert(1)</script> & co", Markup("<b>7</b>")]])
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in html
    assert "<b>7</b>" in html
    assert "<script>" not in html
    assert text_html('"quoted"') == "&quot;quoted&quot;"


def _hide_pandas(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_pandas(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "pandas" or name.startswith("pandas."):
            raise ModuleNotFoundError("No module named 'pandas'", name="pandas")
        return real_import(name, *args, **kwargs)

    for name in [n for n in sys.modules if n == "pandas" or n.startswith("pandas.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(builtins, "__import__", no_pandas)


def test_without_pandas_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    _hide_pandas(monkeypatch)
    with pytest.raises(ImportError) as caught:
        pandas_module()
    assert str(caught.value) == (
        "a DataFrame needs pandas, which is not installed; install it with: "
        "pip install 'bridgescore[pandas]'"
    )


def test_records_frame_without_pandas_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    _hide_pandas(monkeypatch)
    with pytest.raises(
        ImportError, match=r"^records_frame needs pandas, .*'bridgescore\[pandas\]'$"
    ):
        bs.records_frame([])


def test_every_frame_without_pandas_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from bridgescore.session.reports.frames import ranking_frame, travellers_frame
    from bridgescore.session.scoring.event import Event, TableResult
    from bridgescore.session.scoring.scorer import score_event
    from bridgescore.simulation.report import SimulationResult
    from bridgescore.study.frames import study_frame

    scored = score_event(
        Event("Club", "pairs", results=(TableResult.played(1, "1", "2", "3NTS="),)), "mp"
    )
    result = SimulationResult(contracts=[])
    _hide_pandas(monkeypatch)
    calls = {
        "ranking_frame": lambda: ranking_frame(scored),
        "travellers_frame": lambda: travellers_frame(scored),
        "SimulationResult.to_frame": result.to_frame,
        "study_frame": lambda: study_frame(tmp_path),
    }
    for name, call in calls.items():
        with pytest.raises(ImportError) as caught:
            call()
        assert str(caught.value) == (
            f"{name} needs pandas, which is not installed; install it with: "
            "pip install 'bridgescore[pandas]'"
        )


def test_the_examples_of_docs_notebook_run(monkeypatch: pytest.MonkeyPatch) -> None:
    root = Path(__file__).resolve().parents[2]
    monkeypatch.chdir(root)  # the page reads tests/data/... as a user in a checkout would
    failed, attempted = doctest.testfile(
        str(root / "docs" / "notebook.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert attempted >= 12 and failed == 0


def test_pandas_is_an_extra_in_all_with_its_stubs_and_the_notebook_runners() -> None:
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    assert not any(name.startswith("pandas") for name in project["dependencies"])
    assert [name.split(">")[0] for name in extras["pandas"]] == ["pandas"]
    assert "pandas" in extras["all"][0].split("[")[1].rstrip("]").split(",")
    assert any(name.startswith("pandas-stubs") for name in extras["dev"])
    runners = {name.split(">")[0] for name in extras["test"]}
    assert {"nbclient", "nbformat", "ipykernel"} <= runners
