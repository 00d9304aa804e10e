"""Dealing a simulation's deals in parallel, on :mod:`bridgescore.distributed`'s runner.

Work is described by text and numbers (the dealing specification as JSON, the
seed, chunk numbers), so the same tasks run in this process, on local processes
or on Dask, and deal the same deals as :func:`bridgescore.dealer.dealing.deal_many`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from bridgescore.dealer.dealing import DEALS_PER_CHUNK, DealSpec, deal_chunk
from bridgescore.distributed import run_ordered

__all__ = ["dealt_chunks"]


def _deal_one(spec_json: str, seed: int, chunk_and_size: tuple[int, int]) -> npt.NDArray[np.int8]:
    chunk, size = chunk_and_size
    return deal_chunk(DealSpec.from_json(spec_json), seed, chunk, size)[0]


def dealt_chunks(
    count: int,
    *,
    seed: int,
    where: str = "",
    predeal: Sequence[str] = (),
    processes: int = 1,
    scheduler: Any = None,
) -> Iterator[npt.NDArray[np.int8]]:
    """Owner arrays of ``count`` deals under a condition, chunk after chunk, in order.

    The same deals as :func:`bridgescore.dealer.dealing.iter_deal_chunks`, dealt by
    ``processes`` processes (0: one per core) or on Dask.
    """
    spec = DealSpec(where, tuple(predeal))
    spec.plan()  # report a bad condition or predeal here, not in a worker
    sizes = [
        (chunk, min(DEALS_PER_CHUNK, count - first))
        for chunk, first in enumerate(range(0, count, DEALS_PER_CHUNK))
    ]
    yield from run_ordered(
        partial(_deal_one, spec.to_json(), seed), sizes, workers=processes, scheduler=scheduler
    )
