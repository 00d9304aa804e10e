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

VECTORS = Path(__file__).parents[1] / "data" / "par_vectors.jsonl"
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
        (["par"], 2, "give one of a TABLE, DEAL or FILE"),
        (["par", DEAL_1, "--dd", DEAL_1], 2, "got --dd and a TABLE, DEAL or FILE"),
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
        (["par", "sesion.pbn"], 2, "cannot read 'sesion.pbn': no such file"),
        (["par", "a989ca989c345313453"], 1, "has 19 digits"),
        (["par", "N:AKQ"], 1, "'N:AKQ'"),
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
    # Lines of a text file have no board number (unless they give one): named by line.
    assert lines[0].split()[:3] == ["line", "1", DEAL_1]
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
    assert data[4]["error"] == "no game of board 8 has a Deal or a DoubleDummyTricks tag"
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


# Issue 23: `par DEAL` read the deal as a file name; `par FILE` printed a board once per
# table, labelled by line. Now one rule (cli/deal_input.py) for a deal or a file, and one
# row per board, named by its number.


def test_a_deal_or_a_table_as_the_argument() -> None:
    pytest.importorskip("endplay")
    record = vectors(1)[0]
    expected = record["par"]
    assert isinstance(expected, dict)
    deal = str(record["deal"])
    quoted = runner.invoke(app, ["par", deal, "--json"])
    assert quoted.exit_code == 0, quoted.output
    assert json.loads(quoted.stdout) == {"convention": "neutral", **expected["None"]["neutral"]}
    words = runner.invoke(app, ["par", *deal.split(), "--vul", "EW", "--dealer", "N", "--json"])
    assert json.loads(words.stdout) == {"convention": "dealer", **expected["EW"]["dealer N"]}
    table = runner.invoke(app, ["par", DEAL_1])
    assert table.stdout.strip() == "NS +920: 6C= NS  (neutral, vulnerable: None)"


def test_the_issue_deal_gives_its_par() -> None:
    # The deal of the issue: DDS gives 8 tricks in NT to North-South (tests/test_cli_solve),
    # so par with no one vulnerable is 1NT+1 by NS: 90 + 30 + 50 partscore = +120 (Law 77),
    # which EW cannot beat (their best, 6 tricks in spades, makes no contract).
    pytest.importorskip("endplay")
    deal = "N:KJ52.K7.T85.AJ87 A9863.Q3.Q3.T543 Q4.AJ862.J762.K2 T7.T954.AK94.Q96"
    result = runner.invoke(app, ["par", deal])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "NS +120: 1NT+1 NS  (neutral, vulnerable: None)"


def _game(board: int, *tags: str) -> str:
    return f'[Board "{board}"]\n' + "".join(f"{tag}\n" for tag in tags) + "\n"


def test_one_row_per_board_however_many_tables_played_it(tmp_path: Path) -> None:
    first, second = vectors(2)
    assert isinstance(first["par"], dict) and isinstance(second["par"], dict)
    deal_tag = f'[Deal "{first["deal"]}"]'
    text = (
        # Board 5 at three tables: the first gives the deal and its DD table; the
        # second repeats the deal without the table; the third gives only its result.
        _game(
            5, '[Dealer "N"]', '[Vulnerable "NS"]', deal_tag, f'[DoubleDummyTricks "{first["dd"]}"]'
        )
        + _game(5, '[Dealer "N"]', '[Vulnerable "NS"]', deal_tag, '[Contract "3NT"]')
        + _game(5, '[Dealer "N"]', '[Vulnerable "NS"]', '[Contract "2S"]')
        # Board 6 at two tables, the table's DD on each.
        + _game(6, '[Dealer "E"]', '[Vulnerable "EW"]', f'[DoubleDummyTricks "{second["dd"]}"]')
        + _game(6, '[Dealer "E"]', '[Vulnerable "EW"]', f'[DoubleDummyTricks "{second["dd"]}"]')
    )
    path = tmp_path / "session.pbn"
    path.write_text(text)
    result = runner.invoke(app, ["par", str(path)])
    assert result.exit_code == 0, result.output
    rows = result.stdout.splitlines()
    assert [row.split()[:3] for row in rows] == [
        ["board", "5", first["dd"]],
        ["board", "6", second["dd"]],
    ]
    data = json.loads(runner.invoke(app, ["par", str(path), "--json"]).stdout)
    assert [item["board"] for item in data] == [5, 6]
    assert [item["line"] for item in data] == [1, 18]
    assert {k: data[0][k] for k in ("score", "contracts")} == first["par"]["NS"]["dealer N"]
    assert {k: data[1][k] for k in ("score", "contracts")} == second["par"]["EW"]["dealer E"]


def test_a_line_with_a_board_number_is_named_by_it() -> None:
    result = runner.invoke(app, ["par", "-"], input=f"{DEAL_1} 7\n{DEAL_1} Both\n")
    assert result.exit_code == 0, result.output
    assert [row.split()[:2] for row in result.stdout.splitlines()] == [
        ["board", "7"],
        ["line", "2"],
    ]
    data = json.loads(runner.invoke(app, ["par", "-", "--json"], input=f"{DEAL_1} 7\n").stdout)
    assert data[0]["board"] == 7 and data[0]["line"] == 1


def test_a_board_no_game_gives_the_deal_of_is_one_error(tmp_path: Path) -> None:
    text = _game(2, '[Contract "4S"]') + _game(2, '[Contract "3NT"]') + _game(3, '[Dealer "S"]')
    path = tmp_path / "results.pbn"
    path.write_text(text)
    result = runner.invoke(app, ["par", str(path)])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "line 1: no game of board 2 has a Deal or a DoubleDummyTricks tag",
        "line 7: no game of board 3 has a Deal or a DoubleDummyTricks tag",
        "2 board(s) failed",
    ]


def test_records_without_board_numbers_are_named_by_their_place(tmp_path: Path) -> None:
    # A JSON list of records has no lines and, here, no board numbers: "record N".
    first, second = vectors(2)
    records = [
        {"dealer": "N", "vulnerable": "None", "dd_tricks": first["dd"]},
        {"dealer": "E", "vulnerable": "NS", "dd_tricks": second["dd"]},
    ]
    path = tmp_path / "boards.json"
    path.write_text(json.dumps(records))
    result = runner.invoke(app, ["par", str(path)])
    assert result.exit_code == 0, result.output
    assert [row.split()[:3] for row in result.stdout.splitlines()] == [
        ["record", "1", first["dd"]],
        ["record", "2", second["dd"]],
    ]


def test_par_keeps_every_board_whose_deal_is_sound() -> None:
    # Issue 46: board 2 (a note never written) was dropped as "failed", though its deal
    # is sound and `solve` solves it. The problem is told as a note; all three get par.
    path = Path(__file__).parents[1] / "data" / "hands_with_problems.pbn"
    result = CliRunner().invoke(app, ["par", str(path)])
    assert result.exit_code == 0, result.output
    assert [line.split()[:2] for line in result.stdout.splitlines()] == [
        ["board", "1"],
        ["board", "2"],
        ["board", "3"],
    ]
    assert 'note: board 2: line 23: note =1= has no [Note "1:..."]' in result.stderr
    data = json.loads(CliRunner().invoke(app, ["par", str(path), "--json"]).stdout)
    assert [board["board"] for board in data] == [1, 2, 3]
    assert data[1]["notes"] == ['line 23: note =1= has no [Note "1:..."]']
    assert "notes" not in data[0]
