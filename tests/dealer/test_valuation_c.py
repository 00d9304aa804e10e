"""cccc, quality, pointcount and altcount against the C ``dealer`` program itself.

Hans van Staveren's ``dealer`` (Debian package ``dealer``, installed as
/usr/games/dealer) deals 300 deals from a seed; with the same seed it generates
the same deals whatever the condition, and keeps those that pass. So running it
once per bit of ``(E + 1000) / 2**k % 2 == 1`` tells each deal's exact value of
E as ``dealer`` computes it, to compare with ours on the same deals. Skipped, with
a message, on a machine without ``dealer``.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from bridgescore.deal import Deal
from dealer.test_valuation import BITS, OFFSET, values

DEALER = shutil.which("dealer") or (
    "/usr/games/dealer" if Path("/usr/games/dealer").exists() else None
)
if DEALER is None:
    pytest.skip(
        "the C dealer is not installed (apt-get install dealer): nothing to compare with",
        allow_module_level=True,
    )
COUNT, SEED = 300, 5


def run_dealer(tmp: Path, condition: str, declarations: str = "") -> list[str]:
    """The deals ``dealer`` keeps, as its one-line texts, in the order it dealt them."""
    script = tmp / "input.dlr"
    script.write_text(
        f"generate {COUNT}\nproduce {COUNT}\n{declarations}\n"
        f"condition {condition}\naction printoneline\n"
    )
    assert DEALER is not None
    output = subprocess.run(
        [DEALER, "-s", str(SEED), str(script)], capture_output=True, text=True, check=True
    ).stdout
    return [line.strip() for line in output.splitlines() if line.startswith("n ")]


def pbn(line: str) -> str:
    # "n AK.. e .. s .. w .." -> "N:AK.. .. .. .."
    words = line.split()
    assert words[0::2] == ["n", "e", "s", "w"], line
    return "N:" + " ".join(words[1::2])


@pytest.fixture(scope="module")
def dealt(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], np.ndarray]:
    lines = run_dealer(tmp_path_factory.mktemp("dealer"), "1")
    assert len(lines) == COUNT
    owners = np.array([Deal.from_pbn(pbn(line)).to_array() for line in lines])
    return lines, owners


def dealer_values(
    tmp: Path, lines: list[str], expression: str, declarations: str = ""
) -> list[int]:
    total = dict.fromkeys(lines, 0)
    for bit in range(BITS):
        kept = run_dealer(tmp, f"(({expression}) + {OFFSET}) / {2**bit} % 2 == 1", declarations)
        assert set(kept) <= set(total)  # the same deals, fewer of them
        for line in kept:
            total[line] += 1 << bit
    return [total[line] - OFFSET for line in lines]


@pytest.mark.parametrize(
    "expression",
    [
        "cccc(north)",
        "cccc(west)",
        "quality(south, spades)",
        "quality(east, clubs)",
        "quality(north, hearts) + quality(north, diamonds)",
    ],
)
def test_kaplan_rubens_values_are_dealers(
    expression: str, dealt: tuple[list[str], np.ndarray], tmp_path: Path
) -> None:
    lines, owners = dealt
    assert values(expression, owners) == dealer_values(tmp_path, lines, expression)


def test_pointcount_is_dealers(dealt: tuple[list[str], np.ndarray], tmp_path: Path) -> None:
    lines, owners = dealt
    declaration = "pointcount 6 4 2 1 0 0 0 0 0 0 0 0 1"
    ours = values("hcp(south) + hcp(east, spades)", owners, declaration)
    assert ours == dealer_values(tmp_path, lines, "hcp(south) + hcp(east, spades)", declaration)


def test_altcount_numbers_follow_the_manual(
    dealt: tuple[list[str], np.ndarray], tmp_path: Path
) -> None:
    # The manual numbers the alternative counts 0 to 9 as pt0 to pt9. Debian's dealer
    # numbers its internal tables instead: its altcount 0 is hcp, 1 controls, N + 2 is ptN.
    # bridgescore follows the manual, so its "altcount 5" is this dealer's "altcount 7".
    lines, owners = dealt
    ours = values("pt5(north) + top2(west, hearts)", owners, "altcount 5 3 2 1")
    theirs = dealer_values(tmp_path, lines, "pt5(north) + top2(west, hearts)", "altcount 7 3 2 1")
    assert ours == theirs
