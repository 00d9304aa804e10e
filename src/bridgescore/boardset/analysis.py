"""Double-dummy analysis of a board set: DD tables (DDS, all cores) and par."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bridgescore.board import Board
from bridgescore.parscore import par

__all__ = ["analyse_boards"]

Progress = Callable[[int, int], None]


def analyse_boards(
    boards: Sequence[Board], *, threads: int | None = None, progress: Progress | None = None
) -> list[Board]:
    """The boards with their DD tables and par (dealer-first convention, the
    board's dealer), solving only those without a table, in DDS batches.

    ``threads`` defaults to one DDS thread per core; ``progress(done, total)``
    is called after each batch. Raises ``ImportError`` (naming the extra to
    install) when the solver is missing.
    """
    from bridgescore.solver import solve_many

    waiting = [board for board in boards if board.dd_table is None]
    tables = iter(
        solve_many([board.dealt for board in waiting], threads=threads, progress=progress)
    )
    analysed: list[Board] = []
    for board in boards:
        table = board.dd_table if board.dd_table is not None else next(tables)
        analysed.append(board.with_analysis(table, par(table, board.vulnerability, board.dealer)))
    return analysed
