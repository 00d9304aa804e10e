"""The condition language of Hans van Staveren's ``dealer``, evaluated over numpy arrays.

A condition is text such as ``hcp(south) >= 15 && shape(south, any 4333 + any 4432)``;
:func:`parse_condition` reads it into a :class:`Condition`, which evaluates many
candidate deals at once: it gets the 13 cards of each seat it needs as arrays and
returns one truth value per deal. The grammar (C precedence, as ``dealer``)::

    program    := (count | NAME "=" expr)* ["condition"] expr
    count      := "pointcount" NUMBER* | "altcount" NUMBER NUMBER*
    expr       := or ["?" expr ":" expr]
    or         := and (("||" | "or") and)*
    and        := equality (("&&" | "and") equality)*
    equality   := relation (("==" | "!=") relation)*
    relation   := sum (("<" | "<=" | ">" | ">=") sum)*
    sum        := product (("+" | "-") product)*
    product    := unary (("*" | "/" | "%") unary)*
    unary      := ("!" | "not" | "-") unary | primary
    primary    := NUMBER | NAME | "(" expr ")" | function "(" arguments ")"

Functions: ``hcp``, ``spades`` / ``hearts`` / ``diamonds`` / ``clubs``, ``controls``,
``losers``, ``aces`` ``kings`` ``queens`` ``jacks`` ``tens`` ``top2`` ... ``top5``
``c13`` (and ``pt0`` ... ``pt9``), each ``(seat)`` or ``(seat, suit)`` where it makes
sense; ``shape(seat, any 4333 + 5xxx - any 0xxx)``, ``hascard(seat, AS)``,
``cccc(seat)``, ``quality(seat, suit)`` and ``rnd(expr)`` (see
:mod:`bridgescore.dealer.valuation`). ``pointcount`` and ``altcount`` declarations
give ``hcp`` and ``pt0`` ... ``pt9`` other card weights, wherever they are written.
Division truncates towards zero as in C; comparisons and logic give 0 or 1.

A condition is bounded, so that text from anyone (a web form) cannot exhaust the
parser or the evaluator: brackets, ``!``, ``-`` and ``? :`` nest at most
``MAX_NESTING`` deep (the parser recurses on them), an expression is at most
``MAX_DEPTH`` operations deep (the evaluator recurses on them: a chain of 300
``+`` is 300 deep) and holds at most ``MAX_OPERATIONS`` operations, counting each
use of a defined name in full (``b = a + a`` doubles ``a``); the bounds live in
:mod:`bridgescore.dealer.syntax`. Past a bound the
:class:`~bridgescore.errors.ConditionError` names it.

Only the whole-seat features a condition uses are ever computed, and a condition's
top-level ``&&`` terms are kept apart (:attr:`Condition.terms`) so the dealer can
test each as soon as the seats it names are dealt and never complete a deal that
already failed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from bridgescore.core import Seat, Strain
from bridgescore.dealer.hand import HandView, rank_table
from bridgescore.dealer.syntax import (
    COMMANDS,
    MAX_DEPTH,
    MAX_NESTING,
    MAX_OPERATIONS,
    NOT_HERE,
    SEATS,
    SUITS,
    ConditionToken,
    card_number,
    condition_error,
    count_slot,
    function_name,
    is_keyword,
    shape_patterns,
    tokens,
)
from bridgescore.dealer.valuation import cccc, quality, random_below
from bridgescore.errors import ConditionError

__all__ = ["Condition", "HandView", "Term", "parse_condition"]  # HandView re-exported

IntArray = npt.NDArray[np.int32]
Array = npt.NDArray[np.int32] | npt.NDArray[np.bool_]

Evaluator = Callable[[HandView], Array]
_LARGEST = 2**31 - 1


@dataclass(frozen=True, slots=True)
class _Expr:
    evaluate: Evaluator
    seats: frozenset[Seat]
    is_bool: bool
    constant: int | None = None
    depth: int = 1  # operations inside one another, this one included
    size: int = 1  # operations evaluated, this one included


def _above(*operands: _Expr) -> dict[str, int]:
    """The depth and size of an operation on ``operands``."""
    return {
        "depth": 1 + max(operand.depth for operand in operands),
        "size": 1 + sum(operand.size for operand in operands),
    }


@dataclass(frozen=True, slots=True)
class Term:
    """One top-level ``&&`` term of a condition and the seats it looks at."""

    text: str
    seats: frozenset[Seat]
    evaluate: Callable[[HandView], npt.NDArray[np.bool_]]


@dataclass(frozen=True, slots=True)
class Condition:
    """A parsed condition: its text and its top-level ``&&`` terms.

    ``condition(view)`` is the truth value for each candidate deal of ``view``.
    """

    text: str
    terms: tuple[Term, ...]
    seats: frozenset[Seat] = field(default=frozenset())

    def __call__(self, view: HandView) -> npt.NDArray[np.bool_]:
        result = np.ones(view.n, dtype=bool)
        for term in self.terms:
            result &= term.evaluate(view)
        return result


def _as_int(expr: _Expr) -> Evaluator:
    if not expr.is_bool:
        return expr.evaluate
    evaluate = expr.evaluate
    return lambda view: evaluate(view).astype(np.int32)


def _as_bool(expr: _Expr) -> Callable[[HandView], npt.NDArray[np.bool_]]:
    evaluate = expr.evaluate
    if expr.is_bool:
        return evaluate  # type: ignore[return-value]
    return lambda view: evaluate(view) != 0


def _c_divide(left: IntArray, right: IntArray) -> IntArray:
    # C truncates towards zero; numpy's // floors. A zero divisor gives 0 (for / and %),
    # rather than stopping a run of millions of deals on one of them.
    safe = np.where(right == 0, 1, right)
    quotient = np.abs(left) // np.abs(safe) * np.sign(left) * np.sign(safe)
    return np.where(right == 0, 0, quotient).astype(np.int32)


def _c_remainder(left: IntArray, right: IntArray) -> IntArray:
    return np.where(right == 0, 0, left - _c_divide(left, right) * right).astype(np.int32)


_BINARY: dict[str, Callable[[IntArray, IntArray], Array]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": _c_divide,
    "%": _c_remainder,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}
_PYTHON: dict[str, Callable[[int, int], int]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: 0 if b == 0 else int(abs(a) // abs(b) * (1 if a * b >= 0 else -1)),
    "%": lambda a, b: 0 if b == 0 else a - (int(abs(a) // abs(b)) * (1 if a * b >= 0 else -1)) * b,
    "==": lambda a, b: int(a == b),
    "!=": lambda a, b: int(a != b),
    "<": lambda a, b: int(a < b),
    "<=": lambda a, b: int(a <= b),
    ">": lambda a, b: int(a > b),
    ">=": lambda a, b: int(a >= b),
}
_LEVELS = (("==", "!="), ("<", "<=", ">", ">="), ("+", "-"), ("*", "/", "%"))


BoolEvaluator = Callable[[HandView], npt.NDArray[np.bool_]]


def _either(a: BoolEvaluator, b: BoolEvaluator) -> BoolEvaluator:
    return lambda view: a(view) | b(view)


def _both(a: BoolEvaluator, b: BoolEvaluator) -> BoolEvaluator:
    return lambda view: a(view) & b(view)


def _constant(value: int) -> _Expr:
    return _Expr(lambda view: np.full(view.n, value, dtype=np.int32), frozenset(), False, value)


def _binary(op: str, left: _Expr, right: _Expr) -> _Expr:
    if left.constant is not None and right.constant is not None:
        return _constant(_PYTHON[op](left.constant, right.constant))
    a, b, apply = _as_int(left), _as_int(right), _BINARY[op]
    return _Expr(
        lambda view: apply(a(view), b(view)),  # type: ignore[arg-type]
        left.seats | right.seats,
        op in ("==", "!=", "<", "<=", ">", ">="),
        **_above(left, right),
    )


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokens(text)
        self.position = 0
        self.names: dict[str, _Expr] = {}
        # Declared card weights ("hcp" or 0..9 -> a 52-card table). Filled while parsing and
        # read when evaluating, so, as in dealer, a declaration counts wherever it is written.
        self.counts: dict[str | int, npt.NDArray[np.int32]] = {}
        self.nesting = 0  # expressions and unary operators being read, one inside another

    # -- token helpers -------------------------------------------------------
    @property
    def token(self) -> ConditionToken:
        return self.tokens[self.position]

    def advance(self) -> ConditionToken:
        token = self.tokens[self.position]
        self.position += 1
        return token

    def at(self, *texts: str) -> bool:
        token = self.token
        return token.kind != "end" and token.text.lower() in texts

    def fail(self, token: ConditionToken, message: str) -> ConditionError:
        shown = "the end" if token.kind == "end" else repr(token.text)
        return condition_error(self.text, token.start, len(token.text), f"{shown}: {message}")

    def deeper(self, token: ConditionToken) -> None:
        """Count one more level of nesting at ``token``; refuse past ``MAX_NESTING``."""
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise self.fail(
                token,
                f"nested too deep: brackets, '!', '-' and '? :' may nest at most "
                f"{MAX_NESTING} deep in a condition",
            )

    def bounded(self, expr: _Expr, token: ConditionToken) -> _Expr:
        """``expr``, refused if it is deeper than ``MAX_DEPTH`` or larger than
        ``MAX_OPERATIONS``; ``token`` is where it grew."""
        if expr.depth > MAX_DEPTH:
            raise self.fail(
                token,
                f"the expression is {MAX_DEPTH + 1} operations deep here: a condition may "
                f"hold operations at most {MAX_DEPTH} deep (split a long chain with brackets "
                "or definitions)",
            )
        if expr.size > MAX_OPERATIONS:
            raise self.fail(
                token,
                f"the expression holds more than {MAX_OPERATIONS:,} operations here (each "
                f"use of a defined name counts in full): a condition may hold at most "
                f"{MAX_OPERATIONS:,}",
            )
        return expr

    def expect(self, text: str, what: str) -> ConditionToken:
        if not self.at(text):
            raise self.fail(self.token, f"expected {what}")
        return self.advance()

    # -- program -------------------------------------------------------------
    def program(self) -> list[tuple[str, _Expr]]:
        """Definitions ``name = expr`` and the condition; returns the top-level terms."""
        condition: _Expr | None = None
        condition_start = 0
        while self.token.kind != "end":
            token = self.token
            following = self.tokens[self.position + 1]
            if token.kind == "word" and following.text == "=" and following.kind == "op":
                name = token.text.lower()
                if is_keyword(name):
                    raise self.fail(token, "is a reserved word and cannot be defined")
                self.position += 2
                self.names[name] = self.expression()
                continue
            if self.at("pointcount", "altcount"):
                self.count_declaration()
                continue
            if self.at("condition"):
                self.advance()
            elif token.kind == "word" and token.text.lower() in COMMANDS:
                raise self.fail(token, COMMANDS[token.text.lower()])
            if condition is not None:
                raise self.fail(token, "expected the end of the condition (one condition only)")
            condition_start = self.position
            condition = self.expression()
        if condition is None:
            raise self.fail(self.token, "expected a condition, such as 'hcp(north) >= 12'")
        return self.terms(condition_start)

    def number(self, token: ConditionToken) -> int:
        # Values are C ints in dealer, int32 here: a larger number cannot be held.
        value = int(token.text)
        if value > _LARGEST:
            raise self.fail(token, f"is too large: numbers go up to {_LARGEST:,}")
        return value

    def count_declaration(self) -> None:
        """``pointcount 4 3 2 1`` (weights from the ace down) or ``altcount N 1 1``."""
        keyword = self.advance()
        slot: str | int = "hcp"
        if keyword.text.lower() == "altcount":
            number = self.advance()
            if not number.text.isdigit() or int(number.text) > 9:
                raise self.fail(number, "expected the number of an alternative count, 0 to 9")
            slot = int(number.text)
        weights: list[int] = []
        while self.token.kind == "word" and self.token.text.isdigit():
            if len(weights) == 13:
                raise self.fail(
                    self.token, f"too many weights for {keyword.text}: 13 at most (ace to two)"
                )
            weights.append(self.number(self.advance()))
        self.counts[slot] = rank_table(tuple(weights))

    def terms(self, start: int) -> list[tuple[str, _Expr]]:
        # Re-read the condition keeping its top-level && terms apart, with their text.
        self.position = start
        found: list[tuple[str, _Expr]] = []
        while True:
            first = self.position
            term = self.equality_chain()
            found.append((self.span(first), term))
            if not self.at("&&", "and"):
                break
            self.advance()
        if self.at("||", "or", "?"):
            # An || or ?: at the top level: the whole condition is a single term.
            self.position = start
            whole = self.expression()
            return [(self.span(start), whole)]
        return found

    def span(self, first: int) -> str:
        last = self.tokens[self.position - 1]
        return self.text[self.tokens[first].start : last.start + len(last.text)]

    # -- expressions ---------------------------------------------------------
    def expression(self) -> _Expr:
        self.deeper(self.token)
        try:
            return self.selection()
        finally:
            self.nesting -= 1

    def selection(self) -> _Expr:
        condition = self.disjunction()
        if not self.at("?"):
            return condition
        mark = self.advance()
        yes = self.expression()
        self.expect(":", "':' of a '? :' selection")
        no = self.expression()
        test, a, b = _as_bool(condition), _as_int(yes), _as_int(no)
        selected = _Expr(
            lambda view: np.where(test(view), a(view), b(view)).astype(np.int32),
            condition.seats | yes.seats | no.seats,
            False,
            **_above(condition, yes, no),
        )
        return self.bounded(selected, mark)

    def disjunction(self) -> _Expr:
        left = self.equality_chain_and()
        while self.at("||", "or"):
            mark = self.advance()
            right = self.equality_chain_and()
            either = _either(_as_bool(left), _as_bool(right))
            left = self.bounded(
                _Expr(either, left.seats | right.seats, True, **_above(left, right)), mark
            )
        return left

    def equality_chain_and(self) -> _Expr:
        left = self.equality_chain()
        while self.at("&&", "and"):
            mark = self.advance()
            right = self.equality_chain()
            both = _both(_as_bool(left), _as_bool(right))
            left = self.bounded(
                _Expr(both, left.seats | right.seats, True, **_above(left, right)), mark
            )
        return left

    def equality_chain(self) -> _Expr:
        return self.level(0)

    def level(self, depth: int) -> _Expr:
        if depth == len(_LEVELS):
            return self.unary()
        left = self.level(depth + 1)
        while self.token.kind == "op" and self.token.text in _LEVELS[depth]:
            mark = self.advance()
            left = self.bounded(_binary(mark.text, left, self.level(depth + 1)), mark)
        return left

    def unary(self) -> _Expr:
        if not self.at("!", "not", "-"):
            return self.primary()
        mark = self.advance()
        self.deeper(mark)
        try:
            operand = self.unary()
        finally:
            self.nesting -= 1
        if mark.text != "-":
            test = _as_bool(operand)
            negated = _Expr(
                lambda view: np.logical_not(test(view)), operand.seats, True, **_above(operand)
            )
            return self.bounded(negated, mark)
        if operand.constant is not None:
            return _constant(-operand.constant)
        value = _as_int(operand)
        minus = _Expr(
            lambda view: np.negative(value(view).astype(np.int32)),
            operand.seats,
            False,
            **_above(operand),
        )
        return self.bounded(minus, mark)

    def primary(self) -> _Expr:
        token = self.token
        if token.kind == "op" and token.text == "(":
            self.advance()
            inner = self.expression()
            self.expect(")", "')' to close the '('")
            return inner
        if token.kind != "word":
            raise self.fail(token, "expected a number, a name or '('")
        self.advance()
        word = token.text.lower()
        if word.isdigit():
            return _constant(self.number(token))
        if word in self.names:
            return self.names[word]
        if self.at("("):
            return self.call(token, word)
        if function_name(word) is not None:
            raise self.fail(self.token, f"expected '(' after the function {word}")
        raise self.fail(
            token,
            "is not a function, number or defined name: expected hcp, spades, hearts, "
            "diamonds, clubs, shape, hascard, controls, losers, aces ... tens, "
            "top2 ... top5, c13, pt0 ... pt9, cccc, quality or rnd",
        )

    # -- functions -----------------------------------------------------------
    def seat(self) -> Seat:
        token = self.advance()
        word = token.text.lower()
        if word in SEATS:
            return SEATS[word]
        raise self.fail(token, "is not a seat: expected north, east, south or west")

    def suit(self) -> Strain:
        token = self.advance()
        word = token.text.lower()
        single = word[:-1] if word.endswith("s") else word
        if single in SUITS:
            return SUITS[single]
        raise self.fail(token, "is not a suit: expected spades, hearts, diamonds or clubs")

    def call(self, name: ConditionToken, word: str) -> _Expr:
        function = function_name(word)
        if function is None:
            if word in ("trick", "tricks", "score", "imp", "imps"):
                raise self.fail(name, NOT_HERE)
            raise self.fail(name, "is not a function (see the list in docs/simulate.md)")
        self.expect("(", "'('")
        if function == "rnd":
            return self.random(name)
        seat = self.seat()
        if function == "cccc":
            expr = _Expr(lambda view: cccc(view, seat), frozenset({seat}), False)
        elif function == "quality":
            self.expect(",", "',' then a suit: quality(seat, suit)")
            suit_of = self.suit()
            expr = _Expr(lambda view: quality(view, seat, suit_of), frozenset({seat}), False)
        elif function == "shape":
            self.expect(",", "',' then a shape list such as 'any 4333 + 5xxx'")
            expr = self.shape(seat)
        elif function == "hascard":
            self.expect(",", "',' then a card such as 'AS'")
            expr = self.hascard(seat)
        elif function in SUITS:
            suit = SUITS[function]
            expr = _Expr(lambda view: view.length(seat, suit), frozenset({seat}), False)
        else:
            suit: Strain | None = None  # type: ignore[no-redef]
            if self.at(","):
                self.advance()
                suit = self.suit()
            expr = self.feature(function, seat, suit)
        self.expect(")", f"')' to close {name.text}(")
        return expr

    def random(self, name: ConditionToken) -> _Expr:
        """``rnd(expr)`` after its '(': a number from 0 to expr - 1, drawn from the deal."""
        bound = self.expression()
        self.expect(")", f"')' to close {name.text}(")
        # The salt is the rnd's place among the condition's rnd calls: stable when the
        # condition is read twice (see terms) and the same for every use of a definition.
        earlier = (token for token in self.tokens if token.start < name.start)
        salt = sum(1 for token in earlier if token.text.lower() == "rnd")
        value = _as_int(bound)
        # It reads the whole deal, so it is tested once every seat is dealt.
        drawn = _Expr(
            lambda view: random_below(view, value(view), salt),
            frozenset(Seat) | bound.seats,
            False,
            **_above(bound),
        )
        return self.bounded(drawn, name)

    def feature(self, function: str, seat: Seat, suit: Strain | None) -> _Expr:
        if function == "loser":
            suits = [suit] if suit is not None else list(SUITS.values())

            def losers(view: HandView) -> IntArray:
                total = view.losers(seat, suits[0])
                for other in suits[1:]:
                    total = total + view.losers(seat, other)
                return total

            return _Expr(losers, frozenset({seat}), False)
        slot = count_slot(function)
        if slot is None:
            return _Expr(lambda view: view.weight(seat, function, suit), frozenset({seat}), False)
        counts = self.counts

        def counted(view: HandView) -> IntArray:
            table = counts.get(slot)
            if table is None:
                return view.weight(seat, function, suit)
            return view.points(seat, table, suit)

        return _Expr(counted, frozenset({seat}), False)

    def hascard(self, seat: Seat) -> _Expr:
        token = self.advance()
        card = card_number(token.text)
        if card is None:
            raise self.fail(token, "is not a card: expected a rank and a suit such as AS or TC")
        return _Expr(lambda view: view.has(seat, card), frozenset({seat}), True)

    def shape(self, seat: Seat) -> _Expr:
        allowed = np.zeros(14**4, dtype=bool)
        sign = "+"
        while True:
            any_order = False
            if self.at("any"):
                self.advance()
                any_order = True
            token = self.advance()
            patterns = shape_patterns(token.text.lower(), any_order)
            if patterns is None:
                raise self.fail(
                    token,
                    "is not a shape: expected 4 lengths spades-hearts-diamonds-clubs, each a "
                    "digit or x, adding up to 13 (such as 4333 or 5xxx), optionally after 'any'",
                )
            allowed[patterns] = sign == "+"
            if self.token.kind == "op" and self.token.text in ("+", "-"):
                sign = self.advance().text
                continue
            break
        return _Expr(lambda view: allowed[view.shape_index(seat)], frozenset({seat}), True)


def parse_condition(text: str) -> Condition:
    """Read a ``dealer`` condition (optionally after ``name = expr`` definitions).

    Raises :class:`~bridgescore.errors.ConditionError` quoting the text, with a
    caret under the offending token.

    >>> condition = parse_condition("hcp(south) >= 15 && shape(south, any 4333 + any 4432)")
    >>> [term.text for term in condition.terms]
    ['hcp(south) >= 15', 'shape(south, any 4333 + any 4432)']
    """
    if not isinstance(text, str):
        raise ConditionError(f"a condition must be text, not {text!r}")
    parser = _Parser(text)
    terms = tuple(Term(text, expr.seats, _as_bool(expr)) for text, expr in parser.program())
    seats = frozenset().union(*(term.seats for term in terms))
    return Condition(text, terms, seats)
