"""Duplicate sessions: import an event's results, score them and report the ranking.

The event model (:mod:`~bridgescore.session.event`), SQLite storage
(:mod:`~bridgescore.session.store`), import, the scoring methods
(:mod:`~bridgescore.session.methods`), scoring, par and reports live here; the
comparisons they call are domain functions, in :mod:`bridgescore.compare` and
:mod:`bridgescore.comparearray`. The comparisons' names stay importable from
this package, as they were before they moved.

>>> from bridgescore.session import matchpoints
>>> matchpoints([620, 620, 650, 170, -100])
[5.0, 5.0, 8.0, 2.0, 0.0]
"""

from __future__ import annotations

# Re-exported under their own names (``X as X``) for code written when the
# comparisons lived in this package.
from bridgescore.compare import Award as Award
from bridgescore.compare import adjusted_imps as adjusted_imps
from bridgescore.compare import adjusted_matchpoints as adjusted_matchpoints
from bridgescore.compare import adjusted_percentage as adjusted_percentage
from bridgescore.compare import assigned_imps as assigned_imps
from bridgescore.compare import assigned_matchpoints as assigned_matchpoints
from bridgescore.compare import board_a_match as board_a_match
from bridgescore.compare import butler_imps as butler_imps
from bridgescore.compare import cross_imps as cross_imps
from bridgescore.compare import imps as imps
from bridgescore.compare import matchpoints as matchpoints
