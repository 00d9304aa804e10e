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
