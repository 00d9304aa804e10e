"""Dealing a whole set of boards from a seed, and checking a set against its seed."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bridgescore.board import Board
from bridgescore.boardset.dealing import DealSeed, board_deal, commitment

__all__ = ["Verification", "deal_set", "verify_set"]


def deal_set(seed: DealSeed, numbers: Iterable[int]) -> list[Board]:
    """The boards numbered ``numbers``, dealt from ``seed`` (see :func:`board_deal`)."""
    return [Board(number, board_deal(seed, number)) for number in numbers]


@dataclass(frozen=True, slots=True)
class Verification:
    """What :func:`verify_set` found: boards that match, boards that do not,
    and whether the commitment (when one was given) is the seed's hash."""

    matching: tuple[int, ...]
    mismatched: tuple[int, ...]
    commitment_ok: bool | None

    @property
    def ok(self) -> bool:
        return bool(self.matching) and not self.mismatched and self.commitment_ok is not False

    def summary(self) -> str:
        parts = [f"{len(self.matching)} board(s) match the seed"]
        if self.mismatched:
            shown = ", ".join(str(number) for number in self.mismatched)
            parts.append(f"{len(self.mismatched)} do NOT (boards {shown})")
        if self.commitment_ok is True:
            parts.append("the commitment is the seed's SHA-256 hash")
        elif self.commitment_ok is False:
            parts.append("the commitment does NOT match the seed")
        return "; ".join(parts)


def verify_set(
    boards: Sequence[Board], seed: DealSeed, committed: str | None = None
) -> Verification:
    """Check each board's deal (and dealer and vulnerability) against the deal
    ``seed`` gives its number, and ``committed`` (a hex hash) against the seed."""
    matching: list[int] = []
    mismatched: list[int] = []
    for board in boards:
        number = board.numbered
        expected = Board(number, board_deal(seed, number))
        same = (
            board.deal == expected.deal
            and board.dealer == expected.dealer
            and board.vulnerability == expected.vulnerability
        )
        (matching if same else mismatched).append(number)
    commitment_ok = None if committed is None else committed.lower() == commitment(seed)
    return Verification(tuple(matching), tuple(mismatched), commitment_ok)
