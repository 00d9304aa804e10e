"""A BBO vugraph archive (LIN) imported as a teams match: both rooms, scored by IMPs."""

from __future__ import annotations

import doctest
import shutil
from pathlib import Path

from typer.testing import CliRunner

import bridgescore.session.vugraph as vugraph
from bridgescore.cli.app import app
from bridgescore.session.importer import import_files
from bridgescore.session.scorer import score_event
from bridgescore.session.store import EventStore

DATA = Path(__file__).parent / "data" / "formats"
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


def test_a_hand_history_without_rooms_is_refused_board_by_board(tmp_path: Path) -> None:
    path = tmp_path / "history.lin"
    shutil.copy(DATA / "hand_history.lin", path)
    with EventStore(tmp_path / "ev.db") as store:
        report = import_files(store, [path])
        event = store.load()
    assert not event.results and report.problems
    assert all("names no room" in problem.message for problem in report.problems)
    assert report.problems[0].line == 1


def test_doctests() -> None:
    assert doctest.testmod(vugraph).failed == 0
