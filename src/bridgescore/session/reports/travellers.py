"""A board's traveller as every surface draws it: the text report, the HTML report (and
so the PDF), the results site, the serve pages and the live pages all take their cells
from :func:`traveller_table`, so a traveller reads the same wherever it is shown.

The cells are already worded (dealer, vulnerability and par by
:mod:`bridgescore.display.wording`) and the numbers already formatted
(:func:`~bridgescore.session.scoring.display.fmt`); a surface only lays them out.

>>> from bridgescore.session.scoring.event import Event, TableResult
>>> from bridgescore.session.scoring.scorer import score_event
>>> scored = score_event(Event("Club", "pairs", results=(
...     TableResult.played(1, "1", "2", "4SN="), TableResult.played(1, "3", "4", "4SN+1"))), "mp")
>>> table = traveller_table(scored, scored.travellers[0])
>>> table.title, table.about
('Board 1', ('Dealer North', 'Vul None', 'top 2'))
>>> table.headers
('NS', 'EW', 'Result', 'NS score', 'NS MP', 'EW MP')
>>> table.rows
(('3', '4', '4SN+1', '+450', '2', '0'), ('1', '2', '4SN=', '+420', '0', '2'))
"""

from __future__ import annotations

from dataclasses import dataclass

from bridgescore.display.wording import dealer_words, par_words, vulnerability_words
from bridgescore.session.scoring.display import ScoredEvent, fmt
from bridgescore.session.scoring.scored import ScoredBoard

__all__ = ["PAIR_COLUMNS", "TravellerTable", "score_text", "traveller_table"]


@dataclass(frozen=True)
class TravellerTable:
    """One board's traveller, worded: the ``title`` (``Board 4 (section A)``), what is
    known ``about`` the board (``Dealer West``, ``Vul Both``, ``top 4``,
    ``datum +420``, ``par NS +420: 4S= N``; those the board has), the column
    ``headers``, the ``rows`` (one per line of the traveller, in its order) and the
    ``numeric`` columns (aligned right)."""

    board: int
    section: str
    title: str
    about: tuple[str, ...]
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    numeric: frozenset[int]


def score_text(ns_score: int | None) -> str:
    """A traveller's NS score: ``+450``, ``-100``, ``0``; blank for an artificial score.

    >>> score_text(450), score_text(-100), score_text(0), score_text(None)
    ('+450', '-100', '0', '')
    """
    if ns_score is None:
        return ""
    return f"{ns_score:+d}" if ns_score else "0"


#: The columns of a traveller's pairs: the NS and EW cells of each row.
PAIR_COLUMNS = (0, 1)


def traveller_table(session: ScoredEvent, traveller: ScoredBoard) -> TravellerTable:
    """The traveller's cells: NS pair, EW pair, the result (with its note, such as
    an adjustment's reason, in brackets), the NS score, each side's points in the
    method's unit (signed for IMPs) and, when the board has a par, NS's IMPs v par."""
    board = traveller.board
    about = [dealer_words(board.dealer), vulnerability_words(board.vulnerability)]
    if traveller.top is not None:
        about.append(f"top {fmt(traveller.top)}")
    if traveller.datum is not None:
        about.append(f"datum {fmt(traveller.datum, signed=True)}")
    if traveller.par_text:
        about.append(par_words(traveller.par_text))
    unit, signed = session.unit, session.scoring_method.signed
    has_par = traveller.par is not None
    headers = (
        "NS",
        "EW",
        "Result",
        "NS score",
        f"NS {unit}",
        f"EW {unit}",
        *(["NS IMPs v par"] if has_par else []),
    )
    rows = tuple(
        (
            line.result.ns,
            line.result.ew,
            line.result.describe() + (f" ({line.note})" if line.note else ""),
            score_text(line.ns_score),
            fmt(line.ns, signed=signed),
            fmt(line.ew, signed=signed),
            *([fmt(line.imps_vs_par, signed=True)] if has_par else []),
        )
        for line in traveller.lines
    )
    title = f"Board {board.number}" + (
        f" (section {traveller.section})" if traveller.section else ""
    )
    return TravellerTable(
        board.numbered,
        traveller.section,
        title,
        tuple(about),
        headers,
        rows,
        frozenset(range(3, len(headers))),
    )
