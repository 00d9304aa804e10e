"""Output paths are checked before the work starts, in every command that writes files.

The helper (:mod:`bridgescore.cli.outputs`) on each kind of bad path, then each
command that writes a file given such a path: it stops with exit code 2 and a
message naming the option and the path, before anything is computed or printed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.cli.outputs import (
    OutputPathError,
    output_directory_problem,
    output_path_problem,
)
from bridgescore.errors import BridgeError

runner = CliRunner()
DATA = Path(__file__).parents[1] / "data"
ROOT = os.geteuid() == 0


@pytest.fixture
def unwritable_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder no new file can be made in, for this user."""
    if not ROOT:
        folder = tmp_path / "locked"
        folder.mkdir()
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)
        return
    # Permission bits do not stop root; sysfs refuses new files to everyone.
    if not Path("/sys/kernel").is_dir():
        pytest.skip("no folder refuses root here")
    yield Path("/sys")


@pytest.fixture
def unwritable_file(tmp_path: Path) -> Iterator[Path]:
    """An existing file this user may not write."""
    if not ROOT:
        path = tmp_path / "read-only.txt"
        path.write_text("kept\n")
        path.chmod(0o444)
        yield path
        path.chmod(0o644)
        return
    path = Path("/sys/kernel/uevent_seqnum")  # mode 0444, which sysfs enforces for root too
    if not path.exists():
        pytest.skip("no file refuses root here")
    yield path


# --- the helper ---------------------------------------------------------------------


def test_a_missing_folder(tmp_path: Path) -> None:
    target = tmp_path / "nonexistent-dir" / "x.png"
    problem = output_path_problem(target, "--plot")
    assert isinstance(problem, OutputPathError) and isinstance(problem, BridgeError)
    assert str(problem) == (
        f"--plot {str(target)!r}: the folder {str(target.parent)!r} does not exist"
    )


def test_a_folder_given_as_the_file(tmp_path: Path) -> None:
    assert str(output_path_problem(tmp_path, "--out")) == (
        f"--out {str(tmp_path)!r} is a folder: expected a file name"
    )


def test_a_file_given_as_the_folder(tmp_path: Path) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("x")
    assert str(output_path_problem(blocker / "x.csv", "--csv")) == (
        f"--csv {str(blocker / 'x.csv')!r}: {str(blocker)!r} is a file, not a folder"
    )
    assert str(output_directory_problem(blocker, "--out")) == (
        f"--out {str(blocker)!r} is a file: expected a folder"
    )
    assert str(output_directory_problem(blocker / "a" / "b", "--out")) == (
        f"--out {str(blocker / 'a' / 'b')!r}: {str(blocker)!r} is a file, not a folder"
    )


def test_a_folder_that_refuses_new_files(unwritable_folder: Path) -> None:
    target = unwritable_folder / "x.png"
    assert str(output_path_problem(target, "--plot")) == (
        f"--plot {str(target)!r}: cannot write in the folder {str(unwritable_folder)!r}: "
        "Permission denied"
    )
    assert str(output_directory_problem(unwritable_folder / "study", "--out")) == (
        f"--out {str(unwritable_folder / 'study')!r}: cannot write in the folder "
        f"{str(unwritable_folder)!r}: Permission denied"
    )


def test_an_existing_file_that_refuses_writing(unwritable_file: Path) -> None:
    assert str(output_path_problem(unwritable_file, "--csv")) == (
        f"--csv {str(unwritable_file)!r} cannot be written: Permission denied"
    )


def test_good_paths_pass_and_are_left_as_they_were(tmp_path: Path) -> None:
    existing = tmp_path / "old.csv"
    existing.write_text("kept\n")
    before = existing.stat().st_mtime_ns
    assert output_path_problem(existing, "--csv") is None
    assert output_path_problem(tmp_path / "new.csv", "--csv") is None
    assert output_directory_problem(tmp_path / "a" / "b", "--out") is None
    assert output_directory_problem(tmp_path, "--out") is None
    # Checking writes nothing: the old file unchanged, no new file or folder, no stray name.
    assert existing.read_text() == "kept\n" and existing.stat().st_mtime_ns == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.csv"]


# --- every command that writes a file ----------------------------------------------


def missing(tmp_path: Path, name: str) -> Path:
    return tmp_path / "nonexistent-dir" / name


def refused(option: str, path: Path) -> str:
    return f"error: {option} {str(path)!r}: the folder {str(path.parent)!r} does not exist\n"


def test_simulate_plot_the_issue_command(tmp_path: Path) -> None:
    target = Path("/tmp/nonexistent-dir/x.png")
    if target.parent.exists():
        target = missing(tmp_path, "x.png")
    args = ["simulate", "-n", "10", "--seed", "1", "--contract", "4S", "--by", "N"]
    result = runner.invoke(app, [*args, "--plot", str(target)])
    assert result.exit_code == 2
    assert (result.stdout, result.stderr) == ("", refused("--plot", target))


def test_simulate_plot_needs_a_plot_format(tmp_path: Path) -> None:
    args = ["simulate", "-n", "10", "--seed", "1", "--contract", "4S", "--by", "N"]
    result = runner.invoke(app, [*args, "--plot", str(tmp_path / "x.gif")])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        f"error: --plot {str(tmp_path / 'x.gif')!r}: expected a file name ending in "
        ".png, .svg or .pdf\n"
    )


def hand_made_study(directory: Path) -> Path:
    from bridgescore.core import Vulnerability
    from bridgescore.deal import random_deals
    from bridgescore.study.manifest import Manifest, save_manifest
    from bridgescore.study.shards import build_shard, write_shard

    directory.mkdir()
    save_manifest(directory, Manifest(seed=4, chunk_size=3, deals=3))
    pars = {v: np.array([420, -100, 0]) for v in Vulnerability}
    deals = [d.to_pbn() for d in random_deals(3, seed=0)]
    table = build_shard(0, deals, np.zeros((3, 4, 5), dtype=int), pars)
    write_shard(directory, seed=4, chunk_size=3, chunk=0, table=table)
    return directory


def test_study_report_plot(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    study = hand_made_study(tmp_path / "s")
    target = missing(tmp_path, "par.png")
    result = runner.invoke(app, ["study", "report", str(study), "--plot", str(target)])
    assert result.exit_code == 2
    assert (result.stdout, result.stderr) == ("", refused("--plot", target))


def test_study_run_out(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    out = blocker / "study"
    result = runner.invoke(app, ["study", "run", "--deals", "4", "--out", str(out)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"error: --out {str(out)!r}: {str(blocker)!r} is a file, not a folder\n"


def test_convert_out(tmp_path: Path) -> None:
    target = missing(tmp_path, "match.pbn")
    result = runner.invoke(app, ["convert", str(DATA / "formats" / "vugraph.lin"), str(target)])
    assert result.exit_code == 2
    assert (result.stdout, result.stderr) == ("", refused("OUT", target))


def test_handrecord_out_before_any_board_is_solved(tmp_path: Path) -> None:
    source = tmp_path / "set.pbn"
    source.write_text('[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n' + DEAL_TAG)
    target = missing(tmp_path, "records.html")
    # --progress: a board solved would print a progress line on standard error.
    result = runner.invoke(app, ["handrecord", str(source), "--out", str(target), "--progress"])
    assert result.exit_code == 2
    assert (result.stdout, result.stderr) == ("", refused("--out", target))


DEAL_TAG = '[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"]\n'


def session_event(tmp_path: Path) -> Path:
    db = tmp_path / "club.db"
    imported = runner.invoke(
        app, ["session", "import", str(db), str(DATA / "session_mitchell.csv")]
    )
    assert imported.exit_code == 0, imported.output
    return db


def test_session_outputs(tmp_path: Path) -> None:
    db = session_event(tmp_path)
    csv, html = missing(tmp_path, "ranking.csv"), missing(tmp_path, "club.html")
    site = missing(tmp_path, "site") / "board"
    xml = missing(tmp_path, "club.xml")
    for args, option, target in [
        (["score", str(db), "--csv", str(csv)], "--csv", csv),
        (["report", str(db), "--no-par", "--csv", str(csv)], "--csv", csv),
        (["report", str(db), "--no-par", "--html", str(html)], "--html", html),
        (["export", str(db), str(xml)], "OUTPUT", xml),
    ]:
        result = runner.invoke(app, ["session", *args])
        assert result.exit_code == 2, args
        assert (result.stdout, result.stderr) == ("", refused(option, target)), args
    # A site folder may be made with its parents, but not under a file.
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    result = runner.invoke(
        app, ["session", "report", str(db), "--no-par", "--html", str(blocker / "site")]
    )
    assert result.exit_code == 2 and result.stdout == ""
    assert "is a file, not a folder" in result.stderr
    made = runner.invoke(app, ["session", "report", str(db), "--no-par", "--html", str(site)])
    assert made.exit_code == 0, made.output
    assert (site / "index.html").is_file()


def test_deal_seed_file_and_commitment(tmp_path: Path) -> None:
    seed_file = missing(tmp_path, "tonight.seed")
    result = runner.invoke(app, ["deal", "--boards", "1-4", "--seed-file", str(seed_file)])
    assert result.exit_code == 2
    assert (result.stdout, result.stderr) == ("", refused("--seed-file", seed_file))
    # An existing commitment is refused before the seed file is written.
    commit = tmp_path / "tonight.commit"
    commit.write_text("published\n")
    seed_file = tmp_path / "tonight.seed"
    args = ["deal", "--boards", "1-4", "--seed-file", str(seed_file), "--commit", str(commit)]
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"error: {str(commit)!r} already exists: not overwriting it\n"
    assert not seed_file.exists() and commit.read_text() == "published\n"


def test_demo_out(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = runner.invoke(app, ["demo", "--out", str(blocker)])
    assert result.exit_code == 2
    assert (result.stdout, result.stderr) == (
        "",
        f"error: --out {str(blocker)!r} is a file: expected a folder\n",
    )
