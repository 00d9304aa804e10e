"""Players matched to the register: by number, else by exact name, never guessed."""

from __future__ import annotations

from bridgescore.season.matching import match_players
from bridgescore.session.scoring.event import Member

REGISTER = {"1": "Ann Archer", "2": "Bob Baker", "3": "Cy Cole", "4": "Cy Cole"}


def test_number_first_then_exact_name() -> None:
    found = match_players(
        [
            Member("Someone Else", "1"),  # the number wins over the name
            Member("Bob  Baker"),  # spaces tidied
            Member("Bob Baker", "77"),  # an unknown number, a known name
        ],
        REGISTER,
    )
    assert [(m.number, m.how) for m in found] == [("1", "number"), ("2", "name"), ("2", "name")]


def test_nothing_is_guessed() -> None:
    found = match_players([Member("bob baker"), Member("Cy Cole"), Member("")], REGISTER)
    assert [m.number for m in found] == ["", "", ""]
    assert [m.why for m in found] == [
        "no number given, and the name 'bob baker' is not in the register",
        "2 register players are named 'Cy Cole': give the player's number",
        "no name given",
    ]
