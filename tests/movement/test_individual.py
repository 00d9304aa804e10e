"""Individual movements (issue 47 §5): the generator, checked by counts made here from the
rows alone (not by the checker under test), the checker on broken movements, the JSON
form and the CLI."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.errors import BridgeError, MovementError
from bridgescore.movement.check import check_movement
from bridgescore.movement.individual import individual
from bridgescore.movement.model import Movement, Row
from bridgescore.movement.text import movement_from_json, movement_to_asc, movement_to_json

runner = CliRunner()


def seats(row: Row) -> tuple[str, str, str, str]:
    """North, South, East, West, read from the labels "N-S" and "E-W" by hand."""
    north, south = row.ns.split("-")
    east, west = row.ew.split("-")
    return (north, south, east, west)


@pytest.mark.parametrize("players", [8, 12, 16, 20, 24, 28, 32, 36, 40])
def test_every_player_partners_every_other_once_and_plays_each_board_once(players: int) -> None:
    movement = individual(players, boards_per_round=2)
    assert movement.kind == "individual"
    assert (movement.tables, movement.rounds) == (players // 4, players - 1)
    everyone = {str(p) for p in range(1, players + 1)}
    partnered: Counter[frozenset[str]] = Counter()
    boards_of: dict[str, list[int]] = {p: [] for p in everyone}
    times: Counter[int] = Counter()
    for round_number in range(1, players):
        rows = movement.rows_in_round(round_number)
        assert len(rows) == players // 4
        seated = [player for row in rows for player in seats(row)]
        # Every player at exactly one seat of one table each round.
        assert sorted(seated, key=int) == sorted(everyone, key=int)
        for row in rows:
            north, south, east, west = seats(row)
            assert len({north, south, east, west}) == 4
            partnered[frozenset((north, south))] += 1
            partnered[frozenset((east, west))] += 1
            for player in (north, south, east, west):
                boards_of[player].extend(row.boards)
            times.update(row.boards)
    # N(N-1)/2 twos of players, each partners once.
    assert len(partnered) == players * (players - 1) // 2
    assert set(partnered.values()) == {1}
    assert set(partnered) == {frozenset(two) for two in combinations(everyone, 2)}
    # 2 boards a round over N-1 rounds: 2(N-1) boards, each played once by every player...
    for boards in boards_of.values():
        assert sorted(boards) == list(range(1, 2 * (players - 1) + 1))
    # ... and at every one of the N/4 tables.
    assert set(times.values()) == {players // 4}
    # The checker agrees, player by player.
    check = check_movement(movement)
    assert check.sound, check.problems
    assert set(check.boards_per_pair.values()) == {2 * (players - 1)}
    assert len(check.boards_per_pair) == players
    assert set(check.meetings.values()) == {1}


def test_eight_players_by_hand() -> None:
    # Player 8 stays North at table 1; players 1..7, read as 0..6 modulo 7, move on
    # one each round (7 to 1). Round 1's partnerships: 8 & 1, then {1, 6}, {2, 5} and
    # {3, 4}, i.e. players 2 & 7, 3 & 6 and 4 & 5; two partnerships a table.
    movement = individual(8, boards_per_round=3)
    first, second = movement.rows_in_round(1)
    assert (first.ns, first.ew, first.boards) == ("8-1", "2-7", (1, 2, 3))
    assert (second.ns, second.ew, second.boards) == ("3-6", "4-5", (1, 2, 3))
    # Round 2: everyone but 8 one on.
    first, second = movement.rows_in_round(2)
    assert (first.ns, first.ew, second.ns, second.ew) == ("8-2", "3-1", "4-7", "5-6")
    assert first.boards == (4, 5, 6)
    assert individual(8, boards_per_round=3, rounds=4).rounds == 4


@pytest.mark.parametrize(
    ("players", "text"),
    [(10, "multiple of four"), (6, "players"), (44, "players"), (14, "multiple of four")],
)
def test_sizes_that_do_not_fit_are_refused(players: int, text: str) -> None:
    with pytest.raises(BridgeError, match=text):
        individual(players, boards_per_round=2)


def test_too_many_rounds_is_refused() -> None:
    with pytest.raises(BridgeError, match="rounds"):
        individual(8, boards_per_round=2, rounds=8)


def broken(*rows: tuple[int, int, str, str, tuple[int, ...]]) -> Movement:
    return Movement("individual", 2, 2, 1, tuple(Row(*row) for row in rows))


def messages(movement: Movement) -> list[str]:
    return [str(problem) for problem in check_movement(movement).problems]


def test_the_checker_names_each_broken_rule() -> None:
    # Players 1 and 2 partner in rounds 1 and 2.
    assert messages(
        broken((1, 1, "1-2", "3-4", (1,)), (1, 2, "5-6", "7-8", (1,)),
               (2, 1, "1-2", "5-7", (2,)), (2, 2, "3-6", "4-8", (2,)))
    ) == ["round 2, table 1: players 1 and 2 partner again (first in round 1)"]  # fmt: skip
    # Round 2 plays round 1's boards again: 1 and 3 (board 1 at table 1 in round 1)
    # meet board 1 again, 6 and 8 (board 2 at table 2) board 2; 5, 7, 2 and 4 changed.
    found = messages(
        broken((1, 1, "1-2", "3-4", (1,)), (1, 2, "5-6", "7-8", (2,)),
               (2, 1, "1-5", "3-7", (1,)), (2, 2, "2-6", "4-8", (2,)))
    )  # fmt: skip
    assert found == [
        "round 2, table 1: player 1 plays board 1 again (first in round 1)",
        "round 2, table 1: player 3 plays board 1 again (first in round 1)",
        "round 2, table 2: player 6 plays board 2 again (first in round 1)",
        "round 2, table 2: player 8 plays board 2 again (first in round 1)",
    ]
    # Player 1 at both tables of round 1; player 2 twice at one table.
    found = messages(broken((1, 1, "1-2", "3-4", (1,)), (1, 2, "1-6", "7-2", (2,))))
    assert "round 1, table 2: player 1 is also at table 1 this round" in found
    assert "round 1, table 2: player 2 is also at table 1 this round" in found
    assert messages(broken((1, 1, "1-2", "3-2", (1,)))) == [
        "round 1, table 1: player 2 holds two seats (a table seats four different players)"
    ]


def test_partnership_labels_belong_to_individuals_only() -> None:
    with pytest.raises(MovementError, match="only an individual movement's rows name two"):
        Movement("custom", 1, 1, 1, (Row(1, 1, "1-2", "3-4", (1,)),))
    with pytest.raises(MovementError, match=r"pair '1': an individual movement's rows name"):
        Movement("individual", 1, 1, 1, (Row(1, 1, "1", "3-4", (1,)),))
    with pytest.raises(MovementError, match=r"pair '1-x' is not a pair label"):
        Row(1, 1, "1-x", "3-4", (1,))


def test_the_json_form_reads_back_and_asc_is_refused() -> None:
    movement = individual(12, boards_per_round=2)
    text = json.dumps(movement_to_json(movement))
    assert movement_from_json(text) == movement
    assert movement_to_json(movement)["rows"][0] == {
        "round": 1, "table": 1, "ns": "12-1", "ew": "2-11", "boards": [1, 2],
        "seats": {"N": "12", "S": "1", "E": "2", "W": "11"},
    }  # fmt: skip
    # The seats may be left out; given, they must agree with the partnerships.
    data = movement_to_json(movement)
    del data["rows"][0]["seats"]
    assert movement_from_json(data) == movement
    data["rows"][1]["seats"]["W"] = "5"
    with pytest.raises(MovementError) as error:
        movement_from_json(data)
    assert str(error.value) == (
        'rows[2].seats says N "3", S "10", E "4", W "5", but its partnerships 3-10'
        " and 4-9 seat N 3, S 10, E 4, W 9"
    )
    with pytest.raises(MovementError, match=r"individual movement has no \.ASC form"):
        movement_to_asc(movement)


def test_the_cli_prints_checks_and_writes_an_individual(tmp_path: Path) -> None:
    shown = runner.invoke(app, ["movement", "individual", "--players", "8", "-b", "2"])
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    assert lines[0] == "Individual: 2 tables, 7 rounds of 2 boards, 8 players, 14 boards"
    assert lines[2:6] == [
        "Round 1",
        "  Table  N   S   E   W   Boards",
        "      1  8   1   2   7   1-2",
        "      2  3   6   4   5   1-2",
    ]
    out = tmp_path / "indy.json"
    written = runner.invoke(
        app, ["movement", "individual", "--players", "16", "-b", "1", "--out", str(out), "--json"]
    )
    assert written.exit_code == 0, written.output
    assert json.loads(out.read_text())["kind"] == "individual"
    checked = runner.invoke(app, ["movement", "check", str(out)])
    assert checked.exit_code == 0, checked.output
    assert "Boards per player: 15 (all 16 players)" in checked.output
    assert "Times each board is played: 4 (all 15 boards)" in checked.output
    assert "Twos of players that partner once: 120" in checked.output
    assert "Sound: four different players at each table" in checked.output
    as_json = json.loads(runner.invoke(app, ["movement", "check", str(out), "--json"]).output)
    assert as_json["sound"] and as_json["kind"] == "individual"
    assert {m["times"] for m in as_json["meetings"]} == {1}
    assert as_json["boards_per_player"] == {str(p): 15 for p in range(1, 17)}
    assert len(as_json["partnerships"]) == 120
    assert as_json["partnerships"][0] == {"players": ["1", "2"], "times": 1}
    # A hand-broken file: players 1 and 2 partner twice; exit 1 naming the place.
    bad = movement_to_json(individual(8, boards_per_round=1))
    for row in bad["rows"]:
        del row["seats"]  # optional; the partnerships below are changed by hand
    bad["rows"][2]["ns"] = "8-2"
    bad["rows"][2]["ew"] = "1-3"  # round 2 table 1: 8 & 2 v 1 & 3 was 8-2 v 3-1
    bad["rows"][3]["ns"], bad["rows"][3]["ew"] = "4-7", "5-6"
    bad["rows"][4]["ns"] = "8-1"  # round 3 table 1: 8 and 1 partner again
    bad["rows"][4]["ew"] = "4-2"
    file = tmp_path / "bad.json"
    file.write_text(json.dumps(bad))
    refused = runner.invoke(app, ["movement", "check", str(file)])
    assert refused.exit_code == 1
    assert "players 1 and 8 partner again (first in round 1)" in refused.output


@pytest.mark.parametrize(
    ("words", "text"),
    [
        (["--players", "10", "-b", "2"], "multiple of four"),
        (["--players", "8", "-b", "2", "--rounds", "9"], "rounds"),
    ],
)
def test_cli_usage_errors(words: list[str], text: str) -> None:
    answer = runner.invoke(app, ["movement", "individual", *words])
    assert answer.exit_code == 2 and text in answer.output


@pytest.mark.parametrize("players", [8, 12, 16, 20])
def test_players_alone_is_enough(players: int, tmp_path: Path) -> None:
    # Two boards a round unless -b says: N - 1 rounds of 2.
    shown = runner.invoke(app, ["movement", "individual", "--players", str(players)])
    assert shown.exit_code == 0, shown.output
    assert shown.output.splitlines()[0] == (
        f"Individual: {players // 4} tables, {players - 1} rounds of 2 boards, {players}"
        f" players, {2 * (players - 1)} boards"
    )
    made = runner.invoke(
        app,
        ["session", "new", str(tmp_path / "indy.db"), "--movement", "individual",
         "--players", str(players), "--json"],
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    assert len(json.loads(made.output)["tables"]) == players // 4


def test_movement_cards_of_an_individual(tmp_path: Path) -> None:
    out = tmp_path / "cards.html"
    made = runner.invoke(
        app, ["movement", "cards", "individual", "--players", "12", "--html", str(out)]
    )
    assert made.exit_code == 0, made.output
    assert "cards for 12 players and 3 tables written to" in made.output
    page = out.read_text(encoding="utf-8")
    assert page.count('<article class="card guide"') == 12
    assert page.count('<article class="card table-card"') == 3
