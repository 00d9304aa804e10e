"""Events of several sessions: each scored on its own, the total worked by hand."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from bridgescore.board import Board
from bridgescore.compare.scalar import round_half_away
from bridgescore.core import Vulnerability
from bridgescore.deal import Card, random_deals
from bridgescore.errors import RecordError
from bridgescore.movement.vp import victory_points
from bridgescore.season.combine import combine_sessions, write_combined
from bridgescore.session.scoring.event import TableResult
from bridgescore.session.store.events import EventStore, Origin
from bridgescore.session.workflow import score_stored_event
from season_events import NAMES_A, SCORES, make_event

# Session 1 as season_events seats it (3E named too); in session 2 the players of 1N
# and 3N swap seats, so the pair numbers no longer say who is who.
NAMES_1 = NAMES_A + "3E,Kim Kay,,Lee Lo,\n"
NAMES_2 = (
    NAMES_1.replace("1N,Ann Archer,1010,Bob Baker,1011", "1N,@")
    .replace("3N,Eve Ellis,1030,Fred Ford,1031", "3N,Ann Archer,1010,Bob Baker,1011")
    .replace("1N,@", "1N,Eve Ellis,1030,Fred Ford,1031")
)


def scored(path: Path):  # type: ignore[no-untyped-def]
    with EventStore(path, mode="read") as store:
        return score_stored_event(store)


def test_pairs_are_found_by_their_players(tmp_path: Path) -> None:
    one = make_event(tmp_path / "s1.db", NAMES_1, name="Cup", date="2026-02-01")
    two = make_event(tmp_path / "s2.db", NAMES_2, name="Cup", date="2026-02-01")
    combined = combine_sessions([scored(one), scored(two)])
    by_name = {entry.name: entry for entry in combined.entries}
    # Ann & Bob: 1N in session 1 (25 %: 2 of 8 MPs), 3N in session 2 (37.5 %: 3 of 8);
    # over their 4 boards 5 of 16 MPs, 31.25 %. Eve & Fred the other way round.
    ann = by_name["1N"]
    assert [m.name for m in ann.players] == ["Ann Archer", "Bob Baker"]
    assert ann.sessions == (25.0, 37.5) and ann.boards == 4 and ann.total == 31.25
    assert by_name["3N"].sessions == (37.5, 25.0) and by_name["3N"].total == 31.25
    assert [(e.rank, e.name, e.total) for e in combined.entries] == [
        ("1", "2N", 87.5),
        ("2", "3E", 62.5),
        ("3", "2E", 50.0),
        ("4", "1E", 37.5),
        ("5=", "1N", 31.25),
        ("5=", "3N", 31.25),
    ]


def test_by_number_the_pair_number_is_the_pair(tmp_path: Path) -> None:
    one = make_event(tmp_path / "s1.db", NAMES_1, name="Cup", date="2026-02-01")
    two = make_event(tmp_path / "s2.db", NAMES_2, name="Cup", date="2026-02-01")
    combined = combine_sessions([scored(one), scored(two)], by_number=True)
    # Pair 1N scored 25 % in both: its seat's results did not change.
    assert {e.name: e.total for e in combined.entries}["1N"] == 25.0


def test_the_total_is_over_every_board_not_the_mean_of_sessions(tmp_path: Path) -> None:
    one = make_event(tmp_path / "s1.db", NAMES_1, name="Cup", date="2026-02-01")
    # Session 2: only board 1 (one board a pair): 1N 420 -> 2 of 4, 2N 4 of 4, 3N 0.
    two = tmp_path / "s2.db"
    with EventStore(two) as store:
        store.add_results(
            [(TableResult(b, ns, ew, score=s), Origin()) for b, ns, ew, s in SCORES if b == 1]
        )
        from bridgescore.session.importers.importer import import_data

        import_data(store, NAMES_1, "names.csv")
    combined = combine_sessions([scored(one), scored(two)])
    ann = {e.name: e for e in combined.entries}["1N"]
    # Session 1: boards of 2/4 and 0/4; session 2: 2/4. Three boards: (50 + 0 + 50) / 3.
    assert ann.sessions == (25.0, 50.0) and ann.boards == 3 and ann.total == 33.33


def test_carried_over_points_are_added(tmp_path: Path) -> None:
    one = make_event(tmp_path / "s1.db", NAMES_1, name="Cup", date="2026-02-01")
    two = make_event(tmp_path / "s2.db", NAMES_2, name="Cup", date="2026-02-01")
    combined = combine_sessions(
        [scored(one), scored(two)], carry_over={"1N": Decimal("1.5"), "3N": Decimal("-0.25")}
    )
    totals = {e.name: (e.carried, e.total) for e in combined.entries}
    assert totals["1N"] == (1.5, 32.75) and totals["3N"] == (-0.25, 31.0)
    with pytest.raises(RecordError, match="carried-over points for '9N': no session has"):
        combine_sessions([scored(one), scored(two)], carry_over={"9N": Decimal(1)})


def test_a_pair_without_players_cannot_be_found_again(tmp_path: Path) -> None:
    one = make_event(tmp_path / "s1.db", NAMES_A, name="Cup", date="2026-02-01")
    two = make_event(tmp_path / "s2.db", NAMES_A, name="Cup", date="2026-02-01")
    with pytest.raises(RecordError, match=r"pair '3E' names no players.*--by-number"):
        combine_sessions([scored(one), scored(two)])
    with pytest.raises(RecordError, match="two sessions or more, got 1"):
        combine_sessions([scored(one)])


def teams_segment(path: Path, rows: list[tuple[int, str, str, int]]) -> Path:
    with EventStore(path) as store:
        store.set_info(name="Final", kind="teams")
        store.add_results([(TableResult(b, ns, ew, score=s), Origin()) for b, ns, ew, s in rows])
    return path


def test_teams_segments_add_their_imps(tmp_path: Path) -> None:
    # Scores are NS's. Segment 1: board 1 +420 to each NS team (no swing); board 2
    # Lions NS +620, Tigers NS +170: 450 to Lions, 10 IMPs. Segment 2: board 1 Lions
    # NS +100, Tigers NS +140: 40 to Tigers, 1 IMP. Lions 10 - 1 = 9, Tigers -9;
    # Tigers carried 12 in: 3.
    one = teams_segment(
        tmp_path / "t1.db",
        [
            (1, "Lions", "Tigers", 420),
            (1, "Tigers", "Lions", 420),
            (2, "Lions", "Tigers", 620),
            (2, "Tigers", "Lions", 170),
        ],
    )
    two = teams_segment(
        tmp_path / "t2.db", [(1, "Lions", "Tigers", 100), (1, "Tigers", "Lions", 140)]
    )
    combined = combine_sessions([scored(one), scored(two)], carry_over={"Tigers": Decimal(12)})
    assert combined.kind == "teams" and combined.unit == "IMP"
    assert [(e.rank, e.name, e.sessions, e.total) for e in combined.entries] == [
        ("1", "Lions", (10.0, -1.0), 9.0),
        ("2", "Tigers", (-10.0, 1.0), 3.0),
    ]


def test_the_combined_file_ranks_each_session_as_its_own(tmp_path: Path) -> None:
    one = make_event(tmp_path / "s1.db", NAMES_1, name="Cup", date="2026-02-01")
    two = make_event(tmp_path / "s2.db", NAMES_2, name="Cup", date="2026-02-01")
    out = tmp_path / "cup.db"
    write_combined(out, [one, two], "Cup")
    standings = scored(out).standings
    assert {(s.section, s.name): s.percent for s in standings}[("S2", "3N")] == 37.5
    assert {s.section for s in standings} == {"S1", "S2"}
    with EventStore(out, mode="read") as store:
        assert [m.name for m in store.members()["S2:3N"]] == ["Ann Archer", "Bob Baker"]
    with pytest.raises(RecordError, match="new file"):
        write_combined(out, [one, two], "Cup")


def test_teams_segments_ranked_in_victory_points_add_their_vps(tmp_path: Path) -> None:
    rows_one = [
        (1, "Lions", "Tigers", 420),
        (1, "Tigers", "Lions", 420),
        (2, "Lions", "Tigers", 620),
        (2, "Tigers", "Lions", 170),
    ]
    rows_two = [(1, "Lions", "Tigers", 100), (1, "Tigers", "Lions", 140)]
    one, two = (
        teams_segment(tmp_path / "t1.db", rows_one),
        teams_segment(tmp_path / "t2.db", rows_two),
    )
    for path in (one, two):
        with EventStore(path, mode="write") as store:
            store.set_info(method="vp")
    # Segment 1: Lions win by 10 IMPs over 2 boards; segment 2 Tigers by 1 over 1 board.
    # The WBF scale gives the winner's VPs; the loser has 20 less them.
    first = Decimal(repr(victory_points(10, boards=2)))
    second = Decimal(repr(victory_points(1, boards=1)))
    combined = combine_sessions([scored(one), scored(two)])
    assert combined.unit == "VP"
    totals = {e.name: e.total for e in combined.entries}
    assert totals == {
        "Lions": round_half_away(first + (20 - second), 2),
        "Tigers": round_half_away((20 - first) + second, 2),
    }
    # A segment in IMPs beside one in VPs is refused.
    imps = teams_segment(tmp_path / "t3.db", rows_two)
    with pytest.raises(RecordError, match="ranked in IMP and VP"):
        combine_sessions([scored(one), scored(imps)])


def test_a_session_naming_players_without_numbers_finds_them_by_name(tmp_path: Path) -> None:
    one = make_event(tmp_path / "s1.db", NAMES_1, name="Cup", date="2026-02-01")
    # Session 2 names the players without their numbers (a plain names file).
    plain = "pair,player,player\n" + "".join(
        f"{cells[0]},{cells[1]},{cells[3]}\n"
        for cells in (line.split(",") for line in NAMES_2.splitlines()[1:])
    )
    assert plain.splitlines()[1] == "1N,Eve Ellis,Fred Ford"
    two = make_event(tmp_path / "s2.db", plain, name="Cup", date="2026-02-01")
    combined = combine_sessions([scored(one), scored(two)])
    ann = {e.name: e for e in combined.entries}["1N"]
    assert ann.sessions == (25.0, 37.5) and ann.total == 31.25
    assert len(combined.entries) == 6


def _deal_board(path: Path, board: Board) -> None:
    with EventStore(path, mode="write") as store:
        store.add_boards([(board, Origin())])


def test_a_hand_record_every_session_deals_alike_comes_along(tmp_path: Path) -> None:
    one = make_event(tmp_path / "s1.db", NAMES_1, name="Cup", date="2026-02-01")
    two = make_event(tmp_path / "s2.db", NAMES_2, name="Cup", date="2026-02-01")
    same, other = random_deals(2, seed=1)
    for path in (one, two):
        _deal_board(path, Board(1, same))
    _deal_board(one, Board(2, same))
    _deal_board(two, Board(2, other))
    out = tmp_path / "cup.db"
    write_combined(out, [one, two], "Cup")
    with EventStore(out, mode="read") as store:
        boards = store.boards()
    # Board 2 is two deals: the file holds one hand record a number, so none.
    assert set(boards) == {1} and boards[1].deal == same


def test_a_board_dealt_otherwise_than_its_number_in_one_session_is_refused(
    tmp_path: Path,
) -> None:
    one = make_event(tmp_path / "s1.db", NAMES_1, name="Cup", date="2026-02-01")
    two = make_event(tmp_path / "s2.db", NAMES_2, name="Cup", date="2026-02-01")
    first, second = random_deals(2, seed=2)
    _deal_board(one, Board(1, first))
    # Board 1 is no one vulnerable by Law 2; session 2's file says both.
    _deal_board(two, Board(1, second, vulnerable=Vulnerability.BOTH))
    out = tmp_path / "cup.db"
    with pytest.raises(
        RecordError,
        match=r"s2\.db: board 1 is dealt by North, All vulnerable, not as its number says",
    ):
        write_combined(out, [one, two], "Cup")
    assert not out.exists()


def test_the_leads_and_the_play_come_along_under_the_sessions_sections(tmp_path: Path) -> None:
    sessions = []
    for index, card in ((1, "SK"), (2, "HQ")):
        path = tmp_path / f"s{index}.db"
        result = TableResult(1, "1N", "1E", score=420)
        with EventStore(path) as store:
            store.set_info(name="Cup", method="mp")
            store.add([], [(result, Origin())], leads={result.key: Card.parse(card)})
        sessions.append(path)
    out = tmp_path / "cup.db"
    write_combined(out, sessions, "Cup")
    with EventStore(out, mode="read") as store:
        assert store.leads() == {("S1", 1, "1N", "1E"): "SK", ("S2", 1, "1N", "1E"): "HQ"}
        assert store.method == "mp"
