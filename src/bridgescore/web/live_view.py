"""What the live session's pages show, worked out from the movement and the forms.

Pure functions, no I/O: the routes in :mod:`bridgescore.web.live_pages` call them
with what :class:`~bridgescore.session.live.LiveEvent` returned and render the
answer. A form field is always text; everything here reads it as such and
raises :class:`~bridgescore.errors.BridgeError` naming the field and what was
expected.

>>> from bridgescore.movement.model import Movement, rows_from
>>> m = Movement("mitchell", 2, 2, 2, rows_from([(1, 1, "1N", "1E", (1, 2)),
...     (1, 2, "2N", "2E", (3, 4)), (2, 1, "1N", "2E", (3, 4)), (2, 2, "2N", "1E", (1, 2))]))
>>> [str(move) for move in moves_after(m, 1, 1).pairs]
['NS pair 1N: stay at table 1, NS', 'EW pair 1E: go to table 2, EW']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bridgescore.errors import BridgeError
from bridgescore.movement.model import Movement
from bridgescore.session.event import TableResult

__all__ = [
    "FORM",
    "LEVELS",
    "RESULTS",
    "STRAINS",
    "Moves",
    "PairMove",
    "current_round",
    "entry_data",
    "moves_after",
    "result_text",
    "score_words",
]

LEVELS = ("1", "2", "3", "4", "5", "6", "7")
#: Strain codes as the contract grammar reads them, and how the page shows them.
STRAINS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "NT": "NT"}
DOUBLINGS = {"": "–", "X": "X", "XX": "XX"}
SEATS = ("N", "E", "S", "W")
#: What a table may say about the tricks: made exactly, overtricks, undertricks.
RESULTS = ("=", *(f"+{n}" for n in range(1, 7)), *(f"-{n}" for n in range(1, 14)))
PASS = "PASS"
#: The form's radio choices: (field, legend, ((value, shown), ...)); the result is a select.
FORM = {
    "choices": (
        ("level", "Contract level (or Pass)", (*((n, n) for n in LEVELS), (PASS, "Pass"))),
        ("strain", "Strain", tuple(STRAINS.items())),
        ("doubling", "Doubled?", tuple(DOUBLINGS.items())),
        ("declarer", "Declarer", tuple((seat, seat) for seat in SEATS)),
    ),
    "results": RESULTS,
}


@dataclass(frozen=True, slots=True)
class PairMove:
    """Where one pair goes after a round: a table and a direction, or nowhere (sits out)."""

    pair: str
    table: int  # where the pair played the round just over
    direction: str  # "NS" or "EW" there
    next_table: int | None  # None: the pair sits out the next round
    next_direction: str | None
    arrow_switch: bool = False  # the next round is played with the other direction's cards

    def __str__(self) -> str:
        who = f"{self.direction} pair {self.pair}"
        if self.next_table is None:
            return f"{who}: sit out the next round"
        stays = self.next_table == self.table and self.next_direction == self.direction
        verb = "stay at" if stays else "go to"
        where = f"{who}: {verb} table {self.next_table}, {self.next_direction}"
        if self.arrow_switch:
            other = "EW" if self.next_direction == "NS" else "NS"
            where += f" (arrow switch: play the {other} cards)"
        return where


@dataclass(frozen=True, slots=True)
class Moves:
    """What a table is told after a round: where its pairs go, where its boards go."""

    table: int
    round: int
    last: bool  # the session's last round: nobody moves
    pairs: tuple[PairMove, ...]
    boards: tuple[int, ...]
    board_tables: tuple[int, ...]  # the tables that play these boards next round

    @property
    def boards_text(self) -> str:
        listed = ", ".join(str(board) for board in self.boards)
        noun = "board" if len(self.boards) == 1 else "boards"
        if self.last:
            return f"{noun} {listed}: give them to the director"
        if not self.board_tables:
            return f"{noun} {listed}: put them on the bye stand (no table plays them next round)"
        tables = " and ".join(str(table) for table in self.board_tables)
        return f"{noun} {listed}: pass them to table {tables}"


def moves_after(movement: Movement, table: int, round_number: int) -> Moves:
    """Where the pairs of ``table`` go after ``round_number``, and where its boards go.

    A pair is found by its label in the next round's rows (its direction there is
    the row's: rows keep the pairs' home seats, and an arrow-switch round says so);
    a pair in no row sits out. The boards go to every table that plays one of
    them next round (two tables sharing a set is a relay); none is the bye stand.
    """
    row = movement.row_at(round_number, table)
    if row is None:
        raise BridgeError(f"table {table} plays no boards in round {round_number}")
    last = round_number >= movement.rounds
    following = () if last else movement.rows_in_round(round_number + 1)
    switched = not last and movement.is_arrow_switched(round_number + 1)
    pairs = []
    for pair, direction in () if last else ((row.ns, "NS"), (row.ew, "EW")):
        there = next((r for r in following if pair in r.pairs), None)
        if there is None:
            pairs.append(PairMove(pair, table, direction, None, None))
        else:
            next_direction = "NS" if there.ns == pair else "EW"
            pairs.append(PairMove(pair, table, direction, there.table, next_direction, switched))
    board_tables = sorted({r.table for r in following if set(r.boards) & set(row.boards)})
    return Moves(table, round_number, last, tuple(pairs), row.boards, tuple(board_tables))


def current_round(rounds: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The first round of a table's view with a board still to enter (None: all done)."""
    for round_view in rounds:
        if len(entered_boards(round_view)) < len(round_view["boards"]):
            return round_view
    return None


def entered_boards(round_view: Mapping[str, Any]) -> set[int]:
    """The boards a round's view says are entered (numbers, or results naming them)."""
    found: set[int] = set()
    for item in round_view.get("entered", ()):
        found.add(int(item["board"]) if isinstance(item, Mapping) else int(item))
    return found


def _field(form: Mapping[str, str], name: str) -> str:
    return str(form.get(name, "")).strip()


def _number(form: Mapping[str, str], name: str) -> int:
    text = _field(form, name)
    if not text.isdigit() or len(text) > 4:
        raise BridgeError(f"{name} {text!r} is not a {name} number: expected a whole number")
    return int(text)


def entry_data(form: Mapping[str, str], *, with_table: bool = False) -> dict[str, Any]:
    """The JSON-shaped result (as ``ResultEntry.parse`` and the JSON API read it) of a
    table's or the director's form: ``level`` (1-7 or PASS), ``strain``, ``doubling``,
    ``declarer``, ``result`` and ``lead``, plus ``round`` and ``board`` (and ``table``).

    >>> entry_data({"round": "2", "board": "5", "level": "4", "strain": "S",
    ...             "doubling": "X", "declarer": "N", "result": "+1"})
    {'round': 2, 'board': 5, 'contract': '4SX', 'declarer': 'N', 'result': '+1'}
    >>> entry_data({"round": "1", "board": "1", "level": "PASS"})["contract"]
    'PASS'
    """
    data: dict[str, Any] = {}
    if with_table:
        data["table"] = _number(form, "table")
    data["round"] = _number(form, "round")
    data["board"] = _number(form, "board")
    level = _field(form, "level").upper()
    if level == PASS:
        data["contract"] = PASS
    else:
        if level not in LEVELS:
            raise BridgeError(f"level {level!r}: expected a level from 1 to 7, or Pass")
        strain = _field(form, "strain").upper()
        if strain not in STRAINS:
            raise BridgeError(f"strain {strain!r}: expected one of C, D, H, S or NT")
        doubling = _field(form, "doubling").upper()
        if doubling not in DOUBLINGS:
            raise BridgeError(f"doubling {doubling!r}: expected nothing, X or XX")
        declarer = _field(form, "declarer").upper()
        if declarer not in SEATS:
            raise BridgeError(f"declarer {declarer!r}: expected N, E, S or W")
        result = _field(form, "result")
        if result not in RESULTS:
            raise BridgeError(f"result {result!r}: expected =, +1 to +6 or -1 to -13")
        data["contract"] = f"{level}{strain}{doubling}"
        data["declarer"] = declarer
        data["result"] = result
    lead = _field(form, "lead").upper()
    if lead:
        data["lead"] = lead
    return data


def result_text(data: Mapping[str, Any]) -> str:
    """The result of :func:`entry_data` in the notation travellers use: ``4SXN+1``, ``Pass``."""
    if data["contract"] == PASS:
        return "Pass"
    return f"{data['contract']}{data['declarer']}{data['result']}"


def ns_score(data: Mapping[str, Any]) -> int:
    """The North-South score of a result (Law 77, the board's vulnerability).

    >>> ns_score({"board": 5, "contract": "4SX", "declarer": "N", "result": "+1"})
    990
    """
    score = TableResult.played(data["board"], "NS", "EW", result_text(data)).ns_score()
    return 0 if score is None else score


def score_words(score: int) -> str:
    """A score as a table reads it out: ``NS +450``, ``EW +200``, ``0`` (passed out)."""
    if score > 0:
        return f"NS +{score}"
    if score < 0:
        return f"EW +{-score}"
    return "0"


def contract_words(data: Mapping[str, Any]) -> str:
    """``4♠X by N, made +1`` (or ``passed out``) for the confirmation."""
    if data["contract"] == PASS:
        return "passed out"
    contract = str(data["contract"])
    doubling = "XX" if contract.endswith("XX") else "X" if contract.endswith("X") else ""
    strain = contract[1 : len(contract) - len(doubling)]
    result = str(data["result"])
    made = (
        "made exactly"
        if result == "="
        else f"made {result}"
        if result.startswith("+")
        else f"down {result[1:]}"
    )
    return f"{contract[0]}{STRAINS.get(strain, strain)}{doubling} by {data['declarer']}, {made}"
