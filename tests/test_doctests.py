"""The examples in the package's docstrings run, in every module: here, and only here."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import bridgescore

ALL_MODULES = sorted(
    ["bridgescore"]
    + [info.name for info in pkgutil.walk_packages(bridgescore.__path__, "bridgescore.")]
)

# The value and domain modules each document their main entry with an example.
MUST_HAVE_EXAMPLES = {
    "bridgescore",
    "bridgescore.core",
    "bridgescore.notation",
    "bridgescore.scoring",
    "bridgescore.ddtable",
    "bridgescore.deal",
    "bridgescore.parscore",
    "bridgescore.auction",
    "bridgescore.game",
    "bridgescore.pads.rubber",
    "bridgescore.pads.scorepad",
    "bridgescore.pads.chicago",
    "bridgescore.pararray",
    "bridgescore.play",
    "bridgescore.solver",
    "bridgescore.formats.pbn",
    "bridgescore.formats.frames",
    "bridgescore.display.markup",
}


@pytest.mark.parametrize("name", ALL_MODULES)
def test_docstring_examples(name: str) -> None:
    # Imported by name: the package re-exports the function `par` over the module.
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    if name in MUST_HAVE_EXAMPLES:
        assert attempted > 0, f"{name} has no docstring examples"
    assert failed == 0
