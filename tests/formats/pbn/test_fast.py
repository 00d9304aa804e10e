"""The LIN reader's fast paths give exactly what its validating paths give, and the
readers' record makers make what the constructors make.

Each fast path reads only the common, plainly written case and hands anything
else to the validating reader; these properties check, on written and on
mutated text, that the fast path either declines (``None``) or agrees. (PBN's two
scans are compared in ``test_scans.py``.)
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import fields, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore.core import Seat
from bridgescore.deal import Deal, random_deals
from bridgescore.errors import BridgeError
from bridgescore.formats import BoardRecord, RecordedCall, Source
from bridgescore.formats.lin.tags import lin_tags as _tags
from bridgescore.formats.lin.tags import plain_deal as _plain_deal
from bridgescore.formats.lin.tags import read_hands as _read_hands
from bridgescore.formats.record import Traveller, slot_maker
from format_strategies import records

_LIN_ORDER = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)


def _lin_hands(deal: Deal, rng: random.Random) -> str:
    """The hands S W N E as LIN writes them (suit letter, then ranks), some in lower case."""
    parts = []
    for seat in _LIN_ORDER:
        spades, hearts, diamonds, clubs = deal.hands[seat].to_pbn().split(".")
        part = f"S{spades}H{hearts}D{diamonds}C{clubs}"
        parts.append(part.lower() if rng.random() < 0.2 else part)
    return ",".join(parts)


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from([None, 0, 1, 2, 3]),
    st.integers(0, 80),
    st.sampled_from(["", "10", "X", ",", "S", "H", "A", "2", "  ", "SA", "-"]),
)
def test_plain_lin_deal_agrees_with_the_validating_reader(
    seed: int, left_out: int | None, at: int, insert: str
) -> None:
    rng = random.Random(seed)
    deal = random_deals(1, seed=seed)[0]
    parts = _lin_hands(deal, rng).split(",")
    if left_out is not None:
        parts[left_out] = ""
    text = ",".join(parts)
    mutated = text[:at] + insert + text[at + len(insert) :]
    for candidate in (text, mutated):
        fast = _plain_deal(candidate)
        try:
            expected = _read_hands(f"1{candidate}", candidate)
        except BridgeError:
            assert fast is None
            continue
        if candidate == text:
            # Independently: the deal the hands were written from.
            assert expected == deal
            assert fast == deal
        assert fast is None or fast == expected


def _scan_tags(text: str) -> Iterator[tuple[str, str, int, bool]]:
    """The LIN tag scanner written plainly, bar by bar, with line numbers counted
    from the newlines before each tag's first character, and a tag opening its line
    when the text since the previous tag's closing bar holds a newline."""
    position = 0
    while position < len(text):
        bar = text.find("|", position)
        raw = text[position:] if bar < 0 else text[position:bar]
        start = position + len(raw) - len(raw.lstrip())
        line = text.count("\n", 0, start) + 1
        first = position == 0 or "\n" in text[position:start]
        if bar < 0:
            if raw.strip():
                yield "", raw.strip(), line, first
            return
        end = text.find("|", bar + 1)
        value = "\x00" + text[bar + 1 :] if end < 0 else text[bar + 1 : end]
        name = raw.strip()
        # Text then a line break before a name: that text is no tag, and the name is
        # on a line of its own (counted from the text's start again).
        cut = name.rfind("\n")
        if cut >= 0:
            yield "", name[:cut].strip(), line, first
            after = start + cut + 1
            yield name[cut + 1 :].strip(), value, text.count("\n", 0, after) + 1, True
        else:
            yield name, value, line, first
        if end < 0:
            return
        position = end + 1


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab |\n\t1", max_size=60))
def test_lin_tags_agree_with_the_plain_scanner(text: str) -> None:
    assert list(_tags(text)) == list(_scan_tags(text))


def test_lin_tags_of_a_board() -> None:
    text = "pn|A,B,C,D|st||\nmd|3SAK,,,|\n mb|1N!|an|strong|pc|SA|\njunk\n\nmc|9|\ntail"
    assert list(_tags(text)) == [
        ("pn", "A,B,C,D", 1, True),
        ("st", "", 1, False),
        ("md", "3SAK,,,", 2, True),
        ("mb", "1N!", 3, True),
        ("an", "strong", 3, False),
        ("pc", "SA", 3, False),
        ("", "junk", 4, True),
        ("mc", "9", 6, True),
        ("", "tail", 7, True),
    ]


def test_plain_lin_deal_declines_what_it_does_not_read() -> None:
    deal = random_deals(1, seed=5)[0]
    text = _lin_hands(deal, random.Random(0)).upper()
    assert _plain_deal(text) == deal
    # "10" for the ten, and two hands left out: the validating reader's business.
    with_ten = text.replace("T", "10")
    if with_ten != text:
        assert _plain_deal(with_ten) is None
        assert _read_hands(with_ten, with_ten) == deal
    two_missing = ",".join([*text.split(",")[:2], "", ""])
    assert _plain_deal(two_missing) is None
    with pytest.raises(BridgeError):
        _read_hands(two_missing, two_missing)


@settings(max_examples=100, deadline=None)
@given(records(), st.integers(0, 10**6), st.sampled_from([None, "a.pbn"]))
def test_slot_maker_makes_what_the_constructor_makes(
    record: BoardRecord, line: int, file: str | None
) -> None:
    """The fast readers' makers of records and sources: every field, in order, set
    as the constructor sets it (the ones equality leaves out too)."""
    source = Source(file, line, 7, ("Board", "Deal"), (line, line + 1), (line + 2,), (line + 3, 0))
    made_source = slot_maker(Source)(*(getattr(source, f.name) for f in fields(Source)))
    assert made_source == source
    whole = replace(record, source=source, traveller=Traveller("h", ("c",)))
    made = slot_maker(BoardRecord)(*(getattr(whole, f.name) for f in fields(BoardRecord)))
    assert type(made) is BoardRecord and made == whole
    assert all(getattr(made, f.name) is getattr(whole, f.name) for f in fields(BoardRecord))
    with pytest.raises(TypeError):
        slot_maker(BoardRecord)(record.board)  # every field must be given
    # A class whose constructor checks (RecordedCall's __post_init__), or not a
    # frozen dataclass with slots, gets no maker that would skip the checks.
    for refused in (RecordedCall, Deal, dict):
        with pytest.raises(BridgeError):
            slot_maker(refused)
