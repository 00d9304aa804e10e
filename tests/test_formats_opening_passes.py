"""Opening passes a file leaves out are restored before anything reads the auction (issue 27).

Championship files often start the Auction section with the first bid. Once the
reader restores the passes, the restored auction is the only one: declarer, the
opening leader and whose turn it is in the Play all follow from it, on every road
that reads PBN (``read_records`` with its fast path and the full reader,
``read_played_games``, ``bridgescore game``, ``convert`` and session import).

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
from bridgescore.formats.pbn import read_games
from bridgescore.formats.pbngame import read_played_games
from bridgescore.formats.pbnrecord import read_pbn, records_from_games
from bridgescore.session.importer import import_data
from bridgescore.session.store import EventStore

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
        shape(records_from_games(read_games(text))),
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
    played = list(read_played_games(text))
    assert [str(game.played.contract) for game in played if game.played] == [
        str(c.played.contract) for c in checked if c.played
    ]
    assert [len(game.problems) for game in played] == [0, 1, 0, 0, 0, 0, 0, 0]


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
    data = Path(__file__).parent / "data" / "formats" / "championship_no_opening_passes.pbn"
    checked = [check_record(record) for record in read_records(data)]
    problems = [p for c in checked for p in c.problems]
    assert len(problems) == 1 and problems[0].notice and NOTICE in problems[0].message
