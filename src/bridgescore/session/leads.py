"""The opening leads of an event, double dummy: what each lead a table entered cost.

A lead's cost is counted as ``bridgescore analyse`` counts it: declarer's double-dummy
tricks after the lead less declarer's tricks after the best lead (the board's
double-dummy result), so 0 for a lead that keeps the double-dummy result and 1 for a
lead that gives declarer a trick. It depends only on the deal, the strain and declarer,
so every table in the same strain by the same declarer shares one lead table.

:func:`lead_costs` solves a batch of leads (one DDS all-cards search per deal, strain
and declarer); :func:`field_leads` gathers an event's leads board by board, each lead
made at the tables with how often it was made and its cost, for the results site.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bridgescore.board import Board
from bridgescore.core import Contract, Seat, Strain
from bridgescore.deal import Card, Deal
from bridgescore.errors import BridgeError, InvalidArgumentError
from bridgescore.session.scoring.scored import ScoredBoard

__all__ = ["FieldLead", "LeadCost", "field_leads", "lead_cost", "lead_costs"]

Key = tuple[str, int, str, str]


@dataclass(frozen=True, slots=True)
class LeadCost:
    """An opening ``card`` against ``contract`` (which names its declarer) on a deal:
    declarer's double-dummy tricks ``after`` it and ``dd``, declarer's tricks after the
    best lead. ``after`` is ``None`` when the leader does not hold the card (a lead
    entered wrongly, or a hand record that is not the board played)."""

    contract: Contract
    card: Card
    after: int | None
    dd: int

    @property
    def leader(self) -> Seat:
        """The opening leader: declarer's left-hand opponent."""
        assert self.contract.declarer is not None
        return self.contract.declarer.rotate(1)

    @property
    def cost(self) -> int | None:
        """Tricks the lead gave declarer (0 when it keeps the double-dummy result)."""
        return None if self.after is None else self.after - self.dd

    def words(self) -> str:
        """The cost in a sentence: ``HQ against 4S by North: cost 1 trick double dummy
        (declarer 11 tricks after it, 10 after the best lead)``."""
        contract = self.contract
        seat = contract.declarer.name.title() if contract.declarer is not None else ""
        against = f"{self.card} against {contract.level}{contract.strain} by {seat}"
        if self.after is None:
            return (
                f"{against}: {self.card} is not in {self.leader.name.title()}'s hand on the "
                "hand record, so its cost is not known"
            )
        cost = self.after - self.dd
        said = "cost nothing" if cost == 0 else f"cost {cost} trick{'s' * (cost != 1)}"
        return (
            f"{against}: {said} double dummy (declarer {self.after} trick"
            f"{'s' * (self.after != 1)} after it, {self.dd} after the best lead)"
        )


@dataclass(frozen=True, slots=True)
class FieldLead:
    """One opening lead made at the tables of a board: the ``contract`` (level, strain
    and declarer; doubling does not change the tricks), the ``card``, the number of
    ``tables`` that led it, and its ``cost`` (``None`` when the board has no deal, or the
    card is not in the leader's hand)."""

    board: int
    section: str
    contract: Contract
    card: Card
    tables: int
    cost: LeadCost | None

    def as_dict(self) -> dict[str, object]:
        """``{"board", "section", "contract", "declarer", "lead", "tables", "cost"}``."""
        contract = self.contract
        return {
            "board": self.board,
            "section": self.section,
            "contract": f"{contract.level}{contract.strain}",
            "declarer": str(contract.declarer),
            "lead": str(self.card),
            "tables": self.tables,
            "cost": None if self.cost is None else self.cost.cost,
        }


# Lead tables solved lately, by deal, strain and declarer: each is the defence's tricks
# after each of the 52 cards (-1 where the leader does not hold it). A night asks for
# the same few again and again (a table's page after each entry, the results site at the
# close, every phone opening it), and a lead table never changes for its deal.
_SOLVED: dict[tuple[Deal, Strain, Seat], tuple[int, ...]] = {}
_KEPT = 4096


def lead_costs(
    leads: Sequence[tuple[Deal, Contract, Card]], *, threads: int | None = None
) -> list[LeadCost]:
    """The cost of each ``(deal, contract, card)``, in order. The lead tables not solved
    lately are solved in one batch per strain and declarer (DDS's all-cards search,
    equal deals once)."""
    from bridgescore.solver import lead_tricks

    # The deals to solve, by strain and declarer, each once (a dict keeps their order).
    wanted: dict[tuple[Strain, Seat], dict[Deal, None]] = {}
    for deal, contract, _ in leads:
        if contract.declarer is None:
            raise InvalidArgumentError(
                f"{contract}: a lead's cost needs the contract's declarer, such as 4SN"
            )
        if (deal, contract.strain, contract.declarer) not in _SOLVED:
            wanted.setdefault((contract.strain, contract.declarer), {})[deal] = None
    solved: dict[tuple[Deal, Strain, Seat], tuple[int, ...]] = {}
    for (strain, declarer), unique in wanted.items():
        deals = list(unique)
        rows = lead_tricks(deals, strain, declarer, threads=threads)
        for deal, row in zip(deals, rows, strict=True):
            solved[(deal, strain, declarer)] = tuple(int(value) for value in row)
    if len(_SOLVED) + len(solved) > _KEPT:
        _SOLVED.clear()
    _SOLVED.update(solved)
    found = []
    for deal, contract, card in leads:
        assert contract.declarer is not None
        key = (deal, contract.strain, contract.declarer)
        row = solved[key] if key in solved else _SOLVED[key]
        defence = row[card.index]
        found.append(
            LeadCost(
                Contract(contract.level, contract.strain, declarer=contract.declarer),
                card,
                None if defence < 0 else 13 - defence,
                13 - max(row),
            )
        )
    return found


def lead_cost(deal: Deal, contract: Contract, card: Card) -> LeadCost:
    """One lead's cost (as :func:`lead_costs`, and from the same lead tables kept)."""
    (cost,) = lead_costs([(deal, contract, card)])
    return cost


def field_leads(
    travellers: Iterable[ScoredBoard],
    leads: Mapping[Key, str],
    boards: Mapping[int, Board],
    *,
    solve: bool = True,
) -> dict[tuple[str, int], tuple[FieldLead, ...]]:
    """Each traveller's opening leads (by the traveller's ``(section, board)``), most
    often made first: every played result with a lead entered, grouped by contract
    (level, strain, declarer) and card. ``boards`` holds the deals (the travellers'
    own boards where it has none); ``solve=False`` leaves the costs out (a page view
    that must not run DDS)."""
    counted: Counter[tuple[str, int, int, Strain, Seat, int]] = Counter()
    cards: dict[int, Card] = {}
    deals: dict[int, Deal] = {}
    for traveller in travellers:
        number = traveller.board.numbered
        board = boards.get(number, traveller.board)
        if board.deal is not None:
            deals[number] = board.deal
        for line in traveller.lines:
            result = line.result
            text = leads.get(result.key)
            played = result.result
            if text is None or played is None or played.contract is None:
                continue
            contract = played.contract
            if contract.declarer is None:
                continue
            try:
                card = Card.parse(text)
            except BridgeError:
                continue  # the store keeps only cards; an unreadable one has nothing to cost
            cards[card.index] = card
            where = (traveller.section, number, contract.level, contract.strain)
            counted[(*where, contract.declarer, card.index)] += 1
    keys = sorted(counted, key=lambda k: (k[1], k[0], -counted[k], k[2:]))
    costed: dict[tuple[str, int, int, Strain, Seat, int], LeadCost] = {}
    if solve:
        wanted = [
            (key, (deals[key[1]], Contract(key[2], key[3], declarer=key[4]), cards[key[5]]))
            for key in keys
            if key[1] in deals
        ]
        solved = lead_costs([lead for _, lead in wanted])
        costed = {key: cost for (key, _), cost in zip(wanted, solved, strict=True)}
    found: dict[tuple[str, int], list[FieldLead]] = {}
    for key in keys:
        section, number, level, strain, declarer, index = key
        found.setdefault((section, number), []).append(
            FieldLead(
                number,
                section,
                Contract(level, strain, declarer=declarer),
                cards[index],
                counted[key],
                costed.get(key),
            )
        )
    return {key: tuple(rows) for key, rows in found.items()}
