"""``bridgescore deal``: random deals, or deals under a ``dealer`` condition and predeals."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from enum import StrEnum
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt
import typer

from bridgescore.cli.common import echo_json, fail
from bridgescore.core import Seat
from bridgescore.deal import Deal, random_deal_array
from bridgescore.errors import BridgeError

__all__ = ["DealFormat", "deal_command", "hand_json"]


class DealFormat(StrEnum):
    """Output formats of ``deal``."""

    PBN = "pbn"
    JSON = "json"


def hand_json(deal: Deal) -> dict[str, Any]:
    """Each hand's PBN text, points and shape, keyed by seat letter."""
    return {
        seat.letter: {
            "hand": deal[seat].to_pbn(),
            "hcp": deal[seat].hcp,
            "shape": list(deal[seat].shape),
        }
        for seat in Seat
    }


def _fresh_seed() -> int:
    seed = int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0])
    typer.echo(f"seed {seed} (pass --seed {seed} to deal these again)", err=True)
    return seed


def _owner_chunks(
    count: int, seed: int, where: str, predeal: list[str], processes: int
) -> Iterator[npt.NDArray[np.int8]]:
    """Owner arrays of the deals asked for, chunk after chunk."""
    if not where and not predeal:
        # Plain random deals keep their documented stream (docs/deals.md).
        yield random_deal_array(seed, count)
        return
    from bridgescore.simulate.pool import dealt_chunks

    try:
        yield from dealt_chunks(count, seed=seed, where=where, predeal=predeal, processes=processes)
    except BridgeError as error:
        raise fail(error) from None


def _print_pbn(chunks: Iterator[npt.NDArray[np.int8]], diagram: bool, symbols: bool) -> None:
    from bridgescore.dealer import pbn_strings

    number = 0
    out = sys.stdout
    for owners in chunks:
        lines = pbn_strings(owners)
        if not diagram:
            out.write("\n".join(lines) + ("\n" if lines else ""))
            continue
        for line in lines:
            number += 1
            deal = Deal.from_pbn(line)
            out.write(f"Deal {number}: {line}\n\n{deal.diagram(symbols=symbols)}\n\n")
    out.flush()


def _print_json(
    chunks: Iterator[npt.NDArray[np.int8]], seed: int, where: str, predeal: list[str]
) -> None:
    from bridgescore.dealer import pbn_strings

    deals = [Deal.from_pbn(text) for owners in chunks for text in pbn_strings(owners)]
    data: dict[str, Any] = {"seed": seed}
    if where or predeal:
        data.update({"where": where, "predeal": predeal})
    data["deals"] = [
        {"number": number, "deal": deal.to_pbn(), "hands": hand_json(deal)}
        for number, deal in enumerate(deals, start=1)
    ]
    echo_json(data)


def deal_command(
    count: Annotated[int, typer.Option("--count", "-n", min=0, help="How many deals.")] = 1,
    seed: Annotated[
        int | None,
        typer.Option(min=0, help="Seed for reproducible deals (default: a fresh one, shown)."),
    ] = None,
    predeal: Annotated[
        list[str] | None,
        typer.Option(
            "--predeal",
            "-p",
            help="Cards given to a seat before dealing, repeatable: a whole hand "
            "'N=AKQ2.KQ3.A54.KJ3', some cards 'S=AK..x.' (x: any small card 2-9), or "
            "dealer's 'S=SAK,HQJ'.",
            show_default=False,
        ),
    ] = None,
    where: Annotated[
        str,
        typer.Option(
            "--where",
            "-w",
            help="Keep only deals satisfying this condition, in the language of the "
            "'dealer' program: \"hcp(south) >= 15 && shape(south, any 4333 + any 4432)\" "
            "(see docs/simulate.md).",
        ),
    ] = "",
    output_format: Annotated[
        DealFormat, typer.Option("--format", "-f", help="pbn: one deal a line; json: details.")
    ] = DealFormat.PBN,
    as_json: Annotated[bool, typer.Option("--json", help="The same as --format json.")] = False,
    diagram: Annotated[bool, typer.Option(help="Show each deal as a hand diagram.")] = False,
    symbols: Annotated[bool, typer.Option(help="Show suit symbols in diagrams.")] = False,
    processes: Annotated[
        int,
        typer.Option(
            min=0, help="Processes dealing under a condition (0: one per core; 1: this one)."
        ),
    ] = 1,
) -> None:
    """Deal random deals, or deals that satisfy a condition, in PBN (one a line).

    The same seed, predeals and condition give the same deals on any machine, and
    the same deals as `bridgescore simulate` and `bridgescore.deal_many`.

    \b
    Examples:
      bridgescore deal --count 5 --seed 1
      bridgescore deal --seed 7 --diagram
      bridgescore deal -n 100 --seed 2 --json
      bridgescore deal -n 10 --seed 1 --where "hcp(north) >= 15 && hcp(north) <= 17"
      bridgescore deal -n 3 --seed 1 --predeal S=AQ542.KJ87.32.AK --where "hcp(north) >= 12"
    """
    predeals = list(predeal or [])
    if seed is None:
        seed = _fresh_seed()
    chunks = _owner_chunks(count, seed, where, predeals, processes)
    if as_json or output_format is DealFormat.JSON:
        _print_json(chunks, seed, where, predeals)
    else:
        _print_pbn(chunks, diagram, symbols)
