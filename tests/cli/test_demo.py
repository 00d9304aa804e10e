"""``bridgescore demo`` writes into a temporary or a named folder, never ./build."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore.cli import demo
from bridgescore.cli.app import app

runner = CliRunner()


def test_the_default_folder_is_a_fresh_temporary_one() -> None:
    first, second = demo.demo_folder(None), demo.demo_folder(None)
    try:
        assert first != second
        for folder in (first, second):
            assert folder.parent == Path(tempfile.gettempdir())
            assert folder.name.startswith("bridgescore-demo-")
            assert folder.is_dir() and list(folder.iterdir()) == []
    finally:
        first.rmdir()
        second.rmdir()


def test_a_named_folder_is_made_with_its_parents(tmp_path: Path) -> None:
    named = tmp_path / "club" / "night"
    assert demo.demo_folder(named) == named and named.is_dir()
    assert demo.demo_folder(named) == named  # an existing folder is fine


def test_a_folder_that_cannot_be_made_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = runner.invoke(app, ["demo", "--out", str(blocker / "demo")])
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: --out '{blocker / 'demo'}': '{blocker}' is a file, not a folder\n"
    )
    assert result.stdout == ""  # refused before the examples, not after them


@pytest.mark.parametrize("named", [False, True])
def test_the_demo_writes_where_it_says(
    named: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The sections that solve deals and print PDF take minutes; they are replaced here by
    # one that records the folder it is given. The folder choice is what is tested.
    given: list[Path] = []
    monkeypatch.setattr(demo, "_deals_section", lambda: None)
    monkeypatch.setattr(demo, "_session_section", lambda: None)
    monkeypatch.setattr(demo, "_study_section", lambda: None)
    monkeypatch.setattr(demo, "_room_section", lambda out: None)
    monkeypatch.setattr(demo, "_club_night_section", given.append)
    monkeypatch.chdir(tmp_path)
    arguments = ["demo", "--out", "night"] if named else ["demo"]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    (folder,) = given
    lines = result.stdout.splitlines()
    assert lines[0] == f"Files of the demo go to {folder}"
    assert lines[-1] == f"The demo's files are in {folder}"
    if named:
        assert folder == Path("night") and (tmp_path / "night").is_dir()
    else:
        assert folder.is_absolute() and folder.parent == Path(tempfile.gettempdir())
        folder.rmdir()
    assert not (tmp_path / "build").exists()
    assert "Contracts made exactly" in result.stdout  # the scoring section still runs


def test_the_room_section_suggests_a_movement_prints_its_cards_and_turns_imps_into_vps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    demo._room_section(tmp_path)
    out = capsys.readouterr().out
    # 14 pairs: a 7-table Mitchell of 6 rounds of 4 boards is 24 boards a pair.
    assert "Mitchell, 7 tables: 6 of its 7 rounds of 4 boards = 24 boards a pair" in out
    assert "a sound Mitchell: 6 rounds of 4 boards" in out
    page = (tmp_path / "cards.html").read_text(encoding="utf-8")
    assert "Pair 7E" in page and "Table 7" in page and "Demo pairs" in page
    # 12 IMPs over 8 boards on the continuous scale (checked in tests/movement/test_vp.py).
    assert "winner 14.39 VP, loser 5.61 VP" in out
