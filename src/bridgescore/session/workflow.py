"""Scoring a stored event: load it, find the boards' pars, pick the method, score.

The one sequence behind ``bridgescore session score|report`` and the web page's
Session view, so both score an event file the same way.

>>> from bridgescore.session.scoring.event import TableResult
>>> from bridgescore.session.store.events import EventStore, Origin
>>> with EventStore(":memory:") as store:
...     _ = store.add_results([(TableResult.played(1, "1", "2", "4SN="), Origin()),
...                            (TableResult.played(1, "3", "4", "4SN+1"), Origin())])
...     scored = score_stored_event(store)
>>> scored.method, [(s.name, s.total) for s in scored.standings][:2]
('mp', [('3', 2.0), ('1', 0.0)])
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Literal

from bridgescore.errors import BridgeError
from bridgescore.session.pars import board_pars
from bridgescore.session.scoring.event import Event
from bridgescore.session.scoring.individual import ranked_by_player
from bridgescore.session.scoring.matches import with_rounds
from bridgescore.session.scoring.methods import (
    ScoringMethod,
    ScoringOptions,
    default_method,
    scoring_method,
)
from bridgescore.session.scoring.scored import BoardPar, SessionScore
from bridgescore.session.scoring.scorer import score_event
from bridgescore.session.scoring.swiss import SwissPlan, with_byes
from bridgescore.session.store.events import EventStore

__all__ = [
    "ParSource",
    "score_stored_event",
    "stored_home",
    "stored_method",
    "stored_options",
]

ParSource = Literal["none", "stored", "solve"]
"""Where board pars come from: nowhere; only double-dummy tables already in the
event file (never starts the solver, never writes); or those plus DDS for every
board with a deal, the solved tables cached in the file (unless the event is
open read-only: then they are solved again next time, and a note says so)."""


def stored_method(store: EventStore) -> ScoringMethod:
    """The method an event is scored by when none is asked for: the one the event
    remembers (named by an imported USEBIO file); else, for a teams event made from a
    movement (``session new --movement teams``), victory points, match by match, as a
    round robin is ranked; else the usual one for its kind."""
    if store.method is not None:
        return scoring_method(store.method)
    movement = store.movement
    if movement is not None and movement.kind == "teams":
        return scoring_method("vp")
    return default_method(store.kind)


def stored_options(
    store: EventStore, options: ScoringOptions | None = None, *, per_section: bool | None = None
) -> ScoringOptions | None:
    """``options`` with the sections compared as the event chose (``session new
    --score-across`` or per section), unless ``per_section`` says otherwise."""
    across = store.sections_across
    if per_section is None and across is not None:
        per_section = not across
    if per_section is not None:
        return replace(options or ScoringOptions(), per_section=per_section)
    return options


# A pair named with its home direction, as an imported two-winner USEBIO file names them.
_HOME_NAMED = re.compile(r"^\d+(NS|EW)$")


def stored_home(store: EventStore, event: Event | None = None) -> dict[str, str]:
    """Each pair's home direction (``{"1N": "NS", "1E": "EW"}``), so that a pair that sat
    the other way at a table (``session swap``, an arrow-switched round) is ranked in its
    own field: the event's movement's, else the one its name carries when every pair's
    name carries one, as a two-winner USEBIO file's pairs are named (``1NS``, ``1EW``);
    else none. ``event``: the stored event, when already loaded."""
    movement = store.movement
    if movement is not None:
        return movement.home_directions()
    if store.kind == "teams":
        return {}
    named = {name: _HOME_NAMED.match(name) for name in (event or store.load()).participants()}
    if named and all(named.values()):
        return {name: match[1] for name, match in named.items() if match is not None}
    return {}


def score_stored_event(
    store: EventStore,
    method: str | ScoringMethod | None = None,
    options: ScoringOptions | None = None,
    *,
    pars: ParSource = "none",
    progress: Callable[[int, int], object] | None = None,
    per_section: bool | None = None,
) -> SessionScore:
    """Score the event in ``store`` by ``method``.

    An event no imported file named takes its file's name (``club.db``: ``club``).
    The default method is :func:`stored_method`'s. ``per_section`` (``True``: within
    each section, ``False``: across the field) overrides ``options``; ``None`` keeps
    the event's own choice (``session new --score-across`` or not) when it made one.

    With ``pars="solve"``, boards whose par cannot be found (no DDS installed)
    are reported in the result's notes, not raised. Raises a
    :class:`~bridgescore.errors.BridgeError` subclass for an event file that
    cannot be read, an unknown method or one that does not fit the event.
    """
    chosen = None if method is None else scoring_method(method)
    options = stored_options(store, options, per_section=per_section)
    event = store.load()
    chosen = chosen or stored_method(store)
    found: dict[int, BoardPar] | None = None
    notes: list[str] = []
    if pars != "none" and event.boards:
        solve = pars == "solve"
        try:
            lookup = board_pars(event.boards, solve=solve, progress=progress)
        except (BridgeError, ImportError) as error:
            notes.append(f"no pars: {error}")
        else:
            if store.read_only and lookup.solved:
                notes.append(
                    f"{len(lookup.solved)} double-dummy table(s) solved but not cached: "
                    f"{store.path!r} is open read-only"
                )
            elif lookup.solved:
                for number, table in lookup.solved.items():
                    store.set_dd_table(number, table)
            found = lookup.pars
            if solve:
                # Without solving, boards lacking a table are by design, not news.
                notes.extend(lookup.notes)
    movement = store.movement
    scored = score_event(event, chosen, options, pars=found, home=stored_home(store, event))
    if scored.matches:
        scored = replace(scored, matches=with_rounds(scored.matches, movement))
    if movement is not None and movement.kind == "individual":
        # Scored as pairs, its partnerships the pairs; ranked by each player's share.
        scored = ranked_by_player(scored)
    plan_text = store.swiss_plan
    in_vps = scored.scored_by is not None and scored.scored_by.victory_points
    if plan_text is not None and movement is not None and in_vps:
        # A Swiss bye scores VPs with no boards: added here, where the movement is known.
        plan = SwissPlan.from_json(plan_text)
        matches, standings = with_byes(
            scored.matches,
            scored.standings,
            plan.byes(movement),
            plan.bye_victory_points,
            "",
            plan.field,
        )
        scored = replace(scored, matches=matches, standings=standings)
    if event.kind == "teams" and (store.segment or store.carry_over):
        from bridgescore.session.scoring.carry_over import with_carried_over

        # A vugraph match's carry-over is in its own scoring: added only when scored so.
        same = chosen.name == (store.method or chosen.name)
        scored = with_carried_over(scored, store.carry_over if same else {}, store.segment)
    if notes:
        scored = replace(scored, notes=(*scored.notes, *notes))
    # An event no file named is titled by its file (club.db: "club"), never "Event":
    # the CLI's reports and the web's pages all score through here.
    if not scored.name.strip() and store.path != ":memory:":
        scored = replace(scored, name=Path(store.path).stem)
    return scored
