"""The movement an event file keeps, as the JSON text of design.md's Storage section.

``{"kind", "tables", "rounds", "boards_per_round", "rows": [{"round", "table", "ns",
"ew", "boards"}], "sitouts": [{"round", "pair"}], "arrow_switch": [rounds]}``, plus
``"section"`` when it is not ``A``. A stored movement that does not read back is a
:class:`~bridgescore.errors.RecordError` naming what is wrong.

>>> from bridgescore.movement.model import Movement, Row
>>> m = Movement("mitchell", 1, 1, 2, (Row(1, 1, "1N", "1E", (1, 2)),))
>>> movement_from_text(movement_text(m)) == m
True
"""

from __future__ import annotations

import json
from typing import Any

from bridgescore.errors import BridgeError, RecordError
from bridgescore.movement.model import Movement, Row, Sitout

__all__ = ["movement_from_text", "movement_text"]


def movement_text(movement: Movement) -> str:
    """The movement as compact JSON text."""
    data: dict[str, Any] = {
        "kind": movement.kind,
        "tables": movement.tables,
        "rounds": movement.rounds,
        "boards_per_round": movement.boards_per_round,
        "rows": [
            {"round": r.round, "table": r.table, "ns": r.ns, "ew": r.ew, "boards": list(r.boards)}
            for r in movement.rows
        ],
        "sitouts": [{"round": s.round, "pair": s.pair} for s in movement.sitouts],
        "arrow_switch": list(movement.arrow_switch),
    }
    if movement.section != "A":
        data["section"] = movement.section
    return json.dumps(data, separators=(",", ":"))


def movement_from_text(text: str) -> Movement:
    """The movement :func:`movement_text` wrote."""
    try:
        data = json.loads(text)
        return Movement(
            data["kind"],
            data["tables"],
            data["rounds"],
            data["boards_per_round"],
            tuple(
                Row(r["round"], r["table"], r["ns"], r["ew"], tuple(r["boards"]))
                for r in data["rows"]
            ),
            tuple(Sitout(s["round"], s["pair"]) for s in data.get("sitouts", ())),
            tuple(data.get("arrow_switch", ())),
            data.get("section", "A"),
        )
    except BridgeError as error:
        raise RecordError(f"the event's stored movement cannot be read: {error}") from None
    except (ValueError, KeyError, TypeError):
        raise RecordError(
            f"the event's stored movement cannot be read: {text[:60]!r} is not a movement's JSON"
        ) from None
