"""PBN (Portable Bridge Notation 2.1): one reader, :func:`read_pbn`, and one writer.

- :mod:`.syntax`: the grammar (tag pairs, sections, escapes and comments, without
  meaning) and its full scan, :func:`read_games` (lines to :class:`PbnGame`);
  :func:`format_game` and :func:`format_pbn` (the strict writer);
- :mod:`._fast`: a faster scan of the same grammar, for games written plainly;
- :mod:`.tags`: the tag list a record reads and the pass rules (``AP``, opening
  passes a file leaves out);
- :mod:`.records`: the one set of tag rules, both ways: either scan's tag pairs to
  board records, and :func:`record_pairs` (a record's tag pairs for the writer);
- :mod:`.reader`: :func:`read_pbn`, text or lines to board records.

>>> (record,) = read_pbn('[Board "2"]\\n[Contract "4S"]\\n[Declarer "E"]\\n[Result "10"]\\n')
>>> record.board, str(record.contract), record.result
(2, '4SE', 10)
"""

from __future__ import annotations

from bridgescore.formats.pbn.reader import read_pbn
from bridgescore.formats.pbn.records import record_pairs
from bridgescore.formats.pbn.syntax import (
    EXPORT_TAGS,
    PbnGame,
    Problem,
    TagPair,
    Token,
    decode_line,
    decode_lines,
    format_game,
    format_pbn,
    note_number,
    pbn_value,
    read_games,
    split_annotations,
    tag_rows,
)

__all__ = [
    "EXPORT_TAGS",
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
    "read_pbn",
    "record_pairs",
    "split_annotations",
    "tag_rows",
]
