"""``bridgescore deal --boards``: seeds, commitments, --verify and --analyse's PBN 2.1 tags."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore import DDTable, Deal, Seat, Vulnerability, par
from bridgescore.cli.app import app
from bridgescore.formats.pbn import read_games

runner = CliRunner()


def test_seed_file_is_written_secret_then_reproduces_the_set(tmp_path: Path) -> None:
    seed_file = tmp_path / "tonight.seed"
    first = runner.invoke(app, ["deal", "--boards", "1-8", "--seed-file", str(seed_file)])
    assert first.exit_code == 0, first.output
    assert "new secret seed (768 bits)" in first.stderr
    assert stat.S_IMODE(seed_file.stat().st_mode) == 0o600
    again = runner.invoke(app, ["deal", "--boards", "1-8", "--seed-file", str(seed_file)])
    assert again.exit_code == 0 and again.stdout == first.stdout
    games = list(read_games(first.stdout))
    assert [game.tags["Board"] for game in games] == [str(n) for n in range(1, 9)]
    fresh = runner.invoke(app, ["deal", "--boards", "1-8"])
    assert fresh.stdout != first.stdout and "seed " in fresh.stderr


def test_small_seed_warns_that_it_is_guessable() -> None:
    result = runner.invoke(app, ["deal", "--boards", "1-2", "--seed", "3", "--format", "json"])
    assert result.exit_code == 0
    assert "guessable" in result.stderr
    data = json.loads(result.stdout)
    assert [board["board"] for board in data["boards"]] == [1, 2]
    again = runner.invoke(app, ["deal", "--boards", "1-2", "--seed", "3", "--format", "json"])
    assert again.stdout == result.stdout


def test_commit_then_verify(tmp_path: Path) -> None:
    seed_file, commit = tmp_path / "s.seed", tmp_path / "s.commit"
    dealt = runner.invoke(
        app,
        ["deal", "--boards", "1-6", "--seed-file", str(seed_file), "--commit", str(commit),
         "--format", "lin"],
    )  # fmt: skip
    assert dealt.exit_code == 0, dealt.output
    set_file = tmp_path / "set.lin"
    set_file.write_text(dealt.stdout)
    args = ["deal", "--verify", str(set_file), "--seed-file", str(seed_file)]
    ok = runner.invoke(app, [*args, "--commit", str(commit)])
    assert ok.exit_code == 0, ok.output
    assert "6 board(s) match" in ok.stdout and "commitment is the seed's" in ok.stdout
    # A swapped hand on board 3 is caught.
    lines = dealt.stdout.splitlines()
    head, md, rest = lines[2].split("|md|")[0], lines[2].split("|md|")[1].split("|")[0], ""
    dealer, hands = md[0], md[1:].split(",")
    hands[0], hands[2] = hands[2], hands[0]
    rest = lines[2].split(md, 1)[1]
    lines[2] = f"{head}|md|{dealer}{','.join(hands)}{rest}"
    set_file.write_text("\n".join(lines) + "\n")
    bad = runner.invoke(app, [*args, "--commit", str(commit)])
    assert bad.exit_code == 1 and "do NOT (boards 3)" in bad.stdout
    # Another seed fails the commitment.
    other = tmp_path / "other.seed"
    runner.invoke(app, ["deal", "--boards", "1", "--seed-file", str(other)])
    wrong = runner.invoke(
        app, ["deal", "--verify", str(set_file), "--seed-file", str(other), "--commit", str(commit)]
    )
    assert wrong.exit_code == 1 and "commitment does NOT match" in wrong.stdout
    # The commitment file is never overwritten.
    again = runner.invoke(
        app, ["deal", "--boards", "1", "--seed-file", str(seed_file), "--commit", str(commit)]
    )
    assert again.exit_code == 2 and "already exists" in again.stderr


def test_bad_options_get_clear_errors(tmp_path: Path) -> None:
    result = runner.invoke(app, ["deal", "--boards", "0-3"])
    assert result.exit_code == 2 and "below 1" in result.stderr
    result = runner.invoke(app, ["deal", "--boards", "1-3", "--format", "xml"])
    assert result.exit_code == 2 and "'xml'" in result.stderr
    result = runner.invoke(app, ["deal", "--analyse"])
    assert result.exit_code == 2 and "--boards" in result.stderr
    result = runner.invoke(app, ["deal", "--verify", "x.pbn"])
    assert result.exit_code == 2 and "--seed-file" in result.stderr
    junk = tmp_path / "junk.seed"
    junk.write_text("not a seed\n")
    result = runner.invoke(app, ["deal", "--boards", "1", "--seed-file", str(junk)])
    assert result.exit_code == 2 and "'not a seed'" in result.stderr


def test_lin_with_analyse_is_refused_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`deal --format lin --analyse` wrote no analysis, said nothing, and ran DDS for it."""
    from bridgescore.cli import boards as board_options

    def no_solving(*args: object, **kwargs: object) -> object:
        raise AssertionError("DDS ran for a refused combination")

    monkeypatch.setattr(board_options, "analyse_with_progress", no_solving)
    seed, commit = tmp_path / "tonight.seed", tmp_path / "tonight.commit"
    args = ["deal", "--boards", "1-4", "--seed-file", str(seed), "--commit", str(commit)]
    result = runner.invoke(app, [*args, "--format", "lin", "--analyse"])
    assert result.exit_code == 2 and result.stdout == ""
    assert "--analyse" in result.stderr and "LIN" in result.stderr
    assert "--format pbn, json or csv" in result.stderr
    assert "bridgescore convert set.pbn set.lin" in result.stderr
    assert not seed.exists() and not commit.exists()  # no secret seed made for nothing
    upper = runner.invoke(
        app, ["deal", "--boards", "1", "--seed", "1", "--format", "LIN", "--analyse"]
    )
    assert upper.exit_code == 2 and "convert" in upper.stderr
    # Without --analyse the LIN set is dealt as before.
    plain = runner.invoke(app, ["deal", "--boards", "1", "--seed", "1", "--format", "lin"])
    assert plain.exit_code == 0 and plain.stdout.startswith("qx|o1|md|")


def test_analyse_writes_pbn_21_tags_that_agree_with_solve_and_par() -> None:
    pytest.importorskip("endplay")
    from bridgescore import solve

    result = runner.invoke(app, ["deal", "--boards", "1-4", "--seed", "6", "--analyse"])
    assert result.exit_code == 0, result.output
    games = list(read_games(result.stdout))
    assert len(games) == 4
    for game in games:
        tags = game.tags
        deal = Deal.from_pbn(tags["Deal"])
        table = solve(deal)
        assert tags["DoubleDummyTricks"] == str(table)
        section = game.section("OptimumResultTable")
        assert section is not None
        rows = [" ".join(token.text for token in row) for row in section.rows]
        assert DDTable.from_optimum_result_table(rows) == table
        vulnerability = Vulnerability.from_pbn(tags["Vulnerable"])
        expected = par(table, vulnerability, Seat.parse(tags["Dealer"]))
        assert tags["OptimumScore"] == f"NS {expected.score}"
        words = tags["ParContract"].split("; ")
        assert len(words) == max(1, len(expected.contracts))
        for word, contract in zip(words, expected.contracts, strict=False):
            who, made = word.split()
            assert who in ("NS", "EW", *"NESW")
            assert made.startswith(f"{contract.contract.level}{contract.contract.strain.letter}")
