"""The review of the boards played: each board's result against double dummy and par,
the opening lead's cost for every card the leader held, and each played card's cost.

"Declarer's tricks" at a moment of the play are the tricks declarer's side has won so
far plus what best play by both sides still takes from there (DDS). A card of the
declaring side costs ``before - after``, a defender's ``after - before``: a card that
keeps the double-dummy result costs 0, and no card can gain its own side a trick.

>>> review = analyse(text='[Board "1"][Dealer "N"][Vulnerable "None"]'
...     '[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"]'
...     '[Declarer "N"][Contract "7NT"][Result "13"]')
>>> board = review[0]
>>> board.dd_tricks, board.score_ns, board.par.score
(13, 1520, 1520)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, overload

from bridgescore.board import Board
from bridgescore.compare.scalar import imps
from bridgescore.core import Contract, Seat, Strain, Vulnerability
from bridgescore.ddtable import DDTable, Par
from bridgescore.deal import Card, Deal
from bridgescore.display.markup import (
    Markup,
    card_html,
    compass_html,
    contract_html,
    hand_html,
    table_html,
    text_html,
)
from bridgescore.errors import ArgumentTypeError
from bridgescore.formats import read_records
from bridgescore.formats.check import check_record
from bridgescore.formats.record import BoardRecord
from bridgescore.game import PlayedDeal
from bridgescore.parscore import par
from bridgescore.play import Play

__all__ = [
    "BoardReview",
    "CardCost",
    "LeadReview",
    "Review",
    "Skipped",
    "analyse",
    "board_html",
]

# DDS's AnalysePlay stops at the last trick, whose cards are forced.
_SOLVED_CARDS = 48


@dataclass(frozen=True, slots=True)
class CardCost:
    """One card played: its ``trick`` (1-13), ``seat``, declarer's tricks ``before`` and
    ``after`` it, and its ``cost`` to its side (0: it kept the double-dummy result)."""

    trick: int
    seat: Seat
    card: Card
    before: int
    after: int
    cost: int

    def as_dict(self) -> dict[str, Any]:
        """``{"trick", "seat", "card", "before", "after", "cost"}``."""
        return {
            "trick": self.trick,
            "seat": self.seat.letter,
            "card": str(self.card),
            "before": self.before,
            "after": self.after,
            "cost": self.cost,
        }


@dataclass(frozen=True, slots=True)
class LeadReview:
    """The opening lead: the leader's ``seat``, the ``card`` led (``None``: not known),
    declarer's tricks after each card the leader holds, and the lead's ``cost``."""

    seat: Seat
    card: Card | None
    tricks: tuple[tuple[Card, int], ...]

    @property
    def best(self) -> int:
        """Declarer's tricks after the defence's best lead (the double-dummy result)."""
        return min(tricks for _, tricks in self.tricks)

    @property
    def cost(self) -> int | None:
        """The tricks the card led gave declarer (``None`` when it is not known)."""
        if self.card is None:
            return None
        return dict(self.tricks)[self.card] - self.best

    def as_dict(self) -> dict[str, Any]:
        """``{"seat", "card", "tricks": {CARD: declarer's tricks after it}, "cost"}``."""
        return {
            "seat": self.seat.letter,
            "card": None if self.card is None else str(self.card),
            "tricks": {str(card): tricks for card, tricks in self.tricks},
            "cost": self.cost,
        }


@dataclass(frozen=True, slots=True)
class BoardReview:
    """One board reviewed. ``board`` is the :class:`~bridgescore.Board`, with its deal,
    DD table and par; ``contract`` carries its declarer (``None``: passed out, or no
    result recorded); ``tricks`` are declarer's as played or claimed; ``score_ns`` the
    North-South score (``None`` without a result). ``dd_tricks`` and ``lead`` are
    ``None`` without a contract; ``play`` holds the recorded cards, and ``claim`` is
    ``(tricks claimed, declarer's double-dummy tricks where the claim was made)``."""

    board: Board
    contract: Contract | None
    tricks: int | None
    score_ns: int | None
    dd_tricks: int | None
    lead: LeadReview | None
    play: tuple[CardCost, ...]
    claim: tuple[int, int] | None
    auction: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.board.deal is None or self.board.dd_table is None or self.board.par is None:
            raise ArgumentTypeError(
                f"a review needs the board's deal, DD table and par: got {self.board!r}"
            )

    @property
    def number(self) -> int | None:
        """The board number (``None``: the file gave none)."""
        return self.board.number

    @property
    def deal(self) -> Deal:
        return self.board.dealt

    @property
    def dealer(self) -> Seat:
        return self.board.dealer

    @property
    def vulnerability(self) -> Vulnerability:
        return self.board.vulnerability

    @property
    def par(self) -> Par:
        """Par, under the dealer-first convention (docs/par.md)."""
        assert self.board.par is not None  # __post_init__
        return self.board.par

    @property
    def declarer(self) -> Seat | None:
        return None if self.contract is None else self.contract.declarer

    @property
    def versus_par(self) -> int | None:
        """The North-South score less par, in points (``None`` without a result)."""
        return None if self.score_ns is None else self.score_ns - self.par.score

    @property
    def versus_par_imps(self) -> int | None:
        """:attr:`versus_par` on the WBF IMP scale, signed."""
        points = self.versus_par
        return None if points is None else imps(points)

    @property
    def costs(self) -> tuple[int, int] | None:
        """The tricks the declaring side's cards and the defence's cards cost, summed
        (``None`` when no play is recorded)."""
        if not self.play or self.contract is None:
            return None
        side = self.contract.declarer.side if self.contract.declarer is not None else None
        declaring = sum(card.cost for card in self.play if card.seat.side == side)
        defending = sum(card.cost for card in self.play if card.seat.side != side)
        return declaring, defending

    def _repr_html_(self) -> str:
        """The board in a notebook: the deal, the auction, the lead table, the play
        trick by trick with each card marked by its cost, and par."""
        return board_html(self)

    def as_dict(self) -> dict[str, Any]:
        """The board in the schema of ``bridgescore analyse --json`` (docs/analyse.md)."""
        declarer = self.declarer
        versus = self.versus_par
        costs = self.costs
        return {
            "board": self.number,
            "dealer": self.dealer.letter,
            "vulnerability": self.vulnerability.to_pbn(),
            "deal": self.deal.to_pbn(),
            "contract": None if self.contract is None else self.contract.to_pbn(),
            "declarer": None if declarer is None else declarer.letter,
            "tricks": self.tricks,
            "score_ns": self.score_ns,
            "dd_tricks": self.dd_tricks,
            "par": {
                "score_ns": self.par.score,
                "contracts": [str(contract) for contract in self.par.contracts],
            },
            "versus_par": {
                "points": versus,
                "imps": self.versus_par_imps,
            },
            "lead": None if self.lead is None else self.lead.as_dict(),
            "play": [card.as_dict() for card in self.play],
            "costs": None if costs is None else {"declarer": costs[0], "defence": costs[1]},
            "claim": None if self.claim is None else {"tricks": self.claim[0], "dd": self.claim[1]},
        }


@dataclass(frozen=True, slots=True)
class Skipped:
    """What the review left out of a board: the whole board (:attr:`Review.skipped`),
    its recorded play alone (:attr:`Review.skipped_plays`), or a part of it the file got
    wrong (:attr:`Review.misread`). The board's number (``None``: not given), where it is
    in the file (``line``, 0 when not known) and why."""

    board: int | None
    line: int
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {"board": self.board, "line": self.line, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Review:
    """The boards reviewed, in file order, and those skipped with the reason.
    ``skipped_plays``: boards reviewed without the play their file records, because it
    breaks the rules of play (a card the hand does not hold, a revoke): the result,
    double dummy and par stand, the cards are left out, and this says why.
    ``misread``: what the reader could not read on a board that was still reviewed (a
    ``Vulnerable "Bogus"`` tag, say: the board number's vulnerability stands in), one
    entry a problem, with the problem's own line."""

    boards: tuple[BoardReview, ...]
    skipped: tuple[Skipped, ...] = ()
    skipped_plays: tuple[Skipped, ...] = ()
    misread: tuple[Skipped, ...] = ()

    def __len__(self) -> int:
        return len(self.boards)

    def __iter__(self) -> Iterator[BoardReview]:
        return iter(self.boards)

    @overload
    def __getitem__(self, index: int) -> BoardReview: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[BoardReview, ...]: ...
    def __getitem__(self, index: int | slice) -> BoardReview | tuple[BoardReview, ...]:
        return self.boards[index]

    def _repr_html_(self) -> str:
        return "".join(board_html(board) for board in self.boards)

    def as_list(self) -> list[dict[str, Any]]:
        """One object per board, as ``bridgescore analyse --json`` prints them."""
        return [board.as_dict() for board in self.boards]


def analyse(
    game: str | Path | BoardRecord | Iterable[BoardRecord] | None = None,
    *,
    text: str | None = None,
    threads: int | None = None,
) -> Review:
    """Review every board of ``game``: a file (PBN, LIN, JSON; a BBO hand history or
    vugraph archive), a record, or records (:func:`~bridgescore.formats.read_records`);
    or ``text``, a file's text or a handviewer link. DDS solves on all cores
    (``threads`` to limit). Boards without a deal, or whose result cannot be read, are
    skipped with the reason (:attr:`Review.skipped`)."""
    records = _records(game, text)
    good: list[tuple[BoardRecord, PlayedDeal | None]] = []
    skipped: list[Skipped] = []
    skipped_plays: list[Skipped] = []
    misread: list[Skipped] = []
    for record in records:
        reason, played, play_left_out = _readable(record)
        if reason is None:
            good.append((record, played))
            if play_left_out is not None:
                skipped_plays.append(Skipped(record.board, record.source.line, play_left_out))
            # A reviewed board still says what its file got wrong: a value the reader
            # could not take is replaced (the board number's vulnerability, say), and the
            # review must not read as if the file had said so.
            misread.extend(
                Skipped(record.board, problem.line or record.source.line, problem.message)
                for problem in record.problems
                if not problem.notice
            )
        else:
            skipped.append(Skipped(record.board, record.source.line, reason))
    return Review(
        tuple(_review(good, threads)), tuple(skipped), tuple(skipped_plays), tuple(misread)
    )


def _records(
    game: str | Path | BoardRecord | Iterable[BoardRecord] | None, text: str | None
) -> list[BoardRecord]:
    if text is not None:
        if game is not None:
            raise ArgumentTypeError("analyse was given both a game and text: expected one")
        return list(read_records(text=text))
    if isinstance(game, BoardRecord):
        return [game]
    if isinstance(game, str | Path):
        return list(read_records(game))
    if text is None and not isinstance(game, Iterable):
        raise ArgumentTypeError(f"analyse was given {game!r}: expected a file or records")
    if game is None:
        raise ArgumentTypeError("analyse needs a file, records or text (a file's text)")
    items = list(game)
    for item in items:
        if not isinstance(item, BoardRecord):
            raise ArgumentTypeError(
                f"analyse was given {item!r}: expected BoardRecords (read a file with "
                "bridgescore.formats.read_records)"
            )
    return items


def _readable(record: BoardRecord) -> tuple[str | None, PlayedDeal | None, str | None]:
    """Why the record cannot be reviewed (``None``: it can), its played deal, and why
    its recorded play is left out (``None``: it is not, or there is none)."""
    if record.deal is None:
        # A Deal tag that is there but cannot be read is the reason to name, not its absence.
        unread = next((p for p in record.problems if p.message.startswith(("Deal", "md|"))), None)
        if unread is not None:
            where = f"line {unread.line}: " if unread.line else ""
            return f"its deal cannot be read: {where}{unread.message}", None, None
        return "the board has no deal: a review needs the four hands", None, None
    if record.dealer is None or record.vulnerability is None:
        return "the board has neither a number nor its dealer and vulnerability", None, None
    checked = check_record(record)
    played = checked.played
    if played is None:
        if record.contract is None and not record.passed_out and not record.auction:
            return None, None, None  # a hand record: double dummy and par alone
        first = next((p.message for p in checked.problems if not p.notice), "no result")
        return f"its result cannot be read: {first}", None, None
    if played.deal is not None and played.deal != record.deal:
        return "its play does not fit its deal", None, None
    left_out = None
    if record.play and played.play is None and played.contract is not None:
        # The checker scored the board from its Result and dropped the cards it could not
        # follow: say so, or the review would read as a board whose play was not recorded.
        # The checker's own problem: one the reader reported is the file's (Review.misread).
        why = next(
            (p.message for p in checked.problems if not p.notice and p not in record.problems),
            "it cannot be followed",
        )
        left_out = f"its play is left out: {why}"
    return None, played, left_out


def _review(
    boards: Sequence[tuple[BoardRecord, PlayedDeal | None]], threads: int | None
) -> list[BoardReview]:
    from bridgescore.solver import lead_tricks, play_tricks, solve_many

    if not boards:
        return []
    deals = [_deal(record) for record, _ in boards]
    tables = solve_many(deals, threads=threads)
    # The lead tables: one DDS all-cards solve per board, grouped by contract.
    groups: dict[tuple[Strain, Seat], list[int]] = defaultdict(list)
    for index, (_, played) in enumerate(boards):
        if played is not None and played.contract is not None:
            contract = played.contract
            assert contract.declarer is not None
            groups[(contract.strain, contract.declarer)].append(index)
    leads: dict[int, list[int]] = {}
    for (strain, declarer), indices in groups.items():
        found = lead_tricks([deals[i] for i in indices], strain, declarer, threads=threads)
        for index, row in zip(indices, found, strict=True):
            leads[index] = [-1 if tricks < 0 else 13 - int(tricks) for tricks in row]
    with_play = [
        i
        for i, (_, played) in enumerate(boards)
        if played is not None and played.play is not None and played.play.cards
    ]
    solved = play_tricks(
        [_play_input(_played(boards[i][1])) for i in with_play],
        threads=threads,
    )
    values = dict(zip(with_play, solved, strict=True))
    reviews = [
        _board_review(
            record, played, deals[index], tables[index], leads.get(index), values.get(index)
        )
        for index, (record, played) in enumerate(boards)
    ]
    return reviews


def _deal(record: BoardRecord) -> Deal:
    assert record.deal is not None
    return record.deal


def _played(played: PlayedDeal | None) -> PlayedDeal:
    assert played is not None
    return played


def _play_input(played: PlayedDeal) -> tuple[Deal, Strain, Seat, Sequence[Card]]:
    assert played.play is not None and played.contract is not None
    assert played.contract.declarer is not None
    play = played.play
    return play.deal, played.contract.strain, played.contract.declarer, play.cards


def _board_review(
    record: BoardRecord,
    played: PlayedDeal | None,
    deal: Deal,
    table: DDTable,
    lead_row: list[int] | None,
    solved: tuple[int, ...] | None,
) -> BoardReview:
    dealer = record.dealer
    vulnerability = record.vulnerability
    assert dealer is not None and vulnerability is not None
    board = record.as_board().with_analysis(table, par(table, vulnerability, dealer))
    contract = None if played is None else played.contract
    if played is None or contract is None or lead_row is None:
        return BoardReview(
            board=board,
            contract=None,
            tricks=None,
            score_ns=None if played is None else played.score,
            dd_tricks=None,
            lead=None,
            play=(),
            claim=None,
            auction=_calls(record),
        )
    assert contract.declarer is not None
    leader = contract.declarer.lho
    held = sorted(deal.hands[leader])
    tricks = tuple((card, lead_row[card.index]) for card in held)
    play = played.play
    cards = () if play is None else play.cards
    lead = LeadReview(leader, cards[0] if cards else None, tricks)
    costs: tuple[CardCost, ...] = ()
    claim: tuple[int, int] | None = None
    if play is not None and solved is not None:
        along = _along(deal, contract, cards, solved)
        costs = _costs(deal, contract, cards, along)
        if play.is_claimed:
            claim = (played.tricks if played.tricks is not None else 0, along[-1])
    elif record.claim is not None and played.tricks is not None:
        claim = (played.tricks, lead.best)  # claimed before the opening lead
    return BoardReview(
        board=board,
        contract=contract,
        tricks=played.tricks,
        score_ns=played.score,
        dd_tricks=lead.best,
        lead=lead,
        play=costs,
        claim=claim,
        auction=_calls(record),
    )


def _along(
    deal: Deal, contract: Contract, cards: tuple[Card, ...], solved: tuple[int, ...]
) -> list[int]:
    """Declarer's tricks before the first card and after each card: DDS's values, and
    for the forced last trick (which DDS leaves out) the tricks as it falls."""
    along = list(solved)
    for played in range(len(along), len(cards) + 1):
        play = Play(deal, contract, cards[:played])
        while not play.is_complete:
            play.play(play.legal_cards()[0])  # one card left in each hand: forced
        along.append(play.declarer_tricks)
    return along


def _costs(
    deal: Deal, contract: Contract, cards: tuple[Card, ...], along: list[int]
) -> tuple[CardCost, ...]:
    assert contract.declarer is not None
    side = contract.declarer.side
    play = Play(deal, contract)
    found = []
    for number, card in enumerate(cards):
        seat = play.next_seat
        assert seat is not None
        before, after = along[number], along[number + 1]
        cost = before - after if seat.side == side else after - before
        found.append(CardCost(number // 4 + 1, seat, card, before, after, cost))
        play.play(card)
    return tuple(found)


def _calls(record: BoardRecord) -> tuple[str, ...]:
    return () if record.auction is None else tuple(call.call for call in record.auction)


# A card that cost its side a trick is marked, so that the page reads without colour too.
_COSTLY = "background:#ffd9d9"


def board_html(board: BoardReview) -> Markup:
    """One board reviewed as HTML (escaped, no script): the deal, the auction, par,
    the lead table and the play trick by trick, each costly card marked."""
    hands = {
        seat: hand_html(board.deal.hands[seat]._holdings_html(), seat.full_name) for seat in Seat
    }
    centre = (
        f"Board {board.number or '?'}<br>Dealer {board.dealer.letter}<br>"
        f"Vul {board.vulnerability.to_pbn()}"
    )
    parts = [f'<section class="board" id="board-{board.number or 0}">']
    parts.append(f"<h2>Board {text_html(str(board.number or '?'))}</h2>")
    parts.append(compass_html(hands, Markup(centre)))
    if board.auction:
        parts.append(_auction_html(board))
    contracts = ", ".join(str(contract) for contract in board.par.contracts) or "passed out"
    summary = [f"Par {board.par.score:+d} ({contracts})"]
    if board.contract is not None:
        made = "" if board.tricks is None else f", {board.tricks} tricks"
        summary.insert(0, f"{contract_html(board.contract)}{made}")
        summary.append(f"double dummy {board.dd_tricks} tricks")
    if board.score_ns is not None:
        summary.append(f"NS {board.score_ns:+d}")
    points = board.versus_par
    if points is not None:
        summary.append(f"{points:+d} against par ({board.versus_par_imps:+d} IMPs)")
    parts.append(f"<p>{' · '.join(summary)}</p>")
    if board.lead is not None:
        parts.append(_lead_html(board.lead))
    if board.play:
        parts.append(_play_html(board))
    if board.claim is not None:
        claimed, dd = board.claim
        verdict = "double dummy agrees" if claimed == dd else f"double dummy {dd}"
        parts.append(f"<p>Claim: {claimed} tricks ({verdict})</p>")
    parts.append("</section>")
    return Markup("".join(parts))


def _auction_html(board: BoardReview) -> Markup:
    order = [Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH]
    cells: list[str | Markup] = [""] * order.index(board.dealer)
    cells.extend(board.auction)
    rows = [cells[start : start + 4] for start in range(0, len(cells), 4)]
    rows = [row + [""] * (4 - len(row)) for row in rows]
    return table_html([seat.full_name for seat in order], rows, caption="Auction")


def _lead_html(lead: LeadReview) -> Markup:
    best = lead.best
    rows: list[list[str | Markup]] = []
    for card, tricks in lead.tricks:
        mark = " (led)" if card == lead.card else ""
        rows.append(
            [
                Markup(card_html(card.suit, card.rank) + text_html(mark)),
                str(tricks),
                str(tricks - best),
            ]
        )
    led = "not recorded" if lead.card is None else f"{lead.card}, cost {lead.cost}"
    caption = f"Opening lead by {lead.seat.full_name}: {led}"
    return table_html(["Lead", "Declarer's tricks", "Cost"], rows, numeric={1, 2}, caption=caption)


def _play_html(board: BoardReview) -> Markup:
    seats = list(Seat)
    rows = []
    for trick in range(1, 14):
        cards = [card for card in board.play if card.trick == trick]
        if not cards:
            break
        cells = []
        for seat in seats:
            played = next((card for card in cards if card.seat is seat), None)
            if played is None:
                cells.append("<td></td>")
            elif played.cost:
                cells.append(
                    f'<td style="{_COSTLY}" title="cost {played.cost}">'
                    f"{card_html(played.card.suit, played.card.rank)} <b>−{played.cost}</b></td>"
                )
            else:
                cells.append(f"<td>{card_html(played.card.suit, played.card.rank)}</td>")
        leader = cards[0].seat.letter
        after = cards[-1].after
        rows.append(
            f'<tr class="trick" data-trick="{trick}"><td>{trick}</td><td>{leader}</td>'
            + "".join(cells)
            + f'<td style="text-align:right">{after}</td></tr>'
        )
    head = "".join(f"<th>{seat.full_name}</th>" for seat in seats)
    return Markup(
        '<table class="bridgescore play" style="border-collapse:collapse">'
        '<caption style="text-align:left">The play (a marked card gave away the tricks '
        "shown; the last column is declarer's tricks double dummy)</caption>"
        f"<thead><tr><th>Trick</th><th>Lead</th>{head}<th>Declarer</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
