"""The fast scan: the tag pairs of a game written plainly, found with one pattern.

Most games in real files are written plainly: one tag pair a line, section lines
of words, comments (if any) on lines of their own or after a tag pair at the end of
its line. :func:`scan_plainly` finds such a game's tag pairs, with their values
and section lines, in the form the one reader reads
(:class:`~bridgescore.formats.pbn.records.GameTags`), as the full scan
(:func:`~bridgescore.formats.pbn.syntax.read_games`) would find them, without
building a token for every word. This module knows the grammar's layout only:
what a tag's value means is the reader's, for both scans. At anything the pattern
does not cover (a directive or a word where a tag pair should start, a comment
between words, a ``;`` comment, a tag repeated, a ``#`` with nothing to copy) it
declines with ``None`` and the full scan reads the game, reporting what is
wrong. Both scans give the same records: ``tests/formats/pbn/test_scans.py``
checks it on every PBN file of the tests' data and on generated and mutated games.

>>> found = scan_plainly('[Board "1"]\\n[Auction "N"]\\n1NT Pass', 4, {})
>>> found.names, found.lines, found.sections
(('Board', 'Auction'), (4, 5), ('', '\\n1NT Pass'))
>>> scan_plainly('[Board "1"] {a comment} 3NT', 1, {}) is None
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import compress, repeat

from bridgescore.formats.pbn.records import GameTags
from bridgescore.formats.pbn.syntax import (
    DIRECTIVE,
    INHERIT,
    REPEATABLE,
    TAG_NAME,
    TAG_STRING,
    WORD_BREAK,
    unescape,
)

__all__ = ["scan_plainly"]

# One tag pair at the start of a line, and the section lines after it (lines that
# start neither a tag nor a directive): a plain game is a run of these. Each line is
# taken with the line break before it (the game's text starts with one), so that the
# pattern starts with the literal "\n[", which re looks for before trying anything.
# The tag's name and value are the grammar's own (syntax.TAG_NAME, TAG_STRING).
# (Possessive repeats, "*+": no piece ever gives back what it took, since what
# follows it can never start with what it takes, so re keeps no backtracking marks.)
_ITEM = re.compile(
    rf'\n\[({TAG_NAME}) "({TAG_STRING})"\][^\S\n]*+(?=\n|$)'
    rf"((?:\n[^\[{re.escape(DIRECTIVE)}\n][^\n]*+)*+)"
)
# A tag pair alone, as a plain game writes it (the tag lines _ITEM reads).
_TAG_LINE = re.compile(rf'\[{TAG_NAME} "{TAG_STRING}"\]')
# A value copying the games before, as the game's text writes it.
_INHERITED = f'"{INHERIT}"'

# The sequences of tag names met so far, each kept as the one tuple every game with
# those names shares (empty: it repeats a name other than Note, which the full scan
# reports). A file writes its thousands of games in a few such sequences; sharing
# one tuple lets the reader's own table of them (records._layout_of) find it by
# identity instead of comparing its names one by one, game after game.
_NAMES: dict[tuple[str, ...], tuple[str, ...]] = {}


class _NotPlain(Exception):
    """The game is not written plainly: the full scan reads it."""


def scan_plainly(text: str, first_line: int, previous: Mapping[str, str]) -> GameTags | None:
    """The tag pairs of one game's ``text`` (its lines, no blank line; the first is
    line ``first_line`` of the file) when it is written plainly, else ``None``.

    ``previous`` holds the tags of the games before (the values ``#`` copies).
    """
    try:
        return _scan(text, first_line, previous)
    except _NotPlain:
        return None


def _scan(text: str, first_line: int, previous: Mapping[str, str]) -> GameTags:
    if "{" in text:
        text = _without_comments(text)
    text = "\n" + text.removesuffix("\n")
    found = _ITEM.findall(text)
    if not found:
        raise _NotPlain
    # The tags' names, values and sections, each a tuple: the work is done a
    # column at a time, in comprehensions, rather than tag by tag.
    names, values, sections = zip(*found)
    shared = _NAMES.get(names)
    if shared is None:
        # (A name other than the repeatable ones given twice: the full scan reports it.)
        repeats = len(set(names)) + sum(
            max(0, names.count(name) - 1) for name in REPEATABLE
        ) != len(names)
        shared = () if repeats else names
        if len(_NAMES) < 2048:
            _NAMES[names] = shared
    if not shared:
        raise _NotPlain
    names = shared
    if "\\" in text:
        # (Most of such a game's values have no backslash: only those are read, by
        # index, and the "#" values copied after, as for any game.)
        values = _unescaped(values)
        if INHERIT in values:
            values = _inherited(names, values, previous)
    elif _INHERITED in text:
        values = _inherited(names, values, previous)
    # Each tag's line: a line for the tag and one for each line of its section. Most
    # tags have no section: their lines are runs of numbers, one range each between
    # the few tags that have one.
    lines: list[int] = []
    line = first_line
    done = 0
    for index in compress(range(len(sections)), sections):
        lines.extend(range(line, line + index + 1 - done))
        line += index + 1 - done + sections[index].count("\n")
        done = index + 1
    lines.extend(range(line, line + len(sections) - done))
    # Every line must belong to a tag or to its section: a line the pattern skips
    # (a directive, a comment, a word before the first tag) is the full scan's.
    if line + len(sections) - done - first_line != text.count("\n"):
        raise _NotPlain
    # (The sections searched as one text, in C: joining them makes no "[", "{" or
    # ";" that one of them has not.)
    if WORD_BREAK.search("".join(sections)) is not None:
        raise _NotPlain  # a tag after words, a comment
    return GameTags(first_line, names, values, tuple(lines), sections)


def _without_comments(text: str) -> str:
    """The game's text with its ``{comments}`` blanked, when each is where publishers
    put them: on lines of its own, or after a tag pair at the end of its line (and
    nothing after the ``}``). A comment's own lines become a single space (a blank
    line in a section, which adds no word and keeps every line's number), and the
    tag before a comment stays. Any other ``{`` (in a value, between words, a
    comment left open) is the full scan's: :class:`_NotPlain`."""
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
    names: tuple[str, ...], given: tuple[str, ...], previous: Mapping[str, str]
) -> tuple[str, ...]:
    """The values with each ``#`` replaced by the value it copies (found by
    ``tuple.index``, which runs in C: most values are no ``#``)."""
    values = list(given)
    at = -1
    # (Counted first: a search past the last "#" would raise, and an exception
    # costs more than the rest of the work.)
    for _ in range(given.count(INHERIT)):
        at = given.index(INHERIT, at + 1)
        inherited = previous.get(names[at])
        if inherited is None:
            raise _NotPlain  # nothing to copy: the full scan reports it
        values[at] = inherited
    return tuple(values)


def _unescaped(given: tuple[str, ...]) -> tuple[str, ...]:
    """The values with their escapes read (only those with a backslash are looked at:
    found in C, as the values holding one)."""
    values = list(given)
    for at in compress(range(len(given)), map(str.__contains__, given, repeat("\\"))):
        values[at] = unescape(given[at])
    return tuple(values)
