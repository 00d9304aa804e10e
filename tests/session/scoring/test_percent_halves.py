"""Ranking and traveller percentages round exact halves away from zero (docs/sessions.md),
worked from the exact matchpoints, never from a float that a division rounded to even."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.session.reports.text import as_dict, ranking_csv, ranking_text, travellers_csv
from bridgescore.session.scoring.event import Event, TableResult
from bridgescore.session.scoring.methods import ScoringOptions
from bridgescore.session.scoring.scorer import score_event
from bridgescore.session.store.events import EventStore, Origin

# Eight boards, three tables each: NS pairs 1, 3, 5 against EW pairs 2, 4, 6. On the 2/1
# scale a board's top is 4 (2 per pair beaten, 1 per tie). 3S= < 4S= < 4S+1 at any
# vulnerability.
#   board 1:     1 4S+1 -> 4,  3 4S=  -> 2,  5 3S=  -> 0
#   board 2:     1 4S=  -> 1,  3 4S=  -> 1,  5 4S+1 -> 4   (1 and 3 tie)
#   boards 3-8:  1 3S=  -> 0,  3 4S=  -> 2,  5 4S+1 -> 4
BOARDS = {1: ("4SN+1", "4SN=", "3SN="), 2: ("4SN=", "4SN=", "4SN+1")}
BOARDS.update({board: ("3SN=", "4SN=", "4SN+1") for board in range(3, 9)})
TOP_SUM = 8 * 4
NS_TOTALS = {"1": 4 + 1 + 0 * 6, "3": 2 + 1 + 2 * 6, "5": 0 + 4 + 4 * 6}
EW_TOTALS = {
    "2": TOP_SUM - NS_TOTALS["1"],
    "4": TOP_SUM - NS_TOTALS["3"],
    "6": TOP_SUM - NS_TOTALS["5"],
}


def half_away(value: Fraction) -> str:
    """An independent rounding to 0.01: add half a hundredth to the (positive) exact value."""
    hundredths = int(value * 100 + Fraction(1, 2))
    return f"{hundredths // 100}.{hundredths % 100:02d}"


def results() -> tuple[TableResult, ...]:
    pairs = (("1", "2"), ("3", "4"), ("5", "6"))
    return tuple(
        TableResult.played(board, ns, ew, played)
        for board, row in BOARDS.items()
        for (ns, ew), played in zip(pairs, row, strict=True)
    )


def test_the_worked_percentages_are_exact_halves() -> None:
    # Pair 1: 5 of 32 = 15.625 %; pair 4: 17 of 32 = 53.125 %. Both halves, both rounded
    # down by round() (binary halves go to the even digit).
    assert Fraction(100 * NS_TOTALS["1"], TOP_SUM) == Fraction(15625, 1000)
    assert Fraction(100 * EW_TOTALS["4"], TOP_SUM) == Fraction(53125, 1000)
    assert half_away(Fraction(15625, 1000)) == "15.63"
    assert half_away(Fraction(53125, 1000)) == "53.13"
    assert round(15.625, 2) == 15.62 and round(53.125, 2) == 53.12  # what was printed


def test_ranking_percentages_round_halves_away_from_zero() -> None:
    scored = score_event(Event("Halves", "pairs", results=results()), "mp")
    got = {s.name: (s.total, s.percent) for s in scored.standings}
    for pair, total in {**NS_TOTALS, **EW_TOTALS}.items():
        assert got[pair][0] == total
        assert f"{got[pair][1]:.2f}" == half_away(Fraction(100 * total, TOP_SUM))
    assert got["1"][1] == 15.63 and got["4"][1] == 53.13
    text = ranking_text(scored)
    assert any(line.split()[1:] == ["1", "8", "5", "15.63"] for line in text.splitlines())
    assert any(line.split()[1:] == ["4", "8", "17", "53.13"] for line in text.splitlines())
    rows = {line.split(",")[3]: line.split(",") for line in ranking_csv(scored).splitlines()}
    assert rows["1"][6] == "15.63" and rows["4"][6] == "53.13"
    ranking = {row["name"]: row["percent"] for row in as_dict(scored)["ranking"]}
    assert ranking["1"] == 15.63 and ranking["4"] == 53.13


def test_equal_exact_shares_tie() -> None:
    # Pairs 1 and 3 are level on board 2 alone: 1 MP of 4 each, 25 %, ranked 1= (NS).
    tied = tuple(r for r in results() if r.board == 2)
    scored = score_event(Event("", "pairs", results=tied), "mp")
    ns = [(s.rank, s.name, s.percent) for s in scored.standings if s.direction == "NS"]
    assert ns == [("1", "5", 100.0), ("2=", "1", 25.0), ("2=", "3", 25.0)]


def test_traveller_percentages_round_halves_away_from_zero() -> None:
    # One board, 17 tables, 1/0.5 scale: a top of 16. Two pairs tie at the bottom and get
    # 0.5 MP each: 0.5 / 16 = 3.125 % -> 3.13; their opponents 15.5 / 16 = 96.875 % -> 96.88.
    played = [TableResult.played(1, f"N{i}", f"E{i}", "4SN=") for i in range(15)]
    played += [
        TableResult.played(1, "N15", "E15", "3SN="),
        TableResult.played(1, "N16", "E16", "3SN="),
    ]
    scored = score_event(
        Event("", "pairs", results=tuple(played)), "mp", ScoringOptions(scale="1/0.5")
    )
    (traveller,) = scored.travellers
    assert traveller.top == 16
    bottom = [line for line in traveller.lines if line.result.ns in ("N15", "N16")]
    assert [(line.ns, line.ns_percent, line.ew_percent) for line in bottom] == [
        (0.5, 3.13, 96.88),
        (0.5, 3.13, 96.88),
    ]
    csv_rows = [row.split(",") for row in travellers_csv(scored).splitlines()[1:]]
    assert sorted(row[8] for row in csv_rows if row[2] in ("N15", "N16")) == ["3.13", "3.13"]


def test_session_score_prints_the_half_rounded_away(tmp_path: Path) -> None:
    event = tmp_path / "halves.db"
    with EventStore(event) as store:
        store.add_results([(result, Origin()) for result in results()])
    outcome = CliRunner().invoke(app, ["session", "score", str(event)])
    assert outcome.exit_code == 0, outcome.stderr
    lines = outcome.stdout.splitlines()
    assert lines[0] == "halves - matchpoints"
    assert any(line.split()[1:] == ["1", "8", "5", "15.63"] for line in lines)
    assert any(line.split()[1:] == ["4", "8", "17", "53.13"] for line in lines)
