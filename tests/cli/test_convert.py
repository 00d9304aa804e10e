"""``bridgescore convert`` and ``game``/``solve`` on every format, and a CLI run over
mutated fixtures: always exit 0, 1 or 2 with a message, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bridgescore.cli.app import app

DATA = Path(__file__).parents[1] / "data" / "formats"
runner = CliRunner()

SHAPE = {
    "board", "room", "dealer", "vulnerable", "deal", "contract", "declarer", "tricks",
    "result", "score_ns", "problems",
}  # fmt: skip


def _game(path: Path | str, *extra: str) -> list[dict[str, object]]:
    result = runner.invoke(app, ["game", str(path), "--json", *extra])
    assert result.exit_code in (0, 1), result.output
    data = json.loads(result.stdout)
    assert isinstance(data, list)
    return data


def test_game_json_shape_for_every_format(tmp_path: Path) -> None:
    for name in ("vugraph.lin", "championship.pbn", "hand_history.lin", "handviewer.txt"):
        for record in _game(DATA / name):
            assert set(record) == SHAPE
    # Vugraph rooms, in file order; board 5, dealer N, NS vul (Law 2 and sv|n|).
    data = _game(DATA / "vugraph.lin")
    assert [(r["board"], r["room"]) for r in data] == [
        (5, "open"), (5, "closed"), (6, "open"), (6, "closed"),
    ]  # fmt: skip
    assert data[0]["dealer"] == "N" and data[0]["vulnerable"] == "NS"
    # 3NT= vulnerable: 100 trick score + 500 game bonus.
    assert (data[0]["contract"], data[0]["result"], data[0]["score_ns"]) == ("3NT", "3NTN=", 600)


def test_convert_between_formats_keeps_the_scores(tmp_path: Path) -> None:
    before = _game(DATA / "vugraph.lin")
    pbn = tmp_path / "match.pbn"
    result = runner.invoke(app, ["convert", str(DATA / "vugraph.lin"), str(pbn)])
    assert result.exit_code == 0, result.output
    assert pbn.read_text().startswith("% PBN 2.1")
    json_out = tmp_path / "match.json"
    assert runner.invoke(app, ["convert", str(pbn), str(json_out)]).exit_code == 0
    lin_out = tmp_path / "again.lin"
    assert runner.invoke(app, ["convert", str(json_out), str(lin_out)]).exit_code == 0
    for path in (pbn, json_out, lin_out):
        after = _game(path)
        assert after == before


def test_convert_standard_streams() -> None:
    text = (DATA / "hand_history.lin").read_text()
    result = runner.invoke(app, ["convert", "-", "-", "--to", "json"], input=text)
    assert result.exit_code == 0, result.output
    boards = json.loads(result.stdout)
    assert [b["board"] for b in boards] == [1, 2, 3, 4]
    assert boards[0]["auction"][0] == {
        "call": "1NT", "alerted": True, "explanation": "15-17 balanced",
    }  # fmt: skip
    result = runner.invoke(app, ["convert", "-", "-", "--to", "lin"], input=result.stdout)
    assert result.exit_code == 0
    assert result.stdout.count("\n") == 4 and "mb|1N!|an|15-17 balanced|" in result.stdout


def test_convert_errors() -> None:
    result = runner.invoke(app, ["convert", str(DATA / "vugraph.lin"), "out.txt"])
    assert result.exit_code == 2 and "--to pbn|lin|json" in result.stderr
    result = runner.invoke(app, ["convert", "no-such.lin", "-", "--to", "pbn"])
    assert result.exit_code == 2 and "no-such.lin" in result.stderr
    result = runner.invoke(app, ["convert", "-", "-", "--to", "pbn"], input="hello\n")
    assert result.exit_code == 2 and "cannot tell the format" in result.stderr
    result = runner.invoke(app, ["convert", "-", "-", "--to", "xml"], input="")
    assert result.exit_code == 2


def test_convert_reports_problems_and_still_writes() -> None:
    text = "pn|a,b,c,d|md|3SAKQ|ah|Board 2|mb|1N|mb|9Q|\n"
    result = runner.invoke(app, ["convert", "-", "-", "--to", "pbn"], input=text)
    assert result.exit_code == 1
    assert "line 1" in result.stderr and "'9Q'" in result.stderr
    assert '[Board "2"]' in result.stdout


def test_solve_and_par_read_lin(tmp_path: Path) -> None:
    import pytest

    pytest.importorskip("endplay")
    result = runner.invoke(app, ["par", str(DATA / "vugraph.lin"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    # Both rooms played boards 5 and 6 (qx|o5|, qx|c5|, ...): one row per board (issue 23).
    assert [item["input"] for item in data] == ["board 5", "board 6"]
    assert [item["board"] for item in data] == [5, 6]
    link = (DATA / "handviewer.txt").read_text().strip()
    result = runner.invoke(app, ["solve", link, "--hex"])
    assert result.exit_code == 0, result.output
    assert len(result.stdout.strip()) == 20


FIXTURES = sorted(path for path in DATA.iterdir() if path.is_file())


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, bytes]:
    path = draw(st.sampled_from(FIXTURES))
    raw = bytearray(path.read_bytes())
    for _ in range(draw(st.integers(0, 6))):
        raw[draw(st.integers(0, len(raw) - 1))] = draw(st.integers(0, 255))
    cut = draw(st.integers(0, len(raw)))
    return path.suffix, bytes(raw[:cut] if draw(st.booleans()) else raw)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(mutated(), st.sampled_from(["game", "convert"]))
def test_cli_over_mutated_fixtures(tmp_path: Path, case: tuple[str, bytes], command: str) -> None:
    suffix, data = case
    path = tmp_path / f"input{suffix}"
    path.write_bytes(data)
    args = ["game", str(path)] if command == "game" else ["convert", str(path), "-", "--to", "lin"]
    result = runner.invoke(app, args)
    assert result.exit_code in (0, 1, 2)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    if result.exit_code:
        assert result.stderr.strip() or result.stdout.strip()


def test_game_dd_checks_double_dummy_tags(tmp_path: Path) -> None:
    import pytest

    pytest.importorskip("endplay")
    result = runner.invoke(app, ["game", str(DATA / "championship.pbn"), "--dd"])
    assert result.exit_code == 0, result.output
    text = (DATA / "championship.pbn").read_text()
    # One trick more for West in clubs than DDS finds (the last digit: W, clubs).
    changed = text.replace("57467574677696586965", "57467574677696586966")
    path = tmp_path / "changed.pbn"
    path.write_text(changed)
    result = runner.invoke(app, ["game", str(path), "--dd"])
    assert result.exit_code == 1
    assert "'57467574677696586966' disagrees with DDS, '57467574677696586965'" in result.stdout
    assert "board 1, table 1" in result.stdout


def test_convert_to_lin_keeps_a_board_without_a_deal(tmp_path: Path) -> None:
    """Issue 23: ``convert tests/data/games_import.pbn x.lin && game x.lin``."""
    lin = tmp_path / "x.lin"
    result = runner.invoke(app, ["convert", str(DATA.parent / "games_import.pbn"), str(lin)])
    assert result.exit_code == 0, result.output
    lines = lin.read_text().splitlines()
    # Three games, three lines; board 2 gives no deal, so its line has no md.
    assert len(lines) == 3 and "md|" not in lines[2] and lines[2].startswith("ah|Board 2|")
    result = runner.invoke(app, ["game", str(lin)])
    assert result.exit_code == 0, result.output
    rows = [
        (r["board"], r["contract"], r["declarer"], r["tricks"], r["result"], r["score_ns"])
        for r in _game(lin)
    ]
    # From the PBN file and the Laws. Board 3, EW vulnerable: 3NT by South, 9 tricks,
    # 100 + 300 not vulnerable game bonus. Board 4, both vulnerable: West, North and
    # East pass, South opens 1S and North raises to 4S: South declares and takes 12
    # tricks, 120 + 60 + 500. Board 2 (no Vulnerable tag: NS vulnerable by Law 2, so
    # West is not): 4SX by West, 9 tricks, one down doubled, 100 to NS.
    assert rows == [
        (3, "3NT", "S", 9, "3NTS=", 400),
        (4, "4S", "S", 12, "4SS+2", 680),
        (2, "4SX", "W", 9, "4SXW-1", 100),
    ]
    assert all(r["problems"] == [] for r in _game(lin))


def test_analysed_board_set_converts_to_one_lin_line_a_board(tmp_path: Path) -> None:
    """Issue 23: an analysed set's OptimumResultTable (a tag and 20 rows) went into the
    LIN as it was, 168 lines for 8 boards; each row is now a ``+`` tag on its board's line."""
    import pytest

    pytest.importorskip("endplay")
    from bridgescore.formats import read_records
    from bridgescore.formats.boardset import read_boards
    from bridgescore.formats.pbn import read_games

    result = runner.invoke(app, ["deal", "--boards", "1-8", "--seed", "1", "--analyse"])
    assert result.exit_code == 0, result.output
    pbn, lin = tmp_path / "set.pbn", tmp_path / "set.lin"
    pbn.write_text(result.stdout)
    result = runner.invoke(app, ["convert", str(pbn), str(lin)])
    assert result.exit_code == 0, result.output
    text = lin.read_text()
    lines = text.splitlines()
    assert len(lines) == 8 and text.count("\n") == 8
    games = list(read_games(pbn.read_text()))
    for number, (line, game) in enumerate(zip(lines, games, strict=True), start=1):
        assert line.startswith("md|") and f"|ah|Board {number}|" in line
        # The tags of the line, read here by splitting at the bars: the PBN section's
        # rows, word for word, are the + tags right after OptimumResultTable.
        cells = line.split("|")
        pairs = list(zip(cells[0:-1:2], cells[1::2], strict=True))
        start = [tag for tag, _ in pairs].index("OptimumResultTable")
        rows = [value for tag, value in pairs[start + 1 :] if tag == "+"]
        section = game.section("OptimumResultTable")
        assert section is not None and len(section.rows) == 20
        assert [row.split() for row in rows] == [
            [token.text for token in row] for row in section.rows
        ]
    # Read back, the LIN gives the PBN's records, and a board set its DD tables.
    assert [r.without_source() for r in read_records(lin)] == [
        r.without_source() for r in read_records(pbn)
    ]
    from_lin, lin_problems = read_boards(text, "lin")
    from_pbn, pbn_problems = read_boards(pbn.read_text(), "pbn")
    assert lin_problems == pbn_problems == []
    assert [(b.number, b.deal, b.dd_table) for b in from_lin] == [
        (b.number, b.deal, b.dd_table) for b in from_pbn
    ]
    assert all(b.dd_table is not None for b in from_lin)


def test_convert_refuses_what_one_lin_line_cannot_hold(tmp_path: Path) -> None:
    from bridgescore.formats import BoardRecord, format_records

    source = tmp_path / "two.json"
    source.write_text(
        format_records(
            [BoardRecord(board=1, event="Spring\nCup"), BoardRecord(board=2, event="Autumn")],
            "json",
        )
    )
    result = runner.invoke(app, ["convert", str(source), "-", "--to", "lin"])
    assert result.exit_code == 1
    assert "cannot be written as lin" in result.stderr and "line break" in result.stderr
    assert "'Spring\\nCup'" in result.stderr
    assert result.stdout == "ah|Board 2|Event|Autumn|\n"
