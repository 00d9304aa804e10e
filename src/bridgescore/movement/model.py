"""The movement value: for each round and table, the NS pair, the EW pair and the boards.

A movement is data, the same whichever program wrote it: one :class:`Row` per table in
play in each round, the pairs that sit out a round (:class:`Sitout`), and the rounds
in which the pairs play the other direction's cards (``arrow_switch``; rows keep the
pairs' home seats). Relay and bye stands need no field of their own: two tables that
share boards in a round both list them (a relay), and a set no table plays in a round
is on the bye stand.

A *board set* is the boards that travel together from table to table: usually a round's
boards (``boards_per_set`` equal to ``boards_per_round``). A movement in half-sets
(``boards_per_set`` half of ``boards_per_round``) has each table play two sets a round,
which may come from different tables and go on to different ones; its rows list both
sets' boards. Set ``s`` is boards ``(s - 1) * boards_per_set + 1`` to ``s * boards_per_set``.

The value checks its shape when it is made (whole numbers in range, rows inside the
rounds and tables, no table twice in a round). Whether the movement is *sound* (no pair
at two tables in a round, no board played twice by one pair) is the checker's question,
so that a broken movement read from a file can be reported row by row.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from bridgescore.errors import MovementError
from bridgescore.validate import whole_number_arg

__all__ = ["Movement", "Row", "Sitout", "pair_sort_key", "partnership_players"]

#: The kinds a movement may name. "custom" is any movement read from a file that says
#: nothing else (an .ASC file does not name its kind). An "individual" movement's rows
#: name partnerships of two players (:func:`partnership_players`); a "swiss-pairs"
#: movement holds the rounds of a Swiss pairs drawn so far.
KINDS = ("mitchell", "howell", "teams", "custom", "individual", "swiss-pairs")

_PAIR = re.compile(r"[0-9]{1,3}[A-Z]?")
# An individual's partnership: the player in the North (or East) seat, then the one in
# South (or West), each by number: "3-7".
_PARTNERSHIP = re.compile(r"([1-9][0-9]{0,2})-([1-9][0-9]{0,2})")


def partnership_players(pair: str) -> tuple[str, str] | None:
    """The two players of an individual movement's partnership label (North or East
    first), or None when ``pair`` is a pair's label.

    >>> partnership_players("3-7"), partnership_players("7N")
    (('3', '7'), None)
    """
    found = _PARTNERSHIP.fullmatch(pair)
    return None if found is None else (found[1], found[2])


def pair_sort_key(pair: str) -> tuple[int, str]:
    """Pairs in the order clubs list them: 1N, 1E, 2N, 2E, ... or 1, 2, 3, ...
    (partnerships 1-5, 1-12, 2-3, ...).

    >>> sorted(["2N", "10N", "1E", "1N"], key=pair_sort_key)
    ['1N', '1E', '2N', '10N']
    """
    players = partnership_players(pair)
    if players is not None:
        return (int(players[0]), f"-{int(players[1]):04d}")
    digits = pair.rstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    suffix = pair[len(digits) :]
    # N before E: a Mitchell's pair list reads NS pair 1, EW pair 1, ...
    return (int(digits) if digits else 0, {"N": "0", "E": "1"}.get(suffix, suffix))


def _check_pair(pair: object, where: str) -> str:
    if not isinstance(pair, str) or not (_PAIR.fullmatch(pair) or _PARTNERSHIP.fullmatch(pair)):
        raise MovementError(
            f"{where}: pair {pair!r} is not a pair label (a number, optionally followed by"
            " a capital letter: 7, 7N, 7E; or an individual's two players: 3-7)"
        )
    return pair


@dataclass(frozen=True, slots=True)
class Row:
    """One table in one round: who sits NS and EW (their home seats) and the boards."""

    round: int
    table: int
    ns: str
    ew: str
    boards: tuple[int, ...]

    def __post_init__(self) -> None:
        where = f"round {self.round!r}, table {self.table!r}"
        whole_number_arg(self.round, f"{where}: round", 1, error=MovementError)
        whole_number_arg(self.table, f"{where}: table", 1, error=MovementError)
        _check_pair(self.ns, where)
        _check_pair(self.ew, where)
        if self.ns == self.ew:
            raise MovementError(f"{where}: pair {self.ns} cannot sit both NS and EW")
        if not isinstance(self.boards, tuple) or not self.boards:
            raise MovementError(f"{where}: boards must be a non-empty tuple, got {self.boards!r}")
        for board in self.boards:
            whole_number_arg(board, f"{where}: board", 1, error=MovementError)
        if len(set(self.boards)) != len(self.boards):
            raise MovementError(f"{where}: a board is listed twice in {list(self.boards)}")

    @property
    def pairs(self) -> tuple[str, str]:
        return (self.ns, self.ew)


@dataclass(frozen=True, slots=True)
class Sitout:
    """A pair that plays no boards in a round (an odd number of pairs, a bye in teams)."""

    round: int
    pair: str

    def __post_init__(self) -> None:
        whole_number_arg(self.round, "sit-out round", 1, error=MovementError)
        _check_pair(self.pair, f"round {self.round}, sit-out")


@dataclass(frozen=True)
class Movement:
    """A whole movement of one section. Rows are kept sorted by round, then table.

    ``boards_per_set`` (0: the same as ``boards_per_round``) is the boards that travel
    together; it divides ``boards_per_round``.
    """

    kind: str
    tables: int
    rounds: int
    boards_per_round: int
    rows: tuple[Row, ...]
    sitouts: tuple[Sitout, ...] = ()
    arrow_switch: tuple[int, ...] = ()
    section: str = "A"
    boards_per_set: int = 0
    _index: dict[tuple[int, int], Row] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise MovementError(f"movement kind {self.kind!r} is not one of {', '.join(KINDS)}")
        whole_number_arg(self.tables, "tables", 1, error=MovementError)
        whole_number_arg(self.rounds, "rounds", 1, error=MovementError)
        whole_number_arg(self.boards_per_round, "boards per round", 1, error=MovementError)
        if self.boards_per_set == 0:
            object.__setattr__(self, "boards_per_set", self.boards_per_round)
        whole_number_arg(
            self.boards_per_set, "boards per set", 1, self.boards_per_round, error=MovementError
        )
        if self.boards_per_round % self.boards_per_set:
            raise MovementError(
                f"boards per set ({self.boards_per_set}) must divide the boards per round"
                f" ({self.boards_per_round})"
            )
        if not isinstance(self.section, str) or not self.section.strip():
            raise MovementError(f"section must be a non-empty name, got {self.section!r}")
        rows = tuple(sorted(self.rows, key=lambda row: (row.round, row.table)))
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "sitouts", tuple(sorted(self.sitouts, key=_sitout_key)))
        object.__setattr__(self, "arrow_switch", tuple(sorted(set(self.arrow_switch))))
        index: dict[tuple[int, int], Row] = {}
        for row in rows:
            if not isinstance(row, Row):
                raise MovementError(f"a movement's rows must be Row values, got {row!r}")
            if row.round > self.rounds or row.table > self.tables:
                raise MovementError(
                    f"round {row.round}, table {row.table}: outside the movement's"
                    f" {self.rounds} rounds and {self.tables} tables"
                )
            if (row.round, row.table) in index:
                raise MovementError(f"round {row.round}, table {row.table}: listed twice")
            index[(row.round, row.table)] = row
        for sitout in self.sitouts:
            if sitout.round > self.rounds:
                raise MovementError(
                    f"round {sitout.round}: sit-out of pair {sitout.pair} is outside the"
                    f" movement's {self.rounds} rounds"
                )
        for round_number in self.arrow_switch:
            whole_number_arg(
                round_number, "arrow-switch round", 1, self.rounds, error=MovementError
            )
        self._check_partnerships()
        object.__setattr__(self, "_index", index)

    def _check_partnerships(self) -> None:
        """An individual's rows name partnerships of two players, and only its rows do."""
        individual = self.kind == "individual"
        for row in self.rows:
            for pair in row.pairs:
                if (partnership_players(pair) is not None) != individual:
                    expected = (
                        "an individual movement's rows name two players (3-7)"
                        if individual
                        else "only an individual movement's rows name two players"
                    )
                    raise MovementError(
                        f"round {row.round}, table {row.table}: pair {pair!r}: {expected}"
                    )
        if individual and self.sitouts:
            raise MovementError("an individual movement has no sit-outs (its players are 4T)")

    @property
    def players(self) -> tuple[str, ...]:
        """An individual movement's players, by number (empty for any other movement).

        >>> Movement("individual", 1, 1, 1, (Row(1, 1, "1-3", "2-4", (1,)),)).players
        ('1', '2', '3', '4')
        """
        seen = {
            player
            for row in self.rows
            for pair in row.pairs
            for player in partnership_players(pair) or ()
        }
        return tuple(sorted(seen, key=int))

    @property
    def pairs(self) -> tuple[str, ...]:
        """Every pair that plays or sits out, in the order clubs list them."""
        seen = {pair for row in self.rows for pair in row.pairs}
        seen.update(sitout.pair for sitout in self.sitouts)
        return tuple(sorted(seen, key=pair_sort_key))

    @property
    def boards(self) -> tuple[int, ...]:
        """Every board some table plays, in order."""
        return tuple(sorted({board for row in self.rows for board in row.boards}))

    @property
    def sets_per_round(self) -> int:
        """Board sets each table plays a round: 1, or 2 in half-sets."""
        return self.boards_per_round // self.boards_per_set

    def row_at(self, round_number: int, table: int) -> Row | None:
        """The row of ``table`` in ``round_number``, or None when the table is empty then."""
        return self._index.get((round_number, table))

    def rows_in_round(self, round_number: int) -> tuple[Row, ...]:
        return tuple(row for row in self.rows if row.round == round_number)

    def rows_of_pair(self, pair: str) -> Iterator[Row]:
        """The rows ``pair`` plays in, round by round (a pair at two tables is the checker's
        to report: both rows are yielded)."""
        return (row for row in self.rows if pair in row.pairs)

    def sitting_out(self, round_number: int) -> tuple[str, ...]:
        return tuple(s.pair for s in self.sitouts if s.round == round_number)

    def is_arrow_switched(self, round_number: int) -> bool:
        return round_number in self.arrow_switch

    def home_directions(self) -> dict[str, str]:
        """Each pair's home direction in a Mitchell (``{"1N": "NS", "1E": "EW", ...}``):
        as its label says (``N``, ``E``), else the direction of most of its rows, so a
        table that sat the wrong way round (``session swap``) leaves its pairs in their
        own fields. Empty for any other movement, or one whose arrow switch makes one
        field by design.

        >>> from bridgescore.movement.mitchell import mitchell
        >>> mitchell(tables=3, boards_per_round=2).home_directions()["3E"]
        'EW'
        """
        if self.kind != "mitchell" or self.arrow_switch:
            return {}
        rows: dict[str, list[int]] = {}
        for row in self.rows:
            rows.setdefault(row.ns, [0, 0])[0] += 1
            rows.setdefault(row.ew, [0, 0])[1] += 1
        # The label says it when it can (7N, 7E); else the direction of most rows.
        named = {"N": "NS", "E": "EW"}
        return {
            pair: named.get(pair[-1], "NS" if ns >= ew else "EW") for pair, (ns, ew) in rows.items()
        }


def _sitout_key(sitout: Sitout) -> tuple[int, tuple[int, str]]:
    return (sitout.round, pair_sort_key(sitout.pair))


def board_set(first: int, count: int) -> tuple[int, ...]:
    """The boards of set ``first``..``first + count - 1``, as a row lists them."""
    return tuple(range(first, first + count))


def rows_from(items: Iterable[tuple[int, int, str, str, Iterable[int]]]) -> tuple[Row, ...]:
    """Rows from ``(round, table, ns, ew, boards)`` tuples, as generators build them."""
    return tuple(Row(r, t, ns, ew, tuple(boards)) for r, t, ns, ew, boards in items)
