"""PBN games with their auction and play: read, check against the tags, write.

:func:`read_played_games` streams the games of a PBN file and rebuilds each
one's contract and declarer from its Auction section and its tricks from its
Play section (through :func:`bridgescore.game.play_deal`), then checks them
against the Contract, Declarer, Result and Score tags, reporting every
disagreement with its line number. :func:`played_deal_pairs` writes a played
deal back out as PBN tag pairs for the strict writer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from bridgescore.auction import Auction, Call
from bridgescore.core import Contract, Seat, Side, Vulnerability, dealer_of_board
from bridgescore.deal import Deal
from bridgescore.errors import BridgeError
from bridgescore.game import PlayedDeal
from bridgescore.pbn import (
    PbnGame,
    Problem,
    TagPair,
    Token,
    note_number,
    read_games,
    split_annotations,
    tag_rows,
)
from bridgescore.play import Play

__all__ = ["PlayedGame", "played_deal_pairs", "read_played_games"]


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A PBN game read as a played deal: the game, its :class:`PlayedDeal` (``None``
    when it cannot be scored) and every problem, the reader's included."""

    game: PbnGame
    played: PlayedDeal | None
    problems: tuple[Problem, ...]

    @property
    def board(self) -> str | None:
        return self.game.tags.get("Board")


# At most 9 digits: int() refuses over 4,300, and no bridge score has 5.
_SCORE_RE = re.compile(r"^(?:(?P<side>NS|EW)\s+)?(?P<score>[+-]?[0-9]{1,9})$", re.I)
_BOTH_SCORES_RE = re.compile(r"^NS\s+(?P<ns>[+-]?[0-9]{1,9})\s+EW\s+(?P<ew>[+-]?[0-9]{1,9})$", re.I)
_UNKNOWN = ("", "?")
_SECTIONS = ("Auction", "Play")
_GAME_TAGS = frozenset({"Board", "Deal", "Dealer", "Auction", "Play", "Contract", "Result"})


class _Reader:
    """Turns one PbnGame into a PlayedDeal, collecting problems as it goes."""

    def __init__(self, game: PbnGame) -> None:
        self.game = game
        self.problems: list[Problem] = list(game.problems)

    def problem(self, name: str, message: str, line: int | None = None) -> None:
        self.problems.append(Problem(self.game.line_of(name) if line is None else line, message))

    def value(self, name: str) -> str | None:
        value = self.game.tags.get(name)
        return None if value is None or value.strip() in _UNKNOWN else value.strip()

    def run(self) -> PlayedGame:
        played = self.build()
        problems = tuple(sorted(self.problems, key=lambda problem: problem.line))
        return PlayedGame(self.game, played, problems)

    def build(self) -> PlayedDeal | None:
        for pair in self.game.pairs:
            if pair.rows and pair.name not in _SECTIONS and not pair.name.endswith("Table"):
                self.problem(
                    pair.name,
                    f"unexpected {pair.rows[0][0].text!r} after the {pair.name} tag: "
                    "only Auction, Play and tables have lines of their own",
                    pair.rows[0][0].line,
                )
        board = self.board()
        dealer = self.seat("Dealer", None if board is None else dealer_of_board(board))
        vulnerability = self.vulnerability(board)
        deal = self.deal()
        if dealer is None or vulnerability is None:
            return None
        auction = self.auction(dealer)
        known, contract = self.contract(auction)
        if not known:
            return None
        if contract is None:
            return PlayedDeal(deal, dealer, vulnerability, None, None, board, auction)
        tricks, adjusted = self.result_tag(contract)
        play = self.play(deal, contract, None if adjusted else tricks)
        if play is not None and play.is_complete and not adjusted:
            if tricks is not None and tricks != play.declarer_tricks:
                self.problem(
                    "Result",
                    f"Result {tricks} disagrees with the play, in which declarer "
                    f"took {play.declarer_tricks}",
                )
            tricks = play.declarer_tricks
        if tricks is None:
            self.problem("Result", f"no result for {contract}: expected a Result tag or the play")
            return None
        played = PlayedDeal(deal, dealer, vulnerability, contract, tricks, board, auction, play)
        self.check_score(played)
        return played

    def board(self) -> int | None:
        text = self.value("Board")
        if text is None:
            return None
        # isascii(): isdigit() also accepts '²', which int() refuses; and int()
        # refuses over 4,300 digits.
        if not (text.isascii() and text.isdigit()) or len(text) > 9 or int(text) < 1:
            self.problem("Board", f"Board {text!r} is not a board number 1, 2, ...")
            return None
        return int(text)

    def seat(self, name: str, default: Seat | None) -> Seat | None:
        text = self.value(name)
        if text is None:
            if default is None:
                self.problem(name, f"no {name} tag and no board number to take it from")
            return default
        try:
            return Seat.parse(text)
        except BridgeError as error:
            self.problem(name, f"{name}: {error}")
            return default

    def vulnerability(self, board: int | None) -> Vulnerability | None:
        text = self.value("Vulnerable")
        if text is None:
            if board is None:
                self.problem("Vulnerable", "no Vulnerable tag and no board number to take it from")
                return None
            return Vulnerability.from_board(board)
        try:
            return Vulnerability.from_pbn(text)
        except BridgeError as error:
            self.problem("Vulnerable", f"Vulnerable: {error}")
            return None

    def deal(self) -> Deal | None:
        text = self.value("Deal")
        if text is None:
            return None
        try:
            return Deal.from_pbn(text)
        except BridgeError as error:
            self.problem("Deal", f"Deal: {error}")
            return None

    def auction(self, dealer: Seat) -> Auction | None:
        pair = self.game.section("Auction")
        if pair is None:
            return None
        try:
            first = Seat.parse(pair.value)
        except BridgeError as error:
            self.problem("Auction", f"Auction: {error}")
            return None
        if first != dealer:
            self.problem(
                "Auction",
                f'[Auction "{pair.value}"] starts with {first.name.capitalize()}, '
                f"but the dealer is {dealer.name.capitalize()}",
            )
            return None
        auction = Auction(dealer)
        notes = self.game.notes
        for token, marks in split_annotations(pair.tokens):
            self.check_notes(marks, notes, token.line)
            word = token.text
            if not word or word.startswith("^"):
                continue  # an irregularity mark (PBN 3.9): the calls themselves follow
            if word in ("*", "-"):
                break  # the rest of the auction is not given
            try:
                if word.upper() == "AP":
                    auction.extend("AP")
                else:
                    auction.append(Call.parse(word))
            except BridgeError as error:
                self.problem("Auction", f"Auction: {error}", token.line)
                break
        return auction

    def check_notes(self, marks: tuple[str, ...], notes: Mapping[str, str], line: int) -> None:
        for mark in marks:
            number = note_number(mark)
            if number is not None and number not in notes:
                self.problem("Note", f'note {mark} has no [Note "{number}:..."]', line)

    def contract(self, auction: Auction | None) -> tuple[bool, Contract | None]:
        """Whether the contract is known, and the contract (``None``: passed out)."""
        known, stated = self.stated_contract()
        if auction is not None and auction.is_complete:
            reached = auction.contract
            if known and stated != reached:
                shown = "Pass" if stated is None else str(stated)
                self.problem(
                    "Contract",
                    f"Contract/Declarer say {shown}, but the auction reached "
                    f"{'a pass-out' if reached is None else reached}",
                )
            return True, reached
        if not known:
            self.problem(
                "Contract",
                "no contract: expected a complete Auction or Contract and Declarer tags",
            )
        return known, stated

    def stated_contract(self) -> tuple[bool, Contract | None]:
        text = self.value("Contract")
        if text is None:
            return False, None
        if text.upper() == "PASS":
            return True, None
        try:
            contract = Contract.parse(text)
        except BridgeError as error:
            self.problem("Contract", f"Contract: {error}")
            return False, None
        declarer = self.value("Declarer")
        if declarer is None:
            self.problem("Declarer", f"Contract {text} has no Declarer tag")
            return False, None
        try:
            # A leading ^ marks declarer and dummy swapped by an irregularity (PBN 3.9).
            seat = Seat.parse(declarer.removeprefix("^"))
        except BridgeError as error:
            self.problem("Declarer", f"Declarer: {error}")
            return False, None
        return True, contract.with_declarer(seat)

    def result_tag(self, contract: Contract) -> tuple[int | None, bool]:
        """Declarer's tricks from the Result tag, and whether a leading ``^`` marks
        them as differing from the tricks won in play (an adjusted result)."""
        text = self.value("Result")
        if text is None:
            return None, False
        adjusted = text.startswith("^")
        text = text.removeprefix("^").strip()
        match = re.fullmatch(r"(?:(NS|EW)\s+)?([0-9]{1,3})(?:\s+(NS|EW)\s+([0-9]+))?", text, re.I)
        if match is None or not 0 <= int(match[2]) <= 13:
            self.problem("Result", f"Result {text!r} is not a trick count 0-13 (or 'NS n')")
            return None, False
        tricks = int(match[2])
        assert contract.declarer is not None
        if match[1] and Side.parse(match[1]) != contract.declarer.side:
            tricks = 13 - tricks
        return tricks, adjusted

    def play(self, deal: Deal | None, contract: Contract, tricks: int | None) -> Play | None:
        pair = self.game.section("Play")
        if pair is None:
            return None
        if deal is None:
            self.problem("Play", "the Play section needs a valid Deal tag to be checked")
            return None
        play = Play(deal, contract)
        try:
            first = Seat.parse(pair.value)
        except BridgeError as error:
            self.problem("Play", f"Play: {error}")
            return None
        if first != play.opening_leader:
            self.problem(
                "Play",
                f'[Play "{pair.value}"] names the opening leader {first.name.capitalize()}, but '
                f"declarer {play.declarer.name.capitalize()}'s left-hand opponent leads",
            )
            return None
        words: list[Token] = []
        for token, _ in split_annotations(pair.tokens):
            if token.text == "*":
                break  # the rest of the play is not given
            if token.text and not token.text.startswith("^"):
                words.append(token)
        stopped = False
        for start in range(0, len(words), 4):
            columns = words[start : start + 4]
            leader = play.next_seat
            if leader is None:
                self.problem("Play", "cards after the 13th trick", columns[0].line)
                break
            for steps in range(4):
                seat = leader.rotate(steps)
                index = (seat - first) % 4
                word = columns[index] if index < len(columns) else None
                if word is None or word.text == "-":
                    stopped = True
                    continue
                if stopped:
                    self.problem("Play", f"{word.text} follows a missing card", word.line)
                    return play
                try:
                    play.play(word.text)
                except BridgeError as error:
                    self.problem("Play", f"Play: {error}", word.line)
                    return None
            if stopped:
                break
        if not play.is_complete and tricks is not None:
            won = play.declarer_tricks
            left = 13 - len(play.cards) // 4
            if won <= tricks <= won + left:
                play.claim(tricks - won)
            else:
                self.problem(
                    "Result",
                    f"Result {tricks} is impossible after the play: declarer won {won} "
                    f"trick(s) with {left} left",
                )
        return play

    def check_score(self, played: PlayedDeal) -> None:
        text = self.value("Score")
        if text is None:
            return
        both = _BOTH_SCORES_RE.match(text)
        match = _SCORE_RE.match(text)
        if both is not None:
            ns_score = int(both["ns"])
            if int(both["ew"]) != -ns_score:
                self.problem("Score", f"Score {text!r}: the NS and EW scores do not balance")
        elif match is not None:
            value = int(match["score"])
            side = match["side"]
            if side is None:
                # A bare number is the declaring side's score.
                declarer = played.declarer
                side = "NS" if declarer is None or declarer.side is Side.NS else "EW"
            ns_score = value if side.upper() == "NS" else -value
        else:
            self.problem("Score", f"Score {text!r} is not a score such as 'NS 620' or 'EW 100'")
            return
        if ns_score != played.score:
            self.problem(
                "Score",
                f"Score {text!r} disagrees with {played.result}, which scores "
                f"{played.score:+d} for NS",
            )


def read_played_games(source: Iterable[str] | str) -> Iterator[PlayedGame]:
    """Read PBN games as played deals, lazily, checking each against itself.

    Contract and declarer are rebuilt from the auction and the tricks from the
    play where they are given; every disagreement with the tags, every illegal
    call or card and every unreadable tag becomes a :class:`Problem` with its
    line, and reading goes on with the next game. A game with none of the tags
    Board, Deal, Dealer, Auction, Play, Contract and Result (a header of Event,
    Site and the like, whose values later games inherit with ``#``) is skipped.
    """
    for game in read_games(source):
        if not game.problems and not _GAME_TAGS.intersection(game.tags):
            continue  # a header of Event, Site and the like, for the games after it
        yield _Reader(game).run()


def played_deal_pairs(played: PlayedDeal, tags: Mapping[str, str] | None = None) -> list[TagPair]:
    """The tag pairs of a played deal for :func:`format_game`.

    ``tags`` adds or overrides other tags (Event, Site, players...). The Score tag
    is North-South's score (``NS 620``, ``NS -100``).
    """
    contract = played.contract
    values = {
        "Board": "?" if played.board is None else str(played.board),
        "Dealer": played.dealer.letter,
        "Vulnerable": played.vulnerability.to_pbn(),
        "Deal": "?" if played.deal is None else played.deal.to_pbn(played.dealer),
        "Declarer": ""
        if contract is None or contract.declarer is None
        else contract.declarer.letter,
        "Contract": "Pass" if contract is None else contract.to_pbn(),
        "Result": "" if played.tricks is None else str(played.tricks),
        **(tags or {}),
    }
    pairs = [TagPair.build(name, value) for name, value in values.items()]
    pairs.append(TagPair.build("Score", f"NS {played.score}"))
    if played.auction is not None:
        calls = [str(call) for call in played.auction.calls]
        pairs.append(TagPair.build("Auction", played.auction.dealer.letter, tag_rows(calls)))
    if played.play is not None:
        pairs.append(_play_pair(played.play))
    return pairs


def _play_pair(play: Play) -> TagPair:
    first = play.opening_leader
    rows: list[list[str]] = []
    for trick in play.tricks_played():
        row = ["-"] * 4
        for seat, card in trick.seats():
            row[(seat - first) % 4] = str(card)
        rows.append(row)
    if play.is_claimed or len(play.cards) < 52:
        rows.append(["*"])
    return TagPair.build("Play", first.letter, rows)
