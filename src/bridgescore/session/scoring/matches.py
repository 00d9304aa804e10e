"""The matches of a teams event scored in victory points: one :class:`Match` each.

A match is every board two teams played against each other in a section. Its IMPs
are each team's IMPs won on those boards (the boards a team lost give the other team
their IMPs), its VPs the margin on the WBF continuous scale for that many boards
(:func:`~bridgescore.movement.vp.victory_points`). The scorer makes them
(:mod:`bridgescore.session.scoring.scorer`); an event made from a movement knows each
match's round (:func:`with_rounds`).

>>> match = Match("", "1", "4", 8, 12.0, 11.0, 10.44, 9.56)
>>> match.margin, match.as_dict()["vp"]
(1.0, [10.44, 9.56])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from bridgescore.compare.scalar import round_half_away
from bridgescore.movement.model import Movement
from bridgescore.movement.vp import victory_points

__all__ = [
    "MATCH_HEADERS",
    "Match",
    "match_headers",
    "match_rows",
    "scored_match",
    "with_rounds",
]

#: The columns of the matches' table in the reports (text and HTML).
MATCH_HEADERS = ("Round", "Section", "Teams", "IMPs", "VPs")


@dataclass(frozen=True, slots=True)
class Match:
    """One match: its section, the two teams (``home`` sat NS at the table the match is
    counted at), its boards, each team's IMPs and VPs, and its round when known."""

    section: str
    home: str
    away: str
    boards: int
    home_imps: float
    away_imps: float
    home_vp: float
    away_vp: float
    round: int | None = None
    # Who plays the match: "teams", or "pairs" (a Swiss pairs' match at one table).
    between: str = "teams"

    @property
    def bye(self) -> bool:
        """A Swiss bye: the team sat out the round (no opponent, no boards) and scored
        its VPs as the event's rule says (:mod:`~bridgescore.session.scoring.byes`)."""
        return self.away == ""

    @property
    def margin(self) -> float:
        """The home team's IMP margin (negative when it lost)."""
        return self.home_imps - self.away_imps

    def as_dict(self) -> dict[str, Any]:
        """The match as the ranking document (``session score --json``) lists it; a bye
        lists its one team and ``"bye": true``."""
        if self.bye:
            return {
                "round": self.round,
                "section": self.section,
                self.between: [self.home],
                "bye": True,
                "boards": 0,
                "imps": [0.0],
                "vp": [self.home_vp],
            }
        return {
            "round": self.round,
            "section": self.section,
            self.between: [self.home, self.away],
            "boards": self.boards,
            "imps": [self.home_imps, self.away_imps],
            "vp": [self.home_vp, self.away_vp],
        }


def scored_match(
    section: str, home: str, away: str, boards: int, home_imps: float, away_imps: float
) -> Match:
    """The match with each team's VPs for its margin over ``boards`` boards.

    IMPs and artificial adjusted IMPs are whole; a weighted score's may be a fraction, and
    the margin is then rounded to a whole IMP, halves away from zero, as the scale has
    one value a whole IMP.

    >>> scored_match("", "1", "2", 10, 15, 5).home_vp
    13.43
    """
    margin = int(round_half_away(home_imps - away_imps, 0))
    return Match(
        section,
        home,
        away,
        boards,
        home_imps,
        away_imps,
        victory_points(margin, boards=boards),
        victory_points(-margin, boards=boards),
    )


def with_rounds(matches: Sequence[Match], movement: Movement | None) -> tuple[Match, ...]:
    """The matches, each with the round the movement has the two teams meet in (a
    match the movement does not have keeps ``None``), in round order; a Swiss pairs'
    matches of a round in table order, as the round was drawn."""
    if movement is None:
        return tuple(matches)
    met: dict[frozenset[str], tuple[int, int]] = {}
    for row in movement.rows:
        met.setdefault(frozenset((row.ns, row.ew)), (row.round, row.table))
    placed = []
    for match in matches:
        found = met.get(frozenset((match.home, match.away)))
        table = found[1] if found is not None and match.between == "pairs" else 0
        placed.append((table, replace(match, round=None if found is None else found[0])))
    # Python's sort is stable: teams matches of one round keep the scorer's order.
    placed.sort(key=lambda item: (item[1].round if item[1].round is not None else 1 << 30, item[0]))
    return tuple(match for _, match in placed)


def match_headers(matches: Sequence[Match]) -> tuple[str, ...]:
    """:data:`MATCH_HEADERS`, with ``Pairs`` for ``Teams`` when the matches are a Swiss
    pairs'.

    >>> match_headers([Match("", "1", "4", 8, 12.0, 11.0, 10.44, 9.56, 1, "pairs")])[2]
    'Pairs'
    """
    if matches and all(match.between == "pairs" for match in matches):
        return tuple("Pairs" if header == "Teams" else header for header in MATCH_HEADERS)
    return MATCH_HEADERS


def match_rows(matches: Sequence[Match]) -> list[tuple[str, ...]]:
    """The matches as the reports print them, one row each (columns
    :data:`MATCH_HEADERS`; the section column is blank in a one-section event).

    >>> match_rows([Match("", "1", "4", 8, 12.0, 11.0, 10.44, 9.56, round=1)])
    [('1', '', '1 v 4', '12-11', '10.44-9.56')]
    """
    return [
        (
            "" if m.round is None else str(m.round),
            m.section,
            f"{m.home} bye" if m.bye else f"{m.home} v {m.away}",
            "" if m.bye else f"{m.home_imps:g}-{m.away_imps:g}",
            f"{m.home_vp:.2f}" if m.bye else f"{m.home_vp:.2f}-{m.away_vp:.2f}",
        )
        for m in matches
    ]
