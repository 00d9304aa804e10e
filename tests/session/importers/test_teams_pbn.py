"""Online teams PBN (HomeTeam/VisitTeam and Table, no Room): import, rooms, cross-checks."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.session.importers.importer import import_files
from bridgescore.session.importers.teams_pbn import is_online_teams, parse_online_teams
from bridgescore.session.scoring.scorer import score_event
from bridgescore.session.store.events import EventStore
from bridgescore.session.workflow import score_stored_event

ONLINE = Path(__file__).parents[2] / "data" / "online_teams.pbn"
runner = CliRunner()


def _games(text: str) -> list[dict[str, str]]:
    """The file's tags, game by game, read here independently of bridgescore's PBN reader."""
    games = []
    for block in re.split(r"\r?\n\r?\n", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', block, re.M))
        if tags:
            games.append(tags)
    return games


def test_recognised_by_its_tags() -> None:
    text = ONLINE.read_text(encoding="utf-8")
    assert is_online_teams(text.splitlines())
    with_rooms = re.sub(r'(\[Table "\d"\])', r'\1\n[Room "Open"]', text)
    assert not is_online_teams(with_rooms.splitlines())
    assert not is_online_teams(re.sub(r'\[Table "\d"\]\n', "", text).splitlines())


def test_imports_as_a_teams_event_whose_imps_equal_the_files_score_imp(tmp_path: Path) -> None:
    with EventStore(tmp_path / "ev.db") as store:
        report = import_files(store, [ONLINE])
        event = store.load()
    assert report.ok and report.disagreements == []
    assert (event.kind, event.name) == ("teams", "Online Teams League")
    assert event.participants() == ["Aces", "Jacks", "Kings", "Queens"]
    assert sorted(event.boards) == [1, 2]
    ours = {
        (line.result.board, line.result.ns, line.result.ew): line.ns
        for traveller in score_event(event, "imps").travellers
        for line in traveller.lines
    }
    games = _games(ONLINE.read_text(encoding="utf-8"))
    assert len(games) == len(ours) == 8
    for tags in games:
        side, value = tags["ScoreIMP"].split()
        file_imps = int(value) if side == "NS" else -int(value)
        assert ours[(int(tags["Board"]), tags["HomeTeam"], tags["VisitTeam"])] == file_imps


def test_a_table_without_its_other_room_is_reported_not_scored(tmp_path: Path) -> None:
    text = ONLINE.read_text(encoding="utf-8")
    blocks = text.split("\n\n")
    last = next(i for i, b in enumerate(blocks) if '[Board "2"]' in b and '[Table "4"]' in b)
    path = tmp_path / "missing.pbn"
    path.write_text("\n\n".join(blocks[:last] + blocks[last + 1 :]), encoding="utf-8")
    result = runner.invoke(app, ["session", "import", str(tmp_path / "m.db"), str(path)])
    assert result.exit_code == 1
    assert (
        "board 2 table 3: Queens v Jacks: the other room (the same teams, seats swapped) "
        "is missing; the table is not scored"
    ) in result.output
    assert "6 result(s) added" in result.output


def test_the_same_seats_twice_are_not_two_rooms() -> None:
    text = ONLINE.read_text(encoding="utf-8")
    swapped = text.replace(
        '[HomeTeam "Kings"]\n[VisitTeam "Aces"]\n[Table "2"]',
        '[HomeTeam "Aces"]\n[VisitTeam "Kings"]\n[Table "2"]',
    )
    read = parse_online_teams(swapped.splitlines(), "s.pbn")
    messages = [p.message for p in read.parsed.problems]
    assert messages[0].startswith("board 1: Aces v Kings at table 1, table 2: expected exactly two")
    assert len(read.parsed.results) == 4


def test_every_disagreement_is_listed_with_board_table_and_both_values() -> None:
    text = ONLINE.read_text(encoding="utf-8")
    first = text.index('[Table "1"]')
    changed = text[:first] + text[first:].replace(
        '[ScoreIMP "NS 6"]', '[ScoreIMP "NS 5"]', 1
    ).replace('[Score "NS 420"]', '[Score "NS 450"]', 1).replace(
        '[ScorePercentage "100.00"]', '[ScorePercentage "90.00"]', 1
    ).replace('[ScoreMP "6"]', '[ScoreMP "5"]', 1)
    read = parse_online_teams(changed.splitlines(), "c.pbn")
    assert sorted(str(d) for d in read.disagreements) == [
        "board 1 table 1: Score 'NS 450' in the file, bridgescore NS +420",
        "board 1 table 1: ScoreIMP 'NS 5' in the file, bridgescore NS +6",
        "board 1 table 1: ScoreMP '5' in the file, bridgescore NS 6 (of 6)",
        "board 1 table 1: ScorePercentage '90.00' in the file, bridgescore NS 100.00",
    ]


def test_cli_lists_disagreements_and_still_imports(tmp_path: Path) -> None:
    path = tmp_path / "c.pbn"
    path.write_text(
        ONLINE.read_text(encoding="utf-8").replace('[ScoreIMP "NS -12"]', '[ScoreIMP "NS -13"]'),
        encoding="utf-8",
    )
    result = runner.invoke(app, ["session", "import", str(tmp_path / "c.db"), str(path)])
    assert result.exit_code == 0, result.output
    assert "check: " in result.output
    assert "board 2 table 1: ScoreIMP 'NS -13' in the file, bridgescore NS -12" in result.output
    assert "1 score(s) differ" in result.output
    scored = runner.invoke(app, ["session", "score", str(tmp_path / "c.db")])
    assert scored.exit_code == 0 and "IMPs (teams)" in scored.output


# -- a teams file with rooms (issue 46) ----------------------------------------------------------

REALBRIDGE = Path(__file__).parents[2] / "data" / "realbridge_teams.pbn"


def test_a_pbn_with_open_and_closed_rooms_is_a_teams_event(tmp_path: Path) -> None:
    # Without --teams it was a pairs field: Aces 100 %, Kings 0 %. The match in IMPs:
    # board 1, 420 against 170 = 250, 6 IMPs; board 2, 600 against -100 = 700, 12 IMPs.
    event = tmp_path / "match.db"
    result = CliRunner().invoke(app, ["session", "import", str(event), str(REALBRIDGE)])
    assert result.exit_code == 0, result.output
    assert "a teams file (HomeTeam and VisitTeam at the Open and Closed rooms)" in result.stderr
    assert "score(s) differ" not in result.stdout
    with EventStore(event, mode="read") as store:
        assert store.kind == "teams"
        scored = score_stored_event(store)
    assert {s.name: s.total for s in scored.standings} == {"Aces": 18, "Kings": -18}


def test_scoreimp_naming_both_sides_agrees_in_an_online_teams_file(tmp_path: Path) -> None:
    # The same match the online way (no Room; the teams swap seats at table 2):
    # "NS 6 EW -6" is checked as NS +6, no "score(s) differ".
    text = REALBRIDGE.read_text().replace('[Room "Open"]\n', "")
    games = []
    for part in text.split("\n\n"):
        if '[Room "Closed"]' in part:
            part = part.replace('[Room "Closed"]\n', "").replace('[Table "1"]', '[Table "2"]')
            part = part.replace('HomeTeam "Aces"', 'HomeTeam "X"').replace(
                'VisitTeam "Kings"', 'VisitTeam "Aces"'
            )
            part = part.replace('HomeTeam "X"', 'HomeTeam "Kings"')
        games.append(part)
    path = tmp_path / "online.pbn"
    path.write_text("\n\n".join(games))
    event = tmp_path / "online.db"
    report = import_files(EventStore(event, mode="create"), [path])
    assert report.problems == []
    assert report.disagreements == []
    with EventStore(event, mode="read") as store:
        scored = score_stored_event(store)
    assert {s.name: s.total for s in scored.standings} == {"Aces": 18, "Kings": -18}
