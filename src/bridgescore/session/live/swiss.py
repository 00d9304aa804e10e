"""A Swiss teams (or Swiss pairs) event live: made with round 1 drawn, each later round
drawn from the standings once every result of the round before is in.

A Swiss pairs plays each match at one table (the higher-ranked pair NS), every table on
the round's boards, and is scored by ``butler-vp``
(:mod:`~bridgescore.session.scoring.pair_matches`): Butler IMPs against the field's
datum, each match's margin in VPs.

The draw itself is :func:`~bridgescore.movement.swiss.swiss_draw` (the rule and its
sources: docs/movements.md, "Swiss teams"); here it meets the event file. The event's
movement holds the rounds drawn so far (each round's matches at tables 1-2, 3-4, ...,
on that round's own boards; a bye is a sit-out), and grows by one round per draw,
stored with its audit entry in one transaction. The event's plan
(:class:`~bridgescore.session.scoring.swiss.SwissPlan`) keeps what ``session new``
fixed: the seeding, the rounds, the boards of a round and a bye's VPs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bridgescore.errors import RecordError, RoundOpenError
from bridgescore.movement.model import Movement
from bridgescore.movement.swiss import (
    SwissRound,
    bye_score,
    swiss_draw,
    swiss_pairs_round_movement,
    swiss_seeding,
)
from bridgescore.movement.teams import swiss_round_movement
from bridgescore.session.live.creation import DEFAULT_URL_BASE, NewEvent, create_event
from bridgescore.session.live.seating import pairs_at
from bridgescore.session.scoring.swiss import SwissPlan
from bridgescore.session.store.live import LiveStore
from bridgescore.validate import whole_number_arg

__all__ = [
    "MAX_SWISS_TEAMS",
    "SwissDrawn",
    "create_swiss_event",
    "create_swiss_pairs_event",
    "draw_event_round",
    "draw_next_round",
    "missing_tables",
]

#: The largest Swiss field made (a club's or a congress's teams).
MAX_SWISS_TEAMS = 200


@dataclass(frozen=True, slots=True)
class SwissDrawn:
    """A round drawn: its number, its matches (higher-ranked team first, with the two
    tables each is played at) and the team with the bye."""

    round: int
    matches: tuple[tuple[str, str], ...]
    bye: str | None
    field: str = "teams"  # or "pairs": a Swiss pairs' round

    @property
    def match_tables(self) -> tuple[tuple[int, ...], ...]:
        """The tables each match is played at, in the order of :attr:`matches`: tables
        1 and 2, 3 and 4, ... (teams), or table 1, 2, ... (pairs)."""
        count = len(self.matches)
        if self.field == "pairs":
            return tuple((number,) for number in range(1, count + 1))
        return tuple((2 * number - 1, 2 * number) for number in range(1, count + 1))

    def as_dict(self) -> dict[str, Any]:
        """The ``session draw --json`` document (and the API's answer)."""
        return {
            "round": self.round,
            "matches": [
                {self.field: [home, away], "tables": list(tables)}
                for (home, away), tables in zip(self.matches, self.match_tables)
            ],
            "bye": self.bye,
        }

    def describe(self) -> str:
        """One line, as the audit log records it: ``round 2: 1 v 4, 3 v 2; bye 5``."""
        text = f"round {self.round}: " + ", ".join(f"{a} v {b}" for a, b in self.matches)
        return text if self.bye is None else f"{text}; bye {self.bye}"


def _drawn(drawn: SwissRound, round_number: int, field: str) -> SwissDrawn:
    return SwissDrawn(round_number, drawn.matches, drawn.bye, field)


def _round_movement(drawn: SwissRound, plan: SwissPlan, round_number: int) -> Movement:
    """A drawn round as the event's movement plays it: two tables a match (teams) or one."""
    if plan.field == "pairs":
        return swiss_pairs_round_movement(
            drawn, round_number=round_number, boards_per_round=plan.boards_per_round
        )
    return swiss_round_movement(
        drawn, round_number=round_number, boards_per_round=plan.boards_per_round
    )


def _create(
    path: str | Path,
    field: str,
    entries: int,
    rounds: int,
    boards_per_round: int,
    seed: int | None,
    name: str | None,
    url_base: str,
) -> tuple[NewEvent, SwissDrawn]:
    entries = whole_number_arg(entries, field, 2, MAX_SWISS_TEAMS)
    boards_per_round = whole_number_arg(boards_per_round, "boards per round", 1)
    # Each round needs a pairing no earlier round used: with T entries none can meet
    # more than T - 1 others (T of them counting a bye in an odd field).
    most = entries - 1 + entries % 2
    rounds = whole_number_arg(rounds, "rounds", 1, most)
    seeding = swiss_seeding([str(entry) for entry in range(1, entries + 1)], seed)
    standings = [(entry, 0.0, 0.0) for entry in seeding]
    first = swiss_draw(standings, round_number=1)
    plan = SwissPlan(tuple(seeding), rounds, boards_per_round, bye_score(), field)
    movement = _round_movement(first, plan, 1)
    made = create_event(
        path,
        movement,
        name=name,
        url_base=url_base,
        swiss_plan=plan.to_json(),
        method=plan.method if field == "pairs" else None,
    )
    return made, _drawn(first, 1, field)


def create_swiss_event(
    path: str | Path,
    *,
    teams: int,
    rounds: int,
    boards_per_round: int,
    seed: int | None = None,
    name: str | None = None,
    url_base: str = DEFAULT_URL_BASE,
) -> tuple[NewEvent, SwissDrawn]:
    """Make a Swiss teams event of ``teams`` teams (named 1, 2, ...) over ``rounds``
    rounds of ``boards_per_round`` boards, round 1 drawn: by seeding order (1 v 2,
    3 v 4, ...), or from the order ``seed`` shuffles them into. Every table a round
    needs (two a match) has its token now.

    >>> import tempfile, os
    >>> made, first = create_swiss_event(
    ...     os.path.join(tempfile.mkdtemp(), "swiss.db"), teams=5, rounds=3, boards_per_round=6
    ... )
    >>> first.describe(), len(made.tables)
    ('round 1: 1 v 2, 3 v 4; bye 5', 4)
    """
    return _create(path, "teams", teams, rounds, boards_per_round, seed, name, url_base)


def create_swiss_pairs_event(
    path: str | Path,
    *,
    pairs: int,
    rounds: int,
    boards_per_round: int,
    seed: int | None = None,
    name: str | None = None,
    url_base: str = DEFAULT_URL_BASE,
) -> tuple[NewEvent, SwissDrawn]:
    """Make a Swiss pairs event of ``pairs`` pairs (named 1, 2, ...) over ``rounds``
    rounds of ``boards_per_round`` boards, round 1 drawn as :func:`create_swiss_event`
    draws it; each match at one table, so every table the field can need has its token
    now. Scored by ``butler-vp``: Butler IMPs against the field's datum, each match's
    margin in VPs.

    >>> import tempfile, os
    >>> made, first = create_swiss_pairs_event(
    ...     os.path.join(tempfile.mkdtemp(), "swiss.db"), pairs=7, rounds=3, boards_per_round=4
    ... )
    >>> first.describe(), len(made.tables)
    ('round 1: 1 v 2, 3 v 4, 5 v 6; bye 7', 3)
    """
    return _create(path, "pairs", pairs, rounds, boards_per_round, seed, name, url_base)


def missing_tables(store: LiveStore, movement: Movement, round_number: int) -> list[int]:
    """The tables of ``round_number`` with a board that has no result yet (nor an
    adjusted score), in table order."""
    stored = store.stored_keys()
    return [
        row.table
        for row in movement.rows_in_round(round_number)
        if any(
            ("", board, *pairs_at(movement, row.table, round_number, board)) not in stored
            for board in row.boards
        )
    ]


def _standings(store: LiveStore, plan: SwissPlan) -> list[tuple[str, float, float]]:
    """Each team's (VPs, IMP difference) so far, byes included, in seeding order."""
    from bridgescore.session.workflow import score_stored_event

    vps = dict.fromkeys(plan.teams, 0.0)
    imps = dict.fromkeys(plan.teams, 0.0)
    for match in score_stored_event(store, plan.method).matches:
        vps[match.home] += match.home_vp
        if not match.bye:
            vps[match.away] += match.away_vp
            imps[match.home] += match.margin
            imps[match.away] -= match.margin
    return [(team, round(vps[team], 2), imps[team]) for team in plan.teams]


def draw_next_round(store: LiveStore, *, who: str) -> tuple[Movement, SwissDrawn]:
    """Draw the next round of the Swiss event in ``store`` and keep it, audited as
    ``who``'s: the movement with the new round, and the round drawn.

    Refused with a :class:`~bridgescore.errors.RoundOpenError` naming the tables whose
    results are not all in, and with a :class:`~bridgescore.errors.RecordError` for an
    event that is not a Swiss or whose rounds are all drawn.
    """
    text = store.swiss_plan
    movement = store.movement
    if text is None or movement is None:
        raise RecordError(
            f"{store.path!r} is not a Swiss event: only an event made with "
            "'session new --movement swiss' (or swiss-pairs) is drawn round by round"
        )
    plan = SwissPlan.from_json(text)
    current = movement.rounds
    if current >= plan.rounds:
        raise RecordError(
            f"all {plan.rounds} rounds of this Swiss are drawn: round {current} was the last"
        )
    missing = missing_tables(store, movement, current)
    if missing:
        listed = ", ".join(str(table) for table in missing)
        raise RoundOpenError(
            f"round {current + 1} is drawn once every result of round {current} is in: "
            f"table(s) {listed} still have boards without a result"
        )
    meetings = [(row.ns, row.ew) for row in movement.rows]
    byes = [sitout.pair for sitout in movement.sitouts]
    drawn = swiss_draw(_standings(store, plan), meetings, byes, round_number=current + 1)
    added = _round_movement(drawn, plan, current + 1)
    extended = Movement(
        kind=movement.kind,
        tables=max(movement.tables, added.tables),
        rounds=current + 1,
        boards_per_round=movement.boards_per_round,
        rows=movement.rows + added.rows,
        sitouts=movement.sitouts + added.sitouts,
        section=movement.section,
    )
    result = _drawn(drawn, current + 1, plan.field)
    store.draw_round(extended, result.describe(), who=who, drawn_from=movement)
    return extended, result


def draw_event_round(path: str | Path, *, who: str) -> SwissDrawn:
    """:func:`draw_next_round` on the event file at ``path`` (``session draw``): a
    server running the same event shows the new round to its tables at once."""
    with LiveStore(path, mode="write") as store:
        return draw_next_round(store, who=who)[1]
