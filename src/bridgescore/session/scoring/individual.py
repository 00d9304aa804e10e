"""An individual event ranked player by player.

In an individual movement the rows name partnerships (``"3-7"``: player 3 North, 7
South; :func:`~bridgescore.movement.model.partnership_players`), each partnership plays
one round, and the boards are scored as a pairs event's, each partnership a pair. A
player's score is then the sum of their side's points on every board they played: with
matchpoints, the matchpoints their side earned over the tops of those boards, as a
percentage (so a player who played fewer boards, or boards with a smaller top, is ranked
fairly: by share, not by total); with an IMP method, the IMPs. Players are ranked as
pairs are: by percentage (matchpoints) or by total, ties sharing a place.

>>> from bridgescore.session.scoring.event import Event, TableResult
>>> from bridgescore.session.scoring.scorer import score_event
>>> results = (TableResult.played(1, "1-2", "3-4", "4SN="),
...            TableResult.played(1, "5-6", "7-8", "4SN+1"))
>>> ranked = individual_standings(score_event(Event("Indy", results=results), "mp"))
>>> [(s.rank, s.name, s.percent) for s in ranked][:5]
[('1=', '3', 100.0), ('1=', '4', 100.0), ('1=', '5', 100.0), ('1=', '6', 100.0), ('5=', '1', 0.0)]
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from fractions import Fraction

from bridgescore.compare.scalar import TENTHS
from bridgescore.errors import RecordError
from bridgescore.movement.model import partnership_players
from bridgescore.session.scoring.columns import ranked
from bridgescore.session.scoring.event import natural_key
from bridgescore.session.scoring.scored import SessionScore, Standing

__all__ = ["individual_standings", "ranked_by_player"]


def _players(pair: str) -> tuple[str, str]:
    found = partnership_players(pair)
    if found is None:
        raise RecordError(
            f"pair {pair!r} is not an individual's partnership: expected two players' numbers"
            " joined by a dash (3-7)"
        )
    return found


def individual_standings(scored: SessionScore) -> tuple[Standing, ...]:
    """Each player's standing in the scored individual event ``scored`` (scored as
    pairs, its pairs named ``"N-S"``/``"E-W"`` by their players): total, boards played
    and (matchpoints) percentage of the tops of those boards.

    Raises :class:`~bridgescore.errors.RecordError` naming a pair that is not two
    players."""
    exact = scored.scoring_method.shows_percent
    # (section, player) -> [points, boards, tops]; matchpoints and tops in whole tenths.
    sums: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0, 0])
    for traveller in scored.travellers:
        top = traveller.top or 0.0
        for line in traveller.lines:
            for pair, points in ((line.result.ns, line.ns), (line.result.ew, line.ew)):
                if points is None:
                    continue
                for player in _players(pair):
                    entry = sums[(traveller.section, player)]
                    entry[0] += round(points * TENTHS) if exact else points
                    entry[1] += 1
                    entry[2] += round(top * TENTHS)
    rows = [
        (
            player,
            section,
            total / TENTHS if exact else total,
            int(boards),
            Fraction(int(total) * 100, int(tops)) if exact and tops else None,
        )
        for (section, player), (total, boards, tops) in sums.items()
    ]
    rows.sort(key=lambda r: (-(r[4] if r[4] is not None else r[2]), natural_key(r[1] + r[0])))
    return tuple(ranked(rows, ""))


def ranked_by_player(scored: SessionScore) -> SessionScore:
    """``scored`` (an individual event scored as pairs) with its ranking player by
    player (:func:`individual_standings`) and its kind ``"individual"``."""
    return replace(scored, kind="individual", standings=individual_standings(scored))
