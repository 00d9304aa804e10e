"""``bridgescore par``: one table or deal, batches of lines and PBN files, JSON.

Expected values are docs/par-definition.md's worked deals and the shared vectors
(tests/data/par_vectors.jsonl, equal to DDS's DealerPar).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app

runner = CliRunner()

VECTORS = Path(__file__).parent / "data" / "par_vectors.jsonl"
# docs/par-definition.md worked deals 1 and 2 as PBN DoubleDummyTricks (N, S, E, W; NT S H D C).
DEAL_1 = "a989ca989c3453134531"
DEAL_2 = "32929329297a4a47a4a4"
# Each side of this deal takes every trick in two suits (par.md-independent: 7S by NS
# is the highest make, and EW's cheapest way out, 7NT, goes down 13).
SOLID = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


def vectors(count: int) -> list[dict[str, object]]:
    lines = VECTORS.read_text().splitlines()[:count]
    return [json.loads(line) for line in lines]


def test_one_table_text() -> None:
    result = runner.invoke(app, ["par", "--dd", DEAL_1])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "NS +920: 6C= NS  (neutral, vulnerable: None)"


def test_one_table_json() -> None:
    result = runner.invoke(app, ["par", "--dd", DEAL_2, "--vul", "Both", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "score": -500,
        "convention": "neutral",
        "contracts": ["5CX-2 NS", "5HX-2 NS"],
    }


@pytest.mark.parametrize("record", vectors(5))
def test_board_and_dealer_options(record: dict[str, object]) -> None:
    expected = record["par"]
    assert isinstance(expected, dict)
    # Board 2: NS vulnerable, East deals.
    board = runner.invoke(app, ["par", "--dd", str(record["dd"]), "--board", "2", "--json"])
    assert json.loads(board.stdout) == {"convention": "dealer", **expected["NS"]["dealer E"]}
    dealer = runner.invoke(
        app, ["par", "--dd", str(record["dd"]), "--vul", "EW", "--dealer", "n", "--json"]
    )
    assert json.loads(dealer.stdout) == {"convention": "dealer", **expected["EW"]["dealer N"]}
    neutral = runner.invoke(
        app, ["par", "--dd", str(record["dd"]), "--board", "2", "--neutral", "--json"]
    )
    assert json.loads(neutral.stdout) == {"convention": "neutral", **expected["NS"]["neutral"]}


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["par"], 2, "give one of --dd"),
        (["par", "--dd", DEAL_1, "--deal", SOLID], 2, "--dd and --deal"),
        (["par", "--dd", DEAL_1, "--vul", "NS", "--board", "3"], 2, "not both"),
        (["par", "--dd", DEAL_1, "--dealer", "N", "--neutral"], 2, "contradict"),
        (["par", "--dd", DEAL_1, "--vul", "sideways"], 2, "'sideways'"),
        (["par", "--dd", DEAL_1, "--dealer", "Q"], 2, "'Q'"),
        (["par", "--dd", DEAL_1, "--board", "0"], 2, "board number 0"),
        (["par", "--dd", "a989ca989c345313453"], 1, "'a989ca989c345313453'"),
        (["par", "--dd", "e989ca989c3453134531"], 1, "impossible"),
        (["par", "--deal", "N:AKQ"], 1, "'N:AKQ'"),
        (["par", "/nonexistent/tables.txt"], 2, "cannot read"),
    ],
)
def test_bad_input(args: list[str], code: int, words: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == code
    assert words in result.stderr


def test_batch_of_lines_goes_on_past_bad_ones(tmp_path: Path) -> None:
    records = vectors(3)
    lines = [
        "# tables with their vulnerability and dealer",
        f"{records[0]['dd']}",
        f"{records[1]['dd']} EW",
        "not a table",
        f"{records[2]['dd']} Both E",
        f"{records[2]['dd']} 2",  # board 2: NS vulnerable, East deals
        f"{records[2]['dd']} NS banana",
    ]
    path = tmp_path / "tables.txt"
    path.write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["par", str(path), "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert [item["line"] for item in data] == [2, 3, 4, 5, 6, 7]
    pars = [record["par"] for record in records]
    assert isinstance(pars[0], dict) and isinstance(pars[1], dict) and isinstance(pars[2], dict)
    assert data[0]["score"] == pars[0]["None"]["neutral"]["score"]
    assert data[1]["contracts"] == pars[1]["EW"]["neutral"]["contracts"]
    assert "'not'" in data[2]["error"]
    assert data[3]["score"] == pars[2]["Both"]["dealer E"]["score"]
    assert data[4]["score"] == pars[2]["NS"]["dealer E"]["score"]
    assert "'banana'" in data[5]["error"]
    assert "line 4:" in result.stderr and "line 7:" in result.stderr
    assert "2 board(s) failed" in result.stderr


def test_batch_from_standard_input_text() -> None:
    result = runner.invoke(app, ["par", "-", "--vul", "Both"], input=f"{DEAL_1}\n{DEAL_2}\n")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split()[:2] == ["1", DEAL_1]
    assert "NS +1370: 6C= NS" in lines[0]  # 6C= vulnerable (docs/rules.md §1.9)
    assert "EW +500: 5CX-2 NS, 5HX-2 NS" in lines[1]


def test_pbn_file(tmp_path: Path) -> None:
    records = vectors(2)
    text = (
        '[Board "5"]\n[Dealer "N"]\n[Vulnerable "NS"]\n'
        f'[Deal "{records[0]["deal"]}"]\n[DoubleDummyTricks "{records[0]["dd"]}"]\n\n'
        '[Board "6"]\n[Dealer "E"]\n[Vulnerable "EW"]\n'
        f'[DoubleDummyTricks "{records[1]["dd"]}"]\n\n'
        f'[Board "7"]\n[Dealer "X"]\n[DoubleDummyTricks "{records[1]["dd"]}"]\n\n'
        '[Board "9"]\n[Deal "N:AKQ.. ... ...\n\n'
        '[Board "8"]\n[Dealer "W"]\n\n'
    )
    path = tmp_path / "boards.pbn"
    path.write_text(text)
    result = runner.invoke(app, ["par", str(path), "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    first, second = records[0]["par"], records[1]["par"]
    assert isinstance(first, dict) and isinstance(second, dict)
    assert data[0]["input"] == "board 5"
    assert {k: data[0][k] for k in ("score", "contracts")} == first["NS"]["dealer N"]
    assert {k: data[1][k] for k in ("score", "contracts")} == second["EW"]["dealer E"]
    assert data[1]["convention"] == "dealer"
    assert "Dealer tag" in data[2]["error"] and data[2]["line"] == 13
    assert data[3]["line"] == 17 and "malformed" in data[3]["error"]
    assert "neither a Deal nor a DoubleDummyTricks" in data[4]["error"]
    neutral = runner.invoke(app, ["par", str(path), "--neutral", "--json"])
    assert json.loads(neutral.stdout)[1]["contracts"] == second["EW"]["neutral"]["contracts"]


def test_deal_is_solved_with_dds() -> None:
    pytest.importorskip("endplay")
    result = runner.invoke(app, ["par", "--deal", SOLID, "--dealer", "N"])
    assert result.exit_code == 0, result.output
    assert "Double-dummy tricks" in result.stdout
    assert result.stdout.splitlines()[-1] == "NS +1510: 7S= NS  (dealer N, vulnerable: None)"
    record = vectors(1)[0]
    solved = runner.invoke(app, ["par", "--deal", str(record["deal"]), "--json"])
    expected = record["par"]
    assert isinstance(expected, dict)
    assert json.loads(solved.stdout) == {"convention": "neutral", **expected["None"]["neutral"]}


def test_batch_of_deals_is_solved_in_one_go(tmp_path: Path) -> None:
    pytest.importorskip("endplay")
    records = vectors(3)
    path = tmp_path / "deals.txt"
    path.write_text("".join(f"{record['deal']} Both N\n" for record in records))
    result = runner.invoke(app, ["par", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for item, record in zip(data, records, strict=True):
        assert item["dd"] == record["dd"]
        expected = record["par"]
        assert isinstance(expected, dict)
        assert item["contracts"] == expected["Both"]["dealer N"]["contracts"]


def test_pbn_on_standard_input_is_recognised() -> None:
    record = vectors(1)[0]
    text = f'% PBN 2.1\n[Board "3"]\n[Dealer "S"]\n[DoubleDummyTricks "{record["dd"]}"]\n'
    result = runner.invoke(app, ["par", "-", "--json"], input=text)
    assert result.exit_code == 0, result.output
    # No Vulnerable tag: --vul's default (None) applies; the Dealer tag gives South.
    data = json.loads(result.stdout)[0]
    assert data["input"] == "board 3" and data["dealer"] == "S"
    assert data["vulnerability"] == "None" and data["convention"] == "dealer"
    # With no vulnerability, South dealing gives what North dealing gives (same side).
    expected = record["par"]
    assert isinstance(expected, dict)
    assert data["score"] == expected["None"]["dealer N"]["score"]
