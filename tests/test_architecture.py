"""The layers of docs/architecture.md: a module imports only from its layer or below."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "bridgescore"

# Highest layer first, as the table in docs/architecture.md lists them.
LAYERS: dict[str, tuple[str, ...]] = {
    "interfaces": ("cli", "web"),
    "workflows": ("study", "simulation", "session", "boardset", "distributed"),
    "formats": ("formats",),
    "domain": (
        "scoring",
        "parscore",
        "pararray",
        "compare",
        "auction",
        "play",
        "game",
        "pads",
        "dealer",
    ),
    "engines": ("solver",),
    "values": ("core", "notation", "deal", "ddtable", "errors", "validate"),
}
RANK = {name: rank for rank, names in enumerate(reversed(LAYERS.values())) for name in names}


def _top(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "bridgescore" else None


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            top = _top(node.module)
            if top is None and node.module == "bridgescore":
                found.update(alias.name for alias in node.names)
            elif top is not None:
                found.add(top)
        elif isinstance(node, ast.Import):
            found.update(t for alias in node.names if (t := _top(alias.name)) is not None)
    return found


def _modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        top = relative.parts[0].removesuffix(".py")
        if top != "__init__":
            found.append((top, path))
    return found


def test_every_module_has_a_layer() -> None:
    assert {top for top, _ in _modules()} - set(RANK) == set()


@pytest.mark.parametrize(
    ("top", "path"), _modules(), ids=lambda v: str(v).split("bridgescore/")[-1]
)
def test_imports_go_downwards(top: str, path: Path) -> None:
    upward = {name for name in _imports(path) if name in RANK and RANK[name] > RANK[top]}
    assert upward == set(), f"{path.name} ({top}) imports from a higher layer: {sorted(upward)}"
