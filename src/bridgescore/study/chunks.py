"""Chunks: the unit of work and of resume of a par study.

A study of ``deals`` deals with chunk size ``k`` is chunks 0, 1, ... of ``k``
deals each (the last may be shorter). Chunk ``i`` holds deals ``i k`` to
``i k + k - 1`` of the seed, dealt by the package's one dealing function
(:func:`bridgescore.dealer.dealing.deal_range`: deal ``n`` comes from child
``n // 10000`` of ``numpy.random.SeedSequence(s)``), so any chunk can be
recomputed anywhere, alone, extending a study never changes earlier chunks, and
a study seeded ``s`` holds the deals of ``deal_many(n, seed=s)`` and of
``bridgescore deal --seed s`` whatever its chunk size.
"""

from __future__ import annotations

from dataclasses import dataclass

from bridgescore.deal import Deal
from bridgescore.dealer.dealing import DealSpec, deal_range, pbn_strings
from bridgescore.errors import StudyError
from bridgescore.validate import is_whole_number

__all__ = ["MAX_CHUNK_SIZE", "Chunk", "check_seed", "chunk_deals", "plan_chunks"]

# Shards index deals within a chunk as uint32 and DDS work is split per chunk;
# beyond this a single chunk would run for hours and lose too much on a crash.
MAX_CHUNK_SIZE = 1 << 20


@dataclass(frozen=True, slots=True)
class Chunk:
    """Chunk ``id`` of a study: its first deal's number in the study and its deal count.

    >>> Chunk(2, 256).first(256)
    512
    """

    id: int
    deals: int

    def first(self, chunk_size: int) -> int:
        """The study-wide number of this chunk's first deal."""
        return self.id * chunk_size


def check_seed(seed: int) -> None:
    """Refuse a seed a study cannot use (raises :class:`StudyError`)."""
    if not is_whole_number(seed, 0):
        raise StudyError(f"seed {seed!r} is not usable: expected a whole number 0 or more")


def _check_chunk_size(chunk_size: int) -> None:
    if not is_whole_number(chunk_size, 1, MAX_CHUNK_SIZE):
        raise StudyError(
            f"chunk size {chunk_size!r} is not usable: expected 1 to {MAX_CHUNK_SIZE} deals"
        )


def plan_chunks(deals: int, chunk_size: int) -> list[Chunk]:
    """The chunks of a study of ``deals`` deals: full chunks, then the remainder.

    >>> plan_chunks(10, 4)
    [Chunk(id=0, deals=4), Chunk(id=1, deals=4), Chunk(id=2, deals=2)]
    """
    _check_chunk_size(chunk_size)
    if not is_whole_number(deals, 1):
        raise StudyError(f"deal count {deals!r} is not usable: expected a whole number 1 or more")
    full, rest = divmod(deals, chunk_size)
    chunks = [Chunk(i, chunk_size) for i in range(full)]
    if rest:
        chunks.append(Chunk(full, rest))
    return chunks


def chunk_deals(seed: int, chunk: int, deals: int, chunk_size: int) -> list[Deal]:
    """The first ``deals`` deals of chunk ``chunk`` of a study seeded ``seed`` in
    chunks of ``chunk_size``: deals ``chunk * chunk_size`` onwards of the seed.

    A shorter chunk is a prefix of a longer one, so a study's last, partial chunk
    grows when the study is extended.

    >>> from bridgescore.dealer.dealing import deal_many
    >>> chunk_deals(1, 1, 2, 3) == deal_many(5, seed=1)[3:]
    True
    """
    check_seed(seed)
    _check_chunk_size(chunk_size)
    if not is_whole_number(chunk, 0):
        raise StudyError(f"chunk id {chunk!r} is not usable: expected a whole number 0 or more")
    if not is_whole_number(deals, 0, chunk_size):
        raise StudyError(
            f"deal count {deals!r} is not usable: expected 0 to {chunk_size} (the chunk size)"
        )
    owners = deal_range(DealSpec(), seed, chunk * chunk_size, deals)
    return [Deal.from_pbn(text) for text in pbn_strings(owners)]
