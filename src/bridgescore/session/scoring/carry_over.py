"""A match scored in segments: the scores a vugraph archive carries over from earlier
segments, counted into the teams' totals when the event is scored (the archive is read
by :mod:`bridgescore.session.importers.vugraph`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from bridgescore.session.scoring.event import natural_key
from bridgescore.session.scoring.scored import SessionScore

__all__ = ["with_carried_over"]


def with_carried_over(
    scored: SessionScore, carried: Mapping[str, Decimal], segment: str = ""
) -> SessionScore:
    """The scored match with the carried-over scores counted, the teams ranked again
    (ties shown ``1=``) and the segment named in the title.

    IMP totals are net (IMPs won less IMPs lost), so a team's total moves by its
    carry-over less its opponents'; board-a-match totals are boards won, so by its
    own. A note gives the match score as it is announced: each team's IMPs (or
    boards) won, carry-over included.
    """
    name = scored.name
    if segment and segment not in name:
        name = f"{name}, {segment}" if name else segment
    if not carried:
        return replace(scored, name=name)
    net = scored.method == "imps"
    carry = {team: float(value) for team, value in carried.items()}

    def moved(team: str) -> float:
        if team not in carry:
            return 0.0
        others = sum(value for other, value in carry.items() if other != team)
        return carry[team] - others if net else carry[team]

    totals = [replace(s, total=round(s.total + moved(s.name), 2)) for s in scored.standings]
    totals.sort(key=lambda s: (-s.total, natural_key(s.name)))
    keys = [s.total for s in totals]
    ranked = [
        replace(s, rank=f"{keys.index(s.total) + 1}{'=' if keys.count(s.total) > 1 else ''}")
        for s in totals
    ]
    won = _won(scored) if net else {s.name: s.total for s in scored.standings}
    score = {team: round(won.get(team, 0.0) + value, 2) for team, value in carry.items()}
    shown = ", ".join(
        f"{team} {score[team]:g}" for team in sorted(score, key=lambda t: (-score[t], t))
    )
    notes = (
        "carried over from earlier segments: "
        + ", ".join(f"{team} {value}" for team, value in carried.items()),
        f"match score with the carry-over: {shown}",
    )
    return replace(scored, name=name, standings=tuple(ranked), notes=(*scored.notes, *notes))


def _won(scored: SessionScore) -> dict[str, float]:
    """Each team's IMPs won: each table's positive IMPs to the team sitting NS there
    (both teams sit NS once on each board, so each board counts once per team)."""
    won: dict[str, float] = defaultdict(float)
    for traveller in scored.travellers:
        for line in traveller.lines:
            if line.ns is not None:
                won[line.result.ns] += max(line.ns, 0.0)
    return dict(won)
