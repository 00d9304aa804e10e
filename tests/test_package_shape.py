"""The shape of the package (issue 24): a small root, families as packages, no module
under a public function's name, no re-export shims (the public names: test_public_names.py)."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import types
from pathlib import Path

import bridgescore

PACKAGE = Path(bridgescore.__file__).resolve().parent


def _root_modules() -> list[str]:
    return sorted(path.stem for path in PACKAGE.glob("*.py") if path.stem != "__init__")


def _packages() -> list[str]:
    return sorted(path.parent.name for path in PACKAGE.glob("*/__init__.py"))


def test_the_root_holds_at_most_sixteen_modules() -> None:
    assert len(_root_modules()) <= 16, _root_modules()


def test_no_family_of_modules_stays_at_the_root() -> None:
    # dealer_condition.py beside dealer.py was a family: it is the package dealer/.
    prefixes = {name.split("_")[0] for name in _root_modules() if "_" in name}
    assert prefixes & (set(_root_modules()) | set(_packages())) == set()


def test_no_module_shares_its_name_with_a_public_name() -> None:
    clashes = (set(_root_modules()) | set(_packages())) & set(bridgescore.__all__)
    assert clashes == set(), f"modules named as public functions: {sorted(clashes)}"


def test_the_package_is_a_plain_module_and_keeps_its_functions() -> None:
    for info in pkgutil.walk_packages(bridgescore.__path__, "bridgescore."):
        importlib.import_module(info.name)  # every submodule imported: none takes a name over
    assert type(bridgescore) is types.ModuleType
    assert isinstance(bridgescore.par, types.FunctionType)
    assert isinstance(bridgescore.simulate, types.FunctionType)
    assert bridgescore.par.__module__ == "bridgescore.parscore"


def _is_reexport(statement: ast.stmt) -> bool:
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
        return True  # the docstring
    if isinstance(statement, ast.ImportFrom | ast.Import):
        return True
    return isinstance(statement, ast.Assign) and any(
        isinstance(target, ast.Name) and target.id == "__all__" for target in statement.targets
    )


def _imported_packages(tree: ast.Module, own: str | None = None) -> set[str]:
    """The packages a module imports from (``formats`` for bridgescore.formats.json), but
    for its own package ``own`` (dotted, as ``formats.pbn``) and what lies under it."""
    found = set()
    for node in tree.body:
        if not (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.startswith("bridgescore")
        ):
            continue
        inside = node.module.split(".")[1:]
        if own is not None and inside[: own.count(".") + 1] == own.split("."):
            continue
        found.add(inside[0] if inside else node.module)
    return found


def test_no_module_only_re_exports_another_package() -> None:
    # A package's __init__ may name its own modules' public names (its interface);
    # a module that only passes on another package's names is a shim: callers
    # import from the real home instead.
    shims = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if not tree.body or not all(_is_reexport(statement) for statement in tree.body):
            continue
        own = None
        if path.name == "__init__.py":
            own = path.parent.relative_to(PACKAGE).as_posix().replace("/", ".")
        others = _imported_packages(tree, own) - {"__future__"}
        if others:
            shims.append(f"{path.relative_to(PACKAGE)} re-exports {sorted(others)}")
    assert shims == []


def test_one_board_value_for_the_whole_package() -> None:
    # boardset.Board and session.event.Board were twins; the one is in the values layer
    # (board.py), and a record read from a file gives it (BoardRecord.as_board).
    homes = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and node.name == "Board"
    ]
    assert homes == ["board.py"]


# A module is as long as its one job needs, and a folder holds one subject: no size caps
# (issue 44). What a family of names says is checked instead.


def _folders() -> list[Path]:
    return sorted(
        {path.parent for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts}
    )


def _families(names: list[str]) -> dict[str, list[str]]:
    """Three or more of ``names`` that start with one stem (a name's first word)."""
    bare = [name.lstrip("_") for name in names]
    found = {}
    for stem in {name.split("_")[0] for name in bare}:
        family = sorted(name for name in bare if name.startswith(stem))
        if len(family) >= 3:
            found[stem] = family
    return found


def test_no_three_sibling_modules_are_named_after_one_stem() -> None:
    # pbn.py, pbnrecord.py, pbnfast.py or live.py, live_pages.py, live_director.py: a
    # package waiting to be made.
    families: dict[str, list[str]] = {}
    for folder in _folders():
        names = [p.stem for p in folder.glob("*.py") if p.stem != "__init__"]
        for stem, family in _families(names).items():
            families[f"{folder.relative_to(PACKAGE)}/{stem}"] = family
    assert families == {}


def test_the_stem_check_finds_a_family() -> None:
    assert _families(["live", "live_pages", "livestore", "pbn"]) == {
        "live": ["live", "live_pages", "livestore"]
    }
    assert _families(["_fast", "reader", "records", "syntax"]) == {}


def _classes_by_name(root: Path) -> dict[str, list[str]]:
    """Every public class name defined anywhere under ``root``, with where."""
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                found.setdefault(node.name, []).append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_no_two_classes_share_a_name() -> None:
    # One drawing of each thing (issue 44): a second class of one name is a second drawing
    # of it, or a name that says too little (the scorer's ScoredBoard was a second Traveller).
    twice = {name: where for name, where in _classes_by_name(PACKAGE).items() if len(where) > 1}
    assert twice == {}, twice


def test_the_class_name_check_finds_a_second_drawing(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("class Traveller:\n    pass\n\nclass _Own:\n    pass\n")
    (tmp_path / "b.py").write_text("class Traveller:\n    pass\n\nclass _Own:\n    pass\n")
    assert {n: len(w) for n, w in _classes_by_name(tmp_path).items()} == {"Traveller": 2}
