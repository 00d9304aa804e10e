"""The conventions pages (docs/rules.md, docs/par-definition.md) and docs/scoring.md: their
examples run."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).parent.parent / "docs"


@pytest.mark.parametrize(
    ("page", "at_least"), [("rules.md", 4), ("par-definition.md", 12), ("scoring.md", 2)]
)
def test_examples_run(page: str, at_least: int) -> None:
    failed, attempted = doctest.testfile(
        str(DOCS / page), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert attempted >= at_least and failed == 0
