"""Tournament-grade dealing: a secret seed, an unbiased index per board, a commitment.

The design follows the published design of BigDeal (van Staveren, 2000): a
deal is chosen by a number below the number of deals, and that number comes
from a keyed cryptographic hash of a secret, so that nobody without the secret
can predict the next board and nobody with it can steer one.

- The secret :class:`DealSeed` comes from the operating system's cryptographic
  source (:func:`secrets.token_bytes`), 12 bytes (96 bits) for every board of
  the set and never fewer than 32 bytes, so each deal of the set carries at
  least 96 bits of entropy.
- Board ``b`` draws 96-bit numbers ``HMAC-SHA256(seed, "board b try t")`` for
  ``t = 0, 1, ...`` and keeps the first one below :data:`DEAL_COUNT` (about 68%
  are): rejection, never a modulo, so every deal is exactly equally likely.
- The kept number is decoded into hands by the combinatorial number system
  (:func:`hands_from_index`), a bijection between ``range(DEAL_COUNT)`` and deals.
- :func:`commitment` is a SHA-256 hash of the seed that can be published before
  play; revealing the seed afterwards lets anyone check both the commitment and
  every board.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from math import comb, factorial

from bridgescore.deal import Card, Deal, Hand
from bridgescore.errors import InvalidArgumentError, NotationError, SeedError
from bridgescore.validate import whole_number_arg

__all__ = [
    "DEAL_COUNT",
    "DRAW_BITS",
    "DealSeed",
    "SeedError",
    "board_deal",
    "commitment",
    "commitment_text",
    "deal_count",
    "draw_index",
    "hands_from_index",
    "index_from_hands",
    "read_commitment",
]


def deal_count(hands: int = 4, size: int = 13) -> int:
    """How many ways ``hands * size`` distinct cards can be dealt into ``hands``
    hands of ``size`` cards: ``(hands*size)! / (size!)**hands``."""
    return factorial(hands * size) // int(factorial(size) ** hands)


DEAL_COUNT = deal_count()
"""The number of bridge deals, C(52,13)·C(39,13)·C(26,13), about 5.36e28."""

DRAW_BITS = 96
"""Bits of each random draw: the smallest whole number of bytes above DEAL_COUNT."""

_MIN_SEED_BYTES = 32
_SEED_BYTES_PER_BOARD = DRAW_BITS // 8
_COMMIT_PREFIX = b"bridgescore deal commitment\n"


def _unrank_subset(rank: int, items: list[int], size: int) -> list[int]:
    """The ``rank``-th ``size``-subset of ``items`` in lexicographic order of positions."""
    chosen: list[int] = []
    for position, item in enumerate(items):
        if size == 0:
            break
        # Subsets that take this item: choose the rest from the items after it.
        with_item = comb(len(items) - position - 1, size - 1)
        if rank < with_item:
            chosen.append(item)
            size -= 1
        else:
            rank -= with_item
    return chosen


def _rank_subset(subset: set[int], items: list[int], size: int) -> int:
    rank = 0
    for position, item in enumerate(items):
        if size == 0:
            break
        if item in subset:
            size -= 1
        else:
            rank += comb(len(items) - position - 1, size - 1)
    return rank


def hands_from_index(index: int, hands: int = 4, size: int = 13) -> tuple[tuple[int, ...], ...]:
    """The deal numbered ``index`` (0 <= index < ``deal_count(hands, size)``) as
    ``hands`` tuples of card numbers (0 .. hands*size - 1), first hand first.

    The first hand is the ``index // rest``-th subset of all cards, where
    ``rest`` counts the ways to deal the remaining cards, and so on: a
    bijection, so a uniform index gives a uniform deal.

    >>> hands_from_index(0, hands=2, size=2)
    ((0, 1), (2, 3))
    """
    total = deal_count(hands, size)
    index = whole_number_arg(index, "deal number", 0, total - 1)
    remaining = list(range(hands * size))
    result: list[tuple[int, ...]] = []
    for dealt in range(hands):
        rest = deal_count(hands - dealt - 1, size) if dealt < hands - 1 else 1
        rank, index = divmod(index, rest)
        hand = _unrank_subset(rank, remaining, size)
        result.append(tuple(hand))
        taken = set(hand)
        remaining = [card for card in remaining if card not in taken]
    return tuple(result)


def index_from_hands(dealt: tuple[tuple[int, ...], ...], size: int = 13) -> int:
    """The inverse of :func:`hands_from_index`."""
    hands = len(dealt)
    remaining = list(range(hands * size))
    index = 0
    for number, hand in enumerate(dealt):
        rest = deal_count(hands - number - 1, size) if number < hands - 1 else 1
        taken = set(hand)
        index += _rank_subset(taken, remaining, size) * rest
        remaining = [card for card in remaining if card not in taken]
    return index


def draw_index(draws: Iterator[int], limit: int) -> int:
    """The first draw below ``limit`` (rejection sampling: never a modulo).

    When the draws are uniform on ``[0, 2**bits)``, the result is uniform on
    ``[0, limit)``: each value below the limit is kept with the same chance.
    """
    for draw in draws:
        if draw < limit:
            return draw
    raise InvalidArgumentError("the random stream ended before a draw fell below the limit")


def _draws(secret: bytes, board: int) -> Iterator[int]:
    attempt = 0
    while True:
        message = f"bridgescore board {board} try {attempt}".encode()
        digest = hmac.new(secret, message, hashlib.sha256).digest()
        yield int.from_bytes(digest[: DRAW_BITS // 8], "big")
        attempt += 1


@dataclass(frozen=True, slots=True)
class DealSeed:
    """The secret a board set is dealt from.

    ``test_number`` is set when the seed was derived from a small integer
    (``--seed N``): such a set is guessable and only fit for tests and examples.
    """

    secret: bytes
    test_number: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.secret, bytes) or len(self.secret) < 16:
            raise SeedError(
                f"a deal seed needs at least 16 bytes of secret, got {len(self.secret)}"
            )

    @classmethod
    def fresh(cls, boards: int = 1) -> DealSeed:
        """A new secret from the operating system's cryptographic source:
        96 bits per board, never fewer than 256 bits."""
        size = max(_MIN_SEED_BYTES, _SEED_BYTES_PER_BOARD * max(boards, 1))
        return cls(secrets.token_bytes(size))

    @classmethod
    def from_test_number(cls, number: int) -> DealSeed:
        """A guessable seed from a small integer, for tests and examples only."""
        whole_number_arg(number, "test seed", 0, error=SeedError)
        secret = hashlib.sha256(f"bridgescore test seed {number}".encode()).digest()
        return cls(secret, test_number=number)

    @property
    def bits(self) -> int:
        """Entropy of the secret in bits (when it came from :meth:`fresh`)."""
        return 0 if self.test_number is not None else 8 * len(self.secret)

    def to_text(self) -> str:
        """The seed file's text (keep it secret until the boards have been played)."""
        lines = [
            "# bridgescore deal seed: keep it SECRET until every board has been played.",
            "# Anyone holding it can deal the whole set again (bridgescore deal --seed-file).",
        ]
        if self.test_number is not None:
            lines.append(f"# derived from --seed {self.test_number}: guessable, tests only")
            lines.append(f"test-seed {self.test_number}")
        lines.append(f"seed {self.secret.hex()}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str) -> DealSeed:
        """Read a seed file written by :meth:`to_text`."""
        secret: bytes | None = None
        test_number: int | None = None
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            words = line.split()
            if len(words) == 2 and words[0] == "seed":
                try:
                    secret = bytes.fromhex(words[1])
                except ValueError:
                    raise SeedError(
                        f"line {number}: {line!r}: the seed is not hexadecimal"
                    ) from None
            elif len(words) == 2 and words[0] == "test-seed" and words[1].isdigit():
                test_number = int(words[1])
            else:
                raise SeedError(
                    f"line {number}: {line!r} is not a seed line: expected 'seed <hex digits>'"
                )
        if secret is None:
            raise SeedError("no 'seed <hex digits>' line: this is not a bridgescore seed file")
        seed = cls(secret, test_number)
        if test_number is not None and seed != cls.from_test_number(test_number):
            raise SeedError(f"the seed does not match its test-seed {test_number} line")
        return seed


def board_deal(seed: DealSeed, board: int) -> Deal:
    """The deal of board number ``board`` in the set dealt from ``seed``.

    Each board is independent of the others, so board 17 can be dealt again
    alone, and a set of boards 1-36 holds the same deals as 1-16 and 17-36.
    """
    whole_number_arg(board, "board number", 1, error=NotationError)
    index = draw_index(_draws(seed.secret, board), DEAL_COUNT)
    north, east, south, west = hands_from_index(index)
    return Deal(
        tuple(  # type: ignore[arg-type]
            Hand(frozenset(Card.from_index(card) for card in hand))
            for hand in (north, east, south, west)
        )
    )


def commitment(seed: DealSeed) -> str:
    """The SHA-256 hash (hex) of the seed, to publish before play."""
    return hashlib.sha256(_COMMIT_PREFIX + seed.secret).hexdigest()


def commitment_text(seed: DealSeed) -> str:
    """The commitment file's text."""
    return (
        "# bridgescore deal commitment: SHA-256 of the secret seed, published before play.\n"
        "# Check it after play with: bridgescore deal --verify SET --seed-file F --commit THIS\n"
        f"sha256 {commitment(seed)}\n"
    )


def read_commitment(text: str) -> str:
    """The hash in a commitment file written by :func:`commitment_text`."""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        words = line.split()
        if (
            len(words) == 2
            and words[0] == "sha256"
            and len(words[1]) == 64
            and all(c in "0123456789abcdef" for c in words[1].lower())
        ):
            return words[1].lower()
        raise SeedError(
            f"line {number}: {line!r} is not a commitment: expected 'sha256 <64 hex digits>'"
        )
    raise SeedError("no 'sha256 <64 hex digits>' line: this is not a bridgescore commitment")
