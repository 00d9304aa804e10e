"""The package as a Python user meets it (issue 23, "From Python").

- Every public function that takes a seat, strain or vulnerability takes its text
  too, by the one rule of ``validate.enum_arg``: a table of every such function,
  each called with the enum and with its text forms, which must give the same
  answer (and the answer a bridge player expects, where one is written down), and
  with bad text, which must raise the NotationError naming the argument.
- ``dir(bridgescore)`` lists the public names only.
- ``deal_many`` without a seed picks one and reports it, so the deals can be dealt
  again.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

import bridgescore as bs
import bridgescore.dealer.dealing
from bridgescore import Card, Contract, DDTable, Deal, Seat, Strain, Vulnerability
from bridgescore.board import Board
from bridgescore.notation import parse_result
from bridgescore.pads.chicago import chicago_dealer, chicago_entry, chicago_vulnerability
from bridgescore.pads.rubber import rubber_entry
from bridgescore.solver import declarer_tricks, lead_tricks

# North holds the thirteen spades, East the hearts, South the diamonds, West the clubs.
ONE_SUIT = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
# PBN DoubleDummyTricks (N S E W, each NT S H D C): North and South take 9 tricks
# in hearts and clubs, East and West 10 in spades and diamonds (7 in notrump).
# EW's best is 4S (or 4D); NS's cheapest sacrifice above it, 5H or 5C, goes two
# down doubled: 300 not vulnerable, 500 vulnerable, less than EW's game.
TABLE = DDTable.parse("32929329297a4a47a4a4")
TABLES = np.stack([TABLE.to_array(), DDTable.parse("a989ca989c3453134531").to_array()])
TRICK = tuple(Card.parse(text) for text in ("HA", "H2", "S2", "H3"))


def _json(report: object) -> str:
    """A simulation report as text: its NaN standard errors (one deal) compare equal."""
    return json.dumps(report, sort_keys=True)


@dataclass(frozen=True)
class Case:
    """One public function, called with the argument ``name`` set to ``value``."""

    call: Callable[[object], object]
    member: object  # the enum form
    texts: tuple[str, ...]  # text forms of the same member
    name: str  # the argument's name, as the error names it
    expected: object = None  # the answer, worked out by hand, when there is one


CASES: dict[str, Case] = {
    "par vulnerability": Case(
        lambda v: str(bs.par(TABLE, v)),
        Vulnerability.BOTH,
        ("Both", "all", " BOTH "),
        "vulnerability",
        "EW +500: 5CX-2 NS, 5HX-2 NS",
    ),
    "par dealer": Case(
        lambda d: bs.par(TABLE, "None", dealer=d),
        Seat.NORTH,
        ("N", "north", "North"),
        "dealer",
    ),
    "par_array vulnerability": Case(
        lambda v: bs.par_array(TABLES, v).tolist(),
        Vulnerability.NONE,
        ("None", "-", "love"),
        "vulnerability",
        [-300, 920],  # the second table's 920 is par_array's own docstring example
    ),
    "par_array dealer": Case(
        lambda d: bs.par_array(TABLES, 3, dealer=d).tolist(),
        Seat.EAST,
        ("E", "east"),
        "dealer",
    ),
    "Auction dealer": Case(
        lambda d: bs.Auction(d, ["1H", "Pass", "4H", "AP"]).contract,
        Seat.EAST,
        ("E", "East"),
        "dealer",
        Contract.parse("4HE"),
    ),
    "Auction.parse dealer": Case(
        lambda d: bs.Auction.parse("Pass 1S Pass 4S AP", dealer=d).contract,
        Seat.NORTH,
        ("N", "north"),
        "dealer",
        Contract.parse("4SE"),  # North passes, East opens 1S: East declares
    ),
    "Call.bid strain": Case(
        lambda s: str(bs.Call.bid(4, s)),
        Strain.SPADES,
        ("S", "♠", "spades"),
        "strain",
        "4S",
    ),
    "Contract strain": Case(
        lambda s: str(Contract(3, s)),
        Strain.NOTRUMP,
        ("NT", "N", "notrump"),
        "strain",
        "3NT",
    ),
    "Contract declarer": Case(
        lambda d: str(Contract(4, Strain.HEARTS, declarer=d)),
        Seat.WEST,
        ("W", "west"),
        "declarer",
        "4HW",
    ),
    "Contract.with_declarer": Case(
        lambda d: str(Contract.parse("6C").with_declarer(d)),
        Seat.SOUTH,
        ("S", "South"),
        "declarer",
        "6CS",
    ),
    "Card suit": Case(
        lambda s: str(Card(s, 12)),
        Strain.HEARTS,
        ("H", "♥", "hearts"),
        "suit",
        "HQ",
    ),
    "ParContract declarers": Case(
        lambda d: str(bs.ParContract(Contract.parse("5HX"), (d,), -2)),
        Seat.SOUTH,
        ("S", "south"),
        "declarers",
        "5HX-2 S",
    ),
    "Trick leader": Case(
        lambda s: bs.Trick(s, TRICK, Strain.SPADES).winner,
        Seat.WEST,
        ("W", "west"),
        "leader",
        Seat.EAST,  # West leads HA; East's S2 trumps it
    ),
    "Trick trump": Case(
        lambda t: bs.Trick(Seat.WEST, TRICK, t).winner,
        Strain.SPADES,
        ("S", "♠"),
        "trump",
        Seat.EAST,
    ),
    "Play.hand seat": Case(
        lambda s: len(bs.Play(ONE_SUIT, Contract.parse("7SN"), ["HA"]).hand(s)),
        Seat.EAST,
        ("E", "east"),
        "seat",
        12,  # East led the heart ace
    ),
    "play_deal dealer": Case(
        lambda d: bs.play_deal(
            ONE_SUIT,
            "1S AP",
            dealer=d,
            vulnerability=Vulnerability.NS,
            tricks=13,
        ).as_dict(),
        Seat.NORTH,
        ("N", "north"),
        "dealer",
    ),
    "play_deal vulnerability": Case(
        lambda v: bs.play_deal(
            ONE_SUIT, "4S AP", dealer=Seat.NORTH, vulnerability=v, tricks=13
        ).as_dict()["score_ns"],
        Vulnerability.NS,
        ("NS", "n-s", "N/S"),
        "vulnerability",
        710,  # 4S+3 vulnerable: 120 trick score, 3 x 30 overtricks, 500 game bonus
    ),
    "Deal[seat]": Case(
        lambda s: ONE_SUIT[s].to_pbn(),
        Seat.SOUTH,
        ("S", "south"),
        "seat",
        "..AKQJT98765432.",
    ),
    "Deal.to_pbn first": Case(
        lambda s: ONE_SUIT.to_pbn(s)[:2],
        Seat.WEST,
        ("W", "West"),
        "first",
        "W:",
    ),
    "Hand.length strain": Case(
        lambda s: ONE_SUIT[Seat.NORTH].length(s),
        Strain.SPADES,
        ("S", "♠", "spades"),
        "strain",
        13,
    ),
    "Hand.suit strain": Case(
        lambda s: ONE_SUIT[Seat.WEST].suit(s)[:2],
        Strain.CLUBS,
        ("C", "♣", "clubs"),
        "strain",
        (14, 13),
    ),
    "DDTable.tricks declarer": Case(
        lambda d: TABLE.tricks(d, Strain.NOTRUMP),
        Seat.EAST,
        ("E", "east"),
        "declarer",
        7,  # PBN digit 11 of 32929329297a4a47a4a4: East in NT
    ),
    "DDTable.tricks strain": Case(
        lambda s: TABLE.tricks(Seat.NORTH, s),
        Strain.HEARTS,
        ("H", "♥", "hearts"),
        "strain",
        9,  # PBN digit 3: North in hearts
    ),
    "Board dealer_seat": Case(
        lambda d: Board(1, ONE_SUIT, dealer_seat=d).dealer,
        Seat.WEST,
        ("W", "west"),
        "dealer_seat",
        Seat.WEST,
    ),
    "Board vulnerable": Case(
        lambda v: Board(1, ONE_SUIT, vulnerable=v).vulnerability,
        Vulnerability.EW,
        ("EW", "E-W"),
        "vulnerable",
        Vulnerability.EW,
    ),
    "RubberScore first_dealer": Case(
        lambda d: bs.RubberScore(first_dealer=d).dealer,
        Seat.EAST,
        ("E", "east"),
        "first_dealer",
        Seat.EAST,
    ),
    "rubber_entry first_dealer": Case(
        lambda d: rubber_entry((), parse_result("2H="), bs.Side.NS, first_dealer=d).dealer,
        Seat.SOUTH,
        ("S", "south"),
        "first_dealer",
        Seat.SOUTH,
    ),
    "ChicagoScore first_dealer": Case(
        lambda d: bs.ChicagoScore(d).dealer,
        Seat.WEST,
        ("W", "west"),
        "first_dealer",
        Seat.WEST,
    ),
    "chicago_dealer": Case(
        lambda d: chicago_dealer(3, d),
        Seat.NORTH,
        ("N", "north"),
        "first_dealer",
        Seat.SOUTH,  # deal 3 is dealt two seats on from deal 1
    ),
    "chicago_vulnerability": Case(
        lambda d: chicago_vulnerability(2, d),
        Seat.NORTH,
        ("N", "north"),
        "first_dealer",
        Vulnerability.EW,  # deal 2 (East deals): the dealer's side is vulnerable
    ),
    "chicago_entry first_dealer": Case(
        lambda d: chicago_entry((), parse_result("2H="), bs.Side.NS, first_dealer=d).dealer,
        Seat.EAST,
        ("E", "east"),
        "first_dealer",
        Seat.EAST,
    ),
    "declarer_tricks strain": Case(
        lambda s: declarer_tricks([ONE_SUIT], s, Seat.NORTH).tolist(),
        Strain.SPADES,
        ("S", "spades"),
        "strain",
        [13],
    ),
    "declarer_tricks declarer": Case(
        lambda d: declarer_tricks([ONE_SUIT], Strain.HEARTS, d).tolist(),
        Seat.EAST,
        ("E", "east"),
        "declarer",
        [13],
    ),
    "lead_tricks declarer": Case(
        lambda d: lead_tricks([ONE_SUIT], Strain.NOTRUMP, d).tolist(),
        Seat.SOUTH,
        ("S", "south"),
        "declarer",
    ),
    "simulate vul": Case(
        lambda v: _json(bs.simulate(4, seed=1, contract="3NT", by="S", vul=v)),
        Vulnerability.BOTH,
        ("Both", "All"),
        "vul",
    ),
    "simulate lead": Case(
        lambda s: _json(bs.simulate(4, seed=1, contract="3NT", by="S", lead=s)["leads"]),
        Seat.WEST,
        ("W", "west"),
        "lead",
    ),
    "simulate by": Case(
        lambda s: _json(bs.simulate(4, seed=1, contract="4S", by=s)),
        Seat.NORTH,
        ("N", "north"),
        "by",
    ),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_text_forms_give_the_enum_forms_answer(case: Case) -> None:
    answer = case.call(case.member)
    if case.expected is not None:
        assert answer == case.expected
    for text in case.texts:
        assert case.call(text) == answer, text


# A card's suit is a deal's matter: its bad text is an InvalidDealError of its own words.
NAMED = {key: case for key, case in CASES.items() if key != "Card suit"}


@pytest.mark.parametrize("case", NAMED.values(), ids=NAMED.keys())
def test_bad_text_is_named(case: Case) -> None:
    with pytest.raises(bs.NotationError) as raised:
        case.call("Sideways")
    message = str(raised.value)
    assert message.startswith(f"{case.name} must be "), message
    assert message.endswith(", got 'Sideways'"), message


@pytest.mark.parametrize("suit", ["Sideways", "NT", 4, None])
def test_a_card_names_a_bad_suit(suit: object) -> None:
    with pytest.raises(bs.InvalidDealError, match="not a suit"):
        Card(suit, 12)


# -- dir(bridgescore) ----------------------------------------------------------


def test_dir_lists_the_public_names_only() -> None:
    # Importing the modules named like the functions must not change what the
    # package shows.
    par_module = importlib.import_module("bridgescore.parscore")
    simulate_module = importlib.import_module("bridgescore.simulation.run")
    assert dir(bs) == sorted(bs.__all__)
    # The package's own imports, which dir() showed before.
    for helper in ("sys", "Any", "ModuleType", "import_module", "TYPE_CHECKING"):
        assert helper not in dir(bs)
    # Still the functions, not the modules of the same name.
    assert bs.par is par_module.par
    assert bs.simulate is simulate_module.simulate


def test_the_package_modules_load_on_first_use() -> None:
    # bs.formats.read_records, as a new user writes it, without importing it first.
    code = (
        "import bridgescore as bs; "
        "assert callable(bs.formats.read_records); "
        "assert bs.session.__name__ == 'bridgescore.session'; "
        "assert not hasattr(bs, 'no_such_module') and not hasattr(bs, '_formats')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    with pytest.raises(AttributeError, match="no attribute 'no_such_module'"):
        bs.no_such_module  # noqa: B018


# -- deal_many without a seed ----------------------------------------------------


def test_deal_many_with_a_seed_is_a_list_as_before() -> None:
    deals = bs.deal_many(3, seed=1)
    assert isinstance(deals, list)
    assert deals.seed == 1
    assert deals == [Deal.from_pbn(deal.to_pbn()) for deal in bs.deal_many(3, seed=1)]


def test_deal_many_without_a_seed_reports_the_seed_it_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The seed picked is the seed reported, and dealing from it is dealing from it.
    monkeypatch.setattr(bridgescore.dealer.dealing, "fresh_seed", lambda: 7)
    deals = bs.deal_many(4, where="hcp(north) >= 20")
    assert deals.seed == 7
    assert deals == bs.deal_many(4, seed=7, where="hcp(north) >= 20")


def test_a_seedless_call_can_be_repeated_from_its_seed() -> None:
    deals = bs.deal_many(3, predeal="N=AKQ2.KQ3.A54.KJ3")
    assert isinstance(deals.seed, int) and deals.seed >= 0
    assert len(deals) == 3
    assert all(str(deal[Seat.NORTH]) == "AKQ2.KQ3.A54.KJ3" for deal in deals)
    assert bs.deal_many(3, seed=deals.seed, predeal="N=AKQ2.KQ3.A54.KJ3") == deals


# -- Vulnerability.is_vulnerable: a side or a seat, or the text of either ----------


@pytest.mark.parametrize(
    ("who", "vulnerable"),
    [
        (bs.Side.NS, True),
        ("NS", True),
        ("n-s", True),
        (Seat.SOUTH, True),
        ("S", True),
        ("north", True),
        (bs.Side.EW, False),
        ("E/W", False),
        ("E", False),
        ("west", False),
    ],
)
def test_is_vulnerable_reads_sides_and_seats(who: object, vulnerable: bool) -> None:
    # North-South vulnerable (board 2, Law 2): North and South are, East and West not.
    assert Vulnerability.from_board(2).is_vulnerable(who) is vulnerable


def test_is_vulnerable_names_bad_text() -> None:
    with pytest.raises(bs.NotationError) as raised:
        Vulnerability.BOTH.is_vulnerable("Q")
    assert str(raised.value) == "who must be NS or EW, or a seat (N, E, S or W), got 'Q'"
