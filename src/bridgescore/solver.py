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

import ctypes
import importlib.util
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from bridgescore.core import Seat, Strain
from bridgescore.ddtable import DDTable
from bridgescore.deal import Card, Deal
from bridgescore.errors import ArgumentTypeError, InvalidArgumentError, InvalidDealError, ToolError
from bridgescore.validate import enum_arg, is_whole_number

__all__ = [
    "MAX_BOARDS_PER_CALL",
    "MAX_DEALS_PER_CALL",
    "declarer_tricks",
    "lead_tricks",
    "play_tricks",
    "solve",
    "solve_many",
]

MAX_DEALS_PER_CALL = 32
"""Deals per DDS ``CalcAllTables`` call: DDS refuses more than 32 tables for all 5 strains."""

Progress = Callable[[int, int], object]

# endplay's strain order is S, H, D, C, NT; ours is C, D, H, S, NT.
_ENDPLAY_STRAIN = {Strain.SPADES: 0, Strain.HEARTS: 1, Strain.DIAMONDS: 2, Strain.CLUBS: 3}
_ENDPLAY_STRAIN[Strain.NOTRUMP] = 4
_STRAIN_ROWS = tuple(_ENDPLAY_STRAIN[strain] for strain in Strain)

_lock = threading.Lock()


class _DeferredPackage(ModuleType):
    """The ``endplay`` package with its ``__init__`` not yet run: see :func:`_endplay`.

    The first attribute it lacks (``endplay.Deal``, ``endplay.__version__``, what
    ``from endplay import *`` reads) runs the ``__init__`` into it, once, and from then
    on it is endplay's package as an ordinary import makes it."""

    def __getattr__(self, name: str) -> Any:
        global _package_running
        with _package_lock:
            # Other threads wait here while the __init__ runs. The __init__'s own thread
            # may come back (a name it reads of itself before defining it): it finds the
            # name missing, as in a package halfway through its import.
            if type(self) is _DeferredPackage and not _package_running:
                spec = self.__spec__
                assert spec is not None and spec.loader is not None  # set when it was made
                _package_running = True
                try:
                    spec.loader.exec_module(self)
                finally:
                    _package_running = False
                self.__class__ = ModuleType  # type: ignore[assignment]  # a plain module now
        return ModuleType.__getattribute__(self, name)


_package_lock = threading.RLock()
_package_running = False


def _defer_endplay_init() -> None:
    """Put endplay's package in ``sys.modules`` without running its ``__init__``.

    Its ``__init__`` imports all of endplay, whose dealer imports ``matplotlib.pyplot``:
    0.55 of the 0.6 s of CPU that ``import endplay._dds`` took, in every process that
    solves (each worker of a study or a server, each ``bridgescore solve``), for the
    three modules of it solving uses (40 ms). Their imports go through the package's
    ``__path__`` alone, and anyone who then uses the package itself gets it whole."""
    with _package_lock:
        if "endplay" in sys.modules:
            return
        spec = importlib.util.find_spec("endplay")
        if spec is None or spec.loader is None or spec.submodule_search_locations is None:
            return  # not installed (or not a package): the import below says so
        package = importlib.util.module_from_spec(spec)
        package.__class__ = _DeferredPackage
        sys.modules["endplay"] = package


def _endplay() -> tuple[ModuleType, ModuleType, ModuleType]:
    _defer_endplay_init()
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


def _items(deals: object) -> list[Any]:
    """The deals of a many-deal call as a list; one deal alone, or no list at all, is refused."""
    # A PBN string is iterable too: its characters would be read as 69 deals.
    if isinstance(deals, Iterable) and not isinstance(deals, str | Deal):
        try:
            return list(deals)
        except TypeError:  # a numpy scalar has __iter__ but refuses to be iterated
            pass
    raise ArgumentTypeError(
        f"deals {deals!r}: expected a list of Deals or PBN deal strings, or an owner array "
        "shaped (n, 52)"
    )


def _dds_failure(error: object, first: int, last: int) -> ToolError:
    # DDS accepts every valid deal, and only valid deals reach it: this is DDS's fault.
    return ToolError(
        f"DDS failed on deals {first}-{last} ({error}): expected a solution for every valid "
        "deal; please report it with those deals"
    )


def _check_threads(threads: int | None) -> None:
    if threads is None:
        return
    if not is_whole_number(threads, 1):
        raise InvalidArgumentError(
            f"threads must be a whole number of at least 1 (or None for one per core), "
            f"got {threads!r}"
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
    checked = [_as_deal(deal, position) for position, deal in enumerate(_items(deals), start=1)]
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
                try:
                    batch = dds.calc_all_tables([types.Deal(deal.to_pbn()) for deal in chunk])
                except dds_library.DDSError as error:
                    raise _dds_failure(error, len(tables) + 1, len(tables) + len(chunk)) from None
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


# -- one contract per deal: DDS SolveAllBoards -------------------------------------------

MAX_BOARDS_PER_CALL = 200
"""Boards per DDS ``SolveAllBoards`` call (DDS's MAXNOOFBOARDS)."""

# DDS's structs seen as int32 words (checked against ctypes at first use):
# boards = noOfBoards, deal[200] (24 words: trump, first, currentTrickSuit[3],
# currentTrickRank[3], remainCards[4 hands][4 suits]), target[200], solutions[200], mode[200];
# solvedBoards = noOfBoards, futureTricks[200] (54 words: nodes, cards, suit[13],
# rank[13], equals[13], score[13]).
_DEAL_WORDS = 24
_FUTURE_WORDS = 54
# Our suits are C, D, H, S (0..3); DDS's are S, H, D, C.
_DDS_SUIT = np.array([3, 2, 1, 0])
# DDS's rank bits: 2 is bit 2 ... ace is bit 14.
_RANK_BITS = (1 << (np.arange(13, dtype=np.uint32) + 2)).astype(np.uint32)


def _as_owners(deals: npt.ArrayLike | Sequence[Deal | str]) -> npt.NDArray[np.int8]:
    """Owner arrays shaped (n, 52) from an array, or from Deals / PBN strings."""
    if isinstance(deals, np.ndarray):
        owners = deals
    else:
        items = _items(deals)
        if items and isinstance(items[0], Deal | str):
            owners = np.stack(
                [_as_deal(deal, position).to_array() for position, deal in enumerate(items, 1)]
            )
        else:
            try:
                owners = np.asarray(items, dtype=np.int8)
            except (TypeError, ValueError, OverflowError) as error:
                raise InvalidDealError(
                    f"deals are not owner seats ({error}): expected numbers 0-3 for N, E, S, W"
                ) from None
            if owners.size % 52 == 0:
                owners = owners.reshape(-1, 52)
    if owners.ndim != 2 or owners.shape[1] != 52:
        raise InvalidDealError(f"deals shaped {owners.shape}: expected (n, 52) owner seats")
    counts = np.stack([(owners == seat).sum(axis=1) for seat in range(4)], axis=1)
    bad = np.flatnonzero((counts != 13).any(axis=1))
    if bad.size:
        raise InvalidDealError(
            f"deal {bad[0] + 1} has hands of {counts[bad[0]].tolist()} cards: expected 13 each"
        )
    return owners.astype(np.int8, copy=False)


def _remain_cards(owners: npt.NDArray[np.int8]) -> npt.NDArray[np.uint32]:
    """DDS's remainCards[hand][suit] bit masks, shaped (n, 16)."""
    masks = np.zeros((owners.shape[0], 4, 4), dtype=np.uint32)
    for suit in range(4):
        held = owners[:, suit * 13 : suit * 13 + 13]
        for hand in range(4):
            masks[:, hand, _DDS_SUIT[suit]] = ((held == hand) * _RANK_BITS).sum(
                axis=1, dtype=np.uint32
            )
    return masks.reshape(-1, 16)


def _check_contract(strain: Strain | str, declarer: Seat | str) -> tuple[Strain, Seat]:
    return enum_arg(Strain, strain, "strain"), enum_arg(Seat, declarer, "declarer")


def _solve_boards(
    owners: npt.NDArray[np.int8],
    strain: Strain,
    declarer: Seat,
    solutions: int,
    threads: int | None,
    progress: Progress | None,
) -> Iterator[npt.NDArray[np.int32]]:
    """Yield DDS's futureTricks words, shaped (boards, 54), batch after batch."""
    _check_threads(threads)
    _, _, dds_library = _endplay()
    trump = 4 if strain is Strain.NOTRUMP else int(_DDS_SUIT[strain])
    leader = int(declarer.rotate(1))
    masks = _remain_cards(owners)
    boards = dds_library.boards()
    solved = dds_library.solvedBoards()
    board_words = np.ctypeslib.as_array(
        ctypes.cast(ctypes.pointer(boards), ctypes.POINTER(ctypes.c_int32)),
        shape=(ctypes.sizeof(boards) // 4,),
    )
    solved_words = np.ctypeslib.as_array(
        ctypes.cast(ctypes.pointer(solved), ctypes.POINTER(ctypes.c_int32)),
        shape=(ctypes.sizeof(solved) // 4,),
    )
    deal_words = board_words[1 : 1 + MAX_BOARDS_PER_CALL * _DEAL_WORDS].reshape(-1, _DEAL_WORDS)
    targets = board_words[1 + MAX_BOARDS_PER_CALL * _DEAL_WORDS :].reshape(3, -1)
    futures = solved_words[1 : 1 + MAX_BOARDS_PER_CALL * _FUTURE_WORDS].reshape(-1, _FUTURE_WORDS)
    deal_words[:, 0] = trump
    deal_words[:, 1] = leader
    deal_words[:, 2:8] = 0
    targets[0] = -1 if solutions == 1 else 0  # target: -1 = the most tricks
    targets[1] = solutions
    targets[2] = 1  # mode: search even when only one card can be played
    total = owners.shape[0]
    with _lock:
        if threads is not None:
            dds_library.SetMaxThreads(threads)
        try:
            for start in range(0, total, MAX_BOARDS_PER_CALL):
                count = min(MAX_BOARDS_PER_CALL, total - start)
                deal_words[:count, 8:] = masks[start : start + count].view(np.int32)
                board_words[0] = count
                try:
                    code = dds_library.SolveAllBoardsBin(boards, solved)
                except dds_library.DDSError as error:  # endplay's wrapper turns codes into these
                    raise _dds_failure(error, start + 1, start + count) from None
                if code not in (None, 1):  # 1 is DDS's "no fault"
                    raise _dds_failure(f"error code {code}", start + 1, start + count)
                yield futures[:count].copy()
                if progress is not None:
                    progress(start + count, total)
        finally:
            if threads is not None:
                dds_library.SetMaxThreads(0)


def declarer_tricks(
    deals: npt.ArrayLike | Sequence[Deal | str],
    strain: Strain | str,
    declarer: Seat | str,
    *,
    threads: int | None = None,
    progress: Progress | None = None,
) -> npt.NDArray[np.int8]:
    """Double-dummy tricks for ``declarer`` in ``strain`` on each deal (one DDS search each).

    Faster than a full table when one contract is wanted: DDS's SolveAllBoards in
    batches of 200. ``deals`` is an owner array shaped (n, 52) (as
    :meth:`Deal.to_array`) or Deals / PBN strings. Equal to
    ``solve(deal).tricks(declarer, strain)`` for each deal.

    >>> declarer_tricks(["N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. "
    ...                  "...AKQJT98765432"], Strain.SPADES, Seat.NORTH).tolist()
    [13]
    """
    strain, declarer = _check_contract(strain, declarer)
    owners = _as_owners(deals)
    tricks = np.empty(owners.shape[0], dtype=np.int8)
    done = 0
    for futures in _solve_boards(owners, strain, declarer, 1, threads, progress):
        # Score 0 is the defence's best with its best opening lead.
        tricks[done : done + futures.shape[0]] = 13 - futures[:, 41]
        done += futures.shape[0]
    return tricks


def lead_tricks(
    deals: npt.ArrayLike | Sequence[Deal | str],
    strain: Strain | str,
    declarer: Seat | str,
    *,
    threads: int | None = None,
    progress: Progress | None = None,
) -> npt.NDArray[np.int8]:
    """Tricks the defence takes after each possible opening lead, shaped (n, 52).

    Column ``c`` is for card number ``c`` (``Card.index``) led by declarer's left-hand
    opponent, ``-1`` where the leader does not hold it. DDS's all-cards solve
    (``solutions=3``); DDS groups equal cards and each gets the group's value.
    """
    strain, declarer = _check_contract(strain, declarer)
    owners = _as_owners(deals)
    result = np.full((owners.shape[0], 52), -1, dtype=np.int8)
    done = 0
    for futures in _solve_boards(owners, strain, declarer, 3, threads, progress):
        cards = futures[:, 1]
        for row in range(futures.shape[0]):
            for slot in range(int(cards[row])):
                suit = 3 - int(futures[row, 2 + slot])  # DDS S,H,D,C -> our C,D,H,S
                holding = (1 << int(futures[row, 15 + slot])) | int(futures[row, 28 + slot])
                score = futures[row, 41 + slot]
                for rank in range(2, 15):
                    if holding >> rank & 1:
                        result[done + row, suit * 13 + rank - 2] = score
        done += futures.shape[0]
    return result


def play_tricks(
    plays: Sequence[tuple[Deal, Strain, Seat, Sequence[Card]]],
    *,
    threads: int | None = None,
) -> list[tuple[int, ...]]:
    """Declarer's double-dummy tricks along each play: before the first card and after
    each card, as DDS's ``AnalyseAllPlays`` gives them.

    Each play is ``(deal, strain, declarer, cards)``, the cards in the order played from
    the opening lead (by declarer's left-hand opponent). A value counts the tricks
    declarer's side has won so far plus what best play by both sides takes from there.
    DDS stops at the last trick, whose cards are forced: a play of more than 48 cards
    gets 49 values, and the caller settles the last trick. The boards go to DDS in
    batches of :data:`MAX_BOARDS_PER_CALL`, solved on all cores (``threads`` to limit).
    DDS refuses a card the hand does not hold or may not play (a revoke): the play
    must be legal (:class:`~bridgescore.play.Play` checks it).
    """
    _check_threads(threads)
    dds, types, dds_library = _endplay()
    boards: list[Any] = []
    cards: list[list[str]] = []
    for position, (deal, strain, declarer, played) in enumerate(plays, 1):
        deal = _as_deal(deal, position)
        strain, declarer = _check_contract(strain, declarer)
        board = types.Deal(deal.to_pbn())
        board.trump = types.Denom(_ENDPLAY_STRAIN[strain])
        board.first = types.Player(int(declarer.rotate(1)))
        boards.append(board)
        cards.append([str(card) for card in played])
    found: list[tuple[int, ...]] = []
    with _lock:
        if threads is not None:
            dds_library.SetMaxThreads(threads)
        try:
            for start in range(0, len(boards), MAX_BOARDS_PER_CALL):
                stop = min(start + MAX_BOARDS_PER_CALL, len(boards))
                try:
                    solved = dds.analyse_all_plays(boards[start:stop], cards[start:stop])
                except dds_library.DDSError as error:
                    raise _dds_failure(error, start + 1, stop) from None
                for one, shown in zip(solved, cards[start:stop], strict=True):
                    values = tuple(int(value) for value in one)
                    found.append(values[: len(shown) + 1])
        finally:
            if threads is not None:
                dds_library.SetMaxThreads(0)
    return found
