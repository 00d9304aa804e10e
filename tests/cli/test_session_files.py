"""The files ``bridgescore session`` takes and writes: ``new --club`` and ``--boards``,
``report --html`` (a folder or a .html page, anything else refused) and ``--pdf``
(the refusals; the printing itself is tests/session/reports/test_paper.py), and the club in
``session export``."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.deal import Deal
from bridgescore.session.store.events import EventStore

runner = CliRunner()

DEAL = "N:AKQJ.AKQ.AKQ.AKQ 432.432.5432.432 T98.JT9.JT9.JT98 765.8765.876.765"
HANDS = f'[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{DEAL}"]\n'


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["session", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def new(tmp_path: Path, *extra: str | Path) -> tuple[int, str, str]:
    return run(
        "new", tmp_path / "club.db", "--movement", "mitchell", "--tables", "3",
        "--boards-per-round", "2", *extra,
    )  # fmt: skip


def scored_event(tmp_path: Path) -> Path:
    """An imported event with one board played twice, for the report's refusals."""
    event = tmp_path / "club.db"
    csv = tmp_path / "t.csv"
    csv.write_text("board,ns,ew,score\n1,1,2,+420\n1,3,4,-50\n", encoding="utf-8")
    assert run("import", event, csv)[0] == 0
    return event


# ------------------------------------------------------------------ --club


def test_new_club_is_kept_and_exported_as_the_club_name(tmp_path: Path) -> None:
    code, _, err = new(tmp_path, "--club", "  Riverside   Bridge Club ")
    assert code == 0, err
    with EventStore(tmp_path / "club.db", mode="read") as store:
        assert store.club == "Riverside Bridge Club"
    xml = tmp_path / "club.xml"
    code, _, err = run("export", tmp_path / "club.db", xml)
    assert code == 0, err
    root = ET.fromstring(xml.read_text(encoding="utf-8").split("\n", 2)[2])
    assert root.findtext("CLUB/CLUB_NAME") == "Riverside Bridge Club"


def test_new_refuses_an_empty_club_before_making_the_event(tmp_path: Path) -> None:
    code, _, err = new(tmp_path, "--club", "   ")
    assert code == 2
    assert "--club: club name '   ': expected text of 1 to 120 characters" in err
    assert not (tmp_path / "club.db").exists()


# ------------------------------------------------------------------ --boards


def test_new_boards_attaches_the_hand_records(tmp_path: Path) -> None:
    hands = tmp_path / "hands.pbn"
    hands.write_text(HANDS, encoding="utf-8")
    code, out, err = new(tmp_path, "--boards", hands)
    assert code == 0, err
    assert f"1 hand record(s) attached from {hands}" in out
    with EventStore(tmp_path / "club.db", mode="read") as store:
        boards = store.boards()
    assert list(boards) == [1]
    assert boards[1].deal == Deal.from_pbn(DEAL)


def test_new_boards_with_results_is_refused_and_nothing_is_made(tmp_path: Path) -> None:
    played = tmp_path / "played.pbn"
    played.write_text(
        HANDS + '[PairNS "1"]\n[PairEW "2"]\n[Declarer "N"]\n[Contract "4S"]\n[Result "10"]\n',
        encoding="utf-8",
    )
    code, _, err = new(tmp_path, "--boards", played)
    assert code == 2
    assert f"--boards {str(played)!r} holds 1 result(s): expected hand records alone" in err
    assert not (tmp_path / "club.db").exists()


def test_new_boards_without_deals_is_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty.pbn"
    empty.write_text('[Event "x"]\n[Board "1"]\n', encoding="utf-8")
    code, _, err = new(tmp_path, "--boards", empty)
    assert code == 2 and "empty.pbn" in err
    assert not (tmp_path / "club.db").exists()


# ------------------------------------------------------------------ report --html / --pdf


def test_html_naming_a_pdf_is_refused_and_no_folder_is_made(tmp_path: Path) -> None:
    event = scored_event(tmp_path)
    out = tmp_path / "out.pdf"
    code, _, err = run("report", event, "--html", out)
    assert code == 2
    assert f"--html {str(out)!r} names a PDF: print the report with --pdf {str(out)!r}" in err
    assert not out.exists()


def test_html_naming_an_existing_file_is_refused(tmp_path: Path) -> None:
    event = scored_event(tmp_path)
    existing = tmp_path / "ranking"
    existing.write_text("keep me", encoding="utf-8")
    code, _, err = run("report", event, "--html", existing)
    assert code == 2
    assert f"--html {str(existing)!r} is an existing file: expected a folder" in err
    assert existing.read_text(encoding="utf-8") == "keep me"


def test_html_with_another_suffix_is_refused(tmp_path: Path) -> None:
    event = scored_event(tmp_path)
    code, _, err = run("report", event, "--html", tmp_path / "ranking.txt")
    assert code == 2
    assert "ends in '.txt': expected a folder for the results site" in err
    assert not (tmp_path / "ranking.txt").exists()


def test_html_page_and_site_still_written(tmp_path: Path) -> None:
    event = scored_event(tmp_path)
    page, site = tmp_path / "club.html", tmp_path / "site"
    assert run("report", event, "--html", page)[0] == 0
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert run("report", event, "--html", site)[0] == 0
    assert (site / "index.html").is_file() and (site / "board-1.html").is_file()


def test_pdf_naming_an_html_page_is_refused(tmp_path: Path) -> None:
    event = scored_event(tmp_path)
    out = tmp_path / "report.html"
    code, _, err = run("report", event, "--pdf", out)
    assert code == 2
    assert f"--pdf {str(out)!r} names an HTML page: expected a .pdf file" in err
    assert not out.exists()


# ------------------------------------------------------------------ names from a CSV


def test_import_of_a_names_csv_sets_each_pairs_players(tmp_path: Path) -> None:
    assert new(tmp_path)[0] == 0
    names = tmp_path / "names.csv"
    names.write_text(
        "pair,player,player\n1N,Ann Archer,Bob Baker\n1E,Cate Cole,Dan Dale\n9N,Nobody,Else\n",
        encoding="utf-8",
    )
    code, _, err = run("import", tmp_path / "club.db", names)
    assert code == 1  # one bad line
    assert f"{names}:4: pair '9N' is not in the event's movement: expected one of 1N" in err
    with EventStore(tmp_path / "club.db", mode="read") as store:
        players = {pair: [m.name for m in named] for pair, named in store.members().items()}
    assert players == {"1N": ["Ann Archer", "Bob Baker"], "1E": ["Cate Cole", "Dan Dale"]}


def test_a_names_line_of_three_players_under_a_header_of_two_is_bad(tmp_path: Path) -> None:
    assert new(tmp_path)[0] == 0
    names = tmp_path / "names.csv"
    names.write_text(
        "pair,player,player\n1N,Ann Archer,Bob Baker,Cy Cole\n1E,Cate Cole,Dan Dale\n"
        "2N,Eve Ellis\n",
        encoding="utf-8",
    )
    code, _, err = run("import", tmp_path / "club.db", names)
    assert code == 1  # two bad lines, each with its number
    assert f"{names}:2: pair '1N': 4 cells where the header names 3 columns" in err
    assert f"{names}:4: pair '2N': 2 cells where the header names 3 columns" in err
    with EventStore(tmp_path / "club.db", mode="read") as store:
        players = {pair: [m.name for m in named] for pair, named in store.members().items()}
    assert players == {"1E": ["Cate Cole", "Dan Dale"]}  # nothing of lines 2 and 4


def test_html_ending_in_a_slash_is_a_site_whatever_its_suffix(tmp_path: Path) -> None:
    event = scored_event(tmp_path)
    site = tmp_path / "site.2026"
    assert run("report", event, "--html", f"{site}/")[0] == 0
    assert (site / "index.html").is_file()


def test_html_page_carries_each_known_boards_hand_record(tmp_path: Path) -> None:
    event = scored_event(tmp_path)
    hands = tmp_path / "hands.pbn"
    hands.write_text(HANDS, encoding="utf-8")
    assert run("import", event, hands)[0] == 0
    page = tmp_path / "club.html"
    assert run("report", event, "--html", page)[0] == 0
    text = page.read_text(encoding="utf-8")
    # Board 1's hand record: North's spades, and par 7NT by NS (every trick theirs), +1520.
    record = text[text.index('id="record-1"') :]
    assert "AKQJ" in record and "7NT" in record and "+1520" in record


def test_pdf_without_chromium_says_so_after_the_ranking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = scored_event(tmp_path)
    monkeypatch.setenv("BRIDGESCORE_CHROMIUM", str(tmp_path / "no-such-browser"))
    out = tmp_path / "report.pdf"
    code, stdout, err = run("report", event, "--pdf", out)
    assert code == 2
    assert f"error: cannot print {str(out)!r}: PDF needs headless Chromium" in err
    assert "write the page with --html 'report.html'" in err
    assert "Rank" in stdout  # the ranking was printed first
    assert not out.exists()
