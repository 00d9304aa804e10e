"""A scored event as people read it: numbers, titles and column names (shared by the
text, CSV and HTML reports) and the ranking as an HTML table for a notebook.

It describes what it needs of a scored event (:class:`ScoredEvent`, which
:class:`~bridgescore.session.scoring.scored.SessionScore` is) rather than importing it, so
that the ``_repr_html_`` of a ``SessionScore`` can build on it.

>>> fmt(6.25), fmt(4, signed=True), column_text([76.875, 32.5, None])
('6.25', '+4', ['76.88', '32.50', ''])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from bridgescore.compare.scalar import round_half_away
from bridgescore.display.markup import Markup, table_html, text_html
from bridgescore.session.scoring.event import Member, players_of
from bridgescore.session.scoring.methods import ScoringMethod, ScoringOptions

__all__ = [
    "FIGURE_PLACES",
    "RankingTable",
    "ScoredEvent",
    "ScoredStanding",
    "column_text",
    "figure",
    "fmt",
    "last_column",
    "last_value",
    "players_text",
    "ranked_as",
    "ranking_html",
    "ranking_numbers",
    "ranking_tables",
    "report_title",
]


class ScoredStanding(Protocol):
    """What a ranking shows of one pair's or team's place."""

    @property
    def rank(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def section(self) -> str: ...
    @property
    def direction(self) -> str: ...
    @property
    def total(self) -> float: ...
    @property
    def boards(self) -> int: ...
    @property
    def percent(self) -> float | None: ...
    @property
    def average(self) -> float: ...


class ScoredEvent(Protocol):
    """What a ranking shows of a scored event."""

    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def unit(self) -> str: ...
    @property
    def ranking_unit(self) -> str: ...
    @property
    def standings(self) -> Sequence[ScoredStanding]: ...
    @property
    def notes(self) -> Sequence[str]: ...
    @property
    def members(self) -> Mapping[str, tuple[Member, ...]]: ...
    @property
    def scoring_method(self) -> ScoringMethod: ...
    @property
    def options(self) -> ScoringOptions: ...


#: The decimals of every figure a report shows (matchpoints, IMPs, percentages,
#: averages): the text, HTML and CSV reports and the JSON documents alike.
FIGURE_PLACES = 2


def figure(value: float | None) -> float | None:
    """A computed figure as the reports show it: rounded once, to
    :data:`FIGURE_PLACES` decimals, halves away from zero (docs/sessions.md); ``None``
    stays ``None``. The JSON documents write these numbers, the text the same ones.

    >>> figure(0.2999999999999998), figure(4.125), figure(-2.675), figure(None)
    (0.3, 4.13, -2.68, None)
    """
    return None if value is None else round_half_away(value, FIGURE_PLACES)


def fmt(value: float | None, *, signed: bool = False) -> str:
    """A number as people read it: ``5``, ``6.2``, ``+4``, ``5.25``; blank for None."""
    shown = figure(value)
    if value is None or shown is None:
        return ""
    text = f"{shown:.{FIGURE_PLACES}f}".rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    return f"+{text}" if signed and value > 0 else text


def column_text(values: Sequence[float | None], *, most: int = FIGURE_PLACES) -> list[str]:
    """A column of numbers, every one with the same number of decimals: as many as
    the most precise value needs, at most ``most`` (blank for None).

    >>> column_text([76.875, 32.5, 50.0, None])
    ['76.88', '32.50', '50.00', '']
    >>> column_text([41.875, 23.125]), column_text([-0.001, 1.5])
    (['41.88', '23.13'], ['0.0', '1.5'])
    >>> column_text([24.6, 17.3, 20.0]), column_text([11, -6, 0])
    (['24.6', '17.3', '20.0'], ['11', '-6', '0'])
    """
    # Halves away from zero, as every rounding in a session (docs/sessions.md).
    rounded = [None if value is None else round_half_away(value, most) for value in values]
    shown = [f"{value:.{most}f}".rstrip("0") for value in rounded if value is not None]
    decimals = max((len(text.partition(".")[2]) for text in shown), default=0)
    out = []
    for value in rounded:
        if value is None:
            out.append("")
            continue
        text = f"{round_half_away(value, decimals):.{decimals}f}"
        out.append("0" + text[2:] if text.startswith("-0") and not text.strip("-0.") else text)
    return out


def _last_number(session: ScoredEvent, standing: ScoredStanding) -> float | None:
    return standing.percent if session.scoring_method.shows_percent else standing.average


def ranking_numbers(session: ScoredEvent) -> dict[ScoredStanding, tuple[str, str]]:
    """Each standing's total and :func:`last_column` entry as the rankings print them:
    each column in one number format over the whole ranking (``32.50`` beside
    ``76.88``, never ``32.5``)."""
    standings = session.standings
    totals = column_text([s.total for s in standings])
    lasts = column_text([_last_number(session, s) for s in standings])
    return {s: (total, last) for s, total, last in zip(standings, totals, lasts, strict=True)}


def report_title(session: ScoredEvent) -> str:
    """The report's title: the event's name and the method, ``Club - matchpoints``."""
    return f"{session.name or 'Event'} - {session.scoring_method.title}"


def players_text(session: ScoredEvent, section: str, name: str) -> str:
    """The players of pair (or team) ``name`` of ``section`` as the ranking shows them:
    ``Ann Archer & Bob Baker`` (section B's 1N has its own, A's 1N theirs)."""
    return " & ".join(str(member) for member in players_of(session.members, section, name))


def ranked_as(session: ScoredEvent) -> str:
    """What the ranking ranks: ``Pair``, ``Team`` or (an individual) ``Player``."""
    return {"teams": "Team", "individual": "Player"}.get(session.kind, "Pair")


def last_column(session: ScoredEvent) -> str:
    """The ranking's last column: the percentage, or the points per board; ``""``: none,
    for a ranking in victory points (a match's VPs are not spread over its boards)."""
    if session.ranking_unit == "VP":
        return ""
    return "%" if session.scoring_method.shows_percent else "Per board"


def last_value(session: ScoredEvent, standing: ScoredStanding) -> str:
    """A standing's entry in :func:`last_column`, on its own (a ranking prints the
    column in one format: :func:`ranking_numbers`)."""
    return fmt(_last_number(session, standing))


_DIRECTIONS = {"NS": "North-South", "EW": "East-West"}


@dataclass(frozen=True)
class RankingTable:
    """One table of a ranking as every report prints it: ``caption`` (``North-South``,
    ``East-West`` in a Mitchell movement, else ``Overall``), the column ``headers``,
    the ``rows`` as text, and the ``numeric`` columns (aligned right); ``standings``
    are the standings the rows show, row by row, for a page that links each row to its
    pair (two tables are equal when they print the same)."""

    caption: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    numeric: frozenset[int]
    standings: tuple[ScoredStanding, ...] = field(default=(), compare=False, repr=False)

    @property
    def name_column(self) -> int:
        """The column of the pair's, team's or (an individual) player's name."""
        return next(i for i, h in enumerate(self.headers) if h in ("Pair", "Team", "Player"))

    @property
    def total_column(self) -> int:
        """The column of the total (``Total MP``, ``Total VP``...)."""
        return next(i for i, h in enumerate(self.headers) if h.startswith("Total "))


def ranking_tables(session: ScoredEvent) -> list[RankingTable]:
    """The ranking as tables, one per direction of a Mitchell movement (one overall
    otherwise): rank, section (when the event has sections), pair or team, players
    (when known), boards, total and :func:`last_column`, numbers as
    :func:`ranking_numbers` prints them. Sections compared each within itself are
    ranked apart: a table per section (and direction), ``Section A, North-South``."""
    numbers = ranking_numbers(session)
    last = last_column(session)
    has_section = any(s.section for s in session.standings)
    apart = has_section and session.options.per_section
    headers = (
        "Rank",
        *(["Section"] if has_section else []),
        ranked_as(session),
        *(["Players"] if session.members else []),
        "Boards",
        f"Total {session.ranking_unit}",
        *([last] if last else []),
    )
    # Boards, the total and the last column: the numbers.
    numeric = frozenset(range(len(headers) - (3 if last else 2), len(headers)))
    tables = []
    for direction, section in dict.fromkeys(
        (s.direction, s.section if apart else "") for s in session.standings
    ):
        shown = tuple(
            s
            for s in session.standings
            if s.direction == direction and (not apart or s.section == section)
        )
        rows = tuple(
            (
                s.rank,
                *([s.section] if has_section else []),
                s.name,
                *([players_text(session, s.section, s.name)] if session.members else []),
                str(s.boards),
                *numbers[s][: 2 if last else 1],
            )
            for s in shown
        )
        tables.append(RankingTable(_caption(direction, section), headers, rows, numeric, shown))
    return tables


def _caption(direction: str, section: str) -> str:
    """``North-South``, ``Overall``; ``Section B, East-West``, ``Section B`` when each
    section is ranked apart."""
    words = _DIRECTIONS.get(direction, "Overall")
    if not section:
        return words
    return f"Section {section}" + (f", {words}" if direction else "")


def ranking_html(session: ScoredEvent) -> Markup:
    """The ranking as the text report has it (a table per direction of a Mitchell
    movement), in HTML for a notebook: every name escaped, no scripts."""
    parts = [f"<div><b>{text_html(report_title(session))}</b></div>"]
    parts.extend(
        table_html(table.headers, table.rows, numeric=table.numeric, caption=table.caption)
        for table in ranking_tables(session)
    )
    parts.extend(f"<div>note: {text_html(note)}</div>" for note in session.notes)
    return Markup('<div class="bridgescore ranking">' + "".join(parts) + "</div>")
