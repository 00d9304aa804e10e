"""PBN games as played deals: read and checked through the board record, and written.

:func:`read_played_games` streams the games of a PBN file, each with its
:class:`~bridgescore.game.PlayedDeal` and every problem, by the one reading of
the tags in :mod:`bridgescore.formats` (the same as ``bridgescore game``).
:func:`played_deal_pairs` writes a played deal back out as PBN tag pairs for
the strict writer.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from bridgescore.formats.check import check_record
from bridgescore.formats.pbn import PbnGame, Problem, TagPair, read_games, tag_rows
from bridgescore.formats.pbnrecord import game_records
from bridgescore.game import PlayedDeal
from bridgescore.play import Play

__all__ = ["PlayedGame", "played_deal_pairs", "read_played_games"]


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A PBN game read as a played deal: the game, its :class:`PlayedDeal` (``None``
    when it cannot be scored) and every problem, the reader's included."""

    game: PbnGame
    played: PlayedDeal | None
    problems: tuple[Problem, ...]

    @property
    def board(self) -> str | None:
        return self.game.tags.get("Board")


def read_played_games(source: Iterable[str] | str) -> Iterator[PlayedGame]:
    """Read PBN games as played deals, lazily, checking each against itself.

    Contract and declarer are rebuilt from the auction and the tricks from the
    play where they are given; every disagreement with the tags, every illegal
    call or card and every unreadable tag becomes a :class:`Problem` with its
    line, and reading goes on with the next game. A game with none of the tags
    Board, Deal, Dealer, Auction, Play, Contract, Declarer and Result (a header of
    Event, Site and the like, whose values later games inherit with ``#``) is skipped.
    """
    for game, record in game_records(read_games(source)):
        checked = check_record(record)
        yield PlayedGame(game, checked.played, checked.problems)


def played_deal_pairs(played: PlayedDeal, tags: Mapping[str, str] | None = None) -> list[TagPair]:
    """The tag pairs of a played deal for :func:`format_game`.

    ``tags`` adds or overrides other tags (Event, Site, players...). The Score tag
    is North-South's score (``NS 620``, ``NS -100``).
    """
    contract = played.contract
    values = {
        "Board": "?" if played.board is None else str(played.board),
        "Dealer": played.dealer.letter,
        "Vulnerable": played.vulnerability.to_pbn(),
        "Deal": "?" if played.deal is None else played.deal.to_pbn(played.dealer),
        "Declarer": ""
        if contract is None or contract.declarer is None
        else contract.declarer.letter,
        "Contract": "Pass" if contract is None else contract.to_pbn(),
        "Result": "" if played.tricks is None else str(played.tricks),
        **(tags or {}),
    }
    pairs = [TagPair.build(name, value) for name, value in values.items()]
    pairs.append(TagPair.build("Score", f"NS {played.score}"))
    if played.auction is not None:
        calls = [str(call) for call in played.auction.calls]
        pairs.append(TagPair.build("Auction", played.auction.dealer.letter, tag_rows(calls)))
    if played.play is not None:
        pairs.append(_play_pair(played.play))
    return pairs


def _play_pair(play: Play) -> TagPair:
    first = play.opening_leader
    rows: list[list[str]] = []
    for trick in play.tricks_played():
        row = ["-"] * 4
        for seat, card in trick.seats():
            row[(seat - first) % 4] = str(card)
        rows.append(row)
    if play.is_claimed or len(play.cards) < 52:
        rows.append(["*"])
    return TagPair.build("Play", first.letter, rows)
