"""Score a board record by the Laws and check it against what its file says.

:func:`check_record` rebuilds the contract and declarer from the auction, the
tricks from the play (and the claim), scores the result and lists every
disagreement with the file's own tags (Contract, Declarer, Result, Score,
OptimumScore), each with its line, so that each one is either the file's error
or ours. Where the auction and the Contract tag differ in their doubling alone
(an export that dropped the auction's X), that is the one disagreement, and the
contract is scored as the tag says.

>>> from bridgescore.formats.record import BoardRecord, RecordedCall
>>> calls = tuple(RecordedCall(c) for c in "1NT Pass 3NT Pass Pass Pass".split())
>>> checked = check_record(BoardRecord(board=1, auction=calls, result=9))
>>> str(checked.played.result), checked.played.score
('3NTN=', 400)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bridgescore.auction import Auction
from bridgescore.core import Contract, Doubling, Side
from bridgescore.ddtable import DDTable
from bridgescore.errors import BridgeError
from bridgescore.formats.record import BoardRecord, Problem
from bridgescore.formats.words import call_of
from bridgescore.game import PlayedDeal
from bridgescore.parscore import par
from bridgescore.play import Play

__all__ = ["CheckedRecord", "check_record"]

# At most 9 digits: int() refuses over 4,300, and no bridge score has 5.
_SCORE_RE = re.compile(r"^(?:(?P<side>NS|EW)\s+)?(?P<score>[+-]?[0-9]{1,9})$", re.I)
_BOTH_SCORES_RE = re.compile(r"^NS\s+(?P<ns>[+-]?[0-9]{1,9})\s+EW\s+(?P<ew>[+-]?[0-9]{1,9})$", re.I)


@dataclass(frozen=True, slots=True)
class CheckedRecord:
    """A record, its :class:`PlayedDeal` (``None`` when it cannot be scored) and every
    problem: the reader's and each disagreement with the file's own tags."""

    record: BoardRecord
    played: PlayedDeal | None
    problems: tuple[Problem, ...]

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of ``bridgescore game --json``."""
        record, played = self.record, self.played
        dealer = record.dealer
        vulnerability = record.vulnerability
        data: dict[str, Any] = {
            "board": record.board,
            "room": record.room,
            "dealer": None if dealer is None else dealer.letter,
            "vulnerable": None if vulnerability is None else vulnerability.to_pbn(),
            "deal": None if record.deal is None else record.deal.to_pbn(),
            "contract": None,
            "declarer": None,
            "tricks": None,
            "result": None,
            "score_ns": None,
        }
        if played is not None:
            summary = played.as_dict()
            for key in ("contract", "declarer", "tricks", "result", "score_ns"):
                data[key] = summary[key]
        data["problems"] = [
            {"line": problem.line, "message": _message(problem)} for problem in self.problems
        ]
        return data


def _message(problem: Problem) -> str:
    """The message, marked ``note:`` for a notice."""
    return f"note: {problem.message}" if problem.notice else problem.message


class _Checker:
    def __init__(self, record: BoardRecord) -> None:
        self.record = record
        self.problems: list[Problem] = list(record.problems)
        self.line = record.source.line

    def problem(self, message: str, tag: str | int = 0) -> None:
        """A problem on the line of ``tag`` (a tag name, or a line number)."""
        line = tag if isinstance(tag, int) else self.record.source.line_of(tag)
        self.problems.append(Problem(line or self.line, message))

    def run(self) -> CheckedRecord:
        played = self.build()
        if played is not None:
            self.check_scores(played)
        problems = tuple(sorted(self.problems, key=lambda problem: problem.line))
        return CheckedRecord(self.record, played, problems)

    def build(self) -> PlayedDeal | None:
        record = self.record
        dealer = record.dealer
        vulnerability = record.vulnerability
        if dealer is None:
            self.problem("no Dealer and no board number to take it from", "Dealer")
        if vulnerability is None:
            self.problem("no vulnerability and no board number to take it from", "Vulnerable")
        if dealer is None or vulnerability is None:
            return None
        board = record.as_board()  # a number, or the dealer and vulnerability stated
        auction = self.auction(dealer)
        known, contract = self.contract(auction)
        if not known:
            return None
        if contract is None:
            return PlayedDeal(board, None, None, auction)
        tricks = record.result
        if record.adjusted and tricks is not None:
            # An adjusted result stands whatever the play says (PBN's "^").
            return PlayedDeal(board, contract, tricks, auction)
        play = self.play(contract)
        if play is not None and play.is_complete and not play.is_claimed:
            if tricks is not None and tricks != play.declarer_tricks:
                self.problem(
                    f"Result {tricks} disagrees with the play, in which declarer "
                    f"took {play.declarer_tricks}",
                    "Result",
                )
            tricks = play.declarer_tricks
        elif play is not None and play.is_complete:
            tricks = play.declarer_tricks
        if tricks is None:
            self.problem(
                f"no result for {contract}: expected a Result, a claim or the play", "Result"
            )
            return None
        return PlayedDeal(board, contract, tricks, auction, play)

    def auction(self, dealer: Any) -> Auction | None:
        calls = self.record.auction
        if calls is None:
            return None
        auction = Auction(dealer)
        for index, call in enumerate(calls):
            try:
                auction.append(call_of(call.call))
            except BridgeError as error:
                self.problem(f"Auction: {error}", self.record.source.call_line(index))
                break
        return auction

    def contract(self, auction: Auction | None) -> tuple[bool, Contract | None]:
        record = self.record
        stated = record.contract
        known = record.passed_out or stated is not None
        if auction is not None and auction.is_complete:
            reached = auction.contract
            if record.passed_out and reached is not None:
                self.problem(
                    f"the file says passed out, but the auction reached {reached}", "Contract"
                )
            elif stated is not None:
                expected = (
                    stated
                    if stated.declarer is not None
                    else (stated.with_declarer(None if reached is None else reached.declarer))
                )
                doubling = _doubling_disagreement(expected, reached)
                if doubling is not None:
                    # Only the doubling differs (an export that dropped the auction's
                    # X): seat, level and strain agree, so this is the one thing to
                    # report, and the contract is scored as the file's tag names it,
                    # whether its opening passes were written or restored.
                    self.problem(
                        f"Contract/Declarer say {stated}, but the auction {doubling}: it "
                        f"reached {reached}; scored as the Contract tag says",
                        "Contract",
                    )
                    return True, expected
                if expected != reached:
                    self.problem(
                        f"Contract/Declarer say {stated}, but the auction reached "
                        f"{'a pass-out' if reached is None else reached}",
                        "Contract",
                    )
            return True, reached
        if stated is not None and stated.declarer is None:
            self.problem(f"Contract {stated.to_pbn()} has no declarer", "Declarer")
            return False, None
        if not known:
            self.problem(
                "no contract: expected a complete auction or Contract and Declarer", "Contract"
            )
        return known, stated

    def play(self, contract: Contract) -> Play | None:
        record = self.record
        if record.play is None:
            return None
        if record.deal is None:
            self.problem("the play needs the deal to be checked", "Play")
            return None
        play = Play(record.deal, contract)
        source = record.source
        for index, card in enumerate(record.play):
            if play.next_seat is None:
                self.problem("cards after the 13th trick", source.card_line(index))
                break
            try:
                play.play(card)
            except BridgeError as error:
                self.problem(f"Play: {error}", source.card_line(index))
                return None
        if not play.is_complete:
            total = record.claim if record.claim is not None else record.result
            if total is None:
                return None
            won = play.declarer_tricks
            left = 13 - len(play.cards) // 4
            if won <= total <= won + left:
                try:
                    play.claim(total - won)
                except BridgeError as error:
                    self.problem(f"claim: {error}", "Result")
                    return None
            else:
                self.problem(
                    f"declarer's total {total} is impossible after the play: "
                    f"{won} trick(s) won with {left} left",
                    "Result",
                )
                return None
        return play

    def check_scores(self, played: PlayedDeal) -> None:
        record = self.record
        text = record.score_tag("Score")
        if text is not None:
            ns_score = _ns_score(text, played)
            if ns_score is None:
                self.problem(f"Score {text!r} is not a score such as 'NS 620' or 'EW 100'", "Score")
            elif ns_score != played.score:
                self.problem(
                    f"the file's Score {text!r} disagrees with ours: {played.result} "
                    f"scores NS {played.score:+d}",
                    "Score",
                )
        if record.optimum_score and record.dd_tricks:
            self.check_optimum(played)

    def check_optimum(self, played: PlayedDeal) -> None:
        record = self.record
        try:
            table = DDTable.parse(record.dd_tricks)
        except BridgeError as error:
            self.problem(f"DoubleDummyTricks: {error}", "DoubleDummyTricks")
            return
        ns_optimum = _ns_score(record.optimum_score, None)
        if ns_optimum is None:
            self.problem(
                f"OptimumScore {record.optimum_score!r} is not a score like 'NS 620'",
                "OptimumScore",
            )
            return
        ours = par(table, played.vulnerability, dealer=played.dealer).score
        if ours != ns_optimum:
            self.problem(
                f"the file's OptimumScore {record.optimum_score!r} disagrees with the par "
                f"of its DoubleDummyTricks, NS {ours:+d}",
                "OptimumScore",
            )


def _doubling_disagreement(stated: Contract, reached: Contract | None) -> str | None:
    """What the auction has that the stated contract has not (``has the double``,
    ``has no redouble``...), when the two differ in their doubling alone; else ``None``.

    >>> _doubling_disagreement(Contract.parse("1NTS"), Contract.parse("1NTXS"))
    'has the double'
    >>> _doubling_disagreement(Contract.parse("4HXXW"), Contract.parse("4HXW"))
    'has no redouble'
    """
    if reached is None or reached.doubling == stated.doubling:
        return None
    if (reached.level, reached.strain, reached.declarer) != (
        stated.level,
        stated.strain,
        stated.declarer,
    ):
        return None
    if reached.doubling > stated.doubling:
        return f"has the {_DOUBLING_WORDS[reached.doubling]}"
    return f"has no {_DOUBLING_WORDS[stated.doubling]}"


_DOUBLING_WORDS = {Doubling.DOUBLED: "double", Doubling.REDOUBLED: "redouble"}


def _ns_score(text: str, played: PlayedDeal | None) -> int | None:
    both = _BOTH_SCORES_RE.match(text.strip())
    if both is not None:
        return int(both["ns"])
    match = _SCORE_RE.match(text.strip())
    if match is None:
        return None
    value = int(match["score"])
    side = match["side"]
    if side is None:
        # A bare number is the declaring side's score.
        declarer = None if played is None else played.declarer
        side = "NS" if declarer is None or declarer.side is Side.NS else "EW"
    return value if side.upper() == "NS" else -value


def check_record(record: BoardRecord) -> CheckedRecord:
    """Score ``record`` and list every problem and disagreement with its file's tags."""
    return _Checker(record).run()
