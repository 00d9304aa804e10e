"""Scoring a stored event: the sequence the CLI and the web page share."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bridgescore.ddtable import DDTable
from bridgescore.deal import Deal
from bridgescore.errors import ComparisonError, RecordError, ScoringMethodError
from bridgescore.session.scoring.event import Board, TableResult
from bridgescore.session.scoring.methods import ScoringOptions
from bridgescore.session.store.events import EventStore, Origin
from bridgescore.session.workflow import score_stored_event

# Each hand one whole suit. Board 1: N spades, E hearts, S diamonds, W clubs: NS make
# 7S (+1510 not vulnerable) and nothing beats it. Board 2 (NS vul) is board 1 turned
# a quarter: EW's 7S, +1510 to EW; its table is given, so it needs no solving.
DEAL_1 = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
DEAL_2 = Deal.from_pbn("N:.AKQJT98765432.. AKQJT98765432... ...AKQJT98765432 ..AKQJT98765432.")
TABLE_2 = DDTable.parse("00d0d00d0d0d0d00d0d0")


def make_store(path: Path | str = ":memory:", *, teams: bool = False) -> EventStore:
    store = EventStore(path)
    store.set_info(name="Tuesday", kind="teams" if teams else "pairs")
    results = [
        TableResult.played(1, "1", "2", "4SN="),
        TableResult.played(1, "2" if teams else "3", "1" if teams else "4", "4SN+1"),
        TableResult.played(2, "1", "2", "3NTS="),
        TableResult.played(2, "2" if teams else "3", "1" if teams else "4", "4SE-1"),
    ]
    boards = [(Board(1, DEAL_1), Origin("h.pbn", 1)), (Board(2, DEAL_2, TABLE_2), Origin())]
    store.add(boards, [(r, Origin("t.csv", i)) for i, r in enumerate(results, start=1)])
    return store


def test_the_usual_method_for_the_kind() -> None:
    with make_store() as store:
        assert score_stored_event(store).method == "mp"
    with make_store(teams=True) as store:
        scored = score_stored_event(store)
    assert scored.method == "imps"
    # Board 1: +420 against +450: -1 IMP for team 1. Board 2, NS vul: +600 against +50
    # (4S by E one down, not vulnerable): 550 is 11 IMPs for team 1.
    assert [(s.name, s.total) for s in scored.standings] == [("1", 10.0), ("2", -10.0)]


def test_a_chosen_method_and_options() -> None:
    with make_store() as store:
        scored = score_stored_event(store, "butler", ScoringOptions(exclude=0))
    assert (scored.method, scored.options.exclude) == ("butler", 0)


def test_an_unknown_method_is_refused_before_the_file_is_read() -> None:
    with EventStore(":memory:") as store:
        with pytest.raises(ScoringMethodError, match="'swiss'"):
            score_stored_event(store, "swiss")
        with pytest.raises(RecordError, match="no results"):
            score_stored_event(store)


def test_no_pars_unless_asked() -> None:
    with make_store() as store:
        scored = score_stored_event(store)
    assert {t.par for t in scored.travellers} == {None} and scored.notes == ()


def test_stored_pars_never_solve_nor_write(tmp_path: Path) -> None:
    path = tmp_path / "e.db"
    make_store(path).close()
    with EventStore(path) as store:
        scored = score_stored_event(store, pars="stored")
        assert store.boards()[1].dd_table is None  # nothing cached
    assert {t.board.number: t.par for t in scored.travellers} == {1: None, 2: -1510}
    # Board 1 has no table by design here: that is not news for the page.
    assert scored.notes == ()


def test_solving_without_dds_is_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "bridgescore.solver", None)  # import fails
    with make_store() as store:
        scored = score_stored_event(store, pars="solve")
    assert {t.board.number: t.par for t in scored.travellers} == {1: None, 2: -1510}
    assert len(scored.notes) == 1 and scored.notes[0].startswith("no par for 1 board(s)")


def test_solved_tables_are_cached_in_the_file(tmp_path: Path) -> None:
    pytest.importorskip("endplay")
    path = tmp_path / "e.db"
    make_store(path).close()
    with EventStore(path) as store:
        scored = score_stored_event(store, pars="solve")
    assert {t.board.number: t.par for t in scored.travellers} == {1: 1510, 2: -1510}
    # +420 and +450 against +1510: -1090 is 14 IMPs down, -1060 too.
    assert [line.imps_vs_par for line in scored.travellers[0].lines] == [-14, -14]
    with EventStore(path) as store:
        # N and S take all 13 tricks in spades and diamonds, none elsewhere.
        assert store.boards()[1].dd_table == DDTable.parse("0d0d00d0d000d0d00d0d")


def test_bad_options_never_reach_the_file() -> None:
    with pytest.raises(ComparisonError, match="'3/1'"):
        ScoringOptions(scale="3/1")  # type: ignore[arg-type]
