"""What a live event answers, as values: the audit log's lines (:class:`AuditLine`), the
ranking and the report (:class:`LiveReport`) and a board's traveller so far
(:class:`LiveTraveller`). Each value's ``as_dict()`` is the JSON document the live
server's API sends and ``bridgescore session score/report --json`` prints; the pages
read the values' fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # The reports load when a document is first written, as they did before these values:
    # a table's phone entering results never needs them.
    from bridgescore.session.scoring.scored import SessionScore, Traveller
    from bridgescore.session.store.audit import AuditEntry

__all__ = ["AuditLine", "LiveReport", "LiveTraveller"]


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

        if self.travellers:
            return as_dict(self.scored)
        data = as_dict(self.scored)
        del data["travellers"]
        return data


@dataclass(frozen=True, slots=True)
class LiveTraveller:
    """One board's traveller so far (``traveller``: its lines with their points, the
    deal, double-dummy table and par when the event has the hand record) and the unit of
    its points (``MP``, ``IMP``...)."""

    traveller: Traveller
    unit: str

    def as_dict(self) -> dict[str, Any]:
        """The traveller as the JSON report writes it
        (:func:`~bridgescore.session.reports.text.traveller_dict`) with ``"unit"``."""
        from bridgescore.session.reports.text import traveller_dict

        return {**traveller_dict(self.traveller), "unit": self.unit}
