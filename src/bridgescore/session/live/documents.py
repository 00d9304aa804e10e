"""What a live event answers, as values: the audit log's lines (:class:`AuditLine`), the
ranking and the report (:class:`LiveReport`), a board's traveller so far
(:class:`LiveTraveller`), a table's rounds (:class:`TableView`: each a
:class:`TableRound` with its :class:`EnteredResult` results and the :class:`NextMove`
after it), each table's progress (:class:`TableProgress`, by :class:`RoundProgress`) and
a Swiss's rounds drawn (:class:`SwissProgress`). Each value's ``as_dict()`` is the JSON
document the live server's API sends and ``bridgescore session score/report --json``
prints; the pages read the values' fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bridgescore.movement.flow import NextStop
from bridgescore.movement.model import Movement, Row

if TYPE_CHECKING:
    # The reports load when a document is first written, as they did before these values:
    # a table's phone entering results never needs them.
    from bridgescore.session.scoring.scored import ScoredBoard, SessionScore
    from bridgescore.session.store.audit import AuditEntry

__all__ = [
    "AuditLine",
    "EnteredResult",
    "LiveReport",
    "LiveTraveller",
    "NextMove",
    "NextSeat",
    "RoundProgress",
    "SwissProgress",
    "TableProgress",
    "TableRound",
    "TableView",
]


@dataclass(frozen=True, slots=True)
class AuditLine:
    """One line of a live event's audit log: its number, when (UTC, ISO 8601), who
    (``table 3``, ``director``), the action (``enter``, ``correct``, ``adjust``...), which
    result (section, board, pairs; board 0 for a change to the event itself), the old
    outcome (``None`` for a first entry), the new one and the director's reason."""

    entry: int
    at: str
    who: str
    action: str
    section: str
    board: int
    ns: str
    ew: str
    old: str | None
    new: str
    reason: str

    @classmethod
    def from_entry(cls, entry: AuditEntry) -> AuditLine:
        """The line of a stored :class:`~bridgescore.session.store.audit.AuditEntry`."""
        return cls(
            entry.entry,
            entry.at,
            entry.who,
            entry.action,
            entry.section,
            entry.board,
            entry.ns,
            entry.ew,
            entry.old or None,
            entry.new,
            entry.reason,
        )

    def as_dict(self) -> dict[str, str | int | None]:
        """``{"entry", "at", "who", "action", "section", "board", "ns", "ew", "old",
        "new", "reason"}``: the line as ``GET /api/live/audit`` sends it."""
        return {
            "entry": self.entry,
            "at": self.at,
            "who": self.who,
            "action": self.action,
            "section": self.section,
            "board": self.board,
            "ns": self.ns,
            "ew": self.ew,
            "old": self.old,
            "new": self.new,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class LiveReport:
    """A live event scored (``scored``): with its travellers, the document ``session
    report EVENT --json`` prints; without (``travellers=False``, the ranking), the one
    ``session score EVENT --json`` prints."""

    scored: SessionScore
    travellers: bool = True

    def as_dict(self) -> dict[str, Any]:
        from bridgescore.session.reports.text import as_dict

        return as_dict(self.scored, travellers=self.travellers)


@dataclass(frozen=True, slots=True)
class LiveTraveller:
    """One board's traveller so far (``traveller``: its lines with their points, the
    deal, double-dummy table and par when the event has the hand record) and the unit of
    its points (``MP``, ``IMP``...)."""

    traveller: ScoredBoard
    unit: str

    def as_dict(self) -> dict[str, Any]:
        """The traveller as the JSON report writes it
        (:func:`~bridgescore.session.reports.text.traveller_dict`) with ``"unit"``."""
        from bridgescore.session.reports.text import traveller_dict

        return {**traveller_dict(self.traveller), "unit": self.unit}


@dataclass(frozen=True, slots=True)
class EnteredResult:
    """A table's outcome on a board: the ``board`` number, the ``result`` as the audit log
    writes it (``4SN+1``, ``Pass``, ``60/40``, ``not played``), the NS score (``None`` for
    an adjusted score or a board not played) and the opening ``lead`` entered with it
    (``HQ``), or ``None``."""

    board: int
    result: str
    score_ns: int | None
    lead: str | None

    def as_dict(self) -> dict[str, int | str | None]:
        """``{"board", "result", "score_ns", "lead"}``."""
        return {
            "board": self.board,
            "result": self.result,
            "score_ns": self.score_ns,
            "lead": self.lead,
        }


@dataclass(frozen=True, slots=True)
class NextSeat:
    """Where a pair sits in the next round: the ``table`` and its ``direction`` there
    (``NS`` or ``EW``; a Howell pair may change it)."""

    table: int
    direction: str

    def as_dict(self) -> dict[str, int | str]:
        """``{"table", "direction"}``."""
        return {"table": self.table, "direction": self.direction}


@dataclass(frozen=True, slots=True)
class NextMove:
    """What a table is told after a round: where its NS pair and its EW pair sit next
    (``None``: sitting out) and where its ``boards`` go, set by set (each a
    :class:`~bridgescore.movement.flow.NextStop`: a table, a relay, the bye stand or
    collect)."""

    ns: NextSeat | None
    ew: NextSeat | None
    boards: tuple[NextStop, ...]

    @classmethod
    def after(
        cls,
        movement: Movement,
        row: Row,
        stops: Mapping[tuple[int, int], tuple[NextStop, ...]],
    ) -> NextMove | None:
        """The move after ``row``'s round, read from the next round's rows and the
        boards' ``stops`` (:func:`~bridgescore.movement.flow.next_stops`); ``None`` after
        the last round."""
        if row.round >= movement.rounds:
            return None
        following = movement.rows_in_round(row.round + 1)

        def seat_of(pair: str) -> NextSeat | None:
            for place in following:
                if pair in place.pairs:
                    return NextSeat(place.table, "NS" if place.ns == pair else "EW")
            return None

        return cls(seat_of(row.ns), seat_of(row.ew), stops.get((row.round, row.table), ()))

    @property
    def boards_to(self) -> int | None:
        """The first table the boards go to (a relay's first); ``None``: the bye stand or
        collected (:attr:`boards` says it all, set by set)."""
        return next((stop.tables[0] for stop in self.boards if stop.tables), None)

    def as_dict(self) -> dict[str, Any]:
        """``{"ns", "ew", "boards_to", "boards": [{"boards", "to", "tables"}]}``, ``to``
        being ``table 4``, ``relay: tables 3 and 4``, ``bye stand`` or ``collect``."""
        return {
            "ns": None if self.ns is None else self.ns.as_dict(),
            "ew": None if self.ew is None else self.ew.as_dict(),
            "boards_to": self.boards_to,
            "boards": [
                {"boards": list(stop.boards), "to": str(stop), "tables": list(stop.tables)}
                for stop in self.boards
            ],
        }


@dataclass(frozen=True, slots=True)
class TableRound:
    """One round at a table: the pairs' home seats ``ns`` and ``ew`` (as the table card
    shows them; ``arrow_switch``: they play the other direction's cards this round), its
    ``boards``, the ``results`` stored so far (in board order) and the move after it
    (``next_move``, ``None`` after the last round)."""

    round: int
    ns: str
    ew: str
    boards: tuple[int, ...]
    arrow_switch: bool
    results: tuple[EnteredResult, ...]
    next_move: NextMove | None

    @property
    def entered(self) -> tuple[int, ...]:
        """The boards with a stored outcome."""
        return tuple(line.board for line in self.results)

    @property
    def complete(self) -> bool:
        """Whether every board of the round has an outcome."""
        return len(self.results) >= len(self.boards)

    def result_of(self, board: int) -> EnteredResult | None:
        """The outcome stored for ``board``, or ``None``."""
        return next((line for line in self.results if line.board == board), None)

    def as_dict(self) -> dict[str, Any]:
        """``{"round", "ns", "ew", "boards", "entered", "arrow_switch", "results",
        "next"}``."""
        return {
            "round": self.round,
            "ns": self.ns,
            "ew": self.ew,
            "boards": list(self.boards),
            "entered": list(self.entered),
            "arrow_switch": self.arrow_switch,
            "results": [line.as_dict() for line in self.results],
            "next": None if self.next_move is None else self.next_move.as_dict(),
        }


@dataclass(frozen=True, slots=True)
class TableView:
    """A table's rounds, as its phone sees them: the ``section``, the ``table`` and each
    of its ``rounds`` in order."""

    section: str
    table: int
    rounds: tuple[TableRound, ...]

    def round_of(self, round_number: int) -> TableRound | None:
        """The table's round ``round_number``, or ``None`` when it plays none then."""
        return next((r for r in self.rounds if r.round == round_number), None)

    def as_dict(self) -> dict[str, Any]:
        """``{"section", "table", "rounds"}``: the document ``GET /api/live/table``
        sends."""
        return {
            "section": self.section,
            "table": self.table,
            "rounds": [r.as_dict() for r in self.rounds],
        }


@dataclass(frozen=True, slots=True)
class RoundProgress:
    """A table's round in the director's progress: the boards ``entered`` (or decided
    by the director) out of those ``due``."""

    round: int
    entered: int
    due: int

    def as_dict(self) -> dict[str, int]:
        """``{"round", "entered", "due"}``."""
        return {"round": self.round, "entered": self.entered, "due": self.due}


@dataclass(frozen=True, slots=True)
class TableProgress:
    """A table's progress: its section and number, the ``current_round`` (the first with
    a board still to enter; ``None`` once all are in), whether it is ``late`` (a round or
    more behind the median table of the room) and its ``rounds``."""

    section: str
    table: int
    current_round: int | None
    late: bool
    rounds: tuple[RoundProgress, ...]

    def as_dict(self) -> dict[str, Any]:
        """``{"section", "table", "current_round", "late", "rounds"}``."""
        return {
            "section": self.section,
            "table": self.table,
            "current_round": self.current_round,
            "late": self.late,
            "rounds": [r.as_dict() for r in self.rounds],
        }


@dataclass(frozen=True, slots=True)
class SwissProgress:
    """A Swiss teams event's rounds ``drawn`` so far, of the ``rounds`` it plays."""

    drawn: int
    rounds: int

    def as_dict(self) -> dict[str, int]:
        """``{"drawn", "rounds"}``."""
        return {"drawn": self.drawn, "rounds": self.rounds}
