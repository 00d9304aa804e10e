"""Played deals: deal, board, auction, play or tricks -> contract, result, NS score; PBN games."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bridgescore import (
    Auction,
    BridgeError,
    Contract,
    IllegalCallError,
    IllegalPlayError,
    NotationError,
    Play,
    PlayedDeal,
    Seat,
    Side,
    Vulnerability,
    play_deal,
)
from bridgescore.cli.app import app
from bridgescore.core import dealer_of_board
from bridgescore.deal import Deal, random_deals
from bridgescore.pbn import format_pbn, read_games
from bridgescore.pbngame import played_deal_pairs, read_played_games

DATA = Path(__file__).parent / "data"
N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST

STRIPED = Deal.from_pbn("N:AKQJ.AKQJ.AKQJ.2 654.654.654.AKQJ T987.T987.T987.3 32.32.32.T987654")
ONE_SUIT = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
# 3NT by South, West leads: East-West cash four clubs, North-South take the other
# nine tricks (see test_play.py for the reasoning).
STRIPED_3NT = (
    "C4 C2 CA C3 CK D7 C5 DJ CQ D8 C6 HJ CJ D9 C7 SJ S6 ST S2 SA SK S5 S9 S3 "
    "SQ S4 S8 C8 HA H6 HT H2 HK H5 H9 H3 HQ H4 H8 C9 DA D6 DT D2 DK D5 S7 D3 DQ D4 H7 CT"
)
# 4S by South: East-West win the club ace, then North-South take every trick: 12.
STRIPED_4S_START = "C4 C2 CA C3 CK S7 C5 DJ S8 S2 SJ S4 SA S5 S9 S3 SK S6 ST C6"


# -- the examples ---------------------------------------------------------------


def test_3nt_by_south_taking_nine_not_vulnerable_is_400() -> None:
    played = play_deal(
        STRIPED, "1NT Pass 3NT AP", dealer=S, vulnerability=Vulnerability.NONE, tricks=9
    )
    assert played.contract == Contract.parse("3NTS")
    assert played.declarer is S and played.tricks == 9
    assert str(played.result) == "3NTS="
    assert played.score == 400


def test_4s_by_south_taking_eleven_not_vulnerable_is_450() -> None:
    played = play_deal(None, "1S Pass 4S AP", dealer=S, vulnerability=Vulnerability.NONE, tricks=11)
    assert str(played.result) == "4SS+1"
    assert played.score == 450


def test_4s_doubled_by_south_taking_nine_vulnerable_is_minus_200() -> None:
    played = play_deal(None, "1S 2H 4S X AP", dealer=S, vulnerability=Vulnerability.BOTH, tricks=9)
    assert played.contract == Contract.parse("4SXS")
    assert played.score_for(Side.NS) == -200 and played.score == -200
    assert played.score_for(Side.EW) == 200
    assert played.declarer_score == -200


# -- boards, sides and signs -------------------------------------------------------------


def test_board_gives_dealer_and_vulnerability() -> None:
    # Board 7: South deals, both vulnerable (Law 2).
    played = play_deal(None, "4S X AP", board=7, tricks=9)
    assert played.dealer is S and played.vulnerability is Vulnerability.BOTH
    assert played.score == -200 and played.board == 7
    # Explicit values win over the board.
    played = play_deal(
        None, "Pass 4S X AP", board=7, dealer=W, vulnerability=Vulnerability.NONE, tricks=9
    )
    assert played.contract == Contract.parse("4SXN") and played.score == -100


def test_east_west_declarer_scores_negative_for_ns() -> None:
    # Board 2: East deals, North-South vulnerable, so East-West are not: 3NT= is 400 to EW.
    played = play_deal(None, "1NT Pass 3NT AP", board=2, tricks=9)
    assert played.declarer is E and not played.vulnerable
    assert played.score == -400 and played.score_for(Side.EW) == 400


def test_passed_out_scores_zero() -> None:
    played = play_deal(ONE_SUIT, "Pass Pass Pass Pass", board=1)
    assert played.is_passed_out and played.contract is None and played.declarer is None
    assert str(played.result) == "Pass" and played.score == 0 and played.tricks is None
    with pytest.raises(NotationError, match="passed out"):
        play_deal(None, "AP", board=1, tricks=7)
    with pytest.raises(IllegalPlayError, match="passed out"):
        play_deal(ONE_SUIT, "AP", board=1, play="HA")


def test_contract_without_auction() -> None:
    played = play_deal(None, contract="4SXS", board=7, tricks=9)
    assert played.score == -200 and played.auction is None
    assert play_deal(None, contract="Pass", board=1).score == 0
    with pytest.raises(NotationError, match="declarer"):
        play_deal(None, contract="4S", board=1, tricks=10)


# -- complete played deals, trick counts checked by hand ------------------------------------


def test_striped_deal_played_out_in_3nt() -> None:
    played = play_deal(STRIPED, "1NT Pass 3NT AP", board=3, play=STRIPED_3NT)
    # Board 3: East-West vulnerable, so North-South are not.
    assert played.tricks == 9 and played.score == 400
    assert played.play is not None and played.play.tricks == (9, 4)


def test_striped_deal_in_spades_with_a_claim() -> None:
    played = play_deal(STRIPED, "1S Pass 4S AP", board=3, play=STRIPED_4S_START, tricks=12)
    assert str(played.result) == "4SS+2" and played.score == 480
    assert played.play is not None and played.play.is_claimed


def test_one_suit_deal_east_in_notrump_goes_seven_down() -> None:
    # South leads diamonds and no one else holds any: South takes all 13 tricks.
    play = Play(ONE_SUIT, Contract.parse("1NTE"))
    while not play.is_complete:
        play.play(play.legal_cards()[0])
    played = play_deal(ONE_SUIT, "1NT AP", board=6, play=play)
    # Board 6: East deals, East-West vulnerable: 7 undoubled undertricks at 100.
    assert played.tricks == 0 and str(played.result) == "1NTE-7"
    assert played.score == 700


def test_play_and_tricks_must_agree() -> None:
    with pytest.raises(IllegalPlayError, match="disagrees"):
        play_deal(STRIPED, "1NT Pass 3NT AP", board=3, play=STRIPED_3NT, tricks=10)
    with pytest.raises(IllegalPlayError, match="cannot take"):
        play_deal(STRIPED, "1S Pass 4S AP", board=3, play=STRIPED_4S_START, tricks=13)
    with pytest.raises(IllegalPlayError, match="tricks="):
        play_deal(STRIPED, "1S Pass 4S AP", board=3, play=STRIPED_4S_START)


def test_illegal_card_in_the_play() -> None:
    with pytest.raises(IllegalPlayError, match="revoke"):
        play_deal(STRIPED, "1NT Pass 3NT AP", board=3, play="C4 SA")


def test_missing_or_inconsistent_pieces() -> None:
    with pytest.raises(NotationError, match="not finished"):
        play_deal(None, "1NT Pass 3NT Pass", board=3, tricks=9)
    with pytest.raises(NotationError, match="board number or its dealer"):
        play_deal(None, "1NT AP", tricks=7)
    with pytest.raises(NotationError, match="disagrees with the auction"):
        play_deal(None, "1NT Pass 3NT AP", board=3, contract="4SS", tricks=9)
    with pytest.raises(IllegalCallError):
        play_deal(None, "1NT 1S", board=3, tricks=9)
    with pytest.raises(NotationError, match="starts with"):
        play_deal(None, Auction.parse("1NT AP", dealer=N), board=3, tricks=7)
    with pytest.raises(NotationError, match="needs its play or the tricks"):
        play_deal(None, "1NT AP", board=3)
    with pytest.raises(BridgeError):
        play_deal(None, "1NT AP", board=3, tricks=14)
    with pytest.raises(NotationError, match="needs the deal"):
        play_deal(None, "1NT AP", board=3, play="C4")
    # A contract that agrees with the auction is accepted, with or without declarer.
    assert play_deal(None, "1NT AP", board=3, contract="1NT", tricks=7).score == 90
    assert play_deal(None, "1NT AP", board=3, contract="1NTS", tricks=7).score == 90


def test_as_dict() -> None:
    played = play_deal(None, "1S 2H 4S X AP", dealer=S, vulnerability=Vulnerability.BOTH, tricks=9)
    assert played.as_dict() == {
        "board": None,
        "dealer": "S",
        "vulnerable": "All",
        "contract": "4SX",
        "declarer": "S",
        "tricks": 9,
        "result": "4SXS-1",
        "score_ns": -200,
    }


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
    assert records[1].game.tags["Event"] == "Import test"
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
    text = format_pbn(played_deal_pairs(p, {"Event": "Round trip"}) for p in played)
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


# -- the `bridgescore game` command ------------------------------------------------------------


def test_cli_game_text() -> None:
    result = CliRunner().invoke(app, ["game", str(DATA / "games_export.pbn")])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 4
    assert lines[0].split() == [
        "board",
        "3",
        "3NT",
        "by",
        "S",
        "9",
        "tricks",
        "3NTS=",
        "NS",
        "+400",
    ]
    assert lines[2].split() == ["board", "5", "passed", "out", "NS", "+0"]
    assert lines[3].split()[-1] == "+700"


def test_cli_game_problems_exit_1_with_lines() -> None:
    result = CliRunner().invoke(app, ["game", str(DATA / "games_bad.pbn")])
    assert result.exit_code == 1
    assert "  line 11: Auction: East's 1H is illegal" in result.stdout
    assert "  line 24: Play: North to play: SA is illegal" in result.stdout
    assert "13 problem(s) in 8 game(s)" in result.stderr


def test_cli_game_json() -> None:
    result = CliRunner().invoke(app, ["game", str(DATA / "games_bad.pbn"), "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert len(data) == 8
    assert data[0]["score_ns"] == 80 and data[0]["contract"] == "1S"
    assert data[0]["problems"][0]["line"] == 11
    assert data[4]["board"] == 8 and data[4]["score_ns"] is None
    assert [problem["line"] for problem in data[4]["problems"]] == [50, 50]
    result = CliRunner().invoke(app, ["game", str(DATA / "games_import.pbn"), "--json"])
    assert result.exit_code == 0
    assert [game["score_ns"] for game in json.loads(result.stdout)] == [400, 680, 100]


def test_cli_game_missing_file_and_empty_input() -> None:
    result = CliRunner().invoke(app, ["game", "no-such-file.pbn"])
    assert result.exit_code == 2 and "no-such-file.pbn" in result.stderr
    result = CliRunner().invoke(app, ["game", "-"], input="% nothing here\n")
    assert result.exit_code == 1 and "no games" in result.stderr


def test_docstring_examples() -> None:
    import bridgescore.game as module

    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failed == 0


def test_user_guide_examples() -> None:
    guide = Path(__file__).parent.parent / "docs" / "auction-and-play.md"
    failed, attempted = doctest.testfile(
        str(guide), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert attempted >= 30 and failed == 0


def test_header_game_is_skipped_and_inherited() -> None:
    text = (
        '[Event "Club night"]\n[Site "Room 1"]\n\n'
        '[Event "#"]\n[Board"1"]\n[Contract "1NT"]\n[Declarer "N"]\n[Result "8"]\n'
    )
    (record,) = read_played_games(text)
    assert record.problems == ()
    assert record.game.tags["Event"] == "Club night"
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
    deal = random_deals(seed, 1)[0]
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


def test_cli_game_reads_latin1_and_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "latin.pbn"
    path.write_bytes(
        b'\xef\xbb\xbf% PBN 2.1\r\n[Event "Caf\xe9"]\r\n[Board "1"]\r\n'
        b'[Contract "1NT"]\r\n[Declarer "N"]\r\n[Result "7"]\r\n'
    )
    result = CliRunner().invoke(app, ["game", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)[0]["score_ns"] == 90
