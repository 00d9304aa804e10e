"""What a user holds, read as a file: a path (str or ``Path``), ``-`` for standard input,
or an open file (binary or text).

:func:`source_bytes` is the one place every public reader (``read_records``, session
import, board sets) turns what it is given into bytes. What it refuses, it refuses
with an :class:`~bridgescore.errors.InputFileError` that names the input and says
what was expected, never an ``OSError`` traceback:

- a path that does not exist: ``no such file 'boards.pbn'``;
- a directory, or a file that cannot be read (permissions): said so;
- **file content given where a path was expected**: a str that is no existing
  file and looks like a file's text (it holds a line break, or starts as PBN,
  JSON, a LIN tag or a handviewer link does) is refused with a message saying to
  pass it as ``text=``. It is not read as text on a guess: a path and a text are
  told apart by how they are passed, not by what they look like, so a typing
  slip in a path can never be read as a one-line file.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import IO, Any

from bridgescore.errors import ArgumentTypeError, InputFileError

__all__ = [
    "InputSource",
    "looks_like_content",
    "path_given_as_text",
    "source_bytes",
    "source_name",
]

InputSource = str | os.PathLike[str] | IO[bytes] | IO[str]
"""What a reader takes: a path, ``-`` (standard input), or an open file."""

# How files begin: PBN ("[Tag", "% comment"), JSON ("{", "[{"), a LIN tag ("pn|", "qx|")
# or a handviewer link holding LIN ("https://...lin=") or its hands ("...?n=...").
_CONTENT_START = re.compile(r"\s*(?:\[|\{|%|[A-Za-z]{2}\||https?://\S*(?:lin=|[?&][nesw]=))")
_SHOWN = 40
_NAME_LIMIT = 240


def looks_like_content(text: str) -> bool:
    """Whether a str given as a path is rather a file's text: it holds a line break, or
    starts as a PBN, JSON or LIN file or a handviewer link does.

    >>> looks_like_content('[Board "1"]'), looks_like_content("boards/week 1.pbn")
    (True, False)
    """
    return "\n" in text or "\r" in text or _CONTENT_START.match(text) is not None


def _shown(text: str) -> str:
    """The start of a text, for a message: its first line, cut to 40 characters."""
    first = text.lstrip().splitlines()[0] if text.strip() else text
    return repr(first[:_SHOWN] + ("..." if len(first) > _SHOWN or "\n" in text.strip() else ""))


def source_name(source: InputSource) -> str | None:
    """The file name a source gives (its extension tells the format): the path, an open
    file's ``name``; ``None`` for standard input and for streams with no file name."""
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        return None if name == "-" else name
    given = getattr(source, "name", None)
    # sys.stdin is named "<stdin>", io.StringIO not at all, a file by a descriptor by an int.
    return given if isinstance(given, str) and not given.startswith("<") else None


def source_bytes(source: InputSource, function: str, text_call: str | None = None) -> bytes:
    """The bytes of a path, of standard input (``-``) or of an open file: a text stream's
    str is encoded as UTF-8, which the readers decode back unchanged.

    ``function`` names the caller in messages, and ``text_call`` how it takes a
    file's text instead (default ``function(text=...)``), said when a file's text is
    given as a path. Raises :class:`~bridgescore.errors.InputFileError` for input
    that cannot be read, as the module's docstring lists.
    """
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        if name == "-":
            # Standard input's bytes, from its buffer where it has one, so that they are
            # decoded as a file's are rather than in the locale's encoding.
            return _stream_bytes(getattr(sys.stdin, "buffer", sys.stdin))
        return _path_bytes(name, function, text_call or f"{function}(text=...)")
    if hasattr(source, "read"):
        return _stream_bytes(source)
    hint = " (a file's bytes: io.BytesIO(data))" if isinstance(source, (bytes, bytearray)) else ""
    raise ArgumentTypeError(
        f"{function} cannot read {type(source).__name__} {_repr(source)}{hint}: expected a "
        "path (str or Path), '-' for standard input, or an open file"
    )


def _repr(value: object, limit: int = _SHOWN) -> str:
    """A value for a message, cut to about ``limit`` characters."""
    shown = repr(value)
    return shown if len(shown) <= limit + 2 else shown[:limit] + "..."


def _name(name: str) -> str:
    """A file name for a message: whole, unless it is longer than any real one."""
    return _repr(name, _NAME_LIMIT)


def _stream_repr(stream: object) -> str:
    """An open file for a message: its file name, else what it is."""
    name = source_name(stream)  # type: ignore[arg-type]
    return _name(name) if name is not None else f"the open file {_repr(stream)}"


def _path_bytes(name: str, function: str, text_call: str) -> bytes:
    path = Path(name)
    try:
        return path.read_bytes()
    except (FileNotFoundError, ValueError):  # ValueError: a NUL character in the name
        if looks_like_content(name):
            raise InputFileError(
                f"{function} was given the text of a file ({_shown(name)}), not a path: "
                f"pass text as {text_call}"
            ) from None
        if "\0" in name:
            raise InputFileError(
                f"{_name(name)} is no file name: it holds a NUL character"
            ) from None
        raise InputFileError(f"no such file {_name(name)}") from None
    except IsADirectoryError:
        raise InputFileError(f"{_name(name)} is a directory: expected a file") from None
    except OSError as error:
        if looks_like_content(name):
            # "File name too long" and the like: the text of a file, given as a path.
            raise InputFileError(
                f"{function} was given the text of a file ({_shown(name)}), not a path: "
                f"pass text as {text_call}"
            ) from None
        raise InputFileError(f"cannot read {_name(name)}: {error.strerror or error}") from None


def _stream_bytes(stream: Any) -> bytes:
    """An open file's bytes: a binary stream's as they are, a text stream's as UTF-8."""
    try:
        data = stream.read()
    except OSError as error:
        shown = _stream_repr(stream)
        raise InputFileError(f"cannot read {shown}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        # A text stream opened with the wrong encoding: reopened in binary ("rb"), the
        # file's encoding is found as for a path.
        raise InputFileError(
            f"cannot read {_stream_repr(stream)} as {error.encoding}: open the file in binary "
            "mode ('rb') and its encoding is found (UTF-8, Windows-1252 or Latin-1)"
        ) from None
    if isinstance(data, str):
        try:
            # Bytes a stream decoded with "surrogateescape" go back to what they were.
            return data.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            return data.encode("utf-8", "replace")  # a lone surrogate of another kind
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    raise InputFileError(
        f"cannot read {_stream_repr(stream)}: its read() gave {type(data).__name__}, "
        "expected bytes or str"
    )


def path_given_as_text(text: str, function: str, path_call: str) -> None:
    """Refuse the path of an existing file given where its text was expected (text that
    is one line naming a file): :class:`~bridgescore.errors.InputFileError` saying to
    pass it as ``path_call``; any other text passes."""
    if len(text) > 4096 or looks_like_content(text) or not text.strip():
        return
    try:
        is_file = Path(text).is_file()
    except (OSError, ValueError):  # a name the system cannot hold (a NUL byte, too long)
        return
    if is_file:
        raise InputFileError(
            f"{function} was given the path of a file ({_repr(text)}) as its text: "
            f"pass the path as {path_call}"
        )
