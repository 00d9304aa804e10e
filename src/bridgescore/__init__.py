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

from bridgescore.auction import Auction, Call
from bridgescore.chicago import ChicagoScore
from bridgescore.compare import (
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
from bridgescore.core import Contract, Doubling, Seat, Side, Strain, Vulnerability, dealer_of_board
from bridgescore.ddtable import DDTable
from bridgescore.deal import Card, Deal, Hand, random_deal, random_deals
from bridgescore.errors import (
    BridgeError,
    IllegalCallError,
    IllegalPlayError,
    InvalidDealError,
    InvalidTableError,
    NotationError,
    RecordError,
)
from bridgescore.game import PlayedDeal, play_deal
from bridgescore.notation import Result, parse_result
from bridgescore.par import Par, ParContract, par
from bridgescore.pararray import par_array
from bridgescore.play import Play, Trick
from bridgescore.rubber import RubberScore
from bridgescore.scoring import (
    LAW_2017,
    PRE_1987,
    Rules,
    ScoreBreakdown,
    score,
    score_array,
    score_breakdown,
)
from bridgescore.solver import solve, solve_many

__version__ = "0.1.0"

__all__ = [
    "LAW_2017",
    "PRE_1987",
    "Auction",
    "Award",
    "BridgeError",
    "Call",
    "Card",
    "ChicagoScore",
    "Contract",
    "DDTable",
    "Deal",
    "Doubling",
    "Hand",
    "IllegalCallError",
    "IllegalPlayError",
    "InvalidDealError",
    "InvalidTableError",
    "NotationError",
    "Par",
    "ParContract",
    "Play",
    "PlayedDeal",
    "RecordError",
    "Result",
    "RubberScore",
    "Rules",
    "ScoreBreakdown",
    "Seat",
    "Side",
    "Strain",
    "Trick",
    "Vulnerability",
    "__version__",
    "adjusted_imps",
    "adjusted_matchpoints",
    "adjusted_percentage",
    "assigned_imps",
    "assigned_matchpoints",
    "board_a_match",
    "butler_imps",
    "cross_imps",
    "dealer_of_board",
    "imps",
    "matchpoints",
    "par",
    "par_array",
    "parse_result",
    "play_deal",
    "random_deal",
    "random_deals",
    "score",
    "score_array",
    "score_breakdown",
    "solve",
    "solve_many",
]
