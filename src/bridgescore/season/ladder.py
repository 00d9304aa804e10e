"""The ladder: players, not pairs, ranked by the mean of their best sessions.

Each session a player played (an event of the season, in the period asked for) gives
the player the percentage their pair scored. A player's score is the mean of their
best ``best`` percentages (all of them when they played fewer); players with at least
``least`` sessions are ranked by it, and the others are listed apart, by the same
mean, since a mean of two lucky evenings is no match for one of ten. The mean is
worked in decimals from the percentages as printed, and rounded once, to two places,
halves away from zero.

>>> ladder = season_ladder({"1010": [60.0, 50.0, 55.5], "1011": [52.25]}, best=2, least=2)
>>> [(r.rank, r.number, r.score, r.counted) for r in ladder.ranked]
[('1', '1010', 57.75, (60.0, 55.5))]
>>> [(r.number, r.score) for r in ladder.apart]
[('1011', 52.25)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from bridgescore.compare.scalar import round_half_away
from bridgescore.errors import InvalidArgumentError
from bridgescore.validate import whole_number_arg

__all__ = ["Ladder", "LadderRow", "season_ladder"]


@dataclass(frozen=True, slots=True)
class LadderRow:
    """A player's line: rank (``""`` when listed apart; ``2=`` shares second place),
    number, sessions played, the percentages counted (best first) and their mean."""

    rank: str
    number: str
    sessions: int
    counted: tuple[float, ...]
    score: float


@dataclass(frozen=True, slots=True)
class Ladder:
    """The ranked players, and those with fewer sessions than the ladder asks."""

    best: int
    least: int
    ranked: tuple[LadderRow, ...]
    apart: tuple[LadderRow, ...]


def season_ladder(
    percentages: Mapping[str, Sequence[float]], *, best: int = 10, least: int | None = None
) -> Ladder:
    """Rank the players of ``percentages`` (membership number -> each session's
    percentage) by the mean of their ``best`` best; ``least`` (default: ``best``)
    sessions to be ranked. Raises :class:`InvalidArgumentError` for a count below 1."""
    best = whole_number_arg(best, "--best", 1)
    least = best if least is None else whole_number_arg(least, "--min", 1)
    if least > best:
        raise InvalidArgumentError(
            f"--min {least} is more than --best {best}: a player ranked on their best "
            f"{best} sessions needs at most {best} to be ranked"
        )
    rows: list[tuple[Decimal, str, int, tuple[float, ...]]] = []
    for number, played in percentages.items():
        if not played:
            continue
        counted = tuple(sorted(played, reverse=True)[:best])
        mean = sum((Decimal(repr(p)) for p in counted), Decimal(0)) / len(counted)
        rows.append((mean, number, len(played), counted))
    rows.sort(key=lambda row: (-row[0], row[1]))
    qualified = [row for row in rows if row[2] >= least]
    others = [row for row in rows if row[2] < least]
    return Ladder(best, least, _ranked(qualified), tuple(_row("", row) for row in others))


def _ranked(rows: list[tuple[Decimal, str, int, tuple[float, ...]]]) -> tuple[LadderRow, ...]:
    # Players with the same exact mean share the place of the first of them.
    first: dict[Decimal, int] = {}
    for index, (mean, *_) in enumerate(rows):
        first.setdefault(mean, index + 1)
    tied = Counter(mean for mean, *_ in rows)
    return tuple(_row(f"{first[row[0]]}{'=' if tied[row[0]] > 1 else ''}", row) for row in rows)


def _row(rank: str, row: tuple[Decimal, str, int, tuple[float, ...]]) -> LadderRow:
    mean, number, sessions, counted = row
    return LadderRow(rank, number, sessions, counted, round_half_away(mean, 2))
