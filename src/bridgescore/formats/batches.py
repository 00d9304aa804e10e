"""Records read a batch at a time, with Python's cycle collector paused meanwhile.

A board record is a tree of small objects (its calls, hands and cards played)
and holds no reference cycle, so the cycle collector never frees any of it.
Yet it runs every few hundred new objects, and its full passes walk every
object still alive: while a file of thousands of boards is read into a list,
it walks the records read so far again and again, for nothing. Measured on
10,000 generated boards, that was a third of the reading time (see
``docs/performance.md``).

So the readers' records are gathered :data:`BATCH` at a time with the
collector paused, and handed on with it running again: it then runs once for
the batch instead of dozens of times, and no code of the caller ever runs while
it is paused. It is paused only if it was running, and left as it was found.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import TypeVar

__all__ = ["BATCH", "in_batches"]

BATCH = 256
"""Records read in one go while the collector is paused."""

T = TypeVar("T")


def in_batches(items: Iterable[T], size: int = BATCH) -> Iterator[T]:
    """The items of ``items`` in order, taken ``size`` at a time with the cycle
    collector paused while they are taken.

    An error raised while taking a batch is raised after the items taken before it.

    >>> list(in_batches(iter(range(5)), size=2))
    [0, 1, 2, 3, 4]
    """
    iterator = iter(items)
    while True:
        batch: list[T] = []
        error: Exception | None = None
        paused = gc.isenabled()
        if paused:
            gc.disable()
        try:
            batch.extend(islice(iterator, size))
        except Exception as raised:  # handed on below, after the items before it
            error = raised
        finally:
            if paused:
                gc.enable()
        yield from batch
        if error is not None:
            raise error
        if len(batch) < size:
            return
