"""Practice deals as files (issue 45, item 6): ``deal --where ... --boards 1-8
--format pbn|lin OUT`` writes numbered boards that endplay's PBN parser reads, and
``convert`` keeps the result of a board played to the last card."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.core import Seat, Vulnerability
from bridgescore.formats import read_records

runner = CliRunner()
DATA = Path(__file__).parent.parent / "data" / "formats"
CONDITION = "hcp(south) >= 20"
# Law 2: the dealer goes round from North; vulnerability None, NS, EW, Both, then
# NS, EW, Both, None for boards 5-8.
DEALERS = [Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST] * 2
VULNERABILITIES = [Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW, Vulnerability.BOTH]
VULNERABILITIES += [Vulnerability.NS, Vulnerability.EW, Vulnerability.BOTH, Vulnerability.NONE]


def _hcp(hand: str) -> int:
    return sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(card, 0) for card in hand)


def test_practice_deals_are_a_pbn_that_endplay_reads(tmp_path: Path) -> None:
    pbn = pytest.importorskip("endplay.parsers.pbn")
    out = tmp_path / "practice.pbn"
    result = runner.invoke(
        app, ["deal", "--where", CONDITION, "--boards", "1-8", "--seed", "4", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "8 board(s) written" in result.output
    text = out.read_text(encoding="utf-8")
    for tag in ("Board", "Dealer", "Vulnerable", "Deal"):
        assert text.count(f"[{tag} ") == 8
    with out.open(encoding="utf-8") as stream:
        boards = pbn.load(stream)
    assert [board.board_num for board in boards] == list(range(1, 9))
    # endplay numbers dealers N=0, E=1, S=2, W=3 and vulnerability none, both, NS, EW.
    endplay_vul = {Vulnerability.NONE: 0, Vulnerability.BOTH: 1}
    endplay_vul |= {Vulnerability.NS: 2, Vulnerability.EW: 3}
    assert [int(board.dealer) for board in boards] == [int(seat) for seat in DEALERS]
    assert [int(board.vul) for board in boards] == [endplay_vul[v] for v in VULNERABILITIES]
    for board in boards:
        south = board.deal.to_pbn().split(":")[1].split()[2]
        assert _hcp(south) >= 20
    # The same deals as 'deal --where' prints, one a line, for the same seed.
    lines = runner.invoke(app, ["deal", "-n", "8", "--where", CONDITION, "--seed", "4"])
    assert [r.deal.to_pbn() for r in read_records(out)] == lines.stdout.split("\n")[:8]


def test_practice_deals_as_lin(tmp_path: Path) -> None:
    out = tmp_path / "practice.lin"
    result = runner.invoke(
        app,
        ["deal", "--where", CONDITION, "--boards", "5-6", "--seed", "4", "-f", "lin", str(out)],
    )
    assert result.exit_code == 0, result.output
    records = list(read_records(out))
    assert [(r.board, r.dealer, r.vulnerability) for r in records] == [
        (5, Seat.NORTH, Vulnerability.NS),
        (6, Seat.EAST, Vulnerability.EW),
    ]


def test_practice_deals_keep_no_secret_seed(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        ["deal", "--where", CONDITION, "--boards", "1-2", "--seed-file", str(tmp_path / "s")],
    )
    assert result.exit_code == 2 and "practice deals" in result.output


def _tricks_by_hand(cards: list[str], declarer: Seat, trump: str) -> int:
    """Declarer's side's tricks, trick by trick, written out here on its own:
    the highest trump wins, else the highest card of the suit led."""
    order = "23456789TJQKA"
    leader = Seat((declarer + 1) % 4)
    won = 0
    for start in range(0, 52, 4):
        trick = cards[start : start + 4]
        led = trick[0][0]

        def strength(card: str, led: str = led) -> int:
            rank = order.index(card[1])
            return 100 + rank if card[0] == trump else (rank if card[0] == led else -1)

        winner = Seat((leader + max(range(4), key=lambda i: strength(trick[i]))) % 4)
        won += winner in (declarer, Seat((declarer + 2) % 4))
        leader = winner
    return won


def test_convert_keeps_the_result_of_a_board_played_to_the_last_card(tmp_path: Path) -> None:
    source = DATA / "hand_history.lin"
    out = tmp_path / "history.pbn"
    result = runner.invoke(app, ["convert", str(source), str(out)])
    assert result.exit_code == 0, result.output
    # Board 3: 4SX by North, played to the last card with no claim.
    (played,) = [r for r in read_records(source) if r.board == 3]
    assert played.claim is None and played.play is not None and len(played.play) == 52
    expected = _tricks_by_hand([str(card) for card in played.play], Seat.NORTH, "S")
    (board,) = [r for r in read_records(out) if r.board == 3]
    assert board.result == expected == 7
    text = out.read_text(encoding="utf-8")
    assert '[Result "?"]' in text  # board 2, passed out, has none
    assert text.count('[Result "?"]') == 1
