"""Guide cards and table cards (session/reports/cards.py): their content read back from the
HTML, the tables' links as QR codes, and the PDF printed by the real Chromium.

Set ``BRIDGESCORE_SCREENSHOTS=1`` to refresh docs/img/cards.png.
"""

from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bridgescore.boardset.pdf import chromium_path
from bridgescore.errors import (
    ArgumentTypeError,
    BridgeError,
    InvalidArgumentError,
    MovementError,
)
from bridgescore.movement.mitchell import mitchell
from bridgescore.movement.model import Movement, Sitout, rows_from
from bridgescore.session.reports.cards import (
    cards_html,
    guide_cards_html,
    table_cards_html,
    write_cards,
)
from hand_movements import HOWELL_5, MITCHELL_3, RELAY_4
from web_helpers import chromium

ROOT = Path(__file__).resolve().parents[3]

# Three teams, a round robin: each match is two rows with the same boards, table 1
# (the open room) and table 2 (the closed room); the third team has the bye.
TEAMS_3 = Movement(
    "teams",
    tables=2,
    rounds=3,
    boards_per_round=2,
    rows=rows_from(
        [
            (1, 1, "1", "2", [1, 2]),
            (1, 2, "2", "1", [1, 2]),
            (2, 1, "1", "3", [3, 4]),
            (2, 2, "3", "1", [3, 4]),
            (3, 1, "2", "3", [5, 6]),
            (3, 2, "3", "2", [5, 6]),
        ]
    ),
    sitouts=(Sitout(1, "3"), Sitout(2, "2"), Sitout(3, "1")),
)

LINKS = {
    1: "https://club.example/live/table?token=Zm9vYmFy0123456789abcdef&section=A",
    2: "https://club.example/live/table?token=YmFyYmF6ZmVkY2JhOTg3NjU0&section=A",
    3: "https://club.example/live/table?token=cXV4cXV1eHh5enp5MTIzNDU2&section=A",
}


class Card:
    def __init__(self, ident: str) -> None:
        self.ident = ident
        self.rows: list[list[str]] = []
        self.headings: list[str] = []
        self.event = ""
        self.svgs: list[str] = []
        self.paths: list[str] = []
        self.caption = ""


class _Reader(HTMLParser):
    """Each card (``<article>``) by id: its heading, event line, body rows as cell
    texts, and any QR code (the svg's viewBox and the path data)."""

    def __init__(self) -> None:
        super().__init__()
        self.cards: dict[str, Card] = {}
        self.card: Card | None = None
        self.text: list[str] | None = None
        self.where = ""
        self.row: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "article":
            self.card = self.cards.setdefault(str(found["id"]), Card(str(found["id"])))
        elif self.card is None:
            return
        elif tag == "tr":
            self.row = []
        elif tag == "td" or tag in ("h2", "figcaption") or found.get("class") == "event":
            self.text, self.where = [], tag if tag != "p" else "event"
        elif tag == "svg":
            self.card.svgs.append(str(found.get("viewbox")))
        elif tag == "path":
            self.card.paths.append(str(found.get("d")))
        elif tag == "br" and self.text is not None:
            self.text.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if self.card is None:
            return
        if tag == "article":
            self.card = None
        elif tag == "tr" and self.row:
            self.card.rows.append(self.row)
            self.row = None
        elif self.text is not None and tag in ("td", "h2", "figcaption", "p"):
            words = " ".join("".join(self.text).split())
            if tag == "td" and self.row is not None:
                self.row.append(words)
            elif tag == "h2":
                self.card.headings.append(words)
            elif tag == "figcaption":
                self.card.caption = words
            elif self.where == "event":
                self.card.event = words
            self.text = None

    def handle_data(self, data: str) -> None:
        if self.text is not None:
            self.text.append(data)


def read_cards(page: str) -> dict[str, Card]:
    reader = _Reader()
    reader.feed(page)
    return reader.cards


# ------------------------------------------------------------------ guide cards


def test_mitchell_guide_cards_follow_each_pair() -> None:
    cards = read_cards(cards_html(MITCHELL_3, event="Tuesday pairs"))
    assert [c for c in cards if c.startswith("pair-")] == [
        "pair-1N", "pair-1E", "pair-2N", "pair-2E", "pair-3N", "pair-3E",
    ]  # fmt: skip
    one_n = cards["pair-1N"]
    assert one_n.headings == ["Pair 1N"]
    assert one_n.event == "Tuesday pairs · Section A"
    # Round, table, direction (the arrow switch of round 3 marked), opponents, boards.
    assert one_n.rows == [
        ["1", "1", "NS", "1E", "1–2"],
        ["2", "1", "NS", "3E", "3–4"],
        ["3", "1", "NS ⇄ plays EW", "2E", "5–6"],
    ]
    assert cards["pair-1E"].rows == [
        ["1", "1", "EW", "1N", "1–2"],
        ["2", "2", "EW", "2N", "5–6"],
        ["3", "3", "EW ⇄ plays NS", "3N", "3–4"],
    ]


def test_table_cards_say_where_the_boards_go_next() -> None:
    cards = read_cards(cards_html(MITCHELL_3, event="Tuesday pairs"))
    assert [c for c in cards if c.startswith("table-")] == ["table-1", "table-2", "table-3"]
    table_2 = cards["table-2"]
    assert table_2.headings == ["Table 2"]
    assert table_2.event == "Tuesday pairs · Section A"
    # Round, NS, EW, boards, where the boards go: down a table, collected at the end.
    assert table_2.rows == [
        ["1", "2N", "2E", "3–4", "table 1"],
        ["2", "2N", "1E", "5–6", "table 1"],
        ["3 ⇄", "2N", "3E", "1–2", "collect"],
    ]
    assert cards["table-1"].rows[0] == ["1", "1N", "1E", "1–2", "table 3"]


def test_sit_outs_the_bye_stand_and_boards_that_stay() -> None:
    cards = read_cards(cards_html(HOWELL_5))
    assert list(cards) == [
        "pair-1", "pair-2", "pair-3", "pair-4", "pair-5", "table-1", "table-2",
    ]  # fmt: skip
    assert cards["pair-5"].rows == [
        ["1", "sit out"],
        ["2", "1", "NS", "3", "1–2"],
        ["3", "2", "NS", "1", "3–4"],
        ["4", "2", "EW", "4", "9–10"],
        ["5", "1", "EW", "2", "11–12"],
    ]
    assert cards["pair-1"].rows[-1] == ["5", "sit out"]
    assert cards["table-1"].rows == [
        ["1", "1", "4", "1–2", "stay at this table"],
        ["2", "5", "3", "1–2", "collect"],
        ["3", "4", "2", "7–8", "stay at this table"],
        ["4", "3", "1", "7–8", "collect"],
        ["5", "2", "5", "11–12", "collect"],
    ]
    assert [row[-1] for row in cards["table-2"].rows] == [
        "bye stand", "bye stand", "collect", "collect", "collect",
    ]  # fmt: skip
    # No section name given but the movement's own ("A"); no event.
    assert cards["table-2"].event == "Section A"


def test_relay_tables_show_the_boards_they_share() -> None:
    cards = read_cards(cards_html(RELAY_4))
    assert cards["table-1"].rows == [
        ["1", "1N", "1E", "1–2 shared with table 4", "table 3"],
        ["2", "1N", "4E", "3–4 shared with table 4", "table 3"],
        ["3", "1N", "3E", "7–8 shared with table 4", "collect"],
    ]
    assert cards["table-2"].rows == [
        ["1", "2N", "2E", "3–4", "relay: tables 1 and 4"],
        ["2", "2N", "1E", "7–8", "relay: tables 1 and 4"],
        ["3", "2N", "4E", "5–6", "collect"],
    ]
    assert cards["table-3"].rows[0] == ["1", "3N", "3E", "5–6", "bye stand"]


def test_teams_cards_show_both_rooms_of_a_match() -> None:
    cards = read_cards(cards_html(TEAMS_3, event="Club teams"))
    assert cards["pair-1"].headings == ["Team 1"]
    assert cards["pair-1"].rows == [
        ["1", "1", "NS", "2", "1–2"],
        ["1", "2", "EW", "2", "1–2"],
        ["2", "1", "NS", "3", "3–4"],
        ["2", "2", "EW", "3", "3–4"],
        ["3", "bye"],
    ]
    assert cards["table-2"].rows[0] == ["1", "2", "1", "1–2 shared with table 1", "collect"]


def test_event_names_are_text_and_no_script() -> None:
    page = cards_html(MITCHELL_3, event="<b>& co", links=LINKS)
    assert "<script" not in page.lower() and "<b>" not in page
    # Six guide cards and three table cards, each naming the event (and the title once).
    assert page.count("&lt;b&gt;&amp; co · Section A") == 9
    assert all(c.event == "<b>& co · Section A" for c in read_cards(page).values())


def test_separate_documents_and_order() -> None:
    guides = read_cards(guide_cards_html(MITCHELL_3))
    tables = read_cards(table_cards_html(MITCHELL_3))
    assert set(guides) == {f"pair-{n}{d}" for n in "123" for d in "NE"}
    assert set(tables) == {"table-1", "table-2", "table-3"}
    page = cards_html(MITCHELL_3)
    assert page.index("<h1>Guide cards</h1>") < page.index("<h1>Table cards</h1>")
    assert "@page { size: A4;" in page
    assert "@page { size: letter;" in cards_html(MITCHELL_3, paper="letter")


def test_a_pair_at_two_tables_is_refused() -> None:
    broken = Movement(
        "mitchell",
        tables=2,
        rounds=1,
        boards_per_round=1,
        rows=rows_from([(1, 1, "1N", "1E", [1]), (1, 2, "1N", "2E", [2])]),
    )
    with pytest.raises(MovementError, match=r"round 1, tables 1 and 2: pair 1N is at both"):
        cards_html(broken)
    sitting = Movement(
        "howell",
        tables=1,
        rounds=1,
        boards_per_round=1,
        rows=rows_from([(1, 1, "1", "2", [1])]),
        sitouts=(Sitout(1, "2"),),
    )
    with pytest.raises(MovementError, match=r"round 1, table 1: pair 2 plays there but"):
        cards_html(sitting)


def _mitchell_guide(
    pair: int, tables: int, boards: int, switched: tuple[int, ...]
) -> list[list[str]]:
    """Pair ``pair``N's guide card in a Mitchell of ``tables`` (odd) tables whose EW pair
    ``tables``E is missing, from the Mitchell's rule: NS stay, EW move up a table and
    the boards down a table each round; set s (boards (s-1)B+1..sB) starts at table s."""
    rows = []
    for round_number in range(1, tables + 1):
        opponent = (pair - round_number) % tables + 1
        if opponent == tables:
            rows.append([str(round_number), "sit out"])
            continue
        board_set = (pair + round_number - 2) % tables + 1
        first, last = (board_set - 1) * boards + 1, board_set * boards
        direction = "NS ⇄ plays EW" if round_number in switched else "NS"
        rows.append([str(round_number), str(pair), direction, f"{opponent}E", f"{first}–{last}"])
    return rows


def test_generated_mitchell_cards() -> None:
    movement = mitchell(tables=7, boards_per_round=3, pairs=13, arrow_switch=True)
    cards = read_cards(cards_html(movement, event="Club night"))
    pairs = [f"pair-{n}{d}" for n in range(1, 8) for d in "NE" if (n, d) != (7, "E")]
    assert [c for c in cards if c.startswith("pair-")] == pairs
    for pair in range(1, 8):
        expected = _mitchell_guide(pair, 7, 3, movement.arrow_switch)
        assert cards[f"pair-{pair}N"].rows == expected, pair
    # Each EW pair plays all seven rounds (the missing pair's NS opponents sit out).
    assert all(len(cards[f"pair-{n}E"].rows) == 7 for n in range(1, 7))
    assert all(row[1] != "sit out" for n in range(1, 7) for row in cards[f"pair-{n}E"].rows)


# ------------------------------------------------------------------ QR links


def _dark_modules(path: str) -> set[tuple[int, int]]:
    """The dark modules an SVG path of horizontal strokes draws (stroke width 1,
    drawn along the middle of each row), as (row, column) from the top left."""
    dark = set()
    x = y = 0.0
    for command, first, second in re.findall(r"([MmHh])\s*(-?[\d.]+)(?:[\s,]+(-?[\d.]+))?", path):
        if command == "M":
            x, y = float(first), float(second)
        elif command == "m":
            x, y = x + float(first), y + float(second)
        else:
            end = float(first) if command == "H" else x + float(first)
            dark.update((int(y), column) for column in range(int(x), int(end)))
            x = end
    return dark


def test_table_cards_carry_their_links_as_qr_codes() -> None:
    segno = pytest.importorskip("segno", reason="the cards extra (segno) is not installed")
    cards = read_cards(cards_html(MITCHELL_3, event="Tuesday pairs", links=LINKS))
    for table, url in LINKS.items():
        card = cards[f"table-{table}"]
        assert card.caption == f"Scan to enter this table's results: {url}"
        assert len(card.svgs) == 1 and len(card.paths) == 1
        # The same symbol segno makes for the URL at error correction M: every dark
        # module in place, inside the quiet zone of 4 modules the QR standard asks.
        matrix = segno.make(url, error="m", micro=False).matrix
        expected = {
            (row + 4, column + 4)
            for row, line in enumerate(matrix)
            for column, bit in enumerate(line)
            if bit
        }
        assert _dark_modules(card.paths[0]) == expected
        size = len(matrix) + 8
        assert card.svgs[0] == f"0 0 {size} {size}"
    assert all(not card.svgs for name, card in cards.items() if name.startswith("pair-"))


def test_links_by_section_and_tables_without_one() -> None:
    pytest.importorskip("segno", reason="the cards extra (segno) is not installed")
    links = {("A", 2): LINKS[2], ("B", 1): "https://club.example/b1"}
    cards = read_cards(table_cards_html(MITCHELL_3, links=links))
    assert [len(cards[f"table-{t}"].svgs) for t in (1, 2, 3)] == [0, 1, 0]
    assert LINKS[2] in cards["table-2"].caption
    assert "club.example/b1" not in table_cards_html(MITCHELL_3, links=links)
    # The ampersand of a query string is escaped in the page and read back whole.
    assert "&amp;section=A" in table_cards_html(MITCHELL_3, links=links)


@pytest.mark.parametrize(
    ("links", "message"),
    [
        ({4: "https://club.example/4"}, "links: table must be a whole number from 1 to 3, got 4"),
        ({0: "https://club.example/0"}, "links: table must be a whole number from 1 to 3, got 0"),
        ({True: "https://club.example/1"}, "key True is not a table number"),
        ({"1": "https://club.example/1"}, "key '1' is not a table number"),
        ({1: "club.example/1"}, "link 'club.example/1' is not a URL a phone can open"),
        ({1: "https://club.example/a b"}, "link 'https://club.example/a b' is not a URL"),
        ({1: "javascript:alert(1)"}, "link 'javascript:alert(1)' is not a URL"),
        ({1: "https://a.example", ("A", 1): "https://b.example"}, "table 1 has two different"),
    ],
)
def test_bad_links_are_refused(links: dict[int | tuple[str, int], str], message: str) -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        cards_html(MITCHELL_3, links=links)
    assert message in str(caught.value)


def test_bad_paper_and_nothing_to_write(tmp_path: Path) -> None:
    with pytest.raises(BridgeError, match="paper 'a5': expected a4 or letter"):
        cards_html(MITCHELL_3, paper="a5")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="needs a pdf or an html path"):
        write_cards(MITCHELL_3)


def test_write_cards_html(tmp_path: Path) -> None:
    out = tmp_path / "cards.html"
    write_cards(MITCHELL_3, html=out, event="Tuesday pairs")
    assert read_cards(out.read_text(encoding="utf-8"))["pair-1N"].rows[0] == [
        "1", "1", "NS", "1E", "1–2",
    ]  # fmt: skip


# ------------------------------------------------------------------ PDF and browser

needs_chromium = pytest.mark.skipif(
    chromium_path() is None,
    reason="headless Chromium is not installed (apt-get install chromium): PDF not tested",
)


def _pdf_text(path: Path, *pages: int) -> str:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed: the PDF is not read")
    span = ["-f", str(pages[0]), "-l", str(pages[-1])] if pages else []
    done = subprocess.run(
        ["pdftotext", "-layout", *span, str(path), "-"], capture_output=True, text=True, check=True
    )
    return done.stdout


@needs_chromium
def test_pdf_has_every_pair_and_table(tmp_path: Path) -> None:
    pytest.importorskip("segno", reason="the cards extra (segno) is not installed")
    pdf, html = tmp_path / "cards.pdf", tmp_path / "cards.html"
    write_cards(MITCHELL_3, pdf=pdf, html=html, event="Tuesday pairs", links=LINKS)
    assert pdf.read_bytes().startswith(b"%PDF-") and html.exists()
    text = _pdf_text(pdf)
    for pair in ("1N", "1E", "2N", "2E", "3N", "3E"):
        assert f"Pair {pair}" in text
    for table in (1, 2, 3):
        assert f"Table {table}" in text
    assert text.count("Tuesday pairs · Section A") == 9
    # Pair 1N's first round and table 2's rounds, read from the printed page.
    assert re.search(r"Round\s+Table\s+Direction\s+Opponents\s+Boards", text)
    assert re.search(r"^\s*1\s+1\s+NS\s+1E\s+1–2\b", text, re.MULTILINE)
    assert re.search(r"^\s*1\s+2N\s+2E\s+3–4\s+table 1$", text, re.MULTILINE)
    assert re.search(r"^\s*3\s*⇄\s+2N\s+3E\s+1–2\s+collect$", text, re.MULTILINE)
    # The table cards begin on a page of their own, after the guide cards.
    assert "Table cards" in _pdf_text(pdf, 2) and "Table cards" not in _pdf_text(pdf, 1)
    if shutil.which("pdfinfo") is not None:
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
        assert "(A4)" in info.stdout


@needs_chromium
def test_cards_fit_and_the_qr_prints_at_its_size() -> None:
    pytest.importorskip("segno", reason="the cards extra (segno) is not installed")
    page_html = cards_html(RELAY_4, event="Thursday evening pairs", links=LINKS)
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 794, "height": 1123})
        page.set_content(page_html)
        page.emulate_media(media="print")
        overflow = page.evaluate(
            """() => [...document.querySelectorAll('.card')].filter(
                 c => c.scrollWidth > c.clientWidth + 1).map(c => c.id)"""
        )
        assert overflow == []
        # 30 mm at CSS's 96 px to the inch.
        width = page.evaluate("document.querySelector('svg.qr').getBoundingClientRect().width")
        assert abs(width - 30 / 25.4 * 96) < 1
        page.emulate_media(media="screen")
        refresh = os.environ.get("BRIDGESCORE_SCREENSHOTS") == "1"
        if refresh:
            page.set_content(cards_html(MITCHELL_3, event="Tuesday pairs", links=LINKS))
            page.screenshot(path=str(ROOT / "docs" / "img" / "cards.png"), full_page=True)


@needs_chromium
def test_pdf_of_a_generated_mitchell_with_a_sit_out(tmp_path: Path) -> None:
    movement = mitchell(tables=7, boards_per_round=3, pairs=13)
    pdf = tmp_path / "cards.pdf"
    write_cards(movement, pdf=pdf, event="Club night", paper="letter")
    text = _pdf_text(pdf)
    labels = [f"{n}{d}" for n in range(1, 8) for d in "NE" if (n, d) != (7, "E")]
    # A label whole, not the start of a longer one (Table 1 against Table 10).
    assert all(re.search(rf"Pair {label}(?![0-9A-Z])", text) for label in labels)
    assert all(re.search(rf"Table {table}(?![0-9])", text) for table in range(1, 8))
    assert text.count("Club night · Section A") == 13 + 7
    # Each NS pair sits out once: the round the missing pair 7E would have met it.
    assert text.count("sit out") == 7
    # ... and its table is empty that round.
    assert text.count("table not in play") == 7


# ------------------------------------------------------------------ the docs


def test_the_docs_python_examples_run() -> None:
    """docs/cards.md's Python sessions, in order, sharing names as a reader's would."""
    text = (ROOT / "docs" / "cards.md").read_text(encoding="utf-8")
    sessions = re.findall(r"```pycon\n(.*?)```", text, re.DOTALL)
    assert len(sessions) == 3
    globs: dict[str, object] = {}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, session in enumerate(sessions):
        test = parser.get_doctest(session, globs, f"cards.md block {number}", "docs/cards.md", 0)
        runner.run(test, clear_globs=False)
        globs = test.globs
    assert runner.summarize(verbose=False) == doctest.TestResults(failed=0, attempted=14)


def test_the_docs_show_the_image() -> None:
    text = (ROOT / "docs" / "cards.md").read_text(encoding="utf-8")
    assert "](img/cards.png)" in text
    assert (ROOT / "docs" / "img" / "cards.png").read_bytes().startswith(b"\x89PNG")


def test_wrong_kinds_of_argument_are_refused() -> None:
    with pytest.raises(ArgumentTypeError, match=r"cards are made from a Movement, got \{'kind'"):
        cards_html({"kind": "mitchell"})  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="the event's name must be text, got 7"):
        guide_cards_html(MITCHELL_3, event=7)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="the event's name must be text, got b'x'"):
        table_cards_html(MITCHELL_3, event=b"x")  # type: ignore[arg-type]


def test_without_segno_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    # An import of a module set to None in sys.modules fails, as if it were not installed.
    monkeypatch.setitem(sys.modules, "segno", None)
    with pytest.raises(ImportError, match=r"pip install 'bridgescore\[cards\]'"):
        table_cards_html(MITCHELL_3, links={1: LINKS[1]})
    # The cards without links need no segno.
    assert read_cards(table_cards_html(MITCHELL_3))["table-1"].svgs == []


def test_an_individual_has_a_guide_card_a_player() -> None:
    from bridgescore.movement.individual import individual
    from bridgescore.session.reports.cards import guide_cards_html

    page = guide_cards_html(individual(8, boards_per_round=2), event="Thursday")
    assert page.count('<article class="card guide"') == 8
    # Player 1: round 1 table 1 South with 8 against 2 & 7 on boards 1-2; round 2 table 1
    # West with 3 against 8 & 2 (8-2 v 3-1) on boards 3-4.
    card = page[page.index('id="player-1"') :].split("</article>")[0]
    assert (
        "<tr><td>1</td><td>1</td><td>South</td><td>8</td><td>2 &amp; 7</td><td>1–2</td></tr>"
        in card
    )
    assert (
        "<tr><td>2</td><td>1</td><td>West</td><td>3</td><td>8 &amp; 2</td><td>3–4</td></tr>" in card
    )


def test_an_individuals_table_cards_seat_each_player() -> None:
    from bridgescore.movement.individual import individual

    movement = individual(8, boards_per_round=2)
    cards = read_cards(table_cards_html(movement, event="Individual"))
    table_1 = cards["table-1"]
    # Round, North, South, East, West (the partnerships' labels read here: "8-1" is N 8,
    # S 1), the round's boards, and where they go (every table plays them: collected).
    expected = []
    for number in range(1, movement.rounds + 1):
        row = movement.row_at(number, 1)
        assert row is not None
        north, south = row.ns.split("-")
        east, west = row.ew.split("-")
        expected.append([north, south, east, west])
    assert [line[1:5] for line in table_1.rows] == expected
    assert table_1.rows[0][1:5] == ["8", "1", "2", "7"]
    page = table_cards_html(movement, event="Individual")
    assert "<th>N</th><th>S</th><th>E</th><th>W</th>" in page
    assert "<th>NS</th>" not in page
