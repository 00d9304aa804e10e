"""Reports: text tables, JSON-ready dicts and CSV."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

from bridgescore.session.importers.csv import parse_csv
from bridgescore.session.reports.text import (
    as_dict,
    ranking_csv,
    ranking_text,
    travellers_csv,
    travellers_text,
)
from bridgescore.session.scoring.display import fmt
from bridgescore.session.scoring.event import Event
from bridgescore.session.scoring.scored import BoardPar, SessionScore
from bridgescore.session.scoring.scorer import score_event

DATA = Path(__file__).parents[2] / "data"


def mitchell(method: str = "mp") -> SessionScore:
    parsed = parse_csv((DATA / "session_mitchell.csv").read_text().splitlines())
    event = Event("Club night", "pairs", results=tuple(r for r, _ in parsed.results))
    pars = {2: BoardPar(620, "NS +620: 4S= NS")}
    return score_event(event, method, pars=pars)  # type: ignore[arg-type]


def test_fmt() -> None:
    assert [fmt(5.0), fmt(6.25), fmt(-0.0), fmt(None)] == ["5", "6.25", "0", ""]
    assert [fmt(4, signed=True), fmt(-3, signed=True), fmt(0, signed=True)] == ["+4", "-3", "0"]


def test_ranking_text() -> None:
    text = ranking_text(mitchell())
    lines = text.splitlines()
    assert lines[0] == "Club night - matchpoints"
    assert "North-South" in lines and "East-West" in lines
    first_ns = lines[lines.index("North-South") + 3].split()
    assert first_ns == ["1", "3", "4", "24.6", "76.88"]  # 24.6 of 32


def test_travellers_text_shows_scores_points_and_par() -> None:
    text = travellers_text(mitchell())
    board2 = text.split("\n\n")[1].splitlines()
    assert board2[0] == "Board 2  Dealer East  Vul NS  top 8  par NS +620: 4S= NS"
    assert board2[3].split() == ["3", "8", "4SN+1", "+650", "8", "0", "+1"]  # 30 over par
    assert "A+/A-" in text
    butler = travellers_text(mitchell("butler"))
    assert "datum +470" in butler


def test_json_dict() -> None:
    data = json.loads(json.dumps(as_dict(mitchell())))
    assert data["method"] == "mp" and data["unit"] == "MP"
    assert data["options"]["scale"] == "2/1" and data["options"]["neuberg"] is True
    board2 = data["travellers"][1]
    assert (board2["board"], board2["dealer"], board2["vulnerability"]) == (2, "E", "NS")
    assert board2["par"] == 620
    assert [r["ns_points"] for r in board2["results"]] == [8, 5, 5, 2, 0]
    assert data["ranking"][0] == {
        "rank": "1", "name": "3", "section": "", "direction": "NS", "total": 24.6,
        "boards": 4, "percent": 76.88, "average": 6.15,
    }  # fmt: skip


def test_json_dict_without_travellers_is_the_ranking_document() -> None:
    ranking = json.loads(json.dumps(as_dict(mitchell(), travellers=False)))
    # The keys session score --json prints, in order, and the same ranking.
    assert list(ranking) == [
        "event", "kind", "method", "unit", "ranking_unit", "options", "ranking", "notes"
    ]  # fmt: skip
    assert ranking["ranking"][0]["name"] == "3" and ranking["ranking"][0]["total"] == 24.6


def test_csv_outputs() -> None:
    scored = mitchell()
    ranking = list(csv.DictReader(io.StringIO(ranking_csv(scored))))
    assert len(ranking) == 10 and ranking[0]["name"] == "3" and ranking[0]["total"] == "24.6"
    lines = list(csv.DictReader(io.StringIO(travellers_csv(scored))))
    assert len(lines) == 19
    first = lines[0]
    assert (first["board"], first["ns"], first["result"], first["ns_score"]) == (
        "1",
        "1",
        "3NTN+1",
        "430",
    )


def test_ranking_tables_are_the_one_ranking_of_text_and_html() -> None:
    """One board, two tables: NS 3 makes 4S+1 (+450) where NS 1 makes 4S= (+420), so on
    the 2/1 scale with a top of 2, NS 3 and EW 2 score the top (100 %), NS 1 and EW 4
    nothing. The text report and the notebook's HTML print these very tables."""
    from bridgescore.session.reports.text import ranking_text
    from bridgescore.session.scoring.display import RankingTable, ranking_html, ranking_tables
    from bridgescore.session.scoring.event import Event, TableResult
    from bridgescore.session.scoring.scorer import score_event

    results = (TableResult.played(1, "1", "2", "4SN="), TableResult.played(1, "3", "4", "4SN+1"))
    scored = score_event(Event("Club", "pairs", results=results), "mp")
    headers = ("Rank", "Pair", "Boards", "Total MP", "%")
    numeric = frozenset({2, 3, 4})
    assert ranking_tables(scored) == [
        RankingTable(
            "North-South",
            headers,
            (("1", "3", "1", "2", "100"), ("2", "1", "1", "0", "0")),
            numeric,
        ),
        RankingTable(
            "East-West", headers, (("1", "2", "1", "2", "100"), ("2", "4", "1", "0", "0")), numeric
        ),
    ]
    assert ranking_text(scored).splitlines()[2:7] == [
        "North-South",
        "Rank  Pair  Boards  Total MP    %",
        "----  ----  ------  --------  ---",
        "1     3          1         2  100",
        "2     1          1         0    0",
    ]
    html = str(ranking_html(scored))
    assert html.count("<table") == 2
    assert "North-South" in html and "East-West" in html


def test_every_number_in_the_json_is_the_figure_the_report_shows() -> None:
    """Board 1: four results, top 6 (2/1 scale): +450 6, +420 twice 3 each, -50 0.
    Board 2: three results (pair 4 sat out), scored on a top of 4 and Neuberg'd to four
    results, (MP + 1) * 4 / 3 - 1, rounded to 0.1 (docs/sessions.md): +140 4 -> 17/3 =
    5.7, +110 2 -> 3, +100 0 -> 1/3 = 0.3; each EW pair the rest of the top of 6.
    Pair 2 (NS): 6 + 5.7 = 11.7 of 12 (97.5 %, 5.85 a board); pair 3: 0 + 0.3 = 0.3
    (2.5 %, 0.15); EW pair 6 (against pair 2): 0 + (6 - 5.7) = 0.3, not 0.2999999999999998."""
    from fractions import Fraction

    from bridgescore.compare.scalar import round_half_away
    from bridgescore.session.reports.text import as_dict
    from bridgescore.session.scoring.event import Event, TableResult
    from bridgescore.session.scoring.scorer import score_event

    played = [
        (1, "1", "5", "4SN="), (1, "2", "6", "4SN+1"), (1, "3", "7", "4SN-1"),
        (1, "4", "8", "4SN="), (2, "1", "5", "2HN="), (2, "2", "6", "2HN+1"),
        (2, "3", "7", "1NTN="),
    ]  # fmt: skip
    scored = score_event(
        Event("Club", "pairs", results=tuple(TableResult.played(*p) for p in played)), "mp"
    )
    document = as_dict(scored)
    neuberg = round_half_away((Fraction(4) + 1) * 4 / 3 - 1, 1)  # 5.7
    low = round_half_away((Fraction(0) + 1) * 4 / 3 - 1, 1)  # 0.3
    assert (neuberg, low) == (5.7, 0.3)
    board_2 = next(t for t in document["travellers"] if t["board"] == 2)
    points = {(line["ns"], line["ew"]): (line["ns_points"], line["ew_points"])
              for line in board_2["results"]}  # fmt: skip
    assert points == {("2", "6"): (5.7, 0.3), ("1", "5"): (3.0, 3.0), ("3", "7"): (0.3, 5.7)}
    percents = {line["ns"]: (line["ns_percent"], line["ew_percent"]) for line in board_2["results"]}
    assert percents == {"2": (95.0, 5.0), "1": (50.0, 50.0), "3": (5.0, 95.0)}
    ranking = {
        line["name"]: (line["total"], line["percent"], line["average"])
        for line in document["ranking"]
    }
    assert ranking == {
        "2": (11.7, 97.5, 5.85), "1": (6.0, 50.0, 3.0), "4": (3.0, 50.0, 3.0),
        "3": (0.3, 2.5, 0.15), "7": (11.7, 97.5, 5.85), "5": (6.0, 50.0, 3.0),
        "8": (3.0, 50.0, 3.0), "6": (0.3, 2.5, 0.15),
    }  # fmt: skip
    # Written out, every number has at most the report's two decimals.
    text = json.dumps(document)
    assert "0.2999" not in text and "11.700" not in text
    decimals = [len(n.partition(".")[2]) for n in re.findall(r"(?<![\w.])-?\d+\.\d+", text)]
    assert decimals and max(decimals) <= 2
    # The text ranking shows the very figures: EW pair 6, 0.3 MP, 2.5 %.
    assert ranking_text(scored).splitlines()[-1].split() == ["4", "6", "2", "0.3", "2.5"]
