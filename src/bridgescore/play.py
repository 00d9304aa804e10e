"""The play of the cards (Laws 44-47, 57-64 in their simple form): turns, following suit, tricks.

:class:`Play` starts from a deal and a contract with its declarer; the opening
leader is declarer's left-hand opponent. ``play.play(card)`` refuses a card
played out of turn, a card the player does not hold or already played, and a
revoke (not following suit when able), raising :class:`~bridgescore.IllegalPlayError`
and leaving the play unchanged. Each trick goes to the highest trump, else to
the highest card of the suit led, and its winner leads next.

>>> from bridgescore.core import Contract
>>> from bridgescore.deal import Deal
>>> deal = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. "
...                      "..AKQJT98765432. ...AKQJT98765432")
>>> play = Play(deal, Contract.parse("7SN"))
>>> play.next_seat, play.legal_cards()[:2]
(Seat.EAST, [Card.parse('HA'), Card.parse('HK')])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from bridgescore.core import Contract, Seat, Strain
from bridgescore.deal import Card, Deal
from bridgescore.errors import IllegalPlayError, NotationError
from bridgescore.notation import Result
from bridgescore.validate import enum_arg, is_whole_number

__all__ = ["Play", "Trick", "winning_position"]

TRICKS = 13


@dataclass(frozen=True, slots=True)
class Trick:
    """Up to four cards played in turn from ``leader``, in a contract with ``trump``.

    ``trump`` is the contract's strain (``Strain.NOTRUMP`` for no trump suit).

    >>> trick = Trick(Seat.WEST, tuple(map(Card.parse, "HA H2 S2 H3".split())), Strain.SPADES)
    >>> trick.winner
    Seat.EAST
    """

    leader: Seat
    cards: tuple[Card, ...]
    trump: Strain = Strain.NOTRUMP

    def __post_init__(self) -> None:
        # The type tests spare the call when the members are given, as Play gives them.
        if type(self.leader) is not Seat:
            object.__setattr__(self, "leader", enum_arg(Seat, self.leader, "leader"))
        if type(self.trump) is not Strain:
            object.__setattr__(self, "trump", enum_arg(Strain, self.trump, "trump"))
        if len(self.cards) > 4:
            raise IllegalPlayError(f"a trick has at most 4 cards, got {len(self.cards)}")

    @property
    def is_complete(self) -> bool:
        return len(self.cards) == 4

    @property
    def suit_led(self) -> Strain | None:
        return self.cards[0].suit if self.cards else None

    def seats(self) -> Iterator[tuple[Seat, Card]]:
        """Each card with the seat that played it, in the order played."""
        for steps, card in enumerate(self.cards):
            yield self.leader.rotate(steps), card

    @property
    def winner(self) -> Seat | None:
        """The seat of the highest trump, else of the highest card of the suit led.

        ``None`` until the trick has four cards.
        """
        if not self.is_complete:
            return None
        return self.leader.rotate(winning_position(self.cards, self.trump))

    def format(self, *, symbols: bool = False) -> str:
        return " ".join(card.format(symbols=symbols) for card in self.cards)

    def __str__(self) -> str:
        return self.format()


class Play:
    """The play of a deal in a contract, card by card, kept legal.

    ``contract`` must name its declarer (``Contract.parse("4SS")``, or the one an
    :class:`~bridgescore.Auction` gives). ``play.tricks`` counts tricks won per
    side (index it with :class:`~bridgescore.Side`); after :meth:`claim` it
    includes the claimed tricks.
    """

    # Besides the cards, the play keeps what the Laws' checks ask about on every
    # card, updated card by card rather than found again from all the tricks:
    # the leader and cards of the trick in progress, the tricks each side has won
    # and how many cards of each suit each seat still holds (the revoke check).
    __slots__ = (
        "_cards",
        "_claimed",
        "_contract",
        "_deal",
        "_leader",
        "_left",
        "_played",
        "_trick",
        "_won",
    )

    def __init__(self, deal: Deal, contract: Contract, cards: Iterable[Card | str] = ()) -> None:
        if not isinstance(deal, Deal):
            raise NotationError(f"the play needs a Deal, got {deal!r}")
        if not isinstance(contract, Contract):
            raise NotationError(f"the play needs a Contract, got {contract!r}")
        if contract.declarer is None:
            raise NotationError(
                f"contract {contract} has no declarer: the play needs one to know who leads "
                "(write it as '4SN', or take it from the auction)"
            )
        self._deal = deal
        self._contract = contract
        self._cards: list[Card] = []
        self._played: set[Card] = set()
        self._claimed: tuple[int, int] | None = None  # (declarer's, defenders') claimed tricks
        self._restart()
        self.extend(cards)

    def _restart(self) -> None:
        """Set the state of a play with no card played."""
        assert self._contract.declarer is not None
        self._leader = self._contract.declarer.lho
        self._trick: list[Card] = []
        self._won = [0, 0]  # tricks won in play by NS, EW
        # _left[seat * 4 + suit]: the cards of that suit the seat still holds.
        left = [0] * 16
        for seat, hand in enumerate(self._deal.hands):
            for card in hand.cards:
                left[seat * 4 + card.suit] += 1
        self._left = left
        self._played = set()
        cards, self._cards = self._cards, []
        for card in cards:
            self._add(card)

    def _add(self, card: Card) -> None:
        """Play a card known to be legal, keeping the state up to date."""
        trick = self._trick
        seat = self._leader.rotate(len(trick))
        self._cards.append(card)
        self._played.add(card)
        self._left[seat * 4 + card.suit] -= 1
        trick.append(card)
        if len(trick) == 4:
            winner = self._leader.rotate(winning_position(trick, self._contract.strain))
            self._won[winner & 1] += 1
            self._leader = winner
            self._trick = []

    # -- state -------------------------------------------------------------

    @property
    def deal(self) -> Deal:
        return self._deal

    @property
    def contract(self) -> Contract:
        return self._contract

    @property
    def declarer(self) -> Seat:
        assert self._contract.declarer is not None
        return self._contract.declarer

    @property
    def dummy(self) -> Seat:
        return self.declarer.partner

    @property
    def opening_leader(self) -> Seat:
        """Declarer's left-hand opponent (Law 54's 'opening lead')."""
        return self.declarer.lho

    @property
    def trump(self) -> Strain:
        return self._contract.strain

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card played so far, in order."""
        return tuple(self._cards)

    def tricks_played(self) -> list[Trick]:
        """The tricks so far, the last one possibly incomplete."""
        tricks: list[Trick] = []
        leader = self.opening_leader
        for start in range(0, len(self._cards), 4):
            trick = Trick(leader, tuple(self._cards[start : start + 4]), self.trump)
            tricks.append(trick)
            # Not "winner or leader": Seat.NORTH is 0, and so falsy.
            if trick.winner is not None:
                leader = trick.winner
        return tricks

    @property
    def completed_tricks(self) -> list[Trick]:
        return [trick for trick in self.tricks_played() if trick.is_complete]

    @property
    def current_trick(self) -> Trick:
        """The trick in progress (empty when a new trick is about to start)."""
        return Trick(self._leader, tuple(self._trick), self.trump)

    @property
    def tricks(self) -> tuple[int, int]:
        """Tricks won by (NS, EW) so far, claimed tricks included."""
        won = list(self._won)
        if self._claimed is not None:
            side = self.declarer.side
            won[side] += self._claimed[0]
            won[side.opponents] += self._claimed[1]
        return (won[0], won[1])

    @property
    def declarer_tricks(self) -> int:
        return self.tricks[self.declarer.side]

    @property
    def is_complete(self) -> bool:
        """All 13 tricks played, or the rest settled by a claim."""
        return self._claimed is not None or len(self._cards) == 4 * TRICKS

    @property
    def is_claimed(self) -> bool:
        return self._claimed is not None

    @property
    def result(self) -> Result | None:
        """The contract and declarer's tricks once the play is complete."""
        return Result(self._contract, self.declarer_tricks) if self.is_complete else None

    @property
    def next_seat(self) -> Seat | None:
        """Who plays next (declarer plays dummy's cards, but this names dummy's seat)."""
        if self.is_complete:
            return None
        return self._leader.rotate(len(self._trick))

    def hand(self, seat: Seat | str) -> frozenset[Card]:
        """The cards ``seat`` (``Seat.NORTH`` or ``"N"``) still holds."""
        return self._deal[seat].cards - self._played

    # -- legality ----------------------------------------------------------

    def why_illegal(self, card: Card) -> str | None:
        """The reason ``card`` may not be played now, or ``None`` when it is legal."""
        if self.is_complete:
            return "the play is over" + (" (claimed)" if self.is_claimed else "")
        seat = self.next_seat
        assert seat is not None
        owner = self._deal.owner(card)
        if card in self._played:
            number = self._cards.index(card) // 4 + 1
            return f"{card} was already played, by {owner.full_name} in trick {number}"
        if owner != seat:
            return f"it is {seat.full_name}'s turn, and {card} is in {owner.full_name}'s hand"
        led = self._trick[0].suit if self._trick else None
        if led is not None and card.suit != led:
            holding = sorted((c for c in self.hand(seat) if c.suit == led), reverse=True)
            if holding:
                return (
                    f"{seat.full_name} must follow suit to the {led.name.lower()} led "
                    f"(holds {' '.join(map(str, holding))}): playing {card} would be a revoke"
                )
        return None

    def legal_cards(self) -> list[Card]:
        """The cards the next player may play, highest first."""
        seat = self.next_seat
        if seat is None:
            return []
        hand = self.hand(seat)
        led = self._trick[0].suit if self._trick else None
        following = [card for card in hand if card.suit == led]
        return sorted(following or hand, reverse=True)

    def play(self, card: Card | str) -> None:
        """Play the next card.

        Raises :class:`~bridgescore.IllegalPlayError` naming the card, the seat and
        the reason (out of turn, not held, already played, a revoke, play over),
        and leaves the play unchanged.
        """
        card = _as_card(card)
        # The common case first, as the Laws allow it: the player to play holds the
        # card, has not played it, and follows suit or cannot. Everything else is
        # asked of why_illegal, which gives the reason.
        trick = self._trick
        if self._claimed is None and len(self._cards) < 4 * TRICKS:
            turn = self._leader.rotate(len(trick))
            if (
                card in self._deal.hands[turn].cards
                and card not in self._played
                and (
                    not trick
                    or card.suit == trick[0].suit
                    or self._left[turn * 4 + trick[0].suit] == 0
                )
            ):
                self._add(card)
                return
        reason = self.why_illegal(card)
        if reason is not None:
            seat = self.next_seat
            # After the end there is no one to play: name the card's owner instead.
            who = (
                f"{self._deal.owner(card).full_name}'s "
                if seat is None
                else f"{seat.full_name} to play: "
            )
            raise IllegalPlayError(f"{who}{card} is illegal: {reason}")
        self._add(card)

    def extend(self, cards: Iterable[Card | str] | str) -> None:
        """Play several cards; text is split on spaces. Stops at the first illegal one."""
        if isinstance(cards, str):
            cards = cards.split()
        for card in cards:
            self.play(card)

    def claim(self, tricks: int) -> None:
        """Settle the rest of the play: declarer takes ``tricks`` of the tricks not yet won.

        The trick in progress counts as one of the rest. A concession by the
        defenders is the same call. Raises :class:`~bridgescore.IllegalPlayError`
        for a count outside 0 .. tricks left, or when the play is already over.
        """
        if self.is_complete:
            raise IllegalPlayError(f"claim of {tricks!r} trick(s) is illegal: the play is over")
        left = TRICKS - len(self._cards) // 4
        if not is_whole_number(tricks, 0, left):
            raise IllegalPlayError(
                f"claim of {tricks!r} trick(s) by {self.declarer.full_name} is impossible: "
                f"{left} trick(s) are left to play"
            )
        self._claimed = (tricks, left - tricks)

    def withdraw_claim(self) -> None:
        """Cancel a claim, so that play can go on."""
        self._claimed = None

    def pop(self) -> Card:
        """Take back the last card."""
        if self._claimed is not None:
            raise IllegalPlayError(
                "the play was claimed: withdraw the claim before taking back a card"
            )
        if not self._cards:
            raise IllegalPlayError("there is no card to take back")
        card = self._cards.pop()
        self._restart()
        return card

    def copy(self) -> Play:
        # The cards were checked when they were played: the copy takes them and the
        # state as they are instead of checking them again.
        play = Play(self._deal, self._contract)
        play._cards = list(self._cards)
        play._played = set(self._played)
        play._claimed = self._claimed
        play._leader = self._leader
        play._trick = list(self._trick)
        play._won = list(self._won)
        play._left = list(self._left)
        return play

    def format(self) -> str:
        """The tricks in order of play, one per line: ``HA H2 S2 H3``."""
        return "\n".join(str(trick) for trick in self.tricks_played())

    def __repr__(self) -> str:
        cards = " ".join(map(str, self._cards))
        return f"<Play {self._contract} {len(self._cards)} card(s) {cards!r} tricks {self.tricks}>"


def winning_position(cards: Sequence[Card], trump: Strain) -> int:
    """Which of a trick's four cards (0 for the lead) wins it: the highest trump,
    else the highest card of the suit led."""
    # The card winning so far is beaten by a higher card of its own suit, or by a
    # trump when it is not one (a card of another suit that is no trump never wins).
    best = 0
    top = cards[0]
    for position in (1, 2, 3):
        card = cards[position]
        if card.suit is top.suit:
            if card.rank > top.rank:
                best, top = position, card
        elif card.suit is trump:
            best, top = position, card
    return best


def _as_card(card: Card | str) -> Card:
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        return Card.parse(card)
    raise NotationError(f"not a card: {card!r}: expected a Card or text such as 'SA'")
