"""A board in the files: :func:`board_record` (the record every format writes for a
:class:`~bridgescore.Board`) and PBN's par tags (:func:`par_score_text`,
:func:`par_contract_text`).
"""

from __future__ import annotations

from bridgescore.board import Board
from bridgescore.ddtable import Par, ParContract
from bridgescore.formats.record import BoardRecord

__all__ = ["board_record", "par_contract_text", "par_score_text"]

_OPTIMUM_RESULT_TABLE = "OptimumResultTable"


def par_score_text(result: Par) -> str:
    """PBN's ``OptimumScore``: ``NS 420`` or ``NS -100`` (always North-South's view)."""
    return f"NS {result.score}"


def _contract_text(contract: ParContract) -> str:
    who = contract.declarers[0].letter if len(contract.declarers) == 1 else contract.side.name
    level, strain = contract.contract.level, contract.contract.strain.letter
    outcome = "" if contract.relative == 0 else f"{contract.relative:+d}"
    return f"{who} {level}{strain}{contract.contract.doubling}{outcome}"


def par_contract_text(result: Par) -> str:
    """PBN's ``ParContract``: every par contract, ``NS 4S; NS 4H`` or ``EW 5HX-2``;
    ``Pass`` when the deal is passed out."""
    if not result.contracts:
        return "Pass"
    return "; ".join(_contract_text(contract) for contract in result.contracts)


def board_record(board: Board, event: str = "") -> BoardRecord:
    """The board as the one record every format writes: number, dealer and
    vulnerability (always stated, as a board set states them), deal, and the
    analysis (DoubleDummyTricks, OptimumScore; ParContract and the
    OptimumResultTable rows kept as notes, as PBN names them)."""
    notes: list[tuple[str, str]] = []
    if board.par is not None:
        notes.append(("ParContract", par_contract_text(board.par)))
    if board.dd_table is not None:
        header, *rows = board.dd_table.to_optimum_result_table().split("\n")
        # The header line's value: what a reader keeps as the note's first line.
        value = header.removeprefix(f'[{_OPTIMUM_RESULT_TABLE} "').removesuffix('"]')
        notes.append((_OPTIMUM_RESULT_TABLE, "\n".join([value, *rows])))
    return BoardRecord(
        board=board.number,
        dealer_seat=board.dealer,
        vulnerable=board.vulnerability,
        deal=board.deal,
        event=event,
        dd_tricks="" if board.dd_table is None else str(board.dd_table),
        optimum_score="" if board.par is None else par_score_text(board.par),
        notes=tuple(notes),
    )
