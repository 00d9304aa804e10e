"""Scoring whole events: Mitchell, two sections with fouled and short boards, teams."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

import bridgescore as bs
from bridgescore.errors import BridgeError, RecordError, ScoringMethodError
from bridgescore.session.importers.csv import parse_csv
from bridgescore.session.scoring.event import Adjusted, Event, TableResult
from bridgescore.session.scoring.methods import SCORING_METHODS, ScoringOptions
from bridgescore.session.scoring.scored import BoardPar, SessionScore
from bridgescore.session.scoring.scorer import score_event

DATA = Path(__file__).parents[2] / "data"


def load(name: str, kind: str = "pairs") -> Event:
    parsed = parse_csv((DATA / name).read_text().splitlines(), name)
    assert parsed.problems == []
    return Event(name, kind, results=tuple(r for r, _ in parsed.results))  # type: ignore[arg-type]


def by_pair(scored: SessionScore) -> dict[tuple[int, str, str], tuple[float | None, float | None]]:
    """(board, section, ns) -> (NS points, EW points)."""
    return {
        (t.board.number, line.result.section, line.result.ns): (line.ns, line.ew)
        for t in scored.travellers
        for line in t.lines
    }


def neuberg_tenths(mp2: int, n: int, big_n: int) -> float:
    """rules.md §4.3, 2/1 scale, rounded to 0.1 with halves up (all values here are >= 0)."""
    value = (Fraction((mp2 + 1) * big_n, n) - 1) * 10
    return int(value + Fraction(1, 2)) / 10


# ------------------------------------------------------------------ Mitchell


def test_mitchell_matchpoints_travellers() -> None:
    scored = score_event(load("session_mitchell.csv"), "mp")
    lines = by_pair(scored)
    # Board 1: +430 +400 +50 0 -110, five results: 8 6 4 2 0 of top 8.
    assert [lines[(1, "", p)] for p in "12345"] == [(8, 0), (6, 2), (4, 4), (2, 6), (0, 8)]
    # Board 2 is the worked example of rules.md §4.2.
    assert [lines[(2, "", p)][0] for p in "12345"] == [5, 5, 8, 2, 0]
    # Board 3: four real results (-620 -650 -300 -170), pair 3 given A+/A-: the real
    # ones are compared among themselves and Neuberg'd to 5; the award is 60 % / 40 % of 8.
    real = {"1": 2, "2": 0, "4": 4, "5": 6}
    for pair, mp2 in real.items():
        ns = neuberg_tenths(mp2, 4, 5)
        assert lines[(3, "", pair)][0] == ns
        assert lines[(3, "", pair)][1] == pytest.approx(8 - ns)
    assert lines[(3, "", "3")] == (4.8, 3.2)
    # Board 4 is short (4 results): +90 +100 +120 +90 -> 1 4 6 1 -> factored to 5.
    assert (
        [lines[(4, "", p)][0] for p in "1234"]
        == [neuberg_tenths(m, 4, 5) for m in (1, 4, 6, 1)]
        == [1.5, 5.3, 7.8, 1.5]
    )
    for traveller in scored.travellers:
        assert traveller.top == 8
        for line in traveller.lines:
            assert line.ns is not None and line.ew is not None
            if not line.result.is_artificial:
                assert line.ns + line.ew == pytest.approx(8)  # NS + EW = top


def test_mitchell_ranking_per_direction() -> None:
    scored = score_event(load("session_mitchell.csv"), "mp")
    ns = [(s.rank, s.name, s.total, s.boards) for s in scored.standings if s.direction == "NS"]
    assert ns == [
        ("1", "3", 24.6, 4),  # 4 + 8 + 4.8 + 7.8
        ("2", "1", 17.3, 4),  # 8 + 5 + 2.8 + 1.5
        ("3", "2", 16.6, 4),  # 6 + 5 + 0.3 + 5.3
        ("4", "4", 10.8, 4),  # 2 + 2 + 5.3 + 1.5
        ("5", "5", 7.8, 3),  # 0 + 0 + 7.8
    ]
    percent = {s.name: s.percent for s in scored.standings}
    assert percent["5"] == pytest.approx(100 * 7.8 / 24, abs=0.01)
    assert {s.direction for s in scored.standings} == {"NS", "EW"}


def test_session_percentage_variant_for_average_plus() -> None:
    options = ScoringOptions(session_percentage=True)
    lines = by_pair(score_event(load("session_mitchell.csv"), "mp", options))
    # Pair 3 (NS) scored 4 + 8 + 7.8 = 19.8 of 24 on its other boards: 82.5 % > 60 %.
    assert lines[(3, "", "3")][0] == 6.6  # 82.5 % of 8
    # Pair 8 (EW) scored 4 + 0 + 0.2 = 4.2 of 24: 17.5 % < 40 % -> average minus is 17.5 %.
    assert lines[(3, "", "3")][1] == 1.4


def test_session_percentage_awards_round_halves_away_from_zero() -> None:
    # Three tables, top 4. Pair 1 (NS, against 4 all session) earns 4 + 4 + 4 + 1 = 13 of
    # 16 on boards 1-4 and gets A+ on board 5: 13/16 of 4 is 3.25 MP, a half, which
    # docs/sessions.md rounds away from zero to 3.3 (halves to even gave 3.2). Pair 4
    # (EW) earns 0 + 0 + 0 + 3 = 3 of 16: A- is 3/16 of 4 = 0.75 -> 0.8.
    results = []
    for board, scores in {
        1: (450, 420, 400),
        2: (450, 420, 400),
        3: (450, 420, 400),
        4: (100, 100, 200),
    }.items():
        for (ns, ew), points in zip((("1", "4"), ("2", "5"), ("3", "6")), scores, strict=True):
            results.append(TableResult(board, ns, ew, score=points))
    results.append(TableResult(5, "1", "4", adjusted=Adjusted.parse("A+")))
    results.append(TableResult(5, "2", "5", score=100))
    results.append(TableResult(5, "3", "6", score=200))
    event = Event("halves", "pairs", results=tuple(results))
    lines = by_pair(score_event(event, "mp", ScoringOptions(session_percentage=True)))
    assert [lines[(b, "", "1")] for b in (1, 2, 3, 4)] == [(4, 0), (4, 0), (4, 0), (1, 3)]
    assert lines[(5, "", "1")] == (3.3, 0.8)
    # Without the variant the awards are 60 % and 40 % of 4, exact tenths.
    assert by_pair(score_event(event, "mp"))[(5, "", "1")] == (2.4, 1.6)


def test_scored_by_a_method_value() -> None:
    event = load("session_mitchell.csv")
    by_name = score_event(event, "butler")
    by_value = score_event(event, SCORING_METHODS["butler"])
    assert by_value == by_name and by_value.scoring_method is SCORING_METHODS["butler"]


def test_mitchell_butler_and_cross_imps() -> None:
    event = load("session_mitchell.csv")
    butler = score_event(event, "butler")
    lines = by_pair(butler)
    assert [lines[(2, "", p)][0] for p in "12345"] == [4, 4, 5, -7, -11]  # §4.5 example
    assert butler.travellers[1].datum == 470
    # Board 1: drop +430 and -110; mean of 400, 50, 0 is 150.
    assert butler.travellers[0].datum == 150
    assert lines[(3, "", "3")] == (3, -3)  # A+/A-: +3 / -3 IMPs
    cross = by_pair(score_event(event, "cross-imps"))
    assert [cross[(2, "", p)][0] for p in "12345"] == [5.25, 5.25, 6.25, -5.75, -11.0]
    raw = by_pair(score_event(event, "cross-imps", ScoringOptions(divide="none")))
    assert [raw[(2, "", p)][0] for p in "12345"] == [21, 21, 25, -23, -44]
    assert all(ns == -(ew or 0) for ns, ew in raw.values() if ns is not None and ns != 3)


def test_one_half_scale_and_no_neuberg() -> None:
    event = load("session_mitchell.csv")
    half = by_pair(score_event(event, "mp", ScoringOptions(scale="1/0.5")))
    assert [half[(2, "", p)][0] for p in "12345"] == [2.5, 2.5, 4, 1, 0]
    plain = score_event(event, "mp", ScoringOptions(neuberg=False))
    lines = by_pair(plain)
    # Without Neuberg the short board 4 keeps its own top of 6.
    assert [lines[(4, "", p)][0] for p in "1234"] == [1, 4, 6, 1]
    assert plain.travellers[3].top == 6


# ------------------------------------------------- two sections, fouled, short


def test_two_sections_across_the_field_with_a_fouled_and_a_short_board() -> None:
    scored = score_event(load("session_sections.csv"), "mp")
    lines = by_pair(scored)
    # Board 1: six results across both sections, top 10.
    assert [lines[(1, s, p)][0] for s in "AB" for p in "123"] == [5, 9, 5, 2, 9, 0]
    # Board 2 fouled: A1 A2 A3 B3 compared (620 650 140 620: mp2 3 6 0 3) and
    # B1 B2 (the fouled version: +110 -100: mp2 2 0), each Neuberg'd to 6.
    assert (
        [lines[(2, s, p)][0] for s, p in ("A1", "A2", "A3", "B3")]
        == [neuberg_tenths(m, 4, 6) for m in (3, 6, 0, 3)]
        == [5, 9.5, 0.5, 5]
    )
    assert (
        [lines[(2, "B", p)][0] for p in "12"] == [neuberg_tenths(m, 2, 6) for m in (2, 0)] == [8, 2]
    )
    # Board 3 short (5 results): -140 -140 +100 -110 -170 -> 3 3 8 6 0, factored to 6.
    assert (
        [lines[(3, s, p)][0] for s, p in ("A1", "A2", "A3", "B1", "B2")]
        == [neuberg_tenths(m, 5, 6) for m in (3, 3, 8, 6, 0)]
        == [3.8, 3.8, 9.8, 7.4, 0.2]
    )
    assert {t.top for t in scored.travellers} == {10}
    ns = {(s.section, s.name): (s.total, s.boards) for s in scored.standings if s.direction == "NS"}
    assert ns == {
        ("A", "1"): (13.8, 3), ("A", "2"): (22.3, 3), ("A", "3"): (15.3, 3),
        ("B", "1"): (17.4, 3), ("B", "2"): (11.2, 3), ("B", "3"): (5.0, 2),
    }  # fmt: skip
    b3 = next(s for s in scored.standings if (s.section, s.name) == ("B", "3"))
    assert b3.percent == 25.0 and b3.rank == "6"


def test_two_sections_scored_per_section() -> None:
    scored = score_event(load("session_sections.csv"), "mp", ScoringOptions(per_section=True))
    lines = by_pair(scored)
    # Section A alone, board 1: 420 450 420 -> 1 4 1 of top 4.
    assert [lines[(1, "A", p)][0] for p in "123"] == [1, 4, 1]
    assert {(t.board.number, t.section) for t in scored.travellers} >= {(1, "A"), (1, "B")}


# ----------------------------------------------------------------------- teams


def test_teams_match_in_imps_and_board_a_match() -> None:
    event = load("session_teams.csv", "teams")
    imps_score = score_event(event, "imps")
    # Nets for Lions: 420-170=250 (6), -400+430=30 (1), 130-120=10 (0), 0 (0).
    assert [(s.rank, s.name, s.total, s.boards) for s in imps_score.standings] == [
        ("1", "Lions", 7, 4), ("2", "Tigers", -7, 4),
    ]  # fmt: skip
    lines = by_pair(imps_score)
    assert lines[(1, "", "Lions")] == (6, -6) and lines[(1, "", "Tigers")] == (-6, 6)
    bam = score_event(event, "bam")
    # Boards: win, win, win by 10 (any margin wins), tie.
    assert [(s.name, s.total) for s in bam.standings] == [("Lions", 3.5), ("Tigers", 0.5)]


def test_teams_with_an_adjusted_table_and_a_missing_table() -> None:
    results = (
        TableResult.played(1, "A", "B", "4SN="),
        TableResult(1, "B", "A", adjusted=Adjusted.parse("A-")),  # B NS gets A-, A EW gets A+
        TableResult.played(2, "A", "B", "3NTS="),
    )
    scored = score_event(Event("t", "teams", results=results), "imps")
    assert [(s.name, s.total, s.boards) for s in scored.standings] == [("A", 3, 1), ("B", -3, 1)]
    assert any("board 2" in note for note in scored.notes)
    bam = score_event(Event("t", "teams", results=results), "bam")
    assert [(s.name, s.total) for s in bam.standings] == [("A", 0.6), ("B", 0.4)]


# ---------------------------------------------------------------- other cases


def test_howell_pairs_are_ranked_overall_and_ties_share_a_rank() -> None:
    results = (
        TableResult(1, "1", "2", score=420), TableResult(1, "3", "4", score=420),
        TableResult(2, "2", "3", score=100), TableResult(2, "4", "1", score=-100),
    )  # fmt: skip
    scored = score_event(Event("h", "pairs", results=results), "mp")
    assert {s.direction for s in scored.standings} == {""}
    ranks = {s.name: (s.rank, s.total) for s in scored.standings}
    # Board 1 tie: 1 MP each way; board 2: pairs 2 and 1 get 2, pairs 3 and 4 get 0.
    assert ranks == {"1": ("1=", 3), "2": ("1=", 3), "3": ("3=", 1), "4": ("3=", 1)}


def test_par_comparison_is_attached() -> None:
    results = (TableResult.played(1, "1", "2", "4SN="), TableResult.played(1, "3", "4", "6SN="))
    pars = {1: BoardPar(980, "NS +980: 6S= NS")}
    scored = score_event(Event("p", "pairs", results=results), "mp", pars=pars)
    traveller = scored.travellers[0]
    assert traveller.par == 980 and "6S" in traveller.par_text
    # 420 - 980 = -560: -11 IMPs; 980 - 980 = 0.
    assert sorted(line.imps_vs_par or 0 for line in traveller.lines) == [-11, 0]


@pytest.mark.parametrize(
    ("kind", "method", "message"),
    [
        ("teams", "mp", "teams event"),
        ("pairs", "imps", "pairs event"),
        ("pairs", "vp", "pairs event"),
        ("pairs", "swiss", "'swiss'"),
    ],
)
def test_method_must_fit_the_event(kind: str, method: str, message: str) -> None:
    event = Event("e", kind, results=(TableResult(1, "1", "2", score=0),))  # type: ignore[arg-type]
    with pytest.raises(ScoringMethodError, match=message):
        score_event(event, method)


def test_the_misfit_message_names_the_methods_that_fit() -> None:
    teams = Event("Cup", "teams", results=(TableResult(1, "A", "B", score=0),))
    with pytest.raises(BridgeError) as error:
        score_event(teams, "mp")
    assert str(error.value) == "Cup is a teams event: score it with imps, bam or vp"
    pairs = Event("", "pairs", results=(TableResult(1, "1", "2", score=0),))
    with pytest.raises(BridgeError) as error:
        score_event(pairs, "bam")
    assert str(error.value) == (
        "this event is a pairs event: score it with mp, butler, cross-imps or butler-vp "
        "(imps, bam and vp compare the two tables of a teams match)"
    )


def test_empty_event() -> None:
    with pytest.raises(RecordError, match="no results"):
        score_event(Event("e"), "mp")


def test_traveller_lines_are_made_on_first_use_and_read_like_a_tuple() -> None:
    # Scoring keeps the points in arrays; each traveller's lines are made when read.
    event = Event(
        "lazy",
        "pairs",
        results=(
            TableResult.played(1, "1", "2", "4SN="),
            TableResult.played(1, "3", "4", "4SN+1"),
            TableResult(1, "5", "6", adjusted=Adjusted.parse("A+")),
        ),
    )
    (traveller,) = score_event(event, "mp").travellers
    lines = traveller.lines
    assert len(lines) == 3
    assert [line.result.ns for line in lines] == ["3", "5", "1"]
    # Two real scores factored to a board of three (rules.md §4.3, 2/1 scale): 450 has
    # 2 MPs of 2, (2 + 1) * 3 / 2 - 1 = 3.5 of a top of 4; 420 has (0 + 1) * 3 / 2 - 1
    # = 0.5. A+ is 60 % of the top for NS, A- 40 % for EW.
    assert [(line.ns_score, line.ns, line.ew) for line in lines] == [
        (450, 3.5, 0.5),
        (None, 2.4, 1.6),
        (420, 0.5, 3.5),
    ]
    assert lines[0] is lines[0] and lines[-1].result.ns == "1"
    assert lines[1:] == tuple(lines)[1:]
    assert lines == tuple(lines) and hash(lines) == hash(tuple(lines))


def test_results_read_as_columns_score_as_one_by_one() -> None:
    # result_columns scores every contract in one array call; ns_score one at a time.
    from bridgescore.session.scoring.event import ns_scores, result_columns

    results = [
        TableResult.played(board, "1", "2", text)
        for board in range(1, 17)
        for text in ("4SN=", "3NTW-2", "6DXXE+1", "Pass", "7NTS-13", "1CXN+6")
    ] + [
        TableResult(3, "1", "2", score=-1430),
        TableResult(4, "1", "2", adjusted=Adjusted.parse("A")),
        TableResult.played(70, "1", "2", "2HE=", section="B", variant="x"),
    ]
    assert ns_scores(results) == [r.ns_score() for r in results]
    columns = result_columns(results)
    assert columns.boards.tolist() == [r.board for r in results]
    assert columns.real.tolist() == [r.adjusted is None for r in results]
    assert columns.named_sections and columns.named_variants
    assert not result_columns(results[:-1]).named_sections


def _match(board: int, home: str, away: str, open_room: str, closed_room: str) -> list[TableResult]:
    """One board of a teams match: home NS in the open room, away NS in the closed room."""
    return [
        TableResult.played(board, home, away, open_room),
        TableResult.played(board, away, home, closed_room),
    ]


def test_teams_scored_in_victory_points() -> None:
    # Round 1 (boards 1-3): A v B and C v D; round 2 (boards 4-6): A v C and B v D.
    # Board 1 (nobody vulnerable): 4S= 420 in one room, 4S-1 -50 in the other is a
    # 470 swing, 10 IMPs (Law 78B: 450-490); a flat board is 0 IMPs. Board 4 (Both):
    # 3NT= 600 against 3NT-1 -100 is 700, 12 IMPs; board 5 (nobody): 1NT+1 120 against
    # 2S= by EW, -110: 230, 6 IMPs.
    flat = ("3NTS=", "3NTS=")
    results = [
        *_match(1, "A", "B", "4SN=", "4SN-1"),  # A +10
        *_match(2, "A", "B", *flat),
        *_match(3, "A", "B", *flat),
        *_match(1, "C", "D", *flat),
        *_match(2, "C", "D", *flat),
        *_match(3, "C", "D", *flat),
        *_match(4, "A", "C", "3NTS=", "3NTS-1"),  # A +12
        *_match(5, "A", "C", "1NTN+1", "2SE="),  # A: 120 in one room, +110 in the other: +6
        *_match(6, "A", "C", *flat),
        *_match(4, "B", "D", *flat),
        *_match(5, "B", "D", *flat),
        *_match(6, "D", "B", "4SN=", "4SN-1"),  # D +10 (board 6: EW vulnerable, 420 v -50)
    ]
    event = Event("Swiss", "teams", results=tuple(results))
    scored = score_event(event, "vp")
    vp = {s.name: s.total for s in scored.standings}
    won_10, won_18 = bs.victory_points(10, boards=3), bs.victory_points(18, boards=3)
    assert vp == {
        "A": round(won_10 + won_18, 2),
        "B": round(20 - won_10 + 20 - won_10, 2),
        "C": round(10.0 + 20 - won_18, 2),
        "D": round(10.0 + won_10, 2),
    }
    assert [s.name for s in scored.standings] == ["A", "D", "C", "B"]
    assert all(s.boards == 6 for s in scored.standings)
    # The boards still show IMPs, and the IMP method ranks by the same IMPs.
    assert scored.ranking_unit == "VP" and scored.unit == "IMP"
    imps = {s.name: s.total for s in score_event(event, "imps").standings}
    assert imps == {"A": 28.0, "B": -20.0, "C": -18.0, "D": 10.0}
    first = {line.result.ns: line.ns for line in scored.travellers[0].lines}
    assert first == {"A": 10.0, "B": -10.0, "C": 0.0, "D": 0.0}
