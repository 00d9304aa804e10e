"""The example notebook runs (issue 27, item 4): examples/notebook.ipynb is executed
cell by cell in a python3 kernel (nbclient), from the examples folder as a user runs
it, and what it shows is checked against fragments written here."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")
pytest.importorskip("ipykernel")
pytest.importorskip("pandas")
pytest.importorskip("endplay")

# Starting the kernel and solving take 6-9 s on an idle machine, more on a loaded one.
pytestmark = pytest.mark.slow

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NOTEBOOK = EXAMPLES / "notebook.ipynb"


@pytest.fixture(scope="module")
def executed() -> Any:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    # The kernel is the interpreter running the tests ("python" in the kernel spec
    # becomes sys.executable), so it imports the same bridgescore.
    client = nbclient.NotebookClient(
        notebook,
        kernel_name="python3",
        resources={"metadata": {"path": str(EXAMPLES)}},
        # A whole-cell bound, not a wait for anything: only a hung kernel reaches it.
        timeout=600,
    )
    client.execute()
    return notebook


def _html(cell: Any) -> str:
    return "".join(
        output["data"]["text/html"]
        for output in cell.get("outputs", ())
        if "text/html" in output.get("data", {})
    )


def _code_cells(notebook: Any) -> list[Any]:
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def test_every_cell_runs_and_the_stored_notebook_has_no_outputs(executed: Any) -> None:
    # Errors stop nbclient with CellExecutionError, so reaching here means none.
    assert all(cell.get("outputs") for cell in _code_cells(executed))
    stored = nbformat.read(NOTEBOOK, as_version=4)
    assert all(not cell.get("outputs") for cell in _code_cells(stored))


def test_the_notebook_shows_the_deal_its_table_par_and_score(executed: Any) -> None:
    deal, table, par, breakdown, *_ = _code_cells(executed)
    spade, heart = (
        '<span style="color:#000000">♠</span>',
        '<span style="color:#c00000">♥</span>',
    )
    assert f"<div><b>North</b></div><div>{spade} Q J 9</div><div>{heart} J 10 9 7 2</div>" in (
        _html(deal)
    )
    assert re.findall(r"<th style=[^>]*>(.*?)</th>", _html(table)) == ["", "N", "S", "E", "W"]
    cells = re.findall(r"<td style=[^>]*>(.*?)</td>", _html(table))
    # DDS: North and South take 9 tricks in notrump and 10 in hearts, East and West 4 and 1.
    assert cells[0:5] == ["NT", "9", "9", "4", "4"]
    assert cells[10:15] == [heart, "10", "10", "1", "1"]
    # So 4♥= (+420) beats 3NT= (+400), and East-West, with 6 spade tricks at most,
    # have no sacrifice cheaper than 420 (4♠X-4 not vulnerable is -800).
    assert _html(par) == f"<div>Par NS +420: 4{heart}= NS</div>"
    # Law 77, 4♥X+1 vulnerable: 240 + 200 + 500 + 50.
    assert "<b>990</b>" in _html(breakdown)


def test_the_notebook_ranks_the_session_and_frames_the_file(executed: Any) -> None:
    cells = _code_cells(executed)
    ranking, ranking_frame, travellers, records, record = cells[4:]
    assert "Monday club - matchpoints" in _html(ranking)
    # 4♥+1 (+450) beats 4♥= (+420) beats 3NT= (+400): 4, 2 and 0 matchpoints.
    rows = re.findall(r"<tr>\s*<th>\d+</th>(.*?)</tr>", _html(ranking_frame), re.DOTALL)
    found = [re.findall(r"<td>(.*?)</td>", row) for row in rows]
    # Columns: rank, section, direction, name, players, boards, total...
    assert [[row[3], row[5], row[6]] for row in found][:3] == [
        ["3", "1", "4.0"],
        ["1", "1", "2.0"],
        ["5", "1", "0.0"],
    ]
    assert "450" in _html(travellers) and "4HN+1" in _html(travellers)
    assert "1NT Pass 3NT! Pass Pass Pass" in _html(records)
    assert "<b>Board 3 · Dealer South · Vul EW</b>" in _html(record)
