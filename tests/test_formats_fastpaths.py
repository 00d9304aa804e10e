"""The readers' fast paths give exactly what their validating paths give.

Each fast path reads only the common, plainly written case and hands anything
else to the validating reader; these properties check, on written and on
mutated text, that the fast path either declines (``None``) or agrees.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore.core import Seat
from bridgescore.deal import Deal, random_deals
from bridgescore.errors import BridgeError
from bridgescore.formats.lin import _plain_deal, _read_hands, _tags

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
    deal = random_deals(seed, 1)[0]
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


def _scan_tags(text: str) -> Iterator[tuple[str, str, int]]:
    """The LIN tag scanner written plainly, bar by bar, with line numbers counted
    from the newlines before each tag's first character."""
    position = 0
    while position < len(text):
        bar = text.find("|", position)
        raw = text[position:] if bar < 0 else text[position:bar]
        start = position + len(raw) - len(raw.lstrip())
        line = text.count("\n", 0, start) + 1
        if bar < 0:
            if raw.strip():
                yield "", raw.strip(), line
            return
        end = text.find("|", bar + 1)
        if end < 0:
            yield raw.strip(), "\x00" + text[bar + 1 :], line
            return
        yield raw.strip(), text[bar + 1 : end], line
        position = end + 1


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab |\n\t1", max_size=60))
def test_lin_tags_agree_with_the_plain_scanner(text: str) -> None:
    assert list(_tags(text)) == list(_scan_tags(text))


def test_lin_tags_of_a_board() -> None:
    text = "pn|A,B,C,D|st||\nmd|3SAK,,,|\n mb|1N!|an|strong|pc|SA|\ntail"
    assert list(_tags(text)) == [
        ("pn", "A,B,C,D", 1),
        ("st", "", 1),
        ("md", "3SAK,,,", 2),
        ("mb", "1N!", 3),
        ("an", "strong", 3),
        ("pc", "SA", 3),
        ("", "tail", 4),
    ]


def test_plain_lin_deal_declines_what_it_does_not_read() -> None:
    deal = random_deals(5, 1)[0]
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


def test_play_rows_read_whole_and_card_by_card() -> None:
    """A Play section mixing whole tricks (the fast road) with a trick cut short by
    ``-`` and a bad card (card by card): the cards in the order played, worked out by
    hand. 3NT by South; the columns are W N E S. West leads the two of clubs and
    North's ace wins; North leads the spade ace, East, South and West follow, and
    North wins again; North leads the king of spades, East plays and South has not."""
    from bridgescore.deal import Card
    from bridgescore.formats.pbnrecord import read_pbn

    text = (
        '[Board "1"]\n[Dealer "S"]\n[Contract "3NT"]\n[Declarer "S"]\n'
        '[Play "W"]\nC2 CA C5 CJ\nS3 SA S4 S5\n- SK S6 -\n'
    )
    order = ("C2", "CA", "C5", "CJ", "SA", "S4", "S5", "S3", "SK", "S6")
    (record,) = read_pbn(text)
    assert record.play == tuple(Card.parse(card) for card in order)
    assert record.source.card_lines == (6, 6, 6, 6, 7, 7, 7, 7, 8, 8)
    (record,) = read_pbn(text.replace("S6", "Z6"))
    assert record.play == tuple(Card.parse(card) for card in order[:9])
    assert any(problem.line == 8 and "Z6" in problem.message for problem in record.problems)
