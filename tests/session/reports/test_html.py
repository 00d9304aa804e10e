"""The HTML report: one self-contained, escaped page."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from bridgescore.deal import Deal
from bridgescore.session.reports.html import html_report
from bridgescore.session.scoring.event import Board, Event, TableResult
from bridgescore.session.scoring.scored import BoardPar
from bridgescore.session.scoring.scorer import score_event


class Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.links: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.links.extend(v or "" for k, v in attrs if k in ("src", "href"))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


DEAL = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


def page() -> str:
    results = (
        TableResult.played(1, "<b>Ann & Bob</b>", "2", "4SN="),
        TableResult.played(1, "3", "4", "4SN+1"),
        TableResult(1, "5", "6", score=-50),
    )
    event = Event("Club <night>", "pairs", {1: Board(1, deal=Deal.from_pbn(DEAL))}, results)
    return html_report(score_event(event, "mp", pars={1: BoardPar(450, "NS +450: 4S+1 N")}))


def test_the_page_is_self_contained_and_escaped() -> None:
    text = page()
    parser = Collector()
    parser.feed(text)
    assert text.startswith("<!DOCTYPE html>")
    assert "script" not in parser.tags and "link" not in parser.tags and "img" not in parser.tags
    assert parser.links == []
    assert "<b>" not in text and "&lt;b&gt;Ann &amp; Bob&lt;/b&gt;" in text
    assert "<title>Club &lt;night&gt; - matchpoints</title>" in text
    content = " ".join(parser.text)
    assert "<b>Ann & Bob</b>" in content  # the text reads back unchanged
    assert "par NS +450: 4S+1 N" in content


def test_the_page_holds_ranking_and_travellers() -> None:
    text = page()
    assert text.count("<table>") == 3  # NS ranking, EW ranking, one traveller
    assert re.search(r"<h3 id=\"board-1\">Board 1</h3>", text)
    assert "<td>4SN+1</td>" in text and '<td class="n">+450</td>' in text
    assert f'<p class="meta">Deal {DEAL}</p>' in text  # the hand record, as PBN
