"""The scoring methods of an event, as data: one :class:`ScoringMethod` each, in one registry.

A method says what the scorer and the reports need to know: its name (what users
type, and what JSON output carries), its title and unit, the kind of event it
scores, how it compares the real scores of a board, what an artificial adjusted
score is worth, how EW's points follow from NS's, and what the reports show.
Adding a method is one entry at the end of this module plus its functions.

>>> scoring_method("butler").title, scoring_method("butler").unit
('Butler IMPs', 'IMP')
>>> [m.name for m in methods_for("teams")]
['imps', 'bam', 'vp']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from bridgescore.compare.array import (
    board_a_match_array,
    butler_imps_array,
    cross_imps_array,
    imps_array,
    matchpoints_array,
)
from bridgescore.compare.scalar import (
    Award,
    Divide,
    Scale,
    adjusted_imps,
    adjusted_share,
    butler_datum,
    check_butler,
    cross_imps_divisor,
    round_half_away,
    scale_unit,
)
from bridgescore.errors import ScoringMethodError
from bridgescore.session.scoring.event import EventKind

__all__ = [
    "METHODS",
    "SCORING_METHODS",
    "BoardScores",
    "Method",
    "ScoringMethod",
    "ScoringOptions",
    "default_method",
    "methods_for",
    "scoring_method",
]


@dataclass(frozen=True, slots=True)
class ScoringOptions:
    """The regulation choices of an event (see docs/sessions.md for the defaults).

    Checked when made: an unknown scale or divisor, or a negative Butler
    option, raises :class:`~bridgescore.errors.ComparisonError`.
    """

    scale: Scale = "2/1"
    neuberg: bool = True  # factor boards with fewer (or artificial) results to the full size
    per_section: bool = False  # compare within each section instead of across the field
    exclude: int = 1  # Butler: scores dropped at each end before the datum
    rounding: int = 10  # Butler: datum rounded to this many points
    divide: Divide = "comparisons"  # cross-IMPs normalisation
    session_percentage: bool = False  # A+ = max(60 %, own %), A- = min(40 %, own %)
    adjusted_imps: int = 3  # IMPs for average plus (minus for average minus)

    def __post_init__(self) -> None:
        scale_unit(self.scale)
        cross_imps_divisor(self.divide, 0)
        check_butler(self.exclude, self.rounding)

    @property
    def unit(self) -> int:
        """Half matchpoints a won comparison is worth: 2 on the 2/1 scale, 1 on 1/0.5."""
        return scale_unit(self.scale)


class BoardScores(NamedTuple):
    """The real scores of many comparison groups at once, NS view, for one comparison call.

    ``table`` has one row per group: a pairs board's results, padded, with
    ``valid`` marking the real ones and ``expected`` the size each row is
    Neuberg'd to; or a teams board's two tables, the table scored and the
    other table of its match.
    """

    table: npt.NDArray[np.int64]
    valid: npt.NDArray[np.bool_]
    expected: npt.NDArray[np.int64]


# Points: one number, or an array of them (the scorer works out every line's at once).
Points = float | npt.NDArray[np.float64]
# A method's comparison: each cell's NS points (a teams row: each table's NS team's).
Comparison = Callable[[BoardScores, ScoringOptions], npt.NDArray[np.float64]]
# What one side's artificial adjusted score is worth: the award, the board's
# top, the side's own share of its tops when the session-percentage variant
# applies (else None), and the options.
AwardValue = Callable[[Award, float, Fraction | None, ScoringOptions], float]


@dataclass(frozen=True, slots=True)
class ScoringMethod:
    """One way of scoring an event, with everything the scorer and reports ask of it.

    ``kind`` is the event it scores: ``pairs`` methods compare each board's
    results across the field, ``teams`` methods the two tables of a match.
    ``ew_from_ns(ns, top)`` gives EW's points from NS's on a board whose top is
    ``top``. ``shows_percent``: the points are shares of a top, so travellers
    show the top and percentages and rankings go by percentage. ``signed``:
    points are shown with their sign (+4). ``datum`` gives the traveller's
    datum from the board's real scores (Butler). ``awards_add_up``: in teams,
    the awards of a board's two artificial tables are added (IMPs) rather than
    averaged (board-a-match).
    """

    name: str
    title: str
    unit: str
    kind: EventKind
    compare: Comparison
    award: AwardValue
    ew_from_ns: Callable[[Points, Points], Points]
    shows_percent: bool = False
    signed: bool = False
    datum: Callable[[Sequence[int], ScoringOptions], float] | None = None
    awards_add_up: bool = True
    # Teams: each match's IMP margin is turned into victory points (the WBF continuous
    # scale), and teams are ranked by their VPs; the boards still show IMPs.
    victory_points: bool = False

    @property
    def ranking_unit(self) -> str:
        """What the ranking's totals count: VPs for a VP method, else the method's unit."""
        return "VP" if self.victory_points else self.unit

    def __str__(self) -> str:
        return self.name


_REGISTRY: dict[str, ScoringMethod] = {}
SCORING_METHODS: Mapping[str, ScoringMethod] = MappingProxyType(_REGISTRY)
"""Every scoring method by name, in the order users are offered them."""

Method = str
"""A scoring method's name, as users type it: one of :data:`METHODS`."""


def scoring_method(name: str | ScoringMethod) -> ScoringMethod:
    """The method called ``name`` (a method is returned as it is).

    >>> scoring_method("cross-imps").kind
    'pairs'
    """
    if isinstance(name, ScoringMethod):
        return name
    found = _REGISTRY.get(name) if isinstance(name, str) else None
    if found is None:
        raise ScoringMethodError(
            f"unknown scoring method {name!r}: expected {', '.join(_REGISTRY)}"
        )
    return found


def methods_for(kind: str) -> tuple[ScoringMethod, ...]:
    """The methods that score an event of this kind, the usual one first."""
    return tuple(m for m in _REGISTRY.values() if m.kind == kind)


def default_method(kind: str) -> ScoringMethod:
    """The usual method for the kind of event: matchpoints for pairs, IMPs for teams."""
    return methods_for(kind)[0]


# ----------------------------------------------------------- the comparisons


def _matchpoints(scores: BoardScores, options: ScoringOptions) -> npt.NDArray[np.float64]:
    return matchpoints_array(
        scores.table, scores.valid, scale=options.scale, expected=scores.expected
    )


def _butler(scores: BoardScores, options: ScoringOptions) -> npt.NDArray[np.float64]:
    values = butler_imps_array(
        scores.table, scores.valid, exclude=options.exclude, rounding=options.rounding
    )
    return values.astype(np.float64)


def _cross_imps(scores: BoardScores, options: ScoringOptions) -> npt.NDArray[np.float64]:
    return cross_imps_array(scores.table, scores.valid, divide=options.divide)


def _team_imps(scores: BoardScores, options: ScoringOptions) -> npt.NDArray[np.float64]:
    won = imps_array(scores.table[:, 0] - scores.table[:, 1]).astype(np.float64)
    return np.stack([won, -won], axis=1)


def _board_a_match(scores: BoardScores, options: ScoringOptions) -> npt.NDArray[np.float64]:
    won = board_a_match_array(scores.table[:, 0], scores.table[:, 1])
    return np.stack([won, 1.0 - won], axis=1)


# --------------------------------------------------------- artificial scores


def _award_matchpoints(
    award: Award, top: float, own: Fraction | None, options: ScoringOptions
) -> float:
    # Exact to the last half: a share of the top, rounded to 0.1 MP halves away from zero.
    return round_half_away(adjusted_share(award, session_share=own) * Fraction(top))


def _award_imps(award: Award, top: float, own: Fraction | None, options: ScoringOptions) -> float:
    return float(adjusted_imps(award, options.adjusted_imps))


def _award_board(award: Award, top: float, own: Fraction | None, options: ScoringOptions) -> float:
    return float(adjusted_share(award))


# ------------------------------------------------------------- EW from NS


def _rest_of_top(ns: Points, top: Points) -> Points:
    return top - ns


def _negated(ns: Points, top: Points) -> Points:
    return -ns


def _rest_of_board(ns: Points, top: Points) -> Points:
    return 1.0 - ns


def _butler_datum(scores: Sequence[int], options: ScoringOptions) -> float:
    return butler_datum(scores, exclude=options.exclude, rounding=options.rounding)


# ---------------------------------------------------------------- registry

for _method in (
    ScoringMethod("mp", "matchpoints", "MP", "pairs", _matchpoints, _award_matchpoints,
                  _rest_of_top, shows_percent=True),
    ScoringMethod("butler", "Butler IMPs", "IMP", "pairs", _butler, _award_imps, _negated,
                  signed=True, datum=_butler_datum),
    ScoringMethod("cross-imps", "cross-IMPs", "IMP", "pairs", _cross_imps, _award_imps,
                  _negated, signed=True),
    ScoringMethod("imps", "IMPs (teams)", "IMP", "teams", _team_imps, _award_imps, _negated,
                  signed=True),
    ScoringMethod("bam", "board-a-match", "BAM", "teams", _board_a_match, _award_board,
                  _rest_of_board, awards_add_up=False),
    ScoringMethod("vp", "victory points (IMPs to VPs)", "IMP", "teams", _team_imps,
                  _award_imps, _negated, signed=True, victory_points=True),
    # Swiss pairs: each board in Butler IMPs against the field's datum, and each match's
    # (the boards two pairs played against each other) IMP margin in VPs.
    ScoringMethod("butler-vp", "Butler IMPs, match by match in VPs", "IMP", "pairs", _butler,
                  _award_imps, _negated, signed=True, datum=_butler_datum,
                  victory_points=True),
):  # fmt: skip
    _REGISTRY[_method.name] = _method

METHODS: tuple[Method, ...] = tuple(SCORING_METHODS)
"""The scoring methods' names, in the order users are offered them."""
