"""Reading from whatever the user holds (issue 27, item 2).

``read_records``, session import (``import_files``, ``import_data``) and board sets
(``read_board_set``, ``read_boards``) take a path (str or ``Path``), ``-``, an open
file (binary or text) or text. A file's text given as a path, and a path given as
text, are refused with an ``InputFileError`` saying what to pass instead; a path
that is no file is "no such file" naming it, never an ``OSError`` traceback.
"""

from __future__ import annotations

import io
import os
import sys
import tempfile
from pathlib import Path

import pytest

from bridgescore.errors import (
    ArgumentTypeError,
    BridgeError,
    EmptyInputError,
    InputFileError,
    InvalidArgumentError,
)
from bridgescore.formats import read_records
from bridgescore.formats.boardset import read_board_set, read_boards
from bridgescore.session.importers.importer import import_data, import_files
from bridgescore.session.store.events import EventStore

DATA = Path(__file__).parents[1] / "data" / "formats"
GAME = '[Board "1"]\n[Dealer "N"]\n[Contract "3NT"]\n[Declarer "S"]\n[Result "9"]\n'
DEAL = "N:873.A65.Q95.AJ42 Q6.K9842.AJ842.T AKT2.3.T763.9865 J954.QJT7.K.KQ73"
# The players of names_*.pbn, as they are written in every encoding.
NAMES = ("Zoë Ågren", "Seán O’Brien", "Jürgen Müller", "Anaïs Lefèvre")


def _summary(records: object) -> list[tuple[int | None, str]]:
    return [(r.board, str(r.contract)) for r in records]  # type: ignore[attr-defined]


@pytest.fixture
def in_tmp(tmp_path: Path) -> Path:
    """Run in an empty directory, so that a short name is surely no file."""
    before = Path.cwd()
    os.chdir(tmp_path)
    yield tmp_path  # type: ignore[misc]
    os.chdir(before)


def test_the_text_of_a_file_given_as_a_path_says_to_pass_text() -> None:
    with pytest.raises(InputFileError) as caught:
        read_records(GAME)
    assert str(caught.value) == (
        "read_records was given the text of a file ('[Board \"1\"]...'), not a path: "
        "pass text as read_records(text=...)"
    )
    # One of ours, with one base (errors.py): no longer an OSError.
    assert isinstance(caught.value, BridgeError) and not isinstance(caught.value, OSError)
    # One line that starts as a file does (a PBN tag, a LIN tag, JSON) is text as well.
    for text in ('[Board "1"]', "pn|Ann,Bob,Cy,Di|md|1S...|", '{"board": 1}'):
        with pytest.raises(InputFileError, match=r"pass text as read_records\(text=\.\.\.\)"):
            read_records(text)
    # ... and text= reads it.
    assert _summary(read_records(text=GAME)) == [(1, "3NTS")]


def test_a_missing_path_is_no_such_file(in_tmp: Path) -> None:
    with pytest.raises(InputFileError) as caught:
        read_records("boards.pbn")
    assert str(caught.value) == "no such file 'boards.pbn'"
    with pytest.raises(InputFileError, match=r"^no such file 'week 1/boards\.pbn'$"):
        read_records(Path("week 1") / "boards.pbn")
    with pytest.raises(InputFileError, match=r"^'\.' is a directory: expected a file$"):
        read_records(".")
    # A name too long for the system is said so, and cut in the message.
    with pytest.raises(InputFileError, match=r"^cannot read 'xxxx.*\.\.\.: File name too long$"):
        read_records("x" * 5000)


def test_paths_and_open_files_read_alike(in_tmp: Path) -> None:
    (in_tmp / "game.pbn").write_text(GAME)
    expected = [(1, "3NTS")]
    assert _summary(read_records("game.pbn")) == expected
    assert _summary(read_records(in_tmp / "game.pbn")) == expected
    with open("game.pbn", "rb") as binary:
        assert _summary(read_records(binary)) == expected
    with open("game.pbn", encoding="utf-8") as text:
        assert _summary(read_records(text)) == expected
    assert _summary(read_records(io.BytesIO(GAME.encode()))) == expected
    assert _summary(read_records(io.StringIO(GAME))) == expected
    # The file's name tells the format by its extension, as a path's does: this PBN
    # starts with a comment, which by content alone reads as JSON.
    commented = "{Hand records of the week}\n" + GAME
    (in_tmp / "commented.pbn").write_text(commented)
    with open("commented.pbn", "rb") as binary:
        assert _summary(read_records(binary)) == expected
    # With no name, the content alone says JSON, and the record is the JSON reader's problem.
    (unnamed,) = read_records(io.BytesIO(commented.encode()))
    assert unnamed.board is None and unnamed.problems[0].message.startswith("not JSON")
    assert _summary(read_records(io.BytesIO(commented.encode()), format="pbn")) == expected


@pytest.mark.parametrize("name", ["names_utf8.pbn", "names_utf8_bom.pbn", "names_cp1252_crlf.pbn"])
def test_a_binary_file_has_its_encoding_found_as_a_path_does(name: str) -> None:
    data = (DATA / name).read_bytes()
    (record,) = read_records(io.BytesIO(data))
    assert record.players == (NAMES[0], NAMES[1], NAMES[2], NAMES[3])
    with open(DATA / name, "rb") as binary:
        (record,) = read_records(binary)
    assert record.players == (NAMES[0], NAMES[1], NAMES[2], NAMES[3])


def test_a_text_file_opened_in_the_wrong_encoding_says_to_open_it_in_binary() -> None:
    path = DATA / "names_cp1252_crlf.pbn"
    with open(path, encoding="utf-8") as text, pytest.raises(InputFileError) as caught:
        read_records(text)
    assert str(caught.value) == (
        f"cannot read {str(path)!r} as utf-8: open the file in binary mode ('rb') and its "
        "encoding is found (UTF-8, Windows-1252 or Latin-1)"
    )


def test_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = io.TextIOWrapper(io.BytesIO((DATA / "names_cp1252_crlf.pbn").read_bytes()))
    monkeypatch.setattr(sys, "stdin", stdin)
    (record,) = read_records("-")
    assert record.players[0] == NAMES[0] and record.source.file is None


def test_empty_and_wrong_arguments(in_tmp: Path) -> None:
    with pytest.raises(EmptyInputError, match=r"^no boards found in '<BytesIO>'$"):
        read_records(io.BytesIO(b"  \n"))
    (in_tmp / "game.pbn").write_text(GAME)
    with pytest.raises(InputFileError) as caught:
        read_records(text="game.pbn")
    assert str(caught.value) == (
        "read_records was given the path of a file ('game.pbn') as its text: "
        "pass the path as read_records(path)"
    )
    with pytest.raises(InvalidArgumentError, match="both a path"):
        read_records("game.pbn", text=GAME)
    with pytest.raises(ArgumentTypeError) as wrong:
        read_records(GAME.encode())  # type: ignore[arg-type]
    message = str(wrong.value)
    assert message.startswith('read_records cannot read bytes b\'[Board "1"]')
    assert message.endswith(
        "(a file's bytes: io.BytesIO(data)): expected a path (str or Path), "
        "'-' for standard input, or an open file"
    )
    with pytest.raises(ArgumentTypeError, match="the text to read must be a str, got a bytes"):
        read_records(text=GAME.encode())  # type: ignore[arg-type]


def _session_game(board: int) -> str:
    return (
        f'[Board "{board}"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{DEAL}"]\n'
        '[PairNS "1"]\n[PairEW "2"]\n[Declarer "N"]\n[Contract "3NT"]\n[Result "9"]\n'
    )


def test_session_import_from_whatever_the_user_holds(in_tmp: Path) -> None:
    (in_tmp / "one.pbn").write_text(_session_game(1))
    with tempfile.TemporaryDirectory() as folder, EventStore(Path(folder) / "e.db") as store:
        # One path alone is one file (not the characters of its name).
        assert import_files(store, "one.pbn").results.added == 1
        with open("one.pbn", "rb") as binary:
            report = import_files(store, [binary, io.StringIO(_session_game(2))])
        assert report.ok and report.files == 2
        assert (report.results.unchanged, report.results.added) == (1, 1)
        # A file's text as import_data's data (a str) imports as its bytes do.
        report = import_data(store, _session_game(3), "three.pbn")
        assert report.ok and report.results.added == 1
        assert sorted(r.board for r in store.results()) == [1, 2, 3]
        # What cannot be read is a problem in the report, naming the file.
        report = import_files(store, ["missing.pbn", _session_game(4)])
        messages = [problem.message for problem in report.problems]
        assert messages == [
            "cannot read the file: no such file 'missing.pbn'",
            "cannot read the file: import_files was given the text of a file "
            "('[Board \"4\"]...'), not a path: pass text as import_data(store, text, name)",
        ]
        assert str(report.problems[0]).startswith("missing.pbn")
        with pytest.raises(
            InputFileError, match=r"pass the path as import_files\(store, \[path\]\)"
        ):
            import_data(store, "one.pbn", "one.pbn")
        with pytest.raises(ArgumentTypeError, match=r"import_data\(store, data, name\)"):
            import_files(store, b"[Board")  # type: ignore[arg-type]


def test_board_sets_from_whatever_the_user_holds(in_tmp: Path) -> None:
    text = f'[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{DEAL}"]\n'
    (in_tmp / "hands.pbn").write_text(text)
    for source in ("hands.pbn", in_tmp / "hands.pbn", io.BytesIO(text.encode())):
        boards, problems = read_board_set(source)
        assert [(b.number, b.deal.to_pbn()) for b in boards] == [(1, DEAL)] and problems == []
    boards, problems = read_board_set(text=text)
    assert [b.number for b in boards] == [1] and problems == []
    with pytest.raises(InputFileError, match=r"pass the path as read_board_set\(path\)"):
        read_boards("hands.pbn", "pbn")
    with pytest.raises(InputFileError, match=r"^no such file 'gone\.pbn'$"):
        read_board_set("gone.pbn")
    with pytest.raises(InputFileError, match=r"pass text as read_board_set\(text=\.\.\.\)"):
        read_board_set(text.replace("\n", "\n "))
