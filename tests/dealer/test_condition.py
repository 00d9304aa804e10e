"""The dealer condition language, checked against an evaluation written here, deal by deal.

The reference evaluator below works on Deal values one at a time with plain Python
(the Hand API and hand-written bridge rules); the condition module works on numpy
arrays of many deals. Random expressions (hypothesis) must agree on every deal.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore.core import Seat, Strain
from bridgescore.deal import Deal, random_deal_array
from bridgescore.dealer.condition import parse_condition
from bridgescore.dealer.dealing import evaluate
from bridgescore.errors import BridgeError, ConditionError

OWNERS = random_deal_array(400, seed=2026)
DEALS = [Deal.from_array(row) for row in OWNERS]

SEAT_WORDS = {Seat.NORTH: "north", Seat.EAST: "east", Seat.SOUTH: "south", Seat.WEST: "west"}
SUIT_WORDS = {
    Strain.SPADES: "spades",
    Strain.HEARTS: "hearts",
    Strain.DIAMONDS: "diamonds",
    Strain.CLUBS: "clubs",
}

Ref = Callable[[Deal], int]


def ranks(deal: Deal, seat: Seat, suit: Strain) -> list[int]:
    return [card.rank for card in deal[seat].cards if card.suit == suit]


def ref_losers(held: list[int]) -> int:
    # dealer's manual: void 0; singleton A 0 else 1; AK 0, Ax or Kx 1, else 2;
    # three or more: 3 less one for each of A, K, Q.
    if not held:
        return 0
    if len(held) == 1:
        return 0 if 14 in held else 1
    if len(held) == 2:
        return 2 - (14 in held) - (13 in held)
    return 3 - (14 in held) - (13 in held) - (12 in held)


def c_div(a: int, b: int) -> int:
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


FEATURES: list[tuple[str, Callable[[Seat, Strain], Ref]]] = [
    ("hcp({seat})", lambda seat, suit: lambda d: d[seat].hcp),
    (
        "hcp({seat}, {suit})",
        lambda seat, suit: lambda d: sum(max(r - 10, 0) for r in ranks(d, seat, suit)),
    ),
    ("{suit}({seat})", lambda seat, suit: lambda d: d[seat].length(suit)),
    (
        "controls({seat})",
        lambda seat, suit: lambda d: sum({14: 2, 13: 1}.get(c.rank, 0) for c in d[seat].cards),
    ),
    (
        "losers({seat})",
        lambda seat, suit: lambda d: sum(ref_losers(ranks(d, seat, s)) for s in SUIT_WORDS),
    ),
    ("loser({seat}, {suit})", lambda seat, suit: lambda d: ref_losers(ranks(d, seat, suit))),
    (
        "top3({seat}, {suit})",
        lambda seat, suit: lambda d: sum(r >= 12 for r in ranks(d, seat, suit)),
    ),
    ("aces({seat})", lambda seat, suit: lambda d: sum(c.rank == 14 for c in d[seat].cards)),
    (
        "c13({seat})",
        lambda seat, suit: (
            lambda d: sum({14: 6, 13: 4, 12: 2, 11: 1}.get(c.rank, 0) for c in d[seat].cards)
        ),
    ),
    (
        "hascard({seat}, Q{letter})",
        lambda seat, suit: lambda d: int(any(c.suit == suit and c.rank == 12 for c in d[seat])),
    ),
]


@st.composite
def expressions(draw: st.DrawFn, depth: int = 0) -> tuple[str, Ref]:
    if depth >= 3 or draw(st.integers(0, 2)) == 0:
        if draw(st.booleans()):
            value = draw(st.integers(0, 25))
            return str(value), lambda d: value
        template, build = draw(st.sampled_from(FEATURES))
        seat = draw(st.sampled_from(list(Seat)))
        suit = draw(st.sampled_from(list(SUIT_WORDS)))
        text = template.format(seat=SEAT_WORDS[seat], suit=SUIT_WORDS[suit], letter=suit.letter)
        return text, build(seat, suit)
    kind = draw(st.sampled_from(["binary", "not", "neg", "ternary"]))
    left_text, left = draw(expressions(depth + 1))
    if kind == "not":
        word = draw(st.sampled_from(["!", "not "]))
        return f"{word}({left_text})", lambda d: int(not left(d))
    if kind == "neg":
        return f"-({left_text})", lambda d: -left(d)
    right_text, right = draw(expressions(depth + 1))
    if kind == "ternary":
        third_text, third = draw(expressions(depth + 1))
        return (
            f"(({left_text}) ? ({right_text}) : ({third_text}))",
            lambda d: right(d) if left(d) else third(d),
        )
    op = draw(
        st.sampled_from(
            ["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "and", "or"]
        )
    )
    python: dict[str, Callable[[int, int], int]] = {
        "+": lambda a, b: a + b,
        "-": lambda a, b: a - b,
        "*": lambda a, b: a * b,
        "/": c_div,
        "%": lambda a, b: 0 if b == 0 else a - c_div(a, b) * b,
        "==": lambda a, b: int(a == b),
        "!=": lambda a, b: int(a != b),
        "<": lambda a, b: int(a < b),
        "<=": lambda a, b: int(a <= b),
        ">": lambda a, b: int(a > b),
        ">=": lambda a, b: int(a >= b),
        "&&": lambda a, b: int(bool(a) and bool(b)),
        "||": lambda a, b: int(bool(a) or bool(b)),
    }
    apply = python[{"and": "&&", "or": "||"}.get(op, op)]
    return f"({left_text}) {op} ({right_text})", lambda d: apply(left(d), right(d))


@settings(max_examples=150, deadline=None)
@given(expressions())
def test_random_expressions_agree_with_the_reference(expression: tuple[str, Ref]) -> None:
    text, reference = expression
    got = evaluate(text, OWNERS)
    expected = np.array([reference(deal) != 0 for deal in DEALS])
    assert got.tolist() == expected.tolist(), text


def test_precedence_follows_c() -> None:
    # dealer's own operator-order examples, with the values C gives.
    cases = {
        "1 ? 0 ? 3 : 2 : 1": 2,
        "0 ? 0 ? 3 : 2 : 1": 1,
        "1 ? 3 : 1 ? 2 : 1": 3,
        "0 && 0 || 1": 1,
        "1 || 0 && 0": 1,
        "2 == 2 != 0": 1,
        "2 + 3 * 4 == 14": 1,
        "-7 / 2 == -3": 1,
        "-7 % 2 == -1": 1,
        "7 / 0 == 0": 1,
    }
    for text, value in cases.items():
        got = evaluate(text, OWNERS[:3])
        assert got.tolist() == [bool(value)] * 3, text


def exact_shape(deal: Deal, seat: Seat) -> tuple[int, int, int, int]:
    return deal[seat].shape


@pytest.mark.parametrize(
    ("text", "allowed"),
    [
        ("shape(north, 4333)", lambda s: s == (4, 3, 3, 3)),
        ("shape(north, any 4333)", lambda s: sorted(s) == [3, 3, 3, 4]),
        ("shape(north, 5xxx)", lambda s: s[0] == 5),
        ("shape(north, x5x4)", lambda s: s[1] == 5 and s[3] == 4),
        (
            "shape(north, any 4333 + any 4432 + any 5332 - 5xxx - x5xx)",
            lambda s: (
                sorted(s) in ([3, 3, 3, 4], [2, 3, 4, 4], [2, 3, 3, 5]) and s[0] != 5 and s[1] != 5
            ),
        ),
        ("shape(north, any 0xxx)", lambda s: 0 in s),
        ("shape(north, any 55xx)", lambda s: sorted(s)[2:] == [5, 5]),
    ],
)
def test_shapes_match_lengths(text: str, allowed: Callable[[tuple[int, ...]], bool]) -> None:
    got = evaluate(text, OWNERS)
    assert got.tolist() == [allowed(deal[Seat.NORTH].shape) for deal in DEALS]


def test_shape_any_covers_every_permutation() -> None:
    # Independent count: the number of distinct suit orders of each pattern.
    condition = parse_condition("shape(south, any 4432)")
    assert condition.terms[0].seats == frozenset({Seat.SOUTH})
    assert len(set(itertools.permutations("4432"))) == 12


def test_definitions_and_the_condition_keyword() -> None:
    text = """
    # a comment
    opener = hcp(east) >= 15 && hcp(east) <= 17   // 15-17
    responder = hcp(west) >= 8
    condition opener and responder
    """
    expected = [15 <= d[Seat.EAST].hcp <= 17 and d[Seat.WEST].hcp >= 8 for d in DEALS]
    assert evaluate(text, OWNERS).tolist() == expected


def test_top_level_and_terms_are_kept_apart_for_early_rejection() -> None:
    condition = parse_condition("hcp(south) >= 15 && spades(north) >= 4 && hcp(west) < 10")
    assert [sorted(term.seats) for term in condition.terms] == [
        [Seat.SOUTH],
        [Seat.NORTH],
        [Seat.WEST],
    ]
    whole = parse_condition("hcp(south) >= 15 || spades(north) >= 4")
    assert len(whole.terms) == 1
    assert whole.terms[0].seats == frozenset({Seat.SOUTH, Seat.NORTH})


@pytest.mark.parametrize(
    ("text", "column", "caret", "expected"),
    [
        ("hcp(nort) > 3", 5, "^^^^", "is not a seat"),
        ("hcp(north) >", 13, "^", "the end: expected a number"),
        ("shape(north, 4432 + 5xx)", 21, "^^^", "is not a shape"),
        ("shape(north, 4442)", 14, "^^^^", "is not a shape"),
        ("hcp(north) > 3 )", 16, "^", "one condition only"),
        ("hcp(north) @ 3", 12, "^", "'@' is not part of the language"),
        ("hcp(north, trumps)", 12, "^^^^^^", "is not a suit"),
        ("hascard(north, XS)", 16, "^^", "is not a card"),
        ("produce 10", 1, "^^^^^^^", "use --count"),
        ("frobnicate(north) > 2", 1, "^^^^^^^^^^", "is not a function"),
        ("hcp north", 5, "^^^^^", "expected '(' after the function hcp"),
        ("(hcp(north) > 3", 16, "^", "expected ')'"),
    ],
)
def test_errors_point_at_the_offending_token(
    text: str, column: int, caret: str, expected: str
) -> None:
    with pytest.raises(ConditionError) as caught:
        parse_condition(text)
    message = str(caught.value)
    assert isinstance(caught.value, BridgeError)
    assert repr(text) in message
    assert f"column {column}:" in message
    assert expected in message
    assert message.splitlines()[-1] == "  " + " " * (column - 1) + caret


def test_a_condition_must_be_text() -> None:
    with pytest.raises(ConditionError, match="must be text"):
        parse_condition(12)  # type: ignore[arg-type]


# ---- bounds: text from a web form cannot exhaust the parser or the evaluator ----------


def north_hcp_at_least(points: int) -> list[bool]:
    """The reference: North's high-card points (4-3-2-1, counted here) at least ``points``."""
    weights = {14: 4, 13: 3, 12: 2, 11: 1}
    return [
        sum(weights.get(card.rank, 0) for card in deal[Seat.NORTH].cards) >= points
        for deal in DEALS
    ]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # The attack: 1,900 '!' made the parser recurse until Python gave up.
        ("!" * 1900 + "hcp(north) > 3", "nest at most 50 deep"),
        ("(" * 1900 + "1" + ")" * 1900, "nest at most 50 deep"),
        ("-" * 1900 + "hcp(north) > 3", "nest at most 50 deep"),
        ("1 ? " * 900 + "1" + " : 2" * 900, "nest at most 50 deep"),
        # A flat chain parses in a loop but evaluates one operation inside the next.
        ("hcp(north)" + " + hcp(north)" * 2000 + " > 3", "at most 200 deep"),
        # Each use of a name counts in full: 2**40 additions from 40 short lines.
        (
            "a0 = hcp(north)\n"
            + "".join(f"a{i + 1} = a{i} + a{i}\n" for i in range(40))
            + "a40 > 1",
            "at most 10,000",
        ),
    ],
    ids=["not", "brackets", "minus", "selection", "chain", "doubling"],
)
def test_conditions_past_the_bounds_are_refused_naming_them(text: str, said: str) -> None:
    with pytest.raises(ConditionError) as caught:
        parse_condition(text)
    message = str(caught.value)
    assert said in message
    # The message quotes a short part of a long condition, not all of it.
    assert len(message) < 600


def test_conditions_within_the_bounds_are_read_and_right() -> None:
    # 48 '!' (even: the test itself), inside the condition's own level and the bracket's.
    nested = "!" * 48 + "(hcp(north) >= 10)"
    assert evaluate(nested, OWNERS).tolist() == north_hcp_at_least(10)
    # 198 additions and a comparison, 200 deep: (north's hcp) * 199 >= 1990.
    chain = "hcp(north)" + " + hcp(north)" * 198 + " >= 1990"
    assert evaluate(chain, OWNERS).tolist() == north_hcp_at_least(10)


def test_the_nesting_bound_is_a_bridge_error_on_the_command_line_too() -> None:
    from typer.testing import CliRunner

    from bridgescore.cli.app import app

    result = CliRunner().invoke(app, ["deal", "--where", "!" * 1900 + "hcp(north) > 3"])
    assert result.exit_code != 0
    assert "nest at most 50 deep" in result.output
    assert "RecursionError" not in result.output
