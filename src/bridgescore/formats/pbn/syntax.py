"""PBN (Portable Bridge Notation 2.1): a lenient streaming reader and a strict writer.

The reader turns lines into :class:`PbnGame` objects, one per game, without
knowing what the tags mean: each game has its tags (name -> value), every tag
pair in file order (:class:`TagPair`, with the line it is on and the section
lines that follow it, such as the calls of ``Auction`` or the rows of
``OptimumResultTable``) and the problems met, each with its line number. A bad
game never stops the reader; it goes on to the next one.

>>> games = list(read_games('[Board "1"]\\n[Auction "N"]\\n1NT Pass 3NT AP\\n'))
>>> games[0].tags["Board"], [t.text for t in games[0].section("Auction").tokens]
('1', ['1NT', 'Pass', '3NT', 'AP'])

The writer (:func:`format_game`, :func:`format_pbn`) emits export form only:
the fifteen tags of the mandatory tag set first and in their order, escaped
values, one tag pair a line, and refuses anything it cannot write exactly.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import BinaryIO, NamedTuple

from bridgescore.errors import InputFileError, NotationError
from bridgescore.formats.record import Problem

__all__ = [
    "DIRECTIVE",
    "EXPORT_TAGS",
    "INHERIT",
    "REPEATABLE",
    "TAG_NAME",
    "TAG_STRING",
    "WORD_BREAK",
    "PbnGame",
    "Problem",
    "TagPair",
    "Token",
    "decode_line",
    "decode_lines",
    "format_game",
    "format_pbn",
    "note_number",
    "pbn_value",
    "read_games",
    "split_annotations",
    "tag_rows",
    "unescape",
]

EXPORT_TAGS = (
    "Event",
    "Site",
    "Date",
    "Board",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Scoring",
    "Declarer",
    "Contract",
    "Result",
)
"""The mandatory tag set, in the order the export form requires."""

# -- the grammar's lexical rules, written once for both scans ----------------------
# (The fast scan, ._fast, builds its pattern from these; the full scan below reads
# with them character by character.)

TAG_NAME = r"[A-Za-z0-9_]+"
"""A tag's name in a tag pair (a pattern)."""
TAG_STRING = r'[^"\\\n]*+(?:\\.[^"\\\n]*+)*+'
"""A tag's value between its quotes, its escapes not yet read (a pattern): any
character but a quote, a backslash or a line break, or a backslash and the one
character after it. (Possessive repeats: a quote or a backslash ends each piece,
so no piece ever gives back what it took, and re keeps no backtracking marks.)"""
REPEATABLE = frozenset({"Note"})
"""The tags a game may rightly give more than once; any other repeat is a problem."""
INHERIT = "#"
"""The value that copies the same tag's value of the games before (tag value inheritance)."""
DIRECTIVE = "%"
"""The first character of a directive line (``% PBN 2.1``), which no game reads."""
WORD_BREAK = re.compile(r"[\[{;]")
"""What ends a section's word besides a blank: a tag pair's ``[``, a comment's ``{`` or ``;``."""
_ESCAPE = re.compile(r'\\(["\\])')


def unescape(value: str) -> str:
    """A tag's value with its escapes read: only a backslash before a quote or a
    backslash is an escape; other backslashes (the tables' column formats) stay."""
    return _ESCAPE.sub(r"\1", value) if "\\" in value else value


_MAX_LINE = 255  # PBN export lines are at most 255 characters.


class Token(NamedTuple):
    """One word of a section (a call, a card, a table cell) and its line.

    A named tuple rather than a dataclass: files hold millions of words, and a
    tuple is built several times faster.
    """

    text: str
    line: int = 0


@dataclass(frozen=True, slots=True)
class TagPair:
    """A tag pair ``[Name "value"]`` and the section lines that follow it.

    ``rows`` holds one tuple of tokens per non-empty section line: the calls of
    an ``Auction``, the tricks of a ``Play``, the rows of a table.
    """

    name: str
    value: str
    line: int = 0
    rows: tuple[tuple[Token, ...], ...] = ()

    @classmethod
    def build(cls, name: str, value: str, rows: Iterable[Iterable[str]] = ()) -> TagPair:
        """A tag pair for writing: ``TagPair.build("Auction", "N", [["1NT", "Pass"]])``."""
        return cls(name, value, 0, tuple(tuple(Token(text) for text in row) for row in rows))

    @property
    def tokens(self) -> tuple[Token, ...]:
        """The section's tokens in order, across its lines."""
        return tuple(chain.from_iterable(self.rows))


@dataclass(frozen=True, slots=True)
class PbnGame:
    """One game as read: tags, tag pairs with their sections, comments and problems.

    ``tags`` maps each tag name to its value (the first occurrence; ``#`` values
    are already replaced by the previous game's value). ``pairs`` keeps every
    tag pair in file order, including repeated ``Note`` tags.
    """

    line: int
    tags: Mapping[str, str]
    pairs: tuple[TagPair, ...]
    problems: tuple[Problem, ...] = ()
    comments: tuple[str, ...] = ()
    tag_lines: Mapping[str, int] = field(default_factory=dict)

    def section(self, name: str) -> TagPair | None:
        """The first tag pair named ``name``, with its section lines, or ``None``."""
        for pair in self.pairs:
            if pair.name == name:
                return pair
        return None

    @property
    def notes(self) -> dict[str, str]:
        """The ``Note`` tags as number -> text (``[Note "1:strong"]`` gives ``{"1": "strong"}``)."""
        notes: dict[str, str] = {}
        for pair in self.pairs:
            if pair.name == "Note":
                number, _, text = pair.value.partition(":")
                notes.setdefault(number.strip(), text)
        return notes

    def line_of(self, name: str) -> int:
        """The line of tag ``name``, or the game's first line when it is absent."""
        return self.tag_lines.get(name, self.line)


_TAG_RE = re.compile(rf'\[\s*(?P<name>{TAG_NAME})\s*"(?P<value>{TAG_STRING})"\s*\]')
_NAME_RE = re.compile(r"[A-Z][A-Za-z0-9_]*")
_TOKEN_END = re.compile(rf"\s|{WORD_BREAK.pattern}")
_WHOLE_TAG_RE = re.compile(rf'\[(?P<name>{TAG_NAME}) "(?P<value>{TAG_STRING})"\]\s*$')
_SPECIAL = WORD_BREAK
# A section line we may write: bare words and whole quoted strings (with \" escapes),
# separated by blanks.
_ROW_ITEM = r'(?:[^\s"]+|"(?:[^"\\]|\\.)*")'
_ROW_RE = re.compile(rf"{_ROW_ITEM}(?: {_ROW_ITEM})*")
_new_token = tuple.__new__


class _GameBuilder:
    """Collects one game's tag pairs while lines stream in."""

    def __init__(self, line: int) -> None:
        self.line = line
        self.pairs: list[TagPair] = []
        self.rows: list[tuple[Token, ...]] = []  # rows of the last tag pair
        self.pending: list[Token] = []  # tokens of the current line
        self.problems: list[Problem] = []
        self.comments: list[str] = []
        self.stray_reported = False

    @property
    def is_empty(self) -> bool:
        return not (self.pairs or self.problems or self.comments)

    def end_line(self) -> None:
        if self.pending:
            self.rows.append(tuple(self.pending))
            self.pending = []

    def close_pair(self) -> None:
        self.end_line()
        if self.pairs and self.rows:
            last = self.pairs[-1]
            self.pairs[-1] = TagPair(last.name, last.value, last.line, last.rows + tuple(self.rows))
        self.rows = []

    def add_pair(self, name: str, value: str, line: int) -> None:
        if self.pending or self.rows:
            self.close_pair()
        self.pairs.append(TagPair(name, value, line))

    def add_token(self, text: str, line: int) -> None:
        if not self.pairs:
            if not self.stray_reported:
                self.problems.append(
                    Problem(
                        line, f'unexpected {text!r} before any tag pair: expected [Tag "value"]'
                    )
                )
                self.stray_reported = True
            return
        self.pending.append(Token(text, line))

    def finish(self, previous: dict[str, str]) -> PbnGame:
        self.close_pair()
        tags: dict[str, str] = {}
        tag_lines: dict[str, int] = {}
        pairs: list[TagPair] = []
        for pair in self.pairs:
            value = pair.value
            if value == INHERIT:
                # Tag value inheritance: "#" repeats the previous game's value.
                if pair.name in previous:
                    value = previous[pair.name]
                    pair = TagPair(pair.name, value, pair.line, pair.rows)
                else:
                    self.problems.append(
                        Problem(
                            pair.line,
                            f'[{pair.name} "#"] asks for the previous game\'s value, '
                            "but no earlier game has that tag",
                        )
                    )
            if pair.name in tags and pair.name not in REPEATABLE:
                self.problems.append(
                    Problem(
                        pair.line,
                        f"tag {pair.name} repeated (first on line {tag_lines[pair.name]}); "
                        "the repeat is ignored",
                    )
                )
                continue
            tags.setdefault(pair.name, value)
            tag_lines.setdefault(pair.name, pair.line)
            pairs.append(pair)
        return PbnGame(
            self.line,
            tags,
            tuple(pairs),
            tuple(sorted(self.problems, key=lambda problem: problem.line)),
            tuple(self.comments),
            tag_lines,
        )


def decode_lines(stream: BinaryIO | Iterable[bytes]) -> Iterator[str]:
    """Text lines from a file opened in binary mode, for :func:`read_games`.

    Each line is UTF-8 where it can be, else Windows-1252, else ISO-8859-1 (PBN's
    own character set), so files from older programs read without an error; a
    leading byte order mark is dropped.
    """
    for number, raw in enumerate(stream, start=1):
        if number == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        yield decode_line(raw)


def decode_line(raw: bytes) -> str:
    """One line of bytes as text: UTF-8 where it can be, else Windows-1252 (what
    Windows programs write, a superset of Latin-1's printable characters), else Latin-1."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("cp1252")
    except UnicodeDecodeError:
        # The five bytes CP1252 leaves undefined: read them as Latin-1 controls.
        return raw.decode("latin-1")


UNCLOSED_COMMENT = "comment opened with '{' is never closed with '}'"
"""The problem of a ``{`` comment still open at the end of the text read."""


def _names_a_file(text: str) -> bool:
    # One line that no PBN line starts so, naming a file that exists: a path, not text.
    if "\n" in text or "\0" in text or text.lstrip().startswith(("[", "%", "{", ";")):
        return False
    try:
        return os.path.isfile(text)
    except (OSError, ValueError):
        return False


def read_games(
    source: Iterable[str] | str,
    *,
    first_line: int = 1,
    previous: Mapping[str, str] | None = None,
) -> Iterator[PbnGame]:
    """Read PBN games lazily from lines (an open file works) or from one string.

    Never raises on bad input: each problem is recorded on its game with its line
    number, and reading goes on with the next game. A blank line (outside a
    ``{...}`` comment) ends a game; lines starting with ``%`` are directives.
    To read a part of a file, give the number of its first line (``first_line``)
    and the tags of the games before it (``previous``), whose values ``#`` copies.
    The one error it raises is for a file's name given in place of its text
    (:class:`~bridgescore.errors.InputFileError`, saying how to read the file).
    """
    if isinstance(source, str) and _names_a_file(source):
        raise InputFileError(
            f"read_games reads PBN text and was given the name of a file ({source!r}): "
            f"pass the file's text (open({source!r}).read()), or read its boards with "
            f"read_records({source!r})"
        )
    lines: Iterable[str] = source.splitlines() if isinstance(source, str) else source
    known: dict[str, str] = dict(previous or {})  # the tags of the games so far
    game: _GameBuilder | None = None
    comment: list[str] | None = None  # an open {...} comment, possibly over several lines
    comment_line = 0
    number = 0
    for number, raw in enumerate(lines, start=first_line):
        text = raw.rstrip("\r\n")
        if number == 1:
            text = text.removeprefix("\ufeff")  # a byte order mark
        if comment is None:
            if text.startswith(DIRECTIVE):
                continue
            if not text.strip():
                if game is not None and not game.is_empty:
                    finished = game.finish(known)
                    known = {**known, **finished.tags}
                    yield finished
                game = None
                continue
        if game is None:
            game = _GameBuilder(number)
        if comment is not None and not text:
            comment.append("")
        if comment is None:
            # Fast paths for the two common lines: one tag pair, or plain section words.
            whole = _WHOLE_TAG_RE.match(text)
            if whole is not None:
                game.add_pair(whole["name"], unescape(whole["value"]), number)
                game.end_line()
                continue
            if text[:1] != "[" and not _SPECIAL.search(text):
                words = text.split()
                if words and game.pairs:
                    # tuple.__new__ skips the named tuple's own __new__ (a Python frame).
                    game.pending.extend([_new_token(Token, (word, number)) for word in words])
                else:
                    for word in words:
                        game.add_token(word, number)
                game.end_line()
                continue
        position = 0
        while position < len(text):
            if comment is not None:
                close = text.find("}", position)
                if close < 0:
                    comment.append(text[position:])
                    position = len(text)
                    break
                comment.append(text[position:close])
                game.comments.append("\n".join(comment).strip())
                comment = None
                position = close + 1
                continue
            char = text[position]
            if char.isspace():
                position += 1
            elif char == ";":
                game.comments.append(text[position + 1 :].strip())
                break
            elif char == "{":
                comment = []
                comment_line = number
                position += 1
            elif char == "[":
                match = _TAG_RE.match(text, position)
                if match is None:
                    end = text.find("]", position)
                    bad = text[position:] if end < 0 else text[position : end + 1]
                    game.problems.append(
                        Problem(number, f'malformed tag pair {bad!r}: expected [Name "value"]')
                    )
                    position = len(text) if end < 0 else end + 1
                    continue
                game.add_pair(match["name"], unescape(match["value"]), number)
                position = match.end()
            else:
                end_match = _TOKEN_END.search(text, position)
                end = len(text) if end_match is None else end_match.start()
                game.add_token(text[position:end], number)
                position = end
        game.end_line()
    if comment is not None and game is not None:
        game.problems.append(Problem(comment_line, UNCLOSED_COMMENT))
        game.comments.append("\n".join(comment).strip())
    if game is not None and not game.is_empty:
        yield game.finish(known)


_ANNOTATION_RE = re.compile(r"^(?P<body>.*?)(?P<suffix>!!|\?\?|!\?|\?!|!|\?)$")
_NOTE_RE = re.compile(r"^=(?P<number>[0-9]+)=$")
_NAG_RE = re.compile(r"^\$[0-9]+$")


def split_annotations(tokens: Iterable[Token]) -> Iterator[tuple[Token, tuple[str, ...]]]:
    """Pair each call or card of an Auction or Play section with its annotations.

    Notes (``=1=``), numeric annotation glyphs (``$1``) and suffix annotations
    (``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``, alone or stuck to the word)
    are taken off and returned with the word before them; the words themselves
    (``1NT``, ``SA``, ``-``, ``*``, ``AP``, irregularities ``^...``) are left to
    the caller. Annotations before any word are attached to an empty token.
    """
    current: Token | None = None
    notes: list[str] = []
    for token in tokens:
        text = token.text
        if text and text[0] not in "=$!?" and text[-1] not in "!?":
            # A plain call or card, the common case: no annotation to take off.
            if current is not None:
                yield current, tuple(notes)
            notes = []
            current = token
            continue
        if (
            _NOTE_RE.match(text)
            or _NAG_RE.match(text)
            or text in ("!", "?", "!!", "??", "!?", "?!")
        ):
            if current is None:
                current = Token("", token.line)
            notes.append(text)
            continue
        if current is not None:
            yield current, tuple(notes)
        notes = []
        match = _ANNOTATION_RE.match(text)
        if match is not None and match["body"]:
            notes.append(match["suffix"])
            text = match["body"]
        current = Token(text, token.line)
    if current is not None:
        yield current, tuple(notes)


def note_number(annotation: str) -> str | None:
    """The number of a note reference: ``note_number("=1=")`` is ``"1"``; else ``None``."""
    number = _NOTE_NUMBERS.get(annotation)  # (the common ones, without a pattern)
    if number is not None:
        return number
    match = _NOTE_RE.match(annotation)
    return None if match is None else match["number"]


# The note references files write, with their numbers: what _NOTE_RE reads from them.
_NOTE_NUMBERS = {f"={number}=": str(number) for number in range(1, 100)}


# -- writer -------------------------------------------------------------------


def pbn_value(value: str, name: str) -> str:
    """A tag's value as PBN writes it between its quotes: ``\\`` and ``"`` escaped by
    a backslash, as PBN escapes them in a string. Raises
    :class:`~bridgescore.NotationError` for a value over several lines, which a tag
    pair cannot hold."""
    if "\n" in value or "\r" in value:
        raise NotationError(f"tag {name} value {value!r} spans lines: a PBN tag value is one line")
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _check_line(line: str) -> str:
    if len(line) > _MAX_LINE:
        raise NotationError(
            f"PBN line of {len(line)} characters is too long "
            f"(at most {_MAX_LINE}): {line[:40]!r}..."
        )
    return line


def format_game(pairs: Iterable[TagPair] | PbnGame, *, fill_missing: bool = True) -> str:
    """One game in PBN export form (no trailing blank line).

    The tags of :data:`EXPORT_TAGS` come first in their order (missing ones are
    written as ``"?"``, unknown, unless ``fill_missing=False``), then every other
    tag pair in the given order, each followed by its section lines.

    Raises :class:`~bridgescore.NotationError` for a tag name PBN does not allow,
    a value over several lines, a token with spaces or brackets, a line over 255
    characters or a repeated tag other than ``Note``.
    """
    items = list(pairs.pairs if isinstance(pairs, PbnGame) else pairs)
    seen: set[str] = set()
    for pair in items:
        if not _NAME_RE.fullmatch(pair.name):
            raise NotationError(
                f"tag name {pair.name!r} is not allowed: expected a capital letter, "
                "then letters, digits or '_'"
            )
        if pair.name in seen and pair.name not in REPEATABLE:
            raise NotationError(f"tag {pair.name} given twice: a game has each tag once")
        seen.add(pair.name)
    by_name = {pair.name: pair for pair in items}
    ordered: list[TagPair] = []
    for name in EXPORT_TAGS:
        if name in by_name:
            ordered.append(by_name[name])
        elif fill_missing:
            ordered.append(TagPair(name, "?"))
    ordered.extend(pair for pair in items if pair.name not in EXPORT_TAGS)
    lines: list[str] = []
    for pair in ordered:
        lines.append(_check_line(f'[{pair.name} "{pbn_value(pair.value, pair.name)}"]'))
        for row in pair.rows:
            words = [token.text for token in row]
            for word in words:
                if not word or re.search(r"[\s\[\]{};%]", word):
                    raise NotationError(
                        f"section token {word!r} of tag {pair.name} cannot be written: "
                        "expected a word without spaces, brackets, braces, ';' or '%'"
                    )
            line = " ".join(words)
            # Quotes only as whole strings ("4S", "Smith - Jones"): the reader splits a
            # string's words as tokens and a table's reader (the traveller) joins them.
            if words and not _ROW_RE.fullmatch(line):
                raise NotationError(
                    f"section line {line!r} of tag {pair.name} cannot be written: "
                    'expected words and whole "quoted strings"'
                )
            if words:
                lines.append(_check_line(line))
    return "\n".join(lines)


def format_pbn(games: Iterable[Iterable[TagPair] | PbnGame], *, version: str = "2.1") -> str:
    """A whole PBN file in export form: the ``% PBN`` and ``% EXPORT`` lines, then the
    games separated by blank lines, ending with a newline."""
    parts = [f"% PBN {version}\n% EXPORT\n"]
    parts.extend(format_game(game) + "\n" for game in games)
    return "\n".join(parts)


def tag_rows(tokens: Sequence[str], per_row: int = 4) -> list[list[str]]:
    """Split section words into rows of ``per_row`` (the export layout of calls and cards)."""
    return [list(tokens[i : i + per_row]) for i in range(0, len(tokens), per_row)]
