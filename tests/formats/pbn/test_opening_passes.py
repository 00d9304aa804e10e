"""Opening passes a file leaves out are restored before anything reads the auction (issue 27).

Championship files often start the Auction section with the first bid. Once the
reader restores the passes, the restored auction is the only one: declarer, the
opening leader and whose turn it is in the Play all follow from it, on every road
that reads PBN (``read_records`` with its fast path and the full reader,
``bridgescore game``, ``convert`` and session import).

The fixtures are written here. Each hand holds one whole suit (North the spades,
East the hearts, South the diamonds, West the clubs), so in notrumps nobody can
follow the suit led and the opening leader wins every trick: the order the cards
were played in, and the tricks each side won, are known without any of our code.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.formats import check_record, read_records
from bridgescore.formats.pbn import read_pbn
from bridgescore.session.importers.importer import import_data
from bridgescore.session.store.events import EventStore

runner = CliRunner()

SUITED = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
SUIT_OF = {"N": "S", "E": "H", "S": "D", "W": "C"}  # the one suit each seat holds
ORDER = "NESW"  # clockwise
LHO = {"N": "E", "E": "S", "S": "W", "W": "N"}
NOTICE = "this file leaves out the opening passes"

# Dealer North; the first bid is by North, East, South or West: 0 to 3 passes left out.
CASES = [(0, "N"), (1, "E"), (2, "S"), (3, "W")]


def _game(
    board: int,
    opener: str,
    *,
    declarer_tag: bool = True,
    leader: str | None = None,
    contract: str = "3NT",
    extra: str = "",
) -> str:
    """A board dealt by North where ``opener`` opens 1NT and partner raises to 3NT, the
    opening passes left out; the Play's first two tricks from ``leader`` (declarer's
    left-hand opponent unless given), then a claim: declarer makes 9 tricks."""
    leader = leader or LHO[opener]
    start = ORDER.index(leader)
    seats = [ORDER[(start + step) % 4] for step in range(4)]
    rows = [" ".join(SUIT_OF[seat] + rank for seat in seats) for rank in "AK"]
    lines = [
        f'[Board "{board}"]',
        '[Dealer "N"]',
        '[Vulnerable "None"]',
        f'[Deal "{SUITED}"]',
        '[PairNS "1"]',
        '[PairEW "2"]',
        *([f'[Declarer "{opener}"]'] if declarer_tag else []),
        f'[Contract "{contract}"]',
        '[Result "9"]',
        '[Auction "N"]',
        "1NT Pass 3NT Pass",
        "Pass Pass",
        f'[Play "{leader}"]',
        *rows,
        "*",
    ]
    return "\n".join(lines) + "\n" + extra


def _expected_cards(leader: str) -> list[str]:
    # The leader wins both tricks (nobody can follow), so both start with the leader.
    start = ORDER.index(leader)
    seats = [ORDER[(start + step) % 4] for step in range(4)]
    return [SUIT_OF[seat] + rank for rank in "AK" for seat in seats]


def _both_readers(text: str) -> list[list[tuple[object, ...]]]:
    """The records of every reading road, reduced to what this test compares."""

    def shape(records: object) -> list[tuple[object, ...]]:
        return [
            (
                tuple(call.call for call in r.auction or ()),
                r.source.call_lines,
                tuple(str(card) for card in r.play or ()),
                str(r.contract),
                tuple((p.line, p.message, p.notice) for p in r.problems),
            )
            for r in records  # type: ignore[attr-defined]
        ]

    # A comment (on the first line, so no line moves) sends the file to the full reader.
    first, rest = text.split("\n", 1)
    commented = first + " {a comment}\n" + rest
    return [
        shape(read_records(text=text)),
        shape(read_pbn(text)),
        shape(read_pbn(text, _fast=False)),
        shape(read_pbn(text.splitlines(keepends=True))),
        shape(read_records(text=commented)),
    ]


@pytest.mark.parametrize("declarer_tag", [True, False], ids=["declarer", "no-declarer"])
@pytest.mark.parametrize(("missing", "opener"), CASES)
def test_restored_auction_decides_declarer_and_the_opening_lead(
    missing: int, opener: str, declarer_tag: bool
) -> None:
    text = _game(1, opener, declarer_tag=declarer_tag)
    roads = _both_readers(text)
    assert all(road == roads[0] for road in roads[1:]), roads
    (record,) = read_records(text=text)
    written = ["1NT", "Pass", "3NT", "Pass", "Pass", "Pass"]
    assert [call.call for call in record.auction or ()] == ["Pass"] * missing + written
    # The restored passes have no line of their own; the written calls keep theirs.
    auction_line = 10 if declarer_tag else 9
    row = auction_line + 1
    assert record.source.call_lines == (0,) * missing + (row,) * 4 + (row + 1,) * 2
    assert [str(card) for card in record.play or ()] == _expected_cards(LHO[opener])
    checked = check_record(record)
    assert checked.played is not None and checked.played.play is not None
    assert str(checked.played.contract) == f"3NT{opener}"
    assert checked.played.play.opening_leader.letter == LHO[opener]
    # The defenders took the two tricks played; declarer claims the other nine of eleven.
    assert checked.played.tricks == 9
    assert checked.played.score == (400 if opener in "NS" else -400)
    problems = [(p.line, p.message, p.notice) for p in checked.problems]
    if missing:
        assert len(problems) == 1 and NOTICE in problems[0][1] and problems[0][2]
        assert problems[0][0] == auction_line
    else:
        assert problems == []


def test_a_file_of_every_shape_says_the_restoring_once() -> None:
    text = "\n".join(
        _game(board, opener, declarer_tag=board % 2 == 0)
        for board, (_, opener) in enumerate(CASES * 2, start=1)
    )
    checked = [check_record(record) for record in read_records(text=text)]
    assert [str(c.played.contract) for c in checked if c.played] == [
        "3NTN", "3NTE", "3NTS", "3NTW"
    ] * 2  # fmt: skip
    notes = [p for c in checked for p in c.problems]
    assert len(notes) == 1 and notes[0].notice and NOTICE in notes[0].message
    # Said at the first game that needed it: the second (East opened).
    assert checked[1].problems == tuple(notes)
    assert [len(c.problems) for c in checked] == [0, 1, 0, 0, 0, 0, 0, 0]


def test_bridgescore_game_and_convert_agree(tmp_path: Path) -> None:
    path = tmp_path / "championship.pbn"
    path.write_text("\n".join(_game(n, opener) for n, (_, opener) in enumerate(CASES, 1)))
    result = runner.invoke(app, ["game", str(path), "--json"])
    assert result.exit_code == 0, result.output
    games = json.loads(result.stdout)
    assert [(g["declarer"], g["contract"], g["score_ns"]) for g in games] == [
        ("N", "3NT", 400), ("E", "3NT", -400), ("S", "3NT", 400), ("W", "3NT", -400)
    ]  # fmt: skip
    messages = [p["message"] for g in games for p in g["problems"]]
    assert len(messages) == 1 and messages[0].startswith(f"note: {NOTICE}")
    # convert writes the restored auction (the passes in it) and the play from the
    # right leader; read back, nothing is left to restore.
    out = tmp_path / "out.pbn"
    result = runner.invoke(app, ["convert", str(path), str(out)])
    assert result.exit_code == 0, result.output
    written = out.read_text()
    assert '[Auction "N"]\nPass Pass Pass 1NT\nPass 3NT Pass Pass\nPass\n' in written
    assert '[Play "N"]\nSA HA DA CA\nSK HK DK CK\n*\n' in written
    back = [check_record(record) for record in read_records(out)]
    assert [str(c.played.contract) for c in back if c.played] == [
        "3NTN", "3NTE", "3NTS", "3NTW"
    ]  # fmt: skip
    assert [p for c in back for p in c.problems] == []


def test_session_import_scores_the_restored_auction() -> None:
    text = "\n".join(_game(n, opener, declarer_tag=n < 3) for n, (_, opener) in enumerate(CASES, 1))
    with tempfile.TemporaryDirectory() as folder, EventStore(Path(folder) / "e.db") as store:
        report = import_data(store, text.encode(), "championship.pbn")
        results = store.results()
    assert report.problems == [] and report.disagreements == []
    assert sorted((r.board, str(r.result)) for r in results) == [
        (1, "3NTN="), (2, "3NTE="), (3, "3NTS="), (4, "3NTW=")
    ]  # fmt: skip
    assert len([note for note in report.notes if NOTICE in note]) == 1


def test_no_number_of_passes_explains_another_contract() -> None:
    # The calls reach 3NT, the tags say 4S by East: restoring passes cannot change the
    # contract, so nothing is restored and the contradiction is reported.
    (record,) = read_records(text=_game(1, "E", contract="4S"))
    assert record.auction is not None and record.auction[0].call == "1NT"
    problems = [p.message for p in check_record(record).problems]
    assert not any(NOTICE in message for message in problems)
    assert "Contract/Declarer say 4SE, but the auction reached 3NTN" in problems


def test_a_play_from_the_wrong_leader_is_still_reported() -> None:
    # Declarer East (the tag): South leads, but the Play says West does.
    text = _game(1, "E", leader="W")
    roads = _both_readers(text)
    assert all(road == roads[0] for road in roads[1:]), roads
    (record,) = read_records(text=text)
    assert [call.call for call in record.auction or ()][:2] == ["Pass", "1NT"]
    messages = [p.message for p in record.problems]
    assert (
        '[Play "W"] names the opening leader West, but declarer East\'s left-hand '
        "opponent leads" in messages
    )
    assert record.play is None


def test_the_hand_made_championship_file_reads_clean() -> None:
    data = Path(__file__).parents[2] / "data" / "formats" / "championship_no_opening_passes.pbn"
    checked = [check_record(record) for record in read_records(data)]
    problems = [p for c in checked for p in c.problems]
    assert len(problems) == 1 and problems[0].notice and NOTICE in problems[0].message


# Issue 33, point 2: a Contract tag that lost the auction's double (or redouble).
# Championship exports write [Contract "1NT"] where the auction ends 1NT Pass Pass X AP.
# The doubling says nothing about the seat: the passes are restored all the same, and
# the doubling is the one disagreement reported, the contract scored as the tag says.

# 1NT by the opener, doubled or redoubled, then AP; the written calls on one line.
DOUBLED_AUCTIONS = {
    "X": (["1NT", "Pass", "Pass", "X"], ["1NT", "Pass", "Pass", "X", "Pass", "Pass", "Pass"]),
    "XX": (["1NT", "X", "XX"], ["1NT", "X", "XX", "Pass", "Pass", "Pass"]),
    "": (["1NT"], ["1NT", "Pass", "Pass", "Pass"]),
}
# Declarer's score for 1NT just made (7 tricks), not vulnerable (Law 77): 40 for the
# trick and 50 for a part score; doubled 80 + 50 + 50 for the insult; redoubled 160,
# a game (300) and 100 for the insult.
ONE_NT_MADE = {"1NT": 90, "1NTX": 180, "1NTXX": 560}
# (auction's doubling, the Contract tag, what the auction has that the tag has not)
LOST_DOUBLINGS = [
    ("X", "1NT", "has the double"),
    ("XX", "1NT", "has the redouble"),
    ("XX", "1NTX", "has the redouble"),
    ("", "1NTX", "has no double"),
]


def _lost_double_game(
    dealer: str, opener: str, doubling: str, contract: str, *, declarer_tag: bool
) -> str:
    """A board dealt by ``dealer`` where ``opener`` opens 1NT, doubled as ``doubling``
    says, the opening passes left out and the Contract tag's doubling ``contract``'s;
    the Play's first two tricks from declarer's left-hand opponent, who wins both (no
    one can follow), then a claim: declarer makes 7 of the 11 left. The file's Score
    is the Contract tag's score."""
    leader = LHO[opener]
    start = ORDER.index(leader)
    seats = [ORDER[(start + step) % 4] for step in range(4)]
    points = ONE_NT_MADE[contract]
    side = "NS" if opener in "NS" else "EW"
    written, _ = DOUBLED_AUCTIONS[doubling]
    lines = [
        '[Board "1"]',
        f'[Dealer "{dealer}"]',
        '[Vulnerable "None"]',
        f'[Deal "{SUITED}"]',
        *([f'[Declarer "{opener}"]'] if declarer_tag else []),
        f'[Contract "{contract}"]',
        '[Result "7"]',
        f'[Score "{side} {points}"]',
        f'[Auction "{dealer}"]',
        " ".join(written) + " AP",
        f'[Play "{leader}"]',
        *(" ".join(SUIT_OF[seat] + rank for seat in seats) for rank in "AK"),
        "*",
    ]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("declarer_tag", [True, False], ids=["declarer", "no-declarer"])
@pytest.mark.parametrize(("doubling", "contract", "has"), LOST_DOUBLINGS)
@pytest.mark.parametrize("opener", list(ORDER))
@pytest.mark.parametrize("dealer", list(ORDER))
def test_a_contract_without_the_auctions_double_still_has_its_passes_restored(
    dealer: str, opener: str, doubling: str, contract: str, has: str, declarer_tag: bool
) -> None:
    text = _lost_double_game(dealer, opener, doubling, contract, declarer_tag=declarer_tag)
    roads = _both_readers(text)
    assert all(road == roads[0] for road in roads[1:]), roads
    (record,) = read_records(text=text)
    missing = (ORDER.index(opener) - ORDER.index(dealer)) % 4
    written, whole = DOUBLED_AUCTIONS[doubling]
    assert [call.call for call in record.auction or ()] == ["Pass"] * missing + whole
    # Restored passes and AP's passes have no line; the written calls are on the line
    # after the Auction tag.
    auction_line = 9 if declarer_tag else 8
    passes = len(whole) - len(written)
    assert record.source.call_lines == (
        (0,) * missing + (auction_line + 1,) * len(written) + (0,) * passes
    )
    assert [str(card) for card in record.play or ()] == _expected_cards(LHO[opener])
    checked = check_record(record)
    assert checked.played is not None and checked.played.play is not None
    # Scored as the Contract tag says, by the restored auction's declarer.
    assert str(checked.played.contract) == f"{contract}{opener}"
    assert checked.played.play.opening_leader.letter == LHO[opener]
    assert checked.played.tricks == 7
    points = ONE_NT_MADE[contract]
    assert checked.played.score == (points if opener in "NS" else -points)
    # One problem, the doubling; and the note that passes were restored, if they were.
    stated = f"{contract}{opener}" if declarer_tag else contract
    reached = f"1NT{doubling}{opener}"
    contract_line = 6 if declarer_tag else 5
    assert [(p.line, p.message) for p in checked.problems if not p.notice] == [
        (
            contract_line,
            f"Contract/Declarer say {stated}, but the auction {has}: it reached {reached}; "
            "scored as the Contract tag says",
        )
    ]
    notes = [(p.line, p.message) for p in checked.problems if p.notice]
    assert len(notes) == (1 if missing else 0)
    assert all(line == auction_line and NOTICE in message for line, message in notes)
    assert "opening leader" not in " ".join(p.message for p in checked.problems)


def test_written_opening_passes_and_a_lost_double_read_as_restored_ones() -> None:
    # The same game with its opening passes written reads the same: nothing to restore,
    # the same contract, score and problem (the auction, not the file, has the passes).
    restored = _lost_double_game("N", "W", "X", "1NT", declarer_tag=True)
    written = restored.replace(
        '[Auction "N"]\n1NT Pass Pass X AP', '[Auction "N"]\nPass Pass Pass 1NT Pass Pass X AP'
    )
    (before,), (after,) = read_records(text=restored), read_records(text=written)
    assert before.auction == after.auction
    one, two = check_record(before), check_record(after)
    assert one.played is not None and two.played is not None
    assert (str(one.played.result), one.played.score) == ("1NTW=", -90)
    assert (str(two.played.result), two.played.score) == ("1NTW=", -90)
    assert (
        [p.message for p in one.problems if not p.notice]
        == [p.message for p in two.problems]
        == [
            "Contract/Declarer say 1NTW, but the auction has the double: it reached 1NTXW; "
            "scored as the Contract tag says"
        ]
    )


def test_a_lost_double_does_not_hide_another_contract() -> None:
    # The Contract tag names another strain, undoubled, where the auction reached 1NTX:
    # no number of passes explains that, so nothing is restored and it is reported.
    text = _lost_double_game("N", "E", "X", "1NT", declarer_tag=True).replace(
        '[Contract "1NT"]', '[Contract "1S"]'
    )
    (record,) = read_records(text=text)
    assert record.auction is not None and record.auction[0].call == "1NT"
    problems = [p.message for p in check_record(record).problems]
    assert not any(NOTICE in message for message in problems)
    assert "Contract/Declarer say 1SE, but the auction reached 1NTXN" in problems


def test_bridgescore_game_and_session_import_score_the_contract_tag(tmp_path: Path) -> None:
    # Four boards, the opener each seat in turn (dealer North): 0 to 3 passes restored.
    games = [
        _lost_double_game("N", opener, "X", "1NT", declarer_tag=n % 2 == 0).replace(
            '[Board "1"]', f'[Board "{n}"]\n[PairNS "1"]\n[PairEW "2"]'
        )
        for n, opener in enumerate(ORDER, 1)
    ]
    path = tmp_path / "championship.pbn"
    path.write_text("\n".join(games))
    result = runner.invoke(app, ["game", str(path), "--json"])
    assert result.exit_code == 1, result.output  # the file contradicts itself
    read = json.loads(result.stdout)
    assert [(g["declarer"], g["contract"], g["score_ns"]) for g in read] == [
        ("N", "1NT", 90), ("E", "1NT", -90), ("S", "1NT", 90), ("W", "1NT", -90)
    ]  # fmt: skip
    messages = [p["message"] for g in read for p in g["problems"]]
    assert [m for m in messages if m.startswith("note: ")] == [m for m in messages if NOTICE in m]
    assert len([m for m in messages if NOTICE in m]) == 1
    assert sorted(m for m in messages if not m.startswith("note: ")) == sorted(
        f"Contract/Declarer say {stated}, but the auction has the double: it reached "
        f"1NTX{seat}; scored as the Contract tag says"
        for stated, seat in [("1NT", "N"), ("1NTE", "E"), ("1NT", "S"), ("1NTW", "W")]
    )
    with EventStore(tmp_path / "e.db") as store:
        report = import_data(store, path.read_bytes(), "championship.pbn")
        results = store.results()
    assert report.problems == []
    assert sorted((r.board, str(r.result)) for r in results) == [
        (1, "1NTN="), (2, "1NTE="), (3, "1NTS="), (4, "1NTW=")
    ]  # fmt: skip
    assert len(report.disagreements) == 4
    assert all("the auction has the double" in d for d in report.disagreements)
