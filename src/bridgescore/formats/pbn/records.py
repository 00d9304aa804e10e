"""PBN games as board records, and board records as PBN games: the one set of tag rules.

Both scans of the grammar (the full one, :func:`~bridgescore.formats.pbn.syntax.read_games`,
and the fast one for games written plainly, :mod:`._fast`) give a game's tag pairs
in one form, :class:`GameTags`, and :class:`FileReader` reads that into a
:class:`BoardRecord`, once, for every command: the Board, Dealer, Vulnerable and
Deal tags (taken from the game before when a game leaves out all four, as
publishers write a board's second table), players, teams, table and room, the
Auction with its notes, the Play (read into the order the cards were played),
Contract, Declarer, Result, the file's scores and double-dummy tags; every other
tag is kept as a note and written back by :func:`record_pairs`. Every value a rule
cannot read is a problem on the record, with the line of its tag or word.

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
from collections.abc import Callable, Iterable, Iterator
from itertools import chain, compress, islice
from operator import attrgetter, itemgetter
from typing import NamedTuple, cast

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
    RECORD_FIELDS,
    SEAT_LETTERS,
    SECTIONS,
    UNKNOWN,
    all_pass_count,
    expand_all_pass,
    restored_passes,
)
from bridgescore.formats.record import (
    MATCH_NOTE,
    PLAIN_CALLS,
    SCORE_TAGS,
    BoardRecord,
    Problem,
    RecordedCall,
    Source,
    Traveller,
    TravellerRow,
    alerted_call,
    slot_maker,
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

__all__ = ["FileReader", "GameTags", "game_tags", "play_tricks", "record_pairs"]


class GameTags(NamedTuple):
    """One game's tag pairs as the grammar gives them, column by column (whichever
    scan found them): what :class:`FileReader` reads into a record.

    ``values`` have their escapes read and ``#`` replaced; a tag other than ``Note``
    is there once (its first time). Each tag's ``section`` is the text of its
    section lines, the first of them the tag's own line (what follows the tag
    there) and the others the lines after it, in order: so the words of the
    section's ``n``-th line are on line ``lines[i] + n`` (``""``: no section).
    """

    line: int
    """The game's first line."""
    names: tuple[str, ...]
    values: tuple[str, ...]
    lines: tuple[int, ...]
    sections: tuple[str, ...]
    problems: tuple[Problem, ...] = ()
    """The problems of the game's syntax (a malformed tag pair, a stray word)."""


def game_tags(game: PbnGame) -> GameTags:
    """The tag pairs of a game the full scan read, in the form the reader reads."""
    pairs = game.pairs
    return GameTags(
        game.line,
        tuple(pair.name for pair in pairs),
        tuple(pair.value for pair in pairs),
        tuple(pair.line for pair in pairs),
        tuple(map(_section_text, pairs)),
        game.problems,
    )


def _section_text(pair: TagPair) -> str:
    if not pair.rows:
        return ""
    # (Each row is the words of one line: a row's line is that of its first word.)
    lines = [""] * (pair.rows[-1][0].line - pair.line + 1)
    for row in pair.rows:
        lines[row[0].line - pair.line] = " ".join(token.text for token in row)
    return "\n".join(lines)


_SEAT_TAGS = ("North", "East", "South", "West")
# A cell of a table row: a quoted string (which may hold spaces) or a word.
_CELL_RE = re.compile(r'"([^"]*)"|(\S+)')
_RESULT_RE = re.compile(r"(?:(NS|EW)\s+)?([0-9]{1,9})(?:\s+(?:NS|EW)\s+[0-9]{1,9})?", re.I)
# The four cards of a Play row in the order played, when the trick's leader sits
# in column 0, 1, 2 or 3 (the columns are seats from the opening leader).
_FROM_COLUMN = tuple(
    itemgetter(column, (column + 1) % 4, (column + 2) % 4, (column + 3) % 4) for column in range(4)
)
_PASS = PLAIN_CALLS["Pass"]
_PLAIN_CALL_WORDS = frozenset(PLAIN_CALLS)
_CALL_TEXT = attrgetter("call")
_LINE = attrgetter("line")
_new_token = tuple.__new__  # (skips the named tuple's own __new__, a Python frame)

# Values met over and over in a file, read once each: vulnerabilities, and the
# contracts with their declarers. Only values read without a problem are kept.
_VULNERABILITIES: dict[str, Vulnerability] = {}
_CONTRACTS: dict[tuple[str, str | None], Contract] = {}
TABLE_LIMIT = 2048

# Records and their sources made from every field's value, in order (see slot_maker).
_make_record = slot_maker(BoardRecord)
_make_source = slot_maker(Source)


def _seat_of(text: str) -> Seat:
    # The seat letters first; the full parser also takes names and spaces, and
    # raises the clear error.
    seat = SEAT_LETTERS.get(text)
    return seat if seat is not None else Seat.parse(text)


def _seat_or_none(text: str) -> Seat | None:
    try:
        return _seat_of(text)
    except BridgeError:
        return None


def _has_words(section: str) -> bool:
    return bool(section) and not section.isspace()


def _word_lines(section: str, line: int) -> list[int]:
    """The line of each word of a section whose first line is ``line``. (A
    comprehension: quicker, for the few lines of a section, than chaining repeats.)"""
    return [number for number, row in enumerate(section.split("\n"), line) for _ in row.split()]


def _tokens(section: str, line: int) -> Iterator[Token]:
    """The words of a section with their lines."""
    words = section.split()
    return (_new_token(Token, pair) for pair in zip(words, _word_lines(section, line)))


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


class _Layout(NamedTuple):
    """What a game's tag names alone say, worked out once for each sequence of names:
    a file writes its thousands of games in a few such sequences."""

    header: bool
    """No game tag: without a problem, a header game, whose tags the games after it copy."""
    fields: Callable[[tuple[str | None, ...]], tuple[str | None, ...]]
    """The values of the tags in :data:`RECORD_FIELDS` from the values in the tags' order
    with None after them (the value of a tag the game has not)."""
    where: dict[str, int]
    """Where each tag is (the first of several Notes)."""
    keep: tuple[bool, ...]
    """Which tags are kept as notes (the Notes too, less those the calls read)."""
    kept: tuple[str, ...]
    """The names of the tags kept as notes, in order."""
    kept_notes: tuple[int, ...]
    """Where the Notes are among the tags kept as notes, last first."""
    pick_kept: Callable[[tuple[str, ...]], tuple[str, ...]] | None
    """The values (or sections) of the tags kept as notes, from all the game's in
    order (``None``: the game keeps none)."""
    lined: tuple[bool, ...]
    """Which tags may have section lines: Auction, Play and the tables."""
    scored: tuple[tuple[str, int], ...]
    """The score tags the game has, with where each is."""
    notes_at: tuple[int, ...]
    """Where each Note is."""
    scores: Callable[[tuple[str, ...]], tuple[tuple[str, str], ...]]
    """The score tags with their values, from the values in the tags' order (when no
    value is unknown: what a record keeps of them then)."""
    board_tags: bool
    """Whether the game gives one of its board's tags (else they are the game's before)."""
    first: Callable[[tuple[object, ...]], tuple[object, ...]] | None
    """The first of each name, when a name repeats (a Note), for the record's source."""


_LAYOUTS: dict[tuple[str, ...], _Layout] = {}
# The tags a record reads into fields of its own (a Note is kept, and read into
# the calls it explains).
_READ_ONLY = READ_TAGS - {"Note"}


def _layout_of(names: tuple[str, ...]) -> _Layout:
    """The layout of a game with tags ``names``, kept for the games after it."""
    layout = _LAYOUTS.get(names)
    if layout is not None:
        return layout
    where = {name: at for at, name in reversed(list(enumerate(names)))}  # the first of each
    where = dict(sorted(where.items(), key=itemgetter(1)))  # in the order first met
    missing = len(names)  # the None after the values
    kept = tuple(name for name in names if name not in _READ_ONLY)
    scored = tuple((name, where[name]) for name in SCORE_TAGS if name in where)
    layout = _Layout(
        header=not GAME_TAGS.intersection(names),
        fields=cast(
            Callable[[tuple[str | None, ...]], tuple[str | None, ...]],
            itemgetter(*[where.get(name, missing) for name in RECORD_FIELDS]),
        ),
        where=where,
        keep=tuple(name not in _READ_ONLY for name in names),
        kept=kept,
        kept_notes=tuple(at for at in reversed(range(len(kept))) if kept[at] == "Note"),
        pick_kept=cast(
            Callable[[tuple[str, ...]], tuple[str, ...]],
            _picker(tuple(at for at, name in enumerate(names) if name not in _READ_ONLY)),
        )
        if not _READ_ONLY.issuperset(names)
        else None,
        lined=tuple(name in SECTIONS or name.endswith("Table") for name in names),
        scored=scored,
        notes_at=tuple(at for at, name in enumerate(names) if name == "Note"),
        scores=_scores_of(scored),
        board_tags=not where.keys().isdisjoint(BOARD_TAGS),
        first=None if len(where) == len(names) else _picker(tuple(where.values())),
    )
    if len(_LAYOUTS) < TABLE_LIMIT:
        _LAYOUTS[names] = layout
    return layout


def _scores_of(
    scored: tuple[tuple[str, int], ...],
) -> Callable[[tuple[str, ...]], tuple[tuple[str, str], ...]]:
    """The function giving the ``scored`` tags' (name, value) pairs from the values."""
    if not scored:
        return lambda values: ()
    names = tuple(name for name, _ in scored)
    pick = cast(
        Callable[[tuple[str, ...]], tuple[str, ...]], _picker(tuple(at for _, at in scored))
    )
    return lambda values: tuple(zip(names, pick(values)))


def _picker(indexes: tuple[int, ...]) -> Callable[[tuple[object, ...]], tuple[object, ...]]:
    pick = itemgetter(*indexes)
    if len(indexes) == 1:
        return lambda items: (pick(items),)
    return cast(Callable[[tuple[object, ...]], tuple[object, ...]], pick)


class _GameReader:
    """Reads one game's tags into its :class:`BoardRecord`."""

    __slots__ = (
        "call_lines",
        "card_lines",
        "game",
        "layout",
        "previous",
        "problems",
        "restored",
        "used_notes",
    )

    def __init__(self, game: GameTags, layout: _Layout, previous: BoardRecord | None) -> None:
        self.game = game
        self.layout = layout
        self.previous = previous
        self.problems: list[Problem] = list(game.problems)
        self.used_notes: set[str] = set()
        self.card_lines: list[int] = []
        self.call_lines: list[int] = []
        self.restored = 0  # the opening passes the file left out, restored

    def problem(self, name: str, message: str, line: int | None = None) -> None:
        """A problem on the line of tag ``name`` (else the game's first line), or ``line``."""
        if line is None:
            at = self.layout.where.get(name)
            line = self.game.line if at is None else self.game.lines[at]
        self.problems.append(Problem(line, message))

    def read(self, file: str | None, number: int) -> BoardRecord:
        game, layout = self.game, self.layout
        given, sections = game.values, game.sections
        for at in compress(range(len(sections)), sections):
            if not layout.lined[at] and _has_words(sections[at]):
                word, line = next(_tokens(sections[at], game.lines[at]))
                self.problem(
                    game.names[at],
                    f"unexpected {word!r} after the {game.names[at]} tag: "
                    "only Auction, Play and tables have lines of their own",
                    line,
                )
        # The values as a record reads them, in the tags' order with None at the end
        # for the tags the game has not: stripped, and a value "" or "?" says it is
        # unknown (None). Most games have no such value, nor one with blanks around it.
        # (str.strip gives back the value itself when it has no blank to strip.)
        stripped = tuple(map(str.strip, given))
        as_given = stripped == given and "" not in given and "?" not in given
        if as_given:
            values: tuple[str | None, ...] = (*given, None)
        else:
            values = (*[None if value in UNKNOWN else value for value in stripped], None)
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
            declarer_text,
            result_text,
            dd_tricks,
            optimum_score,
        ) = layout.fields(values)
        previous = self.previous
        if previous is not None and not layout.board_tags:
            board, dealer = previous.board, previous.dealer_seat
            vulnerability, deal = previous.vulnerable, previous.deal
        else:
            board = self.board(board_text)
            dealer = self.seat("Dealer", dealer_text)
            vulnerability = self.vulnerability(vulnerable)
            deal = self.deal(deal_text)
        auction: tuple[RecordedCall, ...] | None = None
        words: list[str] = []
        where = layout.where
        auction_at = where.get("Auction", -1)
        if auction_at >= 0:
            auction_seat, auction, words = self.auction(
                given[auction_at], sections[auction_at], game.lines[auction_at]
            )
            if dealer is None:
                dealer = auction_seat
            elif auction_seat is not None and auction_seat is not dealer:
                self.problem(
                    "Auction",
                    f'[Auction "{auction_seat.letter}"] starts with '
                    f"{auction_seat.name.capitalize()}, "
                    f"but the dealer is {dealer.name.capitalize()}",
                )
                auction = None  # whose calls they are is unknown
        contract, passed_out = self.contract(contract_text, declarer_text)
        result = self.result(result_text, contract)
        reached = None
        play_at = where.get("Play", -1)
        # (An auction that starts with a pass has its opening passes; without a Play,
        # the contract it reaches is not needed here.)
        if auction and dealer is not None and (play_at >= 0 or words[0] != "Pass"):
            # Opening passes the file left out are restored first: the restored
            # auction is the only one, so declarer and the opening lead follow from it.
            # (A Play tag that names no seat names no leader: its own rule reports it.)
            leader = _seat_or_none(given[play_at]) if play_at >= 0 else None
            self.restored, reached = restored_passes(words, dealer, contract, leader)
            if self.restored:
                auction = (_PASS,) * self.restored + auction
                self.call_lines[:0] = [0] * self.restored  # passes with no line in the file
        play = None
        if play_at >= 0:
            # The Play is read in the contract the calls name, else the Contract tag's.
            play = self.play(
                given[play_at], sections[play_at], game.lines[play_at], reached or contract
            )
        if room is not None:
            lower = room.lower()
            if lower in ("open", "closed"):
                room = lower
            else:
                self.problem("Room", f"Room {room!r} is not a room: expected Open or Closed")
                room = None
        names, lines = game.names, game.lines
        if layout.first is not None:  # (a Note repeats: the first counts)
            names = cast(tuple[str, ...], layout.first(names))
            lines = cast(tuple[int, ...], layout.first(lines))
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
            result is not None and (result_text or "").startswith("^"),  # adjusted
            # The score tags the game has (and knows), as given.
            layout.scores(given)
            if as_given
            else tuple((name, given[at]) for name, at in layout.scored if values[at] is not None),
            dd_tricks or "",
            optimum_score or "",
            self.notes(as_given),
            _make_source(
                file,
                game.line,
                number,
                names,
                lines,
                tuple(self.card_lines),
                tuple(self.call_lines),
            ),
            tuple(sorted(self.problems, key=_LINE)) if self.problems else (),
            self.traveller() if "ScoreTable" in where else None,
            None,  # match: read from its note below
        )
        # (A match header kept as a note: looked for only when the game has that tag.)
        return record.with_match_from_notes() if MATCH_NOTE in where else record

    def board(self, text: str | None) -> int | None:
        if text is None:
            return None
        # isascii(): isdigit() also accepts '²', which int() refuses; and int()
        # refuses over 4,300 digits.
        if not (text.isascii() and text.isdigit()) or len(text) > 9 or int(text) < 1:
            self.problem("Board", f"Board {text!r} is not a board number 1, 2, ...")
            return None
        return int(text)

    def seat(self, name: str, text: str | None) -> Seat | None:
        if text is None:
            return None
        try:
            return _seat_of(text)
        except BridgeError as error:
            self.problem(name, f"{name} tag: {error}")
            return None

    def vulnerability(self, text: str | None) -> Vulnerability | None:
        if text is None:
            return None
        vulnerability = _VULNERABILITIES.get(text)
        if vulnerability is None:
            try:
                vulnerability = Vulnerability.from_pbn(text)
            except BridgeError as error:
                self.problem("Vulnerable", f"Vulnerable tag: {error}")
                return None
            if len(_VULNERABILITIES) < TABLE_LIMIT:
                _VULNERABILITIES[text] = vulnerability
        return vulnerability

    def deal(self, text: str | None) -> Deal | None:
        if text is None:
            return None
        try:
            return deal_of(text)
        except BridgeError as error:
            self.problem("Deal", f"Deal tag: {error}")
            return None

    def notes_by_number(self) -> dict[str, str]:
        """The ``Note`` tags as number -> text (the first of each number)."""
        notes: dict[str, str] = {}
        values = self.game.values
        for at in self.layout.notes_at:
            number, _, text = values[at].partition(":")
            notes.setdefault(number.strip(), text)
        return notes

    def auction(
        self, value: str, section: str, line: int
    ) -> tuple[Seat | None, tuple[RecordedCall, ...] | None, list[str]]:
        """The seat that calls first, the calls, and the calls' canonical texts."""
        try:
            first = _seat_of(value)
        except BridgeError as error:
            self.problem("Auction", f"Auction: {error}")
            return None, None, []
        words = section.split()
        lines = self.call_lines
        if _PLAIN_CALL_WORDS.issuperset(words):
            # Calls written canonically with no note, no annotation and no end mark,
            # the common case: each is the one shared value of that call.
            lines.extend(_word_lines(section, line))
            return first, tuple(map(PLAIN_CALLS.__getitem__, words)), words
        noted = self.noted_calls(words)
        if noted is not None:
            found, end = noted
            lines.extend(compress(_word_lines(section, line)[:end], map(bool, found)))
            calls: list[RecordedCall] = list(filter(None, found))  # (a call is true)
            texts = list(map(_CALL_TEXT, calls))
            if end < len(words) and words[end].upper() == "AP":
                # The passes "AP" (all pass) stands for, with no line of their own.
                added = all_pass_count(texts)
                calls.extend([_PASS] * added)
                texts.extend(["Pass"] * added)
                lines.extend([0] * added)
            return first, tuple(calls), texts
        return (first, *self.calls(section, line))

    def noted_calls(self, words: list[str]) -> tuple[list[RecordedCall | None], int] | None:
        """The calls of an auction's words when they are plain calls, some alerted by
        one note each (``=1=`` after the call, explained by its ``Note`` tag), perhaps
        ended by ``AP``, ``*`` or ``-``: the common case, read as :meth:`calls` reads
        it, without a token for each word. Returns the calls with ``None`` for each
        other word, up to where the calls end; ``None`` for any other auction, which
        :meth:`calls` reads."""
        # The plain calls looked up together, and only the other words one by one.
        found: list[RecordedCall | None] = list(map(PLAIN_CALLS.get, words))
        # As bools, list.index finds the next other word comparing bools in C (a
        # RecordedCall compared with None would run its dataclass __eq__, in Python).
        plain = list(map(_PLAIN_CALL_WORDS.__contains__, words))
        notes: dict[str, str] | None = None
        used: list[str] = []
        at = 0
        while True:
            try:
                at = plain.index(False, at)
            except ValueError:
                break
            word = words[at]
            before = found[at - 1] if at else None
            number = note_number(word)
            if number is not None and before is not None and not before.alerted:
                if notes is None:
                    notes = self.notes_by_number()
                explanation = notes.get(number)
                if explanation is None:
                    return None  # a note that is not there: a problem
                found[at - 1] = alerted_call(before.call, explanation)
                used.append(number)
                at += 1
                continue
            if word not in ("*", "-") and word.upper() != "AP":
                return None
            if at + 1 < len(words) and words[at + 1][0] in "=$!?":
                return None  # an annotation on the end of the auction
            self.used_notes.update(used)
            return found[:at], at  # the auction ends here, or the rest is not given
        self.used_notes.update(used)
        return found, len(words)

    def calls(self, section: str, line: int) -> tuple[tuple[RecordedCall, ...], list[str]]:
        """The calls of an Auction section word by word, annotations and all (PBN 3.5),
        and their canonical texts."""
        lines = self.call_lines
        notes: dict[str, str] | None = None  # read at the first note
        calls: list[RecordedCall] = []
        for token, marks in split_annotations(_tokens(section, line)):
            explanation, alerted = "", False
            for mark in marks:
                number = note_number(mark)
                if number is None:
                    continue
                alerted = True
                self.used_notes.add(number)
                if notes is None:
                    notes = self.notes_by_number()
                if number in notes:
                    explanation = notes[number]
                else:
                    self.problem("Note", f'note {mark} has no [Note "{number}:..."]', token.line)
            word = token.text
            if not word or word[0] == "^":
                continue  # an irregularity mark (PBN 3.9): the calls themselves follow
            if word in ("*", "-"):
                break  # the rest of the auction is not given
            if word.upper() == "AP":
                expand_all_pass(calls)
                break
            if word not in _PLAIN_CALL_WORDS:
                try:
                    word = call_text(word)
                except BridgeError as error:
                    self.problem("Auction", f"Auction: {error}", token.line)
                    break
            calls.append(alerted_call(word, explanation) if alerted else PLAIN_CALLS[word])
            lines.append(token.line)
        # The passes "AP" stands for have no line of their own.
        lines.extend([0] * (len(calls) - len(lines)))
        return tuple(calls), list(map(_CALL_TEXT, calls))

    def contract(self, text: str | None, declarer: str | None) -> tuple[Contract | None, bool]:
        if text is None:
            return None, False
        if text.upper() == "PASS":
            return None, True
        contract = _CONTRACTS.get((text, declarer))
        if contract is not None:
            return contract, False
        try:
            contract = Contract.parse(text)
        except BridgeError as error:
            self.problem("Contract", f"Contract: {error}")
            return None, False
        if declarer is not None:
            try:
                # A leading ^ marks declarer and dummy swapped by an irregularity (PBN 3.9).
                contract = contract.with_declarer(_seat_of(declarer.removeprefix("^")))
            except BridgeError as error:
                self.problem("Declarer", f"Declarer: {error}")
                return contract, False
        if len(_CONTRACTS) < TABLE_LIMIT:
            _CONTRACTS[(text, declarer)] = contract
        return contract, False

    def result(self, text: str | None, contract: Contract | None) -> int | None:
        if text is None:
            return None
        if text.isdigit() and len(text) < 3 and text.isascii() and int(text) <= 13:
            return int(text)  # a trick count, the common case
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

    def play(
        self, value: str, section: str, line: int, contract: Contract | None
    ) -> tuple[Card, ...] | None:
        """The cards of the Play section in the order played, in ``contract`` (the one
        the calls reach, else the Contract tag's)."""
        try:
            first = _seat_of(value)
        except BridgeError as error:
            self.problem("Play", f"Play: {error}")
            return None
        if contract is None:
            self.problem("Play", "the Play section needs the contract's strain to be read")
            return None
        trump = contract.strain
        declarer = contract.declarer
        if declarer is not None and first is not declarer.lho:
            self.problem(
                "Play",
                f'[Play "{value}"] names the opening leader {first.name.capitalize()}, but '
                f"declarer {declarer.name.capitalize()}'s left-hand opponent leads",
            )
            return None
        cards: list[Card] = []
        lines = self.card_lines
        start_seat = int(first)
        leader = start_seat  # seats as ints: these loops run for every card
        # Rows of four plainly written cards on the lines after the tag, one trick
        # each, the common case: the columns are seats from the opening leader, and
        # the trick's leader comes first. They are read row by row, up to the first
        # row that is not four such cards: each row's cards in the order played from
        # the leader's column, and the winner's column leads the next trick.
        done = 0  # the rows read so
        if section.startswith("\n"):
            section_rows = section.split("\n")
            column = 0
            for row_text in islice(section_rows, 1, None):
                try:
                    first_word, second, third, fourth = row_text.split()
                    # (Looked up by key, not with get: "None in" the cards would call
                    # each card's __eq__, written in Python, to compare it with None.)
                    played = _FROM_COLUMN[column](
                        (
                            PLAIN_CARDS[first_word],
                            PLAIN_CARDS[second],
                            PLAIN_CARDS[third],
                            PLAIN_CARDS[fourth],
                        )
                    )
                except (ValueError, KeyError):
                    break  # not four plain cards: this row and the rest, cell by cell
                cards += played
                column = (column + winning_position(played, trump)) % 4
                done += 1
            leader = (start_seat + column) % 4
            if done:
                numbers = range(line + 1, line + 1 + done)
                lines.extend(chain.from_iterable(zip(numbers, numbers, numbers, numbers)))
                section = "\n".join(section_rows[done + 1 :])
                line += done + 1
        # Anything else from there on, cell by cell (most plays have nothing else,
        # or only the "*" of a claim).
        rest = section.split(None, 1)
        if not rest or rest[0] == "*":
            return tuple(cards)
        cells: list[Token | None] = []
        for token, _ in split_annotations(_tokens(section, line)):
            text = token.text
            if text == "*":
                break  # the rest of the play is not given
            if not text or text[0] == "^":
                continue
            cells.append(None if text == "-" else token)
        for start in range(0, len(cells), 4):
            row = cells[start : start + 4]
            whole = [cell for cell in row if cell is not None]
            looked_up = [PLAIN_CARDS.get(cell.text) for cell in whole]
            known = [card for card in looked_up if card is not None]
            if len(known) == 4:
                # A whole trick of plainly written cards: read in one go.
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
        at = self.layout.where.get("ScoreTable")
        if at is None:
            return None
        value = self.game.values[at]
        columns = tuple(part.split("\\")[0].strip() for part in value.split(";"))
        rows = []
        first = self.game.lines[at]
        for line, text in enumerate(self.game.sections[at].split("\n"), first):
            # (A quoted cell may hold spaces: the line's words are read again.)
            words = _CELL_RE.findall(" ".join(text.split()))
            if words:
                cells = tuple(_cell(quoted or bare) for quoted, bare in words)
                rows.append(TravellerRow(cells, line))
        return Traveller(value, columns, tuple(rows))

    def notes(self, as_given: bool) -> tuple[tuple[str, str], ...]:
        """The tags kept as notes (``as_given``: no value is unknown or padded)."""
        game, layout = self.game, self.layout
        keep, pick = layout.keep, layout.pick_kept
        if pick is None:
            return ()  # (every tag is read into a field of its own)
        used = self.used_notes
        if as_given and not any(pick(game.sections)):
            # Most games write each on one line with a value as it is to be kept: then
            # they are the notes, but for the Notes read into the calls' explanations
            # (left out of the tags kept, looked at alone: the other tags pass in C).
            if not used:
                # (Only the pairs kept are made, their names the layout's.)
                return tuple(zip(layout.kept, pick(game.values)))
            values = pick(game.values)
            kept_pairs = list(zip(layout.kept, values))
            for at in layout.kept_notes:  # (last first: deleting leaves the others' places)
                if values[at].partition(":")[0].strip() in used:
                    del kept_pairs[at]
            return tuple(kept_pairs)
        pairs = tuple(compress(zip(game.names, game.values), keep))
        found: list[tuple[str, str]] = []
        for (name, value), section in zip(pairs, compress(game.sections, keep)):
            if name == "Note" and value.partition(":")[0].strip() in used:
                continue  # read into the calls' explanations
            if not _has_words(section):
                if value.strip() in UNKNOWN:
                    continue  # "?" and "" say the value is unknown: nothing to keep
                found.append((name, value))
            else:
                # Sections of other tags (tables) are kept line by line.
                rows = [" ".join(row.split()) for row in section.split("\n")]
                found.append((name, "\n".join([value, *(row for row in rows if row)])))
        return tuple(found)


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

    def record(self, game: GameTags) -> BoardRecord | None:
        """The record of a game's tags (``None``: a header game)."""
        layout = _LAYOUTS.get(game.names) or _layout_of(game.names)
        if layout.header and not game.problems:
            return None
        self.number += 1
        reader = _GameReader(game, layout, self.previous)
        return self.done(reader.read(self.file, self.number), reader.restored)

    def game_record(self, game: PbnGame) -> BoardRecord | None:
        """The record of a game read by the full scan (``None``: a header game)."""
        return self.record(game_tags(game))

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
    if record.dealer_seat is not None:
        values["Dealer"] = record.dealer_seat.letter
    if record.vulnerable is not None:
        values["Vulnerable"] = record.vulnerable.to_pbn()
    if record.deal is not None:
        values["Deal"] = record.deal.to_pbn(record.dealer_seat or Seat.NORTH)
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
    dealer = record.dealer or Seat.NORTH
    return [TagPair.build("Auction", dealer.letter, tag_rows(words)), *notes]


def _play_pair(record: BoardRecord) -> TagPair:
    assert record.play is not None
    contract = record.contract
    dealer = record.dealer
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
