"""Hand records: the HTML of a board, pages of 2/4/6, the CLI, PDF and a real browser."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bridgescore import DDTable, Deal, Seat, Side, Strain, Vulnerability, par
from bridgescore.board import Board
from bridgescore.boardset import DealSeed, deal_set
from bridgescore.boardset.handrecord import board_html, hand_records_html, makeable_contracts
from bridgescore.boardset.pdf import chromium_path
from bridgescore.cli.app import app
from bridgescore.errors import BridgeError
from bridgescore.formats.boardset import format_boards

runner = CliRunner()

SAMPLE = "N:KJ52.K7.T85.AJ87 A9863.Q3.Q3.T543 Q4.AJ862.J762.K2 T7.T954.AK94.Q96"
SAMPLE_DD = "87788877884655556555"  # DDS, tests/data/par_vectors.jsonl line 1


def sample_board(number: int = 1) -> Board:
    table = DDTable.parse(SAMPLE_DD)
    board = Board(number, Deal.from_pbn(SAMPLE))
    return board.with_analysis(table, par(table, board.vulnerability, board.dealer))


def test_makeable_contracts_of_a_known_table() -> None:
    # N/S take 8 8 / 7 7 / 7 7 / 8 8 / 8 8 tricks in NT S H D C; E/W at most 6.
    made = makeable_contracts(DDTable.parse(SAMPLE_DD))
    assert made[Side.NS] == [
        (2, Strain.NOTRUMP, (Seat.NORTH, Seat.SOUTH)),
        (1, Strain.SPADES, (Seat.NORTH, Seat.SOUTH)),
        (1, Strain.HEARTS, (Seat.NORTH, Seat.SOUTH)),
        (2, Strain.DIAMONDS, (Seat.NORTH, Seat.SOUTH)),
        (2, Strain.CLUBS, (Seat.NORTH, Seat.SOUTH)),
    ]
    assert made[Side.EW] == []
    # Only one partner making it is named: West makes 7 spades, East 6.
    one_sided = makeable_contracts(DDTable.parse("00000000000000067666"))
    assert one_sided[Side.EW] == [(1, Strain.SPADES, (Seat.WEST,))]


def test_board_html_shows_hands_hcp_dd_and_par() -> None:
    html = board_html(sample_board())
    assert "<h2>Board 1</h2>" in html and "Dealer North" in html and "Vul None" in html
    # Hands with symbols, hearts and diamonds red, 10 written out, highest first.
    assert '<span class="black">♠</span> KJ52' in html
    assert '<span class="red">♥</span> AJ862' in html
    assert '<span class="red">♦</span> 1085' in html
    # HCP by seat: N 12 (K K A J J), E 8 (A Q Q), S 11 (Q A J J K), W 9 (A K Q).
    hcp = dict(re.findall(r'title="(\w+): (\d+) HCP"', html))
    assert hcp == {"North": "12", "East": "8", "South": "11", "West": "9"}
    # The DD grid: row N reads NT 8, S 7, H 7, D 8, C 8; row E reads 4 6 5 5 5.
    rows = re.findall(r"<tr><th>([NSEW])</th>((?:<td>\d+</td>)+)</tr>", html)
    grid = {seat: re.findall(r"\d+", cells) for seat, cells in rows}
    assert grid == {
        "N": ["8", "7", "7", "8", "8"],
        "S": ["8", "7", "7", "8", "8"],
        "E": ["4", "6", "5", "5", "5"],
        "W": ["5", "6", "5", "5", "5"],
    }
    assert "Par NS +120: 1NT+1 NS" in html  # par vectors: None vul, dealer N
    assert 'class="compass"' in html  # nobody vulnerable on board 1


def test_vulnerable_sides_and_dealer_are_marked() -> None:
    html = board_html(sample_board(7))  # board 7: dealer South, both vulnerable
    assert 'class="compass vul-ns vul-ew"' in html
    assert re.search(r'<i class="dealer" title="dealer">S</i>', html)
    assert "Vul Both" in html and "Dealer South" in html


def test_makeable_line_instead_of_the_grid() -> None:
    html = board_html(sample_board(), makeable=True)
    assert 'class="dd"' not in html
    assert "Makeable: NS 2NT 1" in html and "EW —" in html


@pytest.mark.parametrize(("per_page", "pages"), [(2, 4), (4, 2), (6, 2)])
def test_pages_hold_whole_boards(per_page: int, pages: int) -> None:
    boards = [sample_board(number) for number in range(1, 8)]
    html = hand_records_html(boards, per_page=per_page, paper="letter", title="Club <night>")
    sections = html.split('<section class="page"')[1:]
    assert len(sections) == pages
    counts = [section.count('<article class="board"') for section in sections]
    assert counts == [min(per_page, 7 - i * per_page) for i in range(pages)]
    assert "Club &lt;night&gt;" in html and "size: letter" in html
    assert f"page {pages} of {pages}" in html


def test_bad_layout_requests() -> None:
    with pytest.raises(BridgeError, match="2, 4 or 6"):
        hand_records_html([sample_board()], per_page=3)
    with pytest.raises(BridgeError, match="no boards"):
        hand_records_html([], per_page=4)


def test_cli_writes_html_using_the_tables_in_the_file(tmp_path: Path) -> None:
    boards = [sample_board(number) for number in (1, 2, 3)]
    source = tmp_path / "set.pbn"
    source.write_text(format_boards(boards, "pbn"))
    out = tmp_path / "records.html"
    result = runner.invoke(app, ["handrecord", str(source), "--out", str(out), "--per-page", "2"])
    assert result.exit_code == 0, result.output
    html = out.read_text()
    assert html.count('<article class="board"') == 3 and "page 2 of 2" in html
    # Board 2 (NS vulnerable, dealer East): par from the same table, East's convention.
    expected = par(DDTable.parse(SAMPLE_DD), Vulnerability.NS, Seat.EAST)
    assert f"Par NS +{expected.score}" in html


def test_cli_errors(tmp_path: Path) -> None:
    result = runner.invoke(app, ["handrecord", "missing.pbn", "--out", "x.html"])
    assert result.exit_code == 2 and "missing.pbn" in result.stderr
    bad = tmp_path / "bad.pbn"
    bad.write_text(
        f'[Board "1"]\n[Deal "N:AKQ"]\n\n[Board "2"]\n[Deal "{SAMPLE}"]\n'
        f'[DoubleDummyTricks "{SAMPLE_DD}"]\n'
    )
    out = tmp_path / "x.html"
    result = runner.invoke(app, ["handrecord", str(bad), "--out", str(out), "--makeable"])
    assert result.exit_code == 1 and "line 2" in result.stderr and "N:AKQ" in result.stderr
    # The good board is still printed.
    assert out.exists() and "<h2>Board 2</h2>" in out.read_text()
    assert "<h2>Board 1</h2>" not in out.read_text()
    result = runner.invoke(app, ["handrecord", str(bad), "--out", "x.doc"])
    assert result.exit_code == 2 and ".html or .pdf" in result.stderr
    result = runner.invoke(app, ["handrecord", str(bad), "--out", "x.html", "--paper", "a3"])
    assert result.exit_code == 2 and "a4 or letter" in result.stderr


def test_missing_tables_are_solved(tmp_path: Path) -> None:
    pytest.importorskip("endplay")
    source = tmp_path / "hands.pbn"
    source.write_text(format_boards([Board(1, Deal.from_pbn(SAMPLE))], "pbn"))
    out = tmp_path / "records.html"
    result = runner.invoke(app, ["handrecord", str(source), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Par NS +120: 1NT+1 NS" in out.read_text()


needs_chromium = pytest.mark.skipif(
    chromium_path() is None,
    reason="headless Chromium is not installed (apt-get install chromium): PDF not tested",
)


@needs_chromium
@pytest.mark.parametrize(("paper", "per_page", "size"), [("a4", 6, "A4"), ("letter", 4, "letter")])
def test_pdf_pages(tmp_path: Path, paper: str, per_page: int, size: str) -> None:
    boards = [sample_board(number) for number in range(1, 10)]
    source = tmp_path / "set.pbn"
    source.write_text(format_boards(boards, "pbn"))
    out = tmp_path / "records.pdf"
    args = ["handrecord", str(source), "--out", str(out), "--paper", paper]
    result = runner.invoke(app, [*args, "--per-page", str(per_page)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"%PDF-")
    if shutil.which("pdfinfo") is None:
        pytest.skip("pdfinfo (poppler-utils) is not installed: page count not checked")
    info = subprocess.run(["pdfinfo", str(out)], capture_output=True, text=True, check=True)
    assert re.search(r"Pages:\s+(\d+)", info.stdout)[1] == str(-(-9 // per_page))  # type: ignore[index]
    assert f"({size})" in info.stdout


@needs_chromium
def test_no_board_overflows_its_box_in_a_browser(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    # Long suits and every layout: the content must fit inside each board's box.
    boards = deal_set(DealSeed.from_test_number(9), range(1, 13))
    long_suits = Board(13, Deal.from_pbn(
        "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    ))  # fmt: skip
    boards.append(long_suits)
    tables = {b.number: DDTable.parse(SAMPLE_DD) for b in boards}
    analysed = [
        b.with_analysis(tables[b.number], par(tables[b.number], b.vulnerability)) for b in boards
    ]
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(chromium_path()), args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page()
            page.emulate_media(media="print")
            for paper in ("a4", "letter"):
                for per_page in (2, 4, 6):
                    page.set_content(hand_records_html(analysed, per_page=per_page, paper=paper))  # type: ignore[arg-type]
                    overflow: list[Any] = page.evaluate(
                        """() => [...document.querySelectorAll('.board, .page')].filter(
                             b => b.scrollHeight > b.clientHeight + 1
                               || b.scrollWidth > b.clientWidth + 1).map(b => b.id)"""
                    )
                    assert overflow == [], (paper, per_page, overflow)
        finally:
            browser.close()


def test_per_page_help_and_validation_agree(tmp_path: Path) -> None:
    # Issue 23: the help said "2, 4 or 6" while the option took any number from 2 to 6.
    result = runner.invoke(app, ["handrecord", "--help"])
    (line,) = [line for line in result.stdout.splitlines() if line.startswith("  --per-page")]
    assert re.search(r"--per-page <2\|4\|6>\s+Boards a printed page: 2, 4 or 6\.", line)
    source = tmp_path / "set.pbn"
    source.write_text(format_boards([sample_board(number) for number in range(1, 8)], "pbn"))
    out = tmp_path / "records.html"
    for refused in ("0", "1", "3", "5", "7", "four"):
        result = runner.invoke(
            app, ["handrecord", str(source), "--out", str(out), "--per-page", refused]
        )
        assert result.exit_code == 2, refused
        assert f"'{refused}' is not one of '2', '4', '6'" in result.stderr
        assert not out.exists()
    for accepted, pages in (("2", 4), ("4", 2), ("6", 2)):  # 7 boards
        result = runner.invoke(
            app, ["handrecord", str(source), "--out", str(out), "--per-page", accepted]
        )
        assert result.exit_code == 0, result.output
        assert f"page {pages} of {pages}" in out.read_text()


def test_cli_takes_one_deal_by_the_shared_rule(tmp_path: Path) -> None:
    # Issue 23: a deal where a file is expected is read as the deal (cli/deal_input.py),
    # as solve and par do: one board, board 1 (North deals, no one vulnerable, Law 2).
    pytest.importorskip("endplay")
    out = tmp_path / "deal.html"
    result = runner.invoke(app, ["handrecord", *SAMPLE.split(), "--out", str(out)])
    assert result.exit_code == 0, result.output
    html = out.read_text()
    assert html.count('<article class="board"') == 1 and "<h2>Board 1</h2>" in html
    expected = par(DDTable.parse(SAMPLE_DD), Vulnerability.NONE, Seat.NORTH)
    assert f"Par NS +{expected.score}" in html
    assert "<title>Hand record" in html
    missing = runner.invoke(app, ["handrecord", "sesion.pbn", "--out", str(out)])
    assert missing.exit_code == 2
    assert "cannot read 'sesion.pbn': no such file, and it is not a deal" in missing.stderr


# -- counts that count what they name (issue 46) -------------------------------------------------

PROBLEMS = Path(__file__).parents[1] / "data" / "hands_with_problems.pbn"


def test_handrecord_counts_boards_written_missing_and_problems_apart(tmp_path: Path) -> None:
    # Three sound deals; one problem the reader finds (a note never written). It said
    # "3 board(s) written", then "1 board(s) could not be read and are missing".
    out = tmp_path / "records.html"
    result = runner.invoke(app, ["handrecord", str(PROBLEMS), "--out", str(out), "--no-progress"])
    assert result.exit_code == 1
    assert "3 board(s) written to" in result.stderr
    assert f"error: 1 problem(s) in {PROBLEMS} (above); no board is missing" in result.stderr
    assert out.read_text().count("Board 3") >= 1


def test_handrecord_says_how_many_boards_a_bad_deal_costs(tmp_path: Path) -> None:
    # Board 2's West holds 12 cards: that board is missing, the other two are written.
    text = PROBLEMS.read_text().replace("KJT83.J.JT96.743", "KJT83.J.JT96.74")
    path = tmp_path / "set.pbn"
    path.write_text(text)
    out = tmp_path / "records.html"
    result = runner.invoke(app, ["handrecord", str(path), "--out", str(out), "--no-progress"])
    assert result.exit_code == 1
    assert "2 board(s) written to" in result.stderr
    assert "2 problem(s) in" in result.stderr
    assert "1 board(s) could not be read and are missing" in result.stderr
