"""``bridgescore study run`` / ``study report`` through the command line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.core import Vulnerability
from bridgescore.deal import random_deals
from bridgescore.study.manifest import Manifest, save_manifest
from bridgescore.study.shards import build_shard, write_shard

runner = CliRunner()


def hand_made_study(directory: Path) -> Path:
    """Two chunks of 3 deals with par scores chosen by hand (None: 420 x3, -100 x2, 0)."""
    directory.mkdir()
    save_manifest(directory, Manifest(seed=4, chunk_size=3, deals=6))
    scores = [[420, -100, 420], [0, -100, 420]]
    for chunk, none in enumerate(scores):
        pars = {v: np.array(none) * (1 + int(v)) for v in Vulnerability}
        deals = [d.to_pbn() for d in random_deals(3, seed=chunk)]
        table = build_shard(chunk, deals, np.zeros((3, 4, 5), dtype=int), pars)
        write_shard(directory, seed=4, chunk_size=3, chunk=chunk, table=table)
    return directory


def test_report_text(tmp_path: Path) -> None:
    study = hand_made_study(tmp_path / "s")
    result = runner.invoke(app, ["study", "report", str(study)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Par scores of 6 random deals (seed 4, chunks of 3, neutral convention)"
    assert "Par plus NS                   3" in result.stdout
    assert "Absolute par scores, Both vulnerable" in result.stdout


def test_report_json(tmp_path: Path) -> None:
    study = hand_made_study(tmp_path / "s")
    result = runner.invoke(app, ["study", "report", str(study), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["deals"] == 6
    none = data["vulnerabilities"]["None"]
    assert (none["plus_ns"], none["plus_ew"], none["zero"]) == (3, 2, 1)
    assert none["scores"] == {"0": 1, "100": 2, "420": 3}
    assert (none["mode"], none["median"], none["min"], none["max"]) == (420, 100, 0, 420)
    assert none["mean"] == round((200 + 1260) / 6, 2)
    assert data["vulnerabilities"]["Both"]["scores"] == {"0": 1, "400": 2, "1680": 3}


def test_report_compare_and_plot(tmp_path: Path) -> None:
    study = hand_made_study(tmp_path / "s")
    png = tmp_path / "par.png"
    result = runner.invoke(app, ["study", "report", str(study), "--compare", "--plot", str(png)])
    assert result.exit_code == 0, result.output
    assert "Compared with: Richard Pavlicek" in result.stdout
    assert result.stdout.count("total variation distance") == 4
    assert png.read_bytes()[:4] == b"\x89PNG"
    as_json = runner.invoke(app, ["study", "report", str(study), "--compare", "--json"])
    comparison = json.loads(as_json.stdout)["comparison"]
    assert list(comparison) == ["None", "NS", "EW", "Both"]
    assert {"total_variation", "p_value", "within_noise"} <= set(comparison["None"])


def test_report_names_foreign_files_and_fails(tmp_path: Path) -> None:
    study = hand_made_study(tmp_path / "s")
    (study / "chunk-000001.parquet").write_bytes(b"broken")
    (study / "README").write_text("?")
    result = runner.invoke(app, ["study", "report", str(study)])
    assert result.exit_code == 1
    assert "chunk-000001.parquet' is not a readable Parquet file" in result.stderr
    assert "README': foreign file" in result.stderr
    assert "Par scores of 3 random deals" in result.stdout
    assert "INCOMPLETE: 3 of 6 planned deals; 1 chunk(s) missing" in result.stdout


def test_report_of_a_non_study(tmp_path: Path) -> None:
    result = runner.invoke(app, ["study", "report", str(tmp_path)])
    assert result.exit_code == 2
    assert "is not a par study (no study.json)" in result.stderr


def test_run_refuses_another_seed_or_chunk_size(tmp_path: Path) -> None:
    study = hand_made_study(tmp_path / "s")
    base = ["study", "run", "--deals", "6", "--out", str(study), "--no-progress"]
    result = runner.invoke(app, [*base, "--seed", "5", "--chunk", "3"])
    assert result.exit_code == 2
    assert "holds a study with seed 4, not 5: use --seed 4" in result.stderr
    result = runner.invoke(app, [*base, "--seed", "4", "--chunk", "256"])
    assert result.exit_code == 2
    assert "chunks of 3 deals, not 256: use --chunk 3" in result.stderr


def test_run_refuses_bad_numbers(tmp_path: Path) -> None:
    result = runner.invoke(app, ["study", "run", "--deals", "0", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert "deal count 0 is not usable" in result.stderr
    result = runner.invoke(
        app, ["study", "run", "--deals", "5", "--seed", "-3", "--out", str(tmp_path / "x")]
    )
    assert result.exit_code == 2
    assert "seed -3 is not usable" in result.stderr


def test_run_on_finished_study_does_nothing(tmp_path: Path) -> None:
    study = hand_made_study(tmp_path / "s")
    args = ["study", "run", "--deals", "6", "--seed", "4", "--chunk", "3", "--out", str(study)]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["chunks"], data["chunks_skipped"], data["chunks_computed"]) == (2, 2, 0)


def test_report_of_a_study_in_an_object_store(tmp_path: Path) -> None:
    from bridgescore.study.remote import RemoteStudy
    from bridgescore.study.shards import RemoteShardWriter

    local = hand_made_study(tmp_path / "s")
    url = f"memory://bridgescore-cli-{tmp_path.name}/s"
    remote = RemoteStudy(url)
    save_manifest(remote, Manifest(seed=4, chunk_size=3, deals=6))
    writer = RemoteShardWriter(remote, seed=4, chunk_size=3)
    for chunk in range(2):
        writer.write(chunk, pq.read_table(local / f"chunk-{chunk:06d}.parquet"))
    ours = runner.invoke(app, ["study", "report", url, "--json"])
    theirs = runner.invoke(app, ["study", "report", str(local), "--json"])
    assert ours.exit_code == 0, ours.output
    mine, reference = json.loads(ours.stdout), json.loads(theirs.stdout)
    assert mine == reference
    assert mine["vulnerabilities"]["None"]["scores"] == {"0": 1, "100": 2, "420": 3}


def test_extending_a_study_keeps_its_solved_deals_and_is_quiet(tmp_path: Path) -> None:
    study = str(tmp_path / "s")
    base = ["study", "run", "--seed", "5", "--chunk", "3", "--workers", "1", "--out", study]
    first = runner.invoke(app, [*base, "--deals", "2", "--json"])
    assert first.exit_code == 0, first.output
    # No progress lines: standard error is not a terminal and --progress was not given.
    assert first.stderr == ""
    data = json.loads(first.stdout)
    assert (data["deals_computed"], data["deals_reused"]) == (2, 0)
    before = pq.read_table(tmp_path / "s" / "chunk-000000.parquet")

    extended = runner.invoke(app, [*base, "--deals", "3", "--progress"])
    assert extended.exit_code == 0, extended.output
    summary, kept = extended.stdout.splitlines()[:2]
    assert summary.startswith(
        "3 deals in 1 chunks: 0 already finished, 1 computed now (1 deals in "
    )
    assert kept == (
        "kept 2 deals an earlier run solved in a short chunk; "
        "only the deals added to it were solved now"
    )
    # Asked for: progress lines, the last one at 3 of 3 deals, never "about 0 min".
    lines = extended.stderr.splitlines()
    assert lines and re.fullmatch(r"3/3 deals(, \d+\.\d deals/s)?", lines[-1])
    assert "0 min" not in extended.stderr
    after = pq.read_table(tmp_path / "s" / "chunk-000000.parquet")
    assert after.slice(0, 2).to_pylist() == before.to_pylist()
