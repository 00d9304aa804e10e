"""Calls and auctions under the Laws (Laws 18-22): legal calls, final contract, declarer.

A :class:`Call` is a small immutable value (``Call.parse("1NT")``, ``str(call)``);
an :class:`Auction` is the sequence of calls from the dealer on, which refuses
illegal calls with :class:`~bridgescore.IllegalCallError` and leaves itself
unchanged when it does.

>>> auction = Auction.parse("1S 2H 2S 4H 4S X P P P", dealer=Seat.NORTH)
>>> auction.contract
Contract.parse('4SXN')
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from bridgescore.core import Contract, Doubling, Seat, Strain
from bridgescore.errors import IllegalCallError, NotationError
from bridgescore.validate import is_whole_number

__all__ = ["DOUBLE", "PASS", "REDOUBLE", "Auction", "Call", "CallKind"]


class CallKind(enum.IntEnum):
    """What a call is: pass, double, redouble or a bid."""

    PASS = 0
    DOUBLE = 1
    REDOUBLE = 2
    BID = 3


_BID_RE = re.compile(
    r"^(?P<level>[0-9])\s*(?P<strain>NOTRUMPS?|NT|SA|N|S|H|D|C|♠|♥|♦|♣|♤|♡|♢|♧)$", re.I
)
_CALL_WORDS = {
    "PASS": CallKind.PASS,
    "P": CallKind.PASS,
    "X": CallKind.DOUBLE,
    "DBL": CallKind.DOUBLE,
    "DOUBLE": CallKind.DOUBLE,
    "XX": CallKind.REDOUBLE,
    "RDBL": CallKind.REDOUBLE,
    "REDOUBLE": CallKind.REDOUBLE,
}


@dataclass(frozen=True, slots=True, order=False)
class Call:
    """One call: a bid (level 1-7 and strain), a pass, a double or a redouble.

    Equality covers every field; ``str`` gives ``1C`` .. ``7NT``, ``Pass``, ``X``, ``XX``.

    >>> Call.parse("3N"), str(Call.parse("p"))
    (Call.parse('3NT'), 'Pass')
    """

    kind: CallKind
    level: int | None = None
    strain: Strain | None = None

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "kind", CallKind(self.kind))
        except ValueError:
            raise NotationError(f"unknown call kind {self.kind!r}") from None
        if self.kind is CallKind.BID:
            level = self.level
            if not is_whole_number(level, 1, 7):
                raise NotationError(f"a bid needs a level from 1 to 7, got {level!r}")
            if self.strain is None:
                raise NotationError(f"a bid needs a strain, got level {level} alone")
            try:
                object.__setattr__(self, "strain", Strain(self.strain))
            except ValueError:
                raise NotationError(f"unknown strain {self.strain!r} in a bid") from None
        elif self.level is not None or self.strain is not None:
            raise NotationError(f"a {self.kind.name.lower()} has no level or strain")

    @classmethod
    def bid(cls, level: int, strain: Strain) -> Call:
        """The bid of ``level`` in ``strain``: ``Call.bid(4, Strain.SPADES)`` is ``4S``."""
        return cls(CallKind.BID, level, strain)

    @classmethod
    def parse(cls, text: str) -> Call:
        """Read ``1C`` .. ``7NT`` (``3N``, ``4♠``), ``Pass``/``P``, ``X``/``Dbl``, ``XX``/``Rdbl``.

        Raises :class:`~bridgescore.NotationError` quoting the text otherwise; ``AP``
        (all pass) is several calls, read by :meth:`Auction.parse`.
        """
        if not isinstance(text, str):
            raise NotationError(f"a call must be text, not {type(text).__name__}: {text!r}")
        key = text.strip().upper()
        kind = _CALL_WORDS.get(key)
        if kind is not None:
            return cls(kind)
        match = _BID_RE.match(key)
        if match is not None:
            level = int(match["level"])
            if not 1 <= level <= 7:
                raise NotationError(f"impossible bid {text!r}: the level must be 1 to 7")
            strain_text = match["strain"]
            strain = Strain.NOTRUMP if strain_text == "SA" else Strain.parse(strain_text)
            return cls(CallKind.BID, level, strain)
        if key == "AP":
            raise NotationError(
                "'AP' (all pass) stands for several passes: read it with Auction.parse"
            )
        raise NotationError(
            f"not a call: {text!r}: expected a bid 1C to 7NT, Pass (P), X (Dbl) or XX (Rdbl)"
        )

    @property
    def is_bid(self) -> bool:
        return self.kind is CallKind.BID

    @property
    def is_pass(self) -> bool:
        return self.kind is CallKind.PASS

    @property
    def rank(self) -> int:
        """Position among the 35 bids, 0 for 1C up to 34 for 7NT; -1 for other calls."""
        if self.level is None or self.strain is None:
            return -1
        return (self.level - 1) * 5 + self.strain

    def format(self, *, symbols: bool = False) -> str:
        """``1NT``, ``4♠`` (with symbols), ``Pass``, ``X``, ``XX``."""
        if self.level is None or self.strain is None:
            return ("Pass", "X", "XX")[self.kind]
        strain = self.strain.symbol if symbols else self.strain.letter
        return f"{self.level}{strain}"

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"Call.parse({self.format()!r})"


PASS = Call(CallKind.PASS)
DOUBLE = Call(CallKind.DOUBLE)
REDOUBLE = Call(CallKind.REDOUBLE)

_ALL_BIDS = tuple(Call(CallKind.BID, level, strain) for level in range(1, 8) for strain in Strain)


class Auction:
    """The calls of one deal, from the dealer on, kept legal by the Laws.

    ``append`` refuses an illegal call with :class:`~bridgescore.IllegalCallError`
    (naming the call, the seat and the reason) and leaves the auction unchanged.

    >>> auction = Auction(Seat.EAST)
    >>> for call in ("1H", "Pass", "3H", "Pass", "4H", "AP"):
    ...     auction.extend(call)
    >>> auction.contract, auction.is_complete
    (Contract.parse('4HE'), True)
    """

    __slots__ = ("_calls", "_dealer")

    def __init__(self, dealer: Seat, calls: Iterable[Call | str] = ()) -> None:
        try:
            self._dealer = Seat(dealer)
        except ValueError:
            raise NotationError(f"unknown dealer {dealer!r}: expected a Seat") from None
        self._calls: list[Call] = []
        self.extend(calls)

    @classmethod
    def parse(cls, text: str, dealer: Seat) -> Auction:
        """Read calls separated by spaces or commas; ``AP`` ends the auction with passes.

        Raises :class:`~bridgescore.NotationError` for text that is not a call and
        :class:`~bridgescore.IllegalCallError` for a call the Laws forbid.
        """
        if not isinstance(text, str):
            raise NotationError(f"an auction must be text, not {type(text).__name__}")
        auction = cls(dealer)
        auction.extend(text)
        return auction

    # -- state -------------------------------------------------------------

    @property
    def dealer(self) -> Seat:
        return self._dealer

    @property
    def calls(self) -> tuple[Call, ...]:
        return tuple(self._calls)

    def __len__(self) -> int:
        return len(self._calls)

    def __iter__(self) -> Iterator[Call]:
        return iter(tuple(self._calls))

    def seat_of(self, index: int) -> Seat:
        """The seat that made (or makes) the call at ``index`` (0 is the dealer)."""
        return self._dealer.rotate(index)

    def calls_with_seats(self) -> list[tuple[Seat, Call]]:
        """Each call with the seat that made it."""
        return [(self.seat_of(i), call) for i, call in enumerate(self._calls)]

    @property
    def next_seat(self) -> Seat | None:
        """Whose turn it is to call; ``None`` once the auction is complete."""
        return None if self.is_complete else self.seat_of(len(self._calls))

    @property
    def is_complete(self) -> bool:
        """Four passes at the start, or three passes after any other call (Law 22)."""
        calls = self._calls
        if len(calls) == 4 and all(call.is_pass for call in calls):
            return True
        return len(calls) >= 4 and all(call.is_pass for call in calls[-3:])

    @property
    def is_passed_out(self) -> bool:
        return self.is_complete and all(call.is_pass for call in self._calls)

    def _last_bid_index(self) -> int | None:
        for index in range(len(self._calls) - 1, -1, -1):
            if self._calls[index].is_bid:
                return index
        return None

    def _last_action_index(self) -> int | None:
        """The index of the last call other than a pass."""
        for index in range(len(self._calls) - 1, -1, -1):
            if not self._calls[index].is_pass:
                return index
        return None

    @property
    def last_bid(self) -> Call | None:
        index = self._last_bid_index()
        return None if index is None else self._calls[index]

    @property
    def doubling(self) -> Doubling:
        """The doubling of the last bid so far."""
        index = self._last_bid_index()
        if index is None:
            return Doubling.UNDOUBLED
        doubling = Doubling.UNDOUBLED
        for call in self._calls[index + 1 :]:
            if call.kind is CallKind.DOUBLE:
                doubling = Doubling.DOUBLED
            elif call.kind is CallKind.REDOUBLE:
                doubling = Doubling.REDOUBLED
        return doubling

    @property
    def contract(self) -> Contract | None:
        """The final contract with doubling and declarer.

        ``None`` while the auction is still open and when it was passed out.
        Declarer is the first player of the declaring side to name the final strain.
        """
        if not self.is_complete:
            return None
        index = self._last_bid_index()
        if index is None:
            return None
        bid = self._calls[index]
        assert bid.level is not None and bid.strain is not None
        side = self.seat_of(index).side
        declarer = next(
            seat
            for seat, call in self.calls_with_seats()
            if call.is_bid and call.strain == bid.strain and seat.side == side
        )
        return Contract(bid.level, bid.strain, self.doubling, declarer)

    @property
    def declarer(self) -> Seat | None:
        contract = self.contract
        return None if contract is None else contract.declarer

    # -- legality ----------------------------------------------------------

    def why_illegal(self, call: Call) -> str | None:
        """The reason ``call`` may not be made now, or ``None`` when it is legal."""
        if self.is_complete:
            return "the auction is over"
        seat = self.seat_of(len(self._calls))
        if call.kind is CallKind.PASS:
            return None
        if call.kind is CallKind.BID:
            last = self._last_bid_index()
            if last is not None and call.rank <= self._calls[last].rank:
                previous = self._calls[last]
                return (
                    f"it is insufficient: it does not supersede {previous} by "
                    f"{self.seat_of(last).full_name} (a bid must name more tricks, or as "
                    "many in a higher strain)"
                )
            return None
        action = self._last_action_index()
        if call.kind is CallKind.DOUBLE:
            if action is None:
                return "there is no bid to double"
            last_action = self._calls[action]
            if last_action.kind is not CallKind.BID:
                already = "doubled" if last_action.kind is CallKind.DOUBLE else "redoubled"
                return f"the last bid is already {already}"
            bidder = self.seat_of(action)
            if bidder.side == seat.side:
                who = "their own" if bidder == seat else "their partner's"
                return f"a player may double only an opponent's bid, and {last_action} is {who}"
            return None
        # Redouble.
        if action is None:
            return "there is no double to redouble"
        last_action = self._calls[action]
        if last_action.kind is CallKind.BID:
            return f"{last_action} by {self.seat_of(action).full_name} has not been doubled"
        if last_action.kind is CallKind.REDOUBLE:
            return "the last bid is already redoubled"
        if self.seat_of(action).side == seat.side:
            return "a player may redouble only an opponent's double of their own side's bid"
        return None

    def is_legal(self, call: Call | str) -> bool:
        return self.why_illegal(_as_call(call)) is None

    def legal_calls(self) -> list[Call]:
        """Every call the next player may make: Pass, X or XX when allowed, then the bids."""
        if self.is_complete:
            return []
        calls = [call for call in (PASS, DOUBLE, REDOUBLE) if self.why_illegal(call) is None]
        last = self.last_bid
        floor = -1 if last is None else last.rank
        calls.extend(_ALL_BIDS[floor + 1 :])
        return calls

    def append(self, call: Call | str) -> None:
        """Add the next player's call.

        Raises :class:`~bridgescore.IllegalCallError` naming the call, the seat and
        the reason, and leaves the auction unchanged, when the Laws forbid it.
        """
        call = _as_call(call)
        reason = self.why_illegal(call)
        if reason is not None:
            if self.is_complete:
                raise IllegalCallError(
                    f"{self.seat_of(len(self._calls)).full_name}'s {call} after the end of "
                    f"the auction is illegal: {reason} ({self.format()})"
                )
            seat = self.seat_of(len(self._calls))
            raise IllegalCallError(f"{seat.full_name}'s {call} is illegal: {reason}")
        self._calls.append(call)

    def extend(self, calls: Iterable[Call | str] | str) -> None:
        """Add several calls; text is split on spaces, and ``AP`` passes until the end.

        Stops at the first illegal call, raising as :meth:`append` does (the calls
        before it stay).
        """
        if isinstance(calls, str):
            calls = [token for token in re.split(r"[\s,;]+", calls) if token]
        for call in calls:
            if isinstance(call, str) and call.strip().upper() == "AP":
                self._all_pass()
            else:
                self.append(call)

    def _all_pass(self) -> None:
        if self.is_complete:
            raise IllegalCallError(
                f"'AP' (all pass) after the end of the auction is illegal ({self.format()})"
            )
        while not self.is_complete:
            self._calls.append(PASS)

    def copy(self) -> Auction:
        return Auction(self._dealer, self._calls)

    def pop(self) -> Call:
        """Take back the last call."""
        if not self._calls:
            raise IllegalCallError("there is no call to take back")
        return self._calls.pop()

    # -- text --------------------------------------------------------------

    def format(self, *, symbols: bool = False) -> str:
        """The calls separated by spaces: ``1S 2H 2S 4H 4S X Pass Pass Pass``."""
        return " ".join(call.format(symbols=symbols) for call in self._calls)

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"Auction.parse({self.format()!r}, dealer={self._dealer!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Auction):
            return NotImplemented
        return self._dealer == other._dealer and self._calls == other._calls

    __hash__ = None  # type: ignore[assignment]  # mutable, like a list


def _as_call(call: Call | str) -> Call:
    if isinstance(call, Call):
        return call
    if isinstance(call, str):
        return Call.parse(call)
    raise NotationError(f"not a call: {call!r}: expected a Call or text such as '1NT'")
