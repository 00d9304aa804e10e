"""session/reports/paper.py and ``session report --pdf``: the report printed through Chromium.

The event: a 3-table Mitchell (tests/live_movements.py), 2 boards a round, made with
``session new --boards`` (a hand record for board 1 only) and played through the live
session. Scores are the Laws' (Law 77), matchpoints on the 2/1 scale worked out here:

- board 1 (none vulnerable): 7NT by N made, 220 + 300 + 1000 = +1520 (1N v 1E);
  6NT+1 by N, 190 + 300 + 500 + 30 = +1020 (3N v 2E); 3NT+4 by S, 100 + 300 + 120 =
  +520 (2N v 3E). Three results: top 4; NS 4, 2, 0. Against par (+1520): 0, -500
  = -11 IMPs, -1000 = -14 IMPs.
- board 2 (NS vulnerable): 4S by N made, 120 + 500 = +620 (1N v 1E); 4S-1 vulnerable
  -100 (3N v 2E); 3NT by E two down, not vulnerable, +100 (2N v 3E): NS 4, 0, 2.
- boards 3-6: 1NT by N made, +90 at every table: 2 each.

Totals out of 6 x 4 = 24: 1N 4+4+8 = 16 (66.67 %), 2N 0+2+8 = 10 (41.67 %), 3N 10;
1E 0+0+8 = 8 (33.33 %), 2E 2+4+8 = 14 (58.33 %), 3E 14.

Board 1's deal gives North-South every trick in every strain (each of their cards
outranks every East-West card of its suit, and both hold every suit): par 7NT by
NS, +1520.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore.boardset.pdf import chromium_path
from bridgescore.cli.app import app
from bridgescore.session.live.entry import ResultEntry
from bridgescore.session.live.event import LiveEvent

runner = CliRunner()

NAME = "Tuesday <Pairs> & more"
HANDS = """[Event "Tuesday"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQJ.AKQ.AKQ.AKQ 432.432.5432.432 T98.JT9.JT9.JT98 765.8765.876.765"]
"""
# Each board's results in the order its tables play it (round 1, 2, 3).
PLAYED = {
    1: [("7NT", "N", "="), ("6NT", "N", "+1"), ("3NT", "S", "+4")],
    2: [("4S", "N", "="), ("4S", "N", "-1"), ("3NT", "E", "-2")],
}

needs_pdf = pytest.mark.skipif(
    chromium_path() is None or shutil.which("pdftotext") is None,
    reason="headless Chromium or pdftotext (poppler-utils) is not installed: PDF not tested",
)


def played_event(tmp_path: Path) -> Path:
    hands = tmp_path / "hands.pbn"
    hands.write_text(HANDS, encoding="utf-8")
    event = tmp_path / "club.db"
    answer = runner.invoke(
        app,
        ["session", "new", str(event), "--movement", "mitchell", "--tables", "3",
         "--boards-per-round", "2", "--name", NAME, "--boards", str(hands)],
    )  # fmt: skip
    assert answer.exit_code == 0, answer.output
    assert f"1 hand record(s) attached from {hands}" in answer.output
    seen: dict[int, int] = {}
    with LiveEvent(event) as live:
        movement = live.movement
        for row in sorted(movement.rows, key=lambda r: (r.round, r.table)):
            for board in row.boards:
                times = seen.get(board, 0)
                seen[board] = times + 1
                contract, declarer, result = PLAYED.get(board, [("1NT", "N", "=")] * 3)[times]
                entry = ResultEntry.from_json(
                    {
                        "round": row.round,
                        "board": board,
                        "contract": contract,
                        "declarer": declarer,
                        "result": result,
                    }
                )
                live.enter_result(movement.section, row.table, entry, who=f"table {row.table}")
    return event


def pdf_pages(path: Path) -> list[str]:
    done = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    )
    return [page for page in done.stdout.split("\f") if page.strip()]


def page_count(path: Path) -> int:
    if shutil.which("pdfinfo") is None:
        return len(pdf_pages(path))
    done = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    (pages,) = re.findall(r"^Pages:\s+(\d+)$", done.stdout, re.M)
    return int(pages)


def lines_matching(text: str, *cells: str) -> list[str]:
    """The lines holding ``cells`` side by side, whole: a traveller printed beside its
    hand record shares its lines with the hands."""
    cells_pattern = r"\s+".join(re.escape(c) for c in cells)
    pattern = re.compile(r"(?:^|\s)" + cells_pattern + r"(?:\s|$)")
    return [line for line in text.splitlines() if pattern.search(line)]


@needs_pdf
def test_pdf_report_has_the_ranking_travellers_hands_and_the_name_on_every_page(
    tmp_path: Path,
) -> None:
    event = played_event(tmp_path)
    out = tmp_path / "report.pdf"
    answer = runner.invoke(app, ["session", "report", str(event), "--pdf", str(out)])
    assert answer.exit_code == 0, answer.output
    assert f"wrote {out}" in answer.output
    assert out.read_bytes().startswith(b"%PDF-")
    pages = pdf_pages(out)
    assert page_count(out) == len(pages) >= 2
    for number, page in enumerate(pages, start=1):
        assert f"{NAME} - matchpoints" in page, f"page {number} has no header"
        assert f"page {number} of {len(pages)}" in page
    text = "\n".join(pages)
    # The ranking.
    for cells in [
        ("1", "1N", "6", "16", "66.67"), ("2=", "2N", "6", "10", "41.67"),
        ("2=", "3N", "6", "10", "41.67"), ("1=", "2E", "6", "14", "58.33"),
        ("1=", "3E", "6", "14", "58.33"), ("3", "1E", "6", "8", "33.33"),
    ]:  # fmt: skip
        assert len(lines_matching(text, *cells)) == 1, cells
    # Board 1: its traveller with IMPs against par, its hands, DD table and par.
    assert lines_matching(text, "1N", "1E", "7NTN=", "+1520", "4", "0", "0")
    assert lines_matching(text, "3N", "2E", "6NTN+1", "+1020", "2", "2", "-11")
    assert lines_matching(text, "2N", "3E", "3NTS+4", "+520", "0", "4", "-14")
    for holding in ("♠ AKQJ", "♣ J1098", "♦ 5432", "♥ 8765"):
        assert holding in text
    assert lines_matching(text, "N", "13", "13", "13", "13", "13")
    assert "Par NS +1520: 7NT NS" in text
    # Board 2: no hand record, so no hands and no par.
    board_2 = text[text.index("Board 2\n") : text.index("Board 3\n")]
    assert "♠" not in board_2 and "Par" not in board_2 and "par" not in board_2
    assert lines_matching(board_2, "1N", "1E", "4SN=", "+620", "4", "0")
    assert lines_matching(board_2, "3N", "2E", "4SN-1", "-100", "0", "4")
    assert lines_matching(board_2, "2N", "3E", "3NTE-2", "+100", "2", "2")
    # Boards 3-6: +90 at each table, 2 matchpoints each side.
    assert len(re.findall(r"^\s*\dN\s+\dE\s+1NTN=\s+\+90\s+2\s+2$", text, re.M)) == 12


def test_paper_html_header_is_the_escaped_title() -> None:
    from bridgescore.session.reports.paper import css_string

    assert css_string('A "B" \\ </style>\n') == '"A \\"B\\" \\\\ \\3c /style\\3e \\a "'
