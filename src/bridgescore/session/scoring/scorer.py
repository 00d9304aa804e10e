"""Scoring an event: travellers (each result with its score and MPs or IMPs) and rankings.

Pairs events: matchpoints (``mp``, Neuberg'd to the event's full board size),
Butler IMPs (``butler``) or cross-IMPs (``cross-imps``). Teams events: IMPs
(``imps``) or board-a-match (``bam``) between the two tables of each match. The
methods are data (:mod:`bridgescore.session.scoring.methods`): the scorer groups the
results, makes one comparison call for the whole event and shapes the answer.
Pure: takes an :class:`~bridgescore.session.scoring.event.Event` (and board pars when
known) and returns values.

>>> from bridgescore.session.scoring.event import Event, TableResult
>>> event = Event("demo", "pairs", results=(
...     TableResult.played(1, "1", "2", "4SN="), TableResult.played(1, "3", "4", "4SN+1")))
>>> [(s.name, s.total) for s in score_event(event, "mp").standings]
[('3', 2.0), ('1', 0.0), ('2', 2.0), ('4', 0.0)]
"""

from __future__ import annotations

from collections.abc import Mapping

from bridgescore.errors import RecordError, ScoringMethodError
from bridgescore.session.scoring.columns import cyclic_gc_paused
from bridgescore.session.scoring.event import Event
from bridgescore.session.scoring.matches import Match
from bridgescore.session.scoring.methods import (
    Method,
    ScoringMethod,
    ScoringOptions,
    methods_for,
    scoring_method,
)
from bridgescore.session.scoring.pair_matches import pair_matches
from bridgescore.session.scoring.pairs import score_pairs
from bridgescore.session.scoring.scored import BoardPar, SessionScore
from bridgescore.session.scoring.teams import score_teams

__all__ = ["score_event"]


def score_event(
    event: Event,
    method: Method | ScoringMethod,
    options: ScoringOptions | None = None,
    *,
    pars: Mapping[int, BoardPar] | None = None,
    home: Mapping[str, str] | None = None,
) -> SessionScore:
    """Score every board and rank the pairs or teams.

    ``method`` is a method's name or the method itself. ``home`` gives pairs' home
    directions (``{"1N": "NS", "1E": "EW"}``, from a Mitchell's movement): each pair
    named is ranked in its home direction's field with all its boards, so a pair
    that sat the wrong way at one table (``session swap``) stays in its own field;
    without it, pairs are ranked in two fields only when each kept one direction. Raises
    :class:`~bridgescore.errors.ScoringMethodError` for an unknown method or
    one that does not fit the event (matchpoints for a teams match, IMPs
    between two tables for pairs), and :class:`~bridgescore.errors.RecordError`
    for an event without results.
    """
    options = options or ScoringOptions()
    pars = pars or {}
    chosen = scoring_method(method)
    if chosen.kind != event.kind:
        raise ScoringMethodError(_misfit(event, chosen))
    if not event.results:
        raise RecordError(f"{event.name or 'the event'} has no results to score")
    matches: list[Match] = []
    with cyclic_gc_paused():
        if chosen.kind == "teams":
            travellers, standings, notes = score_teams(event, chosen, options, pars, matches)
        else:
            travellers, standings, notes = score_pairs(event, chosen, options, pars, home or {})
            if chosen.victory_points:
                found, ranked_in_vps = pair_matches(travellers)
                matches.extend(found)
                standings = list(ranked_in_vps)
    return SessionScore(
        event.name,
        event.kind,
        chosen.name,
        chosen.unit,
        options,
        tuple(travellers),
        tuple(standings),
        tuple(notes),
        chosen,
        event.members,
        tuple(matches),
    )


def _misfit(event: Event, method: ScoringMethod) -> str:
    """Why ``method`` cannot score ``event``, naming the methods that can."""
    fitting = [m.name for m in methods_for(event.kind)]
    text = f"{event.name or 'this event'} is a {event.kind} event: score it with "
    text += _listed(fitting, "or")
    if event.kind == "pairs":
        teams = _listed([m.name for m in methods_for("teams")], "and")
        text += f" ({teams} compare the two tables of a teams match)"
    return text


def _listed(names: list[str], word: str) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return f"{', '.join(names[:-1])} {word} {names[-1]}" if len(names) > 1 else names[0]
