"""A pairs event scored match by match in victory points, as a Swiss pairs is.

Each board is scored in Butler IMPs against the field's datum (the ``butler`` method:
the mean of the board's NS scores, the highest and the lowest left out when there are
at least three, rounded to 10; :func:`~bridgescore.compare.scalar.butler_datum`). A
*match* is the boards two pairs played against each other at one table. On each board
the pair that beat the datum won its IMPs (the NS pair's Butler IMPs when positive, the
EW pair's when those are): each pair's IMPs in the match are what it won, and the
match's margin (the NS pair's IMPs less the EW pair's) is the NS pair's net Butler
score over the match. That margin is turned into VPs on the WBF continuous scale for
the match's boards (:func:`~bridgescore.session.scoring.matches.scored_match`), and
pairs are ranked by their VPs.

>>> from bridgescore.session.scoring.event import Event, TableResult
>>> from bridgescore.session.scoring.scorer import score_event
>>> # +400, -50, +400: the datum is 400 (the middle score), -50 is 10 IMPs below it.
>>> event = Event("Swiss", results=(TableResult.played(1, "1", "2", "3NTS="),
...     TableResult.played(1, "3", "4", "3NTS-1"), TableResult.played(1, "5", "6", "3NTS=")))
>>> scored = score_event(event, "butler-vp")
>>> [(m.home, m.away, m.home_imps, m.away_imps, m.home_vp) for m in scored.matches]
[('1', '2', 0.0, 0.0, 10.0), ('5', '6', 0.0, 0.0, 10.0), ('3', '4', 0.0, 10.0, 1.91)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bridgescore.session.scoring.columns import ranked
from bridgescore.session.scoring.event import natural_key
from bridgescore.session.scoring.matches import Match, scored_match
from bridgescore.session.scoring.scored import ScoredBoard, Standing

__all__ = ["pair_matches"]


def pair_matches(
    travellers: Sequence[ScoredBoard],
) -> tuple[tuple[Match, ...], tuple[Standing, ...]]:
    """The matches of a pairs event whose boards are scored in IMPs (each board's
    ``travellers``, Butler), each in VPs, and the pairs ranked by their VPs (equal VPs
    share a place). Matches are listed as the travellers first meet them."""
    # (section, NS pair, EW pair) -> [NS pair's IMPs, EW pair's IMPs, boards]
    played: dict[tuple[str, str, str], list[float]] = {}
    for traveller in travellers:
        for line in traveller.lines:
            if line.ns is None or line.ew is None:
                continue
            key = (traveller.section, line.result.ns, line.result.ew)
            entry = played.setdefault(key, [0.0, 0.0, 0])
            entry[0] += max(line.ns, 0.0)
            entry[1] += max(line.ew, 0.0)
            entry[2] += 1
    matches = [
        replace(scored_match(section, ns, ew, int(boards), ns_imps, ew_imps), between="pairs")
        for (section, ns, ew), (ns_imps, ew_imps, boards) in played.items()
    ]
    totals: dict[tuple[str, str], list[float]] = {}
    for match in matches:
        for pair, vps in ((match.home, match.home_vp), (match.away, match.away_vp)):
            entry = totals.setdefault((match.section, pair), [0.0, 0])
            entry[0] += vps
            entry[1] += match.boards
    rows: list[tuple[str, str, float, int, None]] = [
        (pair, section, round(total, 2), int(boards), None)
        for (section, pair), (total, boards) in totals.items()
    ]
    rows.sort(key=lambda r: (-r[2], natural_key(r[1] + r[0])))
    return tuple(matches), tuple(ranked(list(rows), ""))
