"""The DDS solver against tables derived by reasoning and against DDS's own figures.

Hand-checkable deals come with their tables worked out in this file; the 1,000
deals of tests/data/par_vectors.jsonl carry tables computed by DDS independently.
By default a deterministic subset of 40 of them is solved (two DDS batches);
BRIDGESCORE_FULL=1 solves all 1,000 (about 70 s on 2 cores).
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import bridgescore as bs
from bridgescore import DDTable, Deal, InvalidDealError, Seat, Strain
from bridgescore.errors import ArgumentTypeError, InvalidArgumentError
from bridgescore.solver import MAX_DEALS_PER_CALL, solve_many

DATA = Path(__file__).parent / "data" / "par_vectors.jsonl"
FULL = os.environ.get("BRIDGESCORE_FULL") == "1"
SUITS = (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
WHOLE_SUIT = "AKQJT98765432"


def one_suit_each(owner_of: dict[Strain, Seat]) -> Deal:
    hands = []
    for seat in Seat:
        hands.append(".".join(WHOLE_SUIT if owner_of[suit] is seat else "" for suit in SUITS))
    return Deal.from_pbn("N:" + " ".join(hands))


def one_suit_each_table(owner_of: dict[Strain, Seat]) -> DDTable:
    """Reasoning: the opening leader (declarer's LHO) leads from a 13-card suit.

    In notrump nobody else can follow, so the leader's suit runs: declarer takes 0.
    With trumps, the trump holder is the only one who can win a trick: if he is
    on lead he runs trumps; otherwise he ruffs the opening lead and runs them.
    So the side holding the trump suit takes all 13 tricks.
    """
    rows = []
    for declarer in Seat:
        row = []
        for strain in Strain:
            if strain is Strain.NOTRUMP:
                row.append(0)
            else:
                row.append(13 if owner_of[strain].side == declarer.side else 0)
        rows.append(tuple(row))
    return DDTable(tuple(rows))  # type: ignore[arg-type]


def test_one_suit_each_all_24_arrangements() -> None:
    arrangements = [dict(zip(SUITS, seats, strict=True)) for seats in itertools.permutations(Seat)]
    deals = [one_suit_each(owner_of) for owner_of in arrangements]
    expected = [one_suit_each_table(owner_of) for owner_of in arrangements]
    assert solve_many(deals) == expected


def test_one_suit_each_hex() -> None:
    # N spades, E hearts, S diamonds, W clubs: worked out by hand from the rule above.
    deal = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
    assert str(bs.solve(deal)) == "0d0d00d0d000d0d00d0d"


def test_all_top_cards_in_one_hand() -> None:
    """North holds the top of every suit; East and West are never shorter than North.

    North: AKQJ of spades and AKQ of the other suits. East and West hold four
    spades and three of each other suit, so they follow to every card North
    leads and can never ruff; whoever leads first, North wins the trick and then
    runs winners. North-South take all 13 tricks in every strain.
    """
    deal = Deal.from_pbn("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 2.5432.5432.5432 6543.876.876.876")
    expected = DDTable(((13,) * 5, (0,) * 5, (13,) * 5, (0,) * 5))
    assert bs.solve(deal) == expected
    # The same deal turned one seat clockwise: now East-West hold everything.
    turned = Deal((deal[Seat.WEST], deal[Seat.NORTH], deal[Seat.EAST], deal[Seat.SOUTH]))
    assert bs.solve(turned) == DDTable(((0,) * 5, (13,) * 5, (0,) * 5, (13,) * 5))


def load_vectors() -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    return [(row["deal"], row["dd"]) for row in rows]


@pytest.mark.slow
def test_reproduces_dds_tables_of_par_vectors() -> None:
    vectors = load_vectors()
    assert len(vectors) == 1000
    if not FULL:
        # Every 25th deal: 40 deals, so the batching crosses a 32-deal boundary.
        vectors = vectors[::25]
    calls: list[tuple[int, int]] = []
    tables = solve_many(
        [Deal.from_pbn(pbn) for pbn, _ in vectors],
        progress=lambda done, total: calls.append((done, total)),
    )
    total = len(vectors)
    assert [str(table) for table in tables] == [dd for _, dd in vectors]
    expected_calls = [
        (min(done, total), total) for done in range(MAX_DEALS_PER_CALL, total + 31, 32)
    ]
    assert calls == expected_calls


def test_rotation_and_suit_swap_are_respected() -> None:
    # Metamorphic checks on random deals: turning the table turns the answer;
    # swapping two suits in every hand swaps those two strains.
    deals = bs.random_deals(3, seed=99)
    turned = [Deal((d[Seat.WEST], d[Seat.NORTH], d[Seat.EAST], d[Seat.SOUTH])) for d in deals]

    def swap_majors(deal: Deal) -> Deal:
        words = []
        for seat in Seat:
            spades, hearts, diamonds, clubs = deal[seat].to_pbn().split(".")
            words.append(".".join((hearts, spades, diamonds, clubs)))
        return Deal.from_pbn("N:" + " ".join(words))

    swapped = [swap_majors(deal) for deal in deals]
    tables = solve_many(deals + turned + swapped, threads=1)
    originals, rotated, exchanged = tables[:3], tables[3:6], tables[6:]
    for table, turned_table, swapped_table in zip(originals, rotated, exchanged, strict=True):
        for seat in Seat:
            for strain in Strain:
                assert turned_table.tricks(seat.rotate(1), strain) == table.tricks(seat, strain)
                other = {Strain.SPADES: Strain.HEARTS, Strain.HEARTS: Strain.SPADES}.get(
                    strain, strain
                )
                assert swapped_table.tricks(seat, other) == table.tricks(seat, strain)


def test_pbn_strings_and_threads() -> None:
    pbn = "N:KJ52.K7.T85.AJ87 A9863.Q3.Q3.T543 Q4.AJ862.J762.K2 T7.T954.AK94.Q96"
    # The table DDS gives for this deal, from tests/data/par_vectors.jsonl line 1.
    assert [str(t) for t in solve_many([pbn], threads=1)] == ["87788877884655556555"]
    assert str(bs.solve(pbn)) == "87788877884655556555"
    assert solve_many([], progress=lambda done, total: None) == []


def test_bad_input_never_reaches_dds() -> None:
    calls: list[tuple[int, int]] = []
    good = bs.random_deals(40, seed=1)
    bad = "N:AKQ.AKQ.AKQ.AKQJ2 ... ... ..."
    with pytest.raises(InvalidDealError, match="AKQ"):
        solve_many([*good, bad], progress=lambda done, total: calls.append((done, total)))
    assert calls == []  # nothing was solved before the bad deal was found
    with pytest.raises(ArgumentTypeError, match="deal 2"):
        solve_many([good[0], 42])  # type: ignore[list-item]
    for threads in (0, -1, 1.5, True):
        with pytest.raises(InvalidArgumentError, match="threads"):
            solve_many(good[:1], threads=threads)  # type: ignore[arg-type]


def test_missing_endplay_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("endplay", "endplay._dds", "endplay.dds", "endplay.types"):
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ImportError, match=r"bridgescore\[dds\]"):
        bs.solve(bs.random_deals(1, seed=1)[0])


# A fresh process: this one may have imported endplay whole already.
_SOLVE_THEN_USE_ENDPLAY = """
import importlib.metadata, sys, threading
import bridgescore as bs

pbn = "N:KJ52.K7.T85.AJ87 A9863.Q3.Q3.T543 Q4.AJ862.J762.K2 T7.T954.AK94.Q96"
print(bs.solve(pbn))
print("matplotlib" in sys.modules, "endplay.dealer" in sys.modules)
import endplay

# Eight threads reach for the package's own names at once: it is made whole once.
start = threading.Barrier(8)
seen = []
def reach():
    start.wait()
    seen.append((endplay.Deal, endplay.calc_dd_table))
threads = [threading.Thread(target=reach) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(len(seen), len(set(seen)), type(endplay).__name__)
print(endplay.__version__ == importlib.metadata.version("endplay"))
namespace = {}
exec("from endplay import *", namespace)
print(namespace["calc_dd_table"] is endplay.dds.calc_dd_table is endplay.calc_dd_table)
# endplay's own solver, through its own package, on the same deal.
table = endplay.calc_dd_table(endplay.Deal(pbn))
print(table.to_list()[4])
ours = bs.solve(pbn)
print([ours.tricks(seat, bs.Strain.NOTRUMP) for seat in bs.Seat])
"""


def _in_a_fresh_interpreter(script: str) -> str:
    """What ``script`` prints, run by a Python of its own (this one may have imported
    endplay whole already)."""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_solving_runs_no_more_of_endplay_than_dds_and_leaves_it_whole() -> None:
    lines = _in_a_fresh_interpreter(_SOLVE_THEN_USE_ENDPLAY).splitlines()
    # Line 1 of tests/data/par_vectors.jsonl (DDS), as above.
    assert lines[0] == "87788877884655556555"
    # Solving ran neither endplay's dealer nor the matplotlib it imports ...
    assert lines[1] == "False False"
    # ... and the package is whole for whoever uses it after: the same names from every
    # thread, its version, its star import, and its own solver (CalcDDtable), which gives
    # the notrump tricks of N, E, S, W that ours (CalcAllTables) gives.
    assert lines[2:5] == ["8 1 module", "True", "True"]
    assert lines[5] == lines[6] == "[8, 4, 8, 5]"


def test_endplay_imported_first_is_left_as_it_is() -> None:
    script = (
        "import endplay, sys\n"
        "import bridgescore as bs\n"
        "print(bs.solve('N:KJ52.K7.T85.AJ87 A9863.Q3.Q3.T543 Q4.AJ862.J762.K2 T7.T954.AK94.Q96'),"
        " sys.modules['endplay'] is endplay, type(endplay).__name__)\n"
    )
    # The table of line 1 of tests/data/par_vectors.jsonl (DDS), as above.
    assert _in_a_fresh_interpreter(script).split() == ["87788877884655556555", "True", "module"]


def test_a_star_import_first_makes_endplay_whole() -> None:
    # `from endplay import *` asks the package for its __all__ first: that makes it whole.
    script = (
        "import sys\n"
        "import bridgescore as bs\n"
        "bs.solve(bs.random_deals(1, seed=3)[0])\n"
        "from endplay import *\n"
        "import endplay.types\n"
        "print(Deal is endplay.types.Deal, 'calc_all_tables' in dir(), type(endplay).__name__)\n"
    )
    assert _in_a_fresh_interpreter(script).split() == ["True", "True", "module"]
