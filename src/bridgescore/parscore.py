"""Par: the score of a deal under perfect bidding and play, and every par contract.

The definition is docs/par-definition.md. Both sides know the double-dummy table; every
contract is played double-dummy, failing contracts are doubled and making ones
are not. The auction is the game "after side s bids contract k, the opponents
pass or bid higher", solved backwards from 7NT down to 1C in 70 small steps.

Two conventions decide who bids first:

* neutral (``dealer=None``, Richard Pavlicek's convention): the side whose
  highest makeable contract ranks higher bids first; zero (passed out) when
  nobody makes anything or both sides' highest make is the same contract;
* dealer-first (``dealer=Seat.X``): the dealer's side bids first, as DDS's
  ``DealerPar`` does.

Scores are always from North-South's point of view. :func:`par_array` (in
:mod:`bridgescore.pararray`) gives the same scores for whole arrays of tables.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from bridgescore.core import Contract, Doubling, Seat, Side, Strain, Vulnerability
from bridgescore.ddtable import Convention, DDTable, Par, ParContract
from bridgescore.errors import InvalidTableError
from bridgescore.scoring import score_array
from bridgescore.validate import enum_arg

__all__ = ["CONTRACTS", "final_scores", "opening", "par"]

_Value = TypeVar("_Value")

CONTRACTS = 35
"""Number of contracts, ranked 0 (1C) to 34 (7NT)."""

# Beyond any score (|score| <= 3800), so "no bid yet" never wins a comparison.
_NOBODY = 30000

# -- scores of the final contracts ------------------------------------------------


@cache
def final_scores() -> npt.NDArray[np.int16]:
    """Declarer's score of every contract played double-dummy, as par scores it.

    Shaped (2, 5, 14, 7): [vulnerable, strain, tricks, level - 1]. A contract that
    makes is undoubled; one that fails is doubled (the opponents double every
    contract that fails and never one that makes). Scored by Law 77 through
    :func:`bridgescore.score_array`.
    """
    vulnerable = np.arange(2).reshape(2, 1, 1, 1)
    strain = np.arange(5).reshape(1, 5, 1, 1)
    tricks = np.arange(14).reshape(1, 1, 14, 1)
    level = np.arange(1, 8).reshape(1, 1, 1, 7)
    relative = tricks - level - 6
    doubling = (relative < 0).astype(np.int8)
    scores = score_array(level, strain, doubling, relative, vulnerable).astype(np.int16)
    scores.setflags(write=False)
    return scores


@cache
def _final_rows() -> tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]:
    # The same numbers as plain tuples, which the scalar solver indexes fastest:
    # [vulnerable][strain][tricks] -> levels 1-7, then "no contract" at index 7,
    # worse for the declaring side than any score.
    scores = final_scores()
    return tuple(
        tuple(
            tuple((*(int(x) for x in scores[v, s, t]), -_NOBODY) for t in range(14))
            for s in range(5)
        )
        for v in range(2)
    )


# MAKE_RANK[strain][tricks]: the rank of the highest contract those tricks make, or -1.
# pararray.py turns the same table into an array.
MAKE_RANK = tuple(
    tuple((tricks - 7) * 5 + strain if tricks >= 7 else -1 for tricks in range(14))
    for strain in range(5)
)
# _LEVELS_ABOVE[rank][strain]: level index (0-6; 7 for none) of the strain's
# cheapest contract ranked above ``rank``.
_LEVELS_ABOVE = tuple(
    tuple(min((rank - strain) // 5 + 1, 7) for strain in range(5)) for rank in range(CONTRACTS)
)
# Contracts from 7NT down to 1C, as (rank, level index 0-6, strain).
_DESCENDING = tuple((rank, rank // 5, rank % 5) for rank in range(CONTRACTS - 1, -1, -1))
# Who may declare: a seat (0-3), or 4 for both of NS and 5 for both of EW.
_DECLARERS = ((Seat.NORTH,), (Seat.EAST,), (Seat.SOUTH,), (Seat.WEST,))
_BOTH = ((Seat.NORTH, Seat.SOUTH), (Seat.EAST, Seat.WEST))


@cache
def _par_contract(level: int, strain: int, relative: int, who: int) -> ParContract:
    doubling = Doubling.DOUBLED if relative < 0 else Doubling.UNDOUBLED
    declarers = _DECLARERS[who] if who < 4 else _BOTH[who - 4]
    return ParContract(Contract(level, Strain(strain), doubling), declarers, relative)


def opening(first: Side | int, best_ns: int, best_ew: int) -> int:
    """Par from the two sides' best values when ``first`` bids first (docs/par-definition.md).

    ``best_ns`` is the most NS can get by bidding (``B(NS)``), ``best_ew`` the least
    EW can hold NS to (``B(EW)``); the sides then have two turns each before four
    passes end the deal at zero.

    >>> opening(Side.EW, 90, -90)  # both sides make 1NT: EW bid it first
    -90
    """
    if first == Side.NS:
        return turns(best_ns, best_ew, max, min, 0)
    return turns(best_ew, best_ns, min, max, 0)


def turns(
    first: _Value,
    second: _Value,
    better: Callable[[_Value, _Value], _Value],
    worse: Callable[[_Value, _Value], _Value],
    zero: _Value,
) -> _Value:
    """The opening's four turns, first side, other side, first, other, then pass out.

    ``better`` and ``worse`` are the first side's preferences (``max``/``min`` for
    NS in NS's view); :func:`opening` passes Python ints, :func:`par_array` numpy
    arrays with ``np.maximum``/``np.minimum``, so both read the one formula.
    """
    return better(first, worse(second, better(first, worse(second, zero))))


def _cheapest_above(finals: list[tuple[int, ...]], rank: int) -> int:
    """The best score, for the declaring side, of its contracts ranked above ``rank``
    when all of them fail: failing scores fall with the level, so each strain's
    lowest level above ``rank`` is its best."""
    c, d, h, s, nt = _LEVELS_ABOVE[rank]
    return max(finals[0][c], finals[1][d], finals[2][h], finals[3][s], finals[4][nt])


def par(
    table: DDTable | str,
    vulnerability: Vulnerability | int | str,
    dealer: Seat | int | str | None = None,
) -> Par:
    """The par of a double-dummy table: score (North-South's view) and par contracts.

    ``dealer=None`` uses the neutral convention; a dealer uses the dealer-first
    convention (as DDS's ``DealerPar``). ``vulnerability`` and ``dealer`` may be
    given as text (``"Both"``, ``"N"``), as every public function reads them.
    ``table`` may also be PBN ``DoubleDummyTricks`` text. Raises
    :class:`~bridgescore.InvalidTableError` when ``table`` is not a table and
    :class:`~bridgescore.NotationError` for a bad vulnerability or dealer.

    >>> table = DDTable.parse("32929329297a4a47a4a4")
    >>> str(par(table, Vulnerability.BOTH))
    'EW +500: 5CX-2 NS, 5HX-2 NS'
    """
    if type(table) is not DDTable:
        if isinstance(table, str):
            table = DDTable.parse(table)
        elif not isinstance(table, DDTable):
            raise InvalidTableError(f"par needs a DDTable, got {table!r}")
    vul = enum_arg(Vulnerability, vulnerability, "vulnerability")
    first_seat = None if dealer is None else enum_arg(Seat, dealer, "dealer")

    north, east, south, west = table.rows
    best_ns = [n if n >= s else s for n, s in zip(north, south, strict=True)]
    best_ew = [e if e >= w else w for e, w in zip(east, west, strict=True)]
    c, d, h, s, nt = MAKE_RANK
    high_ns = max(c[best_ns[0]], d[best_ns[1]], h[best_ns[2]], s[best_ns[3]], nt[best_ns[4]])
    high_ew = max(c[best_ew[0]], d[best_ew[1]], h[best_ew[2]], s[best_ew[3]], nt[best_ew[4]])

    if first_seat is None:
        convention: Convention = "neutral"
        if high_ns == high_ew:
            return Par(0, (), convention)
        first = 0 if high_ns > high_ew else 1
    else:
        convention = "dealer"
        if high_ns == high_ew == -1:
            return Par(0, (), convention)
        first = first_seat & 1

    rows = _final_rows()
    ns_rows = rows[vul & 1]
    ew_rows = rows[vul >> 1]
    # Each strain's seven contracts, scored for the declaring side.
    ns_final = [ns_rows[strain][best_ns[strain]] for strain in range(5)]
    ew_final = [ew_rows[strain][best_ew[strain]] for strain in range(5)]
    top = high_ns if high_ns > high_ew else high_ew

    values = _induction(ns_final, ew_final, top)
    score = opening(first, values[0], values[1])
    if score == 0:
        return Par(0, (), convention)
    contracts = _par_contracts(score, ns_final, ew_final, top, values, table.rows)
    return Par(score, contracts, convention)


# What the backward induction leaves: the sides' best values from 1C up (up_ns,
# up_ew), the values of bidding above each rank (above_ns, above_ew, kept down to
# ``stop``), and ``stop``. A plain tuple: par() is hot, and a NamedTuple costs more.
_Values = tuple[int, int, list[int], list[int], int]


def _induction(
    ns_final: list[tuple[int, ...]], ew_final: list[tuple[int, ...]], top: int
) -> _Values:
    """Backward induction (docs/par-definition.md) from ``top`` down, in NS's view.

    ``up_ns`` is the most NS can get by bidding above the current contract, ``up_ew``
    the least EW can hold them to; both are kept per rank for the stability of par
    contracts. Above both sides' highest makes every contract fails and is passed
    out doubled, so the induction starts there with each side's cheapest failure.
    """
    up_ns = _cheapest_above(ns_final, top)
    up_ew = -_cheapest_above(ew_final, top)
    above_ns = [up_ns] * (top + 1)
    above_ew = [up_ew] * (top + 1)
    stop = -1
    for rank, level, strain in _DESCENDING[CONTRACTS - 1 - top :]:
        above_ns[rank] = up_ns
        above_ew[rank] = up_ew
        mine = ns_final[strain][level]
        theirs = -ew_final[strain][level]
        # After NS bid this contract EW pass or bid on, and the other way round.
        value_ns = mine if mine < up_ew else up_ew
        value_ew = theirs if theirs > up_ns else up_ns
        if value_ns > up_ns:
            up_ns = value_ns
        if value_ew < up_ew:
            up_ew = value_ew
        if up_ns >= up_ew:
            # From here down NS can never gain more than EW already concede (and
            # the other way round), so neither value moves again.
            stop = rank
            break
    return up_ns, up_ew, above_ns, above_ew, stop


def _par_contracts(
    score: int,
    ns_final: list[tuple[int, ...]],
    ew_final: list[tuple[int, ...]],
    top: int,
    values: _Values,
    rows: tuple[tuple[int, ...], ...],
) -> tuple[ParContract, ...]:
    """Every contract that scores par and that no overcall improves on, in rank order:
    each side's cheapest such contract per strain."""
    north, east, south, west = rows
    up_ns, up_ew, above_ns, above_ew, stop = values
    found: list[tuple[int, int, ParContract]] = []
    for side in (0, 1):
        # Declarer's view: NS scores as they are, EW's negated.
        if side:
            finals, above, after, target = ew_final, above_ns, up_ns, -score
        else:
            finals, above, after, target = ns_final, above_ew, up_ew, score
        for strain, scores in enumerate(finals):
            if target not in scores:
                continue
            for level in range(scores.index(target), 7):
                if scores[level] != target:
                    continue
                rank = level * 5 + strain
                if rank > top:
                    overcall = _cheapest_above(ew_final if side == 0 else ns_final, rank)
                    overcall = -overcall if side == 0 else overcall
                else:
                    overcall = above[rank] if rank >= stop else after
                # Strictly stable: every overcall leaves the opponents worse off.
                if overcall < score if side else overcall > score:
                    found.append(
                        (rank, side, _declared(side, strain, level, north, east, south, west))
                    )
                    break
    found.sort()
    return tuple(item[2] for item in found)


def _declared(side: int, strain: int, level: int, *rows: tuple[int, ...]) -> ParContract:
    """The par contract at ``level`` index in ``strain`` for ``side``, with its declarers."""
    first, second = rows[side][strain], rows[side + 2][strain]
    # Both partners declare equally well: the side (4 or 5); else the better seat.
    who = 4 + side if first == second else side if first > second else side + 2
    best = first if first > second else second
    return _par_contract(level + 1, strain, best - level - 7, who)
