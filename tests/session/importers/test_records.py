"""Session import reads every file through the one board record (issue 15).

The same bytes give the same event whatever their encoding (UTF-8 with or
without a byte order mark, Latin-1, Windows-1252) and line ends; ``game --json``
and the event agree on board, contract and result; PBN as publishers write it
(``#`` values, a board's second table without its board tags, opening passes
left out) imports without spurious errors; JSON records import as PBN does.
The expected results below are worked out by hand from the Laws.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.formats import format_records, read_records
from bridgescore.notation import Result
from bridgescore.session.importers.importer import ImportReport, import_data
from bridgescore.session.importers.records import parse_pbn
from bridgescore.session.scoring.event import TableResult
from bridgescore.session.store.events import EventStore

runner = CliRunner()

DEAL = "N:873.A65.Q95.AJ42 Q6.K9842.AJ842.T AKT2.3.T763.9865 J954.QJT7.K.KQ73"

# A teams match written with accented team names, both rooms of one board: the
# Open room's home team sits NS; in the Closed room the visitors sit NS.
TEAMS = """% PBN 2.1
[Event "Coupe d'Automne"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "{deal}"]
[North "Zoë Ågren"]
[South "Jürgen Müller"]
[East "Anaïs Lefèvre"]
[West "Seán Ó Brádaigh"]
[HomeTeam "{home}"]
[VisitTeam "{visit}"]
[Room "Open"]
[Declarer "N"]
[Contract "3NT"]
[Result "9"]
[Score "NS 400"]

[Event "Coupe d'Automne"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[HomeTeam "{home}"]
[VisitTeam "{visit}"]
[Room "Closed"]
[Declarer "E"]
[Contract "4H"]
[Result "8"]
[Score "NS 100"]
"""


def _teams(home: str, visit: str) -> str:
    return TEAMS.format(deal=DEAL, home=home, visit=visit)


def _import(data: bytes, name: str = "match.pbn") -> tuple[ImportReport, list[TableResult]]:
    with tempfile.TemporaryDirectory() as folder, EventStore(Path(folder) / "e.db") as store:
        report = import_data(store, data, name)
        return report, store.results()


def _expected(home: str, visit: str) -> list[TableResult]:
    # 3NT by North making 9 tricks; 4H by East two down (8 tricks), not vulnerable.
    return sorted(
        [
            TableResult(1, home, visit, result=Result.parse("3NTN=")),
            TableResult(1, visit, home, result=Result.parse("4HE-2")),
        ],
        key=lambda result: (result.ns, result.ew),
    )


def test_latin1_cp1252_and_utf8_with_or_without_bom_and_crlf_import_identically() -> None:
    home, visit = "Équipe Müller", "Ñandú Ålesund"  # in Latin-1 and in Windows-1252
    text = _teams(home, visit)
    crlf = text.replace("\n", "\r\n")
    encoded = {
        "utf-8": text.encode("utf-8"),
        "utf-8 with BOM": b"\xef\xbb\xbf" + text.encode("utf-8"),
        "utf-8 CRLF with BOM": b"\xef\xbb\xbf" + crlf.encode("utf-8"),
        "latin-1": text.encode("latin-1"),
        "latin-1 CRLF": crlf.encode("latin-1"),
        "cp1252 CRLF": crlf.encode("cp1252"),
    }
    for label, data in encoded.items():
        report, results = _import(data)
        assert report.ok and report.problems == [], (label, report.problems)
        assert (report.results.added, report.boards.added) == (2, 1), label
        assert sorted(results, key=lambda r: (r.ns, r.ew)) == _expected(home, visit), label


def test_cp1252_only_characters_read_as_windows_writes_them() -> None:
    # ’ (0x92) and œ (0x9C) are Windows-1252 bytes that Latin-1 leaves as controls.
    home, visit = "Les Cœurs d’Or", "Müller’s"
    data = _teams(home, visit).replace("\n", "\r\n").encode("cp1252")
    assert b"\x92" in data and b"\x9c" in data
    report, results = _import(data)
    assert report.ok, report.problems
    assert sorted(results, key=lambda r: (r.ns, r.ew)) == _expected(home, visit)
    assert _import(_teams(home, visit).encode("utf-8"))[1] == results


NAME_CHARS = st.sampled_from("AaZzéèêëàâäîïôöùûüçñÅÆØåæøßÉÈÑÜ -'.")


@settings(max_examples=25, deadline=None)
@given(
    home=st.text(NAME_CHARS, min_size=1, max_size=12).map(str.strip).filter(bool),
    visit=st.text(NAME_CHARS, min_size=1, max_size=12).map(str.strip).filter(bool),
    encoding=st.sampled_from(["utf-8", "utf-8-sig", "latin-1", "cp1252"]),
    line_end=st.sampled_from(["\n", "\r\n"]),
)
def test_any_latin_team_names_import_as_written(
    home: str, visit: str, encoding: str, line_end: str
) -> None:
    """Names written in any of the encodings come back as the same text."""
    if home == visit:
        visit += " B"
    data = _teams(home, visit).replace("\n", line_end).encode(encoding)
    report, results = _import(data)
    assert report.ok, report.problems
    assert sorted(results, key=lambda r: (r.ns, r.ew)) == _expected(home, visit)


# Tags as championship files write them: "#" repeats the previous game's value,
# and the second table of a board leaves out Board, Dealer, Vulnerable and Deal.
INHERITING = f"""% PBN 2.1
[Event "Club Championship"]
[Site "Leeds"]
[Date "2026.11.20"]

[Event "#"]
[Site "#"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "{DEAL}"]
[PairNS "1"]
[PairEW "4"]
[Declarer "N"]
[Contract "3NT"]
[Result "9"]
[Score "NS 400"]
[Auction "N"]
1NT Pass 3NT Pass
Pass Pass

[Event "#"]
[Site "#"]
[PairNS "2"]
[PairEW "5"]
[Declarer "E"]
[Contract "2H"]
[Result "EW 8"]

[Event "#"]
[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[Deal "E:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"]
[PairNS "1"]
[PairEW "4"]
[Result "13"]
[Auction "E"]
7NT Pass Pass Pass
"""


def _line_of(text: str, start: str, after: int = 0) -> int:
    """The 1-based line of the first line starting with ``start`` after line ``after``."""
    lines = text.splitlines()
    return next(n for n, line in enumerate(lines, 1) if n > after and line.startswith(start))


def test_hash_values_and_a_second_table_without_board_tags_import_without_errors() -> None:
    parsed = parse_pbn(INHERITING.splitlines(), "club.pbn")
    assert parsed.problems == [] and parsed.checks == []
    assert [result for result, _ in parsed.results] == [
        TableResult(1, "1", "4", result=Result.parse("3NTN=")),
        # "EW 8": the tricks of EW, here declarer's side: 2H by East made exactly.
        TableResult(1, "2", "5", result=Result.parse("2HE=")),
        # No Contract tag: the auction names 7NT by East, who took all 13 tricks.
        TableResult(2, "1", "4", result=Result.parse("7NTE=")),
    ]
    assert [board.number for board, _ in parsed.boards] == [1, 2]  # one hand record each
    # Each result is on its Board tag's line; the second table, which has none, on
    # its own first line.
    first = _line_of(INHERITING, '[Board "1"]')
    second = _line_of(INHERITING, '[Event "#"]', after=first)
    third = _line_of(INHERITING, '[Board "2"]')
    assert [origin.line for _, origin in parsed.results] == [first, second, third]


def test_the_game_command_and_the_event_agree_on_board_contract_and_result(
    tmp_path: Path,
) -> None:
    text = INHERITING
    path = tmp_path / "club.pbn"
    path.write_bytes(text.replace("\n", "\r\n").encode("cp1252"))
    game = runner.invoke(app, ["game", str(path), "--json"])
    assert game.exit_code == 0, game.output
    records = json.loads(game.stdout)
    shown = [(r["board"], r["contract"], r["declarer"], r["result"]) for r in records]
    # Worked by hand: 3NT N =, 2H by E with EW's 8 tricks =, and 7NT by E (from the
    # auction, since no Contract tag is given) with all 13 tricks.
    assert shown == [(1, "3NT", "N", "3NTN="), (1, "2H", "E", "2HE="), (2, "7NT", "E", "7NTE=")]
    imported = runner.invoke(app, ["session", "import", str(tmp_path / "e.db"), str(path)])
    assert imported.exit_code == 0, imported.output
    with EventStore(tmp_path / "e.db") as store:
        results = store.results()
    in_event = [(r.board, str(r.result)) for r in results]
    assert sorted(in_event) == sorted((board, result) for board, _, _, result in shown)


def test_json_records_import_as_the_pbn_they_were_converted_from(tmp_path: Path) -> None:
    pbn = tmp_path / "club.pbn"
    pbn.write_text(INHERITING)
    as_json = format_records(read_records(pbn), "json").encode("utf-8")
    from_json = _import(as_json, "club.json")
    from_pbn = _import(pbn.read_bytes(), "club.pbn")
    assert from_json[0].ok and from_pbn[0].ok
    assert from_json[1] == from_pbn[1]
    assert len(from_json[1]) == 3


def test_opening_passes_left_out_are_restored_and_said_once(tmp_path: Path) -> None:
    # Dealer East passed, South opened: the file writes only South's 1NT onwards.
    game = f"""[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[Deal "{DEAL}"]
[PairNS "{{ns}}"]
[PairEW "{{ew}}"]
[Declarer "S"]
[Contract "3NT"]
[Result "10"]
[Auction "E"]
1NT Pass 3NT Pass
Pass Pass
"""
    text = game.format(ns=1, ew=4) + "\n" + game.format(ns=2, ew=5)
    report, results = _import(text.encode("utf-8"), "passes.pbn")
    assert report.ok and report.problems == []
    assert [str(r.result) for r in results] == ["3NTS+1", "3NTS+1"]
    assert len([n for n in report.notes if "opening passes" in n]) == 1


def test_the_file_contradicting_itself_is_listed_and_the_auction_decides(
    tmp_path: Path,
) -> None:
    text = f"""[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "{DEAL}"]
[PairNS "1"]
[PairEW "4"]
[Declarer "N"]
[Contract "4S"]
[Result "9"]
[Score "NS 140"]
[Auction "N"]
1NT Pass 3NT Pass
Pass Pass
"""
    report, results = _import(text.encode("utf-8"), "c.pbn")
    # As in `bridgescore game`: the complete auction names 3NT by North, so 9 tricks
    # make it (NS +400); the Contract tag and the file's Score are listed as checks.
    assert [str(r.result) for r in results] == ["3NTN="]
    assert report.ok and report.problems == []
    assert any("c.pbn:8: board 1: Contract/Declarer say 4SN" in d for d in report.disagreements)
    assert any("c.pbn:10: board 1: the file's Score 'NS 140'" in d for d in report.disagreements)


def test_score_table_cells_may_be_quoted_names_with_spaces() -> None:
    text = """[Board "3"]
[Dealer "S"]
[Vulnerable "EW"]
[ScoreTable "PairId_NS\\2R;PairId_EW\\2R;Contract\\5L;Declarer\\1R;Result\\2R"]
"Anaïs & Zoë" "Seán & Jürgen" "4S" N 10
"""
    parsed = parse_pbn(text.splitlines(), "t.pbn")
    assert parsed.problems == []
    assert [(result, origin.line) for result, origin in parsed.results] == [
        (TableResult(3, "Anaïs & Zoë", "Seán & Jürgen", result=Result.parse("4SN=")), 5)
    ]


def test_a_utf16_file_is_refused_with_a_reason() -> None:
    text = _teams("A", "B")
    for data in (text.encode("utf-16"), text.encode("utf-16-le")):  # with and without BOM
        report, results = _import(data, "match.pbn")
        assert results == [] and report.files == 0
        (problem,) = report.problems
        assert problem.line == 0 and "is not UTF-8" in problem.message
        assert "expected a text file" in problem.message


def test_a_stray_nul_byte_is_read_as_game_reads_it() -> None:
    # One damaged byte in a text file: the file is still text, and its results import.
    data = _teams("A", "B").encode("utf-8").replace(b"% PBN 2.1", b"% PBN\x00 2.1")
    report, results = _import(data)
    assert report.ok and len(results) == 2


def test_a_latin1_csv_traveller_keeps_its_names() -> None:
    data = "board,ns,ew,score\n1,Müller,Lefèvre,+420\n".encode("latin-1")
    report, results = _import(data, "t.csv")
    assert report.ok
    assert results == [TableResult(1, "Müller", "Lefèvre", score=420)]


def test_the_windows_club_fixture_imports_as_the_sessions_guide_shows(tmp_path: Path) -> None:
    data = (Path(__file__).parents[2] / "data" / "session_club_cp1252.pbn").read_bytes()
    assert b"\r\n" in data and "Œ".encode("cp1252") in data  # Windows-1252, CRLF
    report, results = _import(data, "club.pbn")
    assert report.ok and report.problems == [] and report.disagreements == []
    assert (report.results.added, report.boards.added) == (3, 2)
    assert sorted(results, key=lambda r: (r.board, r.ns)) == [
        TableResult(1, "Zoë & Jürgen", "Anaïs & Seán", result=Result.parse("3NTN=")),
        TableResult(1, "Œdipe & Cie", "Müller & Fils", result=Result.parse("2HE=")),
        TableResult(2, "Zoë & Jürgen", "Anaïs & Seán", result=Result.parse("7NTE=")),
    ]


def test_an_online_teams_file_in_windows_1252_imports_as_in_utf8() -> None:
    text = (Path(__file__).parents[2] / "data" / "online_teams.pbn").read_text(encoding="utf-8")
    accented = text.replace('"Aces"', '"Équipe d’As"')
    utf8 = _import(accented.encode("utf-8"), "league.pbn")
    cp1252 = _import(accented.encode("cp1252"), "league.pbn")
    assert utf8[0].ok and cp1252[0].ok and utf8[0].disagreements == []
    assert cp1252[1] == utf8[1] and len(utf8[1]) == 8
    assert {r.ns for r in utf8[1]} >= {"Équipe d’As"}


def test_the_record_reads_a_score_table_as_a_traveller_and_writes_the_tag_back() -> None:
    text = """[Board "4"]
[ScoreTable "Section\\1R;PairId_NS\\2R;PairId_EW\\2R;Contract\\5L;Result\\2R"]
A 1 6 "4S" 10
A "Ann Bell" 7 - -
"""
    (record,) = read_records(text=text)
    table = record.traveller
    assert table is not None
    assert table.columns == ("Section", "PairId_NS", "PairId_EW", "Contract", "Result")
    assert table.column("pairid_ew") == 2 and table.column("Score_NS") is None
    assert [(row.cells, row.line) for row in table.rows] == [
        (("A", "1", "6", "4S", "10"), 3),
        (("A", "Ann Bell", "7", "", ""), 4),
    ]
    # The tag itself stays a note, written back as it was (here without the quoted
    # cells, which the PBN writer does not write in a section yet).
    plain = text.replace('"4S"', "4S").replace('"Ann Bell"', "AB")
    (record,) = read_records(text=plain)
    (again,) = read_records(text=format_records([record], "pbn"))
    assert again.note("ScoreTable") == record.note("ScoreTable")
    assert again.traveller is not None and record.traveller is not None
    assert [row.cells for row in again.traveller.rows] == [
        ("A", "1", "6", "4S", "10"),
        ("A", "AB", "7", "", ""),
    ]
    # Equality leaves the traveller out: the note holds it.
    assert again.without_source() == record.without_source()


def test_a_reading_problem_is_reported_and_a_table_that_still_scores_is_imported() -> None:
    text = f"""[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "{DEAL}"]
[PairNS "1"]
[PairEW "4"]
[Declarer "N"]
[Contract "3NT"]
[Result "10"]
[Auction "N"]
1NT =3= Pass 3NT Pass
Pass Pass
"""
    report, results = _import(text.encode("utf-8"), "n.pbn")
    assert [str(problem) for problem in report.problems] == [
        'n.pbn:11: note =3= has no [Note "3:..."]'
    ]
    assert not report.ok
    assert [str(r.result) for r in results] == ["3NTN+1"]
