"""docs/cli.md is the ``--help`` of every command, and stays so.

Regenerate it after changing a command: ``python tests/cli/test_reference.py``
(or ``make docs``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from bridgescore.cli.app import app

REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def _commands() -> list[list[str]]:
    """Every command and subcommand of the program, in the order its help lists them."""
    import typer

    found: list[list[str]] = []

    # Typer's commands are click's in form (a group has list_commands and get_command),
    # whichever click module typer builds them from.
    def walk(command: Any, words: list[str]) -> None:
        found.append(words)
        if hasattr(command, "list_commands"):
            context = type(command).context_class(command)
            for name in command.list_commands(context):
                sub = command.get_command(context, name)
                if sub is not None and not sub.hidden:
                    walk(sub, [*words, name])

    walk(typer.main.get_command(app), [])
    return found


COMMANDS = _commands()


# A group's own help only lists its subcommands, each of which has its page.
_GROUPS_WITHOUT_OWN_PAGE = {"study", "session", "movement"}


def render() -> str:
    runner = CliRunner()
    parts = [
        "# Command-line reference\n",
        "Every `bridgescore` command with its `--help` (or `-h`), generated from the program",
        "itself (`make docs`; a test checks this page is current). `bridgescore --version`",
        "prints the version. Each command also takes `--json` where it prints results, and",
        "exits 1 when some input could not be processed (a bad line, no boards in a file),",
        "2 when it could not start (a usage error, a file that cannot be read or is binary).\n",
        "Errors go to standard error as `error: ...`; when the command line holds `--json`,",
        "standard output also gets a JSON error object, the exit code unchanged:\n",
        "```text",
        "$ bridgescore rubber --we XX --json",
        "{",
        '  "error": "unknown side \'XX\': expected NS or EW",',
        '  "exit_code": 2',
        "}",
        "```\n",
        "Every command reads files through one reader: an empty file (or standard input) is",
        "`error: no boards found in 'F'` (exit 1), a binary one `error: cannot tell the format of",
        "'F': it holds binary data ...` (exit 2). See [formats.md](formats.md).\n",
        "Every command shares the option rules: an option that takes one value given twice is",
        "a usage error naming it (`Option '--vul' was given 2 times: it takes one value, so give",
        "it once`); a mistyped option suggests the option it starts with (`--vulnerable`: `did",
        "you mean --vul?`), else the closest spellings; and JSON output never holds NaN or",
        "Infinity (such a number is `null`, and a note on standard error names where).\n",
    ]
    for words in COMMANDS:
        if words and words[-1] in _GROUPS_WITHOUT_OWN_PAGE and len(words) == 1:
            continue
        result = runner.invoke(app, [*words, "--help"], env={"COLUMNS": "100"}, terminal_width=100)
        assert result.exit_code == 0, result.output
        title = " ".join(["bridgescore", *words])
        text = result.stdout.replace("Usage: root", "Usage: bridgescore").rstrip()
        parts.append(f"## `{title}`\n\n```text\n{text}\n```\n")
    return "\n".join(parts)


def test_every_command_has_its_page() -> None:
    text = REFERENCE.read_text(encoding="utf-8")
    for words in (["session", "new"], ["session", "live"], ["movement", "cards"], ["vp"]):
        assert f"## `{' '.join(['bridgescore', *words])}`" in text


def test_reference_is_current() -> None:
    assert REFERENCE.read_text(encoding="utf-8") == render(), (
        "docs/cli.md is out of date: run `python tests/cli/test_reference.py`"
    )


if __name__ == "__main__":
    REFERENCE.write_text(render(), encoding="utf-8")
    sys.stdout.write(f"wrote {REFERENCE}\n")
