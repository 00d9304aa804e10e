"""Each player's grade on the percentage scale, updated event by event.

A grade is the percentage a player is expected to score with an average partner
against an average field: 50 is the club's average player, 55 a player whose pair,
with a partner of 50, is expected to score 55 %. The model (docs/season.md works an
example through):

- a pair's grade is 50 plus each player's distance from 50: grades 56 and 52 make a
  pair of 58 (a player the register does not know counts as 50);
- the field of a pair is the pairs it is ranked against (its direction in a Mitchell,
  everyone in a Howell); the field's grade is the mean grade of those pairs, the pair
  itself left out;
- a pair's expected percentage is ``50 + pair grade - field grade``
  (:func:`expected_percent`); a field's expected percentages average 50, as its
  scores do;
- after each event every player's grade moves by a share of their pair's surprise,
  ``scored - expected``: the share is ``b / W``, where ``b`` is the boards the pair
  played and ``W`` the player's boards so far with each earlier board weighted by
  ``DECAY`` for every board played since (``W = DECAY**b * W_before + b``). So the
  grade is a weighted mean of the player's performances, each board of the last
  event counting fully and a board ``n`` boards ago ``DECAY**n``: recent boards
  weigh more. A new player starts at 50 with ``PRIOR_BOARDS`` boards of weight, so
  one good evening moves a newcomer far, but not all the way.

Every grade of an event is worked from the grades before it, so the order of the
pairs in a ranking changes nothing. Pure functions: no I/O.

>>> expected_percent(58.0, [50.0, 46.0])
60.0
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from bridgescore.compare.scalar import round_half_away

__all__ = [
    "AVERAGE",
    "DECAY",
    "PRIOR_BOARDS",
    "Grade",
    "RatedPair",
    "expected_percent",
    "grades_table",
    "pair_grade",
    "season_grades",
]

AVERAGE = 50.0
#: The weight a board keeps for each board the player plays after it.
DECAY = 0.998
#: The boards of weight a new player's grade of 50 starts with.
PRIOR_BOARDS = 24.0


class RatedPair(Protocol):
    """A pair's line of an event, as the grades read it (the register's
    :class:`~bridgescore.season.summary.PairPlace` is one)."""

    @property
    def field(self) -> str: ...

    @property
    def percent(self) -> float: ...

    @property
    def boards(self) -> int: ...

    @property
    def numbers(self) -> tuple[str, ...]: ...


@dataclass(slots=True)
class Grade:
    """A player's grade (percentage scale), the boards and sessions it is made of, and
    the weight of those boards now (see the module's text)."""

    number: str
    grade: float = AVERAGE
    boards: int = 0
    sessions: int = 0
    weight: float = PRIOR_BOARDS
    history: list[float] = field(default_factory=list)  # the grade after each event

    @property
    def shown(self) -> float:
        """The grade to two decimals, halves away from zero."""
        return round_half_away(self.grade, 2)


def pair_grade(grades: Iterable[float]) -> float:
    """A pair's grade from its players': 50 plus each player's distance from 50.

    >>> pair_grade([56.0, 52.0])
    58.0
    """
    return AVERAGE + sum(grade - AVERAGE for grade in grades)


def expected_percent(pair: float, others: Sequence[float]) -> float:
    """The percentage a pair of grade ``pair`` is expected to score against a field of
    pairs of grades ``others`` (the pairs it is ranked against, itself left out):
    ``50 + pair - mean(others)``; 50 with no others."""
    if not others:
        return AVERAGE
    return AVERAGE + pair - sum(others) / len(others)


def season_grades(
    sessions: Iterable[Sequence[RatedPair]],
    *,
    decay: float = DECAY,
    prior_boards: float = PRIOR_BOARDS,
) -> dict[str, Grade]:
    """Every player's grade after ``sessions`` (each event's pairs, in the order the
    events were played), by membership number (``""``, an unmatched player, is never
    graded and counts as 50)."""
    grades: dict[str, Grade] = {}

    def grade_of(number: str) -> float:
        held = grades.get(number)
        return held.grade if held is not None else AVERAGE

    for pairs in sessions:
        fields: dict[str, list[RatedPair]] = {}
        for pair in pairs:
            if pair.boards > 0:
                fields.setdefault(pair.field, []).append(pair)
        moves: list[tuple[str, int, float]] = []
        for members in fields.values():
            if len(members) < 2:
                continue
            strengths = [pair_grade(grade_of(n) for n in pair.numbers if n) for pair in members]
            total = sum(strengths)
            for pair, strength in zip(members, strengths, strict=True):
                others = len(members) - 1
                expected = AVERAGE + strength - (total - strength) / others
                surprise = pair.percent - expected
                moves.extend((n, pair.boards, surprise) for n in pair.numbers if n)
        for number, boards, surprise in moves:
            held = grades.setdefault(number, Grade(number, weight=prior_boards))
            held.weight = decay**boards * held.weight + boards
            held.grade += boards / held.weight * surprise
            held.boards += boards
            held.sessions += 1
        for number in {number for number, _, _ in moves}:
            grades[number].history.append(grades[number].grade)
    return grades


def grades_table(grades: Mapping[str, Grade]) -> list[Grade]:
    """The grades best first (equal grades by number)."""
    return sorted(grades.values(), key=lambda g: (-g.grade, g.number))
