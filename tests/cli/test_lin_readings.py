"""Readings made right (issue 45, item 7): a LIN record or a BBO handviewer link on
the command line keeps its dealer and vulnerability (``par``, ``solve``,
``handrecord``), and the link form with a parameter a hand is read wherever a deal is.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import bridgescore as bs
from bridgescore.cli.app import app
from bridgescore.core import Seat, Strain, Vulnerability
from bridgescore.formats import read_records

runner = CliRunner()
# The record: md's 3 is North dealing; hands S, W, N (East the rest); sv|b| Both.
RECORD = "md|3SJ863HAQDKT9542C8,ST52HJT6D86CKQJT9,SA4H98542D7C65432,|sv|b|"
DEAL = "N:A4.98542.7.65432 KQ97.K73.AQJ3.A7 J863.AQ.KT9542.8 T52.JT6.86.KQJT9"
LINK = (
    "https://www.bridgebase.com/tools/handviewer.html?n=sa4h98542d7c65432"
    "&e=skq97hk73daqj3ca7&s=sj863haqdkt9542c8&w=st52hjt6d86ckqjt9&d=n&v=b&b=13"
    "&a=1nppp&p=c5cac8ck"
)


def _par_by_hand() -> int:
    """Par from North-South's side, worked out from the DD table and Law 77 scores:
    EW's best making contract, and whether any NS sacrifice doubled costs less."""
    table = bs.solve(bs.Deal.from_pbn(DEAL))
    best_ew = 0
    for strain in Strain:
        tricks = max(table.tricks(Seat.EAST, strain), table.tricks(Seat.WEST, strain))
        if tricks >= 7:
            best_ew = max(best_ew, bs.score(f"{tricks - 6}{strain.letter}=", vulnerable=True))
    assert best_ew == 600  # 3NT by E or W, nine tricks, vulnerable
    # NS's cheapest sacrifice over EW's 3NT: four of a suit, or 4NT, doubled.
    ns_tricks = {
        strain: max(table.tricks(Seat.NORTH, strain), table.tricks(Seat.SOUTH, strain))
        for strain in Strain
    }
    cheapest = min(
        -bs.score(f"4{strain.letter}X-{10 - tricks}", vulnerable=True)
        for strain, tricks in ns_tricks.items()
    )
    assert cheapest > best_ew  # no sacrifice pays
    return -best_ew


def test_par_of_a_lin_record_keeps_its_vulnerability() -> None:
    pytest.importorskip("endplay")
    assert _par_by_hand() == -600
    result = runner.invoke(app, ["par", RECORD])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "EW +600: 3NT= EW  (dealer N, vulnerable: Both)"


def test_a_record_stating_no_one_vulnerable_is_not_read_as_its_boards() -> None:
    # sv|o| on board 7 (Both by Law 2): no one vulnerable, as stated. Vulnerability.NONE
    # is an IntEnum worth 0, which once fell through an "or" to the board's Both.
    pytest.importorskip("endplay")
    record = RECORD.replace("sv|b|", "sv|o|ah|Board 7|")
    result = runner.invoke(app, ["par", record])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "EW +400: 3NT= EW  (dealer N, vulnerable: None)"


def test_the_options_still_win_over_what_the_record_states() -> None:
    pytest.importorskip("endplay")
    result = runner.invoke(app, ["par", RECORD, "--vul", "None", "--neutral"])
    assert result.output.splitlines()[-1] == "EW +400: 3NT= EW  (neutral, vulnerable: None)"


def test_solve_and_handrecord_keep_the_records_dealer_and_vulnerability(tmp_path: Path) -> None:
    pytest.importorskip("endplay")
    result = runner.invoke(app, ["solve", RECORD, "--json"])
    data = json.loads(result.stdout)
    assert (data["dealer"], data["vulnerability"], data["deal"]) == ("N", "Both", DEAL)
    assert runner.invoke(app, ["solve", RECORD]).stdout.splitlines()[0] == (
        "Dealer North, Vul Both"
    )
    out = tmp_path / "one.html"
    result = runner.invoke(app, ["handrecord", RECORD, "--out", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert "Vul Both" in page and "Vul None" not in page


def test_the_link_with_a_parameter_a_hand_is_read() -> None:
    (record,) = read_records(text=LINK)
    assert record.problems == ()
    assert record.deal == bs.Deal.from_pbn(DEAL)
    assert (record.board, record.dealer, record.vulnerable) == (
        13,
        Seat.NORTH,
        Vulnerability.BOTH,
    )
    assert [call.call for call in record.auction or ()] == ["1NT", "Pass", "Pass", "Pass"]
    assert [str(card) for card in record.play or ()] == ["C5", "CA", "C8", "CK"]


def test_a_link_without_a_dealer_states_none_and_its_board_says_it() -> None:
    link = LINK.replace("&d=n", "").replace("&v=b", "")
    (record,) = read_records(text=link)
    assert record.problems == ()
    assert (record.dealer_seat, record.vulnerable) == (None, None)
    # Board 13: North deals, both vulnerable (Law 2).
    assert (record.dealer, record.vulnerability) == (
        Seat.NORTH,
        Vulnerability.BOTH,
    )


def test_par_reads_the_link(tmp_path: Path) -> None:
    pytest.importorskip("endplay")
    result = runner.invoke(app, ["par", LINK])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "EW +600: 3NT= EW  (dealer N, vulnerable: Both)"
    path = tmp_path / "link.txt"
    path.write_text(LINK + "\n", encoding="utf-8")
    converted = tmp_path / "link.pbn"
    assert runner.invoke(app, ["convert", str(path), str(converted)]).exit_code == 0
    assert '[Vulnerable "All"]' in converted.read_text(encoding="utf-8")


def test_a_bad_link_value_is_named() -> None:
    (record,) = read_records(text=LINK.replace("v=b", "v=q"))
    assert "the link's vulnerability (v) 'q': expected -, n, e or b" in record.problems[0].message
