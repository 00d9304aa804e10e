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
from bridgescore.validate import enum_arg, is_whole_number

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
        # The type tests spare an enum call when the members are given, as readers give them.
        if type(self.kind) is not CallKind:
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
            if type(self.strain) is not Strain:
                object.__setattr__(self, "strain", enum_arg(Strain, self.strain, "strain"))
        elif self.level is not None or self.strain is not None:
            raise NotationError(f"a {self.kind.name.lower()} has no level or strain")

    @classmethod
    def bid(cls, level: int, strain: Strain | str) -> Call:
        """The bid of ``level`` in ``strain``: ``Call.bid(4, Strain.SPADES)`` (or
        ``Call.bid(4, "S")``) is ``4S``."""
        return cls(CallKind.BID, level, enum_arg(Strain, strain, "strain"))

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

    # Besides the calls, the auction keeps what the Laws' checks ask about on every
    # call, updated as calls are added rather than found again by scanning them:
    # the index of the last bid and of the last call other than a pass (-1: none)
    # and how many passes end the auction so far.
    __slots__ = ("_calls", "_dealer", "_last_action", "_last_bid", "_passes")

    def __init__(self, dealer: Seat | str, calls: Iterable[Call | str] = ()) -> None:
        self._dealer: Seat = enum_arg(Seat, dealer, "dealer")
        self._calls: list[Call] = []
        self._last_bid = -1
        self._last_action = -1
        self._passes = 0
        self.extend(calls)

    @classmethod
    def parse(cls, text: str, dealer: Seat | str) -> Auction:
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
        # Four passes at the start end with three passes too, and no call is
        # accepted after the end, so three closing passes in four calls or more
        # are exactly the two cases.
        return self._passes >= 3 and len(self._calls) >= 4

    @property
    def is_passed_out(self) -> bool:
        return self.is_complete and self._last_action < 0

    def _push(self, call: Call) -> None:
        """Add a call known to be legal, keeping the auction's state up to date."""
        kind = call.kind
        if kind is CallKind.PASS:
            self._passes += 1
        else:
            self._passes = 0
            self._last_action = len(self._calls)
            if kind is CallKind.BID:
                self._last_bid = self._last_action
        self._calls.append(call)

    def _recount(self) -> None:
        """Find the auction's state again from its calls (after a call is taken back)."""
        calls = self._calls
        self._last_bid = self._last_action = -1
        self._passes = 0
        self._calls = []
        for call in calls:
            self._push(call)

    def _last_bid_index(self) -> int | None:
        return None if self._last_bid < 0 else self._last_bid

    def _last_action_index(self) -> int | None:
        """The index of the last call other than a pass."""
        return None if self._last_action < 0 else self._last_action

    @property
    def last_bid(self) -> Call | None:
        index = self._last_bid_index()
        return None if index is None else self._calls[index]

    @property
    def doubling(self) -> Doubling:
        """The doubling of the last bid so far."""
        # Any call after the last bid other than a pass is a double or a redouble,
        # and the last of them says the doubling.
        if self._last_action <= self._last_bid:
            return Doubling.UNDOUBLED
        if self._calls[self._last_action].kind is CallKind.DOUBLE:
            return Doubling.DOUBLED
        return Doubling.REDOUBLED

    @property
    def contract(self) -> Contract | None:
        """The final contract with doubling and declarer.

        ``None`` while the auction is still open and when it was passed out.
        Declarer is the first player of the declaring side to name the final strain.
        """
        if not self.is_complete:
            return None
        index = self._last_bid
        if index < 0:
            return None
        calls = self._calls
        bid = calls[index]
        assert bid.level is not None and bid.strain is not None
        # The calls of the declaring side are those whose index has the parity of
        # the final bid's: seats alternate sides.
        first = next(
            position
            for position in range(index & 1, index + 1, 2)
            if calls[position].strain is bid.strain and calls[position].kind is CallKind.BID
        )
        return Contract(bid.level, bid.strain, self.doubling, self.seat_of(first))

    @property
    def declarer(self) -> Seat | None:
        contract = self.contract
        return None if contract is None else contract.declarer

    # -- legality ----------------------------------------------------------

    def why_illegal(self, call: Call) -> str | None:
        """The reason ``call`` may not be made now, or ``None`` when it is legal."""
        if self.is_complete:
            return "the auction is over"
        kind = call.kind
        if kind is CallKind.PASS:
            return None
        if kind is CallKind.BID:
            last = self._last_bid
            if last >= 0 and call.rank <= self._calls[last].rank:
                previous = self._calls[last]
                return (
                    f"it is insufficient: it does not supersede {previous} by "
                    f"{self.seat_of(last).full_name} (a bid must name more tricks, or as "
                    "many in a higher strain)"
                )
            return None
        seat = self.seat_of(len(self._calls))
        action = self._last_action_index()
        if kind is CallKind.DOUBLE:
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
        # The common cases first, as the Laws allow them: a pass or a bid above the
        # last one, before the auction is over. Everything else is asked of
        # why_illegal, which gives the reason.
        kind = call.kind
        if self._passes < 3 or len(self._calls) < 4:
            if kind is CallKind.PASS:
                self._passes += 1
                self._calls.append(call)
                return
            if kind is CallKind.BID and (
                self._last_bid < 0 or call.rank > self._calls[self._last_bid].rank
            ):
                self._passes = 0
                self._last_bid = self._last_action = len(self._calls)
                self._calls.append(call)
                return
        reason = self.why_illegal(call)
        if reason is not None:
            if self.is_complete:
                raise IllegalCallError(
                    f"{self.seat_of(len(self._calls)).full_name}'s {call} after the end of "
                    f"the auction is illegal: {reason} ({self.format()})"
                )
            seat = self.seat_of(len(self._calls))
            raise IllegalCallError(f"{seat.full_name}'s {call} is illegal: {reason}")
        self._push(call)

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
            self._push(PASS)

    def copy(self) -> Auction:
        # The calls were checked when they were made: the copy takes them and the
        # state as they are instead of checking them again.
        auction = Auction(self._dealer)
        auction._calls = list(self._calls)
        auction._last_bid = self._last_bid
        auction._last_action = self._last_action
        auction._passes = self._passes
        return auction

    def pop(self) -> Call:
        """Take back the last call."""
        if not self._calls:
            raise IllegalCallError("there is no call to take back")
        call = self._calls.pop()
        self._recount()
        return call

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


# Calls met as text, parsed once each: an auction read from a file names the same
# few dozen calls over and over. Only what Call.parse accepts is kept, so the
# table holds at most a few hundred spellings of the 38 calls.
_CALLS_BY_TEXT: dict[str, Call] = {}


def _as_call(call: Call | str) -> Call:
    if isinstance(call, Call):
        return call
    if isinstance(call, str):
        known = _CALLS_BY_TEXT.get(call)
        if known is None:
            known = Call.parse(call)
            if len(call) <= 8 and len(_CALLS_BY_TEXT) < 4096:
                _CALLS_BY_TEXT[call] = known
        return known
    raise NotationError(f"not a call: {call!r}: expected a Call or text such as '1NT'")
