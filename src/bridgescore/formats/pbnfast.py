"""PBN games written plainly, read from their lines straight into board records.

Most games in real files are written plainly: one tag pair a line with no
escaped characters, calls and cards as plain words, alerts as note references
(``=1=``), no comments. :func:`read_plain_game` reads such a game in one pass
over its lines into the :class:`BoardRecord` the full reader
(:func:`bridgescore.formats.pbn.read_games`, then
:mod:`bridgescore.formats.pbnrecord`) gives, without building the tag pairs and
tokens in between. At anything else (a comment, an annotation, a value the full
reader would report as a problem) it declines with ``None``, and the game goes
to the full reader, which says what is wrong and where. The two give equal
records: ``tests/test_formats_fastpaths.py`` checks it on generated and mutated
games.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from operator import itemgetter

from bridgescore.core import Contract, Seat, Vulnerability
from bridgescore.deal import Card, Deal
from bridgescore.errors import BridgeError
from bridgescore.formats.record import SCORE_TAGS, BoardRecord, RecordedCall, Source
from bridgescore.formats.words import (
    PLAIN_CARDS,
    call_text,
    card_of,
    contract_of,
    deal_of,
    winning_position,
)

__all__ = [
    "BOARD_TAGS",
    "GAME_TAGS",
    "READ_TAGS",
    "SEAT_LETTERS",
    "SECTIONS",
    "UNKNOWN",
    "expand_all_pass",
    "read_plain_game",
]

UNKNOWN = ("", "?")
"""Tag values that say the value is unknown."""
SECTIONS = ("Auction", "Play")
"""The tags whose section lines are calls and cards."""
BOARD_TAGS = ("Board", "Dealer", "Vulnerable", "Deal")
"""The tags a board's second table may leave out, to take them from the game before."""
GAME_TAGS = frozenset(
    {"Board", "Deal", "Dealer", "Auction", "Play", "Contract", "Result", "Declarer"}
)
"""A game with none of these (nor a problem) is a header, whose tags later games inherit."""
READ_TAGS = frozenset(
    {
        *BOARD_TAGS,
        "North",
        "East",
        "South",
        "West",
        "Event",
        "HomeTeam",
        "VisitTeam",
        "Table",
        "Room",
        "Auction",
        "Play",
        "Contract",
        "Declarer",
        "Result",
        "Note",
        "DoubleDummyTricks",
        "OptimumScore",
        *SCORE_TAGS,
    }
)
"""Tags a record reads into fields of its own; any other tag is kept as a note."""

SEAT_LETTERS: Mapping[str, Seat] = {seat.letter: seat for seat in Seat} | {
    seat.letter.lower(): seat for seat in Seat
}
"""The seat letters as files write them, looked up before the full parser."""

# One tag pair alone on its line (as pbn.read_games reads it in one go).
_PLAIN_TAG = re.compile(r'\[([A-Za-z0-9_]+) "((?:[^"\\]|\\.)*)"\]\s*$')
_ESCAPE = re.compile(r'\\(["\\])')
_NOTE = re.compile(r"=([0-9]+)=$")
# Calls written as they are written back: read without a call.
_CANONICAL_CALLS = {
    text: text
    for text in (
        "Pass",
        "X",
        "XX",
        *(f"{level}{strain}" for level in range(1, 8) for strain in ("C", "D", "H", "S", "NT")),
    )
}
# The four cards of a Play row in the order played, when the trick's leader sits
# in column 0, 1, 2 or 3 (the columns are seats from the opening leader).
_FROM_COLUMN = tuple(
    itemgetter(column, (column + 1) % 4, (column + 2) % 4, (column + 3) % 4) for column in range(4)
)

# Values met over and over in a file, read once each: vulnerabilities and the
# contracts with their declarers. Only values read without an error are kept.
_VULNERABILITIES: dict[str, Vulnerability] = {}
_CONTRACTS: dict[tuple[str, Seat | None], Contract] = {}
_TABLE_LIMIT = 2048


class _NotPlain(Exception):
    """The game is not written plainly: the full reader reads it."""


def expand_all_pass(calls: list[RecordedCall]) -> None:
    """Append the passes ``AP`` (all pass) stands for: passes until the auction ends."""
    if not any(call.call != "Pass" for call in calls):
        calls.extend(RecordedCall("Pass") for _ in range(4 - len(calls)))
        return
    trailing = 0
    for call in reversed(calls):
        if call.call != "Pass":
            break
        trailing += 1
    calls.extend(RecordedCall("Pass") for _ in range(3 - trailing))


_Rows = list[tuple[list[str], int]]  # the words of each section line, with the line's number
_NO_ROWS: _Rows = []  # the section of a tag that has none (shared, never added to)


def read_plain_game(
    lines: Sequence[str],
    start: int,
    end: int,
    previous_tags: Mapping[str, str],
    previous: BoardRecord | None,
    source: Source,
) -> tuple[dict[str, str], BoardRecord | None] | None:
    """Read ``lines[start:end]`` (one game, no blank line; line ``start`` is line
    ``start + 1`` of the file) when it is written plainly.

    ``previous_tags`` are the tags ``#`` copies, ``previous`` the record before
    (for a second table's board tags) and ``source`` the file and the record's
    number; the game's line and tag lines are filled in here. Returns the game's
    tags and its record (``None``: a header game, no board), or ``None`` when the
    game is not plain and the full reader must read it.

    >>> lines = ['[Board "1"]', '[Contract "3NT"]', '[Declarer "S"]', '[Result "9"]']
    >>> tags, record = read_plain_game(lines, 0, len(lines), {}, None, Source())
    >>> record.board, str(record.contract), record.result, record.source.line
    (1, '3NTS', 9, 1)
    >>> read_plain_game(['[Board "1"] {a comment}'], 0, 1, {}, None, Source()) is None
    True
    """
    try:
        return _read(lines, start, end, previous_tags, previous, source)
    except _NotPlain:
        return None


def _read(
    lines: Sequence[str],
    start: int,
    end: int,
    previous_tags: Mapping[str, str],
    previous: BoardRecord | None,
    source: Source,
) -> tuple[dict[str, str], BoardRecord | None]:
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    pairs: list[tuple[str, str, _Rows]] = []
    rows: _Rows | None = None  # the section lines of the last tag, once it has one
    plain_tag = _PLAIN_TAG.match
    for index in range(start, end):
        text = lines[index]
        first = text[:1]
        if first == "[":
            match = plain_tag(text)
            if match is None:
                raise _NotPlain
            name, value = match.groups()
            if "\\" in value:
                # Only \" and \\ are escapes; other backslashes (table formats) stay.
                value = _ESCAPE.sub(r"\1", value)
            if value == "#":
                # Tag value inheritance: "#" repeats the previous game's value.
                inherited = previous_tags.get(name)
                if inherited is None:
                    raise _NotPlain
                value = inherited
            if name not in tags:
                tags[name] = value
                tag_lines[name] = index + 1
            elif name != "Note":
                raise _NotPlain  # a repeated tag: reported by the full reader
            rows = None
            pairs.append((name, value, _NO_ROWS))
        elif first == "%":
            continue  # a directive
        elif not pairs or "[" in text or "{" in text or ";" in text:
            raise _NotPlain  # a word before any tag, a tag after words, a comment
        else:
            if rows is None:
                # Most tags have no section: its list is made at its first line.
                name, value, _ = pairs[-1]
                rows = []
                pairs[-1] = (name, value, rows)
            rows.append((text.split(), index + 1))
    if not GAME_TAGS.intersection(tags):
        return tags, None
    return tags, _Game(tags, tag_lines, pairs, previous, source).record()


class _Game:
    """One plain game's tags read into a record, as pbnrecord's reader reads them."""

    __slots__ = (
        "card_lines",
        "pairs",
        "previous",
        "source",
        "tag_lines",
        "tags",
        "used_notes",
        "values",
    )

    def __init__(
        self,
        tags: dict[str, str],
        tag_lines: dict[str, int],
        pairs: list[tuple[str, str, _Rows]],
        previous: BoardRecord | None,
        source: Source,
    ) -> None:
        self.tags = tags
        # The values given, stripped; a value "" or "?" says it is unknown.
        values: dict[str, str] = {}
        for name, value in tags.items():
            value = value.strip()
            if value not in UNKNOWN:
                values[name] = value
        self.values = values
        self.tag_lines = tag_lines
        self.pairs = pairs
        self.previous = previous
        self.source = source
        self.used_notes: set[str] = set()
        self.card_lines: list[int] = []

    def record(self) -> BoardRecord:
        tags, values = self.tags, self.values
        sections: dict[str, tuple[str, _Rows]] = {}
        for name, value, rows in self.pairs:
            if name in SECTIONS:
                sections.setdefault(name, (value, rows))
            elif name == "ScoreTable":
                raise _NotPlain  # the full reader reads it into the record's traveller
            elif rows and not name.endswith("Table"):
                raise _NotPlain  # words after a tag that has no section
        previous = self.previous
        if previous is not None and not any(name in tags for name in BOARD_TAGS):
            board, dealer = previous.board, previous.dealer
            vulnerability, deal = previous.vulnerability, previous.deal
        else:
            board = self.board()
            dealer = self.seat(values.get("Dealer"))
            vulnerability = self.vulnerability()
            deal = self.deal()
        auction: tuple[RecordedCall, ...] | None = None
        if "Auction" in sections:
            auction_seat, auction = self.auction(*sections["Auction"])
            if dealer is None:
                dealer = auction_seat
            elif auction_seat is not dealer:
                raise _NotPlain  # the calls are another seat's: a problem
        contract, passed_out = self.contract()
        result = self.result()
        play = None
        if "Play" in sections:
            play = self.play(*sections["Play"], contract, auction, dealer)
        room = values.get("Room")
        if room is not None:
            room = room.lower()
            if room not in ("open", "closed"):
                raise _NotPlain
        source = self.source
        return BoardRecord(
            board=board,
            dealer=dealer,
            vulnerability=vulnerability,
            deal=deal,
            players=(
                values.get("North") or "",
                values.get("East") or "",
                values.get("South") or "",
                values.get("West") or "",
            ),
            event=values.get("Event") or "",
            home_team=values.get("HomeTeam") or "",
            visit_team=values.get("VisitTeam") or "",
            table=values.get("Table") or "",
            room=room,
            auction=auction,
            play=play,
            claim=result if play is None or len(play) < 52 else None,
            contract=contract,
            passed_out=passed_out,
            result=result,
            scores=tuple((name, tags[name]) for name in SCORE_TAGS if values.get(name) is not None),
            dd_tricks=values.get("DoubleDummyTricks") or "",
            optimum_score=values.get("OptimumScore") or "",
            notes=self.notes(),
            source=Source(
                source.file,
                next(iter(self.tag_lines.values())),
                source.record,
                tuple(self.tag_lines.items()),
                tuple(self.card_lines),
            ),
        ).with_match_from_notes()

    def board(self) -> int | None:
        text = self.values.get("Board")
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

    def vulnerability(self) -> Vulnerability | None:
        text = self.values.get("Vulnerable")
        if text is None:
            return None
        vulnerability = _VULNERABILITIES.get(text)
        if vulnerability is None:
            try:
                vulnerability = Vulnerability.from_pbn(text)
            except BridgeError:
                raise _NotPlain from None
            if len(_VULNERABILITIES) < _TABLE_LIMIT:
                _VULNERABILITIES[text] = vulnerability
        return vulnerability

    def deal(self) -> Deal | None:
        text = self.values.get("Deal")
        if text is None:
            return None
        try:
            return deal_of(text)
        except BridgeError:
            raise _NotPlain from None

    def notes_by_number(self) -> dict[str, str]:
        notes: dict[str, str] = {}
        for name, value, _ in self.pairs:
            if name == "Note":
                number, _, text = value.partition(":")
                notes.setdefault(number.strip(), text)
        return notes

    def auction(self, value: str, rows: _Rows) -> tuple[Seat, tuple[RecordedCall, ...]]:
        first = SEAT_LETTERS.get(value)
        if first is None:
            raise _NotPlain
        calls: list[RecordedCall] = []
        words = [(word, line) for row, line in rows for word in row]
        for index, (word, line) in enumerate(words):
            text = _CANONICAL_CALLS.get(word)
            if text is not None:
                calls.append(RecordedCall(text, False, "", line))
                continue
            if word[0] == "=":
                # A note on the call before: that call is alerted and explained.
                match = _NOTE.match(word)
                if match is None or not calls or index == 0:
                    raise _NotPlain
                number = match[1]
                self.used_notes.add(number)
                explanation = self.notes_by_number().get(number)
                if explanation is None:
                    raise _NotPlain  # a note that is not there: a problem
                last = calls[-1]
                calls[-1] = RecordedCall(last.call, True, explanation, last.line)
                continue
            if word[0] in "$!?^" or word[-1] in "!?":
                raise _NotPlain  # annotations and irregularities
            if word in ("*", "-") or word.upper() == "AP":
                if index + 1 < len(words) and words[index + 1][0][0] in "=$!?":
                    raise _NotPlain  # a note on the end of the auction
                if word.upper() == "AP":
                    expand_all_pass(calls)
                break  # the auction ends here, or the rest is not given
            try:
                text = call_text(word)
            except BridgeError:
                raise _NotPlain from None
            calls.append(RecordedCall(text, False, "", line))
        return first, tuple(calls)

    def contract(self) -> tuple[Contract | None, bool]:
        text = self.values.get("Contract")
        if text is None:
            return None, False
        if text.upper() == "PASS":
            return None, True
        declarer = self.seat(self.values.get("Declarer"))
        contract = _CONTRACTS.get((text, declarer))
        if contract is None:
            try:
                contract = Contract.parse(text)
            except BridgeError:
                raise _NotPlain from None
            if declarer is not None:
                contract = contract.with_declarer(declarer)
            if len(_CONTRACTS) < _TABLE_LIMIT:
                _CONTRACTS[(text, declarer)] = contract
        return contract, False

    def result(self) -> int | None:
        text = self.values.get("Result")
        if text is None:
            return None
        # Plain digits only: "NS 10" and "^10" (adjusted) are the full reader's.
        if not (text.isascii() and text.isdigit()) or len(text) > 2 or int(text) > 13:
            raise _NotPlain
        return int(text)

    def play(
        self,
        value: str,
        rows: _Rows,
        contract: Contract | None,
        auction: tuple[RecordedCall, ...] | None,
        dealer: Seat | None,
    ) -> tuple[Card, ...]:
        first = SEAT_LETTERS.get(value)
        if first is None:
            raise _NotPlain
        if auction is not None and dealer is not None:
            contract = contract_of([call.call for call in auction], dealer)[1] or contract
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
        plain = PLAIN_CARDS.get
        # Rows of four plainly written cards, one trick each, the common case: the
        # columns are seats from the opening leader, and the trick's leader comes first.
        done = 0
        for words, line in rows:
            if len(words) != 4:
                break
            one, two = plain(words[0]), plain(words[1])
            three, four = plain(words[2]), plain(words[3])
            if one is None or two is None or three is None or four is None:
                break
            turn = (leader - start_seat) % 4
            played = _FROM_COLUMN[turn]((one, two, three, four))
            cards.extend(played)
            lines.extend((line, line, line, line))
            leader = (leader + winning_position(played, trump)) % 4
            done += 1
        # Anything else from there on cell by cell, as the full reader reads it.
        cells: list[tuple[str, int] | None] = []
        for words, line in rows[done:]:
            for word in words:
                if word == "*":
                    break
                if word[0] in "=$!?^" or word[-1] in "!?":
                    raise _NotPlain
                cells.append(None if word == "-" else (word, line))
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
        kept: list[tuple[str, str]] = []
        used = self.used_notes
        for name, value, rows in self.pairs:
            if name == "Note":
                if value.partition(":")[0].strip() in used:
                    continue  # read into the calls' explanations
            elif name in READ_TAGS:
                continue
            if not rows:
                if value.strip() in UNKNOWN:
                    continue  # "?" and "" say the value is unknown: nothing to keep
                kept.append((name, value))
            else:
                # Sections of other tags (tables) are kept line by line.
                kept.append((name, "\n".join([value, *(" ".join(words) for words, _ in rows)])))
        return tuple(kept)
