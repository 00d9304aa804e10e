"""Board sets through the one format stack (issue 24, items 1 and 2).

Whatever ``bridgescore deal --boards`` writes, in every format, reads back through
``read_records``, ``convert``, ``game``, ``handrecord`` and ``session import``; an
event with quotes is escaped, and one a format cannot hold is refused before
anything is dealt.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore.boardset import DealSeed, deal_set
from bridgescore.cli.app import app
from bridgescore.core import Seat, Vulnerability
from bridgescore.deal import Deal
from bridgescore.formats import read_records
from bridgescore.formats.boardset import read_boards
from bridgescore.formats.csv import read_csv
from bridgescore.formats.json import read_json

runner = CliRunner()
EVENT = 'The "Big" Cup, 2026; \\ final'
# Law 2: dealers go N, E, S, W from board 1; vulnerability None, NS, EW, All.
LAW_2 = {
    1: (Seat.NORTH, Vulnerability.NONE),
    2: (Seat.EAST, Vulnerability.NS),
    3: (Seat.SOUTH, Vulnerability.EW),
    4: (Seat.WEST, Vulnerability.BOTH),
}
SET_FORMATS = ("pbn", "lin", "csv", "json")


def _dealt(tmp_path: Path, fmt: str, *extra: str) -> Path:
    result = runner.invoke(
        app,
        ["deal", "--boards", "1-4", "--seed", "5", "--event", EVENT, "--format", fmt, *extra],
    )
    assert result.exit_code == 0, result.output
    path = tmp_path / f"set.{fmt}"
    path.write_text(result.stdout, encoding="utf-8")
    return path


def _expected_deals() -> dict[int, Deal | None]:
    # The deals seed 5 gives each board (the seed's own dealer, not a format's).
    return {
        board.number: board.deal for board in deal_set(DealSeed.from_test_number(5), range(1, 5))
    }


def test_the_issue_command_escapes_the_event_and_reads_it_back(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["deal", "--boards", "1-2", "--seed", "5", "--event", 'The "Big" Cup']
    )
    assert result.exit_code == 0
    assert '[Event "The \\"Big\\" Cup"]' in result.stdout.splitlines()
    records = list(read_records(text=result.stdout))
    assert [(r.event, r.problems) for r in records] == [('The "Big" Cup', ())] * 2


@pytest.mark.parametrize("fmt", SET_FORMATS)
def test_every_board_set_format_reads_through_read_records(tmp_path: Path, fmt: str) -> None:
    records = list(read_records(_dealt(tmp_path, fmt)))
    deals = _expected_deals()
    assert [r.problems for r in records] == [()] * 4
    assert [r.board for r in records] == [1, 2, 3, 4]
    for record in records:
        assert (record.dealer, record.vulnerability) == LAW_2[record.board]
        assert record.deal == deals[record.board]
        assert record.event == EVENT


@pytest.mark.parametrize("fmt", SET_FORMATS)
def test_every_board_set_format_converts(tmp_path: Path, fmt: str) -> None:
    path = _dealt(tmp_path, fmt)
    out = tmp_path / "out.pbn"
    result = runner.invoke(app, ["convert", str(path), str(out)])
    assert result.exit_code == 0, result.output
    back = list(read_records(out))
    assert [(r.board, r.deal, r.event) for r in back] == [
        (number, deal, EVENT) for number, deal in _expected_deals().items()
    ]


@pytest.mark.parametrize("fmt", SET_FORMATS)
def test_every_board_set_format_is_read_by_game(tmp_path: Path, fmt: str) -> None:
    result = runner.invoke(app, ["game", str(_dealt(tmp_path, fmt))])
    # A hand record has no contract to score: each board is listed as one, none refused.
    assert result.exit_code == 0, result.output
    assert "unknown field" not in result.output
    assert [f"board {n}" in result.output for n in range(1, 5)] == [True] * 4
    assert result.stdout.count("a hand record: no result") == 4
    assert "is a hand record: 4 board(s), no results to score" in result.stderr


@pytest.mark.parametrize("fmt", SET_FORMATS)
def test_every_board_set_format_makes_hand_records(tmp_path: Path, fmt: str) -> None:
    pytest.importorskip("endplay")
    out = tmp_path / "records.html"
    result = runner.invoke(app, ["handrecord", str(_dealt(tmp_path, fmt)), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "4 board(s) written" in result.output


@pytest.mark.parametrize("fmt", SET_FORMATS)
def test_every_board_set_format_imports_into_a_session(tmp_path: Path, fmt: str) -> None:
    db = tmp_path / "club.db"
    result = runner.invoke(app, ["session", "import", str(db), str(_dealt(tmp_path, fmt))])
    assert result.exit_code == 0, result.output
    assert "4 hand record(s) added" in result.output


@pytest.mark.parametrize("fmt", ("pbn", "csv", "json"))  # LIN's upload form has no DD
def test_an_analysed_set_reads_back_its_tables(tmp_path: Path, fmt: str) -> None:
    pytest.importorskip("endplay")
    text = _dealt(tmp_path, fmt, "--analyse").read_text(encoding="utf-8")
    boards, problems = read_boards(text, fmt)  # type: ignore[arg-type]
    assert problems == []
    assert [b.number for b in boards] == [1, 2, 3, 4]
    assert all(b.dd_table is not None for b in boards)


@pytest.mark.parametrize(
    ("fmt", "event", "words"),
    [
        ("lin", "A|B", "holds '|'"),
        ("pbn", "A\nB", "spans lines"),
        ("lin", "A\nB", "line break"),
        ("csv", "A\rB", "carriage return"),
    ],
)
def test_an_event_the_format_cannot_hold_is_refused(fmt: str, event: str, words: str) -> None:
    result = runner.invoke(
        app, ["deal", "--boards", "1-2", "--seed", "5", "--event", event, "--format", fmt]
    )
    assert result.exit_code == 2
    assert words in result.output and "Traceback" not in result.output
    assert "qx|" not in result.stdout and "[Board" not in result.stdout


def test_csv_reports_a_bad_value_on_its_line() -> None:
    text = (
        "board,dealer,vulnerable,deal,event\n"
        '1,N,None,N:AKQJ.AKQ.AKQ.AKQ ... ,"two\nlines"\n'
        "2,E,Sometimes,N:AKQJT98765432... ... ... ...,x\n"
    )
    records = list(read_csv(text))
    assert [
        (p.line, "expected 4 separated by spaces" in p.message) for p in records[0].problems
    ] == [(2, True)]
    # The row after a value of two lines starts on line 4.
    assert [(p.line, "'Sometimes'" in p.message) for p in records[1].problems] == [(4, True)]


def test_csv_without_a_column_says_which() -> None:
    (record,) = read_csv("board,dealer,deal\n1,N,x\n")
    assert [str(p) for p in record.problems] == [
        "line 1: the header 'board,dealer,deal' lacks vulnerable: "
        "expected board,dealer,vulnerable,deal"
    ]


def test_json_board_set_with_an_unknown_field_is_reported() -> None:
    text = '{"event": "E", "boards": [{"board": 1, "deal": "N:- - - -", "colour": "red"}]}'
    (record,) = read_json(text)
    assert "unknown field(s) ['colour']" in record.problems[0].message


def test_json_reports_a_bad_record_on_its_line() -> None:
    text = '[\n  {"board": 1},\n  {"board": 2,\n   "dealer": "Q"}\n]\n'
    records = list(read_json(text))
    assert records[0].problems == ()
    assert [str(p) for p in records[1].problems] == [
        "line 3: record 2: unknown seat 'Q': expected N, E, S or W"
    ]


def test_json_board_set_reports_a_bad_board_on_its_line(tmp_path: Path) -> None:
    text = _dealt(tmp_path, "json").read_text(encoding="utf-8")
    # Each board's entry starts on a line of its own "{" (as written): board 2's is the second.
    starts = [n for n, line in enumerate(text.splitlines(), start=1) if line == "    {"]
    start = starts[1]
    bad = text.replace('"vulnerable": "NS"', '"vulnerable": "Sometimes"')
    records = list(read_json(bad))
    assert [p.line for p in records[1].problems] == [start]
    assert "'Sometimes'" in records[1].problems[0].message


def test_one_board_value_for_board_sets_and_sessions() -> None:
    from bridgescore.board import Board
    from bridgescore.session.scoring import event

    # One class, in one home: the board-set dealer makes it and an event holds it.
    (board,) = deal_set(DealSeed.from_test_number(5), [7])
    assert type(board) is Board
    # Law 2: board 7 is dealt by South, both sides vulnerable.
    assert (board.dealer, board.vulnerability) == (Seat.SOUTH, Vulnerability.BOTH)
    assert event.Event(boards={7: board}).board(7) is board


def test_a_board_without_its_deal_is_refused_by_every_writer() -> None:
    from bridgescore.board import Board
    from bridgescore.errors import NotationError
    from bridgescore.formats.boardset import format_boards

    for fmt in SET_FORMATS:
        with pytest.raises(NotationError, match="board 3 has no deal"):
            format_boards([Board(3)], fmt)  # type: ignore[arg-type]


def test_an_unescaped_quote_is_reported_on_its_line() -> None:
    # What the writer wrote before issue 24: the quotes end the value early.
    text = '% PBN 2.1\n\n[Event "The "Big" Cup"]\n[Board "1"]\n'
    (record,) = read_records(text=text)
    assert [str(p) for p in record.problems] == [
        'line 3: malformed tag pair \'[Event "The "Big" Cup"]\': expected [Name "value"]'
    ]


def test_convert_to_csv_names_each_board_csv_cannot_hold(tmp_path: Path) -> None:
    # A game with players and an auction is no board set: refused by name, not thinned.
    source = tmp_path / "game.pbn"
    source.write_text(
        '[Board "1"]\n[North "Ann"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
        '[Auction "N"]\nPass Pass Pass Pass\n',
        encoding="utf-8",
    )
    out = tmp_path / "game.csv"
    result = runner.invoke(app, ["convert", str(source), str(out)])
    assert result.exit_code == 1
    assert "board 1: CSV cannot hold its players, auction: expected a board set" in result.stderr
    assert out.read_text(encoding="utf-8") == "board,dealer,vulnerable,deal\n"
