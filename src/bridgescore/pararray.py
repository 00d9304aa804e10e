"""Par scores of many double-dummy tables at once.

:func:`par_array` evaluates the definition of docs/par-definition.md on whole arrays: the
backward induction runs over the 35 contracts. It returns exactly ``par(...).score``
table by table (the tests check this on tens of thousands of tables, on both paths).

Two paths compute the same thing. With numba installed (the ``fast`` extra) a compiled
kernel walks the 35 contracts table by table in registers; without it, numpy runs each
step of the induction as four vector operations over a block of tables. The kernel is
used from :data:`_KERNEL_FROM` tables up (below that, loading it costs more than it
saves); ``BRIDGESCORE_NUMPY_ONLY=1`` keeps to numpy (the tests use it to check both).
"""

from __future__ import annotations

import enum
import os
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from bridgescore.core import Seat, Vulnerability
from bridgescore.errors import InvalidTableError, NotationError
from bridgescore.parscore import CONTRACTS, MAKE_RANK, final_scores, turns
from bridgescore.validate import enum_arg

__all__ = ["par_array"]

# Tables are solved in blocks so that the block's 70 contract scores stay in the
# CPU cache during the 35 steps; each block is still one set of array operations.
_BLOCK = 1 << 12
_NOBODY_CODE = 127  # beyond every score's code
# Loading the compiled kernel from numba's cache takes about 0.1 s: worth it from
# some thousands of tables (numpy does about ten thousand tables in 1.5 ms).
_KERNEL_FROM = 20_000


def _tables(tables: npt.ArrayLike) -> npt.NDArray[np.int8]:
    try:
        array = np.asarray(tables)
    except (TypeError, ValueError) as error:
        raise InvalidTableError(f"not an array of double-dummy tables: {error}") from None
    if array.ndim != 3 or array.shape[1:] != (4, 5):
        raise InvalidTableError(
            f"tables must be shaped (n, 4, 5) (table, seat N E S W, strain C D H S NT), "
            f"got shape {array.shape}"
        )
    if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
        raise InvalidTableError(f"trick counts must be whole numbers, got dtype {array.dtype}")
    if array.size and (array.min() < 0 or array.max() > 13):
        bad = np.argwhere((array < 0) | (array > 13))[0]
        table, seat, strain = (int(i) for i in bad)
        raise InvalidTableError(
            f"tables[{table}, {seat}, {strain}] = {array[table, seat, strain]} tricks is "
            "impossible: expected 0 to 13"
        )
    return array.astype(np.int8, copy=False)


def _vulnerabilities(vulnerability: Any, count: int) -> npt.NDArray[np.intp]:
    # One value for every table follows the package's one rule (enum_arg); anything
    # else must be an integer array of the Vulnerability values.
    if isinstance(vulnerability, str | enum.Enum):
        one = enum_arg(Vulnerability, vulnerability, "vulnerability")
        return np.full(count, one, dtype=np.intp)
    array = np.asarray(vulnerability)
    if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
        raise NotationError(
            f"vulnerability must be a Vulnerability, 0-3, or an integer array of them, "
            f"got {vulnerability!r}"
        )
    if array.ndim == 0:
        array = np.full(count, int(array), dtype=np.intp)
    elif array.shape != (count,):
        raise NotationError(
            f"vulnerability array shaped {array.shape} does not match {count} tables: "
            f"expected one value or shape ({count},)"
        )
    if array.size and (array.min() < 0 or array.max() > 3):
        bad = int(np.flatnonzero((array < 0) | (array > 3))[0])
        raise NotationError(
            f"vulnerability[{bad}] = {array[bad]} is not valid: expected 0 (None), 1 (NS), "
            "2 (EW) or 3 (Both)"
        )
    return array.astype(np.intp, copy=False)


# _MAKE_RANK[strain, tricks]: the scalar solver's table as an array.
_MAKE_RANK = np.array(MAKE_RANK, dtype=np.int8)


def _highest_make(best: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    """Rank of each table's highest makeable contract for one side, -1 for none."""
    highest: npt.NDArray[np.int8] = _MAKE_RANK[0].take(best[:, 0])
    for strain in range(1, 5):
        np.maximum(highest, _MAKE_RANK[strain].take(best[:, strain]), out=highest)
    return highest


@cache
def _ordinal_tables() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.int32]]:
    """The final scores as small ordinals, and the way back.

    The induction only compares scores, so any order-preserving code gives the
    same answer; the 137 possible NS-view scores (with 0) fit in int8 when
    numbered outwards from 0 (negation stays negation), which halves the memory
    the 35 steps stream through. Returns the code table for NS's contracts and
    for EW's (both as rows (vulnerable, strain, tricks) of seven levels,
    transposed to (level, row)) and the decoding table indexed by ``code & 0xFF``.
    """
    finals = final_scores().astype(np.int32)
    positive = np.unique(np.abs(finals))
    positive = positive[positive > 0]
    assert len(positive) < _NOBODY_CODE
    code = np.searchsorted(positive, np.abs(finals)) + 1
    codes = (np.sign(finals) * code).astype(np.int8).reshape(2 * 5 * 14, 7).T
    decode = np.zeros(256, dtype=np.int32)
    decode[1 : len(positive) + 1] = positive
    decode[256 - len(positive) :] = -positive[::-1]
    ns = np.ascontiguousarray(codes)
    ew = np.ascontiguousarray(-codes)
    for array in (ns, ew, decode):
        array.setflags(write=False)
    return ns, ew, decode


@cache
def _row_codes() -> npt.NDArray[np.int8]:
    """NS's codes of :func:`_ordinal_tables` as rows (vulnerable, strain, tricks) of the
    seven levels (padded to eight), so the compiled kernel reads one row per strain."""
    codes = np.zeros((_ordinal_tables()[0].shape[1], 8), dtype=np.int8)
    codes[:, :7] = _ordinal_tables()[0].T
    codes.setflags(write=False)
    return codes


def _block(
    best_ns: npt.NDArray[np.int8],
    best_ew: npt.NDArray[np.int8],
    vulnerability: npt.NDArray[np.intp],
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """``B(NS)`` and ``B(EW)`` of docs/par-definition.md for a block of tables, as ordinals."""
    count = len(best_ns)
    ns_codes, ew_codes, _ = _ordinal_tables()
    offsets = np.arange(5, dtype=np.intp) * 14
    rows_ns = (vulnerability & 1)[:, None] * 70 + offsets + best_ns
    rows_ew = (vulnerability >> 1)[:, None] * 70 + offsets + best_ew
    # Every contract's code as (level, strain, table), NS's view for both sides.
    ns_final = ns_codes.take(rows_ns.T, axis=1)
    ew_final = ew_codes.take(rows_ew.T, axis=1)

    up_ns = np.full(count, -_NOBODY_CODE, dtype=np.int8)
    up_ew = np.full(count, _NOBODY_CODE, dtype=np.int8)
    value_ns = np.empty(count, dtype=np.int8)
    value_ew = np.empty(count, dtype=np.int8)
    for rank in range(CONTRACTS - 1, -1, -1):
        level, strain = divmod(rank, 5)
        # After NS bid this contract EW pass or bid on, and the other way round.
        np.minimum(ns_final[level, strain], up_ew, out=value_ns)
        np.maximum(ew_final[level, strain], up_ns, out=value_ew)
        np.maximum(up_ns, value_ns, out=up_ns)
        np.minimum(up_ew, value_ew, out=up_ew)
    return up_ns, up_ew


def _maximum(a: npt.NDArray[np.int8], b: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    return np.maximum(a, b)


def _minimum(a: npt.NDArray[np.int8], b: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    return np.minimum(a, b)


_Kernel = Callable[..., None]


@cache
def _kernel() -> _Kernel | None:
    """The compiled kernel, or None without numba (or with BRIDGESCORE_NUMPY_ONLY=1)."""
    if os.environ.get("BRIDGESCORE_NUMPY_ONLY") == "1":
        return None
    try:
        import numba
    except ImportError:
        return None

    @numba.njit(cache=True, nogil=True)
    def kernel(
        tables: Any,
        vulnerability: Any,
        first: int,
        codes: Any,
        make_rank: Any,
        decode: Any,
        out: Any,
    ) -> None:
        # The induction of _block, one table at a time: the table's ten rows of
        # ``codes`` (one per side and strain) are found once, then the 35 steps run in
        # registers, a contract's code one load away (numpy instead builds an array per
        # contract and pays a call per step). ``first`` is -1 for the neutral
        # convention, 0 when NS open, 1 when EW open.
        rows_ns = np.empty(5, np.int64)
        rows_ew = np.empty(5, np.int64)
        for index in range(tables.shape[0]):
            vul = vulnerability[index]
            high_ns = -1
            high_ew = -1
            for strain in range(5):
                best_ns = max(tables[index, 0, strain], tables[index, 2, strain])
                best_ew = max(tables[index, 1, strain], tables[index, 3, strain])
                rows_ns[strain] = (vul & 1) * 70 + strain * 14 + best_ns
                rows_ew[strain] = (vul >> 1) * 70 + strain * 14 + best_ew
                if first == -1:
                    high_ns = max(high_ns, make_rank[strain, best_ns])
                    high_ew = max(high_ew, make_rank[strain, best_ew])
            up_ns: int = -_NOBODY_CODE
            up_ew: int = _NOBODY_CODE
            for level in range(6, -1, -1):
                for strain in range(4, -1, -1):
                    ns_final = int(codes[rows_ns[strain], level])
                    ew_final = -int(codes[rows_ew[strain], level])
                    value_ns = min(ns_final, up_ew)
                    value_ew = max(ew_final, up_ns)
                    up_ns = max(up_ns, value_ns)
                    up_ew = min(up_ew, value_ew)
            ns_first = max(up_ns, min(up_ew, max(up_ns, min(up_ew, 0))))
            ew_first = min(up_ew, max(up_ns, min(up_ew, max(up_ns, 0))))
            if first == 0:
                score = ns_first
            elif first == 1:
                score = ew_first
            elif high_ns > high_ew:
                score = ns_first
            elif high_ns < high_ew:
                score = ew_first
            else:
                score = 0
            out[index] = decode[score & 0xFF]

    return kernel


def par_array(
    tables: npt.ArrayLike,
    vulnerability: Vulnerability | int | str | npt.ArrayLike,
    dealer: Seat | int | str | None = None,
) -> npt.NDArray[np.int32]:
    """Par scores (North-South's view) of many tables; equal to ``par(...).score`` each.

    ``tables`` is shaped (n, 4, 5), indexed [table, ``Seat``, ``Strain``] as
    :meth:`DDTable.to_array`. ``vulnerability`` is one value for all tables (a
    ``Vulnerability``, its text such as ``"Both"``, or its number) or an integer
    array of n (0 None, 1 NS, 2 EW, 3 Both, the ``Vulnerability`` values).
    ``dealer=None`` is the neutral convention, a seat (``Seat.NORTH`` or ``"N"``)
    the dealer-first one.

    >>> from bridgescore import DDTable
    >>> table = DDTable.parse("a989ca989c3453134531").to_array()
    >>> par_array(table[None], Vulnerability.NONE).tolist()
    [920]
    """
    array = _tables(tables)
    count = len(array)
    vul = _vulnerabilities(vulnerability, count)
    first_seat = None if dealer is None else enum_arg(Seat, dealer, "dealer")

    result = np.empty(count, dtype=np.int32)
    decode = _ordinal_tables()[2]
    kernel = _kernel() if count >= _KERNEL_FROM else None
    if kernel is not None:
        first = -1 if first_seat is None else int(first_seat.side)
        kernel(np.ascontiguousarray(array), vul, first, _row_codes(), _MAKE_RANK, decode, result)
        return result
    for start in range(0, count, _BLOCK):
        part = slice(start, start + _BLOCK)
        best_ns = np.maximum(array[part, Seat.NORTH], array[part, Seat.SOUTH])
        best_ew = np.maximum(array[part, Seat.EAST], array[part, Seat.WEST])
        up_ns, up_ew = _block(best_ns, best_ew, vul[part])
        zero = np.zeros(1, dtype=np.int8)
        # The opening (par.opening), with numpy's element-wise max and min.
        ns_first = turns(up_ns, up_ew, _maximum, _minimum, zero)
        ew_first = turns(up_ew, up_ns, _minimum, _maximum, zero)
        if first_seat is None:
            high_ns = _highest_make(best_ns)
            high_ew = _highest_make(best_ew)
            scores = np.where(high_ns > high_ew, ns_first, ew_first)
            scores[high_ns == high_ew] = 0
        else:
            scores = ns_first if first_seat.side == 0 else ew_first
        result[part] = decode.take(scores.view(np.uint8))
    return result
