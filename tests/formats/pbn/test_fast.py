"""The readers' fast paths give exactly what their validating paths give.

Each fast path reads only the common, plainly written case and hands anything
else to the validating reader; these properties check, on written and on
mutated text, that the fast path either declines (``None``) or agrees.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import fields, replace
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore.auction import Auction
from bridgescore.core import Seat, Vulnerability, dealer_of_board
from bridgescore.deal import Deal, random_deals
from bridgescore.errors import BridgeError
from bridgescore.formats import BoardRecord, RecordedCall, Source, format_records
from bridgescore.formats.lin.tags import lin_tags as _tags
from bridgescore.formats.lin.tags import plain_deal as _plain_deal
from bridgescore.formats.lin.tags import read_hands as _read_hands
from bridgescore.formats.pbn import decode_line, read_pbn
from bridgescore.formats.pbn._fast import read_game_plainly
from bridgescore.formats.record import Traveller, slot_maker
from bridgescore.play import Play
from format_strategies import records

_LIN_ORDER = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)


def _lin_hands(deal: Deal, rng: random.Random) -> str:
    """The hands S W N E as LIN writes them (suit letter, then ranks), some in lower case."""
    parts = []
    for seat in _LIN_ORDER:
        spades, hearts, diamonds, clubs = deal.hands[seat].to_pbn().split(".")
        part = f"S{spades}H{hearts}D{diamonds}C{clubs}"
        parts.append(part.lower() if rng.random() < 0.2 else part)
    return ",".join(parts)


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from([None, 0, 1, 2, 3]),
    st.integers(0, 80),
    st.sampled_from(["", "10", "X", ",", "S", "H", "A", "2", "  ", "SA", "-"]),
)
def test_plain_lin_deal_agrees_with_the_validating_reader(
    seed: int, left_out: int | None, at: int, insert: str
) -> None:
    rng = random.Random(seed)
    deal = random_deals(1, seed=seed)[0]
    parts = _lin_hands(deal, rng).split(",")
    if left_out is not None:
        parts[left_out] = ""
    text = ",".join(parts)
    mutated = text[:at] + insert + text[at + len(insert) :]
    for candidate in (text, mutated):
        fast = _plain_deal(candidate)
        try:
            expected = _read_hands(f"1{candidate}", candidate)
        except BridgeError:
            assert fast is None
            continue
        if candidate == text:
            # Independently: the deal the hands were written from.
            assert expected == deal
            assert fast == deal
        assert fast is None or fast == expected


def _scan_tags(text: str) -> Iterator[tuple[str, str, int, bool]]:
    """The LIN tag scanner written plainly, bar by bar, with line numbers counted
    from the newlines before each tag's first character, and a tag opening its line
    when the text since the previous tag's closing bar holds a newline."""
    position = 0
    while position < len(text):
        bar = text.find("|", position)
        raw = text[position:] if bar < 0 else text[position:bar]
        start = position + len(raw) - len(raw.lstrip())
        line = text.count("\n", 0, start) + 1
        first = position == 0 or "\n" in text[position:start]
        if bar < 0:
            if raw.strip():
                yield "", raw.strip(), line, first
            return
        end = text.find("|", bar + 1)
        value = "\x00" + text[bar + 1 :] if end < 0 else text[bar + 1 : end]
        name = raw.strip()
        # Text then a line break before a name: that text is no tag, and the name is
        # on a line of its own (counted from the text's start again).
        cut = name.rfind("\n")
        if cut >= 0:
            yield "", name[:cut].strip(), line, first
            after = start + cut + 1
            yield name[cut + 1 :].strip(), value, text.count("\n", 0, after) + 1, True
        else:
            yield name, value, line, first
        if end < 0:
            return
        position = end + 1


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab |\n\t1", max_size=60))
def test_lin_tags_agree_with_the_plain_scanner(text: str) -> None:
    assert list(_tags(text)) == list(_scan_tags(text))


def test_lin_tags_of_a_board() -> None:
    text = "pn|A,B,C,D|st||\nmd|3SAK,,,|\n mb|1N!|an|strong|pc|SA|\njunk\n\nmc|9|\ntail"
    assert list(_tags(text)) == [
        ("pn", "A,B,C,D", 1, True),
        ("st", "", 1, False),
        ("md", "3SAK,,,", 2, True),
        ("mb", "1N!", 3, True),
        ("an", "strong", 3, False),
        ("pc", "SA", 3, False),
        ("", "junk", 4, True),
        ("mc", "9", 6, True),
        ("", "tail", 7, True),
    ]


def test_plain_lin_deal_declines_what_it_does_not_read() -> None:
    deal = random_deals(1, seed=5)[0]
    text = _lin_hands(deal, random.Random(0)).upper()
    assert _plain_deal(text) == deal
    # "10" for the ten, and two hands left out: the validating reader's business.
    with_ten = text.replace("T", "10")
    if with_ten != text:
        assert _plain_deal(with_ten) is None
        assert _read_hands(with_ten, with_ten) == deal
    two_missing = ",".join([*text.split(",")[:2], "", ""])
    assert _plain_deal(two_missing) is None
    with pytest.raises(BridgeError):
        _read_hands(two_missing, two_missing)


def test_play_rows_read_whole_and_card_by_card() -> None:
    """A Play section mixing whole tricks (the fast road) with a trick cut short by
    ``-`` and a bad card (card by card): the cards in the order played, worked out by
    hand. 3NT by South; the columns are W N E S. West leads the two of clubs and
    North's ace wins; North leads the spade ace, East, South and West follow, and
    North wins again; North leads the king of spades, East plays and South has not."""
    from bridgescore.deal import Card

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


# -- PBN: games written plainly, read straight into records -------------------

_PBN_FIXTURES = sorted(
    path
    for folder in (
        Path(__file__).parents[2] / "data",
        Path(__file__).parents[2] / "data" / "formats",
    )
    for path in folder.glob("*.pbn")
)


def _both_readers(text: str) -> tuple[list[BoardRecord], list[BoardRecord]]:
    """The records of ``read_pbn`` (plain games straight to records) and of the full
    reader alone (its private switch off: ``read_games``, then formats/pbn/records.py)."""
    return list(read_pbn(text)), list(read_pbn(text, _fast=False))


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


@settings(max_examples=150, deadline=None)
@given(st.lists(records(), min_size=1, max_size=3), st.integers(0, 2**32 - 1))
def test_plain_pbn_games_read_as_the_full_reader_reads_them(
    written: list[BoardRecord], seed: int
) -> None:
    text = format_records(written, "pbn")
    fast, slow = _both_readers(text)
    assert fast == slow
    # Independently: the records written.
    assert [record.without_source() for record in fast] == written
    mutated = _mutate(text.replace("{", ""), random.Random(seed))
    fast, slow = _both_readers(mutated)
    assert fast == slow


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 8))
def test_championship_shaped_pbn_reads_as_the_full_reader_reads_it(seed: int, games: int) -> None:
    rng = random.Random(seed)
    text = _championship_text(rng, games)
    fast, slow = _both_readers(text)
    assert fast == slow
    assert len(fast) == games
    for _ in range(3):
        mutated = _mutate(text, rng)
        fast, slow = _both_readers(mutated.replace("{", ""))
        assert fast == slow


@pytest.mark.parametrize("path", _PBN_FIXTURES, ids=lambda path: path.name)
def test_pbn_fixtures_read_as_the_full_reader_reads_them(path: Path) -> None:
    """Each fixture, with its comments' braces taken out (a "{" sends a whole file
    to the full reader), and mutations of it."""
    text = "".join(decode_line(line) for line in path.read_bytes().splitlines(keepends=True))
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("{", "(").replace("}", ")")
    fast, slow = _both_readers(text)
    assert fast == slow
    # Equality leaves the traveller out (its tag is also a note): compare it apart.
    assert [record.traveller for record in fast] == [record.traveller for record in slow]
    rng = random.Random(path.name)
    for _ in range(60):
        mutated = _mutate(text, rng).replace("{", "(")
        fast, slow = _both_readers(mutated)
        assert fast == slow


def test_plain_games_take_the_plain_road() -> None:
    """The generated championship file is read without the full reader: the
    property tests above compare two different readers, not one with itself."""
    text = _championship_text(random.Random(3), 8, odd=False)
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith('[Event "#"]')]
    ends = [*starts[1:], len(lines)]
    tags: dict[str, str] = {"Event": "Club Championship", "Site": "Here"}
    previous = None
    for number, (start, end) in enumerate(zip(starts, ends, strict=True), start=1):
        while not lines[end - 1].strip():
            end -= 1
        game = "\n".join(lines[start:end])
        plain = read_game_plainly(game, start + 1, tags, previous, None, number)
        assert plain is not None
        previous = plain[0]
        assert previous is not None and previous.problems == ()
        assert previous.source.line == start + 1


def test_plain_reader_declines_what_the_full_reader_reports() -> None:
    lines = ['[Board "1"]', '[Dealer "N"]', '[Auction "N"]', "1NT =1= Pass", '[Note "1:15-17"]']

    def plain(lines: list[str], tags: dict[str, str] | None = None) -> BoardRecord | None:
        read = read_game_plainly("\n".join(lines), 1, dict(tags or {}), None, None, 1)
        return None if read is None else read[0]

    record = plain(lines)
    assert record is not None and record.auction is not None
    assert [(c.call, c.explanation) for c in record.auction] == [
        ("1NT", "15-17"),
        ("Pass", ""),
    ]
    for bad in ("1NT =2= Pass", "1NT! Pass", "1NT Pass {c}", "1NT Pass ; c", "1NT Pass $1"):
        changed = [*lines[:3], bad, lines[4]]
        assert plain(changed) is None
    repeated = [*lines, '[Board "2"]']
    assert plain(repeated) is None
    inherited = ['[Event "#"]', *lines]
    assert plain(inherited) is None
    assert plain(inherited, {"Event": "Cup"}) is not None


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


@settings(max_examples=100, deadline=None)
@given(records(), st.integers(0, 10**6), st.sampled_from([None, "a.pbn"]))
def test_slot_maker_makes_what_the_constructor_makes(
    record: BoardRecord, line: int, file: str | None
) -> None:
    """The fast readers' makers of records and sources: every field, in order, set
    as the constructor sets it (the ones equality leaves out too)."""
    source = Source(file, line, 7, ("Board", "Deal"), (line, line + 1), (line + 2,), (line + 3, 0))
    made_source = slot_maker(Source)(*(getattr(source, f.name) for f in fields(Source)))
    assert made_source == source
    whole = replace(record, source=source, traveller=Traveller("h", ("c",)))
    made = slot_maker(BoardRecord)(*(getattr(whole, f.name) for f in fields(BoardRecord)))
    assert type(made) is BoardRecord and made == whole
    assert all(getattr(made, f.name) is getattr(whole, f.name) for f in fields(BoardRecord))
    with pytest.raises(TypeError):
        slot_maker(BoardRecord)(record.board)  # every field must be given
    # A class whose constructor checks (RecordedCall's __post_init__), or not a
    # frozen dataclass with slots, gets no maker that would skip the checks.
    for refused in (RecordedCall, Deal, dict):
        with pytest.raises(BridgeError):
            slot_maker(refused)
