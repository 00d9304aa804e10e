"""The register's CSV: ``number,name`` (and optionally ``email``), one player a line.

The header is required (its columns in any order; others are refused, so a names file
of pairs is not read as a register). A line without a number or a name, with a number
given twice, or with more cells than the header is a problem naming its line, and the
other lines are read.

>>> players, problems = read_roster(["number,name,email", "1010,Ann Archer,ann@example.org",
...                                  "1011, Bob  Baker ,"], "players.csv")
>>> [(p.number, p.name, p.email) for p in players], problems
([('1010', 'Ann Archer', 'ann@example.org'), ('1011', 'Bob Baker', '')], [])
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path

from bridgescore.formats.record import Problem
from bridgescore.season.register import ClubMember

__all__ = ["event_players", "read_roster"]

_COLUMNS = ("number", "name", "email")
_LONGEST = 120


def read_roster(lines: Iterable[str], source: str) -> tuple[list[ClubMember], list[Problem]]:
    """The players of a register CSV's lines, and the problems of the lines not read."""
    rows = [(number, line) for number, line in enumerate(lines, start=1) if line.strip()]
    if not rows:
        return [], [Problem(0, "no players: expected a header number,name[,email]", file=source)]
    first, header_line = rows[0]
    header = [cell.strip().lower() for cell in next(csv.reader([header_line]), [])]
    if "number" not in header or "name" not in header or not set(header) <= set(_COLUMNS):
        shown = ",".join(header)[:60]
        return [], [
            Problem(
                first,
                f"header {shown!r}: expected the columns number and name (and email), "
                "such as number,name,email",
                file=source,
            )
        ]
    if len(set(header)) != len(header):
        return [], [Problem(first, "a column is named twice in the header", file=source)]
    at = {name: header.index(name) for name in header}
    players: list[ClubMember] = []
    seen: dict[str, int] = {}
    problems: list[Problem] = []
    for line_number, line in rows[1:]:
        cells = [" ".join(cell.split()) for cell in next(csv.reader([line]), [])]
        if len(cells) > len(header):
            problems.append(
                Problem(
                    line_number,
                    f"{len(cells)} cells where the header names {len(header)} columns "
                    f"({','.join(header)})",
                    file=source,
                )
            )
            continue
        cells += [""] * (len(header) - len(cells))
        number, name = cells[at["number"]], cells[at["name"]]
        email = cells[at["email"]] if "email" in at else ""
        if not number or not name:
            missing = "number" if not number else "name"
            problems.append(
                Problem(line_number, f"no {missing}: expected number,name", file=source)
            )
            continue
        if len(number) > _LONGEST or len(name) > _LONGEST or len(email) > _LONGEST:
            problems.append(
                Problem(line_number, f"a cell longer than {_LONGEST} characters", file=source)
            )
            continue
        if number in seen:
            problems.append(
                Problem(
                    line_number,
                    f"number {number!r} is given at line {seen[number]} already: a number "
                    "is one player's",
                    file=source,
                )
            )
            continue
        seen[number] = line_number
        players.append(ClubMember(number, name, email))
    return players, problems


def event_players(paths: Iterable[str | Path]) -> tuple[list[ClubMember], list[str]]:
    """The players with a membership number in the event files at ``paths`` (a
    Bridgemate database's PlayerNumbers, a USEBIO file's, a names CSV's number columns),
    each number once, in the order first met; and what was left out: a number the events
    give two different names (the first is kept, the register's CSV settles it)."""
    from bridgescore.session.store.events import EventStore

    found: dict[str, ClubMember] = {}
    said: list[str] = []
    for path in paths:
        with EventStore(path, mode="read") as store:
            members = store.members()
        for pair, players in members.items():
            for member in players:
                number, name = member.number.strip(), " ".join(member.name.split())
                if not number or not name:
                    continue
                held = found.get(number)
                if held is None:
                    found[number] = ClubMember(number, name)
                elif held.name != name:
                    said.append(
                        f"{path}: pair {pair}: number {number!r} is {name!r} here and "
                        f"{held.name!r} before: {held.name!r} is kept (a register CSV may "
                        "change it)"
                    )
    return list(found.values()), said
