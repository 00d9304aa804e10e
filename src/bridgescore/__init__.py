"""bridgescore: exact contract bridge scoring, double-dummy par and par studies.

>>> import bridgescore as bs
>>> bs.score("4DX +1", vulnerable=True)
910
>>> bs.score_breakdown("6NTXX=", vulnerable=False).total
1660
>>> bs.Vulnerability.from_board(7), bs.dealer_of_board(7)
(Vulnerability.BOTH, Seat.SOUTH)
"""

from __future__ import annotations

from bridgescore.core import Contract, Doubling, Seat, Side, Strain, Vulnerability, dealer_of_board
from bridgescore.ddtable import DDTable
from bridgescore.errors import (
    BridgeError,
    IllegalCallError,
    IllegalPlayError,
    InvalidDealError,
    InvalidTableError,
    NotationError,
    RecordError,
)
from bridgescore.notation import Result, parse_result
from bridgescore.scoring import (
    LAW_2017,
    PRE_1987,
    Rules,
    ScoreBreakdown,
    score,
    score_array,
    score_breakdown,
)

__version__ = "0.1.0"

__all__ = [
    "LAW_2017",
    "PRE_1987",
    "BridgeError",
    "Contract",
    "DDTable",
    "Doubling",
    "IllegalCallError",
    "IllegalPlayError",
    "InvalidDealError",
    "InvalidTableError",
    "NotationError",
    "RecordError",
    "Result",
    "Rules",
    "ScoreBreakdown",
    "Seat",
    "Side",
    "Strain",
    "Vulnerability",
    "__version__",
    "dealer_of_board",
    "parse_result",
    "score",
    "score_array",
    "score_breakdown",
]
