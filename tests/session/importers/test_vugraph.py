"""A BBO vugraph archive (LIN) imported as a teams match: both rooms, scored by IMPs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

import bridgescore.session.importers.vugraph as vugraph
from bridgescore.cli.app import app
from bridgescore.session.importers.importer import import_files
from bridgescore.session.scoring.scorer import score_event
from bridgescore.session.store.events import EventStore

DATA = Path(__file__).parents[2] / "data" / "formats"
ARCHIVE = DATA / "vugraph.lin"
runner = CliRunner()

# The IMP scale of the Laws (Law 78B): the upper bound of each step's point difference.
IMP_STEPS = (
    10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890,
    1090, 1290, 1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990,
)  # fmt: skip


def imps(difference: int) -> int:
    steps = next((i for i, top in enumerate(IMP_STEPS) if abs(difference) <= top), 24)
    return steps if difference >= 0 else -steps


def test_imp_scale_written_here() -> None:
    assert [imps(d) for d in (0, 10, 20, 550, 590, 600, -30, 4000)] == [0, 0, 1, 11, 11, 12, -1, 24]


def test_both_rooms_import_as_a_teams_match_scored_by_imps(tmp_path: Path) -> None:
    with EventStore(tmp_path / "ev.db") as store:
        report = import_files(store, [ARCHIVE])
        event = store.load()
        method = store.method
    assert report.ok, report.problems
    assert event.kind == "teams" and method == "imps" and event.name == "Autumn Cup"
    assert event.participants() == ["Lions", "Tigers"]
    assert sorted(event.boards) == [5, 6]
    # Worked from the archive by the Laws (the vg header's first team, Lions, sits NS
    # in the open room):
    # board 5 (NS vulnerable): open 3NT by North, 9 tricks: 100 + 500 game = +600 to
    #   Lions; closed 4S by East (not vulnerable), 9 tricks: one down, +50 to NS = Tigers,
    #   so -50 to Lions. Lions net +550.
    # board 6 (EW vulnerable): open 2H by South, 9 tricks: 60 + 50 + 30 = +140 to Lions;
    #   closed 2H by South, 8 tricks: +110 to Tigers (NS). Lions net +30.
    expected = {5: imps(600 - 50), 6: imps(140 - 110)}
    assert expected == {5: 11, 6: 1}
    card = score_event(event, "imps")
    lions: dict[int, set[float]] = {}
    for traveller in card.travellers:
        for line in traveller.lines:
            assert line.ns is not None
            side = line.ns if line.result.ns == "Lions" else -line.ns
            lions.setdefault(line.result.board, set()).add(side)
    assert lions == {board: {value} for board, value in expected.items()}


def test_session_import_command_takes_the_archive(tmp_path: Path) -> None:
    result = runner.invoke(app, ["session", "import", str(tmp_path / "m.db"), str(ARCHIVE)])
    assert result.exit_code == 0, result.output
    assert "4 result(s) added" in result.output
    assert "vugraph archive" in result.output


def test_a_board_missing_its_other_room_is_reported_not_scored(tmp_path: Path) -> None:
    lines = ARCHIVE.read_text(encoding="utf-8").splitlines(keepends=True)
    closed_6 = next(i for i, line in enumerate(lines) if line.startswith("qx|c6|"))
    path = tmp_path / "short.lin"
    path.write_text("".join(lines[:closed_6] + lines[closed_6 + 1 :]), encoding="utf-8")
    with EventStore(tmp_path / "ev.db") as store:
        report = import_files(store, [path])
        event = store.load()
    assert [result.board for result in event.results] == [5, 5]
    (problem,) = report.problems
    assert "board 6 was played in open room(s)" in str(problem)
    assert str(problem).startswith(f"{path}:")


def _refused_as_a_hand_history(tmp_path: Path, path: Path, boards: int) -> None:
    with EventStore(tmp_path / "ev.db") as store:
        report = import_files(store, [path])
        event = store.load()
    assert not event.results and not event.boards
    # One problem for the file (line 0), saying what it is, not one per board.
    (problem,) = report.problems
    assert problem.line == 0
    assert f"a BBO hand history (one table's play of {boards} boards" in problem.message
    assert f"'bridgescore analyse {path}'" in problem.message


def test_a_hand_history_without_rooms_is_named_as_one(tmp_path: Path) -> None:
    path = tmp_path / "history.lin"
    shutil.copy(DATA / "hand_history.lin", path)
    _refused_as_a_hand_history(tmp_path, path, 4)


def test_a_hand_history_with_a_qx_per_board_is_named_as_one(tmp_path: Path) -> None:
    # BBO's own hand histories: qx|o1|, qx|o2|, ... (each board at the player's one table).
    lines = (DATA / "hand_history.lin").read_text(encoding="utf-8").splitlines(keepends=True)
    path = tmp_path / "tourney.lin"
    path.write_text(
        "".join(f"qx|o{number}|{line}" for number, line in enumerate(lines, 1)), encoding="utf-8"
    )
    _refused_as_a_hand_history(tmp_path, path, 4)
    result = runner.invoke(app, ["session", "import", str(tmp_path / "cli.db"), str(path)])
    assert result.exit_code == 1
    assert "names no room" not in result.output
    assert "does not name both teams" not in result.output
    assert f"error: {path}: a BBO hand history" in result.output


def test_an_archive_without_its_header_is_still_read_as_a_match(tmp_path: Path) -> None:
    # Both rooms of each board, but no vg header: a match whose teams are unnamed, so the
    # boards are refused for that reason, not taken for a hand history.
    lines = ARCHIVE.read_text(encoding="utf-8").splitlines(keepends=True)
    path = tmp_path / "headless.lin"
    path.write_text("".join(line for line in lines if not line.startswith("vg|")), encoding="utf-8")
    with EventStore(tmp_path / "ev.db") as store:
        report = import_files(store, [path])
    assert report.problems
    assert all("does not name both teams" in problem.message for problem in report.problems)


# -- the vg header: scoring, segment and carried-over scores ---------------------


def _archive(tmp_path: Path, header: str, name: str = "seg.lin") -> Path:
    """The fixture's boards under another vg header."""
    lines = ARCHIVE.read_text(encoding="utf-8").splitlines(keepends=True)
    path = tmp_path / name
    path.write_text(f"vg|{header}|\n" + "".join(lines[1:]), encoding="utf-8")
    return path


def test_report_adds_the_carried_over_score_and_names_the_segment(tmp_path: Path) -> None:
    # The fixture carries 0 (Lions) and 12.5 (Tigers) into segment 1. Its boards give
    # Lions 11 + 1 = 12 IMPs (worked above) and Tigers none, so the match stands
    # Tigers 12.5, Lions 12; the ranking's totals are net: Tigers +0.5, Lions -0.5.
    db = str(tmp_path / "m.db")
    imported = runner.invoke(app, ["session", "import", db, str(ARCHIVE)])
    assert "carried over from earlier segments: Lions 0, Tigers 12.5" in imported.output
    result = runner.invoke(app, ["session", "report", db, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    totals = {row["name"]: row["total"] for row in data["ranking"]}
    assert totals == {"Lions": -0.5, "Tigers": 0.5}
    assert [row["name"] for row in data["ranking"]] == ["Tigers", "Lions"]
    assert data["event"] == "Autumn Cup, Final Segment 1"
    assert "match score with the carry-over: Tigers 12.5, Lions 12" in data["notes"]
    text = runner.invoke(app, ["session", "report", db]).output
    assert any(line.startswith("Autumn Cup, Final Segment 1 - IMPs") for line in text.splitlines())


def test_equal_totals_after_the_carry_over_are_tied(tmp_path: Path) -> None:
    path = _archive(tmp_path, "Autumn Cup,Final Segment 1,I,5,6,Lions,0,Tigers,12")
    with EventStore(tmp_path / "ev.db") as store:
        import_files(store, [path])
        from bridgescore.session.workflow import score_stored_event

        scored = score_stored_event(store)
    # Net IMPs: Lions 12 - 12 carried by Tigers = 0; Tigers -12 + 12 = 0.
    assert [(s.rank, s.name, s.total) for s in scored.standings] == [
        ("1=", "Lions", 0),
        ("1=", "Tigers", 0),
    ]
    assert "match score with the carry-over: Lions 12, Tigers 12" in scored.notes


def test_board_a_match_header_scores_the_match_by_boards_won(tmp_path: Path) -> None:
    path = _archive(tmp_path, "Autumn Cup,Final Segment 1,B,5,6,Lions,1,Tigers,0")
    with EventStore(tmp_path / "ev.db") as store:
        report = import_files(store, [path])
        assert store.method == "bam"
        from bridgescore.session.workflow import score_stored_event

        scored = score_stored_event(store)
    assert any("board-a-match" in note for note in report.notes)
    # Board-a-match: Lions win both boards (net +550 and +30): 1 each, plus 1 carried.
    assert "match score with the carry-over: Lions 3, Tigers 0" in scored.notes
    assert {s.name: s.total for s in scored.standings} == {"Lions": 3, "Tigers": 0}


def test_unknown_scoring_letter_is_said_and_scored_by_imps(tmp_path: Path) -> None:
    path = _archive(tmp_path, "Autumn Cup,Final Segment 1,Q,5,6,Lions,0,Tigers,0")
    with EventStore(tmp_path / "ev.db") as store:
        report = import_files(store, [path])
        assert store.method == "imps"
    (said,) = [note for note in report.notes if "'Q'" in note]
    assert "expected I (IMPs) or B (board-a-match); scored by IMPs" in said


def test_a_later_segments_carry_over_is_not_added_twice(tmp_path: Path) -> None:
    # Segment 1 (boards 5-6) carries 0/12.5 in; segment 2 (the same boards renumbered
    # would clash, so a header alone) carries the running score 12/12.5 - it already
    # counts segment 1, so the event keeps the earliest segment's carry-over.
    first = _archive(tmp_path, "Autumn Cup,Final Segment 1,I,5,6,Lions,0,Tigers,12.5")
    second = tmp_path / "seg2.lin"
    second.write_text("vg|Autumn Cup,Final Segment 2,I,7,8,Lions,12,Tigers,12.5|\n")
    with EventStore(tmp_path / "ev.db") as store:
        import_files(store, [second, first])
        assert store.carry_over == {"Lions": 0, "Tigers": 12.5}
        assert store.segment == "Final Segment 1"
        import_files(store, [second])
        assert store.carry_over == {"Lions": 0, "Tigers": 12.5}
        assert store.carry_over_from == 5


def test_a_room_whose_board_gives_no_deal_is_scored_on_its_own() -> None:
    """A board without md after a qx is its own table, its dealer taken from its number
    (Law 2: North on board 1), never the tail of the board before."""
    text = (
        "vg|Cup,Final,I,1,1,Lions,0,Tigers,0|\n"
        "qx|o1|md|3SAKQJHAKQDAKQCAKQ,S2345H2345D2345C2,S6789H6789D6789C3,|"
        "mb|1N|mb|p|mb|p|mb|p|pg||\n"
        "pc|CJ|pc|CA|pc|C2|pc|C3|pg||\n"
        "mc|8|\n"
        "qx|c1|mb|p|mb|p|mb|1S|mb|p|mb|p|mb|p|mc|7|\n"
    )
    match = vugraph.parse_vugraph(text, "final.lin")
    assert match.parsed.problems == []
    results = [(r.board, r.ns, r.ew, str(r.result)) for r, _ in match.parsed.results]
    # The closed room: North and East pass, South opens 1S, three passes: 1S by South,
    # 7 tricks, made exactly; Tigers sit NS there.
    assert results == [(1, "Lions", "Tigers", "1NTN+1"), (1, "Tigers", "Lions", "1SS=")]
    assert [board.number for board, _ in match.parsed.boards] == [1]
