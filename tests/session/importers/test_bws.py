"""`session import` of Bridgemate's scoring database (BWS).

``tests/data/bridgemate_club.bws`` is a real club night as Bridgemate Control Software
left it (one section of 11 tables, a Mitchell of 9 rounds of 3 boards, 297 results),
from the public-domain (Unlicense) repository Rick-Wilson/Bridge-Parsers; the players'
names are the club's, used here only as the file holds them. Its results and ranking
are checked against this module's own reading of its raw rows (its own Law 77 scores
and matchpoints), and the thin reader's rows against ``mdb-export`` where mdbtools is
installed. The rules of the rows (erased rows, corrections, sections, Pass, adjusted
scores) are checked on rows written here by hand.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import sqlite3
import subprocess
import sys
from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bridgescore.auction import Call
from bridgescore.cli.app import app
from bridgescore.compare.scalar import Award
from bridgescore.core import Seat, Strain
from bridgescore.deal import Card, Deal
from bridgescore.errors import RecordError
from bridgescore.notation import Result, parse_result
from bridgescore.session.importers.accessdb import looks_like_bws, read_bws_tables
from bridgescore.session.importers.bws import BwsTables, bws_event
from bridgescore.session.importers.importer import import_data, import_files
from bridgescore.session.played import played_records
from bridgescore.session.reports.usebio import export_usebio
from bridgescore.session.scoring.event import Adjusted, Member, TableResult
from bridgescore.session.store.events import EventStore, TablePlay
from bridgescore.session.store.live import LiveStore
from bridgescore.session.workflow import score_stored_event
from dds_reference import tricks_after_each_lead

DATA = Path(__file__).parents[2] / "data"
CLUB = DATA / "bridgemate_club.bws"
DATES = {"DateLog": "2026-01-19 00:00:00"}


# ------------------------------------------------------------------ the real file


@pytest.fixture(scope="module")
def club_tables() -> dict[str, list[dict[str, Any]]]:
    pytest.importorskip("access_parser")
    return read_bws_tables(CLUB.read_bytes(), "club.bws")


@pytest.fixture(scope="module")
def club_event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("access_parser")
    path = tmp_path_factory.mktemp("bws") / "club.db"
    with EventStore(path) as store:
        report = import_files(store, [CLUB])
    assert report.ok, report.problems
    assert (report.results.added, report.boards.added) == (297, 0)
    return path


def test_the_file_is_told_from_text_by_its_first_bytes() -> None:
    assert looks_like_bws(CLUB.read_bytes()[:64])
    assert not looks_like_bws(b'[Board "1"]\n[Deal "N:..."]\n')
    assert not looks_like_bws(b"")


def test_the_thin_reader_gives_the_rows_mdbtools_gives(
    club_tables: dict[str, list[dict[str, Any]]],
) -> None:
    """An independent reader of the same file: every cell of the tables read, equal."""
    if shutil.which("mdb-export") is None:
        pytest.skip("mdbtools is not installed")
    for name in ("Section", "RoundData", "ReceivedData", "PlayerNumbers"):
        exported = subprocess.run(
            ["mdb-export", "-T", "%Y-%m-%d %H:%M:%S", str(CLUB), name],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        theirs = list(csv.DictReader(io.StringIO(exported)))
        ours = club_tables[name]
        assert len(ours) == len(theirs), name
        for mine, their in zip(ours, theirs):
            for column, value in their.items():
                cell = mine[column]
                shown = (
                    "" if cell is None else str(int(cell)) if isinstance(cell, bool) else str(cell)
                )
                assert shown.strip() == value.strip(), (name, column, mine, their)


def test_the_tables_a_real_night_holds(club_tables: dict[str, list[dict[str, Any]]]) -> None:
    counts = {name: len(rows) for name, rows in club_tables.items()}
    assert counts["Section"] == 1 and counts["RoundData"] == 99
    assert counts["ReceivedData"] == 297 and counts["PlayerNumbers"] == 44
    assert counts["HandRecord"] == counts["BiddingData"] == counts["PlayData"] == 0
    # One player came without a name, so the national list was read to look for him.
    assert counts["PlayerNames"] == 14020


# An independent Law 77 scorer (not the package's): the declaring side's score.
_TRICK = {"C": 20, "D": 20, "H": 30, "S": 30, "NT": 30}


def _law77(level: int, strain: str, doubled: int, vulnerable: bool, made: int) -> int:
    if made < 0:  # undertricks
        down = -made
        if doubled == 0:
            return -(100 if vulnerable else 50) * down
        steps = (
            [200, 300, 300, 300] if vulnerable else [100, 200, 200, 300]
        )  # the first, 2nd-3rd, 4th and on, doubled
        total = sum(steps[min(i, 3)] for i in range(down))
        return -total * (2 if doubled == 2 else 1)
    trick_points = _TRICK[strain] * level + (10 if strain == "NT" else 0)
    trick_points *= 2**doubled
    points = trick_points + ((500 if vulnerable else 300) if trick_points >= 100 else 50)
    if level == 6:
        points += 750 if vulnerable else 500
    if level == 7:
        points += 1500 if vulnerable else 1000
    if doubled:
        points += 50 * doubled
        points += made * (200 if vulnerable else 100) * doubled
    else:
        points += made * _TRICK[strain]
    return points


_VULNERABLE = {  # Law 2: the sides vulnerable on boards 1-16
    "NS": {2, 5, 12, 15, 4, 7, 10, 13},
    "EW": {3, 6, 9, 16, 4, 7, 10, 13},
}


def _raw_ns_score(row: Mapping[str, Any]) -> int:
    """The NS score of a ReceivedData row, read from its text by this test alone."""
    contract = row["Contract"].split()
    if contract == ["PASS"]:
        return 0
    level, strain = int(contract[0]), contract[1]
    doubled = {"": 0, "x": 1, "xx": 2}[contract[2] if len(contract) > 2 else ""]
    made = 0 if row["Result"] == "=" else int(row["Result"])
    side = "NS" if row["NS/EW"] in "NS" else "EW"
    vulnerable = (row["Board"] - 1) % 16 + 1 in _VULNERABLE[side]
    points = _law77(level, strain, doubled, vulnerable, made)
    return points if side == "NS" else -points


def test_every_result_scores_as_its_row_says(
    club_event: Path, club_tables: dict[str, list[dict[str, Any]]]
) -> None:
    with EventStore(club_event, mode="read") as store:
        event = store.load()
    ours = {(r.board, r.ns, r.ew): event.ns_score(r) for r in event.results}
    theirs = {
        (row["Board"], f"{row['PairNS']}N", f"{row['PairEW']}E"): _raw_ns_score(row)
        for row in club_tables["ReceivedData"]
    }
    assert len(theirs) == 297
    assert ours == theirs
    passed = [r for r in event.results if r.result == Result(None)]
    assert len(passed) == 2  # the two PASS rows
    assert sorted(r.board for r in passed) == [12, 22]


def test_the_ranking_is_the_matchpoints_of_the_raw_rows(
    club_event: Path, club_tables: dict[str, list[dict[str, Any]]]
) -> None:
    """Matchpoints by hand: on each board 2 for each NS score beaten, 1 for each tied
    (every board was played 11 times: no factoring)."""
    by_board: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for row in club_tables["ReceivedData"]:
        by_board[row["Board"]].append((row["PairNS"], row["PairEW"], _raw_ns_score(row)))
    totals: dict[str, int] = defaultdict(int)
    for lines in by_board.values():
        assert len(lines) == 11
        for ns, ew, score in lines:
            points = sum(2 if score > other else 1 if score == other else 0 for *_, other in lines)
            points -= 1  # the line itself, tied with itself
            totals[f"{ns}N"] += points
            totals[f"{ew}E"] += 20 - points
    with EventStore(club_event, mode="read") as store:
        scored = score_stored_event(store, "mp")
    assert {s.name: s.total for s in scored.standings} == totals
    top_ns = max((n for n in totals if n.endswith("N")), key=totals.__getitem__)
    top_ew = max((n for n in totals if n.endswith("E")), key=totals.__getitem__)
    firsts = {s.direction: s.name for s in scored.standings if s.rank == "1"}
    assert firsts == {"NS": top_ns, "EW": top_ew}


def test_the_players_and_movement_are_kept(
    club_event: Path, club_tables: dict[str, list[dict[str, Any]]]
) -> None:
    seats = {
        (row["Table"], row["Direction"]): Member(row["Name"], row["Number"])
        for row in club_tables["PlayerNumbers"]
    }
    with EventStore(club_event, mode="read") as store:
        members, movement = store.members(), store.movement
    assert len(members) == 22
    # Round 1 seats NS pair t and EW pair t at table t (RoundData), so table t's
    # players at round 0 are those pairs'.
    for table in range(1, 12):
        assert members[f"{table}N"] == (seats[(table, "N")], seats[(table, "S")])
        assert members[f"{table}E"] == (seats[(table, "E")], seats[(table, "W")])
    assert movement is not None
    assert (movement.kind, movement.tables, movement.rounds, movement.boards_per_round) == (
        "mitchell",
        11,
        9,
        3,
    )
    raw = {
        (r["Round"], r["Table"]): (r["NSPair"], r["EWPair"], r["LowBoard"])
        for r in club_tables["RoundData"]
    }
    assert {
        (row.round, row.table): (int(row.ns[:-1]), int(row.ew[:-1]), row.boards[0])
        for row in movement.rows
    } == raw


def test_usebio_export_gives_the_membership_numbers(
    club_event: Path, club_tables: dict[str, list[dict[str, Any]]]
) -> None:
    with EventStore(club_event, mode="read") as store:
        text = export_usebio(store.load(), "mp")
    numbers = {row["Number"] for row in club_tables["PlayerNumbers"]}
    assert len(numbers) == 44
    for number in numbers:
        assert f"<NATIONAL_ID_NUMBER>{number}</NATIONAL_ID_NUMBER>" in text


def test_a_pbn_hand_record_beside_it_deals_the_boards(tmp_path: Path) -> None:
    pytest.importorskip("access_parser")
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    hands = tmp_path / "hands.pbn"
    hands.write_text(f'[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{deal}"]\n')
    with EventStore(tmp_path / "ev.db") as store:
        report = import_files(store, [CLUB, hands])
        assert report.ok, report.problems
        assert (report.files, report.results.added, report.boards.added) == (2, 297, 1)
        assert store.boards()[1].deal == Deal.from_pbn(deal)
        again = import_data(store, CLUB.read_bytes(), "club.bws")
        assert (again.results.added, again.results.unchanged) == (0, 297)


def test_without_the_reader_the_file_is_a_problem_and_the_rest_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "access_parser", None)
    hands = tmp_path / "hands.pbn"
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    hands.write_text(f'[Board "1"]\n[Deal "{deal}"]\n')
    with EventStore(tmp_path / "ev.db") as store:
        report = import_files(store, [CLUB, hands])
    assert [str(p) for p in report.problems] == [
        f"{CLUB}: reading a Bridgemate database (BWS) needs the access-parser package: "
        "pip install 'bridgescore[bws]'"
    ]
    assert report.boards.added == 1
    with pytest.raises(ImportError, match=r"bridgescore\[bws\]"):
        read_bws_tables(CLUB.read_bytes())


def test_a_file_that_is_not_a_database_is_refused_by_the_reader() -> None:
    pytest.importorskip("access_parser")
    with pytest.raises(RecordError, match=r"^x\.bws is not a Microsoft Access database"):
        read_bws_tables(b"not an access file at all, not at all", "x.bws")


# ------------------------------------------------------------------ rows by hand


def _round(
    section: int, table: int, round_number: int, ns: int, ew: int, low: int, high: int
) -> dict[str, Any]:
    return {
        "Section": section,
        "Table": table,
        "Round": round_number,
        "NSPair": ns,
        "EWPair": ew,
        "LowBoard": low,
        "HighBoard": high,
    }


def _entry(
    row_id: int,
    table: int,
    round_number: int,
    board: int,
    ns: int,
    ew: int,
    contract: str,
    seat: str = "",
    result: str = "",
    *,
    section: int = 1,
    time: str = "10:00:00",
    lead: str = "",
    remarks: str = "",
    erased: bool = False,
    declarer: int | None = None,
) -> dict[str, Any]:
    return {
        "ID": row_id,
        "Section": section,
        "Table": table,
        "Round": round_number,
        "Board": board,
        "PairNS": ns,
        "PairEW": ew,
        "Declarer": (ns if seat in "NS" else ew) if declarer is None and seat else (declarer or 0),
        "NS/EW": seat,
        "Contract": contract,
        "Result": result,
        "LeadCard": lead,
        "Remarks": remarks,
        **DATES,
        "TimeLog": f"1899-12-30 {time}",
        "Erased": erased,
    }


# A two-table Mitchell of two rounds, two boards a round: NS 1 and 2 stay, EW move.
MITCHELL = [
    _round(1, 1, 1, 1, 1, 1, 2),
    _round(1, 2, 1, 2, 2, 3, 4),
    _round(1, 1, 2, 1, 2, 3, 4),
    _round(1, 2, 2, 2, 1, 1, 2),
]


def _read(**tables: list[dict[str, Any]]) -> Any:
    given: BwsTables = {"Section": [{"ID": 1, "Letter": "A  "}], "RoundData": MITCHELL, **tables}
    return bws_event(given, "club.bws")


def _results(imported: Any) -> dict[tuple[str, int, str, str], TableResult]:
    return {result.key: result for result, _ in imported.parsed.results}


def test_contracts_results_declarers_and_leads() -> None:
    imported = _read(
        ReceivedData=[
            _entry(1, 1, 1, 1, 1, 1, "3 NT", "S", "+2", lead="H10"),
            _entry(2, 1, 1, 2, 1, 1, "4 S x", "E", "-1", lead="SA"),
            _entry(3, 2, 1, 3, 2, 2, "6 h xx", "N", "="),
            _entry(4, 2, 1, 4, 2, 2, "PASS"),
        ]
    )
    results = _results(imported)
    assert imported.parsed.problems == [] and imported.parsed.checks == []
    assert results[("", 1, "1N", "1E")].result == parse_result("3NTS+2")
    assert results[("", 2, "1N", "1E")].result == parse_result("4SXE-1")
    assert results[("", 3, "2N", "2E")].result == parse_result("6HXXN=")
    assert results[("", 4, "2N", "2E")].result == Result(None)
    # Law 77 on board 2 (NS vulnerable, EW not): 4SX by East one down is +100 to NS.
    assert results[("", 2, "1N", "1E")].ns_score() == 100
    assert imported.leads == {
        ("", 1, "1N", "1E"): Card.parse("HT"),
        ("", 2, "1N", "1E"): Card.parse("SA"),
    }
    origins = {result.board: origin.line for result, origin in imported.parsed.results}
    assert origins == {1: 1, 2: 2, 3: 3, 4: 4}  # a result's origin is its row's ID


def test_erased_rows_are_skipped_and_a_later_entry_replaces_an_earlier() -> None:
    imported = _read(
        ReceivedData=[
            # Board 1 entered, erased by the director, entered again.
            _entry(1, 1, 1, 1, 1, 1, "4 H", "N", "=", time="10:01:00", erased=True),
            _entry(2, 1, 1, 1, 1, 1, "4 H", "N", "-1", time="10:03:00"),
            # Board 2 entered twice: the later by its time wins, though its ID is lower.
            _entry(9, 1, 1, 2, 1, 1, "2 S", "E", "+1", time="10:09:00"),
            _entry(3, 1, 1, 2, 1, 1, "3 S", "E", "=", time="10:05:00"),
            # Board 3 twice at the same second: the higher ID is the later.
            _entry(5, 2, 1, 3, 2, 2, "1 NT", "W", "=", time="10:07:00"),
            _entry(6, 2, 1, 3, 2, 2, "2 NT", "W", "-1", time="10:07:00"),
        ]
    )
    results = _results(imported)
    assert imported.parsed.problems == []
    assert {key[1]: str(r.result) for key, r in results.items()} == {
        1: "4HN-1",
        2: "2SE+1",
        3: "2NTW-1",
    }
    assert "club.bws: 1 erased row(s) of ReceivedData skipped" in imported.parsed.notes
    assert any(
        "2 row(s) of ReceivedData replaced by a later entry" in n for n in imported.parsed.notes
    )


def test_a_correction_on_another_day_is_later_whatever_its_time() -> None:
    late = _entry(1, 1, 1, 1, 1, 1, "4 H", "N", "=", time="23:50:00")
    next_day = {
        **_entry(2, 1, 1, 1, 1, 1, "4 H", "N", "+1", time="00:10:00"),
        "DateLog": "2026-01-20 00:00:00",
    }
    results = _results(_read(ReceivedData=[next_day, late]))
    assert str(results[("", 1, "1N", "1E")].result) == "4HN+1"


def test_adjusted_scores_not_played_and_arbitral_scores() -> None:
    imported = _read(
        ReceivedData=[
            _entry(1, 1, 1, 1, 1, 1, "", remarks="60%-40%"),
            _entry(2, 1, 1, 2, 1, 1, "", remarks="50%-50%"),
            _entry(3, 2, 1, 3, 2, 2, "", remarks="40%-60%"),
            _entry(4, 2, 1, 4, 2, 2, "", remarks="60%-60%"),
            _entry(5, 1, 2, 3, 1, 2, "", remarks="Not played"),
            _entry(6, 1, 2, 4, 1, 2, "", remarks="Arbitral score"),
            _entry(7, 2, 2, 1, 2, 1, "A+"),
            _entry(8, 2, 2, 2, 2, 1, "", remarks="55%-45%"),
            _entry(9, 1, 2, 3, 1, 2, "Avg-", section=1, time="11:00:00"),
        ]
    )
    results = _results(imported)
    adjusted = {key[1:]: r.adjusted for key, r in results.items()}
    assert adjusted == {
        (1, "1N", "1E"): Adjusted(Award.AVERAGE_PLUS, Award.AVERAGE_MINUS, fixed=True),
        (2, "1N", "1E"): Adjusted(Award.AVERAGE, Award.AVERAGE, fixed=True),
        (3, "2N", "2E"): Adjusted(Award.AVERAGE_MINUS, Award.AVERAGE_PLUS, fixed=True),
        (4, "2N", "2E"): Adjusted(Award.AVERAGE_PLUS, Award.AVERAGE_PLUS, fixed=True),
        (1, "2N", "1E"): Adjusted(Award.AVERAGE_PLUS, Award.AVERAGE_MINUS),
        # Board 3 at table 1 in round 2: first 'Not played', then given Avg- by a later row.
        (3, "1N", "2E"): Adjusted(Award.AVERAGE_MINUS, Award.AVERAGE_PLUS),
    }
    problems = [str(p) for p in imported.parsed.problems]
    assert problems == [
        "club.bws: ReceivedData ID 6 (table 1, round 2, board 4): an arbitral score, which "
        "the database does not give: enter the director's score with 'bridgescore session "
        "correct'",
        "club.bws: ReceivedData ID 8 (table 2, round 2, board 2): remark '55%-45%': expected "
        "an adjusted score of 40, 50 or 60 percent to each side, such as 60%-40%",
    ]
    assert not any("not played" in note for note in imported.parsed.notes)


def test_a_board_not_played_is_left_out_and_counted() -> None:
    imported = _read(ReceivedData=[_entry(5, 1, 2, 3, 1, 2, "", remarks="Not played")])
    assert imported.parsed.results == [] and imported.parsed.problems == []
    assert imported.parsed.notes == [
        "club.bws: 1 board(s) marked not played, left out (table 1, round 2, board 3)"
    ]


def test_a_wrong_direction_result_is_scored_as_the_pairs_sat() -> None:
    imported = _read(
        ReceivedData=[
            _entry(1, 1, 1, 1, 1, 1, "4 S", "N", "=", remarks="Wrong direction", declarer=1)
        ]
    )
    (result,) = _results(imported).values()
    assert (result.ns, result.ew, str(result.result)) == ("1E", "1N", "4SN=")
    assert any("Wrong direction" in note for note in imported.parsed.notes)


def test_bad_rows_are_problems_naming_their_id_and_the_rest_is_read() -> None:
    imported = _read(
        ReceivedData=[
            _entry(1, 1, 1, 1, 1, 1, "8 NT", "N", "="),
            _entry(2, 1, 1, 2, 1, 1, "3 NT", "Q", "="),
            _entry(3, 2, 1, 3, 2, 2, "3 NT", "N", "+5"),
            _entry(4, 2, 1, 4, 2, 2, "3 NT", "N", "=", lead="Z9"),
            _entry(5, 1, 2, 3, 1, 2, "2 C", "W", "="),
        ]
    )
    assert [str(p) for p in imported.parsed.problems] == [
        "club.bws: ReceivedData ID 1 (table 1, round 1, board 1): contract '8 NT': expected "
        "such as '3 NT', '4 S x' or 'PASS', or a remark saying what the director gave",
        "club.bws: ReceivedData ID 2 (table 1, round 1, board 2): declarer 'Q' (NS/EW): "
        "expected N, E, S or W",
        "club.bws: ReceivedData ID 3 (table 2, round 1, board 3): '3NTN+5' needs 14 tricks, "
        "but a deal has only 13: 3NT can make at most 4 overtricks",
        "club.bws: ReceivedData ID 4 (table 2, round 1, board 4): LeadCard 'Z9': expected a "
        "card such as H10 or SA",
    ]
    assert [str(r.result) for r in _results(imported).values()] == ["2CW="]


def test_results_against_the_movement_are_kept_and_listed() -> None:
    imported = _read(
        ReceivedData=[
            _entry(1, 1, 1, 1, 1, 2, "1 NT", "N", "="),  # the movement seats 1E there
            _entry(2, 1, 1, 3, 1, 1, "1 NT", "N", "="),  # board 3 is not table 1's then
            _entry(3, 2, 1, 3, 2, 2, "1 NT", "N", "=", declarer=1),  # declarer pair 1 is not NS 2
        ]
    )
    assert len(imported.parsed.results) == 3
    assert [str(c) for c in imported.parsed.checks] == [
        "club.bws: ReceivedData ID 1 (table 1, round 1, board 1): entered for 1N v 2E, the "
        "movement seats 1N v 1E there",
        "club.bws: ReceivedData ID 2 (table 1, round 1, board 3): board 3 is not one the "
        "movement gives that table",
        "club.bws: ReceivedData ID 3 (table 2, round 1, board 3): declarer pair 1 is not the "
        "pair in seat N (2): read as declared from N",
    ]


def test_two_sections_keep_their_results_pairs_and_movements_apart() -> None:
    sections = [{"ID": 1, "Letter": "A  "}, {"ID": 2, "Letter": "B"}]
    rounds = MITCHELL + [{**row, "Section": 2} for row in MITCHELL]
    imported = bws_event(
        {
            "Section": sections,
            "RoundData": rounds,
            "ReceivedData": [
                _entry(1, 1, 1, 1, 1, 1, "4 H", "N", "="),
                _entry(2, 1, 1, 1, 1, 1, "4 H", "N", "-1", section=2),
            ],
            "PlayerNumbers": [
                {
                    "Section": 2,
                    "Table": 1,
                    "Direction": "N",
                    "Number": "101",
                    "Name": "Ann",
                    "Round": 0,
                },
                {
                    "Section": 2,
                    "Table": 1,
                    "Direction": "S",
                    "Number": "102",
                    "Name": "Bob",
                    "Round": 0,
                },
            ],
        },
        "club.bws",
    )
    results = _results(imported)
    assert set(results) == {("A", 1, "1N", "1E"), ("B", 1, "1N", "1E")}
    assert str(results[("B", 1, "1N", "1E")].result) == "4HN-1"
    assert set(imported.movements) == {"A", "B"}
    assert imported.movements["B"].section == "B"
    assert imported.parsed.members == {"B:1N": (Member("Ann", "101"), Member("Bob", "102"))}


def test_a_howell_names_its_pairs_by_number() -> None:
    # Two tables, 4 pairs: pair 1 sits NS then EW, so the pairs have no direction.
    rounds = [
        _round(1, 1, 1, 1, 2, 1, 1),
        _round(1, 2, 1, 3, 4, 2, 2),
        _round(1, 1, 2, 4, 1, 2, 2),
        _round(1, 2, 2, 2, 3, 1, 1),
    ]
    imported = bws_event(
        {
            "Section": [{"ID": 1, "Letter": "A"}],
            "RoundData": rounds,
            "ReceivedData": [_entry(1, 1, 2, 2, 4, 1, "2 D", "E", "+1")],
        },
        "club.bws",
    )
    assert list(_results(imported)) == [("", 2, "4", "1")]
    movement = imported.movements["A"]
    assert movement.kind == "howell" and movement.pairs == ("1", "2", "3", "4")


def test_players_from_their_round_and_names_from_the_national_list() -> None:
    imported = _read(
        PlayerNumbers=[
            {"Section": 1, "Table": 2, "Direction": "E", "Number": "7", "Name": "", "Round": 0},
            {"Section": 1, "Table": 2, "Direction": "W", "Number": "8", "Name": "Cy", "Round": 0},
            # Entered again in round 2 at table 1, where EW pair 2 then sits: the same pair.
            {"Section": 1, "Table": 1, "Direction": "E", "Number": "9", "Name": "Late", "Round": 2},
            {"Section": 1, "Table": 5, "Direction": "N", "Number": "3", "Name": "Lost", "Round": 1},
        ],
        PlayerNames=[{"ID": 7, "Name": "Dee", "strID": "7"}],
    )
    assert imported.parsed.members == {"2E": (Member("Dee", "7"), Member("Cy", "8"))}
    assert [str(p) for p in imported.parsed.problems] == [
        "club.bws: PlayerNumbers row 4: table 5, round 1 is not in the movement (RoundData): "
        "the player cannot be given a pair"
    ]


def test_hand_records_deal_the_boards() -> None:
    row = {
        "Section": 1,
        "Board": 3,
        "NorthSpades": "AKQJ",
        "NorthHearts": "10 9 8",
        "NorthDiamonds": "765",
        "NorthClubs": "432",
        "EastSpades": "T98",
        "EastHearts": "765",
        "EastDiamonds": "432",
        "EastClubs": "AKQJ",
        "SouthSpades": "765",
        "SouthHearts": "432",
        "SouthDiamonds": "AKQJ",
        "SouthClubs": "T98",
        "WestSpades": "432",
        "WestHearts": "AKQJ",
        "WestDiamonds": "T98",
        "WestClubs": "765",
    }
    empty = {**{key: "" for key in row}, "Section": 1, "Board": 4}
    imported = _read(HandRecord=[row, empty])
    assert imported.parsed.problems == []
    assert [(board.number, board.deal) for board, _ in imported.parsed.boards] == [
        (3, Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"))
    ]
    bad = _read(HandRecord=[{**row, "NorthSpades": "AKQQ"}])
    assert len(bad.parsed.problems) == 1 and "HandRecord row 1" in str(bad.parsed.problems[0])


def test_auctions_and_play_are_read_and_the_first_card_is_the_lead() -> None:
    def step(table: str, row_id: int, counter: int, value: str, **extra: Any) -> dict[str, Any]:
        column = "Bid" if table == "bid" else "Card"
        return {
            "ID": row_id,
            "Section": 1,
            "Table": 1,
            "Round": 1,
            "Board": 1,
            "Counter": counter,
            "Direction": "N",
            column: value,
            "Erased": False,
            **extra,
        }

    imported = _read(
        ReceivedData=[_entry(1, 1, 1, 1, 1, 1, "1 NT", "N", "=")],
        BiddingData=[
            step("bid", 1, 1, "1NT"),
            step("bid", 2, 3, "PASS"),
            step("bid", 3, 2, "PASS"),
            step("bid", 4, 4, "PASS"),
            step("bid", 5, 2, "X", Erased=True),
        ],
        PlayData=[step("card", 1, 2, "H2"), step("card", 2, 1, "S10")],
    )
    key = ("", 1, "1N", "1E")
    assert imported.auctions == {key: (Call.parse("1NT"), *[Call.parse("Pass")] * 3)}
    assert imported.plays == {key: (Card.parse("ST"), Card.parse("H2"))}
    assert imported.leads == {key: Card.parse("ST")}
    assert any("kept for 'bridgescore analyse EVENT'" in n for n in imported.parsed.notes)


def test_leads_are_kept_with_the_results(tmp_path: Path) -> None:
    pytest.importorskip("access_parser")
    imported = _read(ReceivedData=[_entry(1, 1, 1, 1, 1, 1, "3 NT", "S", "+2", lead="D5")])
    with EventStore(tmp_path / "ev.db") as store:
        store.add(
            imported.parsed.boards,
            imported.parsed.results,
            leads=imported.leads,
            movements=imported.movements,
        )
    with LiveStore(tmp_path / "ev.db", mode="read") as store:
        assert store.leads() == {("", 1, "1N", "1E"): "D5"}
        assert store.movement == imported.movements["A"]


def test_each_bad_row_of_every_table_is_named_once() -> None:
    imported = bws_event(
        {
            "Section": [{"ID": 1, "Letter": "A"}],
            "RoundData": [*MITCHELL, {**_round(1, 3, 1, 3, 3, 5, 6), "LowBoard": "x"}],
            "ReceivedData": [
                _entry(1, 1, 1, 1, 1, 1, "1 NT", "N", "="),
                {**_entry(2, 1, 1, 2, 1, 1, "1 NT", "N", "="), "PairNS": "x"},
            ],
            "PlayerNumbers": [
                {"Section": 7, "Table": 1, "Direction": "N", "Number": "1", "Round": 0}
            ],
            "HandRecord": [{"Section": 1, "Board": 3, "NorthSpades": "AKQQ"}],
        },
        "club.bws",
    )
    assert [str(p) for p in imported.parsed.problems] == [
        "club.bws: RoundData row 5: LowBoard 'x': expected a whole number",
        "club.bws: HandRecord row 1: North's hand 'AKQQ...' holds SQ twice",
        "club.bws: ReceivedData ID 2 (table 1, round 1, board 2): PairNS 'x': expected a whole "
        "number",
        "club.bws: PlayerNumbers row 1: section 7 is not in the Section table",
    ]
    assert [str(r.result) for r, _ in imported.parsed.results] == ["1NTN="]


# -- the auctions and play, kept for the morning after's review -------------------------

# Board 1 (North deals, no one vulnerable): South's 3NT, where any diamond lead gives
# the tenth trick.
_PLAYED_DEAL = "N:J54.T975.T82.AK8 QT632.J6.764.943 K98.A83.AQJ93.QT A7.KQ42.K5.J7652"


def _played_import() -> Any:
    deal = Deal.from_pbn(_PLAYED_DEAL)
    hands = {
        f"{seat.full_name}{name}": "".join(
            "T" if rank == 10 else "23456789TJQKA"[rank - 2] for rank in deal.hands[seat].suit(suit)
        )
        for seat in Seat
        for suit, name in (
            (Strain.SPADES, "Spades"),
            (Strain.HEARTS, "Hearts"),
            (Strain.DIAMONDS, "Diamonds"),
            (Strain.CLUBS, "Clubs"),
        )
    }

    def step(column: str, row_id: int, counter: int, value: str) -> dict[str, Any]:
        return {
            "ID": row_id,
            "Section": 1,
            "Table": 1,
            "Round": 1,
            "Board": 1,
            "Counter": counter,
            "Direction": "N",
            column: value,
            "Erased": False,
        }

    calls = ["PASS", "PASS", "1NT", "PASS", "3NT", "PASS", "PASS", "PASS"]
    cards = ["DK", "D2", "D4", "DA"]
    return _read(
        HandRecord=[{"Section": 1, "Board": 1, **hands}],
        ReceivedData=[_entry(1, 1, 1, 1, 1, 1, "3 NT", "S", "+1")],
        BiddingData=[step("Bid", i, i, call) for i, call in enumerate(calls, 1)],
        PlayData=[step("Card", i, i, card) for i, card in enumerate(cards, 1)],
    )


def _stored_event(tmp_path: Path) -> Path:
    imported = _played_import()
    assert imported.parsed.problems == []
    path = tmp_path / "ev.db"
    with EventStore(path) as store:
        store.add(imported.parsed.boards, imported.parsed.results, plays=imported.table_plays())
    return path


def test_the_auction_and_play_are_kept_in_the_event_file(tmp_path: Path) -> None:
    path = _stored_event(tmp_path)
    with EventStore(path, mode="read") as store:
        kept = store.table_play()
    (played,) = kept.values()
    assert list(kept) == [("", 1, "1N", "1E")]
    assert played.auction_text == "Pass Pass 1NT Pass 3NT Pass Pass Pass"
    assert played.play_text == "DK D2 D4 DA"
    assert TablePlay.parse(played.auction_text, played.play_text) == played


def test_a_file_made_before_the_play_was_kept_has_none(tmp_path: Path) -> None:
    path = _stored_event(tmp_path)
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE table_play")
    db.close()
    with EventStore(path, mode="read") as store:
        assert store.table_play() == {}


def test_an_event_s_boards_are_reviewed_card_by_card(tmp_path: Path) -> None:
    import endplay.dds as dds
    import endplay.types as ep

    path = _stored_event(tmp_path)
    (record,) = played_records(path)
    assert record.table == "1N v 1E" and record.result == 10
    assert [call.call for call in record.auction or ()][2:5] == ["1NT", "Pass", "3NT"]
    result = CliRunner().invoke(app, ["analyse", str(path), "--json"])
    assert result.exit_code == 0, result.output
    (board,) = json.loads(result.stdout)
    # Independently: DDS's own table and West's leads solved here.
    table = dds.calc_dd_table(ep.Deal(_PLAYED_DEAL))
    assert board["dd_tricks"] == table[ep.Denom.nt, ep.Player.south] == 9
    after = tricks_after_each_lead(_PLAYED_DEAL, Strain.NOTRUMP, Seat.SOUTH)
    assert board["lead"]["tricks"] == after and board["lead"]["card"] == "DK"
    assert board["lead"]["cost"] == after["DK"] - 9 == 1
    assert [card["card"] for card in board["play"]] == ["DK", "D2", "D4", "DA"]
    assert board["tricks"] == 10 and board["score_ns"] == 430  # 3NT+1, not vulnerable
    assert board["claim"]["tricks"] == 10  # the rest of the result, settled without play


def test_the_import_says_the_boards_have_no_deal_until_the_hand_record_comes(
    tmp_path: Path,
) -> None:
    # The real night's HandRecord table is empty: its 297 results are on boards 1-27, and
    # the club kept the deals in a PBN of its own.
    pytest.importorskip("access_parser")
    event = tmp_path / "ev.db"
    alone = CliRunner().invoke(app, ["session", "import", str(event), str(CLUB), "--json"])
    assert alone.exit_code == 0, alone.output
    assert json.loads(alone.stdout)["notes"][-1] == (
        "27 board(s) with results have no deal (1–27): import their hand record (a PBN of "
        "the deals) for par, the hand records and 'bridgescore analyse'"
    )
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    hands = tmp_path / "hands.pbn"
    hands.write_text(
        "\n".join(f'[Board "{n}"]\n[Deal "{deal}"]\n' for n in range(1, 28)), encoding="utf-8"
    )
    other = tmp_path / "other.db"
    both = CliRunner().invoke(
        app, ["session", "import", str(other), str(CLUB), str(hands), "--json"]
    )
    assert both.exit_code == 0, both.output
    assert not any("have no deal" in note for note in json.loads(both.stdout)["notes"])
