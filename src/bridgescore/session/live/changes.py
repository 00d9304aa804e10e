"""The night's changes to a live event: a late pair seated in the movement's empty place,
and a table that sat the wrong way round.

The movement edits are :mod:`bridgescore.movement.changes`'s; here they meet the event
file. Each change is kept with what goes with it (the new tables' tokens and the pair's
name; the results relabelled) and its audit entry in one transaction
(:meth:`~bridgescore.session.store.live.LiveStore.change_movement`), refused if another
process changed the section's movement meanwhile. A running server sees the change on
its next request (:class:`~bridgescore.session.live.event.LiveEvent` rereads the movement
when the file changes).

A swap exchanges the NS and EW pairs of one table's row for one round, and moves every
result stored for that table's boards in that round to the exchanged pairs: the result
stays as played (its declarer's seat unchanged), and its NS score goes to the pair that
actually held the NS cards. Swapping again undoes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bridgescore.errors import NotThisTableError, RecordError
from bridgescore.movement.changes import seat_late_pair, swap_seats
from bridgescore.movement.model import Movement, Row
from bridgescore.session.live.creation import DEFAULT_URL_BASE, TableAccess, table_url
from bridgescore.session.live.players import players_named
from bridgescore.session.live.seating import pairs_at
from bridgescore.session.live.sections import stored_section
from bridgescore.session.scoring.event import participant_key
from bridgescore.session.store.access import new_token, token_digest
from bridgescore.session.store.live import LiveStore, ResultKey
from bridgescore.validate import quoted

__all__ = [
    "LateJoin",
    "Swapped",
    "add_late_pair",
    "add_pair_to_event",
    "swap_in_event",
    "swap_table",
]


def _row_dict(row: Row) -> dict[str, Any]:
    return {
        "round": row.round,
        "table": row.table,
        "ns": row.ns,
        "ew": row.ew,
        "boards": list(row.boards),
    }


@dataclass(frozen=True, slots=True)
class LateJoin:
    """A late pair seated: its section, label, name (or ``None``), the round it joins,
    the rows it plays and the tables that came into play (each with its new link)."""

    section: str
    pair: str
    name: str | None
    from_round: int
    rows: tuple[Row, ...]
    new_tables: tuple[TableAccess, ...]

    def as_dict(self) -> dict[str, Any]:
        """The ``session add-pair --json`` document (and the API's answer)."""
        return {
            "section": self.section,
            "pair": self.pair,
            "name": self.name,
            "from_round": self.from_round,
            "rows": [_row_dict(row) for row in self.rows],
            "new_tables": [
                {"section": t.section, "table": t.table, "token": t.token, "url": t.url}
                for t in self.new_tables
            ],
        }

    def describe(self) -> str:
        """One line, as the audit log keeps it."""
        named = f" ({self.name})" if self.name else ""
        tables = sorted({row.table for row in self.rows})
        at = "table" if len(tables) == 1 else "tables"
        listed = ", ".join(str(table) for table in tables)
        text = f"pair {self.pair}{named} joins at round {self.from_round}, at {at} {listed}"
        if self.new_tables:
            text += "; new link for table " + ", ".join(str(t.table) for t in self.new_tables)
        return text


@dataclass(frozen=True, slots=True)
class Swapped:
    """A table swapped: its section, table and round, the row as it is now (NS and EW as
    they sat) and the boards whose stored results moved to the exchanged pairs."""

    section: str
    row: Row
    relabelled: tuple[int, ...]

    def as_dict(self) -> dict[str, Any]:
        """The ``session swap --json`` document (and the API's answer)."""
        return {
            "section": self.section,
            **_row_dict(self.row),
            "relabelled": list(self.relabelled),
        }

    def describe(self) -> str:
        """One line, as the audit log keeps it."""
        text = (
            f"table {self.row.table} round {self.row.round}: NS and EW exchanged, now "
            f"{self.row.ns} NS v {self.row.ew} EW"
        )
        if self.relabelled:
            boards = ", ".join(str(board) for board in self.relabelled)
            text += f"; the results of board(s) {boards} credited to them"
        return text


def _section_movement(store: LiveStore, section: str | None) -> Movement:
    """The movement of ``section`` (``None``: the event's only section); a
    :class:`~bridgescore.errors.NotThisTableError` naming the event's sections for any
    other."""
    movements = store.movements
    if not movements:
        raise RecordError(
            f"{store.path!r} has no movement: a live session runs on an event made by "
            "'bridgescore session new'"
        )
    if section is None and len(movements) > 1:
        raise NotThisTableError(
            f"section: this event has {len(movements)} sections, {', '.join(movements)}: name one"
        )
    chosen = next(iter(movements)) if section is None else section
    if chosen not in movements:
        raise NotThisTableError(
            f"section {quoted(section)} is not one of this event's sections: expected "
            f"{', '.join(movements)}"
        )
    return movements[chosen]


def _stored_section(store: LiveStore, movement: Movement) -> str:
    """The section name ``movement``'s results are stored under: ``""`` in an event of
    one section, else the section's own."""
    return stored_section(store.movements, movement.section)


def add_late_pair(
    store: LiveStore,
    *,
    from_round: int,
    name: str | None = None,
    section: str | None = None,
    who: str,
) -> tuple[Movement, LateJoin]:
    """Seat a late pair in the empty place of ``section``'s movement from round
    ``from_round`` on (:func:`~bridgescore.movement.changes.seat_late_pair`), named
    ``name`` if given, audited as ``who``'s: the new movement and what was done.

    A table that comes into play for the first time gets a token, returned once in
    :attr:`LateJoin.new_tables`. Refused (a :class:`~bridgescore.errors.BridgeError`)
    for a movement without an empty place, a round outside it, a bad name, a board of
    the pair's rows that already has a result for one of the pairs meeting on it, and a
    table the pair reaches that has already played a later round.
    """
    movement = _section_movement(store, section)
    players = None if name is None else players_named(name)
    late = seat_late_pair(movement, from_round)
    _refuse_played(store, movement, late.rows)
    known = store.table_token_digests()
    new_tables = sorted(
        {row.table for row in late.rows if (movement.section, row.table) not in known}
    )
    tokens = {table: new_token() for table in new_tables}
    url_base = store.url_base or DEFAULT_URL_BASE
    joined = LateJoin(
        movement.section,
        late.pair,
        None if players is None else " & ".join(player.name for player in players),
        late.from_round,
        late.rows,
        tuple(
            TableAccess(movement.section, table, token, table_url(url_base, token))
            for table, token in tokens.items()
        ),
    )
    store.change_movement(
        late.movement,
        joined.describe(),
        action="add-pair",
        who=who,
        changed_from=movement,
        tokens={table: token_digest(token) for table, token in tokens.items()},
        # Named under its section (B:7E), as the names page names a pair.
        members=(
            None
            if players is None
            else {participant_key(_stored_section(store, movement), late.pair): players}
        ),
    )
    return late.movement, joined


def _refuse_played(store: LiveStore, movement: Movement, rows: tuple[Row, ...]) -> None:
    """Refuse rows for a late pair where play has gone past: a board of a row that
    already has a result for one of its pairs, or a table already in a later round."""
    section = _stored_section(store, movement)
    stored = store.stored_keys()
    on_board: dict[int, list[ResultKey]] = {}
    for key in stored:
        if key[0] == section:
            on_board.setdefault(key[1], []).append(key)
    for row in rows:
        for board in row.boards:
            held = [key for key in on_board.get(board, []) if {key[2], key[3]} & set(row.pairs)]
            if held:
                listed = ", ".join(f"{ns} v {ew}" for _, _, ns, ew in sorted(held))
                raise RecordError(
                    f"board {board} already has a result for {listed}: the late pair would "
                    f"play it at table {row.table} in round {row.round}; join at a later round"
                )
        later = [
            other.round
            for other in movement.rows
            if other.table == row.table
            and other.round > row.round
            and any(
                (section, board, *pairs_at(movement, other.table, other.round, board)) in stored
                for board in other.boards
            )
        ]
        if later:
            raise RecordError(
                f"table {row.table} has already played round {max(later)}: a late pair seated "
                f"there in round {row.round} would find it gone; join at a later round"
            )


def swap_table(
    store: LiveStore, *, table: int, round: int, section: str | None = None, who: str
) -> tuple[Movement, Swapped]:
    """The pairs at ``table`` sat in each other's seats in round ``round``: exchange the
    row's NS and EW in ``section``'s movement and move the results stored for that
    table's boards in that round to the exchanged pairs, audited as ``who``'s, in one
    transaction. The same call again undoes it. Returns the new movement and what was
    done; a :class:`~bridgescore.errors.NotThisTableError` for a table not in play then.
    """
    movement = _section_movement(store, section)
    swapped = swap_seats(movement, table, round)
    row = swapped.row_at(round, table)
    assert row is not None  # swap_seats found it
    stored_as = _stored_section(store, movement)
    relabel = [
        (
            (stored_as, board, *pairs_at(movement, row.table, row.round, board)),
            (stored_as, board, *pairs_at(swapped, row.table, row.round, board)),
        )
        for board in row.boards
    ]
    held = store.stored_among(key for pair in relabel for key in pair)
    boards = tuple(board for board, (old, new) in zip(row.boards, relabel) if {old, new} & held)
    done = Swapped(movement.section, row, boards)
    store.change_movement(
        swapped, done.describe(), action="swap", who=who, changed_from=movement, relabel=relabel
    )
    return swapped, done


def add_pair_to_event(
    path: str | Path,
    *,
    from_round: int,
    name: str | None = None,
    section: str | None = None,
    who: str,
) -> LateJoin:
    """:func:`add_late_pair` on the event file at ``path`` (``session add-pair``): a
    server running the same event seats the pair at once."""
    with LiveStore(path, mode="write") as store:
        return add_late_pair(store, from_round=from_round, name=name, section=section, who=who)[1]


def swap_in_event(
    path: str | Path, *, table: int, round: int, section: str | None = None, who: str
) -> Swapped:
    """:func:`swap_table` on the event file at ``path`` (``session swap``)."""
    with LiveStore(path, mode="write") as store:
        return swap_table(store, table=table, round=round, section=section, who=who)[1]
