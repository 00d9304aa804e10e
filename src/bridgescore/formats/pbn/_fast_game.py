"""The fast path's second half: one plainly written game's tags, found by
:mod:`._fast`, read into its :class:`BoardRecord` as :mod:`.records` reads them.
Anything the full reader would read otherwise, or report, raises :class:`_NotPlain`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import chain, compress, count, repeat
from operator import attrgetter, itemgetter
from typing import NamedTuple

from bridgescore.core import Contract, Seat, Vulnerability
from bridgescore.deal import Card, Deal
from bridgescore.errors import BridgeError
from bridgescore.formats.pbn.tags import (
    SEAT_LETTERS,
    UNKNOWN,
    all_pass_count,
    restored_passes,
)
from bridgescore.formats.record import (
    PLAIN_CALLS,
    BoardRecord,
    RecordedCall,
    Source,
    alerted_call,
    slot_maker,
)
from bridgescore.formats.words import (
    PLAIN_CARDS,
    call_text,
    card_of,
    deal_of,
    winning_position,
)

_NOTE = re.compile(r"=([0-9]+)=$")
# The four cards of a Play row in the order played, when the trick's leader sits
# in column 0, 1, 2 or 3 (the columns are seats from the opening leader).
_FROM_COLUMN = tuple(
    itemgetter(column, (column + 1) % 4, (column + 2) % 4, (column + 3) % 4) for column in range(4)
)

# Lines of four words each (a trick of a Play section, or what looks like one).
# (Possessive, as _ITEM below: blanks and words never take from each other.)
_FULL_ROWS = re.compile(r"(?:[^\S\n]*+\S++[^\S\n]++\S++[^\S\n]++\S++[^\S\n]++\S++[^\S\n]*+\n)*+")

# Values met over and over in a file, read once each: vulnerabilities and the
# contracts with their declarers. Only values read without an error are kept.
_VULNERABILITIES: dict[str, Vulnerability] = {}
_CONTRACTS: dict[tuple[str, Seat | None], Contract] = {}
TABLE_LIMIT = 2048

# Records and their sources made from every field's value, in order (see slot_maker).
_make_record = slot_maker(BoardRecord)
_make_source = slot_maker(Source)


class _NotPlain(Exception):
    """The game is not written plainly: the full reader reads it."""


_PASS = PLAIN_CALLS["Pass"]
_PLAIN_CALL_WORDS = frozenset(PLAIN_CALLS)
_CALL_TEXT = attrgetter("call")

_Rows = list[tuple[list[str], int]]  # the words of each section line, with the line's number


class _Layout(NamedTuple):
    """What a game's tag names alone say, worked out once for each sequence of names:
    a file writes its thousands of games in a few such sequences."""

    names: tuple[str, ...]
    """The tags' names."""
    header: bool
    """No game tag: a header game, whose tags the games after it copy."""
    first_note: int
    """Where the first of several Notes is (-1: no name repeats)."""
    keep: tuple[bool, ...]
    """Which tags are kept as notes."""
    fields: Callable[[tuple[str | None, ...]], tuple[str | None, ...]]
    """The values of the tags in :data:`RECORD_FIELDS` from the values in the tags' order
    with None after them (the value of a tag the game has not)."""
    auction: int
    """Where the Auction tag is (-1: none); :attr:`play` the same for Play."""
    play: int
    scored: tuple[tuple[str, int], ...]
    """The score tags the game has, with where each is."""
    board_tags: bool
    """Whether the game gives one of its board's tags (else they are the game's before)."""
    match: bool
    """Whether it has a match header kept as a note."""
    odd: bool
    """Whether it has a tag the full reader reads otherwise (a ScoreTable)."""


def _rows(section: str, line: int) -> _Rows:
    """The words of each line of a tag's section, with their line numbers (the
    tag is on ``line``)."""
    return [(text.split(), number) for number, text in enumerate(section.splitlines(), line + 1)]


class _Game:
    """One plain game's tags read into a record, as :mod:`.records` reads them."""

    __slots__ = (
        "call_lines",
        "card_lines",
        "file",
        "kept",
        "kept_sections",
        "number",
        "previous",
        "restored",
        "tag_names",
        "tag_numbers",
        "used_notes",
    )

    def __init__(
        self,
        tag_lines: tuple[tuple[str, ...], tuple[int, ...]],
        kept: tuple[tuple[tuple[str, str], ...], tuple[str, ...] | None],
        previous: BoardRecord | None,
        source: tuple[str | None, int],
    ) -> None:
        self.tag_names, self.tag_numbers = tag_lines
        # The kept tags as (name, value) pairs, and their sections' texts (None:
        # none has a section, nor a value to strip or leave out).
        self.kept, self.kept_sections = kept
        self.previous = previous
        self.file, self.number = source  # the file and the record's number in it
        self.used_notes: set[str] = set()
        self.card_lines: list[int] = []
        self.call_lines: list[int] = []
        self.restored = 0

    def record(
        self,
        layout: _Layout,
        values: tuple[str | None, ...],
        given: tuple[str, ...],
        texts: tuple[str, ...],
        starts: list[int],
    ) -> BoardRecord:
        """The record of the game's ``values`` (see :class:`_Layout`), its values as
        ``given``, its tags' sections' ``texts`` and their lines."""
        (
            board_text,
            dealer_text,
            vulnerable,
            deal_text,
            north,
            east,
            south,
            west,
            event,
            home_team,
            visit_team,
            table,
            room,
            contract_text,
            declarer,
            result_text,
            dd_tricks,
            optimum_score,
        ) = layout.fields(values)
        previous = self.previous
        if previous is not None and not layout.board_tags:
            board, dealer = previous.board, previous.dealer
            vulnerability, deal = previous.vulnerability, previous.deal
        else:
            board = self.board(board_text)
            dealer = self.seat(dealer_text)
            vulnerability = self.vulnerability(vulnerable)
            deal = self.deal(deal_text)
        auction: tuple[RecordedCall, ...] | None = None
        words: list[str] | None = None
        if layout.auction >= 0:
            at = layout.auction
            # (The section's lines as written, each ending with its line break.)
            auction_seat, auction, words = self.auction(given[at], texts[at][1:] + "\n", starts[at])
            if dealer is None:
                dealer = auction_seat
            elif auction_seat is not dealer:
                raise _NotPlain  # the calls are another seat's: a problem
        contract, passed_out = self.contract(contract_text, declarer)
        result = self.result(result_text)
        reached = None
        play_at = layout.play
        # (An auction that starts with a pass has its opening passes; without a Play,
        # the contract it reaches is not needed here.)
        if auction and words and dealer is not None and (play_at >= 0 or words[0] != "Pass"):
            # Opening passes the file left out are restored first: the restored
            # auction is the only one, so declarer and the opening lead follow from it.
            leader = SEAT_LETTERS.get(given[play_at]) if play_at >= 0 else None
            self.restored, reached = restored_passes(words, dealer, contract, leader)
            if self.restored:
                auction = (PLAIN_CALLS["Pass"],) * self.restored + auction
                self.call_lines[:0] = [0] * self.restored  # passes with no line in the file
        play = None
        if play_at >= 0:
            # The Play is read in the contract the calls name, else the Contract tag's.
            play = self.play(
                given[play_at], texts[play_at][1:] + "\n", starts[play_at], reached or contract
            )
        if room is not None:
            room = room.lower()
            if room not in ("open", "closed"):
                raise _NotPlain
        record = _make_record(
            board,
            dealer,
            vulnerability,
            deal,
            (north or "", east or "", south or "", west or ""),
            event or "",
            home_team or "",
            visit_team or "",
            table or "",
            room,
            auction,
            play,
            result if play is None or len(play) < 52 else None,  # the claim
            contract,
            passed_out,
            result,
            False,  # adjusted: plain results are the play's
            # The score tags the game has (and knows), as given.
            tuple((name, given[at]) for name, at in layout.scored if values[at] is not None),
            dd_tricks or "",
            optimum_score or "",
            self.notes(),
            _make_source(
                self.file,
                self.tag_numbers[0],
                self.number,
                self.tag_names,
                self.tag_numbers,
                tuple(self.card_lines),
                tuple(self.call_lines),
            ),
            (),  # problems: a plain game has none
            None,  # traveller: a game with a ScoreTable is the full reader's
            None,  # match: read from its note below
        )
        # (A match header kept as a note: looked for only when the game has that tag.)
        return record.with_match_from_notes() if layout.match else record

    @staticmethod
    def board(text: str | None) -> int | None:
        if text is None:
            return None
        if not (text.isascii() and text.isdigit()) or len(text) > 9 or int(text) < 1:
            raise _NotPlain
        return int(text)

    @staticmethod
    def seat(text: str | None) -> Seat | None:
        if text is None:
            return None
        seat = SEAT_LETTERS.get(text)
        if seat is None:
            raise _NotPlain  # a name, or no seat: the full reader's business
        return seat

    @staticmethod
    def vulnerability(text: str | None) -> Vulnerability | None:
        if text is None:
            return None
        vulnerability = _VULNERABILITIES.get(text)
        if vulnerability is None:
            try:
                vulnerability = Vulnerability.from_pbn(text)
            except BridgeError:
                raise _NotPlain from None
            if len(_VULNERABILITIES) < TABLE_LIMIT:
                _VULNERABILITIES[text] = vulnerability
        return vulnerability

    @staticmethod
    def deal(text: str | None) -> Deal | None:
        if text is None:
            return None
        try:
            return deal_of(text)
        except BridgeError:
            raise _NotPlain from None

    def notes_by_number(self) -> dict[str, str]:
        notes: dict[str, str] = {}
        for name, value in self.kept:
            if name == "Note":
                number, _, text = value.partition(":")
                notes.setdefault(number.strip(), text)
        return notes

    def auction(
        self, value: str, section: str, line: int
    ) -> tuple[Seat, tuple[RecordedCall, ...], list[str]]:
        """The seat that calls first, the calls, and the calls' canonical texts."""
        first = SEAT_LETTERS.get(value)
        if first is None:
            raise _NotPlain
        lines = self.call_lines
        # Each call's line: the lines' numbers, each repeated as many times as the line
        # has words (all in C: most auctions take this road).
        per_line = map(len, map(str.split, section.splitlines()))
        numbered = chain.from_iterable(map(repeat, count(line + 1), per_line))
        # Calls written canonically with no note, no annotation and no end mark, the
        # common case: each is the one shared value of that call.
        words = section.split()
        if _PLAIN_CALL_WORDS.issuperset(words):
            lines.extend(numbered)
            return first, tuple(map(PLAIN_CALLS.__getitem__, words)), words
        # Otherwise the plain calls are still looked up together (None for any other
        # word), and only the other words are read one by one: notes, AP, the end
        # marks, calls written otherwise ("1N", "p").
        found: list[RecordedCall | None] = list(map(PLAIN_CALLS.get, words))
        # The words that are plain calls, as bools: list.index finds the next other
        # word comparing bools in C (a RecordedCall compared with None would run its
        # dataclass __eq__, written in Python, once for every call before it).
        plain_calls = list(map(PLAIN_CALLS.__contains__, words))
        numbers = list(numbered)
        notes: dict[str, str] | None = None  # read at the first note
        end = len(words)
        at = 0
        while True:
            try:
                at = plain_calls.index(False, at)
            except ValueError:
                break
            word = words[at]
            before = found[at - 1] if at else None
            if word[0] == "=":
                # A note on the call before: that call is alerted and explained.
                match = _NOTE.match(word)
                if match is None or before is None:
                    raise _NotPlain  # (a note on a note, too: the full reader's)
                note = match[1]
                self.used_notes.add(note)
                if notes is None:
                    notes = self.notes_by_number()
                explanation = notes.get(note)
                if explanation is None:
                    raise _NotPlain  # a note that is not there: a problem
                found[at - 1] = alerted_call(before.call, explanation)
                at += 1
                continue
            if word[0] in "$!?^" or word[-1] in "!?":
                raise _NotPlain  # annotations and irregularities
            if word in ("*", "-") or word.upper() == "AP":
                if at + 1 < len(words) and words[at + 1][0] in "=$!?":
                    raise _NotPlain  # a note on the end of the auction
                end = at  # the auction ends here, or the rest is not given
                break
            try:
                found[at] = PLAIN_CALLS[call_text(word)]
            except BridgeError:
                raise _NotPlain from None
            at += 1
        calls: list[RecordedCall] = list(filter(None, found[:end]))  # (calls are true)
        lines.extend(compress(numbers[:end], found[:end]))
        texts = list(map(_CALL_TEXT, calls))
        if end < len(words) and words[end].upper() == "AP":
            # The passes "AP" (all pass) stands for, with no line of their own.
            added = all_pass_count(texts)
            calls.extend([_PASS] * added)
            texts.extend(["Pass"] * added)
            lines.extend([0] * added)
        return first, tuple(calls), texts

    def contract(self, text: str | None, declarer_text: str | None) -> tuple[Contract | None, bool]:
        if text is None:
            return None, False
        if text.upper() == "PASS":
            return None, True
        declarer = self.seat(declarer_text)
        contract = _CONTRACTS.get((text, declarer))
        if contract is None:
            try:
                contract = Contract.parse(text)
            except BridgeError:
                raise _NotPlain from None
            if declarer is not None:
                contract = contract.with_declarer(declarer)
            if len(_CONTRACTS) < TABLE_LIMIT:
                _CONTRACTS[(text, declarer)] = contract
        return contract, False

    @staticmethod
    def result(text: str | None) -> int | None:
        if text is None:
            return None
        # Plain digits only: "NS 10" and "^10" (adjusted) are the full reader's.
        if not (text.isascii() and text.isdigit()) or len(text) > 2 or int(text) > 13:
            raise _NotPlain
        return int(text)

    def play(
        self,
        value: str,
        section: str,
        line: int,
        contract: Contract | None,
    ) -> tuple[Card, ...]:
        """The cards of a Play section in the order played, in ``contract`` (the
        auction's, else the Contract tag's)."""
        first = SEAT_LETTERS.get(value)
        if first is None:
            raise _NotPlain
        if contract is None:
            raise _NotPlain  # no strain to read the play in: a problem
        declarer = contract.declarer
        if declarer is not None and first is not declarer.lho:
            raise _NotPlain
        trump = contract.strain
        cards: list[Card] = []
        lines = self.card_lines
        start_seat = int(first)
        leader = start_seat  # seats as ints: these loops run for every trick
        # Rows of four plainly written cards, one trick each, the common case: the
        # columns are seats from the opening leader, and the trick's leader comes first.
        # They are read together: the words of all such rows, then trick by trick.
        rows_found = _FULL_ROWS.match(section)
        full = rows_found[0] if rows_found is not None else ""
        done = full.count("\n")
        words = full.split()
        # (Looked up by key, not with get: "None in" a list of cards would call each
        # card's __eq__, written in Python, to compare it with None.)
        try:
            found = list(map(PLAIN_CARDS.__getitem__, words))
        except KeyError:
            # The rows before the first word that is not a plain card.
            plain = list(map(PLAIN_CARDS.get, words))
            done = next(index for index, card in enumerate(plain) if card is None) // 4
            found = plain[: done * 4]  # type: ignore[assignment]  # (no None before it)
        for at in range(0, done * 4, 4):
            played = _FROM_COLUMN[(leader - start_seat) % 4](found[at : at + 4])
            cards.extend(played)
            leader = (leader + winning_position(played, trump)) % 4
        numbers = range(line + 1, line + 1 + done)
        lines.extend(chain.from_iterable(zip(numbers, numbers, numbers, numbers)))
        # Anything else from there on cell by cell, as the full reader reads it.
        cells: list[tuple[str, int] | None] = []
        for words, row_line in _rows(section.split("\n", done)[-1], line + done):
            for word in words:
                if word == "*":
                    break
                if word[0] in "=$!?^" or word[-1] in "!?":
                    raise _NotPlain
                cells.append(None if word == "-" else (word, row_line))
            else:
                continue
            break  # "*": the rest of the play is not given
        for start in range(0, len(cells), 4):
            cut = cells[start : start + 4]
            trick: list[Card] = []
            for steps in range(4):
                index = (leader + steps - start_seat) % 4
                cell = cut[index] if index < len(cut) else None
                if cell is None:
                    break
                try:
                    trick.append(card_of(cell[0]))
                except BridgeError:
                    raise _NotPlain from None
                lines.append(cell[1])
            cards.extend(trick)
            if len(trick) < 4:
                break
            leader = (leader + winning_position(trick, trump)) % 4
        return tuple(cards)

    def notes(self) -> tuple[tuple[str, str], ...]:
        used = self.used_notes
        if self.kept_sections is None:
            if not used:
                return self.kept
            return tuple(
                (name, value)
                for name, value in self.kept
                if name != "Note" or value.partition(":")[0].strip() not in used
            )
        kept: list[tuple[str, str]] = []
        for (name, value), section in zip(self.kept, self.kept_sections):
            if name == "Note" and value.partition(":")[0].strip() in used:
                continue  # read into the calls' explanations
            if not section or section.isspace():
                if value.strip() in UNKNOWN:
                    continue  # "?" and "" say the value is unknown: nothing to keep
                kept.append((name, value))
            else:
                # Sections of other tags (tables) are kept line by line (a comment's
                # blank lines are no row).
                rows = [" ".join(row.split()) for row in section.splitlines()]
                kept.append((name, "\n".join([value, *(row for row in rows if row)])))
        return tuple(kept)
