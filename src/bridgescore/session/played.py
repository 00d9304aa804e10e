"""An event's boards as they were played: one board record per table's result, with the
hand record, the contract and tricks, and the auction and play where the event file
keeps them (a scoring database's BiddingData and PlayData), for ``bridgescore analyse``.
Where no play is kept but the table entered its opening lead (a live session's phone, a
scoring database's lead), the lead is the play's first card, so the review costs it.
"""

from __future__ import annotations

from pathlib import Path

from bridgescore.deal import Card
from bridgescore.errors import BridgeError
from bridgescore.formats.record import BoardRecord, RecordedCall, Source
from bridgescore.session.store.events import EventStore

__all__ = ["played_records"]


def played_records(path: str | Path) -> list[BoardRecord]:
    """Every played result of the event file at ``path`` whose board has its deal, in
    board order, then by section and pairs. Artificial and weighted scores, and boards
    without a hand record, have nothing to review and are left out."""
    with EventStore(path, mode="read") as store:
        boards = store.boards()
        results = store.results()
        plays = store.table_play()
        leads = store.leads()
    name = str(path)
    records = []
    for position, result in enumerate(sorted(results, key=lambda r: (r.board, r.key)), 1):
        board = boards.get(result.board)
        if result.result is None or board is None or board.deal is None:
            continue
        played = plays.get(result.key)
        contract = result.result.contract
        play = None if played is None or not played.play else played.play
        if play is None and contract is not None and result.key in leads:
            play = _lead_alone(leads[result.key])
        records.append(
            BoardRecord(
                board=result.board,
                dealer_seat=board.dealer_seat,
                vulnerable=board.vulnerable,
                deal=board.deal,
                table=f"{result.ns} v {result.ew}",
                auction=None
                if played is None or not played.auction
                else tuple(RecordedCall(str(call)) for call in played.auction),
                play=play,
                contract=contract,
                passed_out=contract is None,
                result=result.result.tricks,
                source=Source(name, 0, position),
            )
        )
    return records


def _lead_alone(text: str) -> tuple[Card, ...] | None:
    """The entered lead as a play of one card (``None`` for one that does not read: the
    stores keep cards, so that is a damaged file, and the board is reviewed without)."""
    try:
        return (Card.parse(text),)
    except BridgeError:
        return None
