"""A scored event's values: :class:`SessionScore` (the whole event), each board's
:class:`ScoredBoard` of :class:`Line` values, each pair's or team's :class:`Standing`, and a
board's :class:`BoardPar`. Made by :func:`~bridgescore.session.scoring.scorer.score_event`."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, overload

from bridgescore.board import Board
from bridgescore.session.scoring.event import Member, TableResult
from bridgescore.session.scoring.matches import Match
from bridgescore.session.scoring.methods import (
    Method,
    ScoringMethod,
    ScoringOptions,
    scoring_method,
)

__all__ = ["BoardPar", "Line", "Lines", "ScoredBoard", "SessionScore", "Standing"]


class Line(NamedTuple):
    """A scored traveller line: NS and EW points in the method's unit (None if unscored).

    A named tuple rather than a dataclass: an event has one per result, and
    these are several times cheaper to make.
    """

    result: TableResult
    ns_score: int | None
    ns: float | None
    ew: float | None
    ns_percent: float | None = None
    ew_percent: float | None = None
    imps_vs_par: int | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class ScoredBoard:
    """One board's results as scored (one section's, when scored per section): what the
    reports print as the board's traveller.

    Not :class:`bridgescore.formats.record.Traveller`, which is a traveller as a file
    records it (its column names and rows, unscored)."""

    board: Board
    section: str
    lines: Sequence[Line]
    top: float | None = None
    par: int | None = None
    par_text: str = ""
    datum: float | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """A pair's or team's place: total, boards played and percentage (matchpoints)."""

    rank: str
    name: str
    section: str
    direction: str  # "NS", "EW" or "" when ranked overall
    total: float
    boards: int
    percent: float | None = None

    @property
    def average(self) -> float:
        return self.total / self.boards if self.boards else 0.0


@dataclass(frozen=True, slots=True)
class SessionScore:
    """The whole scored event. ``method`` is the method's name (``mp``, ``imps``...)."""

    name: str
    kind: str
    method: Method
    unit: str
    options: ScoringOptions
    travellers: tuple[ScoredBoard, ...]
    standings: tuple[Standing, ...]
    notes: tuple[str, ...] = field(default=())
    scored_by: ScoringMethod | None = None  # set by score_event; else found by name
    # The players of each pair or team, when the event knows them (the event's members).
    members: Mapping[str, tuple[Member, ...]] = field(default_factory=dict)
    # Scored in victory points: each match, its IMPs and VPs (else empty).
    matches: tuple[Match, ...] = ()

    @property
    def scoring_method(self) -> ScoringMethod:
        """The event's scoring method
        (:class:`~bridgescore.session.scoring.methods.ScoringMethod`)."""
        return self.scored_by or scoring_method(self.method)

    @property
    def ranking_unit(self) -> str:
        """What the ranking's totals count (VPs when matches are scored in VPs)."""
        return self.scoring_method.ranking_unit

    def _repr_html_(self) -> str:
        """The ranking in a notebook: the text report's tables, in HTML."""
        from bridgescore.session.scoring.display import ranking_html

        return ranking_html(self)


@dataclass(frozen=True, slots=True)
class BoardPar:
    """A board's par (neutral convention), NS view, and its text form."""

    score: int
    text: str


class Lines(Sequence[Line]):
    """A traveller's lines, made when first read.

    Scoring keeps every result's points in arrays; a report reads the lines of every
    traveller, but a live ranking reads none, so each traveller's :class:`Line`
    values are made from the arrays on first use (and kept).
    """

    __slots__ = ("_lines", "_make")

    def __init__(self, make: Callable[[], tuple[Line, ...]]) -> None:
        self._make: Callable[[], tuple[Line, ...]] | None = make
        self._lines: tuple[Line, ...] = ()

    def _all(self) -> tuple[Line, ...]:
        if self._make is not None:
            self._lines = self._make()
            self._make = None
        return self._lines

    @overload
    def __getitem__(self, index: int) -> Line: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Line, ...]: ...

    def __getitem__(self, index: int | slice) -> Line | tuple[Line, ...]:
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[Line]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Lines):
            return self._all() == other._all()
        return self._all() == other

    def __hash__(self) -> int:
        return hash(self._all())

    def __repr__(self) -> str:
        return repr(self._all())
