"""A simultaneous pairs: several clubs' events on the same boards, scored as one field.

Each club played the same deals under the same numbers. :func:`merge_clubs` puts every
club's results into one event: each result's section is its club, and each pair is
labelled ``CLUB/PAIR`` (``CLUB/SECTION/PAIR`` when the club's own event named sections),
so pairs "1N" of two clubs stay two pairs. Scored across the field (the scorer's
default), each board is matchpointed over every result of every club, Neuberg'd where
a board has fewer results than the most any board has. :func:`score_sim` adds each
club's own ranking (the field's matchpoints, ranked within the club) and the outliers:
results most likely entered the wrong way round.

>>> from bridgescore.session.scoring.event import Event, TableResult
>>> a = SimClub("Acol", "a.db", Event(results=(TableResult.played(1, "1N", "1E", "4SN="),)))
>>> b = SimClub("Bath", "b.db", Event(results=(TableResult.played(1, "1N", "1E", "4SN+1"),)))
>>> sim = score_sim(merge_clubs([a, b], "County sim"))
>>> [(s.name, s.section, s.total) for s in sim.scored.standings if s.direction == "NS"]
[('Bath/1N', 'Bath', 2.0), ('Acol/1N', 'Acol', 0.0)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from bridgescore.board import Board
from bridgescore.errors import RecordError
from bridgescore.session.reports.text import as_dict, ranking_text
from bridgescore.session.scoring.event import (
    Event,
    Member,
    TableResult,
    players_of,
    result_columns,
)
from bridgescore.session.scoring.scored import SessionScore, Standing
from bridgescore.session.scoring.scorer import score_event
from bridgescore.session.store.events import EventStore, Origin
from bridgescore.session.store.newfile import check_new_file, new_file

__all__ = [
    "Outlier",
    "SimClub",
    "SimScore",
    "find_outliers",
    "merge_clubs",
    "read_club",
    "score_sim",
    "sim_dict",
    "sim_label",
    "sim_of_files",
    "sim_text",
    "write_sim",
]


@dataclass(frozen=True)
class SimClub:
    """One club's event in a sim: the club's name, where the event came from (its file,
    for messages) and the event itself."""

    club: str
    source: str
    event: Event


@dataclass(frozen=True, slots=True)
class Outlier:
    """A result most likely entered the wrong way round: its score is the negation of
    the board's usual score (``usual``, held by ``held`` of the board's ``field``
    real results) and no other line has it."""

    club: str
    board: int
    ns: str
    ew: str
    result: str
    score: int
    usual: int
    held: int
    field: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "club": self.club,
            "board": self.board,
            "ns": self.ns,
            "ew": self.ew,
            "result": self.result,
            "score": self.score,
            "usual": self.usual,
            "held": self.held,
            "field": self.field,
        }

    def __str__(self) -> str:
        return (
            f"{self.club}: board {self.board} {self.ns} v {self.ew}: {self.result} "
            f"({self.score:+d}), where {self.held} of {self.field} scored {self.usual:+d}"
        )


@dataclass(frozen=True)
class SimScore:
    """The sim scored: the whole field's :class:`SessionScore`, each club's ranking (the
    field's totals, ranked within the club) and the outliers."""

    scored: SessionScore
    clubs: tuple[str, ...]
    club_rankings: Mapping[str, tuple[Standing, ...]] = field(default_factory=dict)
    outliers: tuple[Outlier, ...] = ()


def sim_label(club: str, pair: str, section: str = "") -> str:
    """The pair's name in the sim: ``sim_label("Acol", "1N") == "Acol/1N"``; with the
    club's own section, ``Acol/A/1N``."""
    return f"{club}/{section}/{pair}" if section else f"{club}/{pair}"


def merge_clubs(clubs: Sequence[SimClub], name: str = "") -> Event:
    """One pairs event holding every club's results, each labelled by its club.

    Raises :class:`~bridgescore.errors.RecordError` for fewer than two clubs, two
    clubs of one name, a teams event, or a board dealt differently (another deal,
    dealer or vulnerability) in two events, naming both. A board without a deal in an
    event is matched by its number only.
    """
    if len(clubs) < 2:
        raise RecordError(f"a sim needs the events of two clubs or more, got {len(clubs)}")
    seen: dict[str, str] = {}
    for club in clubs:
        if not club.club.strip():
            raise RecordError(f"{club.source}: the club needs a name")
        if club.club in seen:
            raise RecordError(
                f"{seen[club.club]} and {club.source} are both club {club.club!r}: give "
                "each club its own name ('session new --club', or different file names)"
            )
        seen[club.club] = club.source
        if club.event.kind != "pairs":
            raise RecordError(
                f"{club.source} is a {club.event.kind} event: a sim ranks pairs events"
            )
    boards = _common_boards(clubs)
    results: list[TableResult] = []
    members: dict[str, tuple[Member, ...]] = {}
    for club in clubs:
        label = club.club
        for result in club.event.results:
            # The club is the section: the field is compared across (the default), and
            # 'session score --per-section' on the sim scores each club alone.
            # The constructor, not dataclasses.replace: a third of the time on 48,000.
            results.append(
                TableResult(
                    result.board,
                    sim_label(label, result.ns, result.section),
                    sim_label(label, result.ew, result.section),
                    result.result,
                    result.score,
                    result.adjusted,
                    label,
                    result.variant,
                    result.weighted,
                )
            )
        # Each pair that played, with its own section's players (players_of: A's 1N
        # and B's 1N are two pairs, each named apart).
        seated = {(r.section, pair) for r in club.event.results for pair in (r.ns, r.ew)}
        for section, pair in sorted(seated):
            players = players_of(club.event.members, section, pair)
            if players:
                members[sim_label(label, pair, section)] = players
    return Event(name, "pairs", boards, tuple(results), members)


def _common_boards(clubs: Sequence[SimClub]) -> dict[int, Board]:
    """Each board as the clubs' events know it; the same number dealt two ways refused."""
    known: dict[int, tuple[Board, str]] = {}
    for club in clubs:
        for number, board in club.event.boards.items():
            if number not in known:
                known[number] = (board, club.source)
                continue
            first, where = known[number]
            for what, old, new in (
                ("deal", first.deal, board.deal),
                ("dealer", first.dealer_seat, board.dealer_seat),
                ("vulnerability", first.vulnerable, board.vulnerable),
            ):
                if old is not None and new is not None and old != new:
                    raise RecordError(
                        f"board {number} is not the same board in {where} and {club.source}: "
                        f"its {what} differs (a sim's clubs play the same deals under the "
                        "same numbers)"
                    )
            # Keep what either event knows: the deal from one, the dealer from another.
            # "is None", not "or": North and no one vulnerable are members worth 0.
            known[number] = (
                replace(
                    first,
                    deal=board.deal if first.deal is None else first.deal,
                    dd_table=board.dd_table if first.dd_table is None else first.dd_table,
                    dealer_seat=board.dealer_seat
                    if first.dealer_seat is None
                    else first.dealer_seat,
                    vulnerable=board.vulnerable if first.vulnerable is None else first.vulnerable,
                ),
                where,
            )
    return {number: board for number, (board, _) in sorted(known.items())}


def score_sim(event: Event) -> SimScore:
    """Matchpoint the merged event (:func:`merge_clubs`) as one field; rank each club
    and find the outliers."""
    scored = score_event(event, "mp")
    clubs = tuple(dict.fromkeys(r.section for r in event.results))
    return SimScore(scored, clubs, _club_rankings(scored.standings, clubs), find_outliers(event))


def _club_rankings(
    standings: Sequence[Standing], clubs: Sequence[str]
) -> dict[str, tuple[Standing, ...]]:
    """Each club's lines in the field's order, ranked again within the club (each
    direction apart in a Mitchell). Lines tie in the club exactly when they tie in the
    field (the field's rank is made on exact shares): a tie shares its first place."""
    lines: dict[str, list[Standing]] = {club: [] for club in clubs}
    for standing in standings:
        lines[standing.section].append(standing)
    ranked: dict[str, tuple[Standing, ...]] = {}
    for club, own in lines.items():
        ties = [(standing.direction, standing.rank.rstrip("=")) for standing in own]
        tied = Counter(ties)
        first: dict[tuple[str, str], int] = {}
        place: Counter[str] = Counter()
        out = []
        for standing, tie in zip(own, ties, strict=True):
            place[standing.direction] += 1
            first.setdefault(tie, place[standing.direction])
            out.append(replace(standing, rank=f"{first[tie]}{'=' if tied[tie] > 1 else ''}"))
        ranked[club] = tuple(out)
    return ranked


def find_outliers(event: Event) -> tuple[Outlier, ...]:
    """The results most likely entered the wrong way round.

    On each board (each version of a fouled board apart), the most frequent real score
    ``s`` other than 0, held by at least half the board's real results: a result
    scoring ``-s`` that no other line holds is an outlier. Vectorised: a sim of
    48,000 results is looked at in a few array calls.
    """
    results = event.results
    if not results:
        return ()
    read = result_columns(results, event.boards)
    if read.named_variants:
        codes: dict[tuple[int, str], int] = {}
        group = np.array(
            [codes.setdefault((r.board, r.variant), len(codes)) for r in results], dtype=np.int64
        )
    else:
        group = read.boards
    real = np.flatnonzero(read.real)
    groups, scores = group[real], read.scores[real]
    # A score is a multiple of 10 within +-7600: one key per (group, score).
    span = 2 * 760 + 1
    keys = groups * span + scores // 10 + 760
    unique, counts = np.unique(keys, return_counts=True)
    unique_group = unique // span
    field_size = np.bincount(groups, minlength=int(group.max()) + 1)
    most = np.zeros(len(field_size), dtype=np.int64)
    np.maximum.at(most, unique_group, counts)
    usual_score = (unique % span - 760) * 10
    usual = (
        (counts == most[unique_group])
        & (2 * counts >= field_size[unique_group])
        & (usual_score != 0)
    )
    # The negation of each usual score, held by exactly one line.
    negated = unique_group[usual] * span - usual_score[usual] // 10 + 760
    at = np.searchsorted(unique, negated)
    found = (at < len(unique)) & (unique[np.minimum(at, len(unique) - 1)] == negated)
    single = found & (counts[np.minimum(at, len(unique) - 1)] == 1)
    wrong = set(negated[single].tolist())
    outliers = []
    held_by = dict(zip(unique[usual].tolist(), counts[usual].tolist(), strict=True))
    for index in real[np.isin(keys, list(wrong))].tolist() if wrong else []:
        result = results[index]
        score = int(read.scores[index])
        group_of = int(group[index])
        outliers.append(
            Outlier(
                result.section,
                result.board,
                result.ns,
                result.ew,
                result.describe(),
                score,
                -score,
                held_by[group_of * span - score // 10 + 760],
                int(field_size[group_of]),
            )
        )
    outliers.sort(key=lambda o: (o.board, o.club, o.ns))
    return tuple(outliers)


# ------------------------------------------------------------------ the files


def read_club(path: str | Path) -> SimClub:
    """A club's event file, read only: the club is the event's club name
    (``session new --club``), else the file's stem."""
    with EventStore(path, mode="read") as store:
        return SimClub(store.club.strip() or Path(path).stem, str(path), store.load())


def sim_of_files(sources: Sequence[str | Path], name: str = "") -> SimScore:
    """The clubs' event files scored as one field, read only: nothing is written
    (``serve``'s ``GET /api/sim`` answers with it)."""
    return score_sim(merge_clubs([read_club(source) for source in sources], name))


def write_sim(out: str | Path, sources: Sequence[str | Path], name: str = "") -> SimScore:
    """Merge the clubs' event files into a new event file ``out`` and score it.

    ``out`` is never overwritten (a :class:`~bridgescore.errors.RecordError` names it)
    and appears whole or not at all: written under a temporary name, linked into place.
    It is an event file like any other: ``session score OUT`` ranks the same field.
    """
    target = Path(out)
    new_only = (
        "a sim is written to a new file (choose another, or remove this one if it is no "
        "longer wanted)"
    )
    check_new_file(target, new_only)
    clubs = [read_club(source) for source in sources]
    source_of = {club.club: Origin(club.source) for club in clubs}
    event = merge_clubs(clubs, name or target.stem)
    sim = score_sim(event)
    with new_file(target, new_only) as temporary, EventStore(temporary, mode="create") as store:
        store.add(
            ((board, source_of[clubs[0].club]) for board in event.boards.values()),
            ((result, source_of[result.section]) for result in event.results),
            info={"name": event.name, "kind": "pairs"},
            members=event.members or None,
        )
    return sim


# ------------------------------------------------------------------ reports


def sim_text(sim: SimScore) -> str:
    """The field's ranking, each club's ranking and the outliers, as text."""
    parts = [ranking_text(sim.scored)]
    for club in sim.clubs:
        title = f"{sim.scored.name}, {club}"
        own = replace(sim.scored, name=title, standings=sim.club_rankings[club], notes=())
        parts.append(ranking_text(own))
    lines = [f"Outliers (most likely entered the wrong way round): {len(sim.outliers)}"]
    lines.extend(f"  {outlier}" for outlier in sim.outliers)
    parts.append("\n".join(lines))
    return "\n\n".join(parts)


def sim_dict(sim: SimScore) -> dict[str, Any]:
    """The sim as JSON: the field's ranking (as 'session score --json'), ``clubs`` (each
    club's ranking) and ``outliers``."""
    # Without travellers: drawing every line of the field only to drop it costs more
    # than the rest of the document.
    data = as_dict(sim.scored, travellers=False)
    data["clubs"] = {
        club: as_dict(replace(sim.scored, standings=sim.club_rankings[club]), travellers=False)[
            "ranking"
        ]
        for club in sim.clubs
    }
    data["outliers"] = [outlier.as_dict() for outlier in sim.outliers]
    return data
