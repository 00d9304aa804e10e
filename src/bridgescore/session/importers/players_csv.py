"""A CSV of names: each pair's (or team's) players, one a cell.

The header names the pair column (``pair`` or ``team``) and one column a player
(``player``, repeated, or ``player1``, ``player2``...), each player's column may be
followed by a ``number`` column (the player's membership number, which the club's
register matches players by: ``pair,player,number,player,number``), and it may name a
``section`` column; each line gives a pair as the event names it (``1N``, ``3``, a team's name)
and its players' names, blank cells left out. Importing it (``session import EVENT
names.csv``) sets those pairs' players, as the director's names page does; a line
naming a pair the event's movement does not have, or with more or fewer cells than the
header has columns (a third player under a header of two), is a problem naming its line,
and nothing of it is stored.

In an event of several sections pair ``1N`` of section A and pair ``1N`` of section B
are two pairs: each line names its section (a ``section`` column), and the players are
kept under the pair's section (``B:1N``,
:func:`~bridgescore.session.scoring.event.participant_key`). A line of an event of one
section may leave the section blank; its players are kept under the bare label.

>>> parsed = parse_players(["pair,player,player", "1N,Ann Archer,Bob Baker", "1E,Cate Cole,"],
...                        "names.csv")
>>> {pair: [m.name for m in players] for pair, players in parsed.members.items()}
{'1N': ['Ann Archer', 'Bob Baker'], '1E': ['Cate Cole']}
>>> parsed = parse_players(["pair,player,number,player,number", "1N,Ann Archer,1010,Bob Baker,"],
...                        "names.csv")
>>> parsed.members["1N"]
(Member(name='Ann Archer', number='1010'), Member(name='Bob Baker', number=''))
>>> parsed = parse_players(["section,pair,player", "A,1N,Ann Archer", "B,1N,Eve Ellis"],
...                        "names.csv")
>>> {pair: [m.name for m in players] for pair, players in parsed.members.items()}
{'A:1N': ['Ann Archer'], 'B:1N': ['Eve Ellis']}
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Mapping
from itertools import pairwise

from bridgescore.errors import BridgeError, RecordError
from bridgescore.movement.model import Movement
from bridgescore.session.importers.parsed import Parsed, line_problem
from bridgescore.session.live.players import players_named
from bridgescore.session.live.sections import stored_section
from bridgescore.session.scoring.event import Member, participant_key

__all__ = ["looks_like_players", "parse_players"]

_PAIR = ("pair", "team")
_SECTION = "section"
_PLAYER = re.compile(r"^player\s*\d*$")
_NUMBER = "number"


def _header(line: str) -> list[str] | None:
    """The header's cells (lower case) when it is a names file's, else ``None``: the
    pair (or team) column first, or second after ``section``; the players' columns, and
    at most one ``section`` column anywhere."""
    cells = [cell.strip().lower() for cell in next(csv.reader([line]), [])]
    first = 1 if cells[:1] == [_SECTION] else 0
    if len(cells) < first + 2 or cells[first] not in _PAIR or cells.count(_SECTION) > 1:
        return None
    players = [cell for cell in cells[first + 1 :] if cell != _SECTION]
    if not players or not _PLAYER.match(players[0]):
        return None
    for before, cell in pairwise(players):
        # A number column belongs to the player column just before it.
        if not (_PLAYER.match(cell) or (cell == _NUMBER and _PLAYER.match(before))):
            return None
    return cells


def looks_like_players(text: str) -> bool:
    """Whether CSV text is a names file: its first line is ``pair,player,player...``
    (a ``section`` column allowed)."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return _header(first) is not None


def parse_players(
    lines: Iterable[str],
    source: str,
    *,
    movements: Mapping[str, Movement] | None = None,
) -> Parsed:
    """Each line's pair and players; a bad line is a problem naming it, the rest is read.

    ``movements`` (the event's, each section's by name): a line's pair must be in its
    section's movement, and in an event of several sections each line names its section.
    """
    parsed = Parsed()
    rows = [(number, line) for number, line in enumerate(lines, start=1) if line.strip()]
    header = _header(rows[0][1]) if rows else None
    if header is None:
        parsed.problems.append(line_problem(source, 0, "expected a header pair,player,player"))
        return parsed
    pair_at = next(i for i, name in enumerate(header) if name in _PAIR)
    section_at = header.index(_SECTION) if _SECTION in header else None
    players_at = [
        i for i in range(len(header)) if i not in (pair_at, section_at) and header[i] != _NUMBER
    ]
    # Each player's column -> the column of its number, when the header has one.
    number_at = {i: i + 1 for i in players_at if i + 1 < len(header) and header[i + 1] == _NUMBER}
    for number, line in rows[1:]:
        cells = [cell.strip() for cell in next(csv.reader([line]), [])]
        pair = cells[pair_at] if pair_at < len(cells) else ""
        if not pair:
            parsed.problems.append(line_problem(source, number, "no pair: expected pair,player"))
            continue
        if len(cells) != len(header):
            # A third player on a line whose header names two would be dropped, and a
            # line short of a column may have lost its section: neither is guessed at.
            parsed.problems.append(line_problem(source, number, _misfit(pair, cells, header)))
            continue
        section = cells[section_at] if section_at is not None else ""
        try:
            key = _key(pair, section, movements)
        except RecordError as error:
            parsed.problems.append(line_problem(source, number, str(error)))
            continue
        numbers = [cells[number_at[i]] if i in number_at else "" for i in players_at]
        names = [cells[i] for i in players_at]
        unnamed = next((n for name, n in zip(names, numbers, strict=True) if n and not name), "")
        if unnamed:
            parsed.problems.append(
                line_problem(
                    source,
                    number,
                    f"pair {pair!r}: number {unnamed!r} has no player's name beside it: "
                    "expected the name in the player column before it",
                )
            )
            continue
        try:
            players = players_named(names)
        except BridgeError as error:
            parsed.problems.append(line_problem(source, number, f"pair {pair!r}: {error}"))
            continue
        given = [n for name, n in zip(names, numbers, strict=True) if name.strip()]
        parsed.members[key] = tuple(
            Member(player.name, given_number)
            for player, given_number in zip(players, given, strict=True)
        )
    return parsed


def _misfit(pair: str, cells: list[str], header: list[str]) -> str:
    """A line whose cells do not match the header's columns, in words."""
    more = len(cells) > len(header)
    return (
        f"pair {pair!r}: {len(cells)} cells where the header names {len(header)} columns "
        f"({','.join(header)}): expected one cell a column, "
        + (
            "each player more needs a player column of its own in the header"
            if more
            else "a blank cell for a player not known"
        )
    )


def _key(pair: str, section: str, movements: Mapping[str, Movement] | None) -> str:
    """The key the line's players are kept under (participant_key): checked against the
    movement of the line's section when the event has one."""
    if not movements:
        return participant_key(section, pair)
    if len(movements) == 1:
        movement = next(iter(movements.values()))
        if section and section != movement.section:
            raise RecordError(
                f"pair {pair!r}: section {section!r} is not the event's: expected "
                f"{movement.section!r} or a blank section"
            )
    elif section not in movements:
        raise RecordError(
            f"pair {pair!r}: section {section!r}: the event has {len(movements)} sections, "
            f"{', '.join(movements)}: a line names its section (a section column)"
        )
    else:
        movement = movements[section]
    if pair not in movement.pairs:
        whose = f"section {section}'s" if len(movements) > 1 else "the event's"
        raise RecordError(
            f"pair {pair!r} is not in {whose} movement: expected one of {', '.join(movement.pairs)}"
        )
    return participant_key(stored_section(movements, movement.section), pair)
