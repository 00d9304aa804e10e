"""A session scores each board as its file deals it: the dealer and vulnerability a file
states, not its number's (issue 33), through every importer.

The board set below is written here, in each format, with a vulnerability other than
its numbers' on four of its five boards and a dealer other than its numbers' on three.
Every hand's NS score is checked against the Law 77 score worked out by hand with the
file's vulnerability (the comments), and against ``bridgescore game`` on the same file
where ``game`` reads it.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bridgescore.board import Board
from bridgescore.cli.app import app
from bridgescore.core import Seat, Vulnerability
from bridgescore.notation import Result
from bridgescore.session.importers.importer import ImportReport, import_files
from bridgescore.session.live.creation import create_event
from bridgescore.session.live.entry import ResultEntry
from bridgescore.session.live.event import LiveEvent
from bridgescore.session.reports.html import html_report
from bridgescore.session.reports.site import results_site
from bridgescore.session.reports.text import as_dict, travellers_text
from bridgescore.session.reports.usebio import export_usebio
from bridgescore.session.scoring.event import Event, TableResult, ns_scores
from bridgescore.session.scoring.scored import SessionScore
from bridgescore.session.store.events import EventStore, Origin
from bridgescore.session.workflow import score_stored_event
from live_movements import three_table_mitchell

# board: (dealer, vulnerability) as the file deals it; by the number (Law 2) they
# would be 1 N None, 2 E NS, 3 S EW, 4 W Both, 5 N NS.
DEALT = {
    1: (Seat.EAST, Vulnerability.BOTH),
    2: (Seat.SOUTH, Vulnerability.NONE),
    3: (Seat.NORTH, Vulnerability.NONE),
    4: (Seat.WEST, Vulnerability.EW),
    5: (Seat.NORTH, Vulnerability.NS),  # as its number says
}
# Each board's two tables: (contract, declarer, tricks) and the NS score by Law 77 on the
# file's vulnerability (by the number's, where it differs, in the comment).
TABLES = {
    1: [
        ("4S", "N", 10, +620),  # NS vulnerable: 120 + 500 (number's: None, +420)
        ("3NT", "E", 7, +200),  # EW vulnerable, 2 down undoubled: 2 x 100 (+100)
    ],
    2: [
        ("4H", "S", 11, +450),  # NS not vulnerable: 120 + 30 + 300 (NS vul: +650)
        ("3NT", "N", 7, -100),  # 2 down not vulnerable (-200)
    ],
    3: [
        ("5H", "W", 12, -480),  # EW not vulnerable: 150 + 30 + 300 (EW vul: -680)
        ("4S", "N", 9, -50),  # NS not vulnerable either way
    ],
    4: [
        ("4S", "N", 10, +420),  # NS not vulnerable (Both: +620)
        ("3NTX", "E", 8, +200),  # EW vulnerable, 1 down doubled: 200 either way
    ],
    5: [
        ("4S", "S", 10, +620),
        ("4S", "S", 9, -100),
    ],
}
PBN_VULNERABLE = {
    Vulnerability.NONE: "None",
    Vulnerability.NS: "NS",
    Vulnerability.EW: "EW",
    Vulnerability.BOTH: "All",
}


def expected() -> dict[tuple[int, str], int]:
    """(board, result as travellers write it) -> NS score."""
    out = {}
    for board, tables in TABLES.items():
        for contract, declarer, tricks, points in tables:
            level = int(contract[0])
            made = tricks - level - 6
            shown = "=" if made == 0 else f"{made:+d}"
            out[(board, f"{contract}{declarer}{shown}")] = points
    return out


def game_scores(path: Path) -> dict[tuple[int, str], int]:
    """``bridgescore game FILE --json``: each game's NS score by board and result."""
    run = CliRunner().invoke(app, ["game", str(path), "--json"])
    assert run.exit_code == 0, run.output
    return {(game["board"], game["result"]): game["score_ns"] for game in json.loads(run.stdout)}


def imported(tmp_path: Path, name: str, text: str) -> tuple[ImportReport, SessionScore, Path]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with EventStore(tmp_path / "event.db") as store:
        report = import_files(store, [path])
        assert report.ok, [str(p) for p in report.problems] + [
            str(c) for c in report.boards.conflicts
        ]
        return report, score_stored_event(store), path


def session_scores(scored: SessionScore) -> dict[tuple[int, str], int | None]:
    return {
        (t.board.number, line.result.describe()): line.ns_score
        for t in scored.travellers
        for line in t.lines
    }


def check_boards(scored: SessionScore) -> None:
    """Every traveller shows its board as the file deals it."""
    for traveller in scored.travellers:
        dealer, vulnerability = DEALT[traveller.board.number]
        assert (traveller.board.dealer, traveller.board.vulnerability) == (dealer, vulnerability)


# ------------------------------------------------------------------------- the files


def pbn_text() -> str:
    games = []
    for board, tables in TABLES.items():
        dealer, vulnerability = DEALT[board]
        for index, (contract, declarer, tricks, _) in enumerate(tables):
            games.append(
                f'[Event "Club"]\n[Board "{board}"]\n[Dealer "{dealer.letter}"]\n'
                f'[Vulnerable "{PBN_VULNERABLE[vulnerability]}"]\n'
                f'[PairNS "{2 * index + 1}"]\n[PairEW "{2 * index + 2}"]\n'
                f'[Declarer "{declarer}"]\n[Contract "{contract}"]\n[Result "{tricks}"]\n'
            )
    return "\n".join(games)


def json_text() -> str:
    games = [
        {
            "board": board,
            "dealer": DEALT[board][0].letter,
            "vulnerable": PBN_VULNERABLE[DEALT[board][1]],
            "notes": [["PairNS", str(2 * index + 1)], ["PairEW", str(2 * index + 2)]],
            "contract": contract,
            "declarer": declarer,
            "result": tricks,
        }
        for board, tables in TABLES.items()
        for index, (contract, declarer, tricks, _) in enumerate(tables)
    ]
    return json.dumps(games, indent=1)


def csv_text() -> str:
    lines = ["board,ns,ew,contract,declarer,result,dealer,vulnerable"]
    for board, tables in TABLES.items():
        dealer, vulnerability = DEALT[board]
        for index, (contract, declarer, tricks, _) in enumerate(tables):
            lines.append(
                f"{board},{2 * index + 1},{2 * index + 2},{contract},{declarer},{tricks},"
                f"{dealer.letter},{vulnerability}"
            )
    return "\n".join(lines) + "\n"


def teams_pbn_text() -> str:
    """Online teams: Lions sit NS at table 1 (each board's first result), Tigers at table 2."""
    games = []
    for board, tables in TABLES.items():
        dealer, vulnerability = DEALT[board]
        for table, (home, visit) in enumerate((("Lions", "Tigers"), ("Tigers", "Lions")), 1):
            contract, declarer, tricks, _ = tables[table - 1]
            games.append(
                f'[Board "{board}"]\n[Dealer "{dealer.letter}"]\n'
                f'[Vulnerable "{PBN_VULNERABLE[vulnerability]}"]\n'
                f'[HomeTeam "{home}"]\n[VisitTeam "{visit}"]\n[Table "{table}"]\n'
                f'[Declarer "{declarer}"]\n[Contract "{contract}"]\n[Result "{tricks}"]\n'
            )
    return "\n".join(games)


# The auctions from each board's dealer (the file's, not the number's: read from the
# number's, each would end with another declarer), open room first.
LIN_AUCTIONS = {
    1: ("p|p|p|4s|p|p|p", "3n|p|p|p"),  # dealer E: N bids 4S; E bids 3NT
    2: ("4h|p|p|p", "p|p|3n|p|p|p"),  # dealer S: S 4H; N 3NT
    3: ("p|p|p|5h|p|p|p", "4s|p|p|p"),  # dealer N: W 5H; N 4S
    4: ("p|4s|p|p|p", "p|p|3n|x|p|p|p"),  # dealer W: N 4S; E 3NT doubled by S
    5: ("p|p|4s|p|p|p", "p|p|4s|p|p|p"),  # dealer N: S 4S
}
LIN_DEALER = {Seat.SOUTH: 1, Seat.WEST: 2, Seat.NORTH: 3, Seat.EAST: 4}
LIN_VULNERABLE = {
    Vulnerability.NONE: "o",
    Vulnerability.NS: "n",
    Vulnerability.EW: "e",
    Vulnerability.BOTH: "b",
}


def lin_text() -> str:
    lines = ["vg|Cup,Final,I,1,5,Lions,0,Tigers,0|"]
    for board, rooms in LIN_AUCTIONS.items():
        dealer, vulnerability = DEALT[board]
        for room, auction, (_, _, tricks, _) in zip("oc", rooms, TABLES[board], strict=True):
            calls = "".join(f"mb|{call}|" for call in auction.split("|"))
            lines.append(
                f"qx|{room}{board}|md|{LIN_DEALER[dealer]},,,|sv|{LIN_VULNERABLE[vulnerability]}|"
                f"{calls}mc|{tricks}|"
            )
    return "\n".join(lines) + "\n"


def usebio_text() -> str:
    """A pairs USEBIO file: each SCORE is the file's own (by its VULNERABILITY)."""
    pairs = "".join(
        f"<PAIR><PAIR_NUMBER>{n}</PAIR_NUMBER><DIRECTION>{d}</DIRECTION></PAIR>"
        for n in (1, 2)
        for d in ("NS", "EW")
    )
    boards, hands = [], []
    for board, tables in TABLES.items():
        dealer, vulnerability = DEALT[board]
        lines = "".join(
            f"<TRAVELLER_LINE><NS_PAIR_NUMBER>{index}</NS_PAIR_NUMBER>"
            f"<EW_PAIR_NUMBER>{index}</EW_PAIR_NUMBER><CONTRACT>{contract}</CONTRACT>"
            f"<PLAYED_BY>{declarer}</PLAYED_BY><TRICKS>{tricks}</TRICKS>"
            f"<SCORE>{points}</SCORE></TRAVELLER_LINE>\n"
            for index, (contract, declarer, tricks, points) in enumerate(tables, 1)
        )
        boards.append(f"<BOARD><BOARD_NUMBER>{board}</BOARD_NUMBER>\n{lines}</BOARD>")
        hands.append(
            f"<BOARD><BOARD_NUMBER>{board}</BOARD_NUMBER><DEALER>{dealer.letter}</DEALER>"
            f"<VULNERABILITY>{vulnerability}</VULNERABILITY></BOARD>"
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<USEBIO Version="1.2">\n'
        '<EVENT EVENT_TYPE="MP_PAIRS"><EVENT_DESCRIPTION>Club</EVENT_DESCRIPTION>\n'
        f"<PARTICIPANTS>{pairs}</PARTICIPANTS>\n"
        + "\n".join(boards)
        + "\n</EVENT>\n<HANDSET>\n"
        + "\n".join(hands)
        + "\n</HANDSET>\n</USEBIO>\n"
    )


# ------------------------------------------------------------------- every importer


@pytest.mark.parametrize(
    ("name", "make", "game"),
    [
        ("club.pbn", pbn_text, True),
        ("club.json", json_text, True),
        ("club.csv", csv_text, False),
        ("teams.pbn", teams_pbn_text, True),
        ("final.lin", lin_text, True),
        ("club.xml", usebio_text, False),
    ],
)
def test_every_importer_scores_each_hand_as_the_file_deals_it(
    tmp_path: Path, name: str, make: Any, game: bool
) -> None:
    report, scored, path = imported(tmp_path, name, make())
    assert session_scores(scored) == expected()
    check_boards(scored)
    if game:
        assert game_scores(path) == expected()
    # Nothing the file says is taken for a disagreement (USEBIO's own SCORE included).
    assert report.disagreements == []
    assert not [note for note in report.notes if "by the Laws" in note]
    # The note: four of the five boards are vulnerable otherwise than their numbers.
    assert any(
        "4 of 5 boards have a vulnerability other than their number's" in note
        for note in report.notes
    )


def test_the_regression_case_5h_by_west_plus_1_none_vulnerable(tmp_path: Path) -> None:
    # Board 3 (EW vulnerable by its number) dealt None vulnerable: 5H by W making 12
    # tricks is 150 + 30 + 300 = 480 to EW, NS -480; by the number it would be -680.
    text = (
        '[Board "3"]\n[Dealer "S"]\n[Vulnerable "None"]\n[PairNS "1"]\n[PairEW "2"]\n'
        '[Declarer "W"]\n[Contract "5H"]\n[Result "12"]\n'
    )
    _, scored, path = imported(tmp_path, "one.pbn", text)
    assert session_scores(scored) == {(3, "5HW+1"): -480}
    assert game_scores(path) == {(3, "5HW+1"): -480}


def test_the_scalar_and_array_scores_agree_on_the_events_boards() -> None:
    boards = {n: Board(n, dealer_seat=d, vulnerable=v) for n, (d, v) in DEALT.items()}
    results = [
        TableResult.played(board, str(2 * i + 1), str(2 * i + 2), f"{c}{d}{t - int(c[0]) - 6:+d}")
        for board, tables in TABLES.items()
        for i, (c, d, t, _) in enumerate(tables)
    ]
    event = Event("Club", "pairs", boards, tuple(results))
    wanted = [points for tables in TABLES.values() for *_, points in tables]
    assert [event.ns_score(r) for r in results] == wanted
    assert ns_scores(results, boards) == wanted
    # Without the boards every result is scored by its number: board 3's 5H by W is -680.
    assert ns_scores(results[4:5]) == [-680]


# ------------------------------------------------------------------------ reports


def test_reports_and_pages_show_the_boards_real_vulnerability(tmp_path: Path) -> None:
    _, scored, _ = imported(tmp_path, "club.pbn", pbn_text())
    text = travellers_text(scored)
    assert "Board 3  Dealer North  Vul None" in text
    assert "Board 1  Dealer East  Vul Both" in text
    travellers = {t["board"]: t for t in as_dict(scored)["travellers"]}
    assert (travellers[3]["dealer"], travellers[3]["vulnerability"]) == ("N", "None")
    assert (travellers[4]["dealer"], travellers[4]["vulnerability"]) == ("W", "EW")
    html = html_report(scored)
    assert '<h3 id="board-3">Board 3</h3>\n<p class="meta">Dealer North · Vul None · top 2' in html
    assert '<h3 id="board-4">Board 4</h3>\n<p class="meta">Dealer West · Vul EW · top 2' in html
    site = results_site(scored)
    assert '<p class="meta">Dealer North · Vul None · top 2' in site["board-3.html"]
    assert '<p class="meta">Dealer East · Vul Both · top 2' in site["board-1.html"]


# ------------------------------------------------------------------- disagreements


def test_two_records_dealing_a_board_differently_are_a_problem_naming_both_lines(
    tmp_path: Path,
) -> None:
    text = (
        '[Board "3"]\n[Dealer "S"]\n[Vulnerable "None"]\n[PairNS "1"]\n[PairEW "2"]\n'
        '[Declarer "W"]\n[Contract "5H"]\n[Result "12"]\n'
        "\n"
        '[Board "3"]\n[Dealer "S"]\n[Vulnerable "EW"]\n[PairNS "3"]\n[PairEW "4"]\n'
        '[Declarer "W"]\n[Contract "5H"]\n[Result "11"]\n'
    )
    path = tmp_path / "two.pbn"
    path.write_text(text, encoding="utf-8")
    with EventStore(tmp_path / "event.db") as store:
        report = import_files(store, [path])
        results = store.results()
    assert [str(p) for p in report.problems] == [
        f"{path}:12: board 3: vulnerability EW here, None at line 3: a board is dealt one "
        "way; the record is not read"
    ]
    # The first record stands; the one that disagrees is not read.
    assert [r.describe() for r in results] == ["5HW+1"]


def test_csv_lines_dealing_a_board_differently_are_a_problem(tmp_path: Path) -> None:
    text = (
        "board,ns,ew,contract,declarer,result,dealer,vulnerable\n"
        "3,1,2,5H,W,12,S,None\n"
        "3,3,4,5H,W,11,E,None\n"
    )
    path = tmp_path / "t.csv"
    path.write_text(text, encoding="utf-8")
    with EventStore(tmp_path / "event.db") as store:
        report = import_files(store, [path])
    assert [str(p) for p in report.problems] == [
        f"{path}:3: board 3: dealer East here, South at line 2: a board is dealt one way; "
        "the record is not read"
    ]


def test_a_bad_vulnerable_cell_names_it(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("board,ns,ew,score,vulnerable\n3,1,2,+100,sometimes\n", encoding="utf-8")
    with EventStore(tmp_path / "event.db") as store:
        report = import_files(store, [path])
    [problem] = report.problems
    assert problem.line == 2 and "'sometimes'" in problem.message


def test_two_files_dealing_a_board_differently_are_a_conflict(tmp_path: Path) -> None:
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    first.write_text("board,ns,ew,score,vulnerable\n3,1,2,-480,None\n", encoding="utf-8")
    second.write_text("board,ns,ew,score,vulnerable\n3,3,4,-680,EW\n", encoding="utf-8")
    with EventStore(tmp_path / "event.db") as store:
        import_files(store, [first])
        report = import_files(store, [second])
        kept = store.boards()[3].vulnerability
    assert not report.ok
    assert [str(c) for c in report.boards.conflicts] == [
        f"{second}:2: board 3 vulnerability: EW conflicts with None from {first}:2 (kept)"
    ]
    assert kept is Vulnerability.NONE


def test_a_file_that_follows_the_numbers_gets_no_note(tmp_path: Path) -> None:
    text = (
        '[Board "3"]\n[Dealer "S"]\n[Vulnerable "EW"]\n[PairNS "1"]\n[PairEW "2"]\n'
        '[Declarer "W"]\n[Contract "5H"]\n[Result "12"]\n'
    )
    report, scored, _ = imported(tmp_path, "std.pbn", text)
    assert session_scores(scored) == {(3, "5HW+1"): -680}
    assert report.notes == []


def test_the_note_in_the_import_output_and_its_json(tmp_path: Path) -> None:
    path = tmp_path / "club.pbn"
    path.write_text(pbn_text(), encoding="utf-8")
    event = tmp_path / "event.db"
    run = CliRunner().invoke(app, ["session", "import", str(event), str(path), "--json"])
    assert run.exit_code == 0, run.output
    notes = json.loads(run.stdout)["notes"]
    assert notes == [
        f"{path}: 4 of 5 boards have a vulnerability other than their number's (boards 1: "
        "Both, 2: None, 3: None, 4: EW); 3 of 5 boards have a dealer other than their "
        "number's (boards 1: East, 2: South, 3: North): scored with the file's",
        # The file gives results and no Deal tag: par and the reviews need the deals.
        "5 board(s) with results have no deal (1–5): import their hand record (a PBN of the "
        "deals) for par, the hand records and 'bridgescore analyse'",
    ]


# --------------------------------------------------------------------- event files


def version_4_file(path: Path) -> None:
    """An event file as bridgescore wrote it before boards kept their dealer and
    vulnerability (schema 4): board 3's hand record and one result on it."""
    with EventStore(path) as store:
        store.add_boards([(Board(3), Origin("old.pbn", 1))])
        store.add_results([(TableResult.played(3, "1", "2", "5HW+1"), Origin("old.pbn", 1))])
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE boards_old (number INTEGER PRIMARY KEY, deal TEXT, dd_tricks TEXT,
                                 source TEXT, line INTEGER);
        INSERT INTO boards_old SELECT number, deal, dd_tricks, source, line FROM boards;
        DROP TABLE boards;
        ALTER TABLE boards_old RENAME TO boards;
        UPDATE meta SET value = '4' WHERE key = 'schema';
        """
    )
    db.commit()
    db.close()


def test_a_schema_4_file_reads_as_it_is_and_is_upgraded_for_writing(tmp_path: Path) -> None:
    event = tmp_path / "old.db"
    version_4_file(event)
    original = event.read_bytes()
    with EventStore(event, mode="read") as store:
        # Its boards follow their numbers, as they always did: board 3 is EW vulnerable.
        assert store.boards()[3].vulnerability is Vulnerability.EW
        assert score_stored_event(store, "mp").travellers[0].lines[0].ns_score == -680
    assert event.read_bytes() == original
    with EventStore(event, mode="write") as store:
        store.add_boards([(Board(3, vulnerable="None"), Origin("new.pbn", 4))])
        assert store.boards()[3].vulnerability is Vulnerability.NONE
        assert score_stored_event(store, "mp").travellers[0].lines[0].ns_score == -480
    db = sqlite3.connect(event)
    assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("5",)
    db.close()


# ---------------------------------------------------------------------- live session


def test_a_live_session_scores_with_the_hand_records_it_holds(tmp_path: Path) -> None:
    new = create_event(tmp_path / "club.db", three_table_mitchell(), name="Club")
    records = tmp_path / "hands.pbn"
    records.write_text('[Board "3"]\n[Dealer "S"]\n[Vulnerable "None"]\n', encoding="utf-8")
    with EventStore(new.event, mode="write") as store:
        assert import_files(store, [records]).ok
    with LiveEvent(new.event) as live:
        # Board 3 dealt None vulnerable: 5H by W +1 is -480, not the number's -680.
        entry = ResultEntry(1, 3, Result.parse("5HW+1"))
        assert live.enter_result("A", 2, entry, who="table 2") == -480
        assert live.vulnerability(3) is Vulnerability.NONE
        [shown] = live.table_view("A", 2).rounds[0].results
        assert shown.score_ns == -480
        assert live.report().as_dict()["travellers"][0]["results"][0]["ns_score"] == -480


def test_two_deals_for_a_board_in_one_file_are_still_a_conflict(tmp_path: Path) -> None:
    first = "N:AKQ2.32.432.AK32 J43.AKQJT9.K.QJ4 T98.54.QJT9.T987 765.876.A8765.65"
    other = "N:J43.AKQJT9.K.QJ4 AKQ2.32.432.AK32 T98.54.QJT9.T987 765.876.A8765.65"
    path = tmp_path / "deals.pbn"
    path.write_text(f'[Board "1"]\n[Deal "{first}"]\n\n[Board "1"]\n[Deal "{other}"]\n')
    with EventStore(tmp_path / "event.db") as store:
        report = import_files(store, [path])
    assert [c.what for c in report.boards.conflicts] == ["board 1 deal"]


def test_a_usebio_export_keeps_how_the_boards_were_dealt(tmp_path: Path) -> None:
    imported(tmp_path, "club.pbn", pbn_text())
    with EventStore(tmp_path / "event.db", mode="read") as store:
        written = export_usebio(store.load())
    again = tmp_path / "again"
    again.mkdir()
    report, rescored, _ = imported(again, "club.xml", written)
    assert session_scores(rescored) == expected()
    check_boards(rescored)
    assert not [note for note in report.notes if "by the Laws" in note]


def test_par_and_imps_against_par_use_the_boards_real_vulnerability(tmp_path: Path) -> None:
    # Board 3 (EW vulnerable by its number) dealt NS vulnerable. Its table: EW make 4S
    # (10 tricks), NS 9 tricks in clubs or hearts. NS vulnerable, the sacrifice 5CX-2
    # costs 500, more than EW's 420: par is EW +420, 4S=. (By the number, EW vulnerable,
    # NS would sacrifice for 300: EW +300.) 4S by E made is NS -420: 0 IMPs against par.
    deal = "N:AKQ2.32.432.AK32 J43.AKQJT9.K.QJ4 T98.54.QJT9.T987 765.876.A8765.65"
    text = (
        f'[Board "3"]\n[Dealer "S"]\n[Vulnerable "NS"]\n[Deal "{deal}"]\n'
        '[DoubleDummyTricks "32929329297a4a47a4a4"]\n[PairNS "1"]\n[PairEW "2"]\n'
        '[Declarer "E"]\n[Contract "4S"]\n[Result "10"]\n'
    )
    path = tmp_path / "par.pbn"
    path.write_text(text, encoding="utf-8")
    with EventStore(tmp_path / "event.db") as store:
        assert import_files(store, [path]).ok
        scored = score_stored_event(store, "mp", pars="stored")
    [traveller] = scored.travellers
    assert (traveller.par, traveller.par_text) == (-420, "EW +420: 4S= EW")
    [line] = traveller.lines
    assert (line.ns_score, line.imps_vs_par) == (-420, 0)
