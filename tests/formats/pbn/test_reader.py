"""The generic PBN layer: streaming reader (tags, sections, comments, problems), strict writer."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore import NotationError
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

DATA = Path(__file__).parents[2] / "data"


def words(pair: TagPair | None) -> list[str]:
    assert pair is not None
    return [token.text for token in pair.tokens]


def test_tags_sections_and_lines() -> None:
    text = (
        "% PBN 2.1\n"  # 1
        '[Event "Club"]\n'  # 2
        '[Board "1"]\n'  # 3
        '[Auction "N"]\n'  # 4
        "1NT Pass 3NT Pass\n"  # 5
        "Pass Pass\n"  # 6
        '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\n'  # 7
        "N NT 9\n"  # 8
        "S NT 9\n"  # 9
    )
    (game,) = read_games(text)
    assert game.line == 2
    assert dict(game.tags) == {
        "Event": "Club",
        "Board": "1",
        "Auction": "N",
        "OptimumResultTable": "Declarer;Denomination\\2R;Result\\2R",
    }
    assert game.line_of("Auction") == 4 and game.line_of("Missing") == 2
    auction = game.section("Auction")
    assert words(auction) == ["1NT", "Pass", "3NT", "Pass", "Pass", "Pass"]
    assert auction is not None and [t.line for t in auction.tokens] == [5, 5, 5, 5, 6, 6]
    table = game.section("OptimumResultTable")
    assert table is not None
    assert [[t.text for t in row] for row in table.rows] == [["N", "NT", "9"], ["S", "NT", "9"]]
    assert [row[0].line for row in table.rows] == [8, 9]
    assert game.problems == ()
    assert game.section("Play") is None


def test_games_split_on_blank_lines_and_stream() -> None:
    lines = iter(['[Board "1"]\n', "\n", "\n", '[Board "2"]\n', "\n", '[Board "3"]'])
    games = read_games(lines)
    first = next(games)
    assert first.tags["Board"] == "1"
    # Lazy: the rest of the input is still unread.
    assert next(lines) == "\n"
    assert [game.tags["Board"] for game in games] == ["2", "3"]


def test_reads_an_open_file() -> None:
    with (DATA / "games_export.pbn").open(encoding="utf-8") as stream:
        games = list(read_games(stream))
    assert [game.tags["Board"] for game in games] == ["3", "4", "5", "6"]
    assert all(game.problems == () for game in games)
    assert games[0].line == 4 and games[1].line == 38


def test_escapes_in_tag_values() -> None:
    (game,) = read_games('[Event "The \\"Big\\" one \\\\ 2026"]\n')
    assert game.tags["Event"] == 'The "Big" one \\ 2026'


def test_comments_semicolon_and_braces() -> None:
    text = (
        '[Board "1"] ; rest of line\n'
        "{ a comment\n"
        "\n"  # blank line inside the comment: not the end of the game
        "  still the comment }\n"
        '[Auction "N"]\n'
        "1C { inline } Pass ; trailing\n"
    )
    (game,) = read_games(text)
    assert words(game.section("Auction")) == ["1C", "Pass"]
    assert game.comments == (
        "rest of line",
        "a comment\n\n  still the comment",
        "inline",
        "trailing",
    )


def test_several_tags_on_one_line() -> None:
    (game,) = read_games('[Board "1"] [Dealer "E"]\n[Contract "4S"]')
    assert dict(game.tags) == {"Board": "1", "Dealer": "E", "Contract": "4S"}


def test_inheritance_with_hash() -> None:
    text = '[Event "Club"]\n[Board "1"]\n\n[Event "#"]\n[Board "2"]\n\n[Event "#"]\n'
    games = list(read_games(text))
    assert [game.tags["Event"] for game in games] == ["Club", "Club", "Club"]
    (alone,) = read_games('[Site "#"]\n')
    assert alone.problems[0].line == 1 and "previous game" in alone.problems[0].message


def test_notes_are_repeatable_and_read() -> None:
    (game,) = read_games('[Auction "N"]\n1C =1= =2=\n[Note "1:strong"]\n[Note "2:art: 16+"]\n')
    assert game.notes == {"1": "strong", "2": "art: 16+"}
    assert game.problems == ()


def test_problems_have_line_numbers_and_reading_goes_on() -> None:
    text = (
        '[Board "1"]\n'  # 1
        '[Board "2"]\n'  # 2 repeated tag: ignored
        '[Dealer "N]\n'  # 3 malformed
        "\n"  # 4
        "words before any tag\n"  # 5
        '[Board "3"]\n'  # 6
        "\n"  # 7
        '[Board "4"]\n'  # 8
        "{ never closed\n"  # 9
        "\n"  # 10
    )
    games = list(read_games(text))
    assert len(games) == 3
    first, second, third = games
    assert first.tags["Board"] == "1"
    assert [problem.line for problem in first.problems] == [2, 3]
    assert "repeated" in first.problems[0].message
    assert "'[Dealer \"N]'" in first.problems[1].message
    assert second.tags["Board"] == "3"
    assert second.problems[0].line == 5 and "'words'" in second.problems[0].message
    assert third.problems == (Problem(9, "comment opened with '{' is never closed with '}'"),)
    assert str(third.problems[0]).startswith("line 9: ")


def test_bad_file_every_game_read() -> None:
    games = list(read_games((DATA / "games_bad.pbn").read_text(encoding="utf-8")))
    assert len(games) == 8
    assert games[2].problems[0].line == 27


def test_empty_and_comment_only_input() -> None:
    assert list(read_games("")) == []
    assert list(read_games("% only a directive\n\n\n")) == []


def test_split_annotations() -> None:
    tokens = [Token(text, 1) for text in ["1C!", "=1=", "1H", "$2", "Pass", "?!", "2S!?", "X"]]
    pairs = [(token.text, marks) for token, marks in split_annotations(tokens)]
    assert pairs == [
        ("1C", ("!", "=1=")),
        ("1H", ("$2",)),
        ("Pass", ("?!",)),
        ("2S", ("!?",)),
        ("X", ()),
    ]
    leading = list(split_annotations([Token("=1=", 3), Token("SA", 3)]))
    assert [(t.text, marks) for t, marks in leading] == [("", ("=1=",)), ("SA", ())]
    assert note_number("=12=") == "12" and note_number("!") is None


# -- writer --------------------------------------------------------------------------


def test_export_form_orders_the_mandatory_tags_and_fills_them() -> None:
    pairs = [
        TagPair.build("Auction", "N", tag_rows(["1NT", "Pass", "3NT", "Pass", "Pass", "Pass"])),
        TagPair.build("Board", "1"),
        TagPair.build("Event", 'A "quoted" \\ name'),
    ]
    text = format_game(pairs)
    lines = text.splitlines()
    assert [line.split()[0][1:] for line in lines[:15]] == list(EXPORT_TAGS)
    assert lines[0] == '[Event "A \\"quoted\\" \\\\ name"]'
    assert lines[1] == '[Site "?"]'
    assert lines[3] == '[Board "1"]'
    assert lines[15:] == ['[Auction "N"]', "1NT Pass 3NT Pass", "Pass Pass"]
    (game,) = read_games(text)
    assert game.tags["Event"] == 'A "quoted" \\ name'


def test_format_pbn_file_round_trip() -> None:
    games = [[TagPair.build("Board", str(board))] for board in (1, 2, 3)]
    text = format_pbn(games)
    assert text.startswith("% PBN 2.1\n% EXPORT\n\n[Event")
    assert text.endswith('[Result "?"]\n')
    assert "\n\n\n" not in text
    assert [game.tags["Board"] for game in read_games(text)] == ["1", "2", "3"]


def test_writer_is_strict() -> None:
    with pytest.raises(NotationError, match="tag name"):
        format_game([TagPair.build("bad name", "x")])
    with pytest.raises(NotationError, match="tag name"):
        format_game([TagPair.build("lower", "x")])
    with pytest.raises(NotationError, match="one line"):
        format_game([TagPair.build("Event", "two\nlines")])
    with pytest.raises(NotationError, match="twice"):
        format_game([TagPair.build("Board", "1"), TagPair.build("Board", "2")])
    with pytest.raises(NotationError, match="cannot be written"):
        format_game([TagPair.build("Auction", "N", [["1NT", "{x}"]])])
    with pytest.raises(NotationError, match="too long"):
        format_game([TagPair.build("Event", "x" * 300)])
    # Notes may repeat.
    text = format_game(
        [TagPair.build("Note", "1:a"), TagPair.build("Note", "2:b")], fill_missing=False
    )
    assert text == '[Note "1:a"]\n[Note "2:b"]'


def test_format_game_of_a_read_game() -> None:
    (game,) = read_games('[Board "9"]\n[Auction "E"]\n1C  Pass\n  AP\n')
    assert isinstance(game, PbnGame)
    text = format_game(game, fill_missing=False)
    assert text == '[Board "9"]\n[Auction "E"]\n1C Pass\nAP'


_value = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\n\r"),
    max_size=40,
).filter(lambda value: value != "#")  # "#" means: the previous game's value


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.sampled_from(["Event", "Site", "West", "Annotator", "X_1"]), _value))
def test_tag_values_round_trip(tags: dict[str, str]) -> None:
    text = format_pbn([[TagPair.build(name, value) for name, value in tags.items()]])
    (game,) = read_games(io.StringIO(text))
    for name, value in tags.items():
        assert game.tags[name] == value
    assert game.problems == ()


def test_byte_order_mark_and_crlf() -> None:
    (game,) = read_games(["\ufeff% PBN 2.1\r\n", '[Board "1"]\r\n', '[Dealer "N"]\r\n'])
    assert dict(game.tags) == {"Board": "1", "Dealer": "N"} and game.problems == ()


def test_decode_lines_utf8_and_latin1() -> None:
    raw = io.BytesIO(b'\xef\xbb\xbf[Event "Caf\xc3\xa9"]\n[Site "Caf\xe9"]\n')
    lines = list(decode_lines(raw))
    assert lines == ['[Event "Café"]\n', '[Site "Café"]\n']
    (game,) = read_games(lines)
    assert game.tags["Event"] == game.tags["Site"] == "Café"


def test_a_file_name_given_for_its_text_says_how_to_read_it(tmp_path: Path) -> None:
    from bridgescore.errors import InputFileError

    path = tmp_path / "club.pbn"
    path.write_text('[Board "1"]\n', encoding="utf-8")
    with pytest.raises(InputFileError) as raised:
        list(read_games(str(path)))
    message = str(raised.value)
    assert repr(str(path)) in message and "read_records(" in message and ".read()" in message
    # The file's text reads as always; a one-line text naming no file is a problem of
    # its game, as before.
    assert [game.tags["Board"] for game in read_games(path.read_text())] == ["1"]
    [game] = read_games(str(tmp_path / "missing.pbn"))
    assert "before any tag pair" in game.problems[0].message
