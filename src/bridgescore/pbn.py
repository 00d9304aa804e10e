"""The PBN tag-pair reader and writer, now :mod:`bridgescore.formats.pbn`.

Kept so that code importing ``bridgescore.pbn`` goes on working.
"""

from bridgescore.formats.pbn import (
    EXPORT_TAGS,
    PbnGame,
    Problem,
    TagPair,
    Token,
    decode_lines,
    format_game,
    format_pbn,
    note_number,
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
    "decode_lines",
    "format_game",
    "format_pbn",
    "note_number",
    "read_games",
    "split_annotations",
    "tag_rows",
]
