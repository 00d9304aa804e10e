"""PBN's tag list and pass rules: which tags a board record reads, which a board's
second table may leave out, what ``AP`` stands for and when a file has left out the
opening passes, for the one set of tag rules (:mod:`.records`).

>>> sorted(BOARD_TAGS)
['Board', 'Deal', 'Dealer', 'Vulnerable']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter

from bridgescore.core import Contract, Seat
from bridgescore.formats.record import (
    PLAIN_CALLS,
    SCORE_TAGS,
    RecordedCall,
)
from bridgescore.formats.words import (
    contract_of,
)

__all__ = [
    "BOARD_TAGS",
    "GAME_TAGS",
    "READ_TAGS",
    "RECORD_FIELDS",
    "SEAT_LETTERS",
    "SECTIONS",
    "UNKNOWN",
    "all_pass_count",
    "expand_all_pass",
    "restore_opening_passes",
    "restored_passes",
]

UNKNOWN = ("", "?")
"""Tag values that say the value is unknown."""
SECTIONS = ("Auction", "Play")
"""The tags whose section lines are calls and cards."""
BOARD_TAGS = ("Board", "Dealer", "Vulnerable", "Deal")
"""The tags a board's second table may leave out, to take them from the game before."""
GAME_TAGS = frozenset(
    {"Board", "Deal", "Dealer", "Auction", "Play", "Contract", "Result", "Declarer"}
)
"""A game with none of these (nor a problem) is a header, whose tags later games inherit."""
RECORD_FIELDS = (
    *BOARD_TAGS,
    "North",
    "East",
    "South",
    "West",
    "Event",
    "HomeTeam",
    "VisitTeam",
    "Table",
    "Room",
    "Contract",
    "Declarer",
    "Result",
    "DoubleDummyTricks",
    "OptimumScore",
)
"""The tags a record reads into its fields, in the order the reader takes their
values."""
READ_TAGS = frozenset({*RECORD_FIELDS, *SECTIONS, "Note", *SCORE_TAGS})
"""Tags a record reads into fields of its own; any other tag is kept as a note."""

SEAT_LETTERS: Mapping[str, Seat] = {seat.letter: seat for seat in Seat} | {
    seat.letter.lower(): seat for seat in Seat
}
"""The seat letters as files write them, looked up before the full parser."""


def expand_all_pass(calls: list[RecordedCall]) -> None:
    """Append the passes ``AP`` (all pass) stands for: passes until the auction ends."""
    calls.extend([PLAIN_CALLS["Pass"]] * all_pass_count(list(map(_CALL_TEXT, calls))))


def all_pass_count(words: list[str]) -> int:
    """How many passes ``AP`` stands for after the calls ``words`` (canonical texts):
    four passes in all when no one has bid, else three after the last other call."""
    if words.count("Pass") == len(words):
        return max(0, 4 - len(words))
    # (The passes at the end, counted in C.)
    return max(0, 3 - list(map("Pass".__eq__, reversed(words))).index(False))


def restore_opening_passes(
    calls: Sequence[RecordedCall],
    dealer: Seat,
    stated: Contract | None,
    leader: Seat | None,
) -> tuple[int, Contract | None]:
    """How many opening passes (0-3) a file left out of ``calls``, and the contract the
    calls reach once they are restored (``None``: passed out, or not finished).

    Some publishers start the Auction section with the first bid. The passes are
    restored when the calls as written reach a declarer other than the game's own,
    and one to three passes in front make them reach the game's declarer, level and
    strain: its declarer is the Declarer tag's (``stated``), else the right-hand
    opponent of the Play tag's opening ``leader``; the level and strain are the
    Contract tag's when it is given. The doubling does not decide the seat: a
    Contract tag that lost the auction's double (``1NT`` where the calls end
    ``1NT Pass Pass X``) still has its passes restored, and the doubling alone is
    left for the checks to report. Anything else is left as written, for the
    checks to report.

    >>> from bridgescore.formats.record import PLAIN_CALLS
    >>> calls = [PLAIN_CALLS[word] for word in "1S Pass 4S Pass Pass Pass".split()]
    >>> missing, reached = restore_opening_passes(calls, Seat.NORTH, None, Seat.NORTH)
    >>> missing, str(reached)
    (3, '4SW')
    """
    return restored_passes(list(map(_CALL_TEXT, calls)), dealer, stated, leader)


def restored_passes(
    words: list[str], dealer: Seat, stated: Contract | None, leader: Seat | None
) -> tuple[int, Contract | None]:
    """:func:`restore_opening_passes` of the calls' canonical texts."""
    reached = contract_of(words, dealer)[1]
    if reached is None or words[0] == "Pass":
        return 0, reached  # passed out, unfinished, or the opening passes are there
    if stated is not None and stated.declarer is not None:
        declarer: Seat | None = stated.declarer
    else:
        declarer = None if leader is None else leader.rho
    if declarer is None or reached.declarer is None or reached.declarer is declarer:
        return 0, reached
    missing = (declarer - reached.declarer) % 4  # 1-3: the declarers differ
    # The passes put in front move every call, the first of the strain's among them,
    # ``missing`` seats on: the calls reach the same contract, by ``declarer``. (So
    # the restored contract is the one reached, its declarer moved, and not the calls
    # read again; each such pair is made once and shared, as contract_of shares its
    # contracts: there are at most 1,260 of them, four declarers each.)
    restored = _MOVED.get((reached, declarer))
    if restored is None:
        restored = _MOVED[reached, declarer] = reached.with_declarer(declarer)
    if stated is not None and (stated.level != restored.level or stated.strain != restored.strain):
        return 0, reached  # another contract: no number of passes explains it
    return missing, restored


_CALL_TEXT = attrgetter("call")
_MOVED: dict[tuple[Contract, Seat], Contract] = {}
