"""Simulated seasons: players of known strengths, each board's result drawn from the
strengths at the table, to check that the grades find the strengths again.

Each player has a true strength on the grades' scale (drawn about 50). Each session the
players are drawn into pairs at random (a club where partners change), the pairs play a
Mitchell, and each board at each table is played in one contract by a side drawn for the
board: the declarer's tricks are 9 plus the declaring side's edge, ``(declaring pair's
strength - defending pair's) / EDGE``, plus a normal draw of spread 1, rounded, within
0 to 13. A pair's strength is 50 plus each player's distance from 50, as in
:mod:`.ratings`. The events are real events, scored by the session package's scorer,
and may be written to event files (:func:`write_season`) for the club file to read.

>>> season = simulated_season(players=12, sessions=2, seed=3)
>>> len(season.strengths), len(season.events), len(season.events[0].results)
(12, 2, 27)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from pathlib import Path

import numpy as np

from bridgescore.core import Contract, Seat
from bridgescore.errors import InvalidArgumentError
from bridgescore.movement.mitchell import mitchell
from bridgescore.notation import Result
from bridgescore.season.summary import EventSummary, PairPlace, summary_of
from bridgescore.session.scoring.event import Event, Member, TableResult
from bridgescore.session.scoring.scorer import score_event
from bridgescore.session.store.events import EventStore, Origin
from bridgescore.validate import whole_number_arg

__all__ = ["EDGE", "SimulatedSeason", "simulated_season", "write_season"]

#: Strength points (the percentage scale) worth one trick of edge at a table.
EDGE = 24.0
_FIRST_DAY = date(2026, 1, 5)
_CONTRACTS = ("3NT", "4S", "4H", "2S", "3C")


@dataclass(frozen=True, slots=True)
class SimulatedSeason:
    """The players' true strengths (by membership number), and the season's events, one
    a week from 5 January 2026, in the order played (:attr:`dates`)."""

    strengths: dict[str, float]
    events: tuple[Event, ...]
    dates: tuple[str, ...]

    def summaries(self) -> Iterator[EventSummary]:
        """Each event scored by matchpoints and summed up as the season keeps it."""
        for event, day in zip(self.events, self.dates, strict=True):
            yield summary_of(score_event(event, "mp"), date=day, fingerprint=day)

    def graded_events(self) -> list[list[PairPlace]]:
        """Each event's pairs as the grades read them (``season_grades``), every player
        matched by the number the simulation gave them, as a club file would hold them."""
        return [
            [
                replace(place, numbers=tuple(m.number for m in place.players))
                for place in summary.places
            ]
            for summary in self.summaries()
        ]


def simulated_season(
    *,
    players: int = 40,
    sessions: int = 30,
    boards_per_round: int = 3,
    spread: float = 5.0,
    seed: int = 0,
) -> SimulatedSeason:
    """A season of ``sessions`` events of ``players`` players (a multiple of 4, at least
    8: one Mitchell table per four), true strengths drawn about 50 with ``spread``
    (standard deviation), reproducible from ``seed``."""
    players = whole_number_arg(players, "players", 8)
    sessions = whole_number_arg(sessions, "sessions", 1)
    boards_per_round = whole_number_arg(boards_per_round, "boards per round", 1)
    if players % 4:
        raise InvalidArgumentError(
            f"players must be a multiple of 4 (four to a table), got {players}"
        )
    random = np.random.default_rng(seed)
    numbers = [str(1001 + index) for index in range(players)]
    strengths = dict(
        zip(numbers, (50 + spread * random.standard_normal(players)).tolist(), strict=True)
    )
    movement = mitchell(tables=players // 4, boards_per_round=boards_per_round)
    events: list[Event] = []
    days: list[str] = []
    for session in range(sessions):
        order = [numbers[i] for i in random.permutation(players)]
        pairs = {label: (order[2 * i], order[2 * i + 1]) for i, label in enumerate(movement.pairs)}
        boards = sorted({b for row in movement.rows for b in row.boards})
        declares_ns = dict(zip(boards, (random.random(len(boards)) < 0.5).tolist(), strict=True))
        contracts = {b: _CONTRACTS[int(random.integers(len(_CONTRACTS)))] for b in boards}
        results: list[TableResult] = []
        for row in movement.rows:
            edge = (
                _pair_strength(pairs[row.ns], strengths) - _pair_strength(pairs[row.ew], strengths)
            ) / EDGE
            for board in row.boards:
                ns = declares_ns[board]
                tricks = 9 + (edge if ns else -edge) + random.standard_normal()
                results.append(
                    TableResult.played(
                        board,
                        row.ns,
                        row.ew,
                        _result(contracts[board], Seat.NORTH if ns else Seat.EAST, tricks),
                    )
                )
        members = {
            label: tuple(Member(f"Player {n}", n) for n in who) for label, who in pairs.items()
        }
        day = (_FIRST_DAY + timedelta(weeks=session)).isoformat()
        events.append(
            Event(f"Simulated session {session + 1}", "pairs", {}, tuple(results), members)
        )
        days.append(day)
    return SimulatedSeason(strengths, tuple(events), tuple(days))


def _pair_strength(pair: Sequence[str], strengths: dict[str, float]) -> float:
    return 50 + sum(strengths[n] - 50 for n in pair)


def _result(contract: str, declarer: Seat, tricks: float) -> Result:
    taken = min(13, max(0, round(tricks)))
    made = Contract.parse(contract + declarer.name[0])
    return Result(made, taken)


def write_season(season: SimulatedSeason, folder: Path) -> list[Path]:
    """Write each event of ``season`` to its own event file in ``folder`` (made if
    missing), dated as played: ``session-01.db``, ``session-02.db``...; and the
    players, for the club's register, to ``players.csv`` (``number,name``)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["number,name", *(f"{n},Player {n}" for n in sorted(season.strengths))]
    (folder / "players.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    written = []
    for index, (event, day) in enumerate(zip(season.events, season.dates, strict=True), start=1):
        path = folder / f"session-{index:02d}.db"
        with EventStore(path, mode="create") as store:
            store.set_info(name=event.name, kind="pairs", date=day)
            store.add(
                [],
                [(r, Origin("simulated", 0)) for r in event.results],
                members=dict(event.members),
            )
        written.append(path)
    return written
