"""The field's opening leads and what each cost double dummy (issue 45, the club night).

Every cost is checked against DDS solved through endplay directly
(tests/dds_reference.py): declarer's tricks after the lead less declarer's tricks
after the best lead.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import bridgescore as bs
from bridgescore.board import Board
from bridgescore.cli.app import app
from bridgescore.core import Contract, Seat, Strain
from bridgescore.deal import Card, Deal
from bridgescore.session.leads import field_leads, lead_cost, lead_costs
from bridgescore.session.reports.site import results_site
from bridgescore.session.scoring.event import Event, TableResult
from bridgescore.session.scoring.scorer import score_event
from bridgescore.session.store.events import EventStore, Origin
from dds_reference import tricks_after_each_lead

runner = CliRunner()

# 4S by North, East on lead: the SK (or S3) gives declarer a tenth trick; every
# other card holds declarer to nine (endplay, in the test below).
DEAL = Deal.from_pbn("N:AQJ964.K52.A4.83 K3.QJ94.QJ62.KT5 T82.A86.T983.A92 75.T73.K75.QJ764")


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(
    ("contract", "declarer"), [("4S", Seat.NORTH), ("3NT", Seat.SOUTH), ("2H", Seat.WEST)]
)
def test_each_lead_costs_what_dds_says(seed: int, contract: str, declarer: Seat) -> None:
    (deal,) = bs.deal_many(1, seed=seed)
    played = Contract.parse(contract)
    played = Contract(played.level, played.strain, declarer=declarer)
    after = tricks_after_each_lead(deal.to_pbn(), played.strain, declarer)
    best = min(after.values())
    cards = [Card.parse(card) for card in after]
    costs = lead_costs([(deal, played, card) for card in cards])
    for card, cost in zip(cards, costs, strict=True):
        assert (cost.after, cost.dd, cost.cost) == (after[str(card)], best, after[str(card)] - best)
        assert cost.leader == declarer.rotate(1)


def test_the_costs_of_the_example_deal_and_their_words() -> None:
    after = tricks_after_each_lead(DEAL.to_pbn(), Strain.SPADES, Seat.NORTH)
    assert (after["SK"], after["HQ"], min(after.values())) == (10, 9, 9)
    four = Contract(4, Strain.SPADES, declarer=Seat.NORTH)
    king = lead_cost(DEAL, four, Card.parse("SK"))
    queen = lead_cost(DEAL, four, Card.parse("HQ"))
    assert (king.cost, queen.cost) == (1, 0)
    assert king.words() == (
        "SK against 4S by North: cost 1 trick double dummy (declarer 10 tricks after it, "
        "9 after the best lead)"
    )
    assert queen.words().startswith("HQ against 4S by North: cost nothing double dummy")


def test_a_card_the_leader_does_not_hold_has_no_cost() -> None:
    four = Contract(4, Strain.SPADES, declarer=Seat.NORTH)
    (cost,) = lead_costs([(DEAL, four, Card.parse("SA"))])  # North's own ace
    assert (cost.after, cost.cost, cost.dd) == (None, None, 9)
    assert "SA is not in East's hand on the hand record" in cost.words()


def _results() -> tuple[list[TableResult], dict[tuple[str, int, str, str], str]]:
    """Board 1 at four tables: 4S by North three times (led SK, SK, HQ), 3NT by South
    once (led by West, CQ), and board 2 (no deal) with one lead."""
    results = [
        TableResult.played(1, "1", "11", "4SN+1"),
        TableResult.played(1, "2", "12", "4SN+1"),
        TableResult.played(1, "3", "13", "4SN="),
        TableResult.played(1, "4", "14", "3NTS="),
        TableResult.played(2, "1", "11", "2HS="),
        TableResult.played(2, "2", "12", "2HS="),
    ]
    cards = ["SK", "SK", "HQ", "CQ", "DA", None]
    leads = {r.key: card for r, card in zip(results, cards, strict=True) if card}
    return results, leads


def test_the_field_leads_are_counted_and_costed() -> None:
    results, leads = _results()
    scored = score_event(Event("Club", "pairs", results=tuple(results)), "mp")
    boards = {1: Board(1, DEAL)}
    found = field_leads(scored.travellers, leads, boards)
    nt_after = tricks_after_each_lead(DEAL.to_pbn(), Strain.NOTRUMP, Seat.SOUTH)
    rows = [
        (str(lead.contract), str(lead.card), lead.tables, lead.cost and lead.cost.cost)
        for lead in found[("", 1)]
    ]
    assert rows == [
        ("4SN", "SK", 2, 1),  # most often first
        ("3NTS", "CQ", 1, nt_after["CQ"] - min(nt_after.values())),
        ("4SN", "HQ", 1, 0),
    ]
    # Board 2 has no deal: its lead is counted, its cost unknown.
    ((lead,),) = [found[("", 2)]]
    assert (str(lead.card), lead.tables, lead.cost) == ("DA", 1, None)
    assert lead.as_dict() == {
        "board": 2, "section": "", "contract": "2H", "declarer": "S", "lead": "DA",
        "tables": 1, "cost": None,
    }  # fmt: skip
    unsolved = field_leads(scored.travellers, leads, boards, solve=False)
    assert [(lead.tables, lead.cost) for lead in unsolved[("", 1)]] == [
        (2, None), (1, None), (1, None),
    ]  # fmt: skip


def _cells(page: str, heading: str) -> list[list[str]]:
    """The rows of the table after ``heading`` on a page, as cell texts."""
    part = page.split(heading, 1)[1].split("</table>", 1)[0]
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", part, re.S)
        if "<td" in row
    ]


def test_the_results_site_shows_the_field_leads_on_the_board_page() -> None:
    results, leads = _results()
    scored = score_event(Event("Club", "pairs", results=tuple(results)), "mp")
    boards = {1: Board(1, DEAL)}
    pages = results_site(scored, boards, field_leads(scored.travellers, leads, boards))
    nt_after = tricks_after_each_lead(DEAL.to_pbn(), Strain.NOTRUMP, Seat.SOUTH)
    nt_cost = nt_after["CQ"] - min(nt_after.values())
    assert _cells(pages["board-1.html"], 'id="leads"') == [
        ["4S N", "SK", "2", "1 trick"],
        ["3NT S", "CQ", "1", f"{nt_cost} trick{'s' * (nt_cost != 1)}" if nt_cost else "0"],
        ["4S N", "HQ", "1", "0"],
    ]
    assert _cells(pages["board-2.html"], 'id="leads"') == [["2H S", "DA", "1", ""]]
    # Without leads the page has no such section.
    assert 'id="leads"' not in results_site(scored, boards)["board-1.html"]


def test_session_report_site_solves_the_leads_of_the_event_file(tmp_path: Path) -> None:
    results, leads = _results()
    path = tmp_path / "club.db"
    with EventStore(path) as store:
        store.add(
            [(Board(1, DEAL), Origin("hands.pbn", 1))],
            [(result, Origin("results", n)) for n, result in enumerate(results, 1)],
            leads={key: Card.parse(card) for key, card in leads.items()},
        )
        assert store.leads() == leads
    site = tmp_path / "site"
    answer = runner.invoke(app, ["session", "report", str(path), "--html", str(site)])
    assert answer.exit_code == 0, answer.output
    page = (site / "board-1.html").read_text(encoding="utf-8")
    assert _cells(page, 'id="leads"')[0] == ["4S N", "SK", "2", "1 trick"]


def test_a_contract_without_its_declarer_is_refused() -> None:
    with pytest.raises(ValueError, match="4S: a lead's cost needs the contract's declarer"):
        lead_costs([(DEAL, Contract.parse("4S"), Card.parse("HQ"))])


def test_analyse_of_an_event_costs_the_leads_the_tables_entered(tmp_path: Path) -> None:
    # No play kept, but leads entered: the review's lead is the table's, costed as DDS
    # says; a lead the leader did not hold is left out (the phone said so that night, and
    # analyse says so again).
    import json

    results, leads = _results()
    path = tmp_path / "club.db"
    with EventStore(path) as store:
        store.add(
            [(Board(1, DEAL), Origin("hands.pbn", 1))],
            [(result, Origin("results", n)) for n, result in enumerate(results[:4], 1)],
            leads={key: Card.parse(card) for key, card in leads.items()}
            | {
                results[2].key: Card.parse("SA")  # North's card, not East's
            },
        )
    answer = runner.invoke(app, ["analyse", str(path), "--json"])
    assert answer.exit_code == 0, answer.output
    boards = json.loads(answer.stdout)
    after = tricks_after_each_lead(DEAL.to_pbn(), Strain.SPADES, Seat.NORTH)
    nt_after = tricks_after_each_lead(DEAL.to_pbn(), Strain.NOTRUMP, Seat.SOUTH)
    got = [(b["contract"], b["lead"]["card"], b["lead"]["cost"]) for b in boards]
    assert got == [
        ("4S", "SK", after["SK"] - min(after.values())),
        ("4S", "SK", after["SK"] - min(after.values())),
        ("4S", None, None),
        ("3NT", "CQ", nt_after["CQ"] - min(nt_after.values())),
    ]
    assert [card["card"] for card in boards[0]["play"]] == ["SK"]
    assert "board 1: its play is left out: Play: East to play: SA is illegal" in answer.stderr


def test_analyse_of_an_event_without_its_deals_says_what_to_import(tmp_path: Path) -> None:
    # Results, as a Bridgemate file gives them, but no hand record: nothing to review.
    results, _ = _results()
    path = tmp_path / "club.db"
    with EventStore(path) as store:
        store.add(
            [(Board(1), Origin("results", 0))],
            [(result, Origin("results", n)) for n, result in enumerate(results[:2], 1)],
        )
    answer = runner.invoke(app, ["analyse", str(path)])
    assert answer.exit_code == 1
    assert "holds no played result of a board with its deal" in answer.stderr
    assert f"bridgescore session import {path} HANDS.pbn" in answer.stderr


def test_a_lead_table_is_solved_once_for_a_night(monkeypatch: pytest.MonkeyPatch) -> None:
    # The phones ask after every entry and every phone opens the site at the close: the
    # same deal, strain and declarer are solved once (the real DDS, counted).
    import bridgescore.solver as solver

    solved: list[int] = []
    real = solver.lead_tricks

    def counted(deals: object, *args: object, **kwargs: object) -> object:
        solved.append(len(deals))  # type: ignore[arg-type]
        return real(deals, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(solver, "lead_tricks", counted)
    deals = bs.deal_many(3, seed=4545)
    four = Contract(4, Strain.HEARTS, declarer=Seat.SOUTH)
    first = lead_costs([(deal, four, Card.parse("SA")) for deal in deals])
    assert solved == [3]
    again = lead_costs([(deals[1], four, Card.parse("SA")), (deals[2], four, Card.parse("CA"))])
    assert solved == [3] and again[0] == first[1]
    after = tricks_after_each_lead(deals[2].to_pbn(), Strain.HEARTS, Seat.SOUTH)
    assert again[1].after == after.get("CA")  # None where West has not the ace
    lead_cost(deals[0], Contract(3, Strain.NOTRUMP, declarer=Seat.SOUTH), Card.parse("SA"))
    assert solved == [3, 1]  # another strain is another table
