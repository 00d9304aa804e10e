"""Double-dummy solving with DDS, through the ``endplay`` wheel.

This is the only module that touches DDS. It takes our :class:`~bridgescore.deal.Deal`
values (already validated, so nothing invalid reaches DDS), hands them to
endplay's ``calc_all_tables`` in batches of at most :data:`MAX_DEALS_PER_CALL`,
and turns each answer into our own :class:`~bridgescore.ddtable.DDTable` at once.

Threads: DDS keeps one process-wide thread pool. endplay calls DDS's
``SetMaxThreads(0)`` when it loads, which means "one thread per core". Passing
``threads=n`` calls ``SetMaxThreads(n)`` for the duration of the call and
``SetMaxThreads(0)`` afterwards; a lock keeps concurrent Python threads from
interleaving their batches. For very many deals the alternative is one
process per core, each with ``threads=1``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import Any

from bridgescore.core import Seat, Strain
from bridgescore.ddtable import DDTable
from bridgescore.deal import Deal
from bridgescore.errors import ArgumentTypeError, InvalidArgumentError
from bridgescore.validate import is_whole_number

__all__ = ["MAX_DEALS_PER_CALL", "solve", "solve_many"]

MAX_DEALS_PER_CALL = 32
"""Deals per DDS ``CalcAllTables`` call: DDS refuses more than 32 tables for all 5 strains."""

Progress = Callable[[int, int], object]

# endplay's strain order is S, H, D, C, NT; ours is C, D, H, S, NT.
_ENDPLAY_STRAIN = {Strain.SPADES: 0, Strain.HEARTS: 1, Strain.DIAMONDS: 2, Strain.CLUBS: 3}
_ENDPLAY_STRAIN[Strain.NOTRUMP] = 4
_STRAIN_ROWS = tuple(_ENDPLAY_STRAIN[strain] for strain in Strain)

_lock = threading.Lock()


def _endplay() -> tuple[ModuleType, ModuleType, ModuleType]:
    try:
        import endplay._dds as dds_library
        import endplay.dds as dds
        import endplay.types as types
    except ImportError as error:
        raise ImportError(
            "double-dummy solving needs DDS from the 'endplay' package, which is not "
            "installed; install it with: pip install 'bridgescore[dds]'"
        ) from error
    return dds, types, dds_library


def _as_deal(deal: Deal | str, position: int) -> Deal:
    if isinstance(deal, Deal):
        return deal
    if isinstance(deal, str):
        return Deal.from_pbn(deal)
    raise ArgumentTypeError(f"deal {position} is {deal!r}: expected a Deal or a PBN deal string")


def _check_threads(threads: int | None) -> None:
    if threads is None:
        return
    if not is_whole_number(threads, 1):
        raise InvalidArgumentError(
            f"threads={threads!r} is not valid: expected None or a whole number >= 1"
        )


def _chunks(deals: list[Deal]) -> Iterator[list[Deal]]:
    for start in range(0, len(deals), MAX_DEALS_PER_CALL):
        yield deals[start : start + MAX_DEALS_PER_CALL]


def _to_table(result: Any) -> DDTable:
    # to_list() is indexed [endplay strain][seat]; endplay's seats are N, E, S, W like ours.
    cells = result.to_list()
    return DDTable(
        tuple(
            (
                cells[_STRAIN_ROWS[0]][seat],
                cells[_STRAIN_ROWS[1]][seat],
                cells[_STRAIN_ROWS[2]][seat],
                cells[_STRAIN_ROWS[3]][seat],
                cells[_STRAIN_ROWS[4]][seat],
            )
            for seat in Seat
        )
    )


def solve_many(
    deals: Iterable[Deal | str],
    *,
    threads: int | None = None,
    progress: Progress | None = None,
) -> list[DDTable]:
    """Double-dummy tables for any number of deals, in the order given.

    ``deals`` are :class:`Deal` values (or PBN strings, read with
    :meth:`Deal.from_pbn`); all are checked before DDS sees any. ``threads`` is
    the number of DDS threads (``None``: one per core). ``progress(done, total)``
    is called after each batch of up to 32 deals.

    Raises :class:`~bridgescore.errors.InvalidDealError` for a bad PBN string,
    ``ImportError`` (naming ``bridgescore[dds]``) when endplay is missing.

    >>> [str(t) for t in solve_many(["N:AKQJT98765432... .AKQJT98765432.. "
    ...                              "..AKQJT98765432. ...AKQJT98765432"])]
    ['0d0d00d0d000d0d00d0d']
    """
    checked = [_as_deal(deal, position) for position, deal in enumerate(deals, start=1)]
    _check_threads(threads)
    dds, types, dds_library = _endplay()
    tables: list[DDTable] = []
    total = len(checked)
    with _lock:
        if threads is not None:
            dds_library.SetMaxThreads(threads)
        try:
            for chunk in _chunks(checked):
                # Building endplay's deal from PBN costs ~40 µs, against ~70 ms of solving.
                batch = dds.calc_all_tables([types.Deal(deal.to_pbn()) for deal in chunk])
                tables.extend(_to_table(result) for result in batch)
                if progress is not None:
                    progress(len(tables), total)
        finally:
            if threads is not None:
                dds_library.SetMaxThreads(0)
    return tables


def solve(deal: Deal | str) -> DDTable:
    """The double-dummy table of one deal (a :class:`Deal` or a PBN string).

    >>> str(solve("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"))
    '0d0d00d0d000d0d00d0d'
    """
    return solve_many([deal])[0]
