"""For the live pages' tests: an evening on the hand-written 3-table Mitchell of
tests/live_movements.py (NS pairs stay, EW pairs move up one table, boards down one):

    round 1: table 1 1N v 1E boards 1-2, table 2 2N v 2E boards 3-4, table 3 3N v 3E boards 5-6
    round 2: table 1 1N v 3E boards 3-4, table 2 2N v 1E boards 5-6, table 3 3N v 2E boards 1-2
    round 3: table 1 1N v 2E boards 5-6, table 2 2N v 3E boards 1-2, table 3 3N v 1E boards 3-4

This is a test helper module, not a test module (pytest collects ``test_*.py``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx

from live_movements import three_table_mitchell


def new_event(path: Path, url_base: str = "http://127.0.0.1:8000") -> Any:
    """The event file with its movement, tokens and password (a ``NewEvent``)."""
    from bridgescore.session.live.creation import create_event

    return create_event(path, three_table_mitchell(), name="Club night", url_base=url_base)


def new_event_with_hands(path: Path, deal: str, boards: int = 6) -> Any:
    """:func:`new_event`, with the same ``deal`` (PBN) as the hand record of every board,
    imported as a director would (``session import``)."""
    from typer.testing import CliRunner

    from bridgescore.cli.app import app

    created = new_event(path)
    hands = path.with_name("hands.pbn")
    hands.write_text("".join(f'[Board "{b}"]\n[Deal "{deal}"]\n\n' for b in range(1, boards + 1)))
    imported = CliRunner().invoke(app, ["session", "import", str(path), str(hands)])
    assert imported.exit_code == 0, imported.output
    return created


def token_of(created: Any, table: int) -> str:
    token: str = next(t.token for t in created.tables if t.table == table)
    return token


def csrf_of(html: str) -> str:
    """The CSRF token in a page's first form."""
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None, html
    return found[1]


def enter_by_api(base: str, created: Any, table: int, body: dict[str, Any]) -> int:
    """A table's result through the JSON API; its NS score."""
    answer = httpx.post(
        base + "/api/live/results",
        json=body,
        headers={"Authorization": f"Bearer {token_of(created, table)}"},
        timeout=60,
    )
    assert answer.status_code == 201, answer.text
    score: int = answer.json()["score_ns"]
    return score
