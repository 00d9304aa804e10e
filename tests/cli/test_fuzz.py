"""Every command that reads a file, run on damaged copies of its fixtures.

The contract for a person at a shell: exit code 0, 1 or 2, a message on stderr
when it is not 0, and never a Python traceback. The commands run in-process
(Typer's CliRunner), as the other CLI tests do; a traceback shows there as an
exception other than SystemExit, which is reported with the input.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from click.testing import Result
from hypothesis import assume, given
from hypothesis import strategies as st
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.core import Vulnerability
from bridgescore.deal import random_deals
from bridgescore.study.manifest import MANIFEST_NAME, Manifest, save_manifest
from bridgescore.study.shards import build_shard, shard_name, write_shard
from fuzzing import fuzz_settings, mutated_bytes, mutated_text

DATA = Path(__file__).parents[1] / "data"
runner = CliRunner()

# command -> (fixture files it reads, the arguments with {file} for the damaged copy).
COMMANDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "score": (("fuzz_scores.txt",), ("score", "--file", "{file}")),
    "score-json": (("fuzz_scores.txt",), ("score", "--file", "{file}", "--json")),
    "par": (("fuzz_par.txt", "session_hands.pbn", "games_export.pbn"), ("par", "{file}")),
    "par-json": (("fuzz_par.txt",), ("par", "{file}", "--json")),
    "solve": (("fuzz_deals.txt",), ("solve", "--file", "{file}", "--threads", "1")),
    "game": (("games_import.pbn", "games_export.pbn", "games_bad.pbn"), ("game", "{file}")),
    "game-json": (("games_import.pbn",), ("game", "{file}", "--json")),
    "rubber": (("fuzz_rubber.txt",), ("rubber", "{file}", "--finish")),
    "rubber-json": (("fuzz_rubber.txt",), ("rubber", "{file}", "--json", "--pbn")),
    "chicago": (("fuzz_rubber.txt",), ("chicago", "{file}", "--json")),
    "session": (
        (
            "session_mitchell.csv",
            "session_teams.csv",
            "session_sections.csv",
            "session_results.pbn",
            "session_scoretable.pbn",
            "session_hands.pbn",
        ),
        ("session", "import", "{event}", "{file}"),
    ),
}
SOLVING = {"solve"}  # needs DDS (the endplay wheel)
# Fixtures that hold a bad game or result on purpose: exit code 1 undamaged.
BAD_ON_PURPOSE = {"games_bad.pbn", "session_results.pbn", "session_scoretable.pbn"}


def _check(result: Result, shown: str) -> None:
    """Exit 0, 1 or 2; a message when not 0; no traceback."""
    error = result.exception
    assert error is None or isinstance(error, SystemExit), (
        f"{type(error).__name__}: {error}\ninput: {shown}"
    )
    assert result.exit_code in (0, 1, 2), (result.exit_code, shown)
    output = result.stdout + result.stderr
    assert "Traceback (most recent call last)" not in output, output[-2000:]
    if result.exit_code != 0:
        assert result.stderr.strip() or result.stdout.strip(), f"exit {result.exit_code}, silent"


def _run(command: str, name: str, data: bytes) -> list[Result]:
    args = COMMANDS[command][1]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        event = Path(folder) / "event.sqlite"
        words = [word.format(file=path, event=event) for word in args]
        results = [runner.invoke(app, words)]
        if command == "session" and event.exists():
            # What was imported must also score and report.
            for report in (["report", str(event)], ["score", str(event), "--json"]):
                results.append(runner.invoke(app, ["session", *report]))
    return results


def test_fixtures_run_cleanly() -> None:
    """Undamaged, each fixture runs with exit code 0 (1 for the deliberately bad one)."""
    for command, (files, _) in COMMANDS.items():
        if command in SOLVING:
            pytest.importorskip("endplay", reason="pip install -e '.[dds]'")
        for name in files:
            (result, *_) = _run(command, name, (DATA / name).read_bytes())
            _check(result, name)
            expected = 1 if name in BAD_ON_PURPOSE else 0
            assert result.exit_code == expected, (command, name, result.stderr)


@st.composite
def _damaged(draw: st.DrawFn) -> tuple[str, str, bytes]:
    command = draw(st.sampled_from(sorted(COMMANDS)))
    name = draw(st.sampled_from(COMMANDS[command][0]))
    return command, name, draw(mutated_bytes((DATA / name).read_bytes()))


@fuzz_settings(examples=60)
@given(_damaged())
def test_damaged_file_gives_an_exit_code_and_a_message(case: tuple[str, str, bytes]) -> None:
    command, name, data = case
    if command in SOLVING:
        pytest.importorskip("endplay", reason="pip install -e '.[dds]'")
    for result in _run(command, name, data):
        _check(result, f"{command} {name}: {data[:300]!r}")


# -- study report on a damaged directory ---------------------------------------------


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("study")
    save_manifest(directory, Manifest(seed=3, chunk_size=2, deals=5))
    for chunk in range(3):
        n = min(2, 5 - 2 * chunk)
        deals = [deal.to_pbn() for deal in random_deals(n, seed=chunk)]
        pars = {v: [100 * i - 50 * int(v) for i in range(n)] for v in Vulnerability}
        table = build_shard(chunk, deals, np.full((n, 4, 5), 7, dtype=int), pars)
        write_shard(directory, seed=3, chunk_size=2, chunk=chunk, table=table)
    return directory


def _declared_chunks(data: bytes) -> int:
    try:
        record = json.loads(data)
        return -(-int(record["deals"]) // int(record["chunk_size"]))
    except Exception:
        return 0


DAMAGES: dict[str, Callable[[Path], None]] = {
    "no manifest": lambda d: (d / MANIFEST_NAME).unlink(),
    "manifest a directory": lambda d: ((d / MANIFEST_NAME).unlink(), (d / MANIFEST_NAME).mkdir()),
    "shard a directory": lambda d: ((d / shard_name(1)).unlink(), (d / shard_name(1)).mkdir()),
    "empty shard": lambda d: (d / shard_name(0)).write_bytes(b""),
    "foreign file": lambda d: (d / "notes.txt").write_text("mine"),
    "stray temporary": lambda d: (d / ".chunk-000001.abc.tmp").write_bytes(b"\x00"),
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
@pytest.mark.parametrize("as_json", [False, True])
def test_study_report_on_a_damaged_directory(
    study: Path, tmp_path: Path, damage: str, as_json: bool
) -> None:
    copy = tmp_path / "study"
    shutil.copytree(study, copy)
    DAMAGES[damage](copy)
    result = runner.invoke(app, ["study", "report", str(copy), *(["--json"] if as_json else [])])
    _check(result, damage)


@fuzz_settings(examples=40)
@given(st.data())
def test_study_report_on_damaged_files(study: Path, data: st.DataObject) -> None:
    name = data.draw(st.sampled_from((MANIFEST_NAME, shard_name(0), shard_name(2))))
    damaged = data.draw(mutated_bytes((study / name).read_bytes(), max_mutations=3))
    if name == MANIFEST_NAME:
        # The report lists every missing chunk: its work follows the declared size.
        assume(_declared_chunks(damaged) <= 10_000)
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "study"
        shutil.copytree(study, copy)
        (copy / name).write_bytes(damaged)
        _check(runner.invoke(app, ["study", "report", str(copy)]), f"{name}: {damaged[:300]!r}")


# -- regression tests: the minimal inputs that crashed a command ---------------------


@pytest.mark.parametrize(
    ("args", "data"),
    [
        (["score", "--file"], b"4S= nv\n\xff\xfe3NT=\n"),  # UnicodeDecodeError
        (["rubber"], b"4S= NS\n\xe9\n"),
        # (A UTF-16 file is refused whole as binary now: tests/cli/test_deal_input.py.)
        (["par"], b"32929329297a4a47a4a4 Both\n\xc3(\n"),
        (["par"], "32929329297a4a47a4a4 ²\n".encode()),  # isdigit() yes, int() no
        (["par"], b"32929329297a4a47a4a4 " + b"9" * 5000 + b"\n"),
    ],
)
def test_former_crash_is_a_line_error(tmp_path: Path, args: list[str], data: bytes) -> None:
    path = tmp_path / "input.txt"
    path.write_bytes(data)
    result = runner.invoke(app, [*args, str(path)])
    _check(result, repr(data))
    assert result.exit_code == 1
    assert "line " in result.stderr or '"line"' in result.stdout


# -- text given on the command line ----------------------------------------------------

SOLID = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
ARGUMENTS: dict[str, tuple[str, list[str]]] = {
    "score": ("4DX +1", ["score", "{text}", "--vul"]),
    "score-tricks": ("4SX", ["score", "{text}", "--tricks", "11", "--json"]),
    "par-dd": ("32929329297a4a47a4a4", ["par", "--dd", "{text}", "--vul", "Both"]),
    "par-vul": ("Both", ["par", "--dd", "32929329297a4a47a4a4", "--vul", "{text}"]),
    "solve": (SOLID, ["solve", "{text}", "--hex", "--threads", "1"]),
}


@fuzz_settings(examples=60)
@given(
    st.sampled_from(sorted(ARGUMENTS)).flatmap(
        lambda name: st.tuples(st.just(name), mutated_text(ARGUMENTS[name][0]))
    )
)
def test_damaged_argument_gives_an_exit_code_and_a_message(case: tuple[str, str]) -> None:
    name, text = case
    if name == "solve":
        pytest.importorskip("endplay", reason="pip install -e '.[dds]'")
    words = [word.format(text=text) for word in ARGUMENTS[name][1]]
    _check(runner.invoke(app, words), f"{name}: {text[:300]!r}")
