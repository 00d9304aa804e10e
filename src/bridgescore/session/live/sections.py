"""Sections: an evening's pairs split into sections A, B, C ... that play the same
movement on the same boards (``session new --sections N``).

Each section is its own :class:`~bridgescore.movement.model.Movement` (its ``section``
set), so its tables, pairs and tokens are its own: table 3 of section B is ``B3``, and
pair ``1N`` of section A is not pair ``1N`` of section B. A one-section event stores
its results without a section name, as an imported one does; an event of several
stores each result under its section's name (:func:`stored_section`), so the scorer
can compare each board within a section or across the field.

>>> from bridgescore.movement.model import Movement, Row
>>> m = Movement("mitchell", 1, 1, 2, (Row(1, 1, "1N", "1E", (1, 2)),))
>>> list(sections_of(m, 3))
['A', 'B', 'C']
>>> sections_of(m, 3)["B"].section
'B'
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import replace

from bridgescore.errors import MovementError, NotThisTableError
from bridgescore.movement.model import Movement
from bridgescore.validate import quoted, whole_number_arg

__all__ = ["MAX_SECTIONS", "section_names", "sections_of", "stored_section", "which_section"]

# One letter a section, as the table cards and the players say it ("B3").
MAX_SECTIONS = len(string.ascii_uppercase)


def section_names(count: int) -> tuple[str, ...]:
    """The names of ``count`` sections: ``A``, ``B``, ... (1 to 26 of them).

    >>> section_names(2)
    ('A', 'B')
    """
    count = whole_number_arg(count, "sections", 1, MAX_SECTIONS, error=MovementError)
    return tuple(string.ascii_uppercase[:count])


def sections_of(movement: Movement, count: int) -> dict[str, Movement]:
    """``count`` sections of ``movement``, by name: one section is the movement as it is
    (its own section name kept); several are named A, B, ... Only a pairs movement has
    sections: a teams movement's two tables of a match are one match, and a Swiss is
    drawn from one field's standings (a :class:`~bridgescore.errors.MovementError`)."""
    names = section_names(count)
    if count == 1:
        return {movement.section: movement}
    if movement.kind == "teams":
        raise MovementError(
            f"{count} sections of a teams movement: sections are for pairs movements "
            "(a Mitchell, a Howell or a pairs movement file); make one teams event a field"
        )
    return {name: replace(movement, section=name) for name in names}


def stored_section(movements: Mapping[str, Movement], section: str) -> str:
    """The section name a result of ``section`` is stored under: ``""`` in an event of
    one section (as an imported event stores it), else the section's own name."""
    return "" if len(movements) == 1 else section


def which_section(movements: Mapping[str, Movement], section: object) -> Movement:
    """The movement of ``section``; a :class:`~bridgescore.errors.NotThisTableError`
    naming the event's sections for any other name."""
    found = movements.get(section) if isinstance(section, str) else None
    if found is None:
        names = ", ".join(repr(name) for name in movements)
        raise NotThisTableError(
            f"section {quoted(section)} is not this event's: expected "
            + ("" if len(movements) == 1 else "one of ")
            + names
        )
    return found
