"""The one public surface (issue 44): ``bridgescore.__all__`` written once, each name
reachable as ``bs.NAME`` and taught so in the docs, and docs/api.md listing them all.

The table of public names in bridgescore/__init__.py is the one list. The type
checkers read bridgescore/__init__.pyi instead of the lazy table; this module writes
that stub from the table (``python tests/test_public_names.py``) and fails while the
two differ, so a name added to the table reaches mypy without being written again.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

import bridgescore

ROOT = Path(__file__).resolve().parent.parent
STUB = ROOT / "src" / "bridgescore" / "__init__.pyi"
API = ROOT / "docs" / "api.md"
PUBLIC: dict[str, str] = bridgescore._PUBLIC  # type: ignore[attr-defined]


def _isort_key(name: str) -> tuple[int, str]:
    # The order ruff's isort keeps the names of one module in (order-by-type):
    # constants, then classes, then the rest.
    if name.isupper():
        return 0, name
    if name[0].isupper():
        return 1, name
    return 2, name


def stub_text() -> str:
    """The type checkers' view of the package, from its table of public names."""
    by_module: dict[str, list[str]] = {}
    for name, module in PUBLIC.items():
        by_module.setdefault(module, []).append(name)
    lines = [
        "# The type checkers' view of bridgescore/__init__.py, written from its table of",
        "# public names by tests/test_public_names.py (`python tests/test_public_names.py`",
        "# writes it again); do not edit. `X as X` marks each import as a public name.",
        "",
    ]
    for module in sorted(by_module):
        lines += [
            f"from bridgescore.{module} import {name} as {name}"
            for name in sorted(by_module[module], key=_isort_key)
        ]
    lines += ["", "__version__: str", ""]
    return "\n".join(lines)


def test_the_stub_is_written_from_the_table() -> None:
    assert STUB.read_text(encoding="utf-8") == stub_text(), (
        "run `python tests/test_public_names.py` to write bridgescore/__init__.pyi again"
    )


def test_all_is_the_table_and_the_version() -> None:
    assert bridgescore.__all__ == ["__version__", *PUBLIC]
    assert len(set(bridgescore.__all__)) == len(bridgescore.__all__)


def test_each_public_name_is_offered_by_its_module() -> None:
    # Each from its own home: the module named, or (for a package's interface, as
    # bridgescore.formats.read_records) a module inside it.
    for name, module in PUBLIC.items():
        offered = getattr(importlib.import_module(f"bridgescore.{module}"), name)
        assert getattr(bridgescore, name) is offered, name
        home = getattr(offered, "__module__", None)
        if isinstance(home, str):
            assert home == f"bridgescore.{module}" or home.startswith(f"bridgescore.{module}."), (
                f"{name} lives in {home}, not under bridgescore.{module}"
            )


def test_each_name_is_written_once_in_the_package_module() -> None:
    text = (ROOT / "src" / "bridgescore" / "__init__.py").read_text(encoding="utf-8")
    code = re.sub(r'"""(.*?)"""', "", text, flags=re.DOTALL)  # the docstrings' examples
    code = "\n".join(line.split("#")[0] for line in code.splitlines())  # the comments
    twice = {
        name: n for name in PUBLIC if (n := len(re.findall(rf"(?<![.\w]){name}\b", code))) != 1
    }
    assert twice == {}


# -- the docs teach bs.NAME -------------------------------------------------------

# The names of one import: in parentheses over several lines, or on its own line.
DEEP_IMPORT = re.compile(r"from\s+bridgescore((?:\.\w+)+)\s+import\s+(?:\(([\w\s,]+)\)|([\w ,]+))")
# bridgescore.formats.read_records in prose, bs.formats.read_records in code.
DEEP_PATH = re.compile(r"\b(bridgescore|bs)((?:\.[a-z_]\w*)+)\.(\w+)")


def _doc_texts() -> dict[str, str]:
    texts = {
        str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
        for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    }
    for path in sorted((ROOT / "examples").rglob("*")):
        if path.suffix == ".ipynb":
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            texts[str(path.relative_to(ROOT))] = "\n".join("".join(c["source"]) for c in cells)
        elif path.suffix in (".py", ".md"):
            texts[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8")
    return texts


def _is_module(dotted: str) -> bool:
    # bridgescore.movement.mitchell is the module of bs.mitchell, not a path to it.
    try:
        return importlib.util.find_spec(dotted) is not None
    except ModuleNotFoundError:
        return False


def deep_uses(text: str) -> list[str]:
    """Public names of ``bs`` that ``text`` reaches by a deeper path."""
    found = []
    for match in DEEP_IMPORT.finditer(text):
        for name in re.split(r"[\s,]+", (match.group(2) or match.group(3)).strip()):
            if name in PUBLIC:
                found.append(f"from bridgescore{match.group(1)} import {name}")
    for match in DEEP_PATH.finditer(text):
        package, path, name = match.groups()
        line_start = match.start() == 0 or text[match.start() - 1] == "\n"
        if line_start and text[match.end() : match.end() + 1] == ":":
            continue  # a traceback's last line names the error's class where it lives
        if name in PUBLIC and not _is_module(f"bridgescore{path}.{name}"):
            found.append(f"{package}{path}.{name}")
    return found


def test_the_check_finds_deep_paths() -> None:
    assert deep_uses("from bridgescore.formats.pbn import read_pbn, EXPORT_TAGS") == [
        "from bridgescore.formats.pbn import read_pbn"
    ]
    assert deep_uses("from bridgescore.core import (\n    Seat,\n    Strain,\n)") == [
        "from bridgescore.core import Seat",
        "from bridgescore.core import Strain",
    ]
    assert deep_uses("see `bridgescore.formats.read_records(path)`") == [
        "bridgescore.formats.read_records"
    ]
    assert deep_uses("bs.formats.read_records(path)") == ["bs.formats.read_records"]
    assert deep_uses("from bridgescore.core import Seat\n\nwith Contract") == [
        "from bridgescore.core import Seat"
    ]
    assert deep_uses("from bridgescore.core import Side as S, Strain") == [
        "from bridgescore.core import Side",
        "from bridgescore.core import Strain",
    ]
    assert deep_uses("the module bridgescore.movement.mitchell draws it") == []
    assert deep_uses("bridgescore.errors.NotationError: bad text") == []
    assert deep_uses("bs.score_breakdown('4S=').total, bs.par.__module__") == []
    assert deep_uses("from bridgescore import Seat; bridgescore.formats.pbn.EXPORT_TAGS") == []


@pytest.mark.parametrize("name", sorted(_doc_texts()))
def test_the_docs_reach_public_names_as_bs_name(name: str) -> None:
    assert deep_uses(_doc_texts()[name]) == []


# -- docs/api.md ------------------------------------------------------------------

API_LINE = re.compile(r"^- `(\w+)`(?:\s*\(`[^`]*`\))?: \S", re.MULTILINE)


def test_api_md_lists_every_public_name_with_a_line() -> None:
    text = API.read_text(encoding="utf-8")
    listed = API_LINE.findall(text)
    assert len(listed) == len(set(listed)), "a name listed twice"
    assert set(listed) == set(bridgescore.__all__)


if __name__ == "__main__":
    STUB.write_text(stub_text(), encoding="utf-8")
    sys.stdout.write(f"wrote {STUB.relative_to(ROOT)}\n")
