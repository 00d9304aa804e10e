"""Small events whose matchpoints are worked by hand, for the season's tests.

Three NS pairs against three EW pairs, two boards, each board played at three tables
(2/1 scale, top 4). Event A's scores, NS view:

    board 1 (NS 1N v 1E, 2N v 2E, 3N v 3E):  +420, +450, +400
        NS MPs 2, 4, 0; EW (1E, 2E, 3E) 2, 0, 4
    board 2 (1N v 2E, 2N v 3E, 3N v 1E):     -50, +100, +100
        NS MPs 0, 3, 3; EW (2E, 3E, 1E) 4, 1, 1

so over 8 MPs: 1N 2 (25 %), 2N 7 (87.5 %), 3N 3 (37.5 %); 1E 3 (37.5 %), 2E 4 (50 %),
3E 5 (62.5 %). Event B plays the same boards the same way with other players in the seats.
"""

from __future__ import annotations

from pathlib import Path

from bridgescore.session.importers.importer import import_data
from bridgescore.session.scoring.event import TableResult
from bridgescore.session.store.events import EventStore, Origin

SCORES = [
    (1, "1N", "1E", 420),
    (1, "2N", "2E", 450),
    (1, "3N", "3E", 400),
    (2, "1N", "2E", -50),
    (2, "2N", "3E", 100),
    (2, "3N", "1E", 100),
]
# Each pair's percentage, worked above.
PERCENT = {"1N": 25.0, "2N": 87.5, "3N": 37.5, "1E": 37.5, "2E": 50.0, "3E": 62.5}
RANK = {"1N": "3", "2N": "1", "3N": "2", "1E": "3", "2E": "2", "3E": "1"}

REGISTER_CSV = """number,name,email
1010,Ann Archer,ann@example.org
1011,Bob Baker,
1020,Cara Cole,
1021,Dan Dunn,
1030,Eve Ellis,
1031,Fred Ford,
1040,Gail Grant,
1041,Hugh Hale,
1050,Ida Irwin,
1051,Jack Jones,
"""

# Event A: numbers for the NS pairs, Hugh Hale by name alone, Jack Jones misspelt
# (unmatched), pair 3E not named at all.
NAMES_A = """pair,player,number,player,number
1N,Ann Archer,1010,Bob Baker,1011
2N,Cara Cole,1020,Dan Dunn,1021
3N,Eve Ellis,1030,Fred Ford,1031
1E,Gail Grant,1040,Hugh Hale,
2E,Ida Irwin,1050,Jack Jonse,
"""
# Event B: new partnerships; every player given by number.
NAMES_B = """pair,player,number,player,number
1N,Ann Archer,1010,Cara Cole,1020
2N,Bob Baker,1011,Eve Ellis,1030
3N,Dan Dunn,1021,Gail Grant,1040
1E,Fred Ford,1031,Hugh Hale,1041
2E,Ida Irwin,1050,Jack Jones,1051
"""


def make_event(path: Path, names: str, *, name: str, date: str) -> Path:
    """An event file holding :data:`SCORES`, the players of ``names``, and its day."""
    with EventStore(path) as store:
        store.set_info(name=name, date=date)
        store.add_results([(TableResult(b, ns, ew, score=s), Origin()) for b, ns, ew, s in SCORES])
        report = import_data(store, names, "names.csv")
        assert report.ok, report.problems
    return path
