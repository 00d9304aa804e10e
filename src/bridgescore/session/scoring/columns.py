"""What pairs and teams scoring share: the event's results as columns
(:class:`Columns`) in comparison groups, ranks and places, IMPs against par, and the
travellers' lines made on first use (:class:`LineSource`)."""

from __future__ import annotations

import gc
from abc import ABC, abstractmethod
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from bridgescore.compare.array import imps_array
from bridgescore.compare.scalar import imps, round_half_away
from bridgescore.session.scoring.event import Event, TableResult, natural_key, result_columns
from bridgescore.session.scoring.methods import ScoringOptions
from bridgescore.session.scoring.scored import BoardPar, Line, Standing

__all__ = [
    "Columns",
    "GroupKey",
    "LineSource",
    "Numbering",
    "cyclic_gc_paused",
    "natural_ranks",
    "ranked",
    "vs_par",
    "vs_par_column",
]


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while scoring builds its many small values.

    Scoring creates no reference cycles, but a big event allocates hundreds of
    thousands of objects, and each allocation burst triggers full collections
    that walk all of them: on 50,000 results that was over half the time.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def vs_par(ns_score: int | None, board: int, pars: Mapping[int, BoardPar]) -> int | None:
    par = pars.get(board)
    return None if par is None or ns_score is None else imps(ns_score - par.score)


# A comparison group: board, section ("" unless scored per section), fouled-board version.
GroupKey = tuple[int, str, str]


@dataclass(frozen=True)
class Columns:
    """The event's results as columns, in event order, and their comparison groups.

    ``group`` numbers each result's group in order of first appearance (the order
    the scorer has always compared and listed them in); ``position`` is its place
    within the group.
    """

    results: tuple[TableResult, ...]
    boards: npt.NDArray[np.int64]
    score_array: npt.NDArray[np.int64]
    real: npt.NDArray[np.bool_]
    group: npt.NDArray[np.intp]
    position: npt.NDArray[np.intp]
    keys: list[GroupKey]
    counts: npt.NDArray[np.intp]
    # Every pair (or team) named, in order of first appearance, NS names before EW's;
    # each result's NS and EW pair by number; the sections likewise.
    names: list[str]
    ns_code: npt.NDArray[np.intp]
    ew_code: npt.NDArray[np.intp]
    sections: list[str]
    section_code: npt.NDArray[np.intp]

    @classmethod
    def of(cls, event: Event, options: ScoringOptions) -> Columns:
        results = event.results
        count = len(results)
        read = result_columns(results, event.boards)
        boards, score_array, real = read.boards, read.scores, read.real
        if read.named_sections:
            numbered = Numbering()
            section_list = [r.section for r in results]
            section_code = numbered(section_list)
            sections = numbered.values
        else:
            section_list = [""] * count
            sections, section_code = [""], np.zeros(count, dtype=np.intp)
        variants = [r.variant for r in results] if read.named_variants else None
        numbered = Numbering()
        ns_code = numbered([r.ns for r in results])
        ew_code = numbered([r.ew for r in results])
        keys: list[GroupKey]
        if (not options.per_section or sections == [""]) and variants is None:
            # The usual event: a board is a group, numbered in order of first appearance.
            numbers, first, inverse = np.unique(boards, return_index=True, return_inverse=True)
            appearance = np.argsort(first, kind="stable")
            renumber = np.empty(len(numbers), dtype=np.intp)
            renumber[appearance] = np.arange(len(numbers))
            group = renumber[inverse]
            keys = [(board, "", "") for board in numbers[appearance].tolist()]
        else:
            codes: dict[GroupKey, int] = {}
            board_list = boards.tolist()
            grouped_sections = section_list if options.per_section else [""] * count
            group = np.array(
                [
                    codes.setdefault(key, len(codes))
                    for key in zip(
                        board_list, grouped_sections, variants or [""] * count, strict=True
                    )
                ],
                dtype=np.intp,
            )
            keys = list(codes)
        counts = np.bincount(group, minlength=len(keys))
        order = np.argsort(group, kind="stable")
        starts = np.cumsum(counts) - counts
        position = np.empty(count, dtype=np.intp)
        position[order] = np.arange(count) - starts[group[order]]
        return cls(
            results,
            boards,
            score_array,
            real,
            group,
            position,
            keys,
            counts,
            numbered.values,
            ns_code,
            ew_code,
            sections,
            section_code,
        )

    def build_order(self) -> npt.NDArray[np.intp]:
        """The results group by group, each group's in event order."""
        return np.argsort(self.group, kind="stable")


class Numbering:
    """Numbers values in order of first appearance: 0, 1, 2, ..."""

    def __init__(self) -> None:
        self._numbers: defaultdict[str, int] = defaultdict()
        # A new value gets the next number from inside the dict's own lookup, so a
        # whole column is numbered in C, by map and fromiter, without a list between.
        self._numbers.default_factory = self._numbers.__len__

    def __call__(self, values: list[str]) -> npt.NDArray[np.intp]:
        return np.fromiter(map(self._numbers.__getitem__, values), np.intp, len(values))

    @property
    def values(self) -> list[str]:
        return list(self._numbers)


def natural_ranks(names: list[str], *, tie_by_text: bool = False) -> npt.NDArray[np.intp]:
    """Each of these distinct names' place in natural order ("2" before "10").

    Names whose natural keys are equal ("07" and "7") share a place, unless
    ``tie_by_text``, when plain text order parts them.
    """
    keys = [natural_key(name) for name in names]
    order = sorted(range(len(names)), key=lambda i: (keys[i], names[i]) if tie_by_text else keys[i])
    rank = np.empty(len(names), dtype=np.intp)
    place = -1
    for position, index in enumerate(order):
        if tie_by_text or position == 0 or keys[index] != keys[order[position - 1]]:
            place += 1
        rank[index] = place
    return rank


def vs_par_column(
    scores: npt.NDArray[np.int64],
    real: npt.NDArray[np.bool_],
    boards: npt.NDArray[np.int64],
    pars: Mapping[int, BoardPar],
) -> list[int | None]:
    """:func:`vs_par` of every result: IMPs against its board's par, None without one."""
    if not pars:
        return [None] * len(scores)
    known = np.array(sorted(pars), dtype=np.int64)
    par_scores = np.array([pars[number].score for number in known.tolist()], dtype=np.int64)
    at = np.minimum(np.searchsorted(known, boards), len(known) - 1)
    has_par = (known[at] == boards) & real
    won = imps_array(scores - par_scores[at])
    return [w if h else None for w, h in zip(won.tolist(), has_par.tolist(), strict=True)]


class LineSource(ABC):
    """Makes travellers' :class:`Line` values on first use, every line at once; a
    traveller takes its own by their places (``maker``)."""

    def __init__(self) -> None:
        self._all: list[Line] = []

    def maker(self, places: npt.NDArray[np.intp]) -> Callable[[], tuple[Line, ...]]:
        return lambda: self._lines(places)

    def _lines(self, places: npt.NDArray[np.intp]) -> tuple[Line, ...]:
        if not self._all:
            with cyclic_gc_paused():  # tens of thousands of small values, no cycles
                self._all = self._every_line()
        every = self._all
        return tuple([every[place] for place in places.tolist()])

    @abstractmethod
    def _every_line(self) -> list[Line]: ...


def ranked(
    rows: list[tuple[str, str, float, int, Fraction | None]], direction: str
) -> list[Standing]:
    out: list[Standing] = []
    keys = [r[4] if r[4] is not None else round(r[2], 6) for r in rows]
    # Equal keys share the place of the first of them (the rows come sorted by key).
    first: dict[float | Fraction, int] = {}
    for index, key in enumerate(keys):
        first.setdefault(key, index)
    tied = Counter(keys)
    for i, (name, section, total, boards, percent) in enumerate(rows):
        rank = f"{first[keys[i]] + 1}{'=' if tied[keys[i]] > 1 else ''}"
        out.append(
            Standing(
                rank,
                name,
                section,
                direction,
                round(total, 2),
                boards,
                None if percent is None else round_half_away(percent, 2),
            )
        )
    return out
