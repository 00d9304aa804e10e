"""PBN as real files write it, read into board records and checked against the Laws.

Expected scores are worked out here from the Laws (scoring table) and the WBF IMP
scale, never read back from the code under test.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore import Contract, Deal, Seat, Vulnerability
from bridgescore.auction import Auction
from bridgescore.deal import random_deals
from bridgescore.errors import BridgeError
from bridgescore.formats import BoardRecord, check_record, read_records
from bridgescore.formats.crosscheck import cross_check
from bridgescore.formats.pbn import read_pbn
from bridgescore.formats.words import contract_of, deal_of

DATA = Path(__file__).parents[2] / "data" / "formats"


def _checked(name: str) -> list:
    return [check_record(record) for record in read_records(DATA / name)]


# Board 1 (dealer N, none vul), board 2 (E, NS vul), board 3 (S, EW vul), two tables each.
CHAMPIONSHIP = [
    (1, "3NT", "N", 9, 400),  # 3NT= not vul: 40+30+30 + 300 game bonus
    (1, "4S", "N", 10, 420),  # 4S= not vul: 120 + 300
    (2, "2H", "S", 8, 110),  # 2H= vul: 60 + 50 part score
    (2, "3H", "S", 8, -100),  # 3H-1 vul: 100 to EW
    (3, "1NT", "N", 7, 90),  # 1NT= not vul: 40 + 50
    (3, "Pass", None, None, 0),
]


@pytest.mark.parametrize("name", ["championship.pbn", "championship_no_opening_passes.pbn"])
def test_championship_file_reads_every_table(name: str) -> None:
    checked = _checked(name)
    got = [
        (c.as_dict()["board"], c.as_dict()["contract"], c.as_dict()["declarer"],
         c.as_dict()["tricks"], c.as_dict()["score_ns"])
        for c in checked
    ]  # fmt: skip
    assert got == CHAMPIONSHIP
    problems = [problem.message for c in checked for problem in c.problems]
    if name == "championship.pbn":
        assert problems == []
    else:
        # Restored passes are said once per file, not once per game.
        assert len(problems) == 1 and "opening passes" in problems[0]


def test_second_table_inherits_board_dealer_vulnerability_and_deal() -> None:
    first, second = list(read_records(DATA / "championship.pbn"))[2:4]
    assert second.board == first.board == 2
    assert second.dealer is first.dealer is Seat.EAST
    assert second.vulnerable is first.vulnerable is Vulnerability.NS
    assert second.deal == first.deal and second.deal is not None
    # "#" copies the previous game's value, back to the header game.
    assert second.event == "Winter Championship"
    assert ("Site", "Harrogate") in second.notes
    assert second.table == "2" and second.player(Seat.NORTH) == "N21"


def test_inheritance_needs_all_four_tags_missing() -> None:
    text = (
        '[Board "5"]\n[Dealer "N"]\n[Vulnerable "NS"]\n[Contract "1S"]\n[Declarer "N"]\n'
        '[Result "7"]\n\n[Board "6"]\n[Contract "1S"]\n[Declarer "N"]\n[Result "7"]\n'
    )
    records = list(read_pbn(text))
    # Board 6 names its board: dealer and vulnerability follow it (Law 2), not board 5.
    assert records[1].board == 6 and records[1].dealer_seat is None
    assert records[1].vulnerability is Vulnerability.EW
    assert records[1].dealer is Seat.EAST


def test_encodings_read_identically() -> None:
    def names(name: str) -> tuple:
        (record,) = read_records(DATA / name)
        return record.players, record.event

    utf8 = names("names_utf8.pbn")
    assert utf8 == (("Zoë Ågren", "Seán O’Brien", "Jürgen Müller", "Anaïs Lefèvre"),
                    "Coupe d’Automne")  # fmt: skip
    assert names("names_utf8_bom.pbn") == utf8
    assert names("names_cp1252_crlf.pbn") == utf8
    assert names("names_latin1.pbn") == names("names_utf8_plain_apostrophe.pbn")


def test_online_teams_pairs_tables_and_checks_score_imp() -> None:
    checked = _checked("online_teams.pbn")
    records = [c.record for c in checked]
    assert [(r.board, r.table, r.home_team, r.visit_team) for r in records][:2] == [
        (1, "1", "Lions", "Tigers"),
        (1, "2", "Tigers", "Lions"),
    ]
    assert all(r.room is None for r in records)
    # Board 1: 3NT= (+400) against 4S-1 (-50): 450 points is 10 IMPs (430-490).
    assert records[0].score_tag("ScoreIMP") == "NS 10"
    assert records[1].score_tag("ScoreIMP") == "NS -10"
    # Board 2 (NS vul): 2H= +110 against 3H-1 -100: 210 is 5 IMPs (170-210).
    assert records[3].score_tag("ScoreIMP") == "NS 5"
    extra = cross_check(checked)
    messages = [str(problem) for found in extra for problem in found]
    assert len(messages) == 1 and "Bears v Wolves has no other room" in messages[0]
    assert "board 1, table 3" in messages[0]


def test_score_imp_disagreement_lists_both_values() -> None:
    text = (DATA / "online_teams.pbn").read_text().replace('"NS 10"', '"NS 9"', 1)
    checked = [check_record(record) for record in read_records(text=text)]
    extra = cross_check(checked)
    (problem,) = extra[0]
    assert "'NS 9'" in problem.message and "NS +10" in problem.message
    assert "board 1, table 1" in problem.message


def test_score_tag_disagreement_is_listed() -> None:
    text = (DATA / "championship.pbn").read_text().replace('"NS 420"', '"NS 450"')
    checked = [check_record(record) for record in read_records(text=text)]
    (problem,) = [p for c in checked for p in c.problems]
    assert "'NS 450'" in problem.message and "NS +420" in problem.message


def test_score_mp_cross_check() -> None:
    games = []
    # Three tables of board 1: 420, 420 and 450 for NS. MPs on the 2/1 scale:
    # 450 beats two: 4; each 420 ties one: 1.
    for table, (result, mp) in enumerate([(10, "1"), (10, "1"), (11, "3")], start=1):
        games.append(
            f'[Board "1"]\n[Table "{table}"]\n[Contract "4S"]\n[Declarer "N"]\n'
            f'[Result "{result}"]\n[ScoreMP "NS {mp}"]\n'
        )
    checked = [check_record(record) for record in read_pbn("\n".join(games))]
    extra = cross_check(checked)
    assert extra[0] == [] and extra[1] == []
    (problem,) = extra[2]
    assert "'NS 3'" in problem.message and "NS 4 of 4" in problem.message


def test_result_as_side_and_tricks() -> None:
    (record,) = read_pbn('[Board "1"]\n[Contract "4H"]\n[Declarer "E"]\n[Result "NS 3"]\n')
    # NS took 3, so East took 10.
    assert record.result == 10 and record.contract == Contract.parse("4HE")


def test_unknown_tags_are_kept_and_written_back() -> None:
    from bridgescore.formats import format_records

    text = (
        '[Board "1"]\n[Contract "Pass"]\n[Stage "Round 4"]\n'
        '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\nN NT 9\nS NT 9\n'
    )
    (record,) = read_pbn(text)
    assert ("Stage", "Round 4") in record.notes
    assert record.note("OptimumResultTable") == (
        "Declarer;Denomination\\2R;Result\\2R\nN NT 9\nS NT 9"
    )
    (again,) = read_pbn(format_records([record], "pbn"))
    assert again.without_source() == record.without_source()


def test_auction_notes_become_alerts_with_explanations() -> None:
    text = (
        '[Board "1"]\n[Dealer "N"]\n[Auction "N"]\n1C =1= Pass 1H =2= Pass\n'
        'Pass Pass\n[Note "1:16+ any shape"]\n[Note "2:0-7"]\n'
    )
    (record,) = read_pbn(text)
    assert record.auction is not None
    first, _, third = record.auction[:3]
    assert (first.call, first.alerted, first.explanation) == ("1C", True, "16+ any shape")
    assert (third.call, third.explanation) == ("1H", "0-7")
    assert record.notes == ()


def test_header_game_is_not_a_board() -> None:
    records = list(read_pbn('[Event "E"]\n[Site "S"]\n\n[Board "1"]\n[Event "#"]\n'))
    assert len(records) == 1 and records[0].event == "E"
    assert isinstance(records[0], BoardRecord)


# -- the fast word readers agree with the validating ones ---------------------------------


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 2**32 - 1), st.sampled_from(list(Seat)), st.integers(0, 80), st.text(max_size=2)
)
def test_fast_deal_reading_agrees_with_deal_from_pbn(
    seed: int, first: Seat, at: int, insert: str
) -> None:
    text = random_deals(1, seed=seed)[0].to_pbn(first)
    mutated = text[:at] + insert + text[at + len(insert) :]
    for candidate in (text, mutated):
        try:
            expected = Deal.from_pbn(candidate)
        except BridgeError:
            with pytest.raises(BridgeError):
                deal_of(candidate)
            continue
        assert deal_of(candidate) == expected
        assert hash(deal_of(candidate)) == hash(expected)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(list(Seat)))
def test_contract_of_agrees_with_the_auction(seed: int, dealer: Seat) -> None:
    rng = random.Random(seed)
    auction = Auction(dealer)
    texts: list[str] = []
    while not auction.is_complete:
        legal = auction.legal_calls()
        call = legal[0] if rng.random() < 0.5 else rng.choice(legal)
        auction.append(call)
        texts.append(str(call))
        complete, contract = contract_of(texts, dealer)
        assert complete == auction.is_complete
        if complete:
            assert contract == auction.contract


def test_formats_guide_examples() -> None:
    import doctest

    guide = Path(__file__).parents[3] / "docs" / "formats.md"
    failed, attempted = doctest.testfile(
        str(guide),
        module_relative=False,
        optionflags=doctest.ELLIPSIS,
        globs={"Seat": Seat, "Contract": Contract, "Vulnerability": Vulnerability},
    )
    assert attempted >= 5 and failed == 0


def test_a_traveller_with_quoted_cells_is_written_back_and_reads_the_same() -> None:
    """Real ScoreTables quote their text cells ("4S", "Smith - Jones"): writing such a
    file as PBN keeps every cell, and reading it back gives the same rows."""
    from bridgescore.formats import format_records

    text = "\n".join(
        [
            '[Board "2"]',
            '[Dealer "E"]',
            '[Vulnerable "NS"]',
            '[ScoreTable "PairId_NS\\2R;Names\\20L;Contract\\5L;Declarer\\1R;Result\\2R"]',
            ' 1 "Smith - Jones"  "4S"   N 10',
            ' 3 "O\'Brien"        "3NTX" E  7',
            "",
        ]
    )
    (record,) = read_pbn(text)
    assert record.traveller is not None
    rows = [row.cells for row in record.traveller.rows]
    assert rows == [("1", "Smith - Jones", "4S", "N", "10"), ("3", "O'Brien", "3NTX", "E", "7")]
    written = format_records([record], "pbn")
    assert '1 "Smith - Jones" "4S" N 10' in written
    (again,) = read_pbn(written)
    assert again.traveller is not None
    assert [row.cells for row in again.traveller.rows] == rows


def test_a_section_line_with_a_stray_quote_is_refused_by_the_writer() -> None:
    from bridgescore.formats.pbn import TagPair, format_game

    good = TagPair.build("ScoreTable", "PairId_NS\\2R;Names\\20L", [["1", '"Smith', 'Jones"']])
    assert format_game([good], fill_missing=False).endswith('1 "Smith Jones"')
    bad = TagPair.build("ScoreTable", "PairId_NS\\2R;Names\\20L", [["1", 'Sm"ith']])
    with pytest.raises(BridgeError, match=r"section line '1 Sm\"ith' of tag ScoreTable"):
        format_game([bad], fill_missing=False)
