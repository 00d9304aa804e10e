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

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Literal, TypeVar

import numpy as np
import numpy.typing as npt

from bridgescore.core import Contract, Doubling, Seat, Side, Strain, Vulnerability
from bridgescore.ddtable import DDTable
from bridgescore.display.markup import Markup, strain_html, text_html
from bridgescore.errors import InvalidTableError, NotationError
from bridgescore.notation import parse_result
from bridgescore.scoring import score_array
from bridgescore.validate import enum_arg, is_whole_number

__all__ = ["CONTRACTS", "Convention", "Par", "ParContract", "final_scores", "opening", "par"]

Convention = Literal["neutral", "dealer"]
_Value = TypeVar("_Value")

CONTRACTS = 35
"""Number of contracts, ranked 0 (1C) to 34 (7NT)."""

# Beyond any score (|score| <= 3800), so "no bid yet" never wins a comparison.
_NOBODY = 30000

_PAR_CONTRACT_RE = re.compile(r"^\s*(?P<result>.+?)\s+(?P<who>NS|EW|[NESW])\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ParContract:
    """One par contract: the contract, who may declare it, and its result.

    ``contract`` has no declarer; ``declarers`` is one seat, or both seats of the
    side when either partner takes the same number of tricks; ``relative`` is the
    result against the contract (``+1``, ``0``, ``-2``).

    >>> ParContract.parse("5HX-2 NS").declarers
    (Seat.NORTH, Seat.SOUTH)
    >>> str(ParContract(Contract(4, Strain.SPADES), (Seat.NORTH,), 1))
    '4S+1 N'
    """

    contract: Contract
    declarers: tuple[Seat, ...]
    relative: int

    def __post_init__(self) -> None:
        contract = self.contract
        if not isinstance(contract, Contract) or contract.declarer is not None:
            raise NotationError(
                f"a par contract needs a Contract without declarer, got {contract!r}"
            )
        declarers = tuple(enum_arg(Seat, seat, "declarers") for seat in self.declarers)
        if not declarers or len(declarers) > 2 or len({seat.side for seat in declarers}) != 1:
            raise NotationError(
                f"par contract {contract} declarers {self.declarers!r}: expected one seat "
                "or both seats of one side"
            )
        if len(declarers) == 2 and declarers[0] == declarers[1]:
            raise NotationError(f"par contract {contract} names {declarers[0]} twice")
        object.__setattr__(self, "declarers", tuple(sorted(declarers)))
        relative = self.relative
        if not is_whole_number(relative):
            raise NotationError(f"result of {contract} must be a whole number, got {relative!r}")
        if not -contract.tricks_needed <= relative <= 13 - contract.tricks_needed:
            raise NotationError(
                f"{contract} with result {relative:+d} is impossible: expected "
                f"{-contract.tricks_needed} to {13 - contract.tricks_needed:+d}"
            )

    @property
    def side(self) -> Side:
        """The declaring side."""
        return self.declarers[0].side

    @property
    def tricks(self) -> int:
        """Tricks declarer takes double-dummy."""
        return self.contract.tricks_needed + self.relative

    @classmethod
    def parse(cls, text: str) -> ParContract:
        """Read ``6C= NS``, ``5HX-2 S``, ``4S+1 N`` (the form ``str`` writes)."""
        if not isinstance(text, str):
            raise NotationError(f"a par contract must be text, not {text!r}")
        match = _PAR_CONTRACT_RE.match(text)
        if match is None:
            raise NotationError(
                f"not a par contract: {text!r}: expected a result and its declarer(s), "
                "as in '6C= NS' or '5HX-2 N'"
            )
        who = match["who"].upper()
        declarers = Side.parse(who).seats if len(who) == 2 else (Seat.parse(who),)
        try:
            result = parse_result(match["result"])
        except NotationError as error:
            raise NotationError(f"not a par contract: {text!r}: {error}") from None
        if result.contract is None or result.tricks is None:
            raise NotationError(f"not a par contract: {text!r}: a par contract is not a pass")
        if result.contract.declarer is not None:
            raise NotationError(f"{text!r} names the declarer twice: expected it once, at the end")
        return cls(result.contract, declarers, result.relative)

    def __str__(self) -> str:
        contract = self.contract
        relative = self.relative
        outcome = "=" if relative == 0 else f"{relative:+d}"
        who = self.declarers[0].letter if len(self.declarers) == 1 else self.side.name
        return f"{contract.level}{contract.strain.letter}{contract.doubling}{outcome} {who}"

    def __repr__(self) -> str:
        return f"ParContract.parse({str(self)!r})"

    def _html(self) -> Markup:
        """:meth:`__str__` with the suit as a coloured symbol: ``6♣= NS``."""
        level, strain = self.contract.level, self.contract.strain
        # What __str__ writes after the level (one digit) and the strain's letter:
        # doubling, result and declarer(s).
        rest = str(self)[1 + len(strain.letter) :]
        return Markup(f"{level}{strain_html(strain)}{text_html(rest)}")


@dataclass(frozen=True, slots=True)
class Par:
    """The par of a deal: the score (North-South's view), its contracts and convention.

    ``contracts`` are in rank order; empty when the deal is passed out.

    >>> table = DDTable.parse("a989ca989c3453134531")
    >>> str(par(table, Vulnerability.NONE))
    'NS +920: 6C= NS'
    """

    score: int
    contracts: tuple[ParContract, ...]
    convention: Convention = "neutral"

    def __post_init__(self) -> None:
        if self.convention not in ("neutral", "dealer"):
            raise NotationError(
                f"par convention {self.convention!r}: expected 'neutral' or 'dealer'"
            )

    @property
    def side(self) -> Side | None:
        """The side that scores plus, or None when passed out."""
        if self.score == 0:
            return None
        return Side.NS if self.score > 0 else Side.EW

    @property
    def is_passed_out(self) -> bool:
        return self.score == 0

    def as_dict(self) -> dict[str, object]:
        """``{"score": 920, "convention": "neutral", "contracts": ["6C= NS"]}`` for JSON."""
        return {
            "score": self.score,
            "convention": self.convention,
            "contracts": [str(contract) for contract in self.contracts],
        }

    def _repr_html_(self) -> str:
        """``Par NS +920: 6♣= NS`` in a notebook, suits as coloured symbols."""
        if not self.contracts:
            return Markup(f"<div>Par {text_html(str(self))}</div>")
        side = self.side
        assert side is not None
        contracts = ", ".join(contract._html() for contract in self.contracts)
        return Markup(f"<div>Par {side.name} +{abs(self.score)}: {contracts}</div>")

    def __str__(self) -> str:
        if not self.contracts:
            return f"{self.score}: passed out" if self.score == 0 else f"{self.score:+d}"
        side = self.side
        assert side is not None
        return f"{side.name} +{abs(self.score)}: " + ", ".join(map(str, self.contracts))


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
