"""The examples in the package's docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "bridgescore",
    "bridgescore.core",
    "bridgescore.notation",
    "bridgescore.scoring",
    "bridgescore.ddtable",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted > 0, f"{name} has no docstring examples"
    assert failed == 0
