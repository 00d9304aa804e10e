"""The rules every command shares (cli/common.py, cli/commands.py): errors as JSON
with --json, -h beside --help, --version, and a command list that is not cut short."""

from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.cli.common import json_asked

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def _command_paths() -> list[tuple[list[str], Any]]:
    """Every command and group of the application with the words that reach it."""
    paths: list[tuple[list[str], Any]] = []

    def walk(words: list[str], command: Any) -> None:
        paths.append((words, command))
        for name, sub in getattr(command, "commands", {}).items():
            walk([*words, name], sub)

    walk([], typer.main.get_command(app))
    return paths


def _takes_json(command: Any) -> bool:
    return any("--json" in getattr(param, "opts", ()) for param in command.params)


JSON_COMMANDS = [words for words, command in _command_paths() if _takes_json(command)]


# -- --json on an error ------------------------------------------------------------


def _error_object(result: Any) -> dict[str, Any]:
    """The JSON error object on standard output, checked against the exit code and
    the message on standard error."""
    data = json.loads(result.stdout)  # the whole of standard output: one object
    assert set(data) == {"error", "exit_code"}
    assert data["exit_code"] == result.exit_code != 0
    return dict(data)


def test_the_issue_command_prints_a_json_error() -> None:
    # Issue 23: `score 7NT+1 --json` printed no JSON.
    result = runner.invoke(app, ["score", "7NT+1", "--json"])
    data = _error_object(result)
    assert data["exit_code"] == 1
    assert "'7NT+1'" in data["error"] and "13" in data["error"]
    assert result.stderr == f"error: {data['error']}\n"  # the person's line is still there


@pytest.mark.parametrize(
    ("arguments", "code", "words"),
    [
        (["score", "7NT+1"], 1, "7NT+1"),
        (["score", "4S=", "--rules", "law1932"], 2, "law1932"),
        (["solve", "N:AKQ"], 1, "N:AKQ"),
        (["par", "--dd", "xyz"], 1, "'xyz'"),
        (["par"], 2, "give one of a TABLE, DEAL or FILE"),
        (["deal", "--count", "2", "--where", "hcp(north) >> 3"], 1, "hcp(north) >> 3"),
        (["simulate", "-n", "2", "--contract", "9S", "--by", "N"], 2, "9S"),
        (["game", "no-such-file.pbn"], 2, "no-such-file.pbn"),
        (["rubber", "--we", "XX"], 2, "'XX'"),
        (["chicago", "--first-dealer", "Q"], 2, "'Q'"),
        (["study", "report", "no-such-study"], 2, "no-such-study"),
        (["session", "score", "no-such-event.db"], 2, "no-such-event.db"),
        (["session", "report", "no-such-event.db"], 2, "no-such-event.db"),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else None,
)
def test_every_command_with_json_prints_its_error_as_json(
    arguments: list[str], code: int, words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # nothing a failing command might write lands in the repository
    result = runner.invoke(app, [*arguments, "--json"])
    data = _error_object(result)
    assert data["exit_code"] == code and words in data["error"]
    assert result.stderr.endswith(f"error: {data['error']}\n")
    without = runner.invoke(app, arguments)
    assert (without.exit_code, without.stdout) == (code, "")  # no JSON when not asked


@pytest.mark.parametrize("words", JSON_COMMANDS, ids=" ".join)
def test_usage_errors_are_json_too(words: list[str]) -> None:
    # 'session correct' takes words that may start with '-' (a result of -2), so an
    # unknown option is told from them only once its arguments are there.
    given = ["club.db", "1", "1", "2", "3NT="] if words == ["session", "correct"] else []
    result = runner.invoke(app, [*words, *given, "--json", "--no-such-option"])
    data = _error_object(result)
    assert data["exit_code"] == 2
    assert data["error"].startswith("No such option: --no-such-option")
    assert "Usage: bridgescore" in result.stderr  # click's own report, unchanged


def test_every_command_that_prints_results_takes_json() -> None:
    # The commands the rule is for: those that print results for scripts.
    names = {" ".join(words) for words in JSON_COMMANDS}
    assert {"score", "solve", "par", "game", "deal", "simulate", "rubber", "chicago"} <= names
    assert {"study run", "study report", "session import", "session score"} <= names


def test_a_bad_option_value_with_json() -> None:
    result = runner.invoke(app, ["solve", "--threads", "0", "--json", "N:x"])
    data = _error_object(result)
    assert data["exit_code"] == 2 and "--threads" in data["error"]


def test_json_asked_stops_at_the_end_of_options() -> None:
    assert json_asked(["score", "4S=", "--json"])
    assert not json_asked(["score", "4S="])
    assert not json_asked(["game", "--", "--json"])  # a file named --json


def test_results_with_json_are_unchanged() -> None:
    result = runner.invoke(app, ["score", "4DX+1", "--vul", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert "error" not in data and data["score"] == 910  # Law 77: 4DX+1 vulnerable


# -- -h, --version -----------------------------------------------------------------


@pytest.mark.parametrize(
    "words", [words for words, _ in _command_paths()], ids=lambda w: " ".join(w) or "bridgescore"
)
def test_h_is_help_on_every_command_and_group(words: list[str]) -> None:
    short = runner.invoke(app, [*words, "-h"])
    long = runner.invoke(app, [*words, "--help"])
    assert short.exit_code == long.exit_code == 0
    assert short.stdout == long.stdout
    assert short.stdout.startswith("Usage: ")
    assert re.search(r"^  -h, --help\s+Show this message and exit\.$", short.stdout, re.M)


def _version() -> str:
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"])


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert (result.exit_code, result.stdout) == (0, f"bridgescore {_version()}\n")


def _entry_point(*arguments: str, columns: int = 80) -> subprocess.CompletedProcess[str]:
    """The installed command's entry point, run as a shell runs it."""
    code = "import sys; sys.argv[0] = 'bridgescore'; from bridgescore.cli import main; main()"
    environment = {**os.environ, "COLUMNS": str(columns)}
    return subprocess.run(
        [sys.executable, "-c", code, *arguments],
        capture_output=True,
        text=True,
        env=environment,
        check=False,
    )


def test_version_from_the_entry_point() -> None:
    result = _entry_point("--version")
    assert (result.returncode, result.stdout) == (0, f"bridgescore {_version()}\n")


# -- the command list --------------------------------------------------------------


def _first_sentence(help_text: str) -> str:
    """The first sentence of a help text, as a person reads it."""
    paragraph = inspect.cleandoc(help_text).split("\n\n")[0]
    text = " ".join(paragraph.split())
    match = re.match(r"(.*?\.)(\s|$)", text)
    return match[1] if match else text


def _listed(help_text: str) -> dict[str, str]:
    """The "Commands:" section: name -> description, wrapped lines joined."""
    section = help_text.split("\nCommands:\n")[1]
    listed: dict[str, str] = {}
    name = ""
    for line in section.splitlines():
        match = re.match(r"^  (\S+)\s+(.*)$", line)
        if match:
            name = match[1]
            listed[name] = match[2]
        elif line.strip():
            listed[name] += " " + line.strip()
    return listed


@pytest.mark.parametrize("width", [60, 80, 100])
@pytest.mark.parametrize("group", [[], ["study"], ["session"]], ids=lambda g: " ".join(g) or "top")
def test_the_command_list_shows_each_first_sentence_whole(width: int, group: list[str]) -> None:
    result = runner.invoke(app, [*group, "--help"], terminal_width=width)
    assert result.exit_code == 0
    command = typer.main.get_command(app)
    for word in group:
        command = command.commands[word]  # type: ignore[attr-defined]
    listed = _listed(result.stdout)
    assert list(listed) == list(command.commands)  # type: ignore[attr-defined]
    for name, description in listed.items():
        sub = command.commands[name]  # type: ignore[attr-defined]
        # A group's help is the Typer application's; a command's, its function's docstring.
        text = sub.help if hasattr(sub, "commands") else inspect.getdoc(sub.callback)
        assert description == _first_sentence(text or ""), name
        assert not description.endswith("...")
    assert max(len(line) for line in result.stdout.splitlines()) <= width


def test_handrecord_was_cut_short_before() -> None:
    # Click cut it at "...with HCP, dealer and..." in an 80-column terminal.
    result = runner.invoke(app, ["--help"], terminal_width=80)
    assert _listed(result.stdout)["handrecord"] == (
        "Hand records: each board's hands in compass layout with HCP, dealer and "
        "vulnerability, the double-dummy table and par with every par contract."
    )


def test_help_uses_a_wide_terminal_up_to_100_columns() -> None:
    wide = _entry_point("--help", columns=200)
    lines = wide.stdout.splitlines()
    assert wide.returncode == 0 and 80 < max(map(len, lines)) <= 100
    narrow = _entry_point("--help", columns=60)
    assert narrow.returncode == 0 and max(map(len, narrow.stdout.splitlines())) <= 60


# -- JSON has no NaN or Infinity (issue 46) -------------------------------------------------


def _strict_json(text: str) -> Any:
    """The document as a strict JSON reader reads it: NaN and Infinity refused."""

    def refuse(word: str) -> None:
        raise AssertionError(f"{word} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_echo_json_writes_nan_and_infinity_as_null_with_a_note(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bridgescore.cli.common import echo_json

    echo_json({"mean": 1.5, "se": float("nan"), "rows": [float("inf"), -float("inf"), 2]})
    out, err = capsys.readouterr()
    assert _strict_json(out) == {"mean": 1.5, "se": None, "rows": [None, None, 2]}
    assert "3 value(s) not a number or infinite, written as null" in err
    assert "se, rows[0], rows[1]" in err


def test_simulate_json_of_one_deal_is_json() -> None:
    # One deal has no standard error: the document said NaN, which is not JSON.
    result = runner.invoke(
        app,
        ["simulate", "-n", "1", "--seed", "1", "-c", "4S", "--by", "S", "--json", "--no-progress"],
    )
    assert result.exit_code == 0, result.output
    contract = _strict_json(result.stdout)["contracts"][0]
    assert contract["make_se"] is None and contract["mean_score_se"] is None
    assert contract["mean_tricks_se"] is None
    assert "written as null" in result.stderr


# -- an option that takes one value, given twice (issue 46) ----------------------------------


def _one_value_options() -> list[tuple[list[str], Any, str]]:
    return [
        (words, command, max(param.opts, key=len))
        for words, command in _command_paths()
        if not hasattr(command, "commands")
        for param in command.params
        if getattr(param, "param_type_name", "") == "option"
        and not param.multiple
        and not param.is_flag
        and param.nargs == 1
    ]


def test_every_option_that_takes_one_value_refuses_a_second() -> None:
    # Click keeps the last value and says nothing: '--vul NS --vul EW' dealt EW. The
    # group checks every command's words before the command reads them (the check
    # itself here, for all; its place in the group by the commands below).
    from typer._click.exceptions import UsageError

    from bridgescore.cli.common import _refuse_repeated_options

    options = _one_value_options()
    assert {(" ".join(words), option) for words, _, option in options} >= {
        ("simulate", "--vul"),
        ("deal", "--seed"),
        ("session score", "--method"),
    }
    for words, command, option in options:
        with pytest.raises(UsageError, match=f"Option '{option}' was given 2 times"):
            _refuse_repeated_options(command, words[-1], None, [option, "1", option, "2"])
        _refuse_repeated_options(command, words[-1], None, [option, "1"])


@pytest.mark.parametrize(
    ("words", "option"),
    [
        (["simulate", "-n", "1", "-c", "4S", "--by", "S", "--vul", "NS", "--vul", "EW"], "--vul"),
        (["score", "3NT", "-1", "--rules", "law2017", "--rules", "pre1987"], "--rules"),
        (["session", "score", "e.db", "--method", "imps", "--method=mp"], "--method"),
    ],
)
def test_a_repeated_option_is_a_usage_error(words: list[str], option: str) -> None:
    result = runner.invoke(app, words)
    assert result.exit_code == 2
    assert f"Option '{option}' was given 2 times: it takes one value" in result.stderr


def test_a_repeated_option_is_a_json_error_with_json() -> None:
    result = runner.invoke(app, ["deal", "-n", "1", "--seed", "1", "--seed=2", "--json"])
    assert _error_object(result)["error"].startswith("Option '--seed' was given 2 times")


def test_options_that_repeat_still_repeat() -> None:
    result = runner.invoke(
        app,
        ["simulate", "-n", "2", "--seed", "1", "-c", "4S", "--by", "S", "-c", "3NT", "--by", "N"],
    )
    assert result.exit_code == 0, result.output


def test_a_second_by_without_its_contract_is_an_error() -> None:
    # It was dropped without a word: one contract, two declarers.
    result = runner.invoke(
        app, ["simulate", "-n", "1", "--seed", "1", "-c", "4S", "--by", "S", "--by", "N"]
    )
    assert result.exit_code == 2
    assert "2 --by for 1 --contract" in result.stderr
