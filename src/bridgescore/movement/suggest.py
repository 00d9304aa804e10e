"""Which movements fit a field: N pairs, about B boards, so many minutes a board.

:func:`suggest` lists every movement shape the generators build for ``N`` pairs
(``T = ceil(N / 2)`` tables; an odd ``N`` has one pair sitting out each round):

- the Mitchell: an odd ``T`` plays up to ``T`` rounds; an even ``T`` up to ``T - 1`` with
  the skip, or exactly ``T`` with a relay and bye stand (stopped earlier, the skip
  Mitchell would do without the shared boards). A Mitchell may stop early, after at
  least three quarters of its rounds (rounded up), or in a field too large for that after
  ``ceil(B / 2)`` rounds. Each Mitchell is offered as it is (two winners, NS and EW) and
  arrow-switched (one winner);
- the Howell: complete up to 8 tables (``2T - 1`` rounds, everyone meets everyone), a
  3/4 Howell from 9 to 15 (:func:`~bridgescore.movement.howell.howell_rounds`), and the
  8-round Howell of 5 tables with a relay.

For each shape and each number of boards a round from 2 up (one-board rounds spend more
time changing than playing), the rounds are those nearest ``B / boards per round`` (ties
to more rounds) within the shape's range, and the suggestion is kept when the boards each
pair plays (rounds times boards a round) are within an eighth of ``B`` (at least one
board) either way; a movement of a single round (one opponent all evening) is dropped
while any longer one fits. Time: the boards at ``minutes_per_board``, and :data:`CHANGE_MINUTES`
for each change of round. Best fit first: nearest ``B``; then a movement played to its
end before one cut short; then a complete Howell (every pair meets every other); then the
shorter session; then Mitchell before Howell, the skip before the relay, two winners
before one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bridgescore.errors import InvalidArgumentError
from bridgescore.movement.howell import (
    COMPLETE_TABLES,
    howell_round_choices,
    howell_rounds,
    plays_in_half_sets,
)
from bridgescore.movement.howell import MAX_TABLES as HOWELL_TABLES
from bridgescore.validate import is_number, whole_number_arg

__all__ = ["CHANGE_MINUTES", "MAX_BOARDS", "MITCHELL_TABLES", "Suggestion", "suggest"]

#: Minutes between two rounds: pairs and boards moving, the next round called.
CHANGE_MINUTES = 2
#: The largest Mitchell section (the Mitchell generator's limit).
MITCHELL_TABLES = 30
#: The most boards a session is asked to fit.
MAX_BOARDS = 200


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A movement that fits: its generator's options and what it costs.

    ``tables`` are the tables in play (an odd number of pairs: one fewer for a Howell,
    whose last table is the missing pair's); ``boards`` are the boards each pair plays.
    """

    kind: str
    tables: int
    rounds: int
    boards_per_round: int
    boards: int
    minutes: float
    relay: bool
    arrow_switch: bool
    description: str


@dataclass(frozen=True, slots=True)
class _Shape:
    kind: str
    tables: int
    most_rounds: int
    fewest_rounds: int
    relay: bool
    arrow_switch: bool
    name: str


def _shapes(pairs: int, boards: int) -> list[_Shape]:
    tables = (pairs + 1) // 2
    shapes = []
    if 2 <= tables <= MITCHELL_TABLES:
        plain = [(tables, False, "Mitchell")]
        if tables % 2 == 0:
            plain = [(tables - 1, False, "skip Mitchell"), (tables, True, "relay Mitchell")]
        for most, relay, name in plain:
            # Stopping early: after three quarters of the rounds, or in a field too large
            # for that, after as many two-board rounds as the boards allow. A relay is only
            # worth its shared boards played to the end: stopped at T - 1 rounds or fewer,
            # the skip Mitchell plays the same without them.
            fewest = most if relay else min(math.ceil(3 * most / 4), math.ceil(boards / 2))
            for arrow_switch in (False, True):
                shapes.append(
                    _Shape(
                        "mitchell",
                        tables,
                        most,
                        fewest,
                        relay,
                        arrow_switch,
                        f"arrow-switched {name}" if arrow_switch else name,
                    )
                )
    if 2 <= tables <= HOWELL_TABLES:
        full = howell_rounds(tables)
        for rounds in howell_round_choices(tables):
            if rounds != full:
                name, relay = "Howell with a relay", True
            else:
                name = "complete Howell" if tables <= COMPLETE_TABLES else "3/4 Howell"
                relay = False
            shapes.append(_Shape("howell", tables - pairs % 2, rounds, rounds, relay, False, name))
    return shapes


def _nearest_rounds(boards: int, per_round: int, shape: _Shape) -> int:
    # Nearest to boards / per_round, ties to more rounds (2 * boards / per_round is a
    # whole number exactly when the quotient ends in .5).
    rounds = (2 * boards + per_round) // (2 * per_round)
    return min(shape.most_rounds, max(shape.fewest_rounds, rounds))


def _describe(shape: _Shape, pairs: int, rounds: int, per_round: int) -> str:
    played = (
        f"{rounds} rounds"
        if rounds == shape.most_rounds
        else f"{rounds} of its {shape.most_rounds} rounds"
    )
    half_sets = shape.kind == "howell" and plays_in_half_sets(pairs, per_round)
    text = (
        f"{shape.name}, {shape.tables} tables: {played} of {per_round} boards"
        f"{f' in half-sets of {per_round // 2}' if half_sets else ''} ="
        f" {rounds * per_round} boards a pair"
    )
    if pairs % 2:
        text += ", one pair sits out each round"
    if shape.kind == "mitchell":
        text += "; one winner" if shape.arrow_switch else "; two winners (NS and EW)"
    elif shape.name == "complete Howell":
        text += "; every pair meets every other"
    elif shape.relay:
        text += f"; every pair meets {rounds} others, two tables share a set each round"
    else:
        text += f"; every pair meets {rounds} others"
    return text


def suggest(*, pairs: int, boards: int, minutes_per_board: float = 7.5) -> list[Suggestion]:
    """The movements that fit ``pairs`` pairs and about ``boards`` boards, best fit first
    (the rules are in the module docstring).

    >>> best = suggest(pairs=14, boards=26)[0]
    >>> best.kind, best.tables, best.rounds, best.boards_per_round, best.boards
    ('howell', 7, 13, 2, 26)
    >>> best.minutes  # 26 boards at 7.5 minutes, 12 changes of 2 minutes
    219.0
    """
    pairs = whole_number_arg(pairs, "pairs", 3, 2 * MITCHELL_TABLES)
    # A session's boards: past a few hundred no club plays one, and the search below
    # tries every number of boards a round up to the target.
    boards = whole_number_arg(boards, "boards", 1, MAX_BOARDS)
    if not is_number(minutes_per_board, int | float) or not 0 < minutes_per_board < 60:
        raise InvalidArgumentError(
            f"minutes per board must be a number of minutes above 0 and below 60,"
            f" got {minutes_per_board!r}"
        )
    slack = max(1, boards // 8)
    found: list[tuple[tuple[int, bool, bool, float, int, bool, bool], Suggestion]] = []
    for shape in _shapes(pairs, boards):
        for per_round in range(2, boards + slack + 1):
            rounds = _nearest_rounds(boards, per_round, shape)
            played = rounds * per_round
            if abs(played - boards) > slack:
                continue
            minutes = played * minutes_per_board + (rounds - 1) * CHANGE_MINUTES
            suggestion = Suggestion(
                kind=shape.kind,
                tables=shape.tables,
                rounds=rounds,
                boards_per_round=per_round,
                boards=played,
                minutes=float(minutes),
                relay=shape.relay,
                arrow_switch=shape.arrow_switch,
                description=_describe(shape, pairs, rounds, per_round),
            )
            key = (
                abs(played - boards),
                rounds != shape.most_rounds,
                # Where every pair can meet every other in as many boards, that is the
                # evening a small club plays (one winner, no one missed), a change or
                # two longer or not.
                not (shape.name == "complete Howell" and rounds == shape.most_rounds),
                float(minutes),
                0 if shape.kind == "mitchell" else 1,
                shape.relay,
                shape.arrow_switch,
            )
            found.append((key, suggestion))
    found.sort(key=lambda item: item[0])
    # One round is one opponent all evening (a 2-table skip Mitchell): not a movement
    # while any movement of two rounds or more fits.
    if any(suggestion.rounds > 1 for _, suggestion in found):
        found = [item for item in found if item[1].rounds > 1]
    return [suggestion for _, suggestion in found]
