"""DDS solved directly through endplay, for tests that check our figures by a route of
their own (not through bridgescore.solver)."""

from __future__ import annotations

import endplay.dds as dds
import endplay.types as ep

from bridgescore.core import Seat, Strain

# endplay's strains: spades 0, hearts 1, diamonds 2, clubs 3, notrump 4.
_DENOM = {
    Strain.SPADES: 0,
    Strain.HEARTS: 1,
    Strain.DIAMONDS: 2,
    Strain.CLUBS: 3,
    Strain.NOTRUMP: 4,
}
_LETTERS = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C"})


def endplay_deal(pbn: str, strain: Strain, declarer: Seat) -> ep.Deal:
    """The deal in endplay's form, the opening leader (declarer's left) on lead."""
    deal = ep.Deal(pbn)
    deal.trump = ep.Denom(_DENOM[strain])
    deal.first = ep.Player(int(declarer.rotate(1)))
    return deal


def tricks_after_each_lead(pbn: str, strain: Strain, declarer: Seat) -> dict[str, int]:
    """Declarer's double-dummy tricks after each card the leader may lead (``SA``, ``HT``),
    from DDS's all-cards SolveBoard."""
    deal = endplay_deal(pbn, strain, declarer)
    return {str(card).translate(_LETTERS): 13 - t for card, t in dds.solve_board(deal)}
