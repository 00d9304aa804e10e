"""Who is who: the players of an event's pairs matched to the club's register.

A player is matched by membership number when the event gives one the register holds
(a Bridgemate database's ``PlayerNumbers``, a USEBIO ``NATIONAL_ID_NUMBER``, a names
CSV's ``number`` column); failing that, by the exact name of one register player (case
and spaces as written, after the spaces are tidied). Nothing else is tried: a
misspelt name, a name two register players share, a number the register does not
hold with a name it does not hold either are left unmatched and listed, since a
guess would put one player's results in another's history.

>>> register = {"1010": "Ann Archer", "1011": "Bob Baker", "2020": "Cy Cole"}
>>> [m.how for m in match_players([Member("Ann Archer", "1010"), Member("Bob Baker")], register)]
['number', 'name']
>>> match_players([Member("Dee Dunn", "999")], register)[0].why
"number '999' is not in the register, nor the name 'Dee Dunn'"
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from bridgescore.session.scoring.event import Member

__all__ = ["Matched", "match_players"]


@dataclass(frozen=True, slots=True)
class Matched:
    """One player of a pair: as the event names them, the register number matched
    (``""`` when unmatched), how (``number``, ``name`` or ``""``) and, when unmatched,
    why."""

    member: Member
    number: str
    how: Literal["number", "name", ""]
    why: str = ""


def match_players(players: Sequence[Member], register: Mapping[str, str]) -> list[Matched]:
    """Each of ``players`` matched to ``register`` (membership number -> name)."""
    by_name = Counter(" ".join(name.split()) for name in register.values())
    numbers = {" ".join(name.split()): number for number, name in register.items()}
    out: list[Matched] = []
    for member in players:
        number, name = member.number.strip(), " ".join(member.name.split())
        if number and number in register:
            out.append(Matched(member, number, "number"))
        elif name and by_name[name] == 1:
            out.append(Matched(member, numbers[name], "name"))
        else:
            out.append(Matched(member, "", "", _why(number, name, by_name[name])))
    return out


def _why(number: str, name: str, holders: int) -> str:
    named = f"the name {name!r}" if name else "no name given"
    if holders > 1:
        return f"{holders} register players are named {name!r}: give the player's number"
    if number and not name:
        return f"number {number!r} is not in the register, and the event gives no name"
    if number:
        return f"number {number!r} is not in the register, nor {named}"
    return f"no number given, and {named} is not in the register" if name else "no name given"
