"""PBN games written plainly, read from their text straight into board records.

Most games in real files are written plainly: one tag pair a line with no
escaped characters, calls and cards as plain words, alerts as note references
(``=1=``), no comments. :func:`read_plain_game` reads such a game into the
:class:`BoardRecord` the full reader (:func:`bridgescore.formats.pbn.read_games`,
then :mod:`bridgescore.formats.pbnrecord`) gives, without building the tag
pairs and tokens in between: one pattern finds every tag with the lines of its
section, the tags are read a column at a time, calls are the shared values of
:data:`~bridgescore.formats.record.PLAIN_CALLS` and rows of four cards are read
together. At anything else (a comment, an annotation, a value the full reader
would report as a problem) it declines with ``None``, and the game goes to the
full reader, which says what is wrong and where. The two give equal records:
``tests/test_formats_fastpaths.py`` checks it on generated and mutated games.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from itertools import chain, compress, count, repeat
from operator import attrgetter, itemgetter
from typing import NamedTuple, cast

from bridgescore.core import Contract, Seat, Vulnerability
from bridgescore.deal import Card, Deal
from bridgescore.errors import BridgeError
from bridgescore.formats.record import (
    MATCH_NOTE,
    PLAIN_CALLS,
    SCORE_TAGS,
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
    "PlainGame",
    "expand_all_pass",
    "read_game_plainly",
    "read_plain_game",
    "restore_opening_passes",
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
_FIELDS = (
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
    "Contract",
    "Declarer",
    "Result",
    "DoubleDummyTricks",
    "OptimumScore",
)
"""The tags a record reads into its fields, in the order :attr:`_Layout.fields` gives
their values."""
READ_TAGS = frozenset({*_FIELDS, *SECTIONS, "Note", *SCORE_TAGS})
"""Tags a record reads into fields of its own; any other tag is kept as a note."""

SEAT_LETTERS: Mapping[str, Seat] = {seat.letter: seat for seat in Seat} | {
    seat.letter.lower(): seat for seat in Seat
}
"""The seat letters as files write them, looked up before the full parser."""

_ESCAPE = re.compile(r'\\(["\\])')
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
_TABLE_LIMIT = 2048

# Records and their sources made from every field's value, in order (see slot_maker).
_make_record = slot_maker(BoardRecord)
_make_source = slot_maker(Source)


class PlainGame(NamedTuple):
    """What :func:`read_plain_game` read of a plain game."""

    tags: dict[str, str]
    """The tags so far: those the game was given to copy with ``#``, then the game's
    own, as written (``#`` read)."""
    record: BoardRecord | None
    """Its record (``None``: a header game, with no board)."""
    restored: int = 0
    """How many opening passes the file left out and the reader restored."""


class _NotPlain(Exception):
    """The game is not written plainly: the full reader reads it."""


def expand_all_pass(calls: list[RecordedCall]) -> None:
    """Append the passes ``AP`` (all pass) stands for: passes until the auction ends."""
    calls.extend([PLAIN_CALLS["Pass"]] * _all_pass(list(map(_CALL_TEXT, calls))))


def _all_pass(words: list[str]) -> int:
    """How many passes ``AP`` stands for after the calls ``words`` (canonical texts):
    four passes in all when no one has bid, else three after the last other call."""
    if words.count("Pass") == len(words):
        return max(0, 4 - len(words))
    # (The passes at the end, counted in C.)
    return max(0, 3 - list(map("Pass".__eq__, reversed(words))).index(False))


def restore_opening_passes(
    calls: Sequence[RecordedCall],
    dealer: Seat,
    stated: Contract | None,
    leader: Seat | None,
) -> tuple[int, Contract | None]:
    """How many opening passes (0-3) a file left out of ``calls``, and the contract the
    calls reach once they are restored (``None``: passed out, or not finished).

    Some publishers start the Auction section with the first bid. The passes are
    restored when the calls as written reach a declarer other than the game's own,
    and one to three passes in front make them reach the game's declarer, level and
    strain: its declarer is the Declarer tag's (``stated``), else the right-hand
    opponent of the Play tag's opening ``leader``; the level and strain are the
    Contract tag's when it is given. The doubling does not decide the seat: a
    Contract tag that lost the auction's double (``1NT`` where the calls end
    ``1NT Pass Pass X``) still has its passes restored, and the doubling alone is
    left for the checks to report. Anything else is left as written, for the
    checks to report.

    >>> from bridgescore.formats.record import PLAIN_CALLS
    >>> calls = [PLAIN_CALLS[word] for word in "1S Pass 4S Pass Pass Pass".split()]
    >>> missing, reached = restore_opening_passes(calls, Seat.NORTH, None, Seat.NORTH)
    >>> missing, str(reached)
    (3, '4SW')
    """
    return _restored(list(map(_CALL_TEXT, calls)), dealer, stated, leader)


def _restored(
    words: list[str], dealer: Seat, stated: Contract | None, leader: Seat | None
) -> tuple[int, Contract | None]:
    """:func:`restore_opening_passes` of the calls' canonical texts."""
    reached = contract_of(words, dealer)[1]
    if reached is None or words[0] == "Pass":
        return 0, reached  # passed out, unfinished, or the opening passes are there
    if stated is not None and stated.declarer is not None:
        declarer: Seat | None = stated.declarer
    else:
        declarer = None if leader is None else leader.rho
    if declarer is None or reached.declarer is declarer:
        return 0, reached
    missing = (declarer - reached.declarer) % 4 if reached.declarer is not None else 0
    restored = contract_of(["Pass"] * missing + words, dealer)[1] if missing else None
    if restored is None or restored.declarer is not declarer:
        return 0, reached
    if stated is not None and (stated.level != restored.level or stated.strain != restored.strain):
        return 0, reached  # another contract: no number of passes explains it
    return missing, restored


_PASS = PLAIN_CALLS["Pass"]
_PLAIN_CALL_WORDS = frozenset(PLAIN_CALLS)
_CALL_TEXT = attrgetter("call")

_Rows = list[tuple[list[str], int]]  # the words of each section line, with the line's number
# One tag pair at the start of a line, and the section lines after it (lines that
# start neither a tag nor a directive): a plain game is a run of these. Each line is
# taken with the line break before it (the game's text starts with one), so that the
# pattern starts with the literal "\n[", which re looks for before trying anything.
# (Possessive repeats, "*+": no piece ever gives back what it took, since what
# follows it can never start with what it takes, so re keeps no backtracking marks.)
_ITEM = re.compile(
    r'\n\[([A-Za-z0-9_]+) "([^"\\\n]*+(?:\\.[^"\\\n]*+)*+)"\][^\S\n]*+(?=\n|$)'
    r"((?:\n[^\[%\n][^\n]*+)*+)"
)


def read_plain_game(
    text: str,
    first_line: int,
    previous_tags: Mapping[str, str],
    previous: BoardRecord | None,
    source: Source,
) -> PlainGame | None:
    """Read one game's ``text`` (its lines, no blank line; the first is line
    ``first_line`` of the file) when it is written plainly.

    ``previous_tags`` are the tags ``#`` copies, ``previous`` the record before
    (for a second table's board tags) and ``source`` the file and the record's
    number; the game's line and tag lines are filled in here. Returns the game's
    tags and its record (``None``: a header game, no board), or ``None`` when the
    game is not plain and the full reader must read it.

    >>> text = '[Board "1"]\\n[Contract "3NT"]\\n[Declarer "S"]\\n[Result "9"]'
    >>> record = read_plain_game(text, 1, {}, None, Source()).record
    >>> record.board, str(record.contract), record.result, record.source.line
    (1, '3NTS', 9, 1)
    >>> read_plain_game('[Board "1"] {a comment} 3NT', 1, {}, None, Source()) is None
    True
    """
    tags = dict(previous_tags)
    read = read_game_plainly(text, first_line, tags, previous, source.file, source.record)
    return None if read is None else PlainGame(tags, *read)


def read_game_plainly(
    text: str,
    first_line: int,
    tags: dict[str, str],
    previous: BoardRecord | None,
    file: str | None,
    number: int,
) -> tuple[BoardRecord | None, int] | None:
    """:func:`read_plain_game` as a file's reader calls it: ``tags`` (the tags so far)
    gain the game's when it is plain; the record (``None``: a header game) is the
    file's ``number``-th, and comes with how many opening passes were restored."""
    try:
        return _read(text, first_line, tags, previous, file, number)
    except _NotPlain:
        return None


def _read(
    text: str,
    first_line: int,
    previous_tags: dict[str, str],
    previous: BoardRecord | None,
    file: str | None,
    number: int,
) -> tuple[BoardRecord | None, int]:
    if "{" in text:
        text = _without_comments(text)
    text = "\n" + text.removesuffix("\n")
    found = _ITEM.findall(text)
    if not found:
        raise _NotPlain
    # The tags' names, values and sections, each a tuple: the work is done a
    # column at a time, in comprehensions, rather than tag by tag.
    names, given, texts = zip(*found)
    layout = _LAYOUTS.get(names) or _layout_of(names)
    names = layout.names  # (one tuple for all the file's games that have these tags)
    strip = False  # whether a value may have blanks at either end
    if "\\" in text:
        given = tuple(_value(name, value, previous_tags) for name, value in zip(names, given))
        strip = True
    elif '"#"' in text:
        given, strip = _inherited(names, given, previous_tags)
    # Each tag's line: a line for the tag and one for each line of its section. Most
    # tags have no section: their lines are runs of numbers, one range each between
    # the few tags that have one.
    starts: list[int] = []
    line = first_line
    done = 0
    for index in compress(range(len(texts)), texts):
        starts.extend(range(line, line + index + 1 - done))
        line += index + 1 - done + texts[index].count("\n")
        done = index + 1
    starts.extend(range(line, line + len(texts) - done))
    # Every line must belong to a tag or to its section: a line the pattern skips
    # (a directive, a comment, a word before the first tag) is the full reader's.
    if line + len(texts) - done - first_line != text.count("\n"):
        raise _NotPlain
    odd = layout.odd
    # (compress: the tags with a section, most have none, picked out in C.)
    for name, section in compress(zip(names, texts), texts):
        if "[" in section or ";" in section or "{" in section:
            raise _NotPlain  # a tag after words, a comment
        if name not in SECTIONS and not name.endswith("Table") and not section.isspace():
            odd = True  # words after a tag that has none (a comment's lines are blank)
    if layout.header:
        _add_tags(previous_tags, layout, given)
        return None, 0
    if odd:
        raise _NotPlain
    # The values given, stripped, in the tags' order with None at the end for the tags
    # the game has not; a value "" or "?" says it is unknown (None). Most games have
    # neither such a value nor one with blanks around it: their values are as given.
    # (str.strip gives back the value itself when it has no blank to strip.)
    stripped = tuple(map(str.strip, given))
    as_given = not strip and stripped == given and "" not in given and "?" not in given
    if as_given:
        values: tuple[str | None, ...] = (*given, None)
    else:
        values = (*[None if value in UNKNOWN else value for value in stripped], None)
    # The tags kept as notes (and the Notes), picked out in C. Most games write them
    # on one line each with a value as it is to be kept: then they are the notes,
    # but for the Notes read into the calls' explanations.
    kept = tuple(compress(zip(names, given), layout.keep))
    kept_sections = None
    if not as_given or any(compress(texts, layout.keep)):
        kept_sections = tuple(compress(texts, layout.keep))
    if layout.first_note < 0:
        tag_names, tag_numbers = names, tuple(starts)
    else:
        tag_lines = dict(zip(names, starts))
        tag_lines["Note"] = starts[layout.first_note]  # the first of the Notes counts
        tag_names, tag_numbers = tuple(tag_lines), tuple(tag_lines.values())
    game = _Game((tag_names, tag_numbers), (kept, kept_sections), previous, (file, number))
    record = game.record(layout, values, given, texts, starts)
    _add_tags(previous_tags, layout, given)
    return record, game.restored


def _add_tags(tags: dict[str, str], layout: _Layout, given: tuple[str, ...]) -> None:
    """Add a game's tags as given (``#`` read) to ``tags``; the first Note of several."""
    tags.update(zip(layout.names, given))
    if layout.first_note >= 0:
        tags["Note"] = given[layout.first_note]


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
    """The values of the tags in :data:`_FIELDS` from the values in the tags' order
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


_LAYOUTS: dict[tuple[str, ...], _Layout] = {}


def _layout_of(names: tuple[str, ...]) -> _Layout:
    """The layout of a game with tags ``names``, kept for the games after it."""
    repeated = len(names) - len(set(names))
    if repeated and repeated != names.count("Note") - 1:
        # Only Note may repeat: the full reader reports any other (this is not kept,
        # such games being rare and the names' table small).
        raise _NotPlain
    where = {name: at for at, name in reversed(list(enumerate(names)))}  # the first of each
    missing = len(names)  # the None after the values
    layout = _Layout(
        names=names,
        header=not GAME_TAGS.intersection(names),
        first_note=where["Note"] if repeated else -1,
        keep=tuple(name not in _READ_ONLY for name in names),
        fields=cast(
            Callable[[tuple[str | None, ...]], tuple[str | None, ...]],
            itemgetter(*[where.get(name, missing) for name in _FIELDS]),
        ),
        auction=where.get("Auction", -1),
        play=where.get("Play", -1),
        scored=tuple((name, where[name]) for name in SCORE_TAGS if name in where),
        board_tags=not where.keys().isdisjoint(BOARD_TAGS),
        match=MATCH_NOTE in where,
        odd="ScoreTable" in where,
    )
    if len(_LAYOUTS) < _TABLE_LIMIT:
        _LAYOUTS[names] = layout
    return layout


# The tags a record reads into fields of its own (a Note is kept, and read into
# the calls it explains).
_READ_ONLY = READ_TAGS - {"Note"}


# A tag pair alone, as a plain game writes it (the tag lines _ITEM reads).
_TAG_LINE = re.compile(r'\[[A-Za-z0-9_]+ "[^"\\\n]*(?:\\.[^"\\\n]*)*"\]')


def _without_comments(text: str) -> str:
    """The game's text with its ``{comments}`` blanked, when each is where publishers
    put them: on lines of its own, or after a tag pair at the end of its line (and
    nothing after the ``}``). A comment's own lines become a single space (a blank
    line in a section, which adds no word and keeps every line's number), and the
    tag before a comment stays. Any other ``{`` (in a value, between words, a
    comment left open) is the full reader's: :class:`_NotPlain`."""
    lines = text.split("\n")
    inside = False  # in a comment begun on an earlier line
    for number, line in enumerate(lines):
        if inside:
            end = line.find("}")
            if end >= 0:
                if line[end + 1 :].strip():
                    raise _NotPlain  # words after the comment
                inside = False
            lines[number] = " "
            continue
        if "{" not in line:
            continue
        head, _, comment = line.partition("{")
        head = head.rstrip()
        if head and _TAG_LINE.fullmatch(head) is None:
            raise _NotPlain  # a "{" in a value, or a comment after words
        end = comment.find("}")
        if end < 0:
            inside = True
        elif comment[end + 1 :].strip():
            raise _NotPlain
        lines[number] = head or " "
    if inside:
        raise _NotPlain  # never closed in this game: a blank line may be in it
    return "\n".join(lines)


def _inherited(
    names: tuple[str, ...], given: tuple[str, ...], previous_tags: Mapping[str, str]
) -> tuple[tuple[str, ...], bool]:
    """The values with each ``#`` replaced by the value it copies (found by
    ``tuple.index``, which runs in C: most values are no ``#``), and whether one of
    those has blanks at either end."""
    values = list(given)
    padded = False
    at = -1
    # (Counted first: a search past the last "#" would raise, and an exception
    # costs more than the rest of the work.)
    for _ in range(given.count("#")):
        at = given.index("#", at + 1)
        inherited = previous_tags.get(names[at])
        if inherited is None:
            raise _NotPlain
        values[at] = inherited
        padded = padded or inherited != inherited.strip()
    return tuple(values), padded


def _value(name: str, value: str, previous_tags: Mapping[str, str]) -> str:
    """A tag's value with its escapes read, or the value ``#`` copies."""
    if "\\" in value:
        # Only \" and \\ are escapes; other backslashes (table formats) stay.
        value = _ESCAPE.sub(r"\1", value)
    if value == "#":
        # Tag value inheritance: "#" repeats the previous game's value.
        inherited = previous_tags.get(name)
        if inherited is None:
            raise _NotPlain
        return inherited
    return value


def _rows(section: str, line: int) -> _Rows:
    """The words of each line of a tag's section, with their line numbers (the
    tag is on ``line``)."""
    return [(text.split(), number) for number, text in enumerate(section.splitlines(), line + 1)]


class _Game:
    """One plain game's tags read into a record, as pbnrecord's reader reads them."""

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
            self.restored, reached = _restored(words, dealer, contract, leader)
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
            if len(_VULNERABILITIES) < _TABLE_LIMIT:
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
            added = _all_pass(texts)
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
            if len(_CONTRACTS) < _TABLE_LIMIT:
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
