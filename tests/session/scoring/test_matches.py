"""Teams round robins in victory points: each match's IMPs and WBF VPs, the ranking's
unit and matches, from ``session new --movement teams`` to ``session score --json``.

The VPs are the WBF continuous scale's published values (WBF General Conditions of
Contest, 2013 scale): 8 boards, margin 1 -> 10.44, 5 -> 12.05, 40 -> 19.74, 0 -> 10;
10 boards, margin 10 -> 13.43. The loser gets 20 minus the winner's VPs.
IMPs from score differences (Law 78B): 30 -> 1, 190 -> 5, 470 -> 10.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.movement.teams import round_robin
from bridgescore.notation import Result
from bridgescore.session.live.entry import ResultEntry
from bridgescore.session.live.event import LiveEvent
from bridgescore.session.scoring.event import Event, TableResult
from bridgescore.session.scoring.scorer import score_event

runner = CliRunner()


def match(
    first_board: int, boards: int, home: str, away: str, swings: dict[int, tuple[int, int]]
) -> list[TableResult]:
    """A match's two tables on each board: ``home`` NS at the first. ``swings`` gives a
    board's NS scores at the two tables; every other board is +400 at both (a push)."""
    results = []
    for board in range(first_board, first_board + boards):
        here, there = swings.get(board, (400, 400))
        results.append(TableResult(board, home, away, score=here))
        results.append(TableResult(board, away, home, score=there))
    return results


def test_a_four_team_round_robin_in_vps() -> None:
    results = [
        # Round 1, boards 1-8: 1 beats 4 by 1 IMP (430 v 400 at the other table: 30);
        # 2 beats 3 by 5 (+140 here, -50 there: 190).
        *match(1, 8, "1", "4", {1: (430, 400)}),
        *match(1, 8, "2", "3", {3: (140, -50)}),
        # Round 2, boards 9-16: 1 beats 3 by 40 (four boards of +420 v -50: 470, 10 each);
        # 2 and 4 push every board (0 IMPs, 10 VPs each).
        *match(9, 8, "1", "3", {b: (420, -50) for b in (9, 10, 11, 12)}),
        *match(9, 8, "2", "4", {}),
    ]
    scored = score_event(Event("RR", "teams", results=tuple(results)), "vp")
    assert scored.ranking_unit == "VP"
    found = {(m.home, m.away): (m.boards, m.home_imps, m.away_imps, m.home_vp, m.away_vp)
             for m in scored.matches}  # fmt: skip
    assert found == {
        ("1", "4"): (8, 1, 0, 10.44, 9.56),
        ("2", "3"): (8, 5, 0, 12.05, 7.95),
        ("1", "3"): (8, 40, 0, 19.74, 0.26),
        ("2", "4"): (8, 0, 0, 10.0, 10.0),
    }
    totals = {s.name: s.total for s in scored.standings}
    assert totals == {
        "1": pytest.approx(10.44 + 19.74),
        "2": pytest.approx(12.05 + 10.0),
        "4": pytest.approx(9.56 + 10.0),
        "3": pytest.approx(7.95 + 0.26),
    }
    assert [s.name for s in scored.standings] == ["1", "2", "4", "3"]


def test_each_team_gets_the_imps_it_won() -> None:
    # 10 boards: 1 wins board 1 by 10 IMPs (470) and loses board 2 by 5 (190 the other
    # way) and wins board 3 by 5: 15 - 5, margin 10 -> 13.43 and 6.57.
    results = match(1, 10, "1", "2", {1: (420, -50), 2: (-50, 140), 3: (140, -50)})
    (scored,) = score_event(Event("RR", "teams", results=tuple(results)), "vp").matches
    assert (scored.home_imps, scored.away_imps) == (15, 5)
    assert (scored.home_vp, scored.away_vp) == (13.43, 6.57)


def test_imps_on_request_has_no_matches() -> None:
    results = match(1, 8, "1", "2", {1: (430, 400)})
    scored = score_event(Event("RR", "teams", results=tuple(results)), "imps")
    assert scored.matches == () and scored.ranking_unit == "IMP"


# --------------------------------------------------- session new to session score


def new_round_robin(tmp_path: Path) -> Path:
    path = tmp_path / "rr.db"
    made = runner.invoke(
        app,
        ["session", "new", str(path), "--movement", "teams", "--teams", "3",
         "--boards-per-round", "8", "--json"],
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    return path


def test_session_new_makes_a_round_robin_scored_in_vps(tmp_path: Path) -> None:
    path = new_round_robin(tmp_path)
    movement = round_robin(3, boards_per_round=8)
    with LiveEvent(path) as live:
        assert live.movement.rows == movement.rows
        for row in movement.rows:
            for board in row.boards:
                # Board 1 (none vul): 3NT+1 (+430) at the open room, 3NT= (+400) at the
                # closed: the open room's NS team wins 30, 1 IMP. Board 9 (EW vul, NS not):
                # 2S+1 (+140) v 4S-1 (-50): 190, 5 IMPs. Every other board passed out.
                open_room = row.table % 2 == 1
                if board == 1:
                    entry = ResultEntry(
                        row.round, board, Result.parse("3NTN+1" if open_room else "3NTN=")
                    )
                elif board == 9:
                    entry = ResultEntry(
                        row.round, board, Result.parse("2SN+1" if open_room else "4SN-1")
                    )
                else:
                    entry = ResultEntry(row.round, board, Result(None))
                live.enter_result("A", row.table, entry, who=f"table {row.table}")
        ranking = live.ranking().as_dict()
    winners = {r: next(x for x in movement.rows if x.round == r and x.table == 1).ns
                for r in (1, 2, 3)}  # fmt: skip
    answer = runner.invoke(app, ["session", "score", str(path), "--json"])
    assert answer.exit_code == 0, answer.output
    data = json.loads(answer.output)
    assert data["method"] == "vp" and data["ranking_unit"] == "VP"
    assert data["matches"] == ranking["matches"]  # live and offline alike
    by_round = {m["round"]: m for m in data["matches"]}
    assert sorted(by_round) == [1, 2, 3]
    published = {1: (1, 10.44), 2: (5, 12.05), 3: (0, 10.0)}
    for number, (margin, vp) in published.items():
        m = by_round[number]
        assert m["boards"] == 8
        won = m["teams"].index(winners[number])
        assert (m["imps"][won] - m["imps"][1 - won], m["vp"][won]) == (margin, vp)
        assert m["vp"][1 - won] == round(20 - vp, 2)
    # --method imps still ranks by IMPs, without matches.
    imps = json.loads(runner.invoke(app, ["session", "score", str(path), "--json",
                                          "--method", "imps"]).output)  # fmt: skip
    assert imps["ranking_unit"] == "IMP" and "matches" not in imps
    # The text ranking has no per-board column in VPs.
    text = runner.invoke(app, ["session", "score", str(path)]).output
    assert "Total VP" in text and "Per board" not in text


def test_session_new_teams_needs_its_options(tmp_path: Path) -> None:
    answer = runner.invoke(
        app, ["session", "new", str(tmp_path / "x.db"), "--movement", "teams",
              "--boards-per-round", "8"],
    )  # fmt: skip
    assert answer.exit_code == 2 and "needs --teams" in answer.output
    partial = runner.invoke(
        app, ["session", "new", str(tmp_path / "y.db"), "--movement", "teams", "--teams", "6",
              "--boards-per-round", "4", "--rounds", "2", "--json"],
    )  # fmt: skip
    assert partial.exit_code == 0, partial.output
    with LiveEvent(tmp_path / "y.db") as live:
        # 6 teams: 3 matches a round, two tables each; 2 of the 5 rounds.
        assert live.movement.rounds == 2 and live.movement.tables == 6
        assert len(live.movement.rows) == 12


def test_no_per_board_column_in_vps_anywhere() -> None:
    from bridgescore.session.reports.html import html_report
    from bridgescore.session.scoring.display import ranking_tables

    results = match(1, 8, "1", "2", {1: (430, 400)})
    event = Event("RR", "teams", results=tuple(results))
    in_vps, in_imps = score_event(event, "vp"), score_event(event, "imps")
    (table,) = ranking_tables(in_vps)
    assert table.headers == ("Rank", "Team", "Boards", "Total VP")
    assert table.rows == (("1", "1", "8", "10.44"), ("2", "2", "8", "9.56"))
    assert "Per board" not in html_report(in_vps) and "Total VP" in html_report(in_vps)
    (table,) = ranking_tables(in_imps)
    assert table.headers[-2:] == ("Total IMP", "Per board")
    assert "Per board" in html_report(in_imps)


def test_the_reports_list_the_matches() -> None:
    from bridgescore.session.reports.html import html_report
    from bridgescore.session.reports.text import ranking_text

    results = match(1, 8, "1", "2", {1: (430, 400)})
    scored = score_event(Event("RR", "teams", results=tuple(results)), "vp")
    text = ranking_text(scored).splitlines()
    # Round unknown (no movement), no section: 1 beat 2 by 1 IMP, 10.44 to 9.56 VPs.
    assert text[text.index("Matches") + 3].split() == ["1", "v", "2", "1-0", "10.44-9.56"]
    assert "<td>1 v 2</td>" in html_report(scored) and "10.44-9.56" in html_report(scored)
    assert "Matches" not in ranking_text(
        score_event(Event("RR", "teams", results=tuple(results)), "imps")
    )
