"""A small built-in event (what ``make run`` scores): a four-table Mitchell, three boards.

>>> event = sample_event()
>>> event.name, len(event.results), event.participants()[:3]
('Tuesday club (sample)', 12, ['1', '2', '3'])
"""

from __future__ import annotations

from bridgescore.errors import RecordError
from bridgescore.session.importers.csv import parse_csv
from bridgescore.session.scoring.event import Event

__all__ = ["SAMPLE_CSV", "sample_event"]

SAMPLE_CSV = """\
board,ns,ew,contract,declarer,result,score
1,1,5,4S,N,=,
1,2,6,4S,N,+1,
1,3,7,3NT,S,+1,
1,4,8,5CX,W,-2,
2,1,5,3NT,W,=,
2,2,6,4H,E,-1,
2,3,7,,,,A
2,4,8,3NT,W,+1,
3,1,5,,,,Pass
3,2,6,1NT,N,-1,
3,3,7,2D,E,=,
3,4,8,,,,+110
"""


def sample_event() -> Event:
    """The built-in sample event, read with the CSV importer."""
    parsed = parse_csv(SAMPLE_CSV.splitlines(), "sample")
    if parsed.problems:  # pragma: no cover - the sample is fixed text
        raise RecordError(f"the built-in sample is broken: {parsed.problems[0]}")
    return Event("Tuesday club (sample)", "pairs", results=tuple(r for r, _ in parsed.results))
