"""A played deal: deal, board, auction and play (or a trick count) to contract, result and score.

:func:`play_deal` puts the pieces together the way a teacher scores a whole
game: the board gives dealer and vulnerability (Law 2) unless they are given,
the auction gives the contract and its declarer, the play (or the tricks
declarer took) gives the result, and :mod:`bridgescore.scoring` gives the
score, which :class:`PlayedDeal` reports for North-South (+ for NS, - for EW).

>>> played = play_deal(None, "1NT Pass 3NT AP", dealer=Seat.SOUTH,
...                    vulnerability=Vulnerability.NONE, tricks=9)
>>> str(played.result), played.score
('3NTS=', 400)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from bridgescore.auction import Auction
from bridgescore.board import Board
from bridgescore.core import Contract, Seat, Side, Vulnerability, dealer_of_board
from bridgescore.deal import Card, Deal
from bridgescore.errors import IllegalPlayError, NotationError
from bridgescore.notation import Result, means_passed_out
from bridgescore.play import Play
from bridgescore.scoring import LAW_2017, Rules, ScoreBreakdown, score_breakdown
from bridgescore.validate import enum_arg

__all__ = ["PlayedDeal", "play_deal"]


@dataclass(frozen=True, slots=True, eq=False)
class PlayedDeal:
    """The outcome of one deal: who declared what, how many tricks, and the score.

    Build it with :func:`play_deal`. ``board`` is the :class:`~bridgescore.Board`
    played (its number, when it has one, its deal, when known, its dealer and
    vulnerability); ``contract`` carries its doubling and declarer and is ``None``
    when the deal was passed out; ``tricks`` is the number declarer took. ``score``
    is signed for North-South.
    """

    board: Board
    contract: Contract | None
    tricks: int | None
    auction: Auction | None = None
    play: Play | None = None
    rules: Rules = LAW_2017

    @property
    def number(self) -> int | None:
        """The board number (``None``: a deal played outside a numbered set)."""
        return self.board.number

    @property
    def deal(self) -> Deal | None:
        return self.board.deal

    @property
    def dealer(self) -> Seat:
        return self.board.dealer

    @property
    def vulnerability(self) -> Vulnerability:
        return self.board.vulnerability

    @property
    def declarer(self) -> Seat | None:
        return None if self.contract is None else self.contract.declarer

    @property
    def is_passed_out(self) -> bool:
        return self.contract is None

    @property
    def result(self) -> Result:
        """The contract with declarer and tricks (``Pass`` when passed out)."""
        return Result(self.contract, self.tricks)

    @property
    def vulnerable(self) -> bool:
        """Whether the declaring side is vulnerable (``False`` when passed out)."""
        declarer = self.declarer
        return declarer is not None and self.vulnerability.is_vulnerable(declarer)

    @property
    def breakdown(self) -> ScoreBreakdown:
        """The itemized score for the declaring side."""
        return score_breakdown(self.result, self.vulnerable, rules=self.rules)

    @property
    def declarer_score(self) -> int:
        """The score of the declaring side (0 when passed out)."""
        return self.breakdown.total

    @property
    def score(self) -> int:
        """The score from North-South's point of view: + for NS, - for EW."""
        return self.score_for(Side.NS)

    def score_for(self, side: Side) -> int:
        """The score from ``side``'s point of view."""
        declarer = self.declarer
        if declarer is None:
            return 0
        total = self.declarer_score
        return total if declarer.side == side else -total

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready summary."""
        return {
            "board": self.number,
            "dealer": self.dealer.letter,
            "vulnerable": self.vulnerability.to_pbn(),
            "contract": "Pass" if self.contract is None else self.contract.to_pbn(),
            "declarer": None if self.declarer is None else self.declarer.letter,
            "tricks": self.tricks,
            "result": str(self.result),
            "score_ns": self.score,
        }


def play_deal(
    deal: Deal | str | None,
    auction: Auction | str | None = None,
    *,
    board: int | None = None,
    dealer: Seat | str | None = None,
    vulnerability: Vulnerability | str | None = None,
    contract: Contract | str | None = None,
    play: Play | Iterable[Card | str] | str | None = None,
    tricks: int | None = None,
    rules: Rules = LAW_2017,
) -> PlayedDeal:
    """Score a played deal.

    - ``deal``: the four hands (a :class:`~bridgescore.Deal` or its PBN text); it
      may be ``None`` when no play is given.
    - ``board`` gives dealer and vulnerability by Law 2; ``dealer`` and
      ``vulnerability`` given explicitly (``Seat.NORTH`` or ``"N"``,
      ``Vulnerability.BOTH`` or ``"Both"``) take precedence (one of the two ways is
      needed).
    - ``auction`` (calls from the dealer, or an :class:`~bridgescore.Auction`) gives
      the contract and declarer; without it, ``contract`` must name them (``"4SXS"``
      or ``"Pass"``).
    - ``play``: a :class:`~bridgescore.Play`, or the cards in order of play; when it
      stops before trick 13, ``tricks`` (declarer's total) settles the rest as a claim.
      Without a play, ``tricks`` alone gives the result.

    Raises a :class:`~bridgescore.BridgeError` subclass naming what is missing or
    inconsistent: an unfinished auction, a contract that disagrees with the
    auction, an illegal card, a trick count that the play contradicts.
    """
    if board is not None:
        dealer_of_board(board)  # validates the number
    if dealer is not None:
        dealer = enum_arg(Seat, dealer, "dealer")
    if vulnerability is not None:
        vulnerability = enum_arg(Vulnerability, vulnerability, "vulnerability")
    if board is None and dealer is None:
        raise NotationError("a played deal needs its board number or its dealer")
    if board is None and vulnerability is None:
        raise NotationError("a played deal needs its board number or its vulnerability")
    if isinstance(deal, str):
        deal = Deal.from_pbn(deal)
    played_board = Board(board, deal, dealer_seat=dealer, vulnerable=vulnerability)
    dealer = played_board.dealer
    # A copy, so that the record cannot change behind the caller's back.
    auction = Auction.parse(auction, dealer) if isinstance(auction, str) else auction
    auction = None if auction is None else auction.copy()
    final = _final_contract(auction, contract, dealer)
    if final is None:
        if play is not None:
            raise IllegalPlayError("the deal was passed out, so there is no play to record")
        if tricks is not None:
            raise NotationError(
                f"the deal was passed out, so no one took tricks (got a count of {tricks!r})"
            )
        return PlayedDeal(played_board, None, None, auction, None, rules)
    if play is not None:
        played = _replay(deal, final, play, tricks)
        if played.deal != deal:  # the play gave the hands (no deal was given)
            played_board = replace(played_board, deal=played.deal)
        return PlayedDeal(played_board, final, played.declarer_tricks, auction, played, rules)
    if tricks is None:
        raise NotationError(f"{final} needs its play or the tricks declarer took (0 to 13)")
    result = Result(final, tricks)  # validates the count
    return PlayedDeal(played_board, final, result.tricks, auction, None, rules)


def _final_contract(
    auction: Auction | None, contract: Contract | str | None, dealer: Seat
) -> Contract | None:
    """The contract the auction reached, checked against ``contract`` when both are given."""
    stated: Contract | None = None
    passed = False
    if isinstance(contract, str):
        if means_passed_out(contract):
            passed = True
        else:
            stated = Contract.parse(contract)
    elif contract is not None:
        stated = contract
    if auction is None:
        if passed:
            return None
        if stated is None:
            raise NotationError("a played deal needs its auction or its contract")
        if stated.declarer is None:
            raise NotationError(f"contract {stated} has no declarer: write it as '{stated}S'")
        return stated
    if auction.dealer != dealer:
        raise NotationError(
            f"the auction starts with {auction.dealer.name.capitalize()} but the dealer is "
            f"{dealer.name.capitalize()}"
        )
    if not auction.is_complete:
        raise NotationError(
            f"the auction {auction.format()!r} is not finished: "
            "it needs three passes after the last call (or four passes)"
        )
    reached = auction.contract
    if passed and reached is not None:
        raise NotationError(f"contract says passed out, but the auction reached {reached}")
    if stated is not None:
        expected = (
            stated
            if stated.declarer is not None
            else stated.with_declarer(None if reached is None else reached.declarer)
        )
        if reached != expected:
            raise NotationError(
                f"contract {stated} disagrees with the auction, which reached "
                f"{'a pass-out' if reached is None else reached}"
            )
    return reached


def _replay(
    deal: Deal | None,
    contract: Contract,
    play: Play | Iterable[Card | str] | str,
    tricks: int | None,
) -> Play:
    if isinstance(play, Play):
        if play.contract != contract:
            raise IllegalPlayError(
                f"the play is in {play.contract}, but the contract is {contract}"
            )
        if deal is not None and play.deal != deal:
            raise IllegalPlayError("the play is of another deal")
        played = play.copy()
    else:
        if deal is None:
            raise NotationError("replaying the cards needs the deal")
        played = Play(deal, contract, play)
    if not played.is_complete:
        if tricks is None:
            raise IllegalPlayError(
                f"the play stops after {len(played.cards)} card(s): give the tricks "
                "declarer took in all to settle the rest"
            )
        won = played.declarer_tricks
        left = 13 - len(played.cards) // 4
        if not won <= tricks <= won + left:
            raise IllegalPlayError(
                f"declarer cannot take {tricks} trick(s): {won} won in play and {left} left"
            )
        played.claim(tricks - won)
    elif tricks is not None and tricks != played.declarer_tricks:
        raise IllegalPlayError(
            f"a count of {tricks} tricks disagrees with the play, in which declarer took "
            f"{played.declarer_tricks}"
        )
    return played


# -- PBN -------------------------------------------------------------
