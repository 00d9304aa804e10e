"""USEBIO 1.2: the XML results files of club and congress scoring programs.

- :mod:`.reader`: :func:`read_usebio` into a :class:`UsebioFile` (participants,
  traveller lines, hand records), forgiving about order, every bad element a
  problem with its line;
- :mod:`.safexml`: the safe XML underneath (no entities, nothing fetched, nesting
  bounded, the encoding the file names);
- :mod:`.writer`: :func:`write_usebio`, the element order real producers write.

>>> file = read_usebio('<USEBIO Version="1.2"><EVENT EVENT_TYPE="MP_PAIRS"/></USEBIO>')
>>> again = read_usebio(write_usebio(file))
>>> again.version, again.event_type
('1.2', 'MP_PAIRS')
"""

from __future__ import annotations

from bridgescore.formats.usebio.reader import (
    HandRecord,
    Participant,
    Player,
    TravellerLine,
    UsebioFile,
    dealt_board,
    looks_like_usebio,
    read_usebio,
)
from bridgescore.formats.usebio.safexml import UsebioError
from bridgescore.formats.usebio.writer import write_usebio

__all__ = [
    "HandRecord",
    "Participant",
    "Player",
    "TravellerLine",
    "UsebioError",
    "UsebioFile",
    "dealt_board",
    "looks_like_usebio",
    "read_usebio",
    "write_usebio",
]
