"""PBN games as board records, and board records as PBN games.

:class:`FileReader` gives the tags of :mod:`~bridgescore.formats.pbn.syntax`
their meaning, once, for every command: the Board, Dealer, Vulnerable and Deal
tags (taken from the game before when a game leaves out all four, as
publishers write a board's second table), players, teams, table and room, the
Auction with its notes, the Play (read into the order the cards were played),
Contract, Declarer, Result, the file's scores and double-dummy tags; every
other tag is kept as a note and written back by :func:`record_pairs`.

Some publishers leave the opening passes out of the Auction section. When the
calls as written reach a declarer other than the Declarer tag's (or, without
one, other than the Play tag's opening leader's right-hand opponent), and
restoring one to three opening passes reconciles them, doubled or not
(:func:`~bridgescore.formats.pbn.tags.restore_opening_passes`), the reader
restores them before anything else reads the auction, and says so once per file:
the restored auction is the only one, so declarer, the opening lead and whose
turn it is in the Play all follow from it. A Contract tag that lost the
auction's double is then the one problem :mod:`bridgescore.formats.check` reports.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from bridgescore.core import Contract, Seat, Side, Strain, Vulnerability
from bridgescore.deal import Card, Deal
from bridgescore.errors import BridgeError, RecordError
from bridgescore.formats.pbn.syntax import (
    PbnGame,
    TagPair,
    Token,
    note_number,
    split_annotations,
    tag_rows,
)
from bridgescore.formats.pbn.tags import (
    BOARD_TAGS,
    GAME_TAGS,
    READ_TAGS,
    SEAT_LETTERS,
    SECTIONS,
    UNKNOWN,
    expand_all_pass,
    restore_opening_passes,
)
from bridgescore.formats.record import (
    PLAIN_CALLS,
    SCORE_TAGS,
    BoardRecord,
    Problem,
    RecordedCall,
    Source,
    Traveller,
    TravellerRow,
)
from bridgescore.formats.words import (
    PLAIN_CARDS,
    call_text,
    card_of,
    contract_of,
    deal_of,
    winning_position,
)
from bridgescore.play import Trick

__all__ = ["FileReader", "play_tricks", "record_pairs"]

_SEAT_TAGS = ("North", "East", "South", "West")
# A cell of a table row: a quoted string (which may hold spaces) or a word.
_CELL_RE = re.compile(r'"([^"]*)"|(\S+)')
_RESULT_RE = re.compile(r"(?:(NS|EW)\s+)?([0-9]{1,9})(?:\s+(?:NS|EW)\s+[0-9]{1,9})?", re.I)


def _seat_of(text: str) -> Seat:
    # The seat letters first; the full parser also takes names and spaces, and
    # raises the clear error.
    seat = SEAT_LETTERS.get(text)
    return seat if seat is not None else Seat.parse(text)


def play_tricks(cards: Iterable[Card], leader: Seat, trump: Strain) -> Iterator[Trick]:
    """The tricks of cards given in the order played, the winner of each leading the next."""
    current: list[Card] = []
    for card in cards:
        current.append(card)
        if len(current) == 4:
            trick = Trick(leader, tuple(current), trump)
            yield trick
            assert trick.winner is not None
            leader = trick.winner
            current = []
    if current:
        yield Trick(leader, tuple(current), trump)


class _GameReader:
    """Reads one :class:`PbnGame` into a :class:`BoardRecord`."""

    def __init__(self, game: PbnGame, source: Source, previous: BoardRecord | None) -> None:
        self.game = game
        self.source = source
        self.previous = previous
        self.problems: list[Problem] = list(game.problems)
        self.used_notes: set[str] = set()
        self.card_lines: list[int] = []
        self.call_lines: list[int] = []
        self.restored = 0  # the opening passes the file left out, restored

    def problem(self, name: str, message: str, line: int | None = None) -> None:
        self.problems.append(Problem(self.game.line_of(name) if line is None else line, message))

    def value(self, name: str) -> str | None:
        value = self.game.tags.get(name)
        return None if value is None or value.strip() in UNKNOWN else value.strip()

    def read(self) -> BoardRecord:
        tags = self.game.tags
        for pair in self.game.pairs:
            if pair.rows and pair.name not in SECTIONS and not pair.name.endswith("Table"):
                self.problem(
                    pair.name,
                    f"unexpected {pair.rows[0][0].text!r} after the {pair.name} tag: "
                    "only Auction, Play and tables have lines of their own",
                    pair.rows[0][0].line,
                )
        inherit = self.previous is not None and not any(name in tags for name in BOARD_TAGS)
        if inherit and self.previous is not None:
            board, dealer = self.previous.board, self.previous.dealer
            vulnerability, deal = self.previous.vulnerability, self.previous.deal
        else:
            board = self.board()
            dealer = self.seat("Dealer")
            vulnerability = self.vulnerability()
            deal = self.deal()
        auction, auction_seat = self.auction()
        if dealer is None and auction_seat is not None:
            dealer = auction_seat
        elif auction_seat is not None and dealer is not None and auction_seat != dealer:
            self.problem(
                "Auction",
                f'[Auction "{auction_seat.letter}"] starts with {auction_seat.name.capitalize()}, '
                f"but the dealer is {dealer.name.capitalize()}",
            )
            auction = None  # whose calls they are is unknown
        contract, passed_out = self.contract()
        result = self.result(contract)
        reached = None
        if auction and dealer is not None:
            # Opening passes the file left out are restored first: the restored
            # auction is the only one, so declarer and the opening lead follow from it.
            self.restored, reached = restore_opening_passes(
                auction, dealer, contract, self.play_leader()
            )
            if self.restored:
                auction = (PLAIN_CALLS["Pass"],) * self.restored + auction
                self.call_lines[:0] = [0] * self.restored  # passes with no line in the file
        play = self.play(reached or contract)
        claim = result if play is None or len(play) < 52 else None
        room = self.value("Room")
        if room is not None and room.lower() not in ("open", "closed"):
            self.problem("Room", f"Room {room!r} is not a room: expected Open or Closed")
            room = None
        return BoardRecord(
            board=board,
            dealer=dealer,
            vulnerability=vulnerability,
            deal=deal,
            players=(
                self.value("North") or "",
                self.value("East") or "",
                self.value("South") or "",
                self.value("West") or "",
            ),
            event=self.value("Event") or "",
            home_team=self.value("HomeTeam") or "",
            visit_team=self.value("VisitTeam") or "",
            table=self.value("Table") or "",
            room=None if room is None else room.lower(),
            auction=auction,
            play=play,
            claim=claim,
            contract=contract,
            passed_out=passed_out,
            result=result,
            adjusted=result is not None and (self.value("Result") or "").startswith("^"),
            scores=tuple((name, tags[name]) for name in SCORE_TAGS if self.value(name) is not None),
            dd_tricks=self.value("DoubleDummyTricks") or "",
            optimum_score=self.value("OptimumScore") or "",
            notes=self.notes(),
            source=Source(
                self.source.file,
                self.source.line,
                self.source.record,
                tuple(self.game.tag_lines),
                tuple(self.game.tag_lines.values()),
                tuple(self.card_lines),
                tuple(self.call_lines),
            ),
            problems=tuple(sorted(self.problems, key=lambda problem: problem.line)),
            traveller=self.traveller(),
        ).with_match_from_notes()

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

    def seat(self, name: str) -> Seat | None:
        text = self.value(name)
        if text is None:
            return None
        try:
            return _seat_of(text)
        except BridgeError as error:
            self.problem(name, f"{name} tag: {error}")
            return None

    def vulnerability(self) -> Vulnerability | None:
        text = self.value("Vulnerable")
        if text is None:
            return None
        try:
            return Vulnerability.from_pbn(text)
        except BridgeError as error:
            self.problem("Vulnerable", f"Vulnerable tag: {error}")
            return None

    def deal(self) -> Deal | None:
        text = self.value("Deal")
        if text is None:
            return None
        try:
            return deal_of(text)
        except BridgeError as error:
            self.problem("Deal", f"Deal tag: {error}")
            return None

    def auction(self) -> tuple[tuple[RecordedCall, ...] | None, Seat | None]:
        pair = self.game.section("Auction")
        if pair is None:
            return None, None
        try:
            first = _seat_of(pair.value)
        except BridgeError as error:
            self.problem("Auction", f"Auction: {error}")
            return None, None
        notes = self.game.notes
        calls: list[RecordedCall] = []
        for token, marks in split_annotations(pair.tokens):
            explanation, alerted = "", False
            for mark in marks:
                number = note_number(mark)
                if number is None:
                    continue
                alerted = True
                self.used_notes.add(number)
                if number in notes:
                    explanation = notes[number]
                else:
                    self.problem("Note", f'note {mark} has no [Note "{number}:..."]', token.line)
            word = token.text
            if not word or word.startswith("^"):
                continue  # an irregularity mark (PBN 3.9): the calls themselves follow
            if word in ("*", "-"):
                break  # the rest of the auction is not given
            if word.upper() == "AP":
                expand_all_pass(calls)
                break
            try:
                text = call_text(word)
            except BridgeError as error:
                self.problem("Auction", f"Auction: {error}", token.line)
                break
            calls.append(RecordedCall(text, alerted, explanation))
            self.call_lines.append(token.line)
        # The passes "AP" stands for have no line of their own.
        self.call_lines.extend([0] * (len(calls) - len(self.call_lines)))
        return tuple(calls), first

    def contract(self) -> tuple[Contract | None, bool]:
        text = self.value("Contract")
        if text is None:
            return None, False
        if text.upper() == "PASS":
            return None, True
        try:
            contract = Contract.parse(text)
        except BridgeError as error:
            self.problem("Contract", f"Contract: {error}")
            return None, False
        declarer = self.value("Declarer")
        if declarer is None:
            return contract, False
        try:
            # A leading ^ marks declarer and dummy swapped by an irregularity (PBN 3.9).
            return contract.with_declarer(_seat_of(declarer.removeprefix("^"))), False
        except BridgeError as error:
            self.problem("Declarer", f"Declarer: {error}")
            return contract, False

    def result(self, contract: Contract | None) -> int | None:
        text = self.value("Result")
        if text is None:
            return None
        bare = text.removeprefix("^").strip()
        match = _RESULT_RE.fullmatch(bare)
        if match is None or not 0 <= int(match[2]) <= 13:
            self.problem("Result", f"Result {text!r} is not a trick count 0-13 (or 'NS n')")
            return None
        tricks = int(match[2])
        if match[1]:
            declarer = None if contract is None else contract.declarer
            if declarer is None:
                self.problem("Result", f"Result {text!r} names a side, but no declarer is known")
                return None
            if Side.parse(match[1]) != declarer.side:
                tricks = 13 - tricks
        return tricks

    def play_leader(self) -> Seat | None:
        """The opening leader the Play tag names (``None``: no Play, or no seat:
        :meth:`play` reports it)."""
        pair = self.game.section("Play")
        if pair is None:
            return None
        try:
            return _seat_of(pair.value)
        except BridgeError:
            return None

    def play(self, contract: Contract | None) -> tuple[Card, ...] | None:
        """The cards of the Play section in the order played, in ``contract`` (the one
        the calls reach, else the Contract tag's)."""
        pair = self.game.section("Play")
        if pair is None:
            return None
        try:
            first = _seat_of(pair.value)
        except BridgeError as error:
            self.problem("Play", f"Play: {error}")
            return None
        if contract is None:
            self.problem("Play", "the Play section needs the contract's strain to be read")
            return None
        trump = contract.strain
        declarer = contract.declarer
        if declarer is not None and first != declarer.lho:
            self.problem(
                "Play",
                f'[Play "{pair.value}"] names the opening leader {first.name.capitalize()}, but '
                f"declarer {declarer.name.capitalize()}'s left-hand opponent leads",
            )
            return None
        cells: list[Token | None] = []
        for token, _ in split_annotations(pair.tokens):
            text = token.text
            if text == "*":
                break  # the rest of the play is not given
            if not text or text[0] == "^":
                continue
            cells.append(None if text == "-" else token)
        cards: list[Card] = []
        lines = self.card_lines
        start_seat = int(first)
        leader = start_seat  # seats as ints here: this loop runs for every card
        for start in range(0, len(cells), 4):
            row = cells[start : start + 4]
            whole = [cell for cell in row if cell is not None]
            found = [PLAIN_CARDS.get(cell.text) for cell in whole]
            known = [card for card in found if card is not None]
            if len(known) == 4:
                # A whole trick of plainly written cards, the common case: read in one go.
                turn = leader - start_seat
                played = [known[(turn + steps) % 4] for steps in range(4)]
                cards.extend(played)
                lines.extend(whole[(turn + steps) % 4].line for steps in range(4))
                leader = (leader + winning_position(played, trump)) % 4
                continue
            trick: list[Card] = []
            for steps in range(4):
                index = (leader + steps - start_seat) % 4
                cell = row[index] if index < len(row) else None
                if cell is None:
                    break
                try:
                    trick.append(card_of(cell.text))
                except BridgeError as error:
                    self.problem("Play", f"Play: {error}", cell.line)
                    return tuple(cards + trick)
                lines.append(cell.line)
            cards.extend(trick)
            if len(trick) < 4:
                break
            leader = (leader + winning_position(trick, trump)) % 4
        return tuple(cards)

    def traveller(self) -> Traveller | None:
        """The ScoreTable: column names (``PairId_NS\\2R``: the name before the
        width) and rows of cells; the tag itself is also kept as a note."""
        pair = self.game.section("ScoreTable")
        if pair is None:
            return None
        columns = tuple(part.split("\\")[0].strip() for part in pair.value.split(";"))
        rows = []
        for row in pair.rows:
            # The tokens split a quoted cell at its spaces: read the line's words again.
            words = _CELL_RE.findall(" ".join(token.text for token in row))
            cells = tuple(_cell(quoted or bare) for quoted, bare in words)
            rows.append(TravellerRow(cells, row[0].line))
        return Traveller(pair.value, columns, tuple(rows))

    def notes(self) -> tuple[tuple[str, str], ...]:
        kept: list[tuple[str, str]] = []
        for pair in self.game.pairs:
            if pair.name == "Note" and pair.value.partition(":")[0].strip() in self.used_notes:
                continue  # read into the calls' explanations
            if pair.name in READ_TAGS and pair.name != "Note":
                continue
            value = pair.value
            if value.strip() in UNKNOWN and not pair.rows:
                continue  # "?" and "" say the value is unknown: nothing to keep
            if pair.rows:
                # Sections of other tags (tables) are kept line by line.
                value = "\n".join(
                    [value, *(" ".join(token.text for token in row) for row in pair.rows)]
                )
            kept.append((pair.name, value))
        return tuple(kept)


def _cell(text: str) -> str:
    return "" if text == "-" else text  # "-": the cell is empty


def _auction_contract(calls: Iterable[RecordedCall], dealer: Seat) -> Contract | None:
    """The contract the calls name when they end the auction, else ``None`` (their
    legality is checked later, by :mod:`bridgescore.formats.check`)."""
    return contract_of((call.call for call in calls), dealer)[1]


class FileReader:
    """What the records of one file share: the record before (whose board tags a
    second table takes), their count, and whether restored passes were said."""

    def __init__(self, file: str | None) -> None:
        self.file = file
        self.previous: BoardRecord | None = None
        self.number = 0
        self.reconciled = 0

    def game_record(self, game: PbnGame) -> BoardRecord | None:
        """The record of a game read by the full reader (``None``: a header game)."""
        if not game.problems and not GAME_TAGS.intersection(game.tags):
            return None
        self.number += 1
        reader = _GameReader(game, Source(self.file, game.line, self.number), self.previous)
        return self.done(reader.read(), reader.restored)

    def done(self, record: BoardRecord, restored: int) -> BoardRecord:
        """The record, said to have its opening passes restored (``restored``: how many)
        if it is the file's first such, kept as the record before the next one."""
        if restored:
            if self.reconciled == 0:
                record = record.with_problems(
                    [
                        Problem(
                            record.source.line_of("Auction"),
                            "this file leaves out the opening passes: they are restored "
                            "where the Declarer tag or the opening lead needs them "
                            "(said once per file)",
                            notice=True,
                        )
                    ]
                )
            self.reconciled += 1
        self.previous = record
        return record


# -- writing ------------------------------------------------------------------


def record_pairs(record: BoardRecord) -> list[TagPair]:
    """The tag pairs of a record, for :func:`~bridgescore.formats.pbn.syntax.format_game`."""
    values: dict[str, str] = {}
    if record.event:
        values["Event"] = record.event
    values["Board"] = "?" if record.board is None else str(record.board)
    for seat, name in zip(Seat, _SEAT_TAGS, strict=True):
        if record.players[seat]:
            values[name] = record.players[seat]
    if record.dealer is not None:
        values["Dealer"] = record.dealer.letter
    if record.vulnerability is not None:
        values["Vulnerable"] = record.vulnerability.to_pbn()
    if record.deal is not None:
        values["Deal"] = record.deal.to_pbn(record.dealer or Seat.NORTH)
    contract = record.contract
    if contract is not None and contract.declarer is not None:
        values["Declarer"] = contract.declarer.letter
    if record.passed_out:
        values["Contract"] = "Pass"
    elif contract is not None:
        values["Contract"] = contract.to_pbn()
    result = record.result if record.result is not None else record.claim
    if result is not None:
        values["Result"] = ("^" if record.adjusted else "") + str(result)
    for name, value in (
        ("HomeTeam", record.home_team),
        ("VisitTeam", record.visit_team),
        ("Table", record.table),
        ("Room", (record.room or "").capitalize()),
        *record.scores,
        ("DoubleDummyTricks", record.dd_tricks),
        ("OptimumScore", record.optimum_score),
    ):
        if value:
            values[name] = value
    pairs = [TagPair.build(name, value) for name, value in values.items()]
    for name, value in record.notes_with_match:
        first, *rows = value.split("\n")
        pairs.append(TagPair.build(name, first, [row.split() for row in rows if row.split()]))
    if record.auction is not None:
        pairs.extend(_auction_pairs(record))
    if record.play is not None:
        pairs.append(_play_pair(record))
    return pairs


def _auction_pairs(record: BoardRecord) -> list[TagPair]:
    assert record.auction is not None
    words: list[str] = []
    notes: list[TagPair] = []
    for call in record.auction:
        words.append(call.call)
        if call.alerted:
            notes.append(TagPair.build("Note", f"{len(notes) + 1}:{call.explanation}"))
            words.append(f"={len(notes)}=")
    dealer = record.dealer_or_board or Seat.NORTH
    return [TagPair.build("Auction", dealer.letter, tag_rows(words)), *notes]


def _play_pair(record: BoardRecord) -> TagPair:
    assert record.play is not None
    contract = record.contract
    dealer = record.dealer_or_board
    if contract is None and record.auction is not None and dealer is not None:
        contract = _auction_contract(record.auction, dealer)
    if contract is None or contract.declarer is None:
        raise RecordError("the play cannot be written in PBN without the contract and its declarer")
    first = contract.declarer.lho
    rows: list[list[str]] = []
    for trick in play_tricks(record.play, first, contract.strain):
        row = ["-"] * 4
        for seat, card in trick.seats():
            row[(seat - first) % 4] = str(card)
        rows.append(row)
    if len(record.play) < 52:
        rows.append(["*"])
    return TagPair.build("Play", first.letter, rows)
