"""Each board's par (neutral convention) when its deal is known.

The double-dummy table comes from the hand record's ``DoubleDummyTricks`` when
given, otherwise from DDS (:func:`bridgescore.solver.solve_many`), which needs the
``bridgescore[dds]`` extra; the solver is imported only when needed, so sessions
work without DDS (boards then simply have no par).

>>> from bridgescore.ddtable import DDTable
>>> from bridgescore.board import Board
>>> found = board_pars({13: Board(13, None, DDTable.parse("3322933229a7a4ca7a4c"))}, solve=False)
>>> sorted(found.pars), found.solved
([13], {})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from bridgescore.board import Board
from bridgescore.ddtable import DDTable
from bridgescore.deal import Deal
from bridgescore.parscore import par
from bridgescore.session.scoring.scored import BoardPar

__all__ = ["ParLookup", "board_pars"]


@dataclass(slots=True)
class ParLookup:
    """Pars found, tables newly solved (to cache), and why some boards have none."""

    pars: dict[int, BoardPar] = field(default_factory=dict)
    solved: dict[int, DDTable] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def board_pars(
    boards: Mapping[int, Board],
    *,
    solve: bool = True,
    progress: Callable[[int, int], object] | None = None,
) -> ParLookup:
    """Par of every board that has a double-dummy table or a deal (solved when ``solve``)."""
    lookup = ParLookup()
    tables: dict[int, DDTable] = {}
    to_solve: list[tuple[int, Deal]] = []
    for number, board in sorted(boards.items()):
        if board.dd_table is not None:
            tables[number] = board.dd_table
        elif board.deal is not None:
            to_solve.append((number, board.deal))
    if to_solve and solve:
        try:
            from bridgescore.solver import solve_many

            solved = solve_many([deal for _, deal in to_solve], progress=progress)
        except ImportError as error:
            lookup.notes.append(f"no par for {len(to_solve)} board(s): {error}")
        else:
            for (number, _), table in zip(to_solve, solved, strict=True):
                tables[number] = table
                lookup.solved[number] = table
    elif to_solve:
        lookup.notes.append(
            f"no par for {len(to_solve)} board(s): they have no double-dummy table, "
            "and solving them was not asked for"
        )
    for number, table in tables.items():
        found = par(table, boards[number].vulnerability)
        lookup.pars[number] = BoardPar(found.score, str(found))
    return lookup
