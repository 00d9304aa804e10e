"""A Swiss teams event's plan (:class:`SwissPlan`, kept in the event file) and its byes
in the ranking in victory points: each bye a match of its own, its VPs added to the
team's total (:func:`with_byes`).

A bye has no boards and no opponent, so the scorer, which works from results, never
sees it; the event's movement says who sat out (its sit-outs), the event's plan what a
bye scores (:func:`~bridgescore.movement.swiss.bye_score`).

>>> from bridgescore.session.scoring.scored import Standing
>>> ranked_teams = (Standing("1", "1", "", "", 15.0, 8), Standing("2", "2", "", "", 5.0, 8))
>>> matches, standings = with_byes((), ranked_teams, [(1, "3")], 12.0, "")
>>> matches[0].as_dict()["vp"], [(s.rank, s.name, s.total) for s in standings]
([12.0], [('1', '1', 15.0), ('2', '3', 12.0), ('3', '2', 5.0)])
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bridgescore.errors import RecordError
from bridgescore.movement.model import Movement
from bridgescore.session.scoring.columns import ranked
from bridgescore.session.scoring.event import natural_key
from bridgescore.session.scoring.matches import Match
from bridgescore.session.scoring.scored import Standing

__all__ = ["SwissPlan", "with_byes"]


@dataclass(frozen=True, slots=True)
class SwissPlan:
    """What ``session new --movement swiss`` (or ``swiss-pairs``) fixed: the teams (or
    pairs) in seeding order, the rounds to play, the boards of a round, what a bye
    scores (VPs) and the field: ``"teams"`` or ``"pairs"``."""

    teams: tuple[str, ...]
    rounds: int
    boards_per_round: int
    bye_victory_points: float
    # "teams", or "pairs" for a Swiss pairs (``teams`` then lists the pairs).
    field: str = "teams"

    @property
    def method(self) -> str:
        """The scoring method of its standings: ``vp`` (teams) or ``butler-vp`` (pairs)."""
        return "butler-vp" if self.field == "pairs" else "vp"

    def to_json(self) -> str:
        data: dict[str, Any] = {
            "teams": list(self.teams),
            "rounds": self.rounds,
            "boards_per_round": self.boards_per_round,
            "bye_vp": self.bye_victory_points,
        }
        if self.field != "teams":
            data["field"] = self.field
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> SwissPlan:
        """The plan as :meth:`to_json` wrote it (a :class:`RecordError` otherwise)."""
        try:
            data: Any = json.loads(text)
            return cls(
                tuple(str(team) for team in data["teams"]),
                int(data["rounds"]),
                int(data["boards_per_round"]),
                float(data["bye_vp"]),
                str(data.get("field", "teams")),
            )
        except (ValueError, TypeError, KeyError) as error:
            raise RecordError(f"the event's Swiss plan cannot be read: {error}") from None

    def byes(self, movement: Movement) -> list[tuple[int, str]]:
        """Each ``(round, team)`` that had a bye in the rounds drawn so far."""
        return [(sitout.round, sitout.pair) for sitout in movement.sitouts]


def with_byes(
    matches: Sequence[Match],
    standings: Sequence[Standing],
    byes: Sequence[tuple[int, str]],
    victory_points: float,
    section: str,
    between: str = "teams",
) -> tuple[tuple[Match, ...], tuple[Standing, ...]]:
    """The matches with one bye match per ``(round, team)`` in ``byes`` (in round
    order with the rest), and the standings with each bye's ``victory_points`` added
    and ranked again (a team that has only had a bye so far is ranked too)."""
    if not byes:
        return tuple(matches), tuple(standings)
    extra = [
        Match(section, team, "", 0, 0.0, 0.0, victory_points, 0.0, rnd, between)
        for rnd, team in byes
    ]
    merged = sorted([*matches, *extra], key=lambda m: m.round if m.round is not None else 1 << 30)
    totals = {(s.section, s.name): [s.total, s.boards] for s in standings}
    for _, team in byes:
        totals.setdefault((section, team), [0.0, 0])[0] += victory_points
    rows: list[tuple[str, str, float, int, None]] = [
        (name, place, float(total), int(boards), None)
        for (place, name), (total, boards) in totals.items()
    ]
    rows.sort(key=lambda r: (-round(r[2], 6), natural_key(r[1] + r[0])))
    return tuple(merged), tuple(ranked(list(rows), ""))
