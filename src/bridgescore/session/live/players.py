"""Names a director types: each player of a pair or team, and the club's name.

One player is one :class:`~bridgescore.session.scoring.event.Member`, as a USEBIO file
lists them (one ``PLAYER`` each), so the export writes what was typed. A name given
as one text for the whole pair (``"Ann Archer & Bob Baker"``) is split at ``&``.

>>> players_named(["Ann Archer", " Bob  Baker "])
(Member(name='Ann Archer', number=''), Member(name='Bob Baker', number=''))
>>> [m.name for m in players_named("Ann Archer & Bob Baker")]
['Ann Archer', 'Bob Baker']
"""

from __future__ import annotations

from collections.abc import Sequence

from bridgescore.errors import RecordError
from bridgescore.session.scoring.event import Member

__all__ = ["MAX_NAME", "MAX_PLAYERS", "club_name", "players_named"]

MAX_NAME = 120
MAX_PLAYERS = 6  # a team of six; a pair has two


def _clean(text: object, what: str) -> str:
    if not isinstance(text, str):
        raise RecordError(f"{what} {text!r}: expected text of 1 to {MAX_NAME} characters")
    cleaned = " ".join(text.split())
    if len(cleaned) > MAX_NAME or any(ord(c) < 32 for c in text if c not in "\t\n\r"):
        raise RecordError(f"{what} {text[:40]!r}: expected text of 1 to {MAX_NAME} characters")
    return cleaned


def players_named(names: str | Sequence[str]) -> tuple[Member, ...]:
    """The players of ``names`` (blank ones left out), in order; raises
    :class:`~bridgescore.errors.RecordError` for none, too many or a name too long."""
    given = names.split("&") if isinstance(names, str) else list(names)
    cleaned = [_clean(name, "player name") for name in given]
    players = tuple(Member(name) for name in cleaned if name)
    if not players or len(players) > MAX_PLAYERS:
        raise RecordError(f"players {names!r}: expected 1 to {MAX_PLAYERS} names (one each player)")
    return players


def club_name(text: str) -> str:
    """The club's name, its spaces tidied; raises :class:`~bridgescore.errors.RecordError`
    for an empty or overlong one.

    >>> club_name("  Riverside   Bridge Club ")
    'Riverside Bridge Club'
    """
    cleaned = _clean(text, "club name")
    if not cleaned:
        raise RecordError(f"club name {text!r}: expected text of 1 to {MAX_NAME} characters")
    return cleaned
