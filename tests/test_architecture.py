"""The map of docs/architecture.md holds: a module imports only from its layer or below,
no import cycle (lazy imports included), and every package and path the map names is there."""

from __future__ import annotations

import ast
import re
from collections import deque
from collections.abc import Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "bridgescore"
ARCHITECTURE = ROOT / "docs" / "architecture.md"

# Highest layer first, as the table in docs/architecture.md lists them.
LAYERS: dict[str, tuple[str, ...]] = {
    "interfaces": ("cli", "web", "__main__"),
    "workflows": (
        "study",
        "simulation",
        "session",
        "season",
        "boardset",
        "postmortem",
        "distributed",
    ),
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
        "movement",
    ),
    "engines": ("solver",),
    "values": ("core", "notation", "deal", "ddtable", "board", "errors", "validate", "display"),
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


# ------------------------------------------------------------------ import cycles
#
# The graph has one node per module of the package (a package is its __init__.py)
# and an edge for every import statement anywhere in the module: at the top, in a
# function, under TYPE_CHECKING. A lazy import is still a dependency: it only moves
# the moment a cycle bites (a half-initialised module) from import time to run time.


def _module_names(package: Path) -> dict[str, Path]:
    """Every module under ``package`` by its dotted name: ``a.b`` for a/b.py and a/b/__init__.py."""
    names = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _imported(node: ast.Import | ast.ImportFrom, name: str, path: Path) -> list[tuple[str, str]]:
    """``(module, name)`` pairs one statement imports, relative imports made absolute;
    ``name`` is empty for ``import module``."""
    if isinstance(node, ast.Import):
        return [(alias.name, "") for alias in node.names]
    base = node.module or ""
    if node.level:
        # A package's own name is its base for ".x"; a module's base is its package.
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        anchor = here[: len(here) - node.level + 1]
        base = ".".join([*anchor, base] if base else anchor)
    return [(base, alias.name) for alias in node.names]


def import_graph(package: Path) -> dict[str, set[str]]:
    """Each module's imports of other modules of ``package``.

    ``from a import b`` is an edge to the module ``a.b`` when there is one, else to
    ``a`` (``b`` is a name defined in ``a``); ``import a.b`` is an edge to ``a.b``.
    """
    modules = _module_names(package)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for module, attribute in _imported(node, name, path):
                submodule = f"{module}.{attribute}"
                if attribute and submodule in modules:
                    edges.add(submodule)
                elif module in modules:
                    edges.add(module)
        edges.discard(name)
        graph[name] = edges
    return graph


def import_groups(graph: Mapping[str, set[str]]) -> list[set[str]]:
    """The groups of modules that import each other: the strongly connected components
    of more than one module (Tarjan's algorithm)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in order:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], order[target])
        if low[node] == order[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return sorted(groups, key=min)


def shortest_cycle(graph: Mapping[str, set[str]], group: set[str]) -> list[str]:
    """The shortest way from the group's first module back to itself, as ``[a, ..., a]``."""
    start = min(group)
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for target in sorted(graph[node] & group):
            if target == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if target not in came_from:
                came_from[target] = node
                queue.append(target)
    raise AssertionError(f"{sorted(group)} do not import each other")


def import_cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """One cycle (the shortest) for each group of modules that import each other."""
    return [shortest_cycle(graph, group) for group in import_groups(graph)]


def _write_package(root: Path, files: Mapping[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"


def test_the_graph_counts_imports_inside_functions_and_resolves_submodules(
    tmp_path: Path,
) -> None:
    package = _write_package(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "def f():\n    from pkg.sub import b\n",
            "pkg/sub/__init__.py": "from .b import NAME as NAME\n",
            "pkg/sub/b.py": "import pkg.c\nNAME = 1\n",
            "pkg/c.py": "from pkg import sub\nfrom pkg.sub import NAME\nimport os\n",
            "pkg/d.py": "if False:\n    from . import a\n",
        },
    )
    assert import_graph(package) == {
        "pkg": set(),
        "pkg.a": {"pkg.sub.b"},
        "pkg.sub": {"pkg.sub.b"},
        "pkg.sub.b": {"pkg.c"},
        "pkg.c": {"pkg.sub"},
        "pkg.d": {"pkg.a"},
    }


def test_a_cycle_through_a_function_level_import_is_found_and_named(tmp_path: Path) -> None:
    package = _write_package(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg.b import x\n",
            "pkg/b.py": "x = 1\ndef later():\n    from pkg import c\n",
            "pkg/c.py": "import pkg.a\n",
            "pkg/d.py": "import pkg.a\n",
            "pkg/e.py": "from pkg.f import y\n",
            "pkg/f.py": "def g():\n    from pkg.e import z\n",
        },
    )
    assert import_cycles(import_graph(package)) == [
        ["pkg.a", "pkg.b", "pkg.c", "pkg.a"],
        ["pkg.e", "pkg.f", "pkg.e"],
    ]


def test_the_shortest_cycle_is_named_when_a_group_has_several() -> None:
    graph = {"a": {"b", "e"}, "b": {"c"}, "c": {"d"}, "d": {"a"}, "e": {"a"}, "f": {"a"}}
    assert import_cycles(graph) == [["a", "e", "a"]]


def test_the_package_has_no_import_cycle() -> None:
    graph = import_graph(PACKAGE)
    # The graph is the package's, lazy imports included: `session import` imports its
    # workflow inside the command's function.
    assert "bridgescore.session.importers.importer" in graph["bridgescore.cli.session.results"]
    found = [
        f"{' -> '.join(shortest_cycle(graph, group))} (the group: {', '.join(sorted(group))})"
        for group in import_groups(graph)
    ]
    assert found == [], "modules that import each other:\n" + "\n".join(found)


# ------------------------------------------------------------- the map itself
#
# A name in backquotes with a slash, or ending in .py or .md, is a path: from the
# package (`session/store/events.py`, `cli/`) or from the repository (`tests/...`). With a
# dotted name after a module path (`cli/common.read_batch`), the module must define it.

_PATH = re.compile(r"[A-Za-z_][\w.]*(?:/[\w.]*)*")


def _defines(module: Path, name: str) -> bool:
    for node in ast.parse(module.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found = {node.name}
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found = {t.id for t in targets if isinstance(t, ast.Name)}
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found = {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        else:
            continue
        if name in found:
            return True
    return False


def missing_paths(text: str, package: Path = PACKAGE, root: Path = ROOT) -> list[str]:
    """The paths ``text`` names in backquotes that are not there, in order."""
    missing = []
    for name in re.findall(r"`([^`\n]+)`", text):
        if not _PATH.fullmatch(name) or not ("/" in name or name.endswith((".py", ".md"))):
            continue
        if name.endswith(("/", ".py", ".md")):
            there = (package / name).exists() or (root / name).exists()
        else:
            module, _, attribute = name.rpartition(".")
            path = package / f"{module}.py"
            there = path.is_file() and _defines(path, attribute)
        if not there:
            missing.append(name)
    return missing


def test_the_map_check_finds_a_path_that_is_not_there() -> None:
    text = (
        "`session/store/events.py` and `cli/` on `tests/test_architecture.py`; `cli/nowhere.py`, "
        "`cli/common.read_batch`, `cli/common.no_such_name`, `nowhere/`, `docs/gone.md`, "
        "`--progress/--no-progress`, `score 3NT -1`, `read_batch`"
    )
    assert missing_paths(text) == [
        "cli/nowhere.py",
        "cli/common.no_such_name",
        "nowhere/",
        "docs/gone.md",
    ]


def test_every_path_the_map_names_exists() -> None:
    missing = missing_paths(ARCHITECTURE.read_text(encoding="utf-8"))
    assert missing == [], f"docs/architecture.md names paths that are not there: {missing}"


def test_every_package_appears_in_the_map() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    packages = sorted(
        path.parent.relative_to(PACKAGE).as_posix() + "/"
        for path in PACKAGE.rglob("__init__.py")
        if path.parent != PACKAGE
    )
    absent = [name for name in packages if f"`{name}`" not in text]
    assert absent == [], f"docs/architecture.md does not show these packages: {absent}"
