"""A scored session in a notebook (issue 27, item 4): the ranking's ``_repr_html_``
and the ranking and travellers as DataFrames.

One board, three tables, not vulnerable: 4♠= (+420), 4♠+1 (+450) and 3NT= (+400)
by North-South. Matchpoints, 2 for each score beaten and 1 for each tie (top 4):
NS 3 (+450) 4, NS 1 (+420) 2, NS <5> (+400) 0; East-West the other way round.
"""

from __future__ import annotations

import re

import pandas as pd

from bridgescore.session.reports.frames import (
    RANKING_COLUMNS,
    TRAVELLER_COLUMNS,
    ranking_frame,
    travellers_frame,
)
from bridgescore.session.scoring.event import Event, TableResult
from bridgescore.session.scoring.scored import SessionScore
from bridgescore.session.scoring.scorer import score_event
from bridgescore.session.store.events import EventStore, Origin
from bridgescore.session.workflow import score_stored_event

RESULTS = (
    TableResult.played(1, "1", "2", "4SN="),
    TableResult.played(1, "3", "4", "4SN+1"),
    TableResult.played(1, "<5>", "6 & co", "3NTS="),
)


def _scored() -> SessionScore:
    return score_event(Event("Club <night>", "pairs", results=RESULTS), "mp")


def test_the_ranking_frame_holds_the_standings() -> None:
    frame = ranking_frame(_scored())
    assert list(frame.columns) == list(RANKING_COLUMNS)
    assert {name: str(dtype) for name, dtype in frame.dtypes.items()} == RANKING_COLUMNS
    assert frame[["direction", "name", "total", "boards"]].values.tolist() == [
        ["NS", "3", 4.0, 1],
        ["NS", "1", 2.0, 1],
        ["NS", "<5>", 0.0, 1],
        ["EW", "6 & co", 4.0, 1],
        ["EW", "2", 2.0, 1],
        ["EW", "4", 0.0, 1],
    ]
    assert frame["percent"].tolist() == [100.0, 50.0, 0.0, 100.0, 50.0, 0.0]
    assert frame["rank"].tolist() == ["1", "2", "3", "1", "2", "3"]
    assert frame["players"].tolist() == [""] * 6


def test_the_travellers_frame_has_one_row_per_result() -> None:
    frame = travellers_frame(_scored())
    assert list(frame.columns) == list(TRAVELLER_COLUMNS)
    assert {name: str(dtype) for name, dtype in frame.dtypes.items()} == TRAVELLER_COLUMNS
    rows = frame.sort_values("ns_score")[["ns", "ew", "result", "ns_score", "ns_points"]]
    assert rows.values.tolist() == [
        ["<5>", "6 & co", "3NTS=", 400, 0.0],
        ["1", "2", "4SN=", 420, 2.0],
        ["3", "4", "4SN+1", 450, 4.0],
    ]
    by_pair = frame.set_index("ns")
    assert by_pair.loc["1", "ew_points"] == 2.0 and by_pair.loc["<5>", "ew_points"] == 4.0
    assert by_pair.loc["3", "ns_percent"] == 100.0 and by_pair.loc["3", "ew_percent"] == 0.0
    assert frame["top"].tolist() == [4.0, 4.0, 4.0]
    assert frame["par"].isna().all() and frame["imps_vs_par"].isna().all()
    assert frame["board"].tolist() == [1, 1, 1] and frame["kind"].tolist() == ["played"] * 3


def _cells(html: str) -> list[list[str]]:
    return [
        re.findall(r"<td style=[^>]*>(.*?)</td>", row)
        for row in re.findall(r"<tr>(.*?)</tr>", html)
        if "<td" in row
    ]


def test_the_ranking_in_a_notebook_is_a_table_per_direction() -> None:
    html = _scored()._repr_html_()
    assert html.startswith(
        '<div class="bridgescore ranking"><div><b>Club &lt;night&gt; - matchpoints</b></div>'
    )
    assert re.findall(r"<caption[^>]*>(.*?)</caption>", html) == ["North-South", "East-West"]
    assert re.findall(r"<th style=[^>]*>(.*?)</th>", html)[:5] == [
        "Rank", "Pair", "Boards", "Total MP", "%",
    ]  # fmt: skip
    assert _cells(html) == [
        ["1", "3", "1", "4", "100"],
        ["2", "1", "1", "2", "50"],
        ["3", "&lt;5&gt;", "1", "0", "0"],
        ["1", "6 &amp; co", "1", "4", "100"],
        ["2", "2", "1", "2", "50"],
        ["3", "4", "1", "0", "0"],
    ]
    assert "<5>" not in html and "<script" not in html


def test_what_score_stored_event_returns_shows_and_frames_the_same() -> None:
    with EventStore(":memory:") as store:
        store.add_results([(result, Origin()) for result in RESULTS])
        scored = score_stored_event(store)
    assert _cells(scored._repr_html_()) == _cells(_scored()._repr_html_())
    pd.testing.assert_frame_equal(ranking_frame(scored), ranking_frame(_scored()))
