"""docs/cli.md is the ``--help`` of every command, and stays so.

Regenerate it after changing a command: ``python tests/test_cli_reference.py``
(or ``make docs``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from typer.testing import CliRunner

from bridgescore.cli.app import app

REFERENCE = Path(__file__).resolve().parent.parent / "docs" / "cli.md"
COMMANDS = [
    [],
    ["score"],
    ["deal"],
    ["simulate"],
    ["solve"],
    ["par"],
    ["game"],
    ["handrecord"],
    ["convert"],
    ["rubber"],
    ["chicago"],
    ["study", "run"],
    ["study", "report"],
    ["session", "import"],
    ["session", "score"],
    ["session", "report"],
    ["session", "export"],
    ["serve"],
    ["demo"],
]


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
    ]
    for words in COMMANDS:
        result = runner.invoke(app, [*words, "--help"], env={"COLUMNS": "100"}, terminal_width=100)
        assert result.exit_code == 0, result.output
        title = " ".join(["bridgescore", *words])
        text = result.stdout.replace("Usage: root", "Usage: bridgescore").rstrip()
        parts.append(f"## `{title}`\n\n```text\n{text}\n```\n")
    return "\n".join(parts)


def test_reference_is_current() -> None:
    assert REFERENCE.read_text(encoding="utf-8") == render(), (
        "docs/cli.md is out of date: run `python tests/test_cli_reference.py`"
    )


if __name__ == "__main__":
    REFERENCE.write_text(render(), encoding="utf-8")
    sys.stdout.write(f"wrote {REFERENCE}\n")
