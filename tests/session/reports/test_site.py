"""``session report EV --html DIR/``: the static results site, its links, and a phone screen."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.session.reports.site import results_site, write_site
from web_helpers import EW_MATCHPOINTS, NS_MATCHPOINTS, make_event, vectors

runner = CliRunner()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("site")
    event = make_event(root / "tuesday.db")
    out = root / "results"
    result = runner.invoke(app, ["session", "report", str(event), "--html", f"{out}/"])
    assert result.exit_code == 0, result.output
    return out


def links(page: Path) -> set[str]:
    return set(re.findall(r'href="([^"]+)"', page.read_text()))


def test_files_of_the_site(site: Path) -> None:
    names = sorted(path.name for path in site.iterdir())
    assert names == [
        "board-1.html", "board-2.html", "board-3.html", "index.html",
        *[f"pair-{n}.html" for n in range(1, 7)], "style.css",
    ]  # fmt: skip


def test_ranking_links_every_pair_and_board(site: Path) -> None:
    index = site / "index.html"
    assert {f"pair-{n}.html" for n in range(1, 7)} <= links(index)
    assert {f"board-{n}.html" for n in range(1, 4)} <= links(index)
    text = index.read_text()
    # Matchpoint totals worked by hand (tests/web_helpers.py, Law 77 scores).
    for pair, total in {**NS_MATCHPOINTS, **EW_MATCHPOINTS}.items():
        row = re.search(rf'<a href="pair-{pair}.html">{pair}</a></td><td class=n>3</td>'
                        r"<td class=n>([\d.]+)</td>", text)  # fmt: skip
        assert row is not None and float(row[1]) == total, pair


def test_board_page_has_traveller_and_hand_record(site: Path) -> None:
    page = site / "board-1.html"
    text = page.read_text()
    assert {"pair-1.html", "pair-4.html", "index.html", "board-2.html"} <= links(page)
    # The hand record of board 1: the first reference deal, its DD table and par.
    vector = vectors(1)[0]
    north = vector["deal"][2:].split()[0]  # "KJ52.K7.T85.AJ87"
    spades = north.split(".")[0]
    assert f'<span class="black">♠</span> {spades}' in text
    rows = dict(re.findall(r"<tr><th>([NSEW])</th>((?:<td>\d+</td>)+)</tr>", text))
    north_tricks = [int(c, 16) for c in vector["dd"][:5]]  # N: NT S H D C
    assert re.findall(r"\d+", rows["N"]) == [str(t) for t in north_tricks]
    neutral = vector["par"]["None"]["neutral"]
    assert f"Par NS +{neutral['score']}" in text
    # The traveller: pair 1 NS made 1NT+1 for +120 and 4 matchpoints on a top of 4.
    assert re.search(r'pair-1.html">1</a></td><td><a href="pair-4.html">4</a></td>'
                     r"<td>1NTN\+1</td><td class=n>\+120</td><td class=n>4</td>", text)  # fmt: skip


def test_scorecard_lists_every_board_with_links_back(site: Path) -> None:
    page = site / "pair-1.html"
    text = page.read_text()
    assert {"board-1.html", "board-2.html", "board-3.html", "pair-4.html"} <= links(page)
    # Pair 1 sat NS: 1NTN+1 (4 MP), 4HS= (2 MP), 3NTW= (2 MP): total 8.
    cells = re.findall(r'<a href="board-(\d)\.html">\d</a></td><td>(NS|EW)</td>', text)
    assert cells == [("1", "NS"), ("2", "NS"), ("3", "NS")]
    assert "<b>8</b>" in text
    # IMPs against par on board 1: +120 against a par of +120 is 0.
    first = re.search(r"board-1\.html.*?</tr>", text)
    assert first is not None and first[0].endswith("<td class=n>0</td></tr>")
    # An EW pair's scores are from its own side: pair 4 lost 120 on board 1.
    assert "<td class=n>-120</td>" in (site / "pair-4.html").read_text()


def test_names_are_escaped_and_files_replaced_whole(tmp_path: Path) -> None:
    from bridgescore.session.scoring.event import Event, TableResult
    from bridgescore.session.scoring.scorer import score_event

    results = (
        TableResult.played(1, "A&B", "<C>", "4SN="),
        TableResult.played(1, "D", "E", "4SN+1"),
    )
    event = Event("<Club>", "pairs", results=results)
    pages = results_site(score_event(event, "mp"))
    assert "&lt;Club&gt;" in pages["index.html"] and "<C>" not in pages["board-1.html"]
    assert "pair-a-b.html" in pages and "pair-c.html" in pages
    write_site(pages, tmp_path / "out")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(pages)


def test_a_file_name_still_writes_one_page(tmp_path: Path) -> None:
    event = make_event(tmp_path / "e.db")
    result = runner.invoke(
        app, ["session", "report", str(event), "--html", str(tmp_path / "r.html")]
    )
    assert result.exit_code == 0 and (tmp_path / "r.html").is_file()


def scored_pairs(results: list[tuple[int, str, str, str]]) -> dict[str, str]:
    """The site of a pairs event of (board, NS, EW, result)."""
    from bridgescore.session.scoring.event import Event, TableResult
    from bridgescore.session.scoring.scorer import score_event

    played = tuple(TableResult.played(*result) for result in results)
    return results_site(score_event(Event("Club", "pairs", results=played), "mp"))


def pair_links(index: str) -> dict[str, str]:
    """Each participant's name as the ranking shows it -> the page it links to."""
    return {name: page for page, name in re.findall(r'<a href="(pair-[^"]+)">([^<]+)</a>', index)}


def test_names_that_slug_alike_get_numbered_pages_in_order_of_play() -> None:
    # Names in other scripts have no ASCII letters or digits: each slug is "x". The
    # rule: pages in the order participants first appear (board by board, NS then EW),
    # "pair-x.html", then the next free of "pair-x-2.html", "pair-x-3.html", ...
    # "x 2" is the slug "x-2" itself, so the Greek name after it skips to -3.
    pages = scored_pairs(
        [
            (1, "Ярослав", "x 2", "4SN="),
            (2, "Ζήτα", "中文", "4SN+1"),
            (3, "X", "Ωμέγα", "3NTS="),
        ]
    )
    expected = {
        "Ярослав": "pair-x.html",
        "x 2": "pair-x-2.html",
        "Ζήτα": "pair-x-3.html",
        "中文": "pair-x-4.html",
        "X": "pair-x-5.html",
        "Ωμέγα": "pair-x-6.html",
    }
    assert pair_links(pages["index.html"]) == expected
    for name, page in expected.items():
        assert f"<h1>Pair {name}</h1>" in pages[page]


def test_a_thousand_one_hundred_pairs_in_another_script_each_get_their_own_page() -> None:
    # The attack: 1,100 names that all slug to "x" (cubic time before). Here every
    # page exists, is different, and is the scorecard of the pair that links to it.
    letters = "абвгдежзиклмнопрстуфхцчшщэюя"
    names = ["".join(word) for word in itertools.islice(itertools.product(letters, repeat=3), 1100)]
    tables = [
        (board, names[t], names[550 + t], ("4SN=", "4SN+1", "3NTS-1")[t % 3])
        for board in (1, 2)
        for t in range(550)
    ]
    pages = scored_pairs(tables)
    links = pair_links(pages["index.html"])
    assert sorted(links) == sorted(names)
    assert sorted(links.values()) == sorted(
        ["pair-x.html", *[f"pair-x-{n}.html" for n in range(2, 1101)]]
    )
    for name, page in links.items():
        assert f"<h1>Pair {name}</h1>" in pages[page]


# Two sections, A and B, on boards 1 and 2; pairs 1 and 3 sit NS, 2 and 4 EW (Law 77,
# nobody vulnerable on board 1, NS on board 2):
#   board 1: A 1v2 4SN= +420, A 3v4 4SN+1 +450; B 1v2 4SN-1 -50, B 3v4 3NTN= +400
#   board 2: A 1v2 2HN= +110, A 3v4 2HN= +110; B 1v2 2HN= +110, B 3v4 3HN= +140
# Per section (top 2): A b1 3 2, 1 0 (EW 2 2, 4 0); b2 all tie, 1 each.
#   A: 3 3, 1 1; EW 2 3, 4 1.  B: 3 4, 1 0; EW 2 4, 4 0 (b1 and b2 the same way).
# Across (top 6): b1 A3 6, A1 4, B3 2, B1 0; b2 +110 three times, 2 each, B3 +140 6.
#   NS: A3 8, B3 8, A1 6, B1 2; EW (6 less their NS's): A2 2 + 4 = 6, A4 0 + 4 = 4,
#   B2 6 + 4 = 10, B4 4 + 0 = 4.
TWO_SECTIONS = [
    ("A", 1, "1", "2", "4SN="), ("A", 1, "3", "4", "4SN+1"),
    ("B", 1, "1", "2", "4SN-1"), ("B", 1, "3", "4", "3NTN="),
    ("A", 2, "1", "2", "2HN="), ("A", 2, "3", "4", "2HN="),
    ("B", 2, "1", "2", "2HN="), ("B", 2, "3", "4", "3HN="),
]  # fmt: skip


def two_section_site(*, per_section: bool) -> dict[str, str]:
    from bridgescore.session.scoring.event import Event, TableResult
    from bridgescore.session.scoring.methods import ScoringOptions
    from bridgescore.session.scoring.scorer import score_event

    results = tuple(
        TableResult.played(board, ns, ew, result, section=section)
        for section, board, ns, ew, result in TWO_SECTIONS
    )
    scored = score_event(
        Event("Congress", "pairs", results=results), "mp", ScoringOptions(per_section=per_section)
    )
    return results_site(scored)


def ranking_rows(index: str) -> dict[str, list[tuple[str, str, str, str]]]:
    """Each ranking table of the index (by its heading): (page, section, pair, total)."""
    tables: dict[str, list[tuple[str, str, str, str]]] = {}
    for heading, table in re.findall(r"<h2>([^<]+)</h2>(<div class=\"scroll\">.*?</table>)", index):
        tables[heading] = [
            (page, section, name, total)
            for section, page, name, total in re.findall(
                r'<tr><td>[^<]*</td><td>(\w)</td><td><a href="([^"]+)">(\w+)</a></td>'
                r"<td class=n>\d+</td><td class=n>([\d.]+)</td>",
                table,
            )
        ]
    return tables


def test_two_sections_ranked_apart_link_each_row_to_its_own_sections_pair() -> None:
    pages = two_section_site(per_section=True)
    assert ranking_rows(pages["index.html"]) == {
        "Section A, North-South": [
            ("pair-a-3.html", "A", "3", "3"),
            ("pair-a-1.html", "A", "1", "1"),
        ],
        "Section A, East-West": [
            ("pair-a-2.html", "A", "2", "3"),
            ("pair-a-4.html", "A", "4", "1"),
        ],
        "Section B, North-South": [
            ("pair-b-3.html", "B", "3", "4"),
            ("pair-b-1.html", "B", "1", "0"),
        ],
        "Section B, East-West": [
            ("pair-b-2.html", "B", "2", "4"),
            ("pair-b-4.html", "B", "4", "0"),
        ],
    }
    # Each section's pair has its own scorecard: B's pair 3 scored 2 + 2 of 4 (100 %).
    assert "<h1>Pair 3 (B)</h1>" in pages["pair-b-3.html"]
    assert "Rank 1 North-South: 100 % over 2 board(s)" in pages["pair-b-3.html"]
    assert "Rank 1 North-South: 75 % over 2 board(s)" in pages["pair-a-3.html"]
    # A board's page steps through its own section's boards.
    assert links_of(pages["board-1-b.html"]) >= {"board-2-b.html", "pair-b-1.html"}
    assert "board-2-a.html" not in links_of(pages["board-1-b.html"])
    assert "board-1-a.html" not in links_of(pages["board-2-b.html"])
    assert "board-1-b.html" in links_of(pages["board-2-b.html"])


def test_two_sections_ranked_across_link_each_row_to_its_own_sections_pair() -> None:
    pages = two_section_site(per_section=False)
    rows = ranking_rows(pages["index.html"])
    assert sorted(rows) == ["East-West", "North-South"]
    assert sorted(rows["North-South"]) == [
        ("pair-a-1.html", "A", "1", "6"), ("pair-a-3.html", "A", "3", "8"),
        ("pair-b-1.html", "B", "1", "2"), ("pair-b-3.html", "B", "3", "8"),
    ]  # fmt: skip
    assert rows["East-West"][0] == ("pair-b-2.html", "B", "2", "10")
    assert sorted(rows["East-West"][1:]) == [
        ("pair-a-2.html", "A", "2", "6"), ("pair-a-4.html", "A", "4", "4"),
        ("pair-b-4.html", "B", "4", "4"),
    ]  # fmt: skip
    # One traveller a board, every section's lines on it, each linking its own pair.
    assert {"board-1.html", "board-2.html"} <= set(pages)
    assert {"pair-a-1.html", "pair-b-1.html"} <= links_of(pages["board-1.html"])


def links_of(page: str) -> set[str]:
    return set(re.findall(r'href="([^"]+)"', page))
