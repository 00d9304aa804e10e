"""What the live session's pages show, worked out from the movement and the forms.

Pure functions, no I/O: the routes in :mod:`bridgescore.web.live.tables` call them
with what :class:`~bridgescore.session.live.event.LiveEvent` returned and render the
answer. A form field is always text; everything here reads it as such and
raises :class:`~bridgescore.errors.BridgeError` naming the field and what was
expected.

>>> from bridgescore.session.live.entry import ResultEntry
>>> score_words(ns_score(ResultEntry.from_json(
...     {"round": 1, "board": 1, "contract": "4S", "declarer": "N", "result": "+1"})))
'NS +450'
"""

from __future__ import annotations

from collections.abc import Sequence

from bridgescore.core import Vulnerability
from bridgescore.errors import BridgeError
from bridgescore.movement.check import seated
from bridgescore.movement.flow import NextStop
from bridgescore.movement.model import Movement
from bridgescore.session.live.documents import TableRound
from bridgescore.session.live.entry import LEVELS, RESULTS, SEATS, ResultEntry

__all__ = [
    "DOUBLINGS",
    "FORM",
    "STRAINS",
    "contract_words",
    "current_round",
    "form_of",
    "move_lines",
    "ns_score",
    "player_move_lines",
    "score_words",
]

#: How the page shows the strains and doublings a form may post (entry.STRAINS, DOUBLINGS).
STRAINS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "NT": "NT"}
DOUBLINGS = {"": "–", "X": "X", "XX": "XX"}
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


def move_lines(table: int, round_view: TableRound, *, arrow_switch: bool = False) -> list[str]:
    """What a table is told after a round, from the round's
    :class:`~bridgescore.session.live.documents.NextMove` in
    :meth:`LiveEvent.table_view <bridgescore.session.live.event.LiveEvent.table_view>`:
    where its NS and EW pairs go and where its boards go. ``arrow_switch``: the next
    round is played with the other direction's cards.

    >>> from bridgescore.movement.flow import NextStop
    >>> from bridgescore.session.live.documents import NextMove, NextSeat
    >>> after = NextMove(NextSeat(1, "NS"), NextSeat(2, "EW"), (NextStop((1, 2), (3,)),))
    >>> view = TableRound(1, "1N", "1E", (1, 2), False, (), after)
    >>> for line in move_lines(1, view):
    ...     print(line)
    NS pair 1N: stay at table 1, NS
    EW pair 1E: go to table 2, EW
    Boards 1, 2: pass them to table 3
    """
    following = round_view.next_move
    if following is None:
        boards = _boards_text(round_view.boards)
        return [f"The last round is over. {boards}: give them to the director."]
    lines = []
    for direction, pair, seat in (
        ("NS", round_view.ns, following.ns),
        ("EW", round_view.ew, following.ew),
    ):
        if seat is None:
            lines.append(f"{direction} pair {pair}: sit out the next round")
            continue
        stays = seat.table == table and seat.direction == direction
        line = f"{direction} pair {pair}: {'stay at' if stays else 'go to'} table {seat.table}"
        line += f", {seat.direction}"
        if arrow_switch:
            other = "EW" if seat.direction == "NS" else "NS"
            line += f" (arrow switch: play the {other} cards)"
        lines.append(line)
    for stop in following.boards:
        lines.append(f"{_boards_text(stop.boards)}: {_where(table, stop)}")
    return lines


_SEAT_NAMES = ("North", "South", "East", "West")


def player_move_lines(movement: Movement, table: int, round_view: TableRound) -> list[str]:
    """:func:`move_lines` for an individual: where each of the table's four players sits
    next round (a partnership plays one round, so the players move, not the pairs).

    >>> from bridgescore.movement.individual import individual
    >>> from bridgescore.session.live.documents import NextMove
    >>> movement = individual(8, boards_per_round=1)
    >>> after = NextMove(None, None, (NextStop((1,), ()),))
    >>> view = TableRound(1, "8-1", "2-7", (1,), False, (), after)
    >>> for line in player_move_lines(movement, 1, view):
    ...     print(line)
    North 8: stay at table 1, North
    South 1: go to table 1, West
    East 2: go to table 1, South
    West 7: go to table 2, South
    Board 1: give them to the director (no later round plays them)
    """
    following = round_view.next_move
    if following is None:
        return move_lines(table, round_view)
    here = movement.row_at(round_view.round, table)
    if here is None:
        return move_lines(table, round_view)
    places = {
        player: (row.table, seat)
        for row in movement.rows_in_round(round_view.round + 1)
        for player, seat in zip(seated(row), _SEAT_NAMES, strict=True)
    }
    lines = []
    for player, seat in zip(seated(here), _SEAT_NAMES, strict=True):
        if player not in places:
            lines.append(f"{seat} {player}: sit out the next round")
            continue
        next_table, next_seat = places[player]
        stays = next_table == table and next_seat == seat
        lines.append(
            f"{seat} {player}: {'stay at' if stays else 'go to'} table {next_table}, {next_seat}"
        )
    for stop in following.boards:
        lines.append(f"{_boards_text(stop.boards)}: {_where(table, stop)}")
    return lines


def _boards_text(boards: Sequence[int]) -> str:
    listed = ", ".join(str(board) for board in boards)
    return f"Board {listed}" if len(boards) == 1 else f"Boards {listed}"


def _where(table: int, stop: NextStop) -> str:
    """Where a set of boards goes, as the table card says it (movement.flow.NextStop)."""
    tables = stop.tables
    if tables == (table,):
        return "keep them at this table"
    if len(tables) == 1:
        return f"pass them to table {tables[0]}"
    if tables:
        listed = ", ".join(str(t) for t in tables[:-1])
        return f"pass them to the relay between tables {listed} and {tables[-1]}"
    if stop.kind == "bye stand":
        return "put them on the bye stand"
    return "give them to the director (no later round plays them)"


def current_round(rounds: Sequence[TableRound]) -> TableRound | None:
    """The first round of a table's view with a board still to enter (None: all done)."""
    return next((round_view for round_view in rounds if not round_view.complete), None)


def form_of(result: str) -> dict[str, str]:
    """The form's fields for a stored result (to start the director's change from it);
    an adjusted score or anything else not played gives an empty form.

    >>> form_of("4SXN-1")
    {'level': '4', 'strain': 'S', 'doubling': 'X', 'declarer': 'N', 'result': '-1'}
    >>> form_of("Pass"), form_of("A+/A-")
    ({'level': 'PASS'}, {})
    """
    from bridgescore.notation import parse_result

    try:
        played = parse_result(result)
    except BridgeError:
        return {}
    contract = played.contract
    if contract is None:
        return {"level": PASS}
    if contract.declarer is None or played.tricks is None:
        return {}
    over = played.tricks - (contract.level + 6)
    return {
        "level": str(contract.level),
        "strain": str(contract.strain),
        "doubling": str(contract.doubling) if contract.doubling else "",
        "declarer": contract.declarer.letter,
        "result": "=" if over == 0 else f"{over:+d}",
    }


def ns_score(entry: ResultEntry, vulnerability: Vulnerability | None = None) -> int:
    """The North-South score of an entry (Law 77, the board's ``vulnerability``; ``None``:
    its number's).

    >>> ns_score(ResultEntry.from_json(
    ...     {"round": 1, "board": 5, "contract": "4SX", "declarer": "N", "result": "+1"}))
    990
    """
    score = entry.table_result("NS", "EW").ns_score(vulnerability)
    return 0 if score is None else score


def score_words(score: int) -> str:
    """A score as a table reads it out: ``NS +450``, ``EW +200``, ``0`` (passed out)."""
    if score > 0:
        return f"NS +{score}"
    if score < 0:
        return f"EW +{-score}"
    return "0"


def contract_words(entry: ResultEntry) -> str:
    """``4♠X by N, made +1`` (or ``passed out``) for the confirmation."""
    contract = entry.contract
    if contract is None or contract.declarer is None:
        return "passed out"
    relative = entry.result.relative
    made = (
        "made exactly"
        if relative == 0
        else f"made {relative:+d}"
        if relative > 0
        else f"down {-relative}"
    )
    strain = STRAINS[str(contract.strain)]
    doubling = str(contract.doubling) if contract.doubling else ""
    return f"{contract.level}{strain}{doubling} by {contract.declarer}, {made}"
