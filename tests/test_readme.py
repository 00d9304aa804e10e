"""The README's examples run: Python sessions as doctests, shell sessions through the CLI."""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"```(pycon|console)\n(.*?)```", re.DOTALL)


def blocks(kind: str) -> list[str]:
    return [
        body for found, body in BLOCK.findall(README.read_text(encoding="utf-8")) if found == kind
    ]


def test_python_examples() -> None:
    """All Python sessions in order, sharing names as a reader's session would."""
    globs: dict[str, object] = {}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, text in enumerate(blocks("pycon")):
        test = parser.get_doctest(text, globs, f"README pycon block {number}", str(README), 0)
        runner.run(test, clear_globs=False)
        globs = test.globs
    assert runner.summarize(verbose=False).failed == 0


def shell_examples() -> list[tuple[str, str]]:
    """Pairs of (command, expected output) from ``$ bridgescore ...`` lines."""
    examples = []
    for body in blocks("console"):
        command: str | None = None
        output: list[str] = []
        for line in body.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    examples.append((command, "\n".join(output)))
                command, output = line[2:], []
            elif command is not None:
                output.append(line)
        if command is not None:
            examples.append((command, "\n".join(output)))
    return examples


@pytest.mark.parametrize(("command", "expected"), shell_examples())
def test_shell_examples(command: str, expected: str) -> None:
    words = shlex.split(command)
    assert words[0] == "bridgescore"
    result = CliRunner().invoke(app, words[1:])
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip("\n") == expected
