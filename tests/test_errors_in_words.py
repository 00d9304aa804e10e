"""Error messages say what was wrong in words, not in Python's keyword syntax (issue 23).

A message such as ``by='NS' or 'EW'`` or ``tricks=-1`` reads as code to a player at the
command line or the web page; ``by must be NS or EW, got 'X'`` does not. This scans every
message the package raises (or prints through the CLI's ``fail``) for ``name=`` outside
quotes.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent.parent / "src" / "bridgescore"
# A keyword as Python writes it in a call: a name, '=', then a value (not '==').
KEYWORD = re.compile(r"(?<!['\"\w])[a-z_]+=(?!=)")


def _message(node: ast.AST) -> str:
    """The literal text of a message, with each interpolated value as '{}'."""
    parts = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            parts.append(sub.value)
        elif isinstance(sub, ast.FormattedValue):
            parts.append("{}")
    return "".join(parts)


def _messages(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Raise) and node.exc is not None:
            found.append((node.lineno, _message(node.exc)))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "fail"
            and node.args
        ):
            found.append((node.lineno, _message(node.args[0])))
    return found


def _unquoted(text: str) -> str:
    """The message without its quoted parts ('lin=' names a link's parameter)."""
    return re.sub(r"'[^']*'|\"[^\"]*\"", "''", text)


@pytest.mark.parametrize(
    "path", sorted(SOURCE.rglob("*.py")), ids=lambda path: str(path.relative_to(SOURCE))
)
def test_no_message_shows_python_keyword_syntax(path: Path) -> None:
    bad = [
        f"line {line}: {text}" for line, text in _messages(path) if KEYWORD.search(_unquoted(text))
    ]
    assert bad == []


@pytest.mark.parametrize(
    ("text", "flagged"),
    [
        ("who declared {}? give the side (by='NS' or 'EW')", True),
        ("{} already gives its outcome; do not also pass tricks={}", True),
        ("Neuberg needs at least one result, got n={}, expected={}", True),
        ("by must be NS or EW, got {}", False),
        ("link {} has no 'lin=' parameter", False),
        ("a == b is not a message we write, but it is no keyword", False),
    ],
)
def test_the_scan_tells_keywords_from_words(text: str, flagged: bool) -> None:
    assert bool(KEYWORD.search(_unquoted(text))) is flagged
