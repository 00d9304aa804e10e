"""Empty and binary input get the same answer from every command that reads a file.

An empty file: ``error: no boards found in 'F'``, exit 1. A binary file:
``error: cannot tell the format of 'F': it holds binary data ...``, exit 2, and
none of its bytes echoed. Nothing is printed on standard output and nothing is
written.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore.boardset import DealSeed
from bridgescore.cli.app import app
from bridgescore.study.manifest import MANIFEST_NAME

runner = CliRunner()

BINARY_REASON = (
    "it holds binary data (or UTF-16 text), which is not UTF-8, Windows-1252 or "
    "Latin-1 text: expected a text file"
)
# A PNG signature, then every byte value: what an image or an archive looks like.
BINARY = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4


def _seed_file(folder: Path) -> Path:
    path = folder / "set.seed"
    path.write_text(DealSeed.from_test_number(1).to_text(), encoding="utf-8")
    return path


# command -> (the input file's name, the arguments given the input file and a folder).
# Every command that reads a file of boards, results or deals.
COMMANDS: dict[str, tuple[str, Callable[[Path, Path], list[str]]]] = {
    "score -f": ("results.txt", lambda f, d: ["score", "-f", str(f)]),
    "score -f --json": ("results.txt", lambda f, d: ["score", "-f", str(f), "--json"]),
    "solve -f": ("deals.txt", lambda f, d: ["solve", "-f", str(f)]),
    "solve -f PBN": ("deals.pbn", lambda f, d: ["solve", "-f", str(f)]),
    "par FILE": ("tables.txt", lambda f, d: ["par", str(f)]),
    "par PBN": ("boards.pbn", lambda f, d: ["par", str(f)]),
    "rubber": ("deals.txt", lambda f, d: ["rubber", str(f)]),
    "chicago": ("deals.txt", lambda f, d: ["chicago", str(f)]),
    "game": ("games.pbn", lambda f, d: ["game", str(f)]),
    "game LIN": ("games.lin", lambda f, d: ["game", str(f)]),
    "convert": ("games.pbn", lambda f, d: ["convert", str(f), str(d / "out.json")]),
    "handrecord": ("set.pbn", lambda f, d: ["handrecord", str(f), "--out", str(d / "r.html")]),
    "deal --verify": (
        "set.pbn",
        lambda f, d: ["deal", "--verify", str(f), "--seed-file", str(_seed_file(d))],
    ),
    "session import": ("results.csv", lambda f, d: ["session", "import", str(d / "ev.db"), str(f)]),
    "study report": (MANIFEST_NAME, lambda f, d: ["study", "report", str(f.parent)]),
}


def _run(command: str, data: bytes, tmp_path: Path) -> tuple[object, Path]:
    name, arguments = COMMANDS[command]
    folder = tmp_path / "in"
    folder.mkdir()
    path = folder / name
    path.write_bytes(data)
    return runner.invoke(app, arguments(path, tmp_path)), path


def _written(tmp_path: Path) -> list[str]:
    """Files a command wrote beside its input (the seed file is the test's own)."""
    return sorted(p.name for p in tmp_path.iterdir() if p.name not in ("in", "set.seed"))


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("data", [b"", b"\n \n", b"\xef\xbb\xbf"], ids=["empty", "blank", "bom"])
def test_empty_file_is_no_boards_found(command: str, data: bytes, tmp_path: Path) -> None:
    result, path = _run(command, data, tmp_path)
    assert result.exit_code == 1, result.output  # type: ignore[attr-defined]
    assert result.stderr == f"error: no boards found in '{path}'\n"  # type: ignore[attr-defined]
    if "--json" in command:
        error = {"error": f"no boards found in '{path}'", "exit_code": 1}
        assert json.loads(result.stdout) == error  # type: ignore[attr-defined]
    else:
        assert result.stdout == ""  # type: ignore[attr-defined]
    assert _written(tmp_path) == []  # no event file, no hand records, no output


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize(
    "data",
    [BINARY, "4S= NS\n3NT-1 EW\n".encode("utf-16")],
    ids=["binary", "utf-16"],
)
def test_binary_file_cannot_tell_the_format(command: str, data: bytes, tmp_path: Path) -> None:
    result, path = _run(command, data, tmp_path)
    assert result.exit_code == 2, result.output  # type: ignore[attr-defined]
    message = f"cannot tell the format of '{path}': {BINARY_REASON}"
    assert result.stderr == f"error: {message}\n"  # type: ignore[attr-defined]
    if "--json" in command:
        assert json.loads(result.stdout) == {"error": message, "exit_code": 2}  # type: ignore[attr-defined]
    else:
        assert result.stdout == ""  # type: ignore[attr-defined]
    assert _written(tmp_path) == []


# Standard input ('-') goes through the same reader.
STDIN_COMMANDS = [
    ["score", "-"],
    ["score", "-f", "-"],
    ["solve", "-"],
    ["par", "-"],
    ["rubber"],
    ["chicago", "-"],
    ["game", "-"],
    ["convert", "-", "-", "--to", "pbn"],
]


@pytest.mark.parametrize("arguments", STDIN_COMMANDS, ids=" ".join)
def test_empty_and_binary_standard_input(arguments: list[str]) -> None:
    result = runner.invoke(app, arguments, input=b"")
    assert (result.exit_code, result.stderr) == (1, "error: no boards found in standard input\n")
    result = runner.invoke(app, arguments, input=BINARY)
    assert result.exit_code == 2
    assert result.stderr == f"error: cannot tell the format of standard input: {BINARY_REASON}\n"


@pytest.mark.parametrize(
    "arguments",
    [["score", "-f"], ["solve", "-f"], ["par"], ["rubber"], ["chicago"]],
    ids=" ".join,
)
def test_a_file_of_comments_alone_has_no_boards(arguments: list[str], tmp_path: Path) -> None:
    path = tmp_path / "lines.txt"
    path.write_text("# tonight's results\n\n# (none yet)\n", encoding="utf-8")
    result = runner.invoke(app, [*arguments, str(path)])
    assert (result.exit_code, result.stderr) == (1, f"error: no boards found in '{path}'\n")


@pytest.mark.parametrize(
    "arguments", [["game"], ["par"], ["solve", "-f"], ["convert"]], ids=" ".join
)
def test_a_pbn_file_without_games_has_no_boards(arguments: list[str], tmp_path: Path) -> None:
    path = tmp_path / "empty.pbn"
    path.write_text("% PBN 2.1\n% EXPORT\n", encoding="utf-8")
    extra = [str(tmp_path / "out.json")] if arguments == ["convert"] else []
    result = runner.invoke(app, [*arguments, str(path), *extra])
    assert (result.exit_code, result.stderr) == (1, f"error: no boards found in '{path}'\n")
    assert not (tmp_path / "out.json").exists()


def test_the_issue_commands(tmp_path: Path) -> None:
    # Issue 23: `solve -f empty.pbn` and `par empty.pbn` printed nothing and exited 0;
    # `score -f`, `solve -f` and `chicago` printed hundreds of bytes of mojibake.
    empty, binary = tmp_path / "empty.pbn", tmp_path / "photo.jpg"
    empty.write_bytes(b"")
    binary.write_bytes(BINARY)
    for arguments in (["solve", "-f", str(empty)], ["par", str(empty)]):
        result = runner.invoke(app, arguments)
        assert (result.exit_code, result.output) == (1, f"error: no boards found in '{empty}'\n")
    for arguments in (["score", "-f"], ["solve", "-f"], ["chicago"]):
        result = runner.invoke(app, [*arguments, str(binary)])
        assert result.exit_code == 2
        assert result.output == f"error: cannot tell the format of '{binary}': {BINARY_REASON}\n"


def test_a_session_import_of_one_bad_file_among_good_ones_imports_nothing(tmp_path: Path) -> None:
    good = tmp_path / "round1.csv"
    good.write_text("board,ns,ew,contract,declarer,result\n1,1,2,4S,N,=\n", encoding="utf-8")
    empty = tmp_path / "round2.csv"
    empty.write_bytes(b"")
    event = tmp_path / "club.db"
    result = runner.invoke(app, ["session", "import", str(event), str(good), str(empty)])
    assert (result.exit_code, result.stderr) == (1, f"error: no boards found in '{empty}'\n")
    assert not event.exists()


def test_a_missing_file_is_still_exit_2(tmp_path: Path) -> None:
    missing = tmp_path / "nothere.txt"
    for arguments in (["score", "-f"], ["solve", "-f"], ["rubber"], ["game"]):
        result = runner.invoke(app, [*arguments, str(missing)])
        assert result.exit_code == 2
        assert result.stderr == f"error: cannot read '{missing}': No such file or directory\n"
    # par and solve take a deal or a file as their argument: a name that is neither
    # is reported as a missing file that is no deal either (cli/deal_input.py).
    for arguments in (["par"], ["solve"]):
        result = runner.invoke(app, [*arguments, str(missing)])
        assert result.exit_code == 2
        assert result.stderr.startswith(
            f"error: cannot read '{missing}': no such file, and it is not a deal either"
        )


def test_a_utf16_usebio_file_is_read_not_refused(tmp_path: Path) -> None:
    # XML names its own encoding: the USEBIO reader reads UTF-16, which Windows tools write.
    fixture = Path(__file__).parents[1] / "data" / "usebio_pairs.xml"
    text = fixture.read_text(encoding="latin-1")  # declared ISO-8859-1
    text = text.replace('encoding="ISO-8859-1"', 'encoding="UTF-16"', 1)
    path = tmp_path / "results.xml"
    path.write_bytes(text.encode("utf-16"))
    event = tmp_path / "club.db"
    result = runner.invoke(app, ["session", "import", str(event), str(path)])
    assert result.exit_code == 0, result.output
    out = tmp_path / "records.html"
    result = runner.invoke(app, ["handrecord", str(path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text().count('<article class="board"') == 3  # its HANDSET's 3 boards


@pytest.mark.parametrize("command", ["solve", "par", "handrecord"])
def test_hands_without_their_first_seat_get_the_deals_message(command: str, tmp_path: Path) -> None:
    # Issue 46: "no such file, and it is not a deal either"; the library says what a
    # deal looks like.
    hands = "KJ52.K7.T85.AJ87 AQ7.JT86.K7.9652 T93.Q9542.AJ3.T3 864.A3.Q9642.KQ4"
    for words in ([hands], hands.split()):
        out = ["--out", str(tmp_path / "record.html")] if command == "handrecord" else []
        result = CliRunner().invoke(app, [command, *words, *out])
        assert result.exit_code == 1, result.output
        assert result.stderr.strip() == (
            f"error: not a PBN deal: {hands!r}: expected a first seat N, E, S or W, a colon "
            "and four hands, as in 'N:AKQJ.T98.765.432 ...'"
        )
