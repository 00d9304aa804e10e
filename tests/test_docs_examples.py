"""Every example in the guides (docs/*.md) runs as written: a page is a reader's session,
its examples in order, with nothing imported for it (each page imports what it uses)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).parent.parent / "docs"

# Pages whose examples a test of their own runs, beside the checks it makes of them.
RUN_ELSEWHERE = {
    "cards.md": "tests/session/reports/test_cards.py",
    "formats.md": "tests/formats/pbn/test_pbn.py",
    "howell.md": "tests/movement/test_howell.py",
    "notebook.md": "tests/display/test_display.py",
    "par-definition.md": "tests/test_conventions_docs.py",
    "rules.md": "tests/test_conventions_docs.py",
    "scoring.md": "tests/test_conventions_docs.py",
}
PAGES = sorted(
    page.name
    for page in DOCS.glob("*.md")
    if "\n>>> " in page.read_text(encoding="utf-8") and page.name not in RUN_ELSEWHERE
)


def test_the_pages_run_elsewhere_are_pages_with_examples() -> None:
    for page in RUN_ELSEWHERE:
        assert "\n>>> " in (DOCS / page).read_text(encoding="utf-8"), page


@pytest.mark.parametrize("page", PAGES)
def test_every_example_of_the_page_runs(page: str) -> None:
    failed, attempted = doctest.testfile(
        str(DOCS / page), module_relative=False, globs={}, optionflags=doctest.ELLIPSIS
    )
    assert attempted > 0 and failed == 0
