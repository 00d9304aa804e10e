"""Each board's par (neutral convention) when its deal is known.

The double-dummy table comes from the hand record's ``DoubleDummyTricks`` when
given, otherwise from DDS (:func:`bridgescore.solver.solve_many`), which needs the
``bridgescore[dds]`` extra; both are imported only when needed, so sessions work
without DDS (boards then simply have no par).

>>> from bridgescore.session.event import Board
>>> found = board_pars({13: Board(13, None, "3322933229a7a4ca7a4c")}, solve=False)
>>> sorted(found.pars), found.solved
([13], {})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from bridgescore.session.event import Board
from bridgescore.session.scorer import BoardPar

__all__ = ["ParLookup", "board_pars"]


@dataclass(slots=True)
class ParLookup:
    """Pars found, tables newly solved (to cache), and why some boards have none."""

    pars: dict[int, BoardPar] = field(default_factory=dict)
    solved: dict[int, str] = field(default_factory=dict)  # board -> DoubleDummyTricks
    notes: list[str] = field(default_factory=list)


def board_pars(
    boards: Mapping[int, Board],
    *,
    solve: bool = True,
    progress: Callable[[int, int], object] | None = None,
) -> ParLookup:
    """Par of every board that has a double-dummy table or a deal (solved when ``solve``)."""
    from bridgescore.ddtable import DDTable
    from bridgescore.par import par

    lookup = ParLookup()
    tables: dict[int, DDTable] = {}
    to_solve: list[Board] = []
    for number, board in sorted(boards.items()):
        if board.dd_tricks:
            tables[number] = DDTable.parse(board.dd_tricks)
        elif board.deal:
            to_solve.append(board)
    if to_solve and solve:
        try:
            from bridgescore.deal import Deal
            from bridgescore.solver import solve_many

            solved = solve_many([Deal.from_pbn(b.deal or "") for b in to_solve], progress=progress)
        except ImportError as error:
            lookup.notes.append(f"no par for {len(to_solve)} board(s): {error}")
        else:
            for board, table in zip(to_solve, solved, strict=True):
                tables[board.number] = table
                lookup.solved[board.number] = str(table)
    elif to_solve:
        lookup.notes.append(f"no par for {len(to_solve)} board(s): not solved (solve=False)")
    for number, table in tables.items():
        found = par(table, boards[number].vulnerability)
        lookup.pars[number] = BoardPar(found.score, str(found))
    return lookup
