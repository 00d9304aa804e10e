"""Constrained dealing: predeal, a ``dealer`` condition, bulk numpy dealing in chunks.

A :class:`DealSpec` (condition text and predeals, all plain text) says which deals
are wanted; :func:`deal_chunk` deals chunk ``i`` of them for a seed, and
:func:`deal_many` / :func:`iter_deal_chunks` put chunks 0, 1, ... together.

How a chunk is dealt, and why it is uniform and reproducible:

- Chunk ``i`` of seed ``s`` draws from PCG64 seeded with child ``i`` of
  ``numpy.random.SeedSequence(s)`` (as par studies do), so any chunk can be dealt
  anywhere, alone, and gives the same deals in ``deal``, ``simulate``, the library
  and on a Dask worker.
- Candidates come in batches of :data:`BATCH` rows: each row is a Fisher-Yates
  shuffle of the cards nobody was predealt (numpy draws, one float64 a step), cut
  into the seats' missing cards in a fixed seat order. Each candidate is therefore
  a uniform random completion of the predeal; keeping those that pass the
  condition gives deals uniform among all deals that satisfy it.
- Early rejection: the condition's top-level ``&&`` terms are tested seat by seat
  (the seats the condition names first), on the rows still alive, before any
  later seat's features are computed or any deal is assembled.
- The batch size does not depend on how many deals are asked for, so the first
  ``k`` deals of a chunk are the same whatever its length: a shorter run is a
  prefix of a longer one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from bridgescore.core import Seat, Strain
from bridgescore.deal import Deal
from bridgescore.dealer_condition import Condition, HandView, Term, parse_condition
from bridgescore.errors import ConditionError, PredealError

__all__ = [
    "BATCH",
    "DEALS_PER_CHUNK",
    "MAX_CANDIDATES_PER_CHUNK",
    "DealSpec",
    "Predeal",
    "deal_chunk",
    "deal_many",
    "evaluate",
    "iter_deal_chunks",
    "parse_predeal",
    "pbn_strings",
]

DEALS_PER_CHUNK = 10_000
"""Deals per chunk: chunk ``i`` holds deals ``10000 i + 1`` to ``10000 (i + 1)`` of a run."""
BATCH = 16_384
"""Candidate deals drawn per numpy call; fixed, so chunks are prefix-stable."""
MAX_CANDIDATES_PER_CHUNK = 20_000_000
"""A chunk gives up (with a ConditionError) after this many candidates."""

_SEAT_WORDS = {"n": Seat.NORTH, "e": Seat.EAST, "s": Seat.SOUTH, "w": Seat.WEST}
_SEAT_WORDS.update({seat.name.lower(): seat for seat in Seat})
_RANKS = "23456789TJQKA"
_PBN_SUIT_ORDER = (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
_SPOT = (np.arange(52) % 13 <= 7).astype(np.int8)  # ranks 2..9
_SUIT_OF = np.arange(52) // 13


@dataclass(frozen=True, slots=True)
class Predeal:
    """Cards given to one seat before dealing, and how many extra small cards (x) per suit.

    ``spots[suit]`` is the number of ``x`` written in that suit: the seat must hold at
    least that many cards 2-9 of the suit besides the named ones.
    """

    seat: Seat
    cards: frozenset[int]
    spots: tuple[int, int, int, int] = (0, 0, 0, 0)  # indexed by Strain (clubs first)

    def __str__(self) -> str:
        suits = []
        for suit in _PBN_SUIT_ORDER:
            ranks = sorted((c % 13 for c in self.cards if c // 13 == suit), reverse=True)
            suits.append("".join(_RANKS[r] for r in ranks) + "x" * self.spots[suit])
        return f"{self.seat.letter}=" + ".".join(suits)


_PREDEAL = re.compile(r"\s*(?P<seat>[A-Za-z]+)\s*[=:]\s*(?P<holding>.*?)\s*", re.DOTALL)


def parse_predeal(text: str) -> Predeal:
    """Read ``N=AKQ2.KQ3.A54.KJ3`` (a whole hand), ``S=AK..x.`` (some cards) or
    ``south=SAQ542,HKJ87`` (dealer's suit-by-suit form).

    The PBN-like form lists spades.hearts.diamonds.clubs; ``x`` is one more small
    card (2-9) of that suit, any of those not named. Raises
    :class:`~bridgescore.errors.PredealError` quoting the text.

    >>> str(parse_predeal("s=ak..x."))
    'S=AK..x.'
    """
    if not isinstance(text, str):
        raise PredealError(f"a predeal must be text, not {text!r}")
    match = _PREDEAL.fullmatch(text)
    if match is None or match["seat"].lower() not in _SEAT_WORDS:
        raise PredealError(
            f"not a predeal: {text!r}: expected a seat N, E, S or W, '=' and cards, "
            "as in 'N=AKQ2.KQ3.A54.KJ3' or 'S=AK..x.'"
        )
    seat = _SEAT_WORDS[match["seat"].lower()]
    holding = match["holding"].upper().replace("10", "T")
    if "." in holding:
        suits = holding.split(".")
        if len(suits) != 4:
            raise PredealError(
                f"predeal {text!r} has {len(suits)} suit(s): expected 4 separated by dots "
                "(spades.hearts.diamonds.clubs), empty for none, as in 'S=AK..x.'"
            )
        groups = list(zip(_PBN_SUIT_ORDER, suits))
    else:
        groups = []
        for part in filter(None, (p.strip() for p in holding.split(","))):
            if part[0] not in "SHDC":
                raise PredealError(
                    f"predeal {text!r}: {part!r} does not start with a suit letter S, H, D or C"
                )
            groups.append((Strain("CDHS".index(part[0])), part[1:]))
    cards: set[int] = set()
    spots = [0, 0, 0, 0]
    for suit, ranks in groups:
        for char in ranks.replace("-", ""):
            if char == "X":
                spots[suit] += 1
                continue
            if char not in _RANKS:
                raise PredealError(
                    f"predeal {text!r}: {char!r} is not a rank: expected 2-9, T, J, Q, K, A or x"
                )
            card = suit * 13 + _RANKS.index(char)
            if card in cards:
                raise PredealError(f"predeal {text!r} names {suit.letter}{char} twice")
            cards.add(card)
    if len(cards) + sum(spots) > 13:
        raise PredealError(
            f"predeal {text!r} gives {len(cards) + sum(spots)} cards: a hand holds 13"
        )
    return Predeal(seat, frozenset(cards), (spots[0], spots[1], spots[2], spots[3]))


@dataclass(frozen=True, slots=True)
class DealSpec:
    """Which deals are wanted: a condition (``dealer`` language) and predeals, as text.

    It is plain data: workers and the web page receive it as JSON text
    (:meth:`to_json` / :meth:`from_json`) and parse it themselves.

    >>> DealSpec.from_json(DealSpec("hcp(north) > 20", ("S=AK...",)).to_json())
    DealSpec(where='hcp(north) > 20', predeal=('S=AK...',))
    """

    where: str = ""
    predeal: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if not isinstance(self.where, str):
            raise ConditionError(f"a condition must be text, not {self.where!r}")
        predeal = (self.predeal,) if isinstance(self.predeal, str) else tuple(self.predeal)
        object.__setattr__(self, "predeal", predeal)

    def to_json(self) -> str:
        """The specification as JSON text."""
        return json.dumps({"where": self.where, "predeal": list(self.predeal)})

    @classmethod
    def from_json(cls, text: str) -> DealSpec:
        """Read :meth:`to_json`'s text."""
        data = json.loads(text)
        return cls(str(data.get("where", "")), tuple(str(p) for p in data.get("predeal", [])))

    def plan(self, predicate: Predicate | None = None) -> DealingPlan:
        """Parse and check the condition and predeals (raises ConditionError, PredealError).

        ``predicate`` is an extra test in Python (library use only: it is not data).
        """
        return DealingPlan(self, predicate)


class DealingPlan:
    """A :class:`DealSpec` parsed and checked, ready to deal (see the module docs)."""

    def __init__(self, spec: DealSpec, predicate: Predicate | None = None) -> None:
        self.spec = spec
        self.condition: Condition | None = (
            parse_condition(spec.where) if spec.where.strip() else None
        )
        fixed: dict[Seat, set[int]] = {seat: set() for seat in Seat}
        owner: dict[int, str] = {}
        extra_terms: list[Term] = []
        for text in spec.predeal:
            predeal = parse_predeal(text)
            for card in sorted(predeal.cards):
                if card in owner:
                    name = f"{'CDHS'[card // 13]}{_RANKS[card % 13]}"
                    raise PredealError(
                        f"predeal {text!r} gives {name}, already given by {owner[card]!r}"
                    )
                owner[card] = text
            fixed[predeal.seat] |= predeal.cards
            if len(fixed[predeal.seat]) + sum(predeal.spots) > 13:
                raise PredealError(
                    f"predeals give {predeal.seat.name.title()} more than 13 cards "
                    f"({len(fixed[predeal.seat])} named in {text!r} and before)"
                )
            extra_terms.extend(_spot_terms(predeal, text))
        taken = set(owner)
        for suit in range(4):
            wanted = sum(parse_predeal(text).spots[suit] for text in spec.predeal)
            left = sum(1 for card in range(suit * 13, suit * 13 + 8) if card not in taken)
            if wanted > left:
                raise PredealError(
                    f"predeals {list(spec.predeal)} ask for {wanted} small "
                    f"{Strain(suit).name.lower()} (x) but only {left} are not named"
                )
        self.fixed = {seat: np.array(sorted(fixed[seat]), dtype=np.int8) for seat in Seat}
        self.free = np.array(sorted(set(range(52)) - taken), dtype=np.int8)
        self.need = {seat: 13 - len(fixed[seat]) for seat in Seat}
        terms = list(self.condition.terms if self.condition else ()) + extra_terms
        if predicate is not None:
            terms.append(Term("<Python predicate>", frozenset(Seat), _checked(predicate)))
        self.order = _seat_order(terms)
        self.offsets: dict[Seat, int] = {}
        start = 0
        for seat in self.order:
            self.offsets[seat] = start
            start += self.need[seat]
        # Each term is tested at the first stage where every seat it names is dealt.
        self.stages: list[tuple[Seat, list[Term]]] = []
        remaining = list(terms)
        dealt: set[Seat] = set()
        for seat in self.order:
            dealt.add(seat)
            ready = [term for term in remaining if term.seats <= dealt]
            remaining = [term for term in remaining if not term.seats <= dealt]
            self.stages.append((seat, ready))
        # A term naming no seat (``1 == 2``) is tested at the first stage.
        assert not remaining


Predicate = Callable[[HandView], "npt.NDArray[np.bool_]"]
"""A Python test of many candidate deals at once: a :class:`HandView` in, booleans out."""


def _checked(predicate: Predicate) -> Callable[[HandView], npt.NDArray[np.bool_]]:
    def run(view: HandView) -> npt.NDArray[np.bool_]:
        result = np.asarray(predicate(view))
        if result.shape != (view.n,):
            raise ConditionError(
                f"the predicate returned shape {result.shape}: expected one truth value "
                f"per deal, shape ({view.n},)"
            )
        return result.astype(bool)

    return run


def _spot_terms(predeal: Predeal, text: str) -> list[Term]:
    terms = []
    for suit, wanted in enumerate(predeal.spots):
        if not wanted:
            continue
        named = sum(1 for card in predeal.cards if card // 13 == suit and card % 13 <= 7)
        table = np.where(suit == _SUIT_OF, _SPOT, 0).astype(np.int8)
        seat = predeal.seat

        def holds_spots(
            view: HandView,
            table: npt.NDArray[np.int8] = table,
            least: int = named + wanted,
            seat: Seat = seat,
        ) -> npt.NDArray[np.bool_]:
            result: npt.NDArray[np.bool_] = table[view.cards[seat]].sum(axis=1) >= least
            return result

        letter = Strain(suit).letter
        terms.append(Term(f"{wanted} x{letter}", frozenset({seat}), holds_spots))
    return terms


def _seat_order(terms: Sequence[Term]) -> list[Seat]:
    # Seats that single-seat terms test come first (most tested first), so most
    # candidates die after one hand; then the others in N, E, S, W order.
    weight = {seat: 0 for seat in Seat}
    for term in terms:
        for seat in term.seats:
            weight[seat] += 2 if len(term.seats) == 1 else 1
    return sorted(Seat, key=lambda seat: (-weight[seat], int(seat)))


def _generator(seed: int, chunk: int) -> np.random.Generator:
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed {seed!r} is not usable: expected a whole number 0 or more")
    if isinstance(chunk, bool) or not isinstance(chunk, int | np.integer) or chunk < 0:
        raise ValueError(f"chunk {chunk!r} is not usable: expected a whole number 0 or more")
    sequence = np.random.SeedSequence(int(seed), spawn_key=(int(chunk),))
    return np.random.Generator(np.random.PCG64(sequence))


def _shuffle_steps(rows: npt.NDArray[np.int8], draws: npt.NDArray[np.float64], first: int) -> None:
    """Fisher-Yates steps ``first ..`` on every row, in place, one step for all rows at a time.

    Step ``j`` swaps position ``j`` with ``j + floor(u * (m - j))``, ``u`` the row's
    float64 draw in [0, 1): uniform up to a relative bias below ``52 / 2**53``.
    (A numba kernel for this loop measured no faster overall: docs/performance.md.)
    """
    count, width = rows.shape
    flat = rows.reshape(-1)
    base = np.arange(count, dtype=np.intp) * width
    for offset in range(draws.shape[1]):
        step = first + offset
        here = base + step
        there = here + (draws[:, offset] * (width - step)).astype(np.intp)
        held = flat[here]
        flat[here] = flat[there]
        flat[there] = held


def _deal_batch(plan: DealingPlan, rng: np.random.Generator) -> npt.NDArray[np.int8]:
    free = plan.free.size
    rows = np.broadcast_to(plan.free, (BATCH, free)).copy()
    # Fisher-Yates over all rows at once, seat by seat: the steps that fix a seat's
    # cards draw their random numbers (one float64 per step and row) only for the
    # rows still alive, so a candidate that fails is never completed.
    done = 0
    for seat, terms in plan.stages:
        if rows.shape[0] == 0:
            break
        last = min(plan.offsets[seat] + plan.need[seat], free - 1)
        if last > done:
            _shuffle_steps(rows, rng.random((rows.shape[0], last - done)), done)
            done = last
        if terms:
            view = HandView(_SeatCards(plan, rows), rows.shape[0])
            alive = terms[0].evaluate(view)
            for term in terms[1:]:
                if not alive.any():
                    break
                alive &= term.evaluate(view)
            rows = rows[alive]
    if rows.shape[0] and done < free - 1:
        _shuffle_steps(rows, rng.random((rows.shape[0], free - 1 - done)), done)
    owners = np.empty((rows.shape[0], 52), dtype=np.int8)
    for seat in Seat:
        owners[:, plan.fixed[seat]] = seat
        start = plan.offsets[seat]
        columns = rows[:, start : start + plan.need[seat]].astype(np.intp)
        np.put_along_axis(owners, columns, np.int8(seat), axis=1)
    return owners


class _SeatCards(dict[Seat, npt.NDArray[np.int8]]):
    """Each seat's 13 cards (predealt + dealt) for the live rows, built on first use."""

    def __init__(self, plan: DealingPlan, rows: npt.NDArray[np.int8]) -> None:
        super().__init__()
        self.plan = plan
        self.rows = rows

    def __missing__(self, seat: Seat) -> npt.NDArray[np.int8]:
        start = self.plan.offsets[seat]
        dealt = self.rows[:, start : start + self.plan.need[seat]]
        fixed = self.plan.fixed[seat]
        cards = (
            np.concatenate([np.broadcast_to(fixed, (dealt.shape[0], fixed.size)), dealt], axis=1)
            if fixed.size
            else dealt
        )
        self[seat] = cards
        return cards


def deal_chunk(
    spec: DealSpec | DealingPlan,
    seed: int,
    chunk: int,
    size: int,
    *,
    max_candidates: int = MAX_CANDIDATES_PER_CHUNK,
) -> tuple[npt.NDArray[np.int8], int]:
    """The first ``size`` deals of chunk ``chunk`` for ``seed``, and the candidates tried.

    Deals are owner arrays shaped (size, 52) (the seat of each card, as
    :meth:`Deal.to_array`). Raises :class:`ConditionError` when fewer than ``size``
    candidates in ``max_candidates`` pass the condition.
    """
    plan = spec if isinstance(spec, DealingPlan) else spec.plan()
    rng = _generator(seed, chunk)
    found: list[npt.NDArray[np.int8]] = []
    have = tried = 0
    while have < size:
        if tried >= max_candidates:
            raise ConditionError(
                f"condition {plan.spec.where!r} with predeal {list(plan.spec.predeal)} is too "
                f"rare: {have} of {tried:,} random deals passed (about 1 in "
                f"{tried // max(have, 1):,}); loosen it or predeal more cards"
            )
        batch = _deal_batch(plan, rng)
        tried += BATCH
        if batch.shape[0]:
            found.append(batch)
            have += batch.shape[0]
    owners = np.concatenate(found) if found else np.empty((0, 52), dtype=np.int8)
    return owners[:size], tried


def iter_deal_chunks(
    count: int,
    *,
    seed: int,
    where: str | Predicate = "",
    predeal: Sequence[str] | str = (),
    chunk_size: int = DEALS_PER_CHUNK,
) -> Iterator[npt.NDArray[np.int8]]:
    """Owner arrays of ``count`` deals, chunk after chunk (memory bounded by a chunk).

    Arguments as :func:`deal_many`. ``deal``, ``simulate`` and :func:`deal_many` use
    the default ``chunk_size``; another size gives other deals after the first chunk.
    """
    plan = _plan(where, predeal)
    _check_count(count)
    for chunk, start in enumerate(range(0, count, chunk_size)):
        yield deal_chunk(plan, seed, chunk, min(chunk_size, count - start))[0]


def _plan(where: str | Predicate, predeal: Sequence[str] | str) -> DealingPlan:
    predeals = tuple([predeal] if isinstance(predeal, str) else predeal)
    if callable(where):
        return DealSpec("", predeals).plan(where)
    return DealSpec(where, predeals).plan()


def evaluate(where: str | Predicate, owners: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.bool_]:
    """Whether each deal (owner arrays shaped (n, 52)) satisfies the condition ``where``."""
    plan = _plan(where, ())
    owners = np.asarray(owners)
    cards = {
        seat: np.argsort(owners != seat, axis=1, kind="stable")[:, :13].astype(np.int8)
        for seat in Seat
    }
    view = HandView(cards, owners.shape[0])
    result = np.ones(owners.shape[0], dtype=bool)
    for _, terms in plan.stages:
        for term in terms:
            result &= term.evaluate(view)
    return result


def deal_many(
    count: int,
    *,
    seed: int,
    where: str | Predicate = "",
    predeal: Sequence[str] | str = (),
) -> list[Deal]:
    """``count`` deals satisfying the condition ``where`` after the predeals.

    The same arguments give the same deals as ``bridgescore deal`` and as
    ``bridgescore simulate``. ``where`` is a ``dealer`` condition, or (in Python
    only) a function of a :class:`HandView` returning one boolean per deal;
    ``predeal`` holds texts such as ``"N=AKQ2.KQ3.A54.KJ3"``.

    >>> [d.to_pbn()[:2] for d in deal_many(2, seed=1, where="hcp(north) >= 20")]
    ['N:', 'N:']
    >>> all(d[Seat.NORTH].hcp >= 20 for d in deal_many(5, seed=1, where="hcp(north) >= 20"))
    True
    """
    deals: list[Deal] = []
    for owners in iter_deal_chunks(count, seed=seed, where=where, predeal=predeal):
        deals.extend(Deal.from_pbn(text) for text in pbn_strings(owners))
    return deals


def _check_count(count: int) -> None:
    if isinstance(count, bool) or not isinstance(count, int | np.integer) or count < 0:
        raise ValueError(f"count {count!r} is not valid: expected a whole number 0 or more")


# -- PBN text for many deals at once --------------------------------------------------

# Card c (C2=0 .. SA=51) shown as its rank character; seat s's block starts at 2 + 17 s.
_RANK_BYTES = np.frombuffer(("".join(_RANKS[c % 13] for c in range(52))).encode(), np.uint8)
# Within a seat, cards go spades first and high to low: descending card number,
# with one dot before each suit below spades.
_DOTS_BEFORE = (3 - _SUIT_OF).astype(np.int16)


def pbn_strings(owners: npt.NDArray[np.integer[Any]]) -> list[str]:
    """PBN ``Deal`` strings (``N:...``) of owner arrays shaped (n, 52), built in bulk.

    Equal to ``Deal.from_array(row).to_pbn()`` for each row, without building Deals.
    """
    owners = np.asarray(owners)
    n = owners.shape[0]
    if n == 0:
        return []
    text = np.full((n, 69), ord("."), dtype=np.uint8)
    text[:, 0] = ord("N")
    text[:, 1] = ord(":")
    text[:, [18, 35, 52]] = ord(" ")
    # Cards of the same seat with a higher number come before (reverse cumulative count).
    held = owners[:, :, None] == np.arange(4, dtype=owners.dtype)  # (n, 52, 4)
    higher = np.cumsum(held[:, ::-1, :], axis=1, dtype=np.int16)[:, ::-1, :]
    before = np.take_along_axis(higher, owners[:, :, None].astype(np.intp), axis=2)[:, :, 0] - 1
    position = 2 + 17 * owners.astype(np.int16) + before + _DOTS_BEFORE
    np.put_along_axis(text, position.astype(np.intp), np.broadcast_to(_RANK_BYTES, (n, 52)), axis=1)
    lines: list[str] = text.view("S69")[:, 0].astype(str).tolist()
    return lines
