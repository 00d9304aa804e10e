"""Constrained dealing: predeal, a ``dealer`` condition, bulk numpy dealing in chunks.

A :class:`DealSpec` (condition text and predeals, all plain text) says which deals
are wanted; :func:`deal_chunk` deals chunk ``i`` of them for a seed, and
:func:`deal_range` any run of them by deal number: the one dealing function of
the package. :func:`deal_many` / :func:`iter_deal_chunks`, ``bridgescore deal``,
simulations, par studies, the web page's random deal and the demo all deal
through it, so a seed gives the same deals in each of them, whatever their own
chunk size or number of workers.

How a chunk is dealt, and why it is uniform and reproducible:

- Chunk ``i`` of seed ``s`` draws from PCG64 seeded with child ``i`` of
  ``numpy.random.SeedSequence(s)`` (as par studies do), so any chunk can be dealt
  anywhere, alone, and gives the same deals in ``deal``, ``simulate``, the library
  and on a Dask worker.
- Seats are dealt in a fixed order, the seats the condition tests alone first, and
  the condition's top-level ``&&`` terms are tested as soon as the seats they name
  are dealt (early rejection: a candidate that fails is never completed).
- The first seat's hand is drawn for every candidate, :data:`BATCH` at a time, by
  :class:`~bridgescore.dealer.draw.HandSampler`: one 64-bit draw unranked into one
  of the ways to complete its predeal, each equally likely. Terms on that seat's
  suit lengths only are decided per shape, and only the shapes they allow are drawn.
- The other seats are dealt for the candidates that passed, by Fisher-Yates steps
  over the cards left (one float64 draw a step), the ``j``-th seat from child
  ``j - 2`` of the chunk's ``SeedSequence``, a fixed number of draws per deal: the
  deals do not depend on how candidates are grouped into numpy calls. So each deal
  is a uniform random completion of the predeal, and keeping those that pass the
  condition gives deals uniform among all deals that satisfy it.
- The batch size does not depend on how many deals are asked for, so the first
  ``k`` deals of a chunk are the same whatever its length: a shorter run is a
  prefix of a longer one.
- Deal ``n`` (counted from 0) of a seed is deal ``n % DEALS_PER_CHUNK`` of chunk
  ``n // DEALS_PER_CHUNK``: a fixed numbering, so a workflow that cuts its work
  into pieces of another size (a par study's chunks) deals the same deals.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from bridgescore.core import Seat, Strain
from bridgescore.dealer.condition import Condition, HandView, Term, parse_condition
from bridgescore.dealer.draw import (
    HandSampler,
    MaskHandView,
    ShapeProbe,
    SuitMasks,
    cards_masks,
    cards_of_bits,
    hand_masks,
    mask_bits,
    owner_hands,
    shuffle_steps,
    suit_masks,
)
from bridgescore.dealer.pbn import pbn_lines, pbn_strings
from bridgescore.dealer.predeal import RANKS, Predeal, parse_predeals
from bridgescore.errors import ConditionError, PredealError
from bridgescore.validate import whole_number_arg

if TYPE_CHECKING:
    from bridgescore.deal import Deal

__all__ = [
    "BATCH",
    "DEALS_PER_CHUNK",
    "MAX_CANDIDATES_PER_CHUNK",
    "DealSpec",
    "Deals",
    "deal_chunk",
    "deal_many",
    "deal_range",
    "evaluate",
    "fresh_seed",
    "iter_deal_chunks",
    "pbn_lines",
    "pbn_strings",
]

DEALS_PER_CHUNK = 10_000
"""Deals per chunk: chunk ``i`` holds deals ``10000 i + 1`` to ``10000 (i + 1)`` of a run."""
BATCH = 16_384
"""Candidate deals drawn per numpy call; fixed, so chunks are prefix-stable."""
GROUP = 10_000
"""Candidates whose first seat passed are completed this many at a time (at most)."""
MAX_CANDIDATES_PER_CHUNK = 20_000_000
"""A chunk gives up (with a ConditionError) after this many candidates."""

_SPOT = (np.arange(52) % 13 <= 7).astype(np.int8)  # ranks 2..9
_SUIT_OF = np.arange(52) // 13
_NO_DEALS = np.empty((0, 52), dtype=np.int8)


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
        # A whole deal is four predeals, each named by its own seat's text.
        given = [
            (text if len(parsed) == 1 else str(predeal), predeal)
            for text in spec.predeal
            for parsed in [parse_predeals(text)]
            for predeal in parsed
        ]
        for text, predeal in given:
            for card in sorted(predeal.cards):
                if card in owner:
                    name = f"{'CDHS'[card // 13]}{RANKS[card % 13]}"
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
            wanted = sum(predeal.spots[suit] for _, predeal in given)
            left = sum(1 for card in range(suit * 13, suit * 13 + 8) if card not in taken)
            if wanted > left:
                raise PredealError(
                    f"predeals {list(spec.predeal)} ask for {wanted} small "
                    f"{Strain(suit).name.lower()} (x) but only {left} are not named"
                )
        self.fixed = {seat: np.array(sorted(fixed[seat]), dtype=np.int8) for seat in Seat}
        self.need = {seat: 13 - len(fixed[seat]) for seat in Seat}
        terms = list(self.condition.terms if self.condition else ()) + extra_terms
        if predicate is not None:
            terms.append(Term("<Python predicate>", frozenset(Seat), _checked(predicate)))
        self.order = _seat_order(terms)
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
        self.fixed_hands = {
            seat: np.array(
                [sum(1 << c % 13 for c in fixed[seat] if c // 13 == suit) for suit in range(4)],
                dtype=np.uint16,
            )
            for seat in Seat
        }
        taken_mask = sum(1 << card for card in taken)
        self.taken_bits = np.array([taken_mask >> card & 1 for card in range(52)], dtype=bool)
        first, first_terms = self.stages[0]
        free = [(~taken_mask >> 13 * suit) & 0x1FFF for suit in range(4)]
        sampler = HandSampler(free, self.fixed_hands[first].tolist(), self.need[first])
        # Terms on the first seat's suit lengths alone decide by shape: the sampler
        # draws only hands of the shapes they allow, and the other terms are tested.
        allowed = np.ones(len(sampler.shapes), dtype=bool)
        self.first_terms: list[Term] = []
        for term in first_terms:
            probe = ShapeProbe(first, sampler.examples())
            passed = term.evaluate(probe)
            if probe.looked_at_cards:
                self.first_terms.append(term)
            else:
                allowed &= passed
        self.sampler = sampler if allowed.all() else sampler.restricted(allowed.tolist())
        self.impossible = (
            ""
            if self.sampler.total
            else f"condition {spec.where!r} with predeal {list(spec.predeal)} cannot hold: no "
            f"hand of {first.name.title()} has a shape that satisfies "
            + repr(" && ".join(term.text for term in first_terms))
        )


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
        strain = Strain(suit)

        def holds_spots(
            view: HandView,
            table: npt.NDArray[np.int8] = table,
            least: int = named + wanted,
            seat: Seat = predeal.seat,
            suit: Strain = strain,
        ) -> npt.NDArray[np.bool_]:
            if isinstance(view, MaskHandView):
                return view.spots(seat, suit) >= least
            result: npt.NDArray[np.bool_] = table[view.cards[seat]].sum(axis=1) >= least
            return result

        terms.append(Term(f"{wanted} x{strain.letter}", frozenset({predeal.seat}), holds_spots))
    return terms


def _seat_order(terms: Sequence[Term]) -> list[Seat]:
    # Seats that single-seat terms test come first (most tested first), so most
    # candidates die after one hand; then the others in N, E, S, W order.
    weight = {seat: 0 for seat in Seat}
    for term in terms:
        for seat in term.seats:
            weight[seat] += 2 if len(term.seats) == 1 else 1
    return sorted(Seat, key=lambda seat: (-weight[seat], int(seat)))


def _streams(seed: int, chunk: int) -> list[np.random.Generator]:
    """Chunk ``chunk``'s random streams: candidates, then one per later seat.

    The candidates come from child ``chunk`` of ``SeedSequence(seed)``; the seat
    dealt ``j``-th (``j`` = 1, 2, 3) draws from that child's own child ``j - 1``.
    Each later seat uses a fixed number of draws per deal that reaches it, so the
    deals do not depend on how candidates are grouped into numpy calls.
    """
    seed = whole_number_arg(seed, "seed", 0, numpy=True)
    chunk = whole_number_arg(chunk, "chunk", 0, numpy=True)
    parent = np.random.SeedSequence(seed, spawn_key=(chunk,))
    return [np.random.Generator(np.random.PCG64(s)) for s in (parent, *parent.spawn(3))]


def _test(terms: list[Term], view: HandView) -> npt.NDArray[np.bool_]:
    alive = terms[0].evaluate(view)
    for term in terms[1:]:
        if not alive.any():
            break
        alive &= term.evaluate(view)
    return alive


def _candidates(plan: DealingPlan, rng: np.random.Generator) -> tuple[dict[Seat, SuitMasks], int]:
    """One batch of candidates for the first seat; those that pass its terms, and how many."""
    seat, terms = plan.order[0], plan.first_terms
    hands = plan.sampler.draw(rng.bit_generator.random_raw(BATCH))
    tried = hands.shape[1]
    if terms:
        hands = hands.compress(_test(terms, MaskHandView({seat: hands}, tried)), axis=1)
    return {seat: hands}, tried


def _complete(
    plan: DealingPlan, first: dict[Seat, SuitMasks], streams: list[np.random.Generator]
) -> npt.NDArray[np.int8]:
    """Deal the other seats for candidates whose first seat passed: owner arrays (n, 52)
    of the deals that pass the rest of the condition."""
    first_seat = plan.order[0]
    hands = dict(first)
    held = mask_bits(hand_masks(first[first_seat]))
    left = 52 - 13 - sum(len(plan.fixed[seat]) for seat in plan.order[1:])
    rest = cards_of_bits(~(held | plan.taken_bits), left)
    # Suit masks of a later seat are only needed if a term tests it.
    tested = [any(terms for _, terms in plan.stages[number:]) for number in range(5)]
    start = 0
    for number, (seat, terms) in enumerate(plan.stages[1:], start=1):
        n = rest.shape[0]
        if n == 0:
            break
        need = plan.need[seat]
        # The last seat takes the cards left as they lie: no draws.
        if start + need != left:
            shuffle_steps(rest, streams[number].random((n, need)), start)
        if tested[number]:
            dealt = cards_masks(rest[:, start : start + need]) if need else np.zeros(n, np.uint64)
            hands[seat] = suit_masks(dealt) | plan.fixed_hands[seat][:, None]
        start += need
        if terms:
            alive = _test(terms, MaskHandView(hands, n))
            hands = {each: hand[:, alive] for each, hand in hands.items()}
            rest = rest[alive]
            held = held[alive]
    owners = held.astype(np.int8) * np.int8(first_seat)
    # rest[:, j] goes to the seat dealt from position j: one scatter for all of them.
    seats = np.repeat(
        np.array(plan.order[1:], dtype=np.int8), [plan.need[s] for s in plan.order[1:]]
    )
    places = rest.astype(np.intp) + (np.arange(rest.shape[0], dtype=np.intp) * 52)[:, None]
    owners.reshape(-1)[places] = seats
    for seat in plan.order[1:]:
        owners[:, plan.fixed[seat]] = seat
    return owners


@lru_cache(maxsize=16)
def _spec_plan(spec: DealSpec) -> DealingPlan:
    # Workers deal chunk after chunk of one specification: its tables are built once.
    return spec.plan()


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
    plan = spec if isinstance(spec, DealingPlan) else _spec_plan(spec)
    streams = _streams(seed, chunk)
    if plan.impossible and size:
        raise ConditionError(plan.impossible)
    found: list[npt.NDArray[np.int8]] = []
    have = drawn = tried = 0
    while have < size:
        # Candidates whose first seat passes are gathered over several batches and
        # the other seats dealt for all of them at once (fewer, larger numpy calls).
        passed: list[dict[Seat, SuitMasks]] = []
        waiting = 0
        while waiting < min(size - have, GROUP):
            if tried >= max_candidates:
                raise ConditionError(
                    f"condition {plan.spec.where!r} with predeal {list(plan.spec.predeal)} is "
                    f"too rare: {have} of {tried:,} random deals passed (about 1 in "
                    f"{tried // max(have, 1):,}); loosen it or predeal more cards"
                )
            hands, count = _candidates(plan, streams[0])
            # A draw among the allowed shapes only stands for possible / total random deals.
            drawn += count
            tried = drawn * plan.sampler.possible // plan.sampler.total
            passed.append(hands)
            waiting += next(iter(hands.values())).shape[1]
        seat = plan.order[0]
        first = {seat: np.concatenate([hands[seat] for hands in passed], axis=1)}
        deals = _complete(plan, first, streams)
        found.append(deals)
        have += deals.shape[0]
    owners = np.concatenate(found) if found else np.empty((0, 52), dtype=np.int8)
    return owners[:size], tried


def deal_range(
    spec: DealSpec | DealingPlan, seed: int, first: int, count: int
) -> npt.NDArray[np.int8]:
    """Deals ``first`` to ``first + count - 1`` (counted from 0) of ``seed``: owner
    arrays shaped (count, 52).

    Deal ``n`` is deal ``n % DEALS_PER_CHUNK`` of :func:`deal_chunk`'s chunk
    ``n // DEALS_PER_CHUNK``, so the deals do not depend on how a caller cuts its
    work. A run starting inside a chunk deals that chunk's earlier deals too (a
    chunk is a prefix-stable stream) and drops them: for unconditioned deals that
    costs well under a second per chunk.

    >>> spec = DealSpec()
    >>> bool((deal_range(spec, 5, 3, 4) == deal_chunk(spec, 5, 0, 7)[0][3:]).all())
    True
    """
    plan = spec if isinstance(spec, DealingPlan) else _spec_plan(spec)
    first = whole_number_arg(first, "first deal", 0, numpy=True)
    count = whole_number_arg(count, "count", 0, numpy=True)
    parts: list[npt.NDArray[np.int8]] = []
    end = int(first) + int(count)
    number = int(first)
    while number < end:
        chunk, offset = divmod(number, DEALS_PER_CHUNK)
        stop = min(DEALS_PER_CHUNK, offset + end - number)
        parts.append(deal_chunk(plan, seed, chunk, stop)[0][offset:])
        number += stop - offset
    if len(parts) == 1:
        return parts[0]  # the common case (within one chunk): no copy
    return np.concatenate(parts) if parts else np.empty((0, 52), dtype=np.int8)


def iter_deal_chunks(
    count: int,
    *,
    seed: int,
    where: str | Predicate = "",
    predeal: Sequence[str] | str = (),
    chunk_size: int = DEALS_PER_CHUNK,
) -> Iterator[npt.NDArray[np.int8]]:
    """Owner arrays of ``count`` deals, ``chunk_size`` at a time (memory bounded by a chunk).

    Arguments as :func:`deal_many`. The deals are :func:`deal_range`'s, the same
    whatever ``chunk_size``: it only sets how many come at a time.
    """
    plan = _plan(where, predeal)
    count = whole_number_arg(count, "count", 0, numpy=True)
    chunk_size = whole_number_arg(chunk_size, "chunk_size", 1, numpy=True)
    for start in range(0, count, chunk_size):
        yield deal_range(plan, seed, start, min(chunk_size, count - start))


def _plan(where: str | Predicate, predeal: Sequence[str] | str) -> DealingPlan:
    predeals = tuple([predeal] if isinstance(predeal, str) else predeal)
    if callable(where):
        return DealSpec("", predeals).plan(where)
    return DealSpec(where, predeals).plan()


def evaluate(where: str | Predicate, owners: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.bool_]:
    """Whether each deal (owner arrays shaped (n, 52)) satisfies the condition ``where``."""
    plan = _plan(where, ())
    owners = np.asarray(owners)
    # The view the dealer itself tests candidates with (suit masks and table look-ups).
    view = MaskHandView({seat: owner_hands(owners, seat) for seat in Seat}, owners.shape[0])
    result = np.ones(owners.shape[0], dtype=bool)
    for _, terms in plan.stages:
        for term in terms:
            result &= term.evaluate(view)
    return result


class Deals(list["Deal"]):
    """The deals :func:`deal_many` returns: a list, which also knows its ``seed``.

    Passing ``seed=deals.seed`` (with the same ``where`` and ``predeal``) deals
    the same deals again, also when :func:`deal_many` picked the seed itself.
    Slices and ``list.copy()`` are plain lists.
    """

    __slots__ = ("seed",)

    def __init__(self, deals: Iterable[Deal] = (), *, seed: int) -> None:
        super().__init__(deals)
        self.seed = seed


def fresh_seed() -> int:
    """A new seed from the operating system's entropy (as ``bridgescore deal`` picks one).

    64 bits, so two runs that each pick a seed do not share one in practice.
    """
    return int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0])


def deal_many(
    count: int,
    *,
    seed: int | None = None,
    where: str | Predicate = "",
    predeal: Sequence[str] | str = (),
) -> Deals:
    """``count`` deals satisfying the condition ``where`` after the predeals.

    The same arguments give the same deals as ``bridgescore deal`` and as
    ``bridgescore simulate``. ``where`` is a ``dealer`` condition, or (in Python
    only) a function of a :class:`HandView` returning one boolean per deal;
    ``predeal`` holds texts such as ``"N=AKQ2.KQ3.A54.KJ3"``.

    Without ``seed``, a fresh one is picked (:func:`fresh_seed`), as the command
    does; either way the result (a list, :class:`Deals`) carries it as ``.seed``,
    so ``deal_many(count, seed=deals.seed, ...)`` deals the same deals again.

    >>> [d.to_pbn()[:2] for d in deal_many(2, seed=1, where="hcp(north) >= 20")]
    ['N:', 'N:']
    >>> all(d[Seat.NORTH].hcp >= 20 for d in deal_many(5, seed=1, where="hcp(north) >= 20"))
    True
    >>> deals = deal_many(3)
    >>> deal_many(3, seed=deals.seed) == deals
    True
    """
    from bridgescore.deal import deals_from_array  # only here: `deal` makes no Deal values

    if seed is None:
        seed = fresh_seed()
    # All made in one go: the cycle collector, paused meanwhile, runs once after.
    chunks = [_NO_DEALS, *iter_deal_chunks(count, seed=seed, where=where, predeal=predeal)]
    return Deals(deals_from_array(np.concatenate(chunks)), seed=seed)
