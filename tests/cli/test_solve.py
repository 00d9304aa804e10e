"""``bridgescore solve`` and ``bridgescore deal``: text, --hex, --json, batches, errors."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bridgescore import Deal, deal_many
from bridgescore.cli.app import app

runner = CliRunner()

SAMPLE = "N:KJ52.K7.T85.AJ87 A9863.Q3.Q3.T543 Q4.AJ862.J762.K2 T7.T954.AK94.Q96"
# DDS's table for SAMPLE, from tests/data/par_vectors.jsonl line 1.
SAMPLE_DD = "87788877884655556555"


def test_solve_prints_diagram_and_grid() -> None:
    result = runner.invoke(app, ["solve", SAMPLE])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == SAMPLE
    assert lines[2].strip() == "S KJ52"
    assert lines[-6:] == [
        "      N   S   E   W",
        "  NT   8   8   4   5",
        "  S    7   7   6   6",
        "  H    7   7   5   5",
        "  D    8   8   5   5",
        "  C    8   8   5   5",
    ]


def test_solve_hex_json_and_unquoted_words() -> None:
    result = runner.invoke(app, ["solve", "--hex", *SAMPLE.split()])
    assert result.exit_code == 0 and result.stdout.strip() == SAMPLE_DD
    data = json.loads(runner.invoke(app, ["solve", SAMPLE, "--json"]).stdout)
    assert data["deal"] == SAMPLE and data["dd"] == SAMPLE_DD
    assert data["tricks"]["W"]["NT"] == 5
    assert data["hands"]["N"] == {"hand": "KJ52.K7.T85.AJ87", "hcp": 12, "shape": [4, 2, 3, 4]}


def test_solve_bad_deal_exits_1_naming_the_problem() -> None:
    result = runner.invoke(app, ["solve", SAMPLE[:-1]])
    assert result.exit_code == 1
    assert "West's hand" in result.stderr and "12 cards" in result.stderr
    assert runner.invoke(app, ["solve"]).exit_code == 2


def test_solve_batch_goes_on_past_bad_lines() -> None:
    text = f"{SAMPLE}\nN:AKQ\n# a comment\n{SAMPLE.lower()}\n"
    result = runner.invoke(app, ["solve", "-", "--hex"], input=text)
    assert result.exit_code == 1
    assert result.stdout.split() == [SAMPLE_DD, SAMPLE_DD]
    assert "line 2:" in result.stderr and "1 line(s)" in result.stderr
    records = json.loads(runner.invoke(app, ["solve", "-", "--json"], input=text).stdout)
    assert [record["line"] for record in records] == [1, 2, 4]
    assert "error" in records[1] and records[2]["dd"] == SAMPLE_DD


def test_deal_count_seed_pbn() -> None:
    result = runner.invoke(app, ["deal", "--count", "5", "--seed", "1"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 5
    # The documented rule: the dealer's chunked stream (tests/dealer/test_dealing.py checks that
    # chunk i comes from SeedSequence(seed) child i), the deals of deal_many.
    assert [Deal.from_pbn(line) for line in lines] == deal_many(5, seed=1)


def test_deal_json_diagram_and_fresh_seed() -> None:
    data = json.loads(runner.invoke(app, ["deal", "-n", "2", "--seed", "4", "--json"]).stdout)
    assert data["seed"] == 4 and len(data["deals"]) == 2
    first = Deal.from_pbn(data["deals"][0]["deal"])
    assert data["deals"][0]["hands"]["S"]["hcp"] == first[2].hcp
    shown = runner.invoke(app, ["deal", "--seed", "4", "--diagram"]).stdout
    assert first.diagram() in shown
    fresh = runner.invoke(app, ["deal"])
    assert fresh.exit_code == 0 and "--seed" in fresh.stderr
    seed = int(fresh.stderr.split()[1])
    again = runner.invoke(app, ["deal", "--seed", str(seed)])
    assert again.stdout == fresh.stdout
    assert runner.invoke(app, ["deal", "--count", "-1"]).exit_code == 2


# Issue 23: one rule for "a deal or a file" (cli/deal_input.py), shared with par.


def test_solve_takes_a_file_as_its_argument(tmp_path: Path) -> None:
    path = tmp_path / "deals.txt"
    path.write_text(f"{SAMPLE}\n")
    by_argument = runner.invoke(app, ["solve", str(path), "--hex"])
    assert by_argument.exit_code == 0, by_argument.output
    assert by_argument.stdout.split() == [SAMPLE_DD]
    pbn = tmp_path / "board.pbn"
    pbn.write_text(f'[Board "1"]\n[Deal "{SAMPLE}"]\n')
    assert runner.invoke(app, ["solve", str(pbn), "--hex"]).stdout.split() == [SAMPLE_DD]
    both = runner.invoke(app, ["solve", str(path), "--file", str(path)])
    assert both.exit_code == 2 and "not both" in both.stderr


def test_a_name_that_is_neither_a_file_nor_a_deal() -> None:
    result = runner.invoke(app, ["solve", "sesion.pbn"])
    assert result.exit_code == 2
    assert "cannot read 'sesion.pbn': no such file, and it is not a deal" in result.stderr


def test_a_handviewer_link_is_a_deal() -> None:
    link = (Path(__file__).parents[1] / "data" / "formats" / "handviewer.txt").read_text().strip()
    # LIN's md| lists South, West, North (East holds the rest): SQ HKQT2 DQ5 CAQJ976,
    # SKJ652 H6 DK9874 CT8, S743 HA9853 DT62 C54.
    data = json.loads(runner.invoke(app, ["solve", link, "--json"]).stdout)
    assert data["hands"]["S"]["hand"] == "Q.KQT2.Q5.AQJ976"
    assert data["hands"]["W"]["hand"] == "KJ652.6.K9874.T8"
    assert data["hands"]["N"]["hand"] == "743.A9853.T62.54"


def test_deal_or_file_rule() -> None:
    from bridgescore.cli.deal_input import DealOrFile, deal_or_file

    here = str(Path(__file__))
    assert deal_or_file(None) is None
    assert deal_or_file([]) is None
    assert deal_or_file(["-"]) == DealOrFile(path="-")
    assert deal_or_file([here]) == DealOrFile(path=here)
    assert deal_or_file(SAMPLE.split()) == DealOrFile(text=SAMPLE)
    assert deal_or_file(["x" * 5000]) == DealOrFile(text="x" * 5000)  # too long to be a name


# -- a file that holds no deals (issue 46) --------------------------------------------------------

USEBIO = Path(__file__).parents[1] / "data" / "usebio_pairs.xml"


def test_a_usebio_file_is_told_once_where_it_is_read() -> None:
    # It gave one error per line of XML ("'<?xml' has 5 digits", 2,948 of them).
    for command in (["solve"], ["par"], ["game"]):
        result = runner.invoke(app, [*command, str(USEBIO)])
        assert result.exit_code == 2
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, lines
        assert lines[0].startswith(f"error: {USEBIO} is a USEBIO results file (XML), not a file")
        assert f"'bridgescore session import EVENT {USEBIO}'" in lines[0]
        assert f"'bridgescore handrecord {USEBIO} --out F.html'" in lines[0]


def test_a_text_file_without_deals_is_told_once(tmp_path: Path) -> None:
    letter = tmp_path / "letter.txt"
    letter.write_text("Dear members,\nthe club meets on Tuesday.\nThe committee\n")
    result = runner.invoke(app, ["solve", str(letter)])
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        f"error: {letter} holds no deals: none of its 3 lines reads as one (line 1: not a "
        "PBN deal: 'Dear members,': expected a first seat N, E, S or W, a colon and four "
        "hands, as in 'N:AKQJ.T98.765.432 ...')"
    )
    par = runner.invoke(app, ["par", str(letter)])
    assert par.exit_code == 1
    assert len(par.stderr.strip().splitlines()) == 1
    assert f"{letter} holds no deals or double-dummy tables: none of its 3 lines" in par.stderr


def test_a_bad_line_among_deals_is_still_told_by_its_number(tmp_path: Path) -> None:
    path = tmp_path / "deals.txt"
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    path.write_text(f"{deal}\nhello\n")
    result = runner.invoke(app, ["solve", str(path), "--hex"])
    assert result.exit_code == 1
    assert len(result.stdout.splitlines()) == 1  # the good deal is solved
    assert result.stderr.startswith("line 2: not a PBN deal: 'hello'")
    assert "1 line(s) could not be solved" in result.stderr
