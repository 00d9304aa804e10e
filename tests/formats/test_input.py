"""The one check of every input file (formats.check_input): empty, binary, or text."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

from bridgescore.errors import BinaryInputError, BridgeError, EmptyInputError
from bridgescore.formats import check_input, checked_text, is_binary, read_records

DATA = Path(__file__).parents[1] / "data"
TEXT_FIXTURES = sorted(
    path for path in [*DATA.iterdir(), *(DATA / "formats").iterdir()] if path.is_file()
)
PBN = b'[Event "Club"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Contract "3NT"]\n'
BINARY_MESSAGE = (
    "cannot tell the format of 'x.pbn': it holds binary data (or UTF-16 text), "
    "which is not UTF-8, Windows-1252 or Latin-1 text: expected a text file"
)


@pytest.mark.parametrize("path", TEXT_FIXTURES, ids=lambda path: path.name)
def test_every_text_fixture_is_text(path: Path) -> None:
    # Latin-1, Windows-1252, CRLF, UTF-8 with and without a byte order mark among them.
    if path.suffix not in (".parquet", ".bws"):  # binary by nature: Parquet, Access
        assert not is_binary(path.read_bytes())


@pytest.mark.parametrize(
    "data",
    [
        # A PNG file's signature and the start of its header chunk.
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x01\x00\x08\x06",
        b"SQLite format 3\x00" + bytes(84),  # an event file's first 100 bytes
        b"\x7fELF\x02\x01\x01\x00" + bytes(8),  # a Linux program
        gzip.compress(PBN * 40, mtime=0),
        np.random.default_rng(2026).integers(0, 256, 600, dtype=np.uint8).tobytes(),
        PBN.decode().encode("utf-16"),  # with its byte order mark, as Windows writes it
        PBN.decode().encode("utf-16-le"),  # without: a NUL beside every letter
        PBN.decode().encode("utf-32"),
    ],
    ids=["png", "sqlite", "elf", "gzip", "random", "utf-16", "utf-16-le", "utf-32"],
)
def test_binary_data_is_told_apart(data: bytes) -> None:
    assert is_binary(data)
    with pytest.raises(BinaryInputError) as raised:
        check_input(data, "x.pbn")
    assert str(raised.value) == BINARY_MESSAGE  # the bytes themselves are never echoed


def test_the_rule_more_than_one_control_byte_and_more_than_one_in_a_hundred() -> None:
    line = b"4S= NS\n"  # 7 bytes of text
    assert not is_binary(b"\x01")  # one stray byte stays text, however short the file
    assert not is_binary(PBN + b"\x00" + PBN)
    assert is_binary(b"\x01\x02")
    assert is_binary(line * 28 + b"\x01\x02")  # 2 in 198: more than one in a hundred
    assert not is_binary(line * 28 + b"\x01\x02" + b"\n" * 2)  # 2 in 200: exactly 1 %
    assert is_binary(line * 28 + b"\x01\x02\x03" + b"\n")  # 3 in 200
    # Tab, line ends, vertical tab, form feed, Ctrl-Z and escape are text.
    assert not is_binary(b"\t\n\v\f\r\x1a\x1b" * 100)
    assert is_binary(b"\x7f" * 3)  # DEL is not
    # Only the first 8 KiB are looked at.
    assert not is_binary(b"x" * 8192 + b"\x00" * 100)
    assert is_binary(b"x" * 8000 + b"\x00" * 100)


@pytest.mark.parametrize("data", [b"", b" \n\t\r\n", b"\xef\xbb\xbf", b"\xef\xbb\xbf\n\n"])
def test_empty_input_is_no_boards_found(data: bytes) -> None:
    with pytest.raises(EmptyInputError) as raised:
        check_input(data, "empty.pbn")
    assert str(raised.value) == "no boards found in 'empty.pbn'"
    with pytest.raises(EmptyInputError) as raised:
        check_input(data, "-")
    assert str(raised.value) == "no boards found in standard input"


def test_both_errors_are_bridge_errors() -> None:
    # So every caller that reports a BridgeError (the CLI, the web page) reports these.
    assert issubclass(EmptyInputError, BridgeError) and issubclass(BinaryInputError, BridgeError)


def test_text_passes_and_is_decoded_as_every_reader_decodes() -> None:
    check_input(PBN, "x.pbn")
    data = '[Event "Café"]\n'.encode("latin-1") + '[Site "Zoë"]\n'.encode()
    assert checked_text(data, "x.pbn") == '[Event "Café"]\n[Site "Zoë"]\n'


def test_usebio_in_utf16_is_left_to_its_reader() -> None:
    # An XML document names its own encoding; the USEBIO reader reads UTF-16.
    xml = '<?xml version="1.0" encoding="UTF-16"?>\n<USEBIO Version="1.2"></USEBIO>\n'
    check_input(xml.encode("utf-16"), "results.xml")


def test_read_records_makes_the_check(tmp_path: Path) -> None:
    empty, binary = tmp_path / "empty.pbn", tmp_path / "x.pbn"
    empty.write_bytes(b"")
    binary.write_bytes(b"\x00\x01\x02\x03[Board")
    with pytest.raises(EmptyInputError, match="no boards found in"):
        list(read_records(empty))
    with pytest.raises(BinaryInputError, match="it holds binary data"):
        list(read_records(binary))
    # Text given as text is read as it is: no records, no error.
    assert list(read_records(text="", format="pbn")) == []
