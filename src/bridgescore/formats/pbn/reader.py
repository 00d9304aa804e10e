"""The one PBN reader: :func:`read_pbn`, PBN text or lines to board records.

One grammar (:mod:`.syntax`) and one set of tag rules (:mod:`.records`), and two
scans of the grammar. Text is split into games at its blank lines, and a game
written plainly has its tag pairs found by the fast scan (:mod:`._fast`, one
pattern over the game's text); any other game (one with a comment between words,
say), and lines from a file, go through the full scan,
:func:`~bridgescore.formats.pbn.syntax.read_games`. Either scan gives the game's
tag pairs as :class:`~bridgescore.formats.pbn.records.GameTags`, which the one
reader reads into a record, so both give the same records
(``tests/formats/pbn/test_scans.py`` checks it, through ``read_pbn``'s private
``_fast`` switch).

>>> (record,) = read_pbn('[Board "1"]\\n[Contract "3NT"]\\n[Declarer "S"]\\n[Result "9"]\\n')
>>> record.board, str(record.contract), record.result
(1, '3NTS', 9)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from bridgescore.formats.pbn._fast import scan_plainly
from bridgescore.formats.pbn.records import FileReader
from bridgescore.formats.pbn.syntax import UNCLOSED_COMMENT, PbnGame, read_games
from bridgescore.formats.record import BoardRecord

__all__ = ["read_pbn"]


def read_pbn(
    source: Iterable[str] | str, file: str | None = None, *, _fast: bool = True
) -> Iterator[BoardRecord]:
    """Board records of PBN text (a string or lines), lazily.

    Text is split into games at its blank lines, and each game written plainly has
    its tags found by the fast scan; any other game (one with a ``{`` comment
    between words, say), and lines from a file, go through the full scan
    (:func:`~bridgescore.formats.pbn.syntax.read_games`). The tags found either way
    are read by the one set of tag rules (:mod:`~bridgescore.formats.pbn.records`),
    so both give the same records; ``_fast`` (private, for the tests that check it)
    set to False sends the whole text to the full scan.
    """
    if _fast and isinstance(source, str) and _only_lf(source):
        return _read_text(source, file)
    return _records_of(FileReader(file), read_games(source))


def _only_lf(text: str) -> bool:
    """Whether the text's only line break is LF. Text holding another that
    str.splitlines (and so the full scan) honours is left to the full scan, so
    that both count lines alike. (One ``in`` a character: each is a fast search.)"""
    if text.isascii():
        return not any(char in text for char in "\r\x0b\x0c\x1c\x1d\x1e")
    return not any(char in text for char in "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


# A line of spaces alone (a blank line, as a line with nothing is).
_SPACES_ALONE = re.compile(r"\n[^\S\n]+(?=\n)")


def _read_text(text: str, file: str | None) -> Iterator[BoardRecord]:
    reader = FileReader(file)
    # Blank lines end games: lines of spaces are emptied (keeping the lines' count)
    # so that the games are the pieces between two line breaks in a row.
    text = "\n" + text.removeprefix("\ufeff") + "\n"  # the first and last lines too
    if _SPACES_ALONE.search(text) is not None:
        text = _SPACES_ALONE.sub("\n", text)
    tags: dict[str, str] = {}  # every tag so far, the latest value of each: what "#" copies
    line = 0  # the line of the piece's first character (the "\n" added is line 0)
    pieces = text.split("\n\n")
    for index, piece in enumerate(pieces):
        game = piece.strip("\n")
        if not game:
            line += piece.count("\n") + 2
            continue
        first = line + len(piece) - len(piece.lstrip("\n"))  # the game's first line
        # Most games are written plainly (their comments, if any, where publishers put
        # them): their tags are found by the fast scan.
        plain = scan_plainly(game, first, tags)
        if plain is not None:
            # (The game's tags join those "#" copies, the first of several Notes.)
            tags.update(zip(reversed(plain.names), reversed(plain.values)))
            record = reader.record(plain)
            if record is not None:  # (None: a header game)
                yield record
        elif "{" not in game:
            yield from _records_of(
                reader, read_games(game.split("\n"), first_line=first, previous=tags), tags
            )
        else:
            # Any other game with a "{" goes to the full scan. A comment may hold a
            # blank line, which then ends no game: if one is left open here, the rest
            # of the text, from this game on, is the full scan's alone.
            games = list(read_games(game.split("\n"), first_line=first, previous=tags))
            if games and any(p.message == UNCLOSED_COMMENT for p in games[-1].problems):
                rest = "\n\n".join(pieces[index:]).split("\n")
                yield from _records_of(reader, read_games(rest, first_line=line, previous=tags))
                return
            yield from _records_of(reader, games, tags)
        line += piece.count("\n") + 2


def _records_of(
    reader: FileReader, games: Iterable[PbnGame], tags: dict[str, str] | None = None
) -> Iterator[BoardRecord]:
    """The records of games found by the full scan, each game's tags added to ``tags``
    (what ``#`` copies in the games after them)."""
    for pbn_game in games:
        if tags is not None:
            tags.update(pbn_game.tags)
        found = reader.game_record(pbn_game)
        if found is not None:
            yield found
