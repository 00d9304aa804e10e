"""How a board's circumstances are worded on every page, report and hand record:
its dealer, its vulnerability and its par. One wording, so that a traveller reads
the same in the text report, the HTML report, the results site, the PDF and the
live pages.

>>> from bridgescore.core import Seat, Vulnerability
>>> dealer_words(Seat.NORTH), vulnerability_words(Vulnerability.NS), par_words("NS +420: 4S= N")
('Dealer North', 'Vul NS', 'par NS +420: 4S= N')
>>> board_ranges([7, 1, 2, 3])
'1–3, 7'
"""

from __future__ import annotations

from collections.abc import Iterable

from bridgescore.core import Seat, Vulnerability

__all__ = ["board_ranges", "dealer_words", "par_words", "vulnerability_words"]


def dealer_words(dealer: Seat) -> str:
    """``Dealer North``: the seat in full, as the board's case says it."""
    return f"Dealer {dealer.name.title()}"


def vulnerability_words(vulnerability: Vulnerability) -> str:
    """``Vul None``, ``Vul NS``, ``Vul EW``, ``Vul Both``: the PBN names of the
    four vulnerabilities (docs/rules.md), which every reader of the files knows."""
    return f"Vul {vulnerability}"


def par_words(par_text: str) -> str:
    """``par NS +420: 4S= N``: a board's par (its text, :class:`~bridgescore.Par`'s
    ``str``) after the word that names it; ``""`` for a board without one."""
    return f"par {par_text}" if par_text else ""


def board_ranges(boards: Iterable[int]) -> str:
    """``1–3, 7``: runs of consecutive boards as ranges, as a card or a note prints them."""
    runs: list[list[int]] = []
    for board in sorted(boards):
        if runs and board == runs[-1][-1] + 1:
            runs[-1].append(board)
        else:
            runs.append([board])
    return ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}–{run[-1]}" for run in runs)
