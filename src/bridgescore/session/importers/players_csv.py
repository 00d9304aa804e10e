"""A CSV of names: each pair's (or team's) players, one a cell.

The header names the pair column (``pair`` or ``team``) and one column a player
(``player``, repeated, or ``player1``, ``player2``...); each line gives a pair as the
event names it (``1N``, ``3``, a team's name) and its players' names, blank cells left
out. Importing it (``session import EVENT names.csv``) sets those pairs' players, as
the director's names page does; a line naming a pair the event's movement does not
have is a problem naming its line.

>>> parsed = parse_players(["pair,player,player", "1N,Ann Archer,Bob Baker", "1E,Cate Cole,"],
...                        "names.csv")
>>> {pair: [m.name for m in players] for pair, players in parsed.members.items()}
{'1N': ['Ann Archer', 'Bob Baker'], '1E': ['Cate Cole']}
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable

from bridgescore.errors import BridgeError
from bridgescore.movement.model import Movement
from bridgescore.session.importers.parsed import Parsed, line_problem
from bridgescore.session.live.players import players_named

__all__ = ["looks_like_players", "parse_players"]

_PAIR = ("pair", "team")
_PLAYER = re.compile(r"^player\s*\d*$")


def _header(line: str) -> list[str] | None:
    """The header's cells (lower case) when it is a names file's, else ``None``."""
    cells = [cell.strip().lower() for cell in next(csv.reader([line]), [])]
    if len(cells) < 2 or cells[0] not in _PAIR:
        return None
    if not all(_PLAYER.match(cell) for cell in cells[1:]):
        return None
    return cells


def looks_like_players(text: str) -> bool:
    """Whether CSV text is a names file: its first line is ``pair,player,player...``."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return _header(first) is not None


def parse_players(lines: Iterable[str], source: str, *, movement: Movement | None = None) -> Parsed:
    """Each line's pair and players; a bad line is a problem naming it, the rest is read."""
    parsed = Parsed()
    rows = [(number, line) for number, line in enumerate(lines, start=1) if line.strip()]
    if not rows or _header(rows[0][1]) is None:
        parsed.problems.append(line_problem(source, 0, "expected a header pair,player,player"))
        return parsed
    for number, line in rows[1:]:
        cells = [cell.strip() for cell in next(csv.reader([line]), [])]
        pair = cells[0] if cells else ""
        if not pair:
            parsed.problems.append(line_problem(source, number, "no pair: expected pair,player"))
            continue
        if movement is not None and pair not in movement.pairs:
            known = ", ".join(movement.pairs)
            message = f"pair {pair!r} is not in the event's movement: expected one of {known}"
            parsed.problems.append(line_problem(source, number, message))
            continue
        try:
            parsed.members[pair] = players_named(cells[1:])
        except BridgeError as error:
            parsed.problems.append(line_problem(source, number, f"pair {pair!r}: {error}"))
    return parsed
