"""PBN games written plainly, read from their text straight into board records.

Most games in real files are written plainly: one tag pair a line with no
escaped characters, calls and cards as plain words, alerts as note references
(``=1=``), no comments. :func:`read_game_plainly` reads such a game into the
:class:`BoardRecord` the full reader (:func:`~bridgescore.formats.pbn.syntax.read_games`,
then :mod:`~bridgescore.formats.pbn.records`) gives, without building the tag
pairs and tokens in between: one pattern finds every tag with the lines of its
section, the tags are read a column at a time, calls are the shared values of
:data:`~bridgescore.formats.record.PLAIN_CALLS` and rows of four cards are read
together. At anything else (a comment, an annotation, a value the full reader
would report as a problem) it declines with ``None``, and the game goes to the
full reader, which says what is wrong and where. The two give equal records:
``tests/formats/pbn/test_fast.py`` checks it on generated and mutated games, through
:func:`~bridgescore.formats.pbn.read_pbn` with and without its private ``_fast`` switch.
The game's tags are found here; :mod:`._fast_game` reads them into the record.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from itertools import compress
from operator import itemgetter
from typing import cast

from bridgescore.formats.pbn._fast_game import (
    TABLE_LIMIT,
    _Game,
    _Layout,
    _NotPlain,
)
from bridgescore.formats.pbn.tags import (
    BOARD_TAGS,
    GAME_TAGS,
    READ_TAGS,
    RECORD_FIELDS,
    SECTIONS,
    UNKNOWN,
)
from bridgescore.formats.record import (
    MATCH_NOTE,
    SCORE_TAGS,
    BoardRecord,
)

__all__ = ["read_game_plainly"]

_ESCAPE = re.compile(r'\\(["\\])')

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


def read_game_plainly(
    text: str,
    first_line: int,
    tags: dict[str, str],
    previous: BoardRecord | None,
    file: str | None,
    number: int,
) -> tuple[BoardRecord | None, int] | None:
    """Read one game's ``text`` (its lines, no blank line; the first is line
    ``first_line`` of the file) when it is written plainly, as
    :func:`~bridgescore.formats.pbn.read_pbn` does for each game of a text.

    ``tags`` are the tags so far (what ``#`` copies), and gain the game's when it is
    plain; ``previous`` is the record before (for a second table's board tags);
    ``file`` and ``number`` say whose and which record this is. Returns the record
    (``None``: a header game, no board) with how many opening passes were restored,
    or ``None`` when the game is not plain and the full reader must read it.

    >>> text = '[Board "1"]\\n[Contract "3NT"]\\n[Declarer "S"]\\n[Result "9"]'
    >>> record, restored = read_game_plainly(text, 1, {}, None, None, 1)
    >>> record.board, str(record.contract), record.result, record.source.line, restored
    (1, '3NTS', 9, 1, 0)
    >>> read_game_plainly('[Board "1"] {a comment} 3NT', 1, {}, None, None, 1) is None
    True
    """
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
            itemgetter(*[where.get(name, missing) for name in RECORD_FIELDS]),
        ),
        auction=where.get("Auction", -1),
        play=where.get("Play", -1),
        scored=tuple((name, where[name]) for name in SCORE_TAGS if name in where),
        board_tags=not where.keys().isdisjoint(BOARD_TAGS),
        match=MATCH_NOTE in where,
        odd="ScoreTable" in where,
    )
    if len(_LAYOUTS) < TABLE_LIMIT:
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
