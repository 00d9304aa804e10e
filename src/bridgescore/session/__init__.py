"""Duplicate sessions: compare results across tables and rank pairs or teams.

The comparisons (:mod:`bridgescore.session.compare`) are pure functions; the
event model, SQLite storage, import, scoring and reports build on them.

>>> from bridgescore.session import matchpoints
>>> matchpoints([620, 620, 650, 170, -100])
[5.0, 5.0, 8.0, 2.0, 0.0]
"""

from __future__ import annotations

from bridgescore.session.compare import (
    Award,
    adjusted_imps,
    adjusted_matchpoints,
    adjusted_percentage,
    assigned_imps,
    assigned_matchpoints,
    board_a_match,
    butler_imps,
    cross_imps,
    imps,
    matchpoints,
)

__all__ = [
    "Award",
    "adjusted_imps",
    "adjusted_matchpoints",
    "adjusted_percentage",
    "assigned_imps",
    "assigned_matchpoints",
    "board_a_match",
    "butler_imps",
    "cross_imps",
    "imps",
    "matchpoints",
]
