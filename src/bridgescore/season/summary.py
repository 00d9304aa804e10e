"""An event file summed up for the season: each pair's place, percentage, boards and
players, as ``session score`` ranks them.

The event is scored by :func:`~bridgescore.session.workflow.score_stored_event`, the one
scorer of every report, so a pair's percentage and rank in the season are those its
own ranking prints. A pair's *field* is the pairs it is ranked against: its direction
in a Mitchell (and its section, when sections are ranked apart), everyone in a Howell.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bridgescore.errors import RecordError
from bridgescore.session.scoring.event import Member, players_of
from bridgescore.session.scoring.scored import SessionScore
from bridgescore.session.store.events import EventStore
from bridgescore.session.workflow import score_stored_event

__all__ = ["EventSummary", "PairPlace", "read_event_summary", "summary_of"]


@dataclass(frozen=True, slots=True)
class PairPlace:
    """One pair's line of an event's ranking: ``field`` names the pairs it was ranked
    against (``NS``, ``EW``, ``A NS`` with sections ranked apart, ``""`` a Howell),
    ``field_size`` how many they were (itself included). ``numbers`` are its players'
    register numbers once the club file has matched them (``""`` for one unmatched;
    empty in an event's own summary, before any matching)."""

    section: str
    pair: str
    field: str
    rank: str
    percent: float
    boards: int
    field_size: int
    players: tuple[Member, ...]
    numbers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class EventSummary:
    """An event as the season keeps it: its name, day, the fingerprint of its results
    (the same results, however the file is named, are the same event) and each pair's
    place."""

    name: str
    date: str
    fingerprint: str
    method: str
    places: tuple[PairPlace, ...]
    notes: tuple[str, ...] = ()


def summary_of(scored: SessionScore, *, date: str, fingerprint: str) -> EventSummary:
    """The season's view of a scored pairs event; raises :class:`RecordError` for a
    teams event or one scored without percentages (Butler, cross-IMPs)."""
    if scored.kind == "teams":
        raise RecordError(
            f"event {scored.name!r} is a teams event: the season ranks players of pairs events"
        )
    if not scored.scoring_method.shows_percent:
        raise RecordError(
            f"event {scored.name!r} is scored by {scored.method}: the season ranks "
            "matchpoint percentages (expected an event scored by mp)"
        )
    apart = scored.options.per_section and len({s.section for s in scored.standings}) > 1

    def field(section: str, direction: str) -> str:
        return f"{section} {direction}".strip() if apart else direction

    sizes = Counter(field(s.section, s.direction) for s in scored.standings)
    places = tuple(
        PairPlace(
            s.section,
            s.name,
            field(s.section, s.direction),
            s.rank,
            50.0 if s.percent is None else s.percent,
            s.boards,
            sizes[field(s.section, s.direction)],
            players_of(scored.members, s.section, s.name),
        )
        for s in scored.standings
    )
    return EventSummary(scored.name, date, fingerprint, scored.method, places)


def read_event_summary(path: str | Path) -> EventSummary:
    """Score the event file at ``path`` (read only) and sum it up for the season.

    The event's day is the one it keeps (``session new``, ``session import --date``, the
    imported file's); an event that keeps none takes its file's last change, and a note
    says so. Raises a :class:`~bridgescore.errors.BridgeError` for a file that is no
    event, a teams event or one not scored in matchpoints.
    """
    path = Path(path)
    with EventStore(path, mode="read") as store:
        scored = score_stored_event(store)
        fingerprint = _fingerprint(store)
        date = store.date
    notes: list[str] = []
    if not date:
        try:
            changed = os.stat(path).st_mtime
        except OSError as error:  # pragma: no cover - the file was just read
            raise RecordError(f"cannot read {str(path)!r}: {error.strerror}") from None
        date = datetime.fromtimestamp(changed, UTC).date().isoformat()
        notes.append(
            f"{path}: the event keeps no date: filed under {date}, the day its file last "
            "changed (give one with 'session import EVENT --date')"
        )
    summary = summary_of(scored, date=date, fingerprint=fingerprint)
    if not summary.places:
        raise RecordError(f"{str(path)!r} holds no results: nothing to add to the season")
    return EventSummary(
        summary.name,
        summary.date,
        summary.fingerprint,
        summary.method,
        summary.places,
        tuple(notes),
    )


def _fingerprint(store: EventStore) -> str:
    """SHA-256 of the event's name, day, players and results (each as section, board,
    pairs and outcome), in order: an event copied to another file, or added again, is
    known as the same; two evenings on the same boards with the same scores are not."""
    digest = hashlib.sha256()
    digest.update(f"{store.name}\x1f{store.date}\x1e".encode())
    for key, players in sorted(store.members().items()):
        named = "\x1f".join(f"{m.name}\x1d{m.number}" for m in players)
        digest.update(f"{key}\x1f{named}\x1e".encode())
    for result in sorted(store.results(), key=lambda r: (r.key, r.variant)):
        fields = (*map(str, result.key), result.variant, result.describe())
        digest.update("\x1f".join(fields).encode() + b"\x1e")
    return digest.hexdigest()
