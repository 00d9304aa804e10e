"""`session import` of USEBIO files, USEBIO export, and imports that are killed or concurrent."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.compare.scalar import Award
from bridgescore.deal import Deal
from bridgescore.notation import parse_result
from bridgescore.session.importers.importer import import_files
from bridgescore.session.importers.usebio import cross_check, read_usebio_event
from bridgescore.session.reports.usebio import export_usebio
from bridgescore.session.scoring.event import Adjusted, Event, Member, TableResult
from bridgescore.session.scoring.scorer import score_event
from bridgescore.session.store.events import EventStore

DATA = Path(__file__).parents[2] / "data"
PAIRS = DATA / "usebio_pairs.xml"
TEAMS = DATA / "usebio_teams.xml"
runner = CliRunner()


def _import(tmp_path: Path, *files: Path, name: str = "ev.db") -> tuple[Event, str | None, object]:
    with EventStore(tmp_path / name) as store:
        report = import_files(store, files)
        return store.load(), store.method, report


def test_pairs_keep_the_files_numbering_and_method(tmp_path: Path) -> None:
    event, method, report = _import(tmp_path, PAIRS)
    assert report.ok and report.disagreements == []  # type: ignore[attr-defined]
    assert (event.name, event.kind, method) == ("Monday Pairs", "pairs", "mp")
    assert event.participants() == ["1EW", "1NS", "2EW", "2NS", "3EW", "3NS", "4EW", "4NS"]
    by_key = {(r.board, r.ns, r.ew): r for r in event.results}
    assert by_key[(1, "4NS", "4EW")].result == parse_result("4HXN-1")
    assert by_key[(1, "4NS", "4EW")].ns_score() == -100
    assert by_key[(2, "3NS", "4EW")].result == parse_result("Pass")
    assert by_key[(2, "4NS", "1EW")].adjusted == Adjusted(Award.AVERAGE_PLUS, Award.AVERAGE_MINUS)
    assert sorted(event.boards) == [1, 2, 3]
    assert event.boards[3].deal == Deal.from_pbn(
        "N:AJ854.T9.QT7.865 K73.QJ732.32.K43 62.A65.K85.AQJ97 QT9.K84.AJ964.T2"
    )


def test_standings_match_the_files_percentages(tmp_path: Path) -> None:
    """Worked by hand (2/1 scale, top 6; boards 2 and 3 Neuberg'd from 3 results to 4)."""
    event, _, _ = _import(tmp_path, PAIRS)
    scored = score_event(event, "mp")
    percent = {s.name: s.percent for s in scored.standings}
    assert percent == {
        "2NS": 81.67,
        "3NS": 59.44,
        "4NS": 30.0,
        "1NS": 25.56,
        "4EW": 66.67,
        "3EW": 55.56,
        "2EW": 47.5,
        "1EW": 26.11,
    }


def test_a_changed_matchpoint_is_listed(tmp_path: Path) -> None:
    text = PAIRS.read_bytes().replace(
        b"<NS_MATCH_POINTS>5.7</NS_MATCH_POINTS>\r\n        <EW_MATCH_POINTS>0.3",
        b"<NS_MATCH_POINTS>5.5</NS_MATCH_POINTS>\r\n        <EW_MATCH_POINTS>0.3",
        1,
    )
    imported = read_usebio_event(text, "changed.xml")
    found = cross_check(imported)
    assert len(found) == 1
    assert "board 2 2NS v 3EW (3SW-1)" in found[0]
    assert "the file gives 5.5/0.3 MP, bridgescore 5.7/0.3" in found[0]


def test_a_score_the_laws_disagree_with_is_noted() -> None:
    text = PAIRS.read_bytes().replace(b"<SCORE>450</SCORE>", b"<SCORE>480</SCORE>")
    imported = read_usebio_event(text, "score.xml")
    assert any(
        "4HN+1 scores +450 for NS by the Laws, the file says +480" in n for n in imported.notes
    )


def test_butler_file_sets_the_default_method(tmp_path: Path) -> None:
    text = PAIRS.read_bytes().replace(b'"MP_PAIRS"', b'"BUTLER_PAIRS"')
    text = text.replace(b"MATCH_POINTS</BOARD", b"BUTLER_IMPS</BOARD")
    path = tmp_path / "butler.xml"
    path.write_bytes(text)
    db = tmp_path / "b.db"
    result = runner.invoke(app, ["session", "import", str(db), str(path)])
    # The file's MPs are not Butler IMPs: every line is listed, and the import still lands.
    assert result.exit_code == 0, result.output
    assert "score(s) differ" in result.output
    scored = runner.invoke(app, ["session", "score", str(db)])
    assert scored.exit_code == 0
    assert "Butler" in scored.output


def test_teams_file(tmp_path: Path) -> None:
    event, method, report = _import(tmp_path, TEAMS)
    assert report.ok and report.disagreements == []  # type: ignore[attr-defined]
    assert (event.kind, method) == ("teams", "imps")
    assert event.participants() == ["Aces", "Jacks", "Kings", "Queens"]
    totals = {s.name: s.total for s in score_event(event, "imps").standings}
    assert totals == {"Aces": -6, "Kings": 6, "Queens": -11, "Jacks": 11}  # the file's TOTAL_SCORE


def test_a_changed_board_imps_is_listed() -> None:
    text = TEAMS.read_bytes().replace(b"<IMPS>-12</IMPS>", b"<IMPS>-11</IMPS>")
    found = cross_check(read_usebio_event(text, "t.xml"))
    assert found == ["board 2 Aces v Kings: the file gives -11 IMPs to Aces, bridgescore -12"]


@pytest.mark.parametrize("fixture", [PAIRS, TEAMS])
def test_export_reimports_to_the_same_event(tmp_path: Path, fixture: Path) -> None:
    event, method, _ = _import(tmp_path, fixture)
    out = tmp_path / "out.xml"
    out.write_text(export_usebio(event, method), encoding="utf-8")
    again, again_method, report = _import(tmp_path, out, name="again.db")
    assert report.ok and report.disagreements == []  # type: ignore[attr-defined]
    assert (again.name, again.kind, again_method) == (event.name, event.kind, method)
    assert set(again.results) == set(event.results)
    assert again.boards == event.boards
    # The players too, names and membership numbers (both fixtures name every player).
    assert len(event.members) == len(event.participants()) and again.members == event.members


_RESULTS = ["4SN=", "4SN+1", "3NTS-2", "2HXE=", "1NTW+1", "Pass", "6DXXN-1"]


@st.composite
def _events(draw: st.DrawFn) -> Event:
    style = draw(st.sampled_from(["mitchell", "plain"]))
    results = []
    for board in range(1, draw(st.integers(1, 4)) + 1):
        tables = draw(st.integers(2, 4))
        for table in range(1, tables + 1):
            ns, ew = (
                (f"{table}NS", f"{table}EW")
                if style == "mitchell"
                else (str(table), str(table + 10))
            )
            kind = draw(st.sampled_from(["played", "score", "adjusted"]))
            if kind == "played":
                results.append(TableResult.played(board, ns, ew, draw(st.sampled_from(_RESULTS))))
            elif kind == "score":
                results.append(
                    TableResult(board, ns, ew, score=draw(st.sampled_from([-100, 0, 620])))
                )
            else:
                awards = st.sampled_from(list(Award))
                results.append(
                    TableResult(board, ns, ew, adjusted=Adjusted(draw(awards), draw(awards)))
                )
    names = sorted({r.ns for r in results} | {r.ew for r in results})
    player = st.builds(
        Member,
        st.text(alphabet="abcdefghij ABC'é&<>", min_size=1, max_size=10).map(str.strip),
        st.sampled_from(["", "1010", "EBU 77"]),
    ).filter(lambda member: bool(member.name))
    members = {
        name: tuple(draw(st.lists(player, max_size=2))) for name in names if draw(st.booleans())
    }
    return Event(
        draw(st.sampled_from(["", "Club night"])),
        "pairs",
        results=tuple(results),
        members={name: players for name, players in members.items() if players},
    )


@given(_events())
@settings(max_examples=40, deadline=None)
def test_any_pairs_event_round_trips(event: Event) -> None:
    imported = read_usebio_event(export_usebio(event).encode(), "rt.xml")
    assert imported.parsed.problems == []
    assert {r for r, _ in imported.parsed.results} == set(event.results)
    assert imported.parsed.members == event.members
    assert cross_check(imported) == []  # our own points read back agree with our scoring


# ------------------------------------------------------------------- CLI


def test_cli_import_export_and_report(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    result = runner.invoke(app, ["session", "import", str(db), str(PAIRS)])
    assert result.exit_code == 0, result.output
    assert "11 result(s) added" in result.output
    report = runner.invoke(app, ["session", "score", str(db)])
    assert report.exit_code == 0 and "matchpoints" in report.output
    out = tmp_path / "club.xml"
    exported = runner.invoke(app, ["session", "export", str(db), str(out)])
    assert exported.exit_code == 0, exported.output
    assert out.read_text(encoding="utf-8").count("<TRAVELLER_LINE>") == 11
    stdout = runner.invoke(app, ["session", "export", str(db), "-"])
    assert stdout.output.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    missing = runner.invoke(app, ["session", "export", str(tmp_path / "nope.db"), "-"])
    assert missing.exit_code == 2 and "no event in" in missing.output
    assert "nope.db" in missing.output


def _mutations(data: bytes, count: int) -> list[bytes]:
    import random

    rng = random.Random(15)
    out = []
    for _ in range(count):
        mutated = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            mutated[rng.randrange(len(mutated))] = rng.randrange(256)
        out.append(bytes(mutated[: rng.randint(0, len(mutated))]))
    out.append(data.replace(b"<TRICKS>10</TRICKS>", b"<TRICKS>ten</TRICKS>"))
    out.append(data.replace(b"A6040", b"A7030"))
    return out


@pytest.mark.parametrize("fixture", [PAIRS, TEAMS, DATA / "online_teams.pbn"])
def test_cli_over_mutated_files_never_shows_a_traceback(tmp_path: Path, fixture: Path) -> None:
    for number, data in enumerate(_mutations(fixture.read_bytes(), 25)):
        path = tmp_path / f"m{number}{fixture.suffix}"
        path.write_bytes(data)
        result = runner.invoke(
            app, ["session", "import", str(tmp_path / f"m{number}.db"), str(path)]
        )
        assert result.exit_code in (0, 1, 2), (number, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            number,
            result.exception,
        )
        assert "Traceback" not in result.output
        if result.exit_code:
            assert "error:" in result.output


def test_bad_lines_are_reported_with_their_line_numbers(tmp_path: Path) -> None:
    path = tmp_path / "bad.xml"
    path.write_bytes(
        PAIRS.read_bytes()
        .replace(b"<TRICKS>11</TRICKS>", b"<TRICKS>eleven</TRICKS>")
        .replace(b"A6040", b"A7030")
    )
    result = runner.invoke(app, ["session", "import", str(tmp_path / "b.db"), str(path)])
    assert result.exit_code == 1
    assert "TRICKS 'eleven' for '4H': expected the tricks declarer took" in result.output
    assert "adjusted score 'A7030'" in result.output
    assert "9 result(s) added" in result.output
    lines = PAIRS.read_bytes().split(b"\r\n")
    line = 1 + next(i for i, text in enumerate(lines) if b"<TRAVELLER_LINE>" in text)
    assert f"{path}:{line + 10}: board 1 2NS v 2EW" in result.output


# ----------------------------------------------------- killed and concurrent

# A child process that imports a file and stops (blocked) inside the transaction,
# after its first result is written, until told to go on.
_PAUSING_IMPORT = textwrap.dedent(
    """
    import sys
    from bridgescore.session.store import events as store_module
    from bridgescore.session.importers.importer import import_files

    original = store_module.EventStore._add_result
    paused = []

    def pausing(self, result, origin):
        report = original(self, result, origin)
        if not paused:
            paused.append(True)
            print("inside", flush=True)
            sys.stdin.readline()
        return report

    store_module.EventStore._add_result = pausing
    with store_module.EventStore(sys.argv[1]) as store:
        report = import_files(store, [sys.argv[2]])
    print("done", report.results.added, flush=True)
    """
)


def _child(db: Path, file: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", _PAUSING_IMPORT, str(db), str(file)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[3] / "src")},
    )


def test_kill_9_mid_import_leaves_the_event_as_it_was(tmp_path: Path) -> None:
    db = tmp_path / "ev.db"
    csv = tmp_path / "before.csv"
    csv.write_text("board,ns,ew,score\n9,1NS,1EW,420\n", encoding="utf-8")
    with EventStore(db) as store:
        import_files(store, [csv])
        before = store.load()
    child = _child(db, PAIRS)
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "inside"  # a result is written, not committed
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    with EventStore(db) as store:
        assert store.load() == before
        assert store.method is None and store.name == ""


def test_concurrent_imports_both_land(tmp_path: Path) -> None:
    db = tmp_path / "ev.db"
    other = tmp_path / "more.csv"
    other.write_text("board,ns,ew,score\n9,1NS,1EW,420\n9,2NS,2EW,-50\n", encoding="utf-8")
    first = _child(db, PAIRS)
    assert first.stdout is not None and first.stdin is not None
    assert first.stdout.readline().strip() == "inside"  # holds the write lock
    second = _child(db, other)  # waits for the lock while the first is paused
    first.stdin.write("\n")
    first.stdin.flush()
    assert first.stdout.readline().split() == ["done", "11"]
    assert second.stdout is not None and second.stdin is not None
    assert second.stdout.readline().strip() == "inside"
    second.stdin.write("\n")
    second.stdin.flush()
    assert second.stdout.readline().split() == ["done", "2"]
    for child in (first, second):
        child.stdin.close()  # type: ignore[union-attr]
        assert child.wait() == 0
    with EventStore(db) as store:
        assert len(store.load().results) == 13


def test_unsafe_or_foreign_xml_is_one_clear_error(tmp_path: Path) -> None:
    cases = {
        "bomb.xml": (
            b'<?xml version="1.0"?><!DOCTYPE USEBIO [<!ENTITY a "ha"><!ENTITY b "&a;&a;">]>'
            b"<USEBIO>&b;</USEBIO>",
            "bomb.xml:1: the file declares the entity 'a': entity declarations are refused",
        ),
        "page.xml": (b'<?xml version="1.0"?>\n<html/>', "page.xml:2: the document is <HTML>"),
        "cut.xml": (PAIRS.read_bytes()[:3000], "cut.xml:90: not well-formed XML (unclosed token)"),
    }
    for name, (data, message) in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        result = runner.invoke(app, ["session", "import", str(tmp_path / f"{name}.db"), str(path)])
        assert result.exit_code == 1
        assert f"error: {tmp_path / message}" in result.output
        assert "0 result(s) added" in result.output


def test_a_line_without_tricks_takes_them_from_its_score() -> None:
    text = PAIRS.read_bytes().replace(b"<TRICKS>11</TRICKS>", b"<TRICKS></TRICKS>")
    text = text.replace(b"<TRICKS>7</TRICKS>", b"<TRICKS/>")  # 1NT by W, -90 for NS
    imported = read_usebio_event(text, "t.xml")
    results = {(r.board, r.ns): r for r, _ in imported.parsed.results}
    assert results[(1, "2NS")].result == parse_result("4HN+1")  # +450: 11 tricks, no other count
    assert results[(3, "1NS")].result == parse_result("1NTW=")
    impossible = PAIRS.read_bytes().replace(b"<TRICKS>10</TRICKS>", b"<TRICKS></TRICKS>", 1)
    impossible = impossible.replace(b"<SCORE>420</SCORE>", b"<SCORE>430</SCORE>", 1)
    problems = read_usebio_event(impossible, "t.xml").parsed.problems
    assert [p.message for p in problems] == [
        "board 1 1NS v 1EW: no TRICKS, and SCORE '430' is not the score of '4H N' with any "
        "number of tricks: expected TRICKS 0-13"
    ]


def test_matchpoints_on_the_acbl_scale_agree_too() -> None:
    """The fixture's points halved by hand (1/0.5 scale, Neuberg'd, rounded to 0.1)."""
    board_1 = ["2", "1", "3", "0", "1", "2", "0", "3"]
    board_2 = ["0.2", "2.8", "2.8", "0.2", "1.5", "1.5", "1.8", "1.2"]
    board_3 = ["0.2", "2.8", "1.5", "1.5", "2.8", "0.2"]
    halved = iter([*board_1, *board_2, *board_3])
    text = re.sub(
        rb"(<(?:NS|EW)_MATCH_POINTS>)[^<]*(<)",
        lambda m: m[1] + next(halved).encode() + m[2],
        PAIRS.read_bytes(),
    )
    assert cross_check(read_usebio_event(text, "acbl.xml")) == []
    wrong = text.replace(b"<NS_MATCH_POINTS>1.8<", b"<NS_MATCH_POINTS>1.6<")
    assert len(cross_check(read_usebio_event(wrong, "acbl.xml"))) == 1


def test_sections_are_read_and_written() -> None:
    """Two sections of two tables; scored within each section, as the file's scorer did."""
    text = """<USEBIO Version="1.2"><EVENT EVENT_TYPE="MP_PAIRS"><SESSION>
<SECTION SECTION_ID="A"><BOARD><BOARD_NUMBER>1</BOARD_NUMBER>
<TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>
<CONTRACT>4S</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>10</TRICKS><SCORE>420</SCORE>
<NS_MATCH_POINTS>2</NS_MATCH_POINTS><EW_MATCH_POINTS>0</EW_MATCH_POINTS></TRAVELLER_LINE>
<TRAVELLER_LINE><NS_PAIR_NUMBER>3</NS_PAIR_NUMBER><EW_PAIR_NUMBER>4</EW_PAIR_NUMBER>
<CONTRACT>2S</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>10</TRICKS><SCORE>170</SCORE>
<NS_MATCH_POINTS>0</NS_MATCH_POINTS><EW_MATCH_POINTS>2</EW_MATCH_POINTS></TRAVELLER_LINE>
</BOARD></SECTION>
<SECTION SECTION_ID="B"><BOARD><BOARD_NUMBER>1</BOARD_NUMBER>
<TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>
<CONTRACT>3NT</CONTRACT><PLAYED_BY>S</PLAYED_BY><TRICKS>8</TRICKS><SCORE>-50</SCORE>
<NS_MATCH_POINTS>0</NS_MATCH_POINTS><EW_MATCH_POINTS>2</EW_MATCH_POINTS></TRAVELLER_LINE>
<TRAVELLER_LINE><NS_PAIR_NUMBER>3</NS_PAIR_NUMBER><EW_PAIR_NUMBER>4</EW_PAIR_NUMBER>
<CONTRACT>1NT</CONTRACT><PLAYED_BY>S</PLAYED_BY><TRICKS>7</TRICKS><SCORE>90</SCORE>
<NS_MATCH_POINTS>2</NS_MATCH_POINTS><EW_MATCH_POINTS>0</EW_MATCH_POINTS></TRAVELLER_LINE>
</BOARD></SECTION></SESSION></EVENT></USEBIO>"""
    imported = read_usebio_event(text, "s.xml")
    results = {(r.section, r.ns): r for r, _ in imported.parsed.results}
    assert sorted(results) == [("A", "1"), ("A", "3"), ("B", "1"), ("B", "3")]
    # Across the field 170 would beat -50 and 90; within section A it beats nothing.
    assert cross_check(imported) == []
    event = Event("", "pairs", results=tuple(results.values()))
    exported = export_usebio(event)
    assert exported.count("<SECTION SECTION_ID=") == 2
    again = read_usebio_event(exported, "again.xml")
    assert {r for r, _ in again.parsed.results} == set(event.results)


def test_the_web_page_scores_by_the_files_method_too(tmp_path: Path) -> None:
    from bridgescore.web.views import session_view

    path = tmp_path / "cross.xml"
    path.write_bytes(PAIRS.read_bytes().replace(b'"MP_PAIRS"', b'"CROSS_IMP"'))
    with EventStore(tmp_path / "x.db") as store:
        report = import_files(store, [path])
    # The file still says MATCH_POINTS: the specific EVENT_TYPE wins, and the import says so.
    assert any("name different methods: scored by cross-imps" in n for n in report.notes)
    assert session_view(tmp_path / "x.db")["method"] == "cross-imps"


def test_files_are_recognised_by_content_not_name(tmp_path: Path) -> None:
    usebio = tmp_path / "results.txt"
    usebio.write_bytes(PAIRS.read_bytes())
    online = tmp_path / "league.txt"
    online.write_bytes((DATA / "online_teams.pbn").read_bytes())
    pairs_event, method, _ = _import(tmp_path, usebio, name="p.db")
    teams_event, _, _ = _import(tmp_path, online, name="t.db")
    assert (len(pairs_event.results), pairs_event.kind, method) == (11, "pairs", "mp")
    assert (len(teams_event.results), teams_event.kind) == (8, "teams")
