"""Board sets: tournament-grade dealing, formats, double-dummy analysis, hand records.

>>> from bridgescore.boardset import DealSeed, deal_set
>>> [(b.number, b.dealer.letter, str(b.vulnerability)) for b in
...  deal_set(DealSeed.from_test_number(1), [1, 2])]
[(1, 'N', 'None'), (2, 'E', 'NS')]
"""

from __future__ import annotations

from bridgescore.boardset.analysis import analyse
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

# The board and its files live in formats/ (formats/board.py, formats/boardset.py);
# the package's API names them as it always has.
from bridgescore.formats.board import Board, par_contract_text, par_score_text
from bridgescore.formats.boardset import (
    FORMATS,
    BoardSetFormat,
    ReadableFormat,
    board_file_text,
    format_boards,
    guess_format,
    read_boards,
)

__all__ = [
    "DEAL_COUNT",
    "FORMATS",
    "Board",
    "BoardSetFormat",
    "DealSeed",
    "ReadableFormat",
    "SeedError",
    "Verification",
    "analyse",
    "board_deal",
    "board_file_text",
    "commitment",
    "commitment_text",
    "deal_set",
    "format_boards",
    "guess_format",
    "par_contract_text",
    "par_score_text",
    "parse_board_range",
    "read_boards",
    "read_commitment",
    "verify_set",
]
