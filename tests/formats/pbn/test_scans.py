"""The two scans of the PBN grammar give the same records (issue 44, item 3).

A game written plainly has its tag pairs found by the fast scan (``_fast.scan_plainly``,
one pattern over the game's text); any other game, and every game with ``read_pbn``'s
private switch ``_fast=False``, by the full scan (``syntax.read_games``, character by
character). Both hand the tags to the one set of tag rules (``records.FileReader``).
These tests read the same text both ways, and from its lines (the full scan alone),
and compare the whole records: every field, the source with its tag, call and card
lines, the problems with their lines, and the traveller (which equality leaves out).
They run on every PBN file of the tests' data, as written and mutated, and on PBN
text generated with random tags, deals, auctions, plays, comments, odd blanks,
escapes and bad values.
"""

from __future__ import annotations

import random
from decimal import Decimal
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore.auction import Auction
from bridgescore.core import Vulnerability, dealer_of_board
from bridgescore.deal import Card, random_deals
from bridgescore.formats import BoardRecord, format_records
from bridgescore.formats.pbn import _fast, decode_line, read_pbn, syntax
from bridgescore.formats.pbn._fast import scan_plainly
from bridgescore.formats.pbn.records import FileReader, GameTags, _GameReader, game_tags
from bridgescore.formats.pbn.syntax import read_games
from bridgescore.play import Play
from format_strategies import records

DATA = Path(__file__).parents[2] / "data"
PBN_FILES = sorted(DATA.rglob("*.pbn"))


def _whole(records: list[BoardRecord]) -> list[tuple[BoardRecord, object]]:
    """Each record with its traveller, which record equality leaves out (source and
    problems are compared by equality, every line of them)."""
    return [(record, record.traveller) for record in records]


def _both_readers(text: str) -> tuple[list[BoardRecord], list[BoardRecord]]:
    """The records of ``read_pbn`` (plain games through the fast scan) and of the full
    scan alone, after checking that the lines of the text (always the full scan's)
    give the full scan's records."""
    fast = list(read_pbn(text))
    full = list(read_pbn(text, _fast=False))
    assert _whole(list(read_pbn(text.splitlines(keepends=True)))) == _whole(full)
    assert _whole(fast) == _whole(full)
    return fast, full


def test_every_pbn_file_of_the_data_is_there() -> None:
    # (The glob is the list: a file added to tests/data is compared below.)
    assert len(PBN_FILES) >= 17
    assert {"games_bad.pbn", "championship.pbn", "session_scoretable.pbn"} <= {
        path.name for path in PBN_FILES
    }


def _file_text(path: Path) -> str:
    text = "".join(decode_line(line) for line in path.read_bytes().splitlines(keepends=True))
    return text.removeprefix("\ufeff").replace("\r\n", "\n")


@pytest.mark.parametrize("path", PBN_FILES, ids=lambda path: path.name)
def test_every_pbn_file_reads_the_same_on_both_scans(path: Path) -> None:
    """Each file as written, with its comments' braces taken out (so that more of
    its games take the fast scan), and 40 mutations of it."""
    text = _file_text(path)
    fast, _ = _both_readers(text)
    assert fast, path.name
    _both_readers(text.replace("{", "(").replace("}", ")"))
    rng = random.Random(path.name)
    for _ in range(40):
        _both_readers(_mutate(text, rng))


def _championship_text(rng: random.Random, games: int, *, odd: bool = True) -> str:
    """A PBN written as championship publishers write it: a header game, ``#`` tags,
    a board's second table without its board tags, alerts with notes, opening passes
    sometimes left out, Score and table tags, plays whole, cut short or claimed; with
    ``odd``, values such as ``[Result "NS 9"]`` and ``[Room "Lounge"]`` too."""
    parts = ['% PBN 2.1\n% EXPORT\n[Event "Club Championship"]\n[Site "Here"]\n']
    for number in range(games):
        board = number // 2 + 1
        table = number % 2 + 1
        dealer = dealer_of_board(board)
        if table == 1:
            deal = random_deals(1, seed=rng.randrange(2**32))[0]
        auction = Auction(dealer)
        while not auction.is_complete:
            legal = auction.legal_calls()
            quiet = rng.random() < 0.5 and len(auction) > 2
            auction.append(legal[0] if quiet else rng.choice(legal[:9]))
        lines = ['[Event "#"]', '[Site "#"]']
        if table == 1 or rng.random() < 0.2:
            lines += [
                f'[Board "{board}"]',
                f'[Dealer "{dealer.letter}"]',
                f'[Vulnerable "{Vulnerability.from_board(board).to_pbn()}"]',
                f'[Deal "{deal.to_pbn(dealer)}"]',
            ]
        lines += [f'[Table "{table}"]', f'[North "n{table}"]', '[South "?"]']
        contract = auction.contract
        words = [str(call) for call in auction.calls]
        if contract is None:
            lines.append('[Contract "Pass"]')
        else:
            assert contract.declarer is not None
            tricks = rng.randint(0, 13)
            lines += [
                f'[Declarer "{contract.declarer.letter}"]',
                f'[Contract "{contract.to_pbn()}"]',
                f'[Result "{tricks}"]',
                f'[Score "NS {rng.choice([-100, 0, 420])}"]',
            ]
            opening = 0
            while opening < len(words) and words[opening] == "Pass":
                opening += 1
            if opening and rng.random() < 0.3:
                words = words[opening:]  # some publishers leave the opening passes out
        notes = []
        written = []
        for word in words:
            written.append(word)
            if word not in ("Pass", "X", "XX") and rng.random() < 0.2:
                notes.append(f'[Note "{len(notes) + 1}:artificial"]')
                written.append(f"={len(notes)}=")
        if rng.random() < 0.3 and written[-3:] == ["Pass"] * 3:
            written[-3:] = ["AP"]
        lines.append(f'[Auction "{dealer.letter}"]')
        lines += [" ".join(written[i : i + 4]) for i in range(0, len(written), 4)]
        lines += notes
        if contract is not None and deal is not None and rng.random() < 0.5:
            play = Play(deal, contract)
            for _ in range(rng.choice((3, 8, 52))):
                play.play(rng.choice(play.legal_cards()))
            first = play.opening_leader
            lines.append(f'[Play "{first.letter}"]')
            for trick in play.tricks_played():
                row = ["-"] * 4
                for seat, card in trick.seats():
                    row[(seat - first) % 4] = str(card)
                lines.append(" ".join(row))
            if len(play.cards) < 52:
                lines.append("*")
        if rng.random() < 0.2:
            table_tag = '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]'
            lines += [table_tag, "N NT 9", "S S 10"]
        if rng.random() < 0.2:
            lines.append('[Note "9:a note no call refers to"]')
        if rng.random() < 0.3:
            rooms = ["Open", "closed", "?", ""] + (["Lounge"] if odd else [])
            lines.append(f'[Room "{rng.choice(rooms)}"]')
        game = "\n".join(lines) + "\n"
        parts.append(_odd_values(game, rng) if odd else game)
    return "\n".join(parts)


# Values real files write that the plain reader leaves to the full reader (or reads
# as it does): names for seats, other words for vulnerability, sides in results,
# adjusted results, declarers marked "^", impossible boards.
_ODD_VALUES = [
    ('[Dealer "N"]', '[Dealer "North"]'),
    ('[Dealer "E"]', '[Dealer "e"]'),
    ('[Vulnerable "None"]', '[Vulnerable "Love"]'),
    ('[Vulnerable "All"]', '[Vulnerable "Both"]'),
    ('[Vulnerable "NS"]', '[Vulnerable "N-S"]'),
    ('[Declarer "S"]', '[Declarer "^S"]'),
    ('[Declarer "N"]', '[Declarer "north"]'),
    ('[Result "9"]', '[Result "NS 9"]'),
    ('[Result "8"]', '[Result "^8"]'),
    ('[Result "1', '[Result "01'),
    ('[Board "2"]', '[Board "0"]'),
    ('[Board "3"]', '[Board "  3 "]'),
    ('[Contract "3NT"]', '[Contract "3NTS"]'),
    ('[Contract "Pass"]', '[Contract "pass"]'),
    ('[Auction "N"]', '[Auction "North"]'),
    ('[Auction "W"]', '[Auction "E"]'),
    ('[Play "N"]', '[Play "S"]'),
]


def _odd_values(game: str, rng: random.Random) -> str:
    for plain, odd in _ODD_VALUES:
        if rng.random() < 0.15:
            game = game.replace(plain, odd)
    return game


_JUNK = [
    "", " ", "\n", "\n\n", "{", "}", ";", "!", "?", "$1", "=1=", "=9=", "#", '"', "\\", "-", "*",
    "^", "AP", "ap", "10", "S", "SA", "Z6", "%", "[", "]", '[Note "1:x"]', '[Board "#"]', "x",
    "North", "Love", "NS ", "0", "99", "-", "3NT", "pass", "\ufeff", "=",
]  # fmt: skip


def _mutate(text: str, rng: random.Random) -> str:
    """The text with a few random cuts, repeats and insertions of troublesome words."""
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(text) + 1)
        choice = rng.random()
        if choice < 0.45:
            text = text[:at] + rng.choice(_JUNK) + text[at:]
        elif choice < 0.6:
            # A line of its own: a stray word, a directive, a tag, a blank line.
            lines = text.split("\n")
            lines.insert(rng.randrange(len(lines) + 1), rng.choice(_JUNK).strip())
            text = "\n".join(lines)
        elif choice < 0.8:
            text = text[:at] + text[at + rng.randint(1, 12) :]
        else:
            lines = text.split("\n")
            index = rng.randrange(len(lines))
            lines.insert(index, lines[index])
            text = "\n".join(lines)
    return text


@settings(max_examples=100, deadline=None)
@given(st.lists(records(), min_size=1, max_size=3), st.integers(0, 2**32 - 1))
def test_written_records_read_the_same_on_both_scans(written: list[BoardRecord], seed: int) -> None:
    text = format_records(written, "pbn")
    fast, _ = _both_readers(text)
    # Independently: the records written.
    assert [record.without_source() for record in fast] == written
    _both_readers(_mutate(text, random.Random(seed)))


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 8))
def test_championship_shaped_pbn_reads_the_same_on_both_scans(seed: int, games: int) -> None:
    rng = random.Random(seed)
    text = _championship_text(rng, games)
    fast, _ = _both_readers(text)
    assert len(fast) == games
    for _ in range(3):
        _both_readers(_mutate(text, rng))


# -- generated PBN: random tags, sections, comments, blanks, escapes, bad values ----

_TAG_NAMES = [
    "Event", "Site", "Board", "Dealer", "Vulnerable", "Deal", "Declarer", "Contract",
    "Result", "North", "East", "South", "West", "Room", "Table", "HomeTeam", "Score",
    "ScoreIMP", "Note", "Note", "DoubleDummyTricks", "OptimumScore", "Scoring", "Round",
    "LIN_vg", "ScoreTable", "OptimumResultTable", "Auction", "Play", "X_odd", "board",
]  # fmt: skip
_VALUES = [
    "", "?", "#", " ", "1", "2", " 7 ", "0", "99", "²", "N", "e", "North", "^S", "Z",
    "None", "All", "NS", "EW", "Love", "-", "3NT", "4SX", "7NTXX", "Pass", "pass", "8NT",
    "9", "13", "14", "NS 9", "EW 4", "^10", "01", "Open", "closed", "Lounge",
    "1:strong", "2:transfer", " 1 : padded", "3", 'say \\"hi\\"', "back\\\\slash",
    "a\\b", "N:AKQJ.AKQJ.AKQJ.2 654.654.654.AKQJ T987.T987.T987.3 32.32.32.T987654",
    "W:- AKQJT98765432.. .AKQJT98765432. ..AKQJT98765432", "N:AKQ.. ...",
    "Cup,Final,I,1,16,Lions,21,Tigers,12.5", "PairId_NS\\2R;Contract\\5L;Result\\2R",
    "{x}", "x;y", "Zoë",
]  # fmt: skip
_WORDS = [
    "1C", "1NT", "2H", "3NT", "4S", "7NT", "Pass", "pass", "P", "X", "XX", "AP", "ap", "*",
    "-", "=1=", "=2=", "=9=", "$1", "!", "?", "1NT!", "2H?", "!!", "^1", "^", "1N", "8C",
    "SA", "HK", "D2", "C10", "ct", "Z6", "S", '"a', 'b"', '"Smith - Jones"', "10", "N",
    "S3", "S4", "S5", "C2", "CA", "C5", "CJ",
]  # fmt: skip
_COMMENTS = ["{c}", "{two\nlines}", "; to the end", "{a} {b}", "{never closed"]
_BLANKS = ["", " ", "  ", "\t", " \t "]


@st.composite
def _pbn_texts(draw: st.DrawFn) -> str:
    """PBN text of one to four games: random tags and values, sections of words (calls,
    cards, notes, annotations, end marks, junk) after any tag, comments in any place,
    odd blanks, escapes and bad values; the games apart by blank lines."""
    games = []
    for _ in range(draw(st.integers(1, 4))):
        lines = []
        for _ in range(draw(st.integers(1, 9))):
            name = draw(st.sampled_from(_TAG_NAMES))
            value = draw(st.sampled_from(_VALUES))
            blank = draw(st.sampled_from(_BLANKS))
            line = f'{blank}[{name} "{value}"]{draw(st.sampled_from(_BLANKS))}'
            if draw(st.integers(0, 9)) == 0:
                line = f'[{name}{blank}"{value}"]'  # blanks in odd places
            if draw(st.integers(0, 7)) == 0:
                line += " " + draw(st.sampled_from(_COMMENTS))
            lines.append(line)
            rows = draw(st.integers(0, 3)) if name in ("Auction", "Play") else 0
            if draw(st.integers(0, 9)) == 0:
                rows = 1  # words after a tag that has no section
            for _ in range(rows):
                words = draw(st.lists(st.sampled_from(_WORDS), max_size=6))
                row = draw(st.sampled_from(_BLANKS)).join(["", *words]) if words else ""
                if draw(st.integers(0, 7)) == 0:
                    row += " " + draw(st.sampled_from(_COMMENTS))
                lines.append(row)
            if draw(st.integers(0, 11)) == 0:
                lines.append(draw(st.sampled_from([*_COMMENTS, "% a directive", "stray"])))
        games.append("\n".join(lines))
    gap = draw(st.sampled_from(["\n\n", "\n \n", "\n\n\n"]))
    return gap.join(games) + draw(st.sampled_from(["", "\n", "\n\n"]))


@settings(max_examples=400, deadline=None)
@given(_pbn_texts())
def test_generated_pbn_reads_the_same_on_both_scans(text: str) -> None:
    _both_readers(text)


# -- the fast scan -------------------------------------------------------------


def test_plain_games_take_the_fast_scan() -> None:
    """The generated championship file is scanned without the full scan: the
    comparisons above compare two different scans, not one with itself."""
    text = _championship_text(random.Random(3), 8, odd=False)
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith('[Event "#"]')]
    ends = [*starts[1:], len(lines)]
    tags: dict[str, str] = {"Event": "Club Championship", "Site": "Here"}
    for start, end in zip(starts, ends, strict=True):
        while not lines[end - 1].strip():
            end -= 1
        game = "\n".join(lines[start:end])
        found = scan_plainly(game, start + 1, tags)
        assert found is not None
        # Independently: the full scan's tag pairs of the game.
        (pbn_game,) = read_games(lines[start:end], first_line=start + 1, previous=tags)
        assert found == game_tags(pbn_game)
        assert found.line == start + 1 and found.values[0] == "Club Championship"


def test_both_scans_read_with_the_grammar_s_one_set_of_lexical_rules() -> None:
    """The tag pair's name and value, the directive, the word breaks: written once in
    syntax, and the fast scan's patterns are built from them (not a copy)."""
    for pattern in (_fast._ITEM.pattern, _fast._TAG_LINE.pattern, syntax._TAG_RE.pattern):
        assert syntax.TAG_NAME in pattern and syntax.TAG_STRING in pattern
    assert f"[^\\[{syntax.DIRECTIVE}\\n]" in _fast._ITEM.pattern
    assert _fast.WORD_BREAK is syntax.WORD_BREAK is syntax._SPECIAL
    assert _fast.REPEATABLE is syntax.REPEATABLE
    # A repeat of a repeatable tag is scanned fast; of any other, left to the full scan.
    two_notes = '[Board "1"]\n[Note "1:a"]\n[Note "2:b"]'
    assert scan_plainly(two_notes, 1, {}) is not None
    assert scan_plainly(two_notes.replace("Note", "Room"), 1, {}) is None
    assert syntax.unescape('say \\"hi\\" a\\b \\\\') == 'say "hi" a\\b \\'


def test_the_fast_scan_declines_what_it_does_not_cover() -> None:
    lines = ['[Board "1"]', '[Dealer "N"]', '[Auction "N"]', "1NT =1= Pass", '[Note "1:15-17"]']
    assert scan_plainly("\n".join(lines), 1, {}) == GameTags(
        1,
        ("Board", "Dealer", "Auction", "Note"),
        ("1", "N", "N", "1:15-17"),
        (1, 2, 3, 5),
        ("", "", "\n1NT =1= Pass", ""),
    )
    for bad in ("1NT Pass {c}", "1NT Pass ; c", "1NT [Note", "% x"):
        assert scan_plainly("\n".join([*lines[:3], bad, lines[4]]), 1, {}) is None
    assert scan_plainly("\n".join([*lines, '[Board "2"]']), 1, {}) is None  # a repeat
    assert scan_plainly("\n".join(['[Event "#"]', *lines]), 1, {}) is None
    inherited = scan_plainly("\n".join(['[Event "#"]', *lines]), 1, {"Event": "Cup"})
    assert inherited is not None and inherited.values[0] == "Cup"


def test_a_missing_note_is_a_problem_on_either_scan() -> None:
    """A value the rules report is scanned fast and reported by the one reader."""
    text = '[Board "1"]\n[Dealer "N"]\n[Auction "N"]\n1NT =2= Pass\n[Note "1:15-17"]\n'
    assert scan_plainly(text.strip(), 1, {}) is not None
    fast, _ = _both_readers(text)
    assert [(p.line, p.message) for p in fast[0].problems] == [
        (4, 'note =2= has no [Note "2:..."]')
    ]
    assert fast[0].auction is not None and fast[0].auction[0].alerted


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["1C", "1NT", "2H", "Pass", "X", "XX", "=1=", "=2=", "AP", "*", "-"]),
        max_size=10,
    )
)
def test_noted_calls_read_as_the_word_by_word_rule_reads_them(words: list[str]) -> None:
    """The reader's quick road for plain calls with notes agrees with its word-by-word
    rule (both scans take the same road, so the comparisons above cannot tell)."""
    text = " ".join(words)
    game = GameTags(
        1,
        ("Board", "Auction", "Note", "Note"),
        ("1", "N", "1:strong", "2:weak"),
        (1, 2, 3, 4),
        ("", "\n" + text, "", ""),
    )
    quick = FileReader(None).record(game)
    with patch.object(_GameReader, "noted_calls", lambda self, words: None):
        slow = FileReader(None).record(game)
    assert quick is not None and slow is not None
    assert quick == slow
    assert (quick.auction, quick.notes, quick.problems) == (slow.auction, slow.notes, slow.problems)


def test_play_rows_read_whole_and_card_by_card() -> None:
    """A Play section mixing whole tricks (the fast road) with a trick cut short by
    ``-`` and a bad card (card by card): the cards in the order played, worked out by
    hand. 3NT by South; the columns are W N E S. West leads the two of clubs and
    North's ace wins; North leads the spade ace, East, South and West follow, and
    North wins again; North leads the king of spades, East plays and South has not."""
    text = (
        '[Board "1"]\n[Dealer "S"]\n[Contract "3NT"]\n[Declarer "S"]\n'
        '[Play "W"]\nC2 CA C5 CJ\nS3 SA S4 S5\n- SK S6 -\n'
    )
    order = ("C2", "CA", "C5", "CJ", "SA", "S4", "S5", "S3", "SK", "S6")
    (record,) = read_pbn(text)
    assert record.play == tuple(Card.parse(card) for card in order)
    assert record.source.card_lines == (6, 6, 6, 6, 7, 7, 7, 7, 8, 8)
    (record,) = read_pbn(text.replace("S6", "Z6"))
    assert record.play == tuple(Card.parse(card) for card in order[:9])
    assert any(problem.line == 8 and "Z6" in problem.message for problem in record.problems)


def test_traveller_and_match_header_read_on_either_road() -> None:
    """A game with a ScoreTable, and one with a vugraph header kept as a PBN tag:
    both readers give the traveller's rows and the header's fields."""
    text = "\n".join(
        [
            '[Board "1"]',
            '[Dealer "N"]',
            '[Vulnerable "None"]',
            '[LIN_vg "Cup,Final Segment 2,I,1,16,Lions,21,Tigers,12.5"]',
            '[Contract "4S"]',
            '[Declarer "N"]',
            '[Result "10"]',
            '[ScoreTable "PairId_NS\\2R;PairId_EW\\2R;Contract\\5L;Declarer\\1R;Result\\2R"]',
            "1 2 4S N 10",
            "3 4 3NT S 9",
            "",
        ]
    )
    fast, slow = _both_readers(text)
    assert fast == slow
    for record in (fast[0], slow[0]):
        assert record.match is not None
        assert (record.match.segment, record.match.visit_carry) == (
            "Final Segment 2",
            Decimal("12.5"),
        )
        assert record.traveller is not None
        assert record.traveller.columns == (
            "PairId_NS",
            "PairId_EW",
            "Contract",
            "Declarer",
            "Result",
        )
        assert [row.cells for row in record.traveller.rows] == [
            ("1", "2", "4S", "N", "10"),
            ("3", "4", "3NT", "S", "9"),
        ]
