"""PBN games as played deals: read by ``read_pbn`` and checked by ``check_record`` (the road of
``bridgescore game``), problems with line numbers, round trips through the record writer."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore import (
    Auction,
    Play,
    PlayedDeal,
    play_deal,
)
from bridgescore.core import dealer_of_board
from bridgescore.deal import random_deals
from bridgescore.formats import BoardRecord, Problem, RecordedCall, check_record
from bridgescore.formats.pbn import TagPair, format_pbn, read_games, read_pbn, record_pairs

DATA = Path(__file__).parents[2] / "data"


@dataclass(frozen=True)
class PlayedGame:
    """A record read from PBN with what checking it gives: its played deal and problems."""

    record: BoardRecord
    played: PlayedDeal | None
    problems: tuple[Problem, ...]

    @property
    def board(self) -> str | None:
        return None if self.record.board is None else str(self.record.board)


def read_played_games(source: Iterable[str] | str) -> Iterator[PlayedGame]:
    for record in read_pbn(source):
        checked = check_record(record)
        yield PlayedGame(record, checked.played, checked.problems)


def played_deal_pairs(played: PlayedDeal, event: str = "") -> list[TagPair]:
    """A played deal's tag pairs, through the record writer (Score as North-South's)."""
    auction = played.auction
    record = BoardRecord(
        board=played.number,
        dealer_seat=played.dealer,
        vulnerable=played.vulnerability,
        deal=played.deal,
        event=event,
        auction=None if auction is None else tuple(RecordedCall(str(c)) for c in auction.calls),
        play=None if played.play is None else tuple(played.play.cards),
        contract=played.contract,
        passed_out=played.contract is None,
        result=played.tricks,
        scores=(("Score", f"NS {played.score}"),),
    )
    return record_pairs(record)


# -- PBN games --------------------------------------------------------------------------------


def summary(path: str) -> list[tuple[str | None, str | None, int | None]]:
    with (DATA / path).open(encoding="utf-8") as stream:
        return [
            (
                record.board,
                None if record.played is None else str(record.played.result),
                None if record.played is None else record.played.score,
            )
            for record in read_played_games(stream)
        ]


def test_export_layout_file() -> None:
    assert summary("games_export.pbn") == [
        ("3", "3NTS=", 400),
        ("4", "4SS+2", 680),  # both vulnerable: 620 + 2 x 30
        ("5", "Pass", 0),
        ("6", "1NTE-7", 700),
    ]
    records = list(read_played_games((DATA / "games_export.pbn").read_text(encoding="utf-8")))
    assert all(record.problems == () for record in records)
    first = records[0].played
    assert first is not None and first.play is not None and first.play.tricks == (9, 4)


def test_import_layout_file() -> None:
    # Loose layouts: tricks over and across lines, lower case, AP, notes, annotations,
    # comments, '#' inheritance, '-' and '*' in the play, Result as 'EW 9', bare Score.
    records = list(read_played_games((DATA / "games_import.pbn").read_text(encoding="utf-8")))
    assert [(r.board, str(r.played.result) if r.played else None) for r in records] == [
        ("3", "3NTS="),
        ("4", "4SS+2"),
        ("2", "4SXW-1"),
    ]
    assert [r.problems for r in records] == [(), (), ()]
    assert [r.played.score for r in records if r.played] == [400, 680, 100]
    assert records[1].record.event == "Import test"
    second = records[1].played
    assert second is not None and second.play is not None
    assert len(second.play.cards) == 21 and second.play.is_claimed


def test_malformed_file_reports_line_numbers_and_goes_on() -> None:
    records = list(read_played_games((DATA / "games_bad.pbn").read_text(encoding="utf-8")))
    found = [[(p.line, p.message) for p in record.problems] for record in records]
    lines = [[line for line, _ in problems] for problems in found]
    assert lines == [[11], [24], [27, 30], [38, 41], [50, 50], [], [59, 59, 63], [69, 70]]
    assert "East's 1H is illegal" in found[0][0][1] and "insufficient" in found[0][0][1]
    assert "revoke" in found[1][0][1] and "North" in found[1][0][1]
    assert "malformed tag pair" in found[2][0][1]
    assert "12 cards" in found[2][1][1]
    assert "4SS" in found[3][0][1] and "3NTS" in found[3][0][1]
    assert "'NS 620'" in found[3][1][1] and "+600" in found[3][1][1]
    assert "'14'" in found[4][0][1]
    assert "'7Z'" in found[6][0][1] and "=2=" in found[6][2][1]
    assert "'stray'" in found[7][0][1] and "never closed" in found[7][1][1]
    # The games that can be scored still are, from the tags where play or auction fail.
    scores = [None if r.played is None else (str(r.played.result), r.played.score) for r in records]
    assert scores == [
        ("1SN=", 80),
        ("3NTS=", 400),
        ("3NTS=", 400),
        ("3NTS=", 600),
        None,
        ("2HE=", -110),
        None,
        ("2SS=", 110),
    ]


def test_disagreements_between_play_and_result() -> None:
    text = (DATA / "games_export.pbn").read_text(encoding="utf-8")
    text = text.replace('[Result "9"]', '[Result "10"]', 1)
    (first, *_) = read_played_games(text)
    assert [p.line for p in first.problems] == [18]
    assert "Result 10 disagrees with the play" in first.problems[0].message
    assert first.played is not None and first.played.tricks == 9
    # A '^' marks an adjusted result: it stands, and nothing is reported.
    text = text.replace('[Result "10"]', '[Result "^10"]', 1)
    (first, *_) = read_played_games(text)
    assert first.problems[0].line == 19  # the Score tag no longer agrees
    assert first.played is not None and first.played.tricks == 10


def test_wrong_opening_leader_and_auction_seat() -> None:
    text = (DATA / "games_export.pbn").read_text(encoding="utf-8")
    (first, *_) = read_played_games(text.replace('[Play "W"]', '[Play "N"]', 1))
    assert [p.line for p in first.problems] == [23]
    assert "opening leader" in first.problems[0].message
    (first, *_) = read_played_games(text.replace('[Auction "S"]', '[Auction "E"]', 1))
    assert [p.line for p in first.problems] == [20]


def test_written_games_read_back_the_same() -> None:
    records = list(read_played_games((DATA / "games_import.pbn").read_text(encoding="utf-8")))
    played = [record.played for record in records if record.played is not None]
    text = format_pbn(played_deal_pairs(p, "Round trip") for p in played)
    again = list(read_played_games(text))
    assert all(record.problems == () for record in again)
    for before, after in zip(played, (r.played for r in again), strict=True):
        assert isinstance(after, PlayedDeal)
        assert (after.contract, after.tricks, after.score) == (
            before.contract,
            before.tricks,
            before.score,
        )
        assert after.deal == before.deal
        if before.play is not None:
            assert after.play is not None and after.play.cards == before.play.cards
    # Export form: the mandatory tags lead each game, tricks in fixed columns.
    game = next(read_games(text))
    assert list(game.tags)[:15] == [
        "Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
        "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result",
    ]  # fmt: skip
    assert game.tags["Score"] == "NS 400"
    play = game.section("Play")
    assert play is not None and [t.text for t in play.rows[1]] == ["C5", "DJ", "CK", "D7"]


def test_header_game_is_skipped_and_inherited() -> None:
    text = (
        '[Event "Club night"]\n[Site "Room 1"]\n\n'
        '[Event "#"]\n[Board"1"]\n[Contract "1NT"]\n[Declarer "N"]\n[Result "8"]\n'
    )
    (record,) = read_played_games(text)
    assert record.problems == ()
    assert record.record.event == "Club night"
    assert record.played is not None and record.played.score == 120


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 10_000),
    st.integers(1, 32),
    st.lists(st.integers(0, 50), min_size=60, max_size=60),
    st.integers(0, 52),
)
def test_random_games_round_trip_through_pbn(
    seed: int, board: int, picks: list[int], stop: int
) -> None:
    deal = random_deals(1, seed=seed)[0]
    auction = Auction(dealer_of_board(board))
    for pick in picks:
        if auction.is_complete:
            break
        legal = auction.legal_calls()
        # Mostly passes, so that auctions end: a pass on two picks out of three.
        auction.append(legal[0] if pick % 3 else legal[pick % len(legal)])
    if not auction.is_complete:
        auction.extend("AP")
    contract = auction.contract
    if contract is None:
        played = play_deal(deal, auction, board=board)
    else:
        play = Play(deal, contract)
        for pick in picks[:stop]:
            legal_cards = play.legal_cards()
            if not legal_cards:
                break
            play.play(legal_cards[pick % len(legal_cards)])
        left = 13 - len(play.cards) // 4
        tricks = None if play.is_complete else play.declarer_tricks + left // 2
        played = play_deal(deal, auction, board=board, play=play, tricks=tricks)
    text = format_pbn([played_deal_pairs(played)])
    (record,) = read_played_games(text)
    assert record.problems == ()
    again = record.played
    assert again is not None
    assert (again.contract, again.tricks, again.score) == (
        played.contract,
        played.tricks,
        played.score,
    )
    assert again.auction == played.auction and again.deal == deal
    if played.play is not None:
        assert again.play is not None and again.play.cards == played.play.cards
        assert again.play.tricks == played.play.tricks


_PBN_WORDS = st.sampled_from(
    [
        '[Board "1"]', '[Board "x"]', '[Dealer "N"]', '[Dealer "Q"]', '[Vulnerable "All"]',
        '[Deal "N:AKQJ.AKQJ.AKQJ.2 654.654.654.AKQJ T987.T987.T987.3 32.32.32.T987654"]',
        '[Deal "N:AKQ"]', '[Contract "3NT"]', '[Contract "Pass"]', '[Declarer "S"]',
        '[Result "9"]', '[Result "^NS 14"]', '[Score "NS 400"]', '[Score "x"]',
        '[Auction "S"]', '[Auction "N"]', '[Play "W"]', '[Play "?"]', '[Note "1:x"]',
        "1NT", "Pass", "3NT", "AP", "X", "XX", "=1=", "!", "$3", "^S", "-", "*",
        "C4", "C2", "CA", "C3", "SA", "D9", "{", "}", ";", "[", '"', "%", "#", "",
    ]
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(_PBN_WORDS, max_size=6).map(" ".join), max_size=25))
def test_reader_never_crashes_on_bad_input(lines: list[str]) -> None:
    records = list(read_played_games(lines))
    for record in records:
        for problem in record.problems:
            assert 1 <= problem.line <= len(lines)
        if record.played is None:
            assert record.problems  # a game that cannot be scored always says why
