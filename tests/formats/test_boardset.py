"""Board sets: dealer and vulnerability by number, unbiased dealing, seeds,
commitments and the PBN/LIN/CSV/JSON forms."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgescore.board import Board
from bridgescore.boardset import (
    DEAL_COUNT,
    DealSeed,
    SeedError,
    board_deal,
    commitment,
    commitment_text,
    deal_set,
    parse_board_range,
    read_commitment,
    verify_set,
)
from bridgescore.boardset.dealing import (
    deal_count,
    draw_index,
    hands_from_index,
    index_from_hands,
)
from bridgescore.core import Seat, Vulnerability
from bridgescore.deal import Deal
from bridgescore.errors import BridgeError
from bridgescore.formats.boardset import format_boards, guess_format, read_boards

SAMPLE = "N:KJ52.K7.T85.AJ87 A9863.Q3.Q3.T543 Q4.AJ862.J762.K2 T7.T954.AK94.Q96"

# Law 2's table of dealer and vulnerability, boards 1-16, typed in from the Laws.
LAW_2 = [
    (1, "N", "None"), (2, "E", "NS"), (3, "S", "EW"), (4, "W", "All"),
    (5, "N", "NS"), (6, "E", "EW"), (7, "S", "All"), (8, "W", "None"),
    (9, "N", "EW"), (10, "E", "All"), (11, "S", "None"), (12, "W", "NS"),
    (13, "N", "All"), (14, "E", "None"), (15, "S", "NS"), (16, "W", "EW"),
]  # fmt: skip


@pytest.mark.parametrize(("number", "dealer", "vulnerable"), LAW_2)
def test_dealer_and_vulnerability_follow_law_2(number: int, dealer: str, vulnerable: str) -> None:
    seed = DealSeed.from_test_number(5)
    for repeat in (number, number + 16, number + 32):
        (board,) = deal_set(seed, [repeat])
        assert board.dealer.letter == dealer
        assert board.vulnerability.to_pbn() == vulnerable
        pbn = format_boards([board], "pbn")
        assert f'[Dealer "{dealer}"]' in pbn and f'[Vulnerable "{vulnerable}"]' in pbn
        assert f'[Deal "{dealer}:' in pbn  # the deal is written from the dealer


def test_deal_count_is_the_number_of_bridge_deals() -> None:
    # 53,644,737,765,488,792,839,237,440,000 (Pavlicek), which needs 96 bits.
    assert DEAL_COUNT == 53_644_737_765_488_792_839_237_440_000
    assert comb(52, 13) * comb(39, 13) * comb(26, 13) == DEAL_COUNT
    assert 2**95 < DEAL_COUNT < 2**96


def test_index_decoding_is_a_bijection_on_a_small_deck() -> None:
    # 8 cards, 4 hands of 2: 8!/(2!^4) = 2520 deals, every one reached exactly once.
    total = deal_count(4, 2)
    assert total == 2520
    seen = set()
    for index in range(total):
        hands = hands_from_index(index, hands=4, size=2)
        assert sorted(card for hand in hands for card in hand) == list(range(8))
        assert index_from_hands(hands, size=2) == index
        seen.add(hands)
    assert len(seen) == total
    with pytest.raises(BridgeError, match="2520"):
        hands_from_index(total, hands=4, size=2)


def test_rejection_gives_every_deal_exactly_the_same_chance() -> None:
    # Small analogue: 12-bit draws for the 2520 deals of an 8-card deck.
    # Each try draws v uniformly in [0, 4096); rejection keeps v < 2520.
    # P(deal d) = sum over tries of P(all earlier rejected) * P(v maps to d).
    bits, total = 12, deal_count(4, 2)
    per_try: Counter[tuple[tuple[int, ...], ...]] = Counter()
    rejected = 0
    for draw in range(2**bits):
        if draw < total:
            kept = draw_index(iter([draw]), total)
            per_try[hands_from_index(kept, hands=4, size=2)] += 1
        else:
            rejected += 1
            with pytest.raises(BridgeError):
                draw_index(iter([draw]), total)
    keep = Fraction(2**bits - rejected, 2**bits)
    chances = {deal: Fraction(count, 2**bits) / keep for deal, count in per_try.items()}
    assert len(chances) == total
    assert set(chances.values()) == {Fraction(1, total)}
    # The modulo mapping this replaces would be biased: some deals twice as likely.
    modulo = Counter(draw % total for draw in range(2**bits))
    assert set(modulo.values()) == {1, 2}


def test_a_board_is_the_first_96_bit_hmac_draw_below_the_deal_count() -> None:
    # An independent formulation of the stream: HMAC-SHA256(seed, "board b try t").
    seed = DealSeed.from_test_number(11)
    for board in (1, 2, 36):
        attempt = 0
        while True:
            message = f"bridgescore board {board} try {attempt}".encode()
            digest = hmac.new(seed.secret, message, hashlib.sha256).digest()
            value = int.from_bytes(digest[:12], "big")
            if value < DEAL_COUNT:
                break
            attempt += 1
        cards = hands_from_index(value)
        deal = board_deal(seed, board)
        for seat, hand in zip(Seat, cards, strict=True):
            assert sorted(card.index for card in deal[seat].cards) == sorted(hand)


@given(st.integers(min_value=0, max_value=DEAL_COUNT - 1))
def test_deal_index_round_trip(index: int) -> None:
    assert index_from_hands(hands_from_index(index)) == index


def test_fresh_seeds_carry_96_bits_a_board_and_differ() -> None:
    assert DealSeed.fresh(1).bits == 256
    assert DealSeed.fresh(36).bits == 36 * 96
    assert DealSeed.fresh(4) != DealSeed.fresh(4)
    assert DealSeed.from_test_number(3).bits == 0  # guessable


def test_seed_file_round_trip_and_errors() -> None:
    seed = DealSeed.fresh(36)
    assert DealSeed.from_text(seed.to_text()) == seed
    test_seed = DealSeed.from_test_number(8)
    assert DealSeed.from_text(test_seed.to_text()) == test_seed
    with pytest.raises(SeedError, match="'seed zz'"):
        DealSeed.from_text("seed zz\n")
    with pytest.raises(SeedError, match="not a seed line"):
        DealSeed.from_text("hello world again\n")
    with pytest.raises(SeedError, match="no 'seed"):
        DealSeed.from_text("# nothing\n")
    forged = test_seed.to_text().replace("test-seed 8", "test-seed 9")
    with pytest.raises(SeedError, match="test-seed 9"):
        DealSeed.from_text(forged)


def test_commitment_round_trip() -> None:
    seed = DealSeed.fresh(8)
    text = commitment_text(seed)
    assert (
        read_commitment(text)
        == hashlib.sha256(b"bridgescore deal commitment\n" + seed.secret).hexdigest()
    )
    boards = deal_set(seed, range(1, 9))
    assert verify_set(boards, seed, read_commitment(text)).ok
    other = DealSeed.fresh(8)
    assert verify_set(boards, other, read_commitment(text)).mismatched == tuple(range(1, 9))
    assert verify_set(boards, seed, commitment(other)).commitment_ok is False
    with pytest.raises(SeedError, match="sha256"):
        read_commitment("sha256 1234\n")


def test_boards_do_not_depend_on_the_range_they_are_dealt_in() -> None:
    seed = DealSeed.from_test_number(2)
    whole = deal_set(seed, range(1, 9))
    assert deal_set(seed, [5, 6, 7, 8]) == whole[4:]
    assert len({board.deal for board in whole}) == 8


def test_parse_board_range() -> None:
    assert parse_board_range("1-36") == list(range(1, 37))
    assert parse_board_range("1-4, 9,13-14") == [1, 2, 3, 4, 9, 13, 14]
    for bad, words in [("0-3", "below 1"), ("5-2", "empty"), ("a-b", "'a-b'"), ("1,1", "twice")]:
        with pytest.raises(BridgeError, match=words):
            parse_board_range(bad)


def test_lin_line_for_a_known_deal() -> None:
    # Typed in from BBO's form: md's digit is the dealer (3 = North), hands S, W, N, E.
    board = Board(1, Deal.from_pbn(SAMPLE))
    assert format_boards([board], "lin") == (
        "qx|o1|md|3SQ4HAJ862DJ762CK2,ST7HT954DAK94CQ96,SKJ52HK7DT85CAJ87,SA9863HQ3DQ3CT543|"
        "rh||ah|Board 1|sv|o|pg||\n"
    )
    # BBO may leave East out; the reader gives East the remaining cards.
    three = "qx|o7|md|3SQ4HAJ862DJ762CK2,ST7HT954DAK94CQ96,SKJ52HK7DT85CAJ87,|sv|b|pg||\n"
    (read,), problems = read_boards(three, "lin")
    assert not problems and read.deal == board.deal and read.number == 7
    assert read.vulnerability is Vulnerability.BOTH


@pytest.mark.parametrize("fmt", ["pbn", "lin", "csv", "json"])
def test_every_format_reads_back(fmt: str) -> None:
    boards = deal_set(DealSeed.from_test_number(4), range(1, 19))
    text = format_boards(boards, fmt)  # type: ignore[arg-type]
    assert guess_format(f"set.{fmt}", text) == fmt
    read, problems = read_boards(text, fmt)  # type: ignore[arg-type]
    assert not problems
    assert [(b.number, b.deal, b.dealer, b.vulnerability) for b in read] == [
        (b.number, b.deal, b.dealer, b.vulnerability) for b in boards
    ]


@given(
    st.integers(min_value=0, max_value=10**6),
    st.lists(st.integers(min_value=1, max_value=200), min_size=1, max_size=6, unique=True),
    st.sampled_from(["pbn", "lin", "csv", "json"]),
)
def test_any_set_reads_back_in_any_format(seed: int, numbers: list[int], fmt: str) -> None:
    boards = deal_set(DealSeed.from_test_number(seed), numbers)
    read, problems = read_boards(format_boards(boards, fmt), fmt)  # type: ignore[arg-type]
    assert not problems
    assert [(b.number, b.deal, b.dealer, b.vulnerability) for b in read] == [
        (b.number, b.deal, b.dealer, b.vulnerability) for b in boards
    ]


def test_readers_go_on_past_a_bad_board_with_its_line() -> None:
    good = format_boards(deal_set(DealSeed.from_test_number(4), [1, 2]), "csv").splitlines()
    bad = [*good[:2], "3,S,EW,N:AKQ", *good[2:]]
    boards, problems = read_boards("\n".join(bad) + "\n", "csv")
    assert [board.number for board in boards] == [1, 2]
    assert len(problems) == 1 and problems[0].line == 3 and "N:AKQ" in problems[0].message
    lin = "qx|o1|md|3SAKQ,,,|sv|o|pg||\n" + format_boards(
        deal_set(DealSeed.from_test_number(4), [2]), "lin"
    )
    boards, problems = read_boards(lin, "lin")
    assert [board.number for board in boards] == [2] and problems[0].line == 1
    with pytest.raises(BridgeError, match="cannot tell"):
        guess_format("set.txt", "hello")
