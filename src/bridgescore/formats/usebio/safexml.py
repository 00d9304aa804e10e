"""Safe XML for the USEBIO reader: a small element tree with line numbers, no entities.

Untrusted files are parsed by expat with every entity declaration, external
entity and undefined entity refused (nothing is expanded, nothing is fetched),
nesting bounded, and the encoding taken from a byte-order mark or the XML
declaration (decoded here, so Windows code pages read too). Any failure is a
:class:`UsebioError` naming the file and line.

>>> root = parse("<USEBIO Version='1.2'><EVENT/></USEBIO>", "x.xml")
>>> root.tag, root.attrs, root.first("EVENT").line
('USEBIO', {'VERSION': '1.2'}, 1)
"""

from __future__ import annotations

import codecs
import re
import xml.parsers.expat as expat
from collections.abc import Iterator
from dataclasses import dataclass, field

from bridgescore.errors import UsebioError

__all__ = ["MAX_BYTES", "MAX_DEPTH", "Element", "UsebioError", "decode", "parse"]

# Beyond these a "results file" is not one; refusing early keeps memory and recursion bounded.
MAX_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 64


@dataclass(slots=True)
class Element:
    """An XML element: tag and attribute names upper-cased, its line, children and text."""

    tag: str
    attrs: dict[str, str]
    line: int
    children: list[Element] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(self.parts).strip()

    def first(self, tag: str) -> Element | None:
        for child in self.children:
            if child.tag == tag:
                return child
        return None

    def value(self, tag: str) -> str:
        """A child element's text, or the attribute of that name, or ''."""
        child = self.first(tag)
        if child is not None:
            return child.text
        return self.attrs.get(tag, "").strip()

    def all(self, tag: str) -> Iterator[Element]:
        return (child for child in self.children if child.tag == tag)


class _Refused(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line, self.message = line, message


_DECLARATION = re.compile(rb"""^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._\-]+)["']""")


def decode(data: bytes, source: str) -> str:
    """Bytes to text: a BOM first, then the XML declaration's encoding, else UTF-8.

    Decoding here (rather than in expat) also reads the Windows code pages that
    real files declare and expat does not know.
    """
    for bom, codec in (
        (codecs.BOM_UTF8, "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be"),
    ):
        if data.startswith(bom):
            data, encoding = data[len(bom) :], codec
            break
    else:
        match = _DECLARATION.match(data[:200])
        encoding = match[1].decode("ascii") if match else "utf-8"
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise UsebioError(
            source,
            1,
            f"unknown encoding {encoding!r} in the XML declaration: "
            "expected UTF-8, ISO-8859-1, Windows-1252 or another standard encoding",
        ) from None
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        raise UsebioError(
            source,
            0,
            f"byte {error.object[error.start : error.start + 1]!r} at offset "
            f"{error.start} is not {encoding}, the file's declared encoding",
        ) from None


def parse(text: str, source: str) -> Element:
    """Parse XML into a small tree; refuse every entity declaration and external entity."""
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    root: list[Element] = []
    stack: list[Element] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        if len(stack) >= MAX_DEPTH:
            raise _Refused(
                parser.CurrentLineNumber,
                f"elements nested over {MAX_DEPTH} deep: a USEBIO file nests a handful",
            )
        upper = {key.upper(): value for key, value in attrs.items()} if attrs else {}
        node = Element(tag.upper(), upper, parser.CurrentLineNumber)
        if stack:
            stack[-1].children.append(node)
        else:
            root.append(node)
        stack.append(node)

    def end(tag: str) -> None:
        stack.pop()

    def characters(data: str) -> None:
        if stack:
            stack[-1].parts.append(data)

    def refuse_entity(name: str, *args: object) -> None:
        raise _Refused(
            parser.CurrentLineNumber,
            f"the file declares the entity {name!r}: "
            "entity declarations are refused (a USEBIO file needs none)",
        )

    def refuse_external(*args: object) -> int:
        raise _Refused(
            parser.CurrentLineNumber,
            "the file refers to an external entity: external entities are never fetched",
        )

    def refuse_skipped(name: str, is_parameter: bool) -> None:
        raise _Refused(
            parser.CurrentLineNumber,
            f"undefined entity &{name};: "
            "expected only the five XML entities (&amp; &lt; &gt; &quot; &apos;)",
        )

    parser.buffer_text = True  # one text callback per run of text, not per line
    parser.buffer_size = 1 << 16
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = characters
    parser.EntityDeclHandler = refuse_entity
    parser.UnparsedEntityDeclHandler = refuse_entity
    parser.ExternalEntityRefHandler = refuse_external
    parser.SkippedEntityHandler = refuse_skipped
    try:
        parser.Parse(text, True)
    except _Refused as refused:
        raise UsebioError(source, refused.line, refused.message) from None
    except expat.ExpatError as error:
        raise UsebioError(
            source,
            error.lineno,
            "not well-formed XML "
            f"({expat.ErrorString(error.code)}): expected a USEBIO 1.2 results file",
        ) from None
    if not root:
        raise UsebioError(source, 0, "no XML element: expected a USEBIO 1.2 results file")
    return root[0]
