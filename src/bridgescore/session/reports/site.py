"""A scored event as a small static website a club can publish.

``index.html`` ranks the pairs (or teams) and lists the boards; each board's
page has its traveller, the opening leads made at the tables with what each cost
double dummy (when the event has them), and the hand record (hands, DD table, par); each pair's
scorecard lists its result on every board with matchpoints or IMPs and IMPs
against par. Every name links both ways. One shared ``style.css``, no
scripts, laid out for phones first.

Pure: :func:`results_site` returns the pages (file name -> text);
:func:`write_site` writes them.

>>> from bridgescore.session.scoring.event import Event, TableResult
>>> from bridgescore.session.scoring.scorer import score_event
>>> event = Event("Club", "pairs", results=(
...     TableResult.played(1, "1", "2", "4SN="), TableResult.played(1, "3", "4", "4SN+1")))
>>> sorted(results_site(score_event(event, "mp")))[:4]
['board-1.html', 'index.html', 'pair-1.html', 'pair-2.html']
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from html import escape
from pathlib import Path

from bridgescore.board import Board
from bridgescore.boardset.handrecord import board_html, hand_record_css
from bridgescore.errors import InvalidArgumentError
from bridgescore.parscore import par
from bridgescore.session.leads import FieldLead
from bridgescore.session.reports.travellers import PAIR_COLUMNS, score_text, traveller_table
from bridgescore.session.scoring.display import fmt, ranked_as, ranking_tables
from bridgescore.session.scoring.methods import SCORING_METHODS
from bridgescore.session.scoring.scored import Line, ScoredBoard, SessionScore, Standing

__all__ = ["hand_record", "results_site", "write_site"]

_STYLE = """
* { box-sizing: border-box; }
body { font-family: system-ui, "DejaVu Sans", sans-serif; margin: 0 auto; padding: .8em;
  max-width: 62em; color: #1b1b1b; background: #fafafa; line-height: 1.4; }
h1 { font-size: 1.45em; margin: .2em 0 .4em; }
h2 { font-size: 1.15em; margin: 1.4em 0 .4em; }
nav.crumbs { font-size: .95em; margin-bottom: .6em; }
nav.crumbs a, nav.steps a { margin-right: .8em; }
nav.steps { display: flex; justify-content: space-between; margin: .8em 0; }
a { color: #0b5cad; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
table.results { border-collapse: collapse; width: 100%; background: #fff; }
table.results th, table.results td { padding: .35em .55em; border-bottom: 1px solid #ddd;
  text-align: left; white-space: nowrap; }
table.results th { background: #eef1f4; font-weight: 600; }
table.results td.n, table.results th.n { text-align: right;
  font-variant-numeric: tabular-nums; }
table.results tr.me { background: #fff6d6; }
.meta { color: #555; font-size: .92em; }
.notes { color: #a40; }
ul.boards { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .4em; }
ul.boards a { display: inline-block; min-width: 2.6em; text-align: center; padding: .35em .5em;
  background: #fff; border: 1px solid #ccd; border-radius: 4px; text-decoration: none; }
.record { max-width: 30em; font-size: 16px; }
@media (max-width: 480px) {
  body { padding: .5em; font-size: 15px; }
  table.results th, table.results td { padding: .3em .35em; }
  .record { font-size: 14px; }
}
"""


@dataclass(frozen=True, slots=True)
class _Who:
    """A participant: a pair (or team) in a section."""

    section: str
    name: str

    @property
    def label(self) -> str:
        return f"{self.name} ({self.section})" if self.section else self.name


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "x"


def _unique_page(who: _Who, used: set[str], tried: dict[str, int]) -> str:
    """A page name for ``who`` that no other participant has: its slug, then ``-2``,
    ``-3``, ... (names in other scripts all slug to ``x``).

    ``tried`` remembers the last suffix tried for each slug, so each participant costs
    a few set look-ups however many share a slug: linear in the participants.
    """
    base = "pair-" + (_slug(who.section) + "-" if who.section else "") + _slug(who.name)
    count = tried.get(base, 0)
    while True:
        count += 1
        page = f"{base}.html" if count == 1 else f"{base}-{count}.html"
        # A slug may itself end in "-2" (a pair named "x 2"): the set settles that too.
        if page not in used:
            tried[base] = count
            used.add(page)
            return page


def _board_page(traveller: ScoredBoard) -> str:
    section = f"-{_slug(traveller.section)}" if traveller.section else ""
    return f"board-{traveller.board.number}{section}.html"


def _page(title: str, body: list[str], crumbs: list[tuple[str, str]]) -> str:
    links = "".join(f'<a href="{escape(href)}">{escape(text)}</a>' for href, text in crumbs)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{escape(title)}</title><link rel="stylesheet" href="style.css"></head>'
        f'<body><nav class="crumbs">{links}</nav>{"".join(body)}'
        '<p class="meta">Scored by bridgescore.</p></body></html>\n'
    )


def _table(head: list[tuple[str, bool]], rows: list[tuple[list[tuple[str, bool]], str]]) -> str:
    """Cells are (HTML, numeric); each row has a CSS class ('' for none)."""
    th = "".join(f"<th{' class=n' if numeric else ''}>{text}</th>" for text, numeric in head)
    body = "".join(
        (f'<tr class="{css}">' if css else "<tr>")
        + "".join(f"<td{' class=n' if numeric else ''}>{text}</td>" for text, numeric in cells)
        + "</tr>"
        for cells, css in rows
    )
    return (
        f'<div class="scroll"><table class="results"><thead><tr>{th}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def hand_record(board: Board) -> Board | None:
    """The hand record of an event board: its deal, DD table and (neutral) par."""
    if board.deal is None:
        return None
    record = Board(board.number, board.deal, None, None, board.dealer_seat, board.vulnerable)
    if board.dd_table is not None:
        table = board.dd_table
        record = record.with_analysis(table, par(table, record.vulnerability))
    return record


class _Site:
    def __init__(
        self,
        session: SessionScore,
        boards: Mapping[int, Board],
        leads: Mapping[tuple[str, int], Sequence[FieldLead]],
    ) -> None:
        self.session = session
        self.boards = boards
        self.leads = leads
        # Points signed as every report signs them (IMPs +3, matchpoints 3).
        self.signed = session.scoring_method.signed
        self.pages: dict[str, str] = {}
        self.pair_pages: dict[_Who, str] = {}
        # Each participant's lines, in traveller order, so a scorecard reads its own
        # lines rather than every line of the event (1,100 pairs: a million lines each).
        self.lines_of: dict[_Who, list[tuple[ScoredBoard, Line]]] = {}
        self.standings_of: dict[_Who, list[Standing]] = {}
        for standing in session.standings:
            self.standings_of.setdefault(_Who(standing.section, standing.name), []).append(standing)
        used: set[str] = set()
        tried: dict[str, int] = {}
        for traveller in session.travellers:
            for line in traveller.lines:
                for name in dict.fromkeys((line.result.ns, line.result.ew)):
                    who = _Who(line.result.section, name)
                    if who not in self.pair_pages:
                        self.pair_pages[who] = _unique_page(who, used, tried)
                    self.lines_of.setdefault(who, []).append((traveller, line))

    def _pair_link(self, section: str, name: str) -> str:
        page = self.pair_pages.get(_Who(section, name))
        text = escape(name)
        return f'<a href="{page}">{text}</a>' if page else text

    def build(self) -> dict[str, str]:
        self.pages["style.css"] = _STYLE + hand_record_css()
        self.pages["index.html"] = self._index()
        # A board's page steps to the boards before and after it in its own section
        # (a section's travellers are its own results, read board after board).
        sections: dict[str, list[ScoredBoard]] = {}
        for traveller in self.session.travellers:
            sections.setdefault(traveller.section, []).append(traveller)
        for travellers in sections.values():
            for position, traveller in enumerate(travellers):
                before = travellers[position - 1] if position > 0 else None
                after = travellers[position + 1] if position + 1 < len(travellers) else None
                self.pages[_board_page(traveller)] = self._board(traveller, before, after)
        for who, page in self.pair_pages.items():
            self.pages[page] = self._scorecard(who)
        return self.pages

    @property
    def title(self) -> str:
        return f"{self.session.name or 'Event'} – {SCORING_METHODS[self.session.method].title}"

    def _index(self) -> str:
        session = self.session
        body = [f"<h1>{escape(self.title)}</h1>", "<h2>Ranking</h2>"]
        for ranking in ranking_tables(session):
            if ranking.caption != "Overall":
                body.append(f"<h2>{escape(ranking.caption)}</h2>")
            named = ranking.headers.index(ranked_as(session))
            rows = []
            for standing, row in zip(ranking.standings, ranking.rows, strict=True):
                cells = [(escape(cell), i in ranking.numeric) for i, cell in enumerate(row)]
                # The pair's name links to its scorecard.
                cells[named] = (self._pair_link(standing.section, standing.name), False)
                rows.append((cells, ""))
            head = [(escape(h), i in ranking.numeric) for i, h in enumerate(ranking.headers)]
            body.append(_table(head, rows))
        if session.notes:
            body.append('<ul class="notes">')
            body.extend(f"<li>{escape(note)}</li>" for note in session.notes)
            body.append("</ul>")
        body.append('<h2>Boards</h2><ul class="boards">')
        for traveller in session.travellers:
            label = f"{traveller.board.number}{traveller.section}"
            body.append(f'<li><a href="{_board_page(traveller)}">{escape(label)}</a></li>')
        body.append("</ul>")
        return _page(self.title, body, [])

    def _board(
        self, traveller: ScoredBoard, before: ScoredBoard | None, after: ScoredBoard | None
    ) -> str:
        session = self.session
        number = traveller.board.numbered
        board = self.boards.get(number, traveller.board)
        table = traveller_table(session, replace(traveller, board=board))
        heading = table.title
        body = [f"<h1>{escape(heading)}</h1>"]
        body.append(f'<p class="meta">{escape(" · ".join(table.about))}</p>')
        head = [(escape(h), i in table.numeric) for i, h in enumerate(table.headers)]
        rows = []
        for line, row in zip(traveller.lines, table.rows, strict=True):
            cells = [(escape(cell), i in table.numeric) for i, cell in enumerate(row)]
            # Each pair links to its scorecard.
            for column in PAIR_COLUMNS:
                cells[column] = (self._pair_link(line.result.section, row[column]), False)
            rows.append((cells, ""))
        body.append("<h2>Traveller</h2>" + _table(head, rows))
        field = self.leads.get((traveller.section, number), ())
        if field:
            body.append('<h2 id="leads">Opening leads</h2>' + _leads_table(field))
        record = hand_record(board)
        body.append('<h2 id="hand-record">Hand record</h2>')
        if record is None:
            body.append('<p class="meta">No hand record was imported for this board.</p>')
        else:
            body.append(f'<div class="record">{board_html(record, anchor="record")}</div>')
        steps = []
        if before is not None:
            steps.append(f'<a href="{_board_page(before)}">← Board {before.board.number}</a>')
        if after is not None:
            steps.append(f'<a href="{_board_page(after)}">Board {after.board.number} →</a>')
        body.append(f'<nav class="steps">{"".join(steps)}</nav>')
        return _page(f"{heading} – {self.title}", body, [("index.html", "Ranking")])

    def _scorecard(self, who: _Who) -> str:
        session = self.session
        unit = session.unit
        kind = {"teams": "Team", "individual": "Player"}.get(session.kind, "Pair")
        body = [f"<h1>{kind} {escape(who.label)}</h1>"]
        for s in self.standings_of.get(who, ()):
            direction = {"NS": " North-South", "EW": " East-West"}.get(s.direction, "")
            earned = (
                fmt(s.percent) + " %"
                if s.percent is not None
                else fmt(s.total) + f" {session.ranking_unit}"
            )
            body.append(
                f'<p class="meta">Rank {escape(s.rank)}{direction}: {escape(earned)} '
                f"over {s.boards} board(s)</p>"
            )
        rows = []
        total = 0.0
        total_par = 0
        has_par = False
        for traveller, line in self.lines_of.get(who, ()):
            seat = _seat_of(line, who)
            if seat is not None:
                mine = line.ns if seat == "NS" else line.ew
                opponent = line.result.ew if seat == "NS" else line.result.ns
                score = line.ns_score if seat == "NS" or line.ns_score is None else -line.ns_score
                vs_par = line.imps_vs_par
                if vs_par is not None:
                    vs_par = vs_par if seat == "NS" else -vs_par
                    total_par += vs_par
                    has_par = True
                total += mine or 0.0
                page = _board_page(traveller)
                cells = [
                    (f'<a href="{page}">{traveller.board.number}</a>', False),
                    (seat, False),
                    (self._pair_link(line.result.section, opponent), False),
                    (escape(line.result.describe()), False),
                    (score_text(score), True),
                    (fmt(mine, signed=self.signed), True),
                    (fmt(vs_par, signed=True), True),
                ]
                rows.append((cells, ""))
        head = [
            ("Board", False),
            ("Sat", False),
            ("Opp", False),
            ("Result", False),
            ("Score", True),
            (unit, True),
            ("v par", True),
        ]
        rows.append(
            (
                [
                    ("<b>Total</b>", False),
                    ("", False),
                    ("", False),
                    ("", False),
                    ("", True),
                    (f"<b>{fmt(total, signed=self.signed)}</b>", True),
                    (f"<b>{fmt(total_par, signed=True)}</b>" if has_par else "", True),
                ],
                "me",
            )
        )
        body.append("<h2>Scorecard</h2>" + _table(head, rows))
        title = f"{kind} {who.label} – {self.title}"
        return _page(title, body, [("index.html", "Ranking")])


def _leads_table(leads: Sequence[FieldLead]) -> str:
    """The leads made at the tables: contract, card, how many tables, and what the lead
    cost double dummy (blank where it is not known)."""
    rows = []
    for lead in leads:
        contract = lead.contract
        cost = lead.cost.cost if lead.cost is not None else None
        said = "" if cost is None else "0" if cost == 0 else f"{cost} trick{'s' * (cost != 1)}"
        cells = [
            (escape(f"{contract.level}{contract.strain} {contract.declarer}"), False),
            (escape(str(lead.card)), False),
            (str(lead.tables), True),
            (escape(said), True),
        ]
        rows.append((cells, ""))
    head = [("Contract", False), ("Lead", False), ("Tables", True), ("Cost (DD)", True)]
    return _table(head, rows)


def _seat_of(line: Line, who: _Who) -> str | None:
    if line.result.section != who.section:
        return None
    if line.result.ns == who.name:
        return "NS"
    if line.result.ew == who.name:
        return "EW"
    return None


def results_site(
    session: SessionScore,
    boards: Mapping[int, Board] | None = None,
    leads: Mapping[tuple[str, int], Sequence[FieldLead]] | None = None,
) -> dict[str, str]:
    """The site's files (name -> text): ``index.html``, ``style.css``, one
    ``board-N.html`` per traveller and one ``pair-NAME.html`` per participant.

    ``boards`` overrides the travellers' boards (for DD tables solved since
    the event was loaded); a board's hand record shows when its deal is known.
    ``leads`` are the field's opening leads by ``(section, board)``
    (:func:`~bridgescore.session.leads.field_leads`), shown on each board's page.
    """
    return _Site(session, boards or {}, leads or {}).build()


def write_site(pages: Mapping[str, str], directory: Path) -> None:
    """Write the pages into ``directory`` (created if needed), each file
    replaced whole, so a web server never serves half a page."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in pages.items():
        if "/" in name or name.startswith("."):
            raise InvalidArgumentError(f"page name {name!r} is not a plain file name")
        handle, temporary = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".html")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
            os.chmod(temporary, 0o644)
            os.replace(temporary, directory / name)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
