"""Chunks: the unit of work and of resume of a par study.

A study of ``deals`` deals with chunk size ``k`` is chunks 0, 1, ... of ``k``
deals each (the last may be shorter). Chunk ``i`` of a study seeded ``s`` is
dealt from child ``i`` of ``numpy.random.SeedSequence(s)``, so any chunk can be
recomputed anywhere, alone, and extending a study never changes earlier chunks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bridgescore.deal import Deal, random_deals
from bridgescore.study.errors import StudyError
from bridgescore.validate import is_whole_number

__all__ = ["MAX_CHUNK_SIZE", "Chunk", "chunk_seed", "deal_chunk", "plan_chunks"]

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


def _check_seed(seed: int) -> None:
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


def chunk_seed(seed: int, chunk: int) -> np.random.SeedSequence:
    """Child ``chunk`` of ``SeedSequence(seed)``, without spawning its elder siblings.

    ``SeedSequence(seed).spawn(n)[i]`` is ``SeedSequence(seed, spawn_key=(i,))`` for
    every ``n > i``, so building the child directly keeps chunk ``i`` the same however
    many chunks a study has.

    >>> chunk_seed(7, 3).spawn_key
    (3,)
    """
    _check_seed(seed)
    if not is_whole_number(chunk, 0):
        raise StudyError(f"chunk id {chunk!r} is not usable: expected a whole number 0 or more")
    return np.random.SeedSequence(seed, spawn_key=(chunk,))


def deal_chunk(seed: int, chunk: int, deals: int) -> list[Deal]:
    """The first ``deals`` deals of chunk ``chunk`` of the study seeded ``seed``.

    ``random_deals`` deals one after another from one generator, so a shorter chunk
    is a prefix of a longer one: a study's last, partial chunk grows when the study
    is extended.

    >>> deal_chunk(1, 0, 3)[:2] == deal_chunk(1, 0, 2)
    True
    """
    return random_deals(chunk_seed(seed, chunk), deals)
