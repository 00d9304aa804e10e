"""``bs.analyse`` and ``bridgescore analyse``: every card's figures against positions
solved one by one with DDS in the test (endplay's SolveBoard, not the AnalysePlay call
the review uses), the lead tables against DDS's all-cards solve, par against DDS's own
par, the IMPs against the WBF scale written here, and the exact JSON schema."""

from __future__ import annotations

import json
from pathlib import Path

import endplay.dds as dds
import endplay.types as ep
import pytest
from typer.testing import CliRunner

import bridgescore as bs
from bridgescore.cli.app import app
from bridgescore.core import Seat, Strain, Vulnerability
from bridgescore.deal import Card
from bridgescore.formats import read_records
from bridgescore.formats.lin import handviewer_link
from bridgescore.play import Play
from bridgescore.postmortem.page import review_html
from bridgescore.postmortem.review import Review, analyse
from dds_reference import endplay_deal, tricks_after_each_lead

DATA = Path(__file__).parents[1] / "data"
HISTORY = DATA / "formats" / "hand_history.lin"

# endplay's strains: spades 0, hearts 1, diamonds 2, clubs 3, notrump 4.
_VUL = {
    Vulnerability.NONE: ep.Vul.none,
    Vulnerability.NS: ep.Vul.ns,
    Vulnerability.EW: ep.Vul.ew,
    Vulnerability.BOTH: ep.Vul.both,
}
# The WBF IMP scale (Law 78B): the lowest difference of each step from 1 IMP up.
_STEPS = [
    20,
    50,
    90,
    130,
    170,
    220,
    270,
    320,
    370,
    430,
    500,
    600,
    750,
    900,
    1100,
    1300,
    1500,
    1750,
    2000,
    2250,
    2500,
    3000,
    3500,
    4000,
]


def _imps(points: int) -> int:
    size = sum(1 for step in _STEPS if abs(points) >= step)
    return size if points >= 0 else -size


@pytest.fixture(scope="module")
def review() -> Review:
    return analyse(HISTORY)


def _board(review: Review, number: int) -> dict[str, object]:
    return next(board.as_dict() for board in review if board.number == number)


def _positions_one_by_one(pbn: str, contract: str, cards: list[str]) -> list[int]:
    """Declarer's tricks before the lead and after each card: won so far plus the best
    the side to play takes from there, each position solved on its own."""
    parsed = bs.Contract.parse(contract)
    assert parsed.declarer is not None
    deal = endplay_deal(pbn, parsed.strain, parsed.declarer)
    play = Play(bs.Deal.from_pbn(pbn), parsed)
    values = []
    for count in range(len(cards) + 1):
        if count:
            deal.play(cards[count - 1])
            play.play(cards[count - 1])
        if count == 52:
            values.append(play.declarer_tricks)
            break
        best = max(tricks for _, tricks in dds.solve_board(deal))
        mover = play.next_seat
        assert mover is not None
        remaining = 13 - len(play.completed_tricks)
        future = best if mover.side == parsed.declarer.side else remaining - best
        values.append(play.declarer_tricks + future)
    return values


@pytest.mark.parametrize("number", [1, 3])
def test_every_card_against_each_position_solved(review: Review, number: int) -> None:
    board = _board(review, number)
    record = next(r for r in read_records(HISTORY) if r.board == number)
    assert record.play is not None
    cards = [str(card) for card in record.play]
    contract = f"{board['contract']}{board['declarer']}"
    values = _positions_one_by_one(str(board["deal"]), contract, cards)
    play = board["play"]
    assert isinstance(play, list)
    assert [card["card"] for card in play] == cards
    assert [card["before"] for card in play] == values[:-1]
    assert [card["after"] for card in play] == values[1:]
    declaring = Seat.parse(str(board["declarer"])).side
    for card in play:
        side = Seat.parse(card["seat"]).side
        expected = (
            card["before"] - card["after"]
            if side == declaring
            else (card["after"] - card["before"])
        )
        assert card["cost"] == expected >= 0
    assert [card["trick"] for card in play] == [i // 4 + 1 for i in range(len(cards))]
    costs = board["costs"]
    assert costs == {
        "declarer": sum(c["cost"] for c in play if Seat.parse(c["seat"]).side == declaring),
        "defence": sum(c["cost"] for c in play if Seat.parse(c["seat"]).side != declaring),
    }


def test_a_whole_play_reaches_the_tricks_taken(review: Review) -> None:
    board = _board(review, 3)
    play = board["play"]
    assert isinstance(play, list) and len(play) == 52
    assert play[-1]["after"] == board["tricks"] == 7  # 4SX down three
    assert board["score_ns"] == -500  # three down doubled, not vulnerable (Law 77)


@pytest.mark.parametrize("number", [1, 3, 4])
def test_lead_table_against_the_all_cards_solve(review: Review, number: int) -> None:
    board = _board(review, number)
    contract = bs.Contract.parse(f"{board['contract']}{board['declarer']}")
    assert contract.declarer is not None
    expected = tricks_after_each_lead(str(board["deal"]), contract.strain, contract.declarer)
    lead = board["lead"]
    assert isinstance(lead, dict)
    assert lead["seat"] == contract.declarer.rotate(1).letter
    assert lead["tricks"] == expected
    assert board["dd_tricks"] == min(expected.values())
    if lead["card"] is None:
        assert lead["cost"] is None
    else:
        assert lead["cost"] == expected[lead["card"]] - min(expected.values())


@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_par_and_the_score_against_par(review: Review, number: int) -> None:
    board = _board(review, number)
    deal = bs.Deal.from_pbn(str(board["deal"]))
    dealer = Seat.parse(str(board["dealer"]))
    vulnerability = Vulnerability.parse(str(board["vulnerability"]))
    table = dds.calc_dd_table(ep.Deal(deal.to_pbn()))
    expected = dds.par(table, _VUL[vulnerability], ep.Player(int(dealer)))
    par = board["par"]
    assert isinstance(par, dict)
    assert par["score_ns"] == expected.score
    points = int(board["score_ns"]) - expected.score  # type: ignore[call-overload]
    assert board["versus_par"] == {"points": points, "imps": _imps(points)}
    # The review holds the one board value, with DDS's table and par on it.
    reviewed = next(item for item in review if item.number == number)
    assert reviewed.board.number == number and reviewed.board.deal == deal
    assert (reviewed.board.dealer, reviewed.board.vulnerability) == (dealer, vulnerability)
    assert reviewed.board.dd_table is not None and reviewed.board.par is not None
    for seat in Seat:
        for strain in Strain:
            denom = ep.Denom[strain.name.lower() if strain is not Strain.NOTRUMP else "nt"]
            assert (
                reviewed.board.dd_table.tricks(seat, strain) == table[denom, ep.Player(int(seat))]
            )
    assert reviewed.par.score == expected.score and reviewed.board.par is reviewed.par


def test_the_passed_out_board(review: Review) -> None:
    board = _board(review, 2)
    assert board["contract"] is None and board["declarer"] is None
    assert board["score_ns"] == 0 and board["tricks"] is None
    assert board["lead"] is None and board["play"] == [] and board["costs"] is None


def test_a_claim_is_checked_against_double_dummy(review: Review) -> None:
    board = _board(review, 1)
    play = board["play"]
    assert isinstance(play, list) and len(play) == 8  # two tricks, then mc|9|
    assert board["tricks"] == 9
    assert board["claim"] == {"tricks": 9, "dd": play[-1]["after"]}


def test_the_schema_is_exact(review: Review) -> None:
    keys = {
        "board",
        "dealer",
        "vulnerability",
        "deal",
        "contract",
        "declarer",
        "tricks",
        "score_ns",
        "dd_tricks",
        "par",
        "versus_par",
        "lead",
        "play",
        "costs",
        "claim",
    }
    for board in review.as_list():
        assert set(board) == keys
        assert set(board["par"]) == {"score_ns", "contracts"}
        assert set(board["versus_par"]) == {"points", "imps"}
        for card in board["play"]:
            assert set(card) == {"trick", "seat", "card", "before", "after", "cost"}
            Card.parse(card["card"])  # written SA, HT, C2
        if board["lead"] is not None:
            assert set(board["lead"]) == {"seat", "card", "tricks", "cost"}


def test_a_hand_record_gets_double_dummy_and_par_only() -> None:
    review = analyse(
        text='[Board "5"][Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 '
        '6543.876.876.876 2.5432.5432.5432"]'
    )
    board = review[0].as_dict()
    assert board["contract"] is None and board["score_ns"] is None
    assert board["dealer"] == "N" and board["vulnerability"] == "NS"  # board 5 (Law 2)
    assert board["par"]["score_ns"] == 2220  # 7NT by North vulnerable: 220 + 1500 + 500
    assert board["versus_par"] == {"points": None, "imps": None}


def test_a_board_without_its_deal_is_skipped_and_named() -> None:
    review = analyse(text='[Board "9"][Declarer "N"][Contract "3NT"][Result "9"]')
    assert len(review) == 0
    assert [(s.board, "no deal" in s.reason) for s in review.skipped] == [(9, True)]


def test_records_of_another_kind_are_refused() -> None:
    with pytest.raises(bs.BridgeError, match="BoardRecord"):
        analyse(["3NT"])  # type: ignore[list-item]


# -- the command -------------------------------------------------------------------------


def test_cli_json_is_the_library_s_list(review: Review) -> None:
    result = CliRunner().invoke(app, ["analyse", str(HISTORY), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == review.as_list()


def test_cli_text_names_the_costly_cards() -> None:
    result = CliRunner().invoke(app, ["analyse", str(HISTORY), "--board", "3"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Board 3  dealer S  vulnerable EW")
    assert "4SX by S, 7 tricks, NS -500" in result.stdout
    assert "trick 4: N H3 cost 3 (7 -> 4)" in result.stdout


def test_cli_board_missing_from_the_file() -> None:
    result = CliRunner().invoke(app, ["analyse", str(HISTORY), "--board", "30"])
    assert result.exit_code == 2
    assert "--board 30: no such board" in result.output
    assert "boards 1, 2, 3, 4" in result.output


def test_cli_a_skipped_board_is_reported_with_its_line() -> None:
    result = CliRunner().invoke(app, ["analyse", str(DATA / "games_import.pbn"), "--json"])
    assert result.exit_code == 1
    assert "board 2 (line 47) skipped: the board has no deal" in result.stderr
    assert [board["board"] for board in json.loads(result.stdout)] == [3, 4]


def test_cli_reads_a_handviewer_link() -> None:
    record = next(r for r in read_records(HISTORY) if r.board == 1)
    result = CliRunner().invoke(app, ["analyse", handviewer_link(record), "--json"])
    assert result.exit_code == 0, result.output
    (board,) = json.loads(result.stdout)
    assert board["contract"] == "3NT" and board["vulnerability"] == "None"
    assert len(board["play"]) == 8


def test_cli_writes_the_page(tmp_path: Path, review: Review) -> None:
    out = tmp_path / "review.html"
    result = CliRunner().invoke(app, ["analyse", str(HISTORY), "--html", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert page == review_html(review)
    assert page.count('<section class="board"') == 4
    assert page.count('<tr class="trick"') == 13 + 2  # board 3's 13 tricks, board 1's 2
    assert "Opening lead by West: C3, cost 0" in page
    assert "−3</b>" in page  # North's H3 at trick 4 gave three tricks away


def test_cli_refuses_a_page_name_that_is_not_html() -> None:
    result = CliRunner().invoke(app, ["analyse", str(HISTORY), "--html", "out.txt"])
    assert result.exit_code == 2
    assert "--html 'out.txt': expected a file name ending in .html" in result.output


def test_notebooks_show_the_review_as_html(review: Review) -> None:
    html = review[2]._repr_html_()
    assert '<section class="board" id="board-3">' in html  # the third board reviewed
    assert "<script" not in html


def test_a_claim_before_the_lead_is_checked_against_double_dummy() -> None:
    # Solid suits: North's 7D takes all thirteen tricks on any lead.
    review = analyse(
        text="md|3SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|sv|o|mb|7D|mb|p|mb|p|mb|p|mc|13|"
    )
    board = review[0].as_dict()
    assert board["claim"] == {"tricks": 13, "dd": 13} and board["play"] == []
    assert board["score_ns"] == 1440  # 7D made, not vulnerable: 140 + 300 + 1000


def test_a_spade_contract_by_south_keeps_its_strain() -> None:
    # 4S by South: the contract is written without its declarer, "4S" (the S is the suit).
    review = analyse(
        text='[Board "1"][Dealer "N"][Vulnerable "None"]'
        '[Deal "N:T987.JT9.JT9.JT9 6543.876.876.876 AKQJ.AKQ.AKQ.AKQ 2.5432.5432.5432"]'
        '[Declarer "S"][Contract "4S"][Result "13"]'
    )
    board = review[0].as_dict()
    assert (board["contract"], board["declarer"]) == ("4S", "S")
    assert board["score_ns"] == 510  # 4S+3 not vulnerable: 120 + 90 + 300


_BAD_PLAY = (
    '[Board "1"][Dealer "N"][Vulnerable "None"]'
    '[Deal "N:T987.JT9.JT9.JT9 6543.876.876.876 AKQJ.AKQ.AKQ.AKQ 2.5432.5432.5432"]'
    '[Declarer "S"][Contract "4S"][Result "13"]\n[Play "W"]\nSA - - -\n*\n'
)


def test_a_play_that_breaks_the_rules_is_left_out_and_said_so() -> None:
    # West leads the ace of spades, which South holds: the board keeps its result, double
    # dummy and par, and the review says why its play is not there.
    review = analyse(text=_BAD_PLAY)
    board = review[0].as_dict()
    assert board["score_ns"] == 510  # 4S+3 not vulnerable: 120 + 90 + 300
    assert board["play"] == [] and board["lead"]["card"] is None
    assert review.skipped == ()
    [left_out] = review.skipped_plays
    assert left_out.board == 1
    assert left_out.reason.startswith("its play is left out: ")
    assert "SA" in left_out.reason and "South" in left_out.reason
    assert "Plays left out" in review_html(review)


def test_cli_a_play_left_out_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "bad_play.pbn"
    path.write_text(_BAD_PLAY, encoding="utf-8")
    result = CliRunner().invoke(app, ["analyse", str(path), "--json"])
    assert result.exit_code == 0  # the board is reviewed; the note says what was left out
    assert "board 1 (line 1): its play is left out: " in result.stderr
    assert [board["board"] for board in json.loads(result.stdout)] == [1]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        # PBN writes a hand it does not give as "-".
        ('[Board "4"]\n[Deal "N:AKQJ.T98.765.432 - - -"]\n', "East's hand is '-'"),
        # East's hand gets the fourteen cards the three given leave.
        ("md|3SAKQJHAKQDAKQCAK,S2345H2345D2345C2,S6789H6789D6789C4,|sv|o|", "14 cards"),
    ],
)
def test_a_deal_that_cannot_be_read_is_named_as_the_reason(text: str, named: str) -> None:
    review = analyse(text=text)
    [skipped] = review.skipped
    assert skipped.reason.startswith("its deal cannot be read: ") and named in skipped.reason


# Board 3 deals South and is East-West vulnerable (Law 2); its file says "Bogus".
_BOGUS_VULNERABLE = (
    '[Board "3"]\n[Dealer "S"]\n[Vulnerable "Bogus"]\n'
    '[Deal "N:T987.JT9.JT9.JT9 6543.876.876.876 AKQJ.AKQ.AKQ.AKQ 2.5432.5432.5432"]\n'
    '[Declarer "S"]\n[Contract "4S"]\n[Result "13"]\n'
)


def test_what_the_file_got_wrong_on_a_reviewed_board_is_said() -> None:
    # The board is reviewed on its number's vulnerability; the review must not read as if
    # the file had said East-West.
    review = analyse(text=_BOGUS_VULNERABLE)
    board = review[0].as_dict()
    assert board["vulnerability"] == "EW"
    assert board["score_ns"] == 510  # 4S+3, South not vulnerable: 120 + 90 + 300
    assert review.skipped == () and review.skipped_plays == ()
    [misread] = review.misread
    assert (misread.board, misread.line) == (3, 3)
    assert misread.reason.startswith("Vulnerable tag: ") and "'Bogus'" in misread.reason
    page = review_html(review)
    assert "What the file got wrong" in page and "Board 3, line 3: Vulnerable tag" in page


def test_a_clean_file_has_nothing_misread() -> None:
    review = analyse(text=_BOGUS_VULNERABLE.replace("Bogus", "EW"))
    assert review.misread == () and "What the file got wrong" not in review_html(review)


def test_cli_says_what_the_file_got_wrong_and_still_reviews(tmp_path: Path) -> None:
    path = tmp_path / "bogus.pbn"
    path.write_text(_BOGUS_VULNERABLE, encoding="utf-8")
    result = CliRunner().invoke(app, ["analyse", str(path), "--json"])
    assert result.exit_code == 0
    assert "board 3 (line 3): Vulnerable tag: unknown vulnerability 'Bogus'" in result.stderr
    assert [board["board"] for board in json.loads(result.stdout)] == [3]


def test_a_play_left_out_is_said_once(tmp_path: Path) -> None:
    path = tmp_path / "bad_play.pbn"
    path.write_text(_BAD_PLAY, encoding="utf-8")
    result = CliRunner().invoke(app, ["analyse", str(path)])
    assert result.stderr.splitlines() == [
        "board 1 (line 1): its play is left out: Play: West to play: SA is illegal: "
        "it is West's turn, and SA is in South's hand"
    ]


def test_a_card_the_reader_cannot_read_is_said() -> None:
    # "SZ" is no card: the reader drops the play, and the review says why there is none.
    review = analyse(text=_BAD_PLAY.replace("SA - - -", "SZ - - -"))
    assert review[0].as_dict()["play"] == [] and review.skipped_plays == ()
    [misread] = review.misread
    assert misread.line == 3 and misread.reason.startswith("Play: not a card: 'SZ'")


def test_a_broken_play_beside_a_misread_tag_is_left_out_for_its_own_reason() -> None:
    # Both wrong on one board: the play is left out for the card West cannot lead, and the
    # Vulnerable tag is what the file got wrong; neither is given as the other's reason.
    review = analyse(text=_BAD_PLAY.replace('[Vulnerable "None"]', '[Vulnerable "Bogus"]'))
    [left_out] = review.skipped_plays
    assert "SA is illegal" in left_out.reason and "Vulnerable" not in left_out.reason
    [misread] = review.misread
    assert misread.reason.startswith("Vulnerable tag: ")
