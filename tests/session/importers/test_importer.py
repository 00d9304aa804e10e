"""Import of CSV travellers and PBN files: bad lines reported with file and line, rest kept."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bridgescore.compare.scalar import Award
from bridgescore.ddtable import DDTable
from bridgescore.deal import Deal
from bridgescore.notation import Result
from bridgescore.session.importers.csv import parse_csv
from bridgescore.session.importers.importer import import_files
from bridgescore.session.importers.records import parse_pbn
from bridgescore.session.scoring.event import Adjusted, TableResult
from bridgescore.session.store.events import EventStore

DATA = Path(__file__).parents[2] / "data"


def one(line: str, header: str | None = None) -> TableResult:
    lines = [header, line] if header else [line]
    parsed = parse_csv([x for x in lines if x], "t.csv")
    assert parsed.problems == [], parsed.problems
    assert len(parsed.results) == 1
    return parsed.results[0][0]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("1,1,5,4S,N,=", TableResult.played(1, "1", "5", "4SN=")),
        ("1,1,5,4SX,E,-2", TableResult.played(1, "1", "5", "4SXE-2")),
        ("1,1,5,3NT,S,10", TableResult.played(1, "1", "5", "3NTS+1")),  # tricks taken
        ("1,1,5,4♠x,n,+1", TableResult.played(1, "1", "5", "4SXN+1")),
        ("1,1,5,4SXN,+1", TableResult.played(1, "1", "5", "4SXN+1")),  # five fields
        ("1,1,5,Pass,,", TableResult(1, "1", "5", result=Result(None))),
        ("1,1,5,+620", TableResult(1, "1", "5", score=620)),
        ("1,1,5,-100", TableResult(1, "1", "5", score=-100)),
        ("1,1,5,NS 620", TableResult(1, "1", "5", score=620)),
        ("1,1,5,EW 100", TableResult(1, "1", "5", score=-100)),
        ("1,1,5,0", TableResult(1, "1", "5", score=0)),
        ("1,1,5,4SXN+1", TableResult.played(1, "1", "5", "4SXN+1")),
        ("1,1,5,3NT by W -2", TableResult.played(1, "1", "5", "3NTW-2")),
        ("1,1,5,pass", TableResult(1, "1", "5", result=Result(None))),
        ("1,1,5,A+", TableResult(1, "1", "5", adjusted=Adjusted.parse("A+"))),
        # Percentages are fixed shares of the top: 60 % to both, whatever the options.
        ("1,1,5,60/60", TableResult(1, "1", "5", adjusted=Adjusted(
            Award.AVERAGE_PLUS, Award.AVERAGE_PLUS, fixed=True))),
        ('1,"Smith - Jones",5,+50', TableResult(1, "Smith - Jones", "5", score=50)),
    ],
)  # fmt: skip
def test_csv_line_forms(line: str, expected: TableResult) -> None:
    assert one(line) == expected


def test_csv_header_in_any_order_with_sections_and_variants() -> None:
    header = "Section,Board,EW,NS,Score,Variant"
    assert one("B,3,4,1,+110,x", header) == TableResult(3, "1", "4", score=110, section="B",
                                                       variant="x")  # fmt: skip
    header = "board,ns,ew,contract,declarer,result,score"
    assert one("2,1,5,,,,A", header).adjusted == Adjusted.parse("A")


def test_bad_header_is_reported() -> None:
    parsed = parse_csv(["board,ns,ew,colour", "1,1,2,red"], "h.csv")
    assert [str(p) for p in parsed.problems] == [
        "h.csv:1: unknown column 'colour' in the header: expected some of board, ns, ew, "
        "contract, declarer, result, score, section, variant, table, round, dealer, "
        "vulnerable"
    ]


def test_malformed_lines_are_reported_with_file_and_line() -> None:
    parsed = parse_csv((DATA / "session_bad.csv").read_text().splitlines(), "bad.csv")
    assert [(r.board, r.ns) for r, _ in parsed.results] == [(1, "1"), (4, "3"), (4, "5")]
    assert [o.line for _, o in parsed.results] == [2, 12, 13]
    problems = {p.line: p.message for p in parsed.problems}
    assert sorted(problems) == [3, 4, 5, 6, 7, 8, 9, 10, 11]
    assert all(p.file == "bad.csv" for p in parsed.problems)
    assert "18 tricks" in problems[3]
    assert "'x'" in problems[4]
    assert "'Q'" in problems[5]
    assert "no contract and no score" in problems[6]
    assert "+625" in problems[7]
    assert "both NS and EW" in problems[8]
    assert "no declarer" in problems[9]
    assert "ambiguous" in problems[10]
    assert "'A++'" in problems[11]


def test_a_result_without_declarer_is_not_a_score() -> None:
    parsed = parse_csv(["1,1,5,4S+1"], "r.csv")
    assert parsed.results == [] and "4SXN+1" in parsed.problems[0].message


def test_wrong_field_count() -> None:
    parsed = parse_csv(["1,2,3", "", "# comment", "1,2,3,4,5,6,7"], "f.csv")
    assert [p.line for p in parsed.problems] == [1, 4]
    assert "3 fields" in parsed.problems[0].message


def test_pbn_results_and_hand_records() -> None:
    parsed = parse_pbn((DATA / "session_results.pbn").read_text().splitlines(), "r.pbn")
    assert [r for r, _ in parsed.results] == [
        TableResult.played(5, "1", "6", "3NTS+1"),
        TableResult(5, "2", "7", result=Result(None)),
        TableResult(5, "Tigers", "Lions", score=-620),  # closed room: visitors sit NS
    ]
    assert [(p.line, "'Z'" in p.message) for p in parsed.problems] == [(21, True)]
    hands = parse_pbn((DATA / "session_hands.pbn").read_text().splitlines(), "h.pbn")
    assert hands.results == [] and hands.problems == []
    assert [b.number for b, _ in hands.boards] == [1, 2]
    # The hand records are read into values where they enter.
    assert hands.boards[0][0].deal == Deal.from_pbn(
        "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    )
    assert hands.boards[0][0].dd_table is None
    assert hands.boards[1][0].dd_table == DDTable.parse("00d0d00d0d0d0d00d0d0")


def test_a_pair_at_both_ns_and_ew_is_a_problem_on_its_line() -> None:
    # A mistyped PairEW: the same pair on both sides of one table cannot be a result.
    text = (
        '[Board "1"]\n[PairNS "3"]\n[PairEW "3"]\n[Contract "3NT"]\n[Declarer "N"]\n'
        '[Result "9"]\n\n[Board "2"]\n[PairNS "1"]\n[PairEW "2"]\n[Contract "2S"]\n'
        '[Declarer "E"]\n[Result "8"]\n'
    )
    parsed = parse_pbn(text.splitlines(), "t.pbn")
    assert [r for r, _ in parsed.results] == [TableResult.played(2, "1", "2", "2SE=")]
    assert [(p.line, p.message) for p in parsed.problems] == [
        (2, "board 1: pair '3' cannot sit both NS and EW")
    ]


def test_pbn_score_table() -> None:
    parsed = parse_pbn((DATA / "session_scoretable.pbn").read_text().splitlines(), "s.pbn")
    assert [(r, o.line) for r, o in parsed.results] == [
        (TableResult.played(2, "1", "6", "4SN=", section="A"), 7),
        (TableResult.played(2, "2", "7", "4SN+1", section="A"), 8),
        (TableResult.played(2, "3", "8", "3NTXE-2", section="A"), 9),
        (TableResult(2, "4", "9", result=Result(None), section="A"), 10),
        (TableResult(2, "1", "6", score=100, section="B"), 12),  # EW -100 is NS +100
    ]
    assert [(p.line, "5 entries" in p.message) for p in parsed.problems] == [(11, True)]


def test_pbn_problems() -> None:
    text = (
        '[Board "x"]\n[Contract "4S"]\n\n[Board "1"]\n[Deal "N:AKQ"]\n\n'
        '[Board "2"]\n[Contract "4S"]\n[Declarer "N"]\n[Result "10"]\n'
    )
    parsed = parse_pbn(text.splitlines(), "p.pbn")
    assert [p.line for p in parsed.problems] == [1, 5, 8]
    assert "PairNS" in parsed.problems[2].message


def test_import_files_twice_and_conflicts(tmp_path: Path) -> None:
    csv_file = tmp_path / "mitchell.csv"
    shutil.copy(DATA / "session_mitchell.csv", csv_file)
    with EventStore(tmp_path / "e.db") as store:
        first = import_files(store, [csv_file, DATA / "session_hands.pbn"])
        assert first.ok and first.files == 2
        assert (first.results.added, first.boards.added) == (19, 2)
        again = import_files(store, [csv_file, DATA / "session_hands.pbn"])
        assert again.ok and again.results.added == 0 and again.results.unchanged == 19
        assert again.boards.unchanged == 2
        changed = tmp_path / "changed.csv"
        changed.write_text("1,1,6,3NT,N,+2\n1,2,7,3NT,N,=\n")
        report = import_files(store, [changed, tmp_path / "missing.csv"])
        assert not report.ok
        assert report.results.unchanged == 1 and len(report.results.conflicts) == 1
        assert "changed.csv:1" in str(report.results.conflicts[0])
        assert "cannot read" in str(report.problems[0]) and "missing.csv" in str(report.problems[0])
        assert len(store.results()) == 19
