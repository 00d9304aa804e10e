"""Board sets: tournament-grade dealing, double-dummy analysis, hand records.

The board value and the board-set files live in the formats layer
(:mod:`bridgescore.formats.board`, :mod:`bridgescore.formats.boardset`).

>>> from bridgescore.boardset import DealSeed, deal_set
>>> [(b.number, b.dealer.letter, str(b.vulnerability)) for b in
...  deal_set(DealSeed.from_test_number(1), [1, 2])]
[(1, 'N', 'None'), (2, 'E', 'NS')]
"""

from __future__ import annotations

from bridgescore.boardset.analysis import analyse_boards
from bridgescore.boardset.board import parse_board_range
from bridgescore.boardset.dealing import (
    DEAL_COUNT,
    DealSeed,
    SeedError,
    board_deal,
    commitment,
    commitment_text,
    read_commitment,
)
from bridgescore.boardset.sets import Verification, deal_set, verify_set

__all__ = [
    "DEAL_COUNT",
    "DealSeed",
    "SeedError",
    "Verification",
    "analyse_boards",
    "board_deal",
    "commitment",
    "commitment_text",
    "deal_set",
    "parse_board_range",
    "read_commitment",
    "verify_set",
]
