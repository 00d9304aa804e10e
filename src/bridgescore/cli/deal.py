"""``bridgescore deal``: random deals, or a tournament board set (``--boards``)."""

from __future__ import annotations

from typing import Annotated, Any

import numpy as np
import typer

from bridgescore.boardset import FORMATS, BoardSetFormat
from bridgescore.cli import boards as board_options
from bridgescore.cli.common import echo_json, fail
from bridgescore.core import Seat
from bridgescore.deal import Deal, random_deals

__all__ = ["deal_command"]


def _hand_json(deal: Deal) -> dict[str, Any]:
    return {
        seat.letter: {
            "hand": deal[seat].to_pbn(),
            "hcp": deal[seat].hcp,
            "shape": list(deal[seat].shape),
        }
        for seat in Seat
    }


def deal_command(
    count: Annotated[int, typer.Option("--count", "-n", min=0, help="How many deals.")] = 1,
    seed: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="A small seed for reproducible deals, for tests and examples (default: a "
            "fresh one, shown). With --boards it deals a guessable set: never use it for play.",
        ),
    ] = None,
    diagram: Annotated[bool, typer.Option(help="Show each deal as a hand diagram.")] = False,
    symbols: Annotated[bool, typer.Option(help="Show suit symbols in diagrams.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
    boards: Annotated[
        str | None,
        typer.Option(
            help="Deal a board set for play, such as 1-36 or 1-4,9: dealer and vulnerability "
            "by board number, each deal from a secret seed (OS cryptographic source, 96 bits "
            "a board), unbiased.",
            show_default=False,
        ),
    ] = None,
    fmt: Annotated[
        str,
        typer.Option("--format", help="Board-set output: pbn, lin (BBO upload), csv or json."),
    ] = "pbn",
    seed_file: Annotated[
        str | None,
        typer.Option(
            help="The set's secret seed: read it if the file exists (to deal the set again), "
            "else write a new one there (owner-only).",
            show_default=False,
        ),
    ] = None,
    commit: Annotated[
        str | None,
        typer.Option(
            help="With --boards: write the SHA-256 commitment of the seed to this file, to "
            "publish before play. With --verify: the commitment to check.",
            show_default=False,
        ),
    ] = None,
    analyse: Annotated[
        bool,
        typer.Option(
            "--analyse",
            help="Add DD tables and par (PBN 2.1 DoubleDummyTricks, OptimumResultTable, "
            "OptimumScore, ParContract), solved on all cores.",
        ),
    ] = False,
    threads: Annotated[
        int | None, typer.Option(min=1, help="DDS threads for --analyse (default: one per core).")
    ] = None,
    event: Annotated[
        str | None, typer.Option(help="Event name written with the set.", show_default=False)
    ] = None,
    verify: Annotated[
        str | None,
        typer.Option(
            help="Check a dealt set (PBN, LIN, CSV or JSON file) against its revealed "
            "--seed-file and, with --commit, its commitment. Exit 0 only if all match.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Deal random deals, or the boards of a session.

    Without --boards: uniformly random deals in PBN (one a line), the same
    for the same --seed on any machine.

    With --boards: a tournament board set after BigDeal's design, reproducible
    only from its secret seed (--seed-file); --commit lets players check
    afterwards that the boards were fixed before play (--verify).

    \b
    Examples:
      bridgescore deal --count 5 --seed 1
      bridgescore deal --seed 7 --diagram
      bridgescore deal --boards 1-36 --seed-file tonight.seed --commit tonight.commit > set.pbn
      bridgescore deal --boards 1-36 --seed-file tonight.seed --analyse > set.pbn
      bridgescore deal --boards 1-24 --seed-file tonight.seed --format lin > bbo.lin
      bridgescore deal --verify set.pbn --seed-file tonight.seed --commit tonight.commit
    """
    if verify is not None:
        board_options.verify_board_set(verify, seed_file, commit)
        return
    if boards is not None:
        board_options.deal_board_set(
            boards_text=boards,
            fmt="json" if as_json else _board_format(fmt),
            seed_number=seed,
            seed_file=seed_file,
            commit=commit,
            analysed=analyse,
            threads=threads,
            event=event,
        )
        return
    if seed_file or commit or analyse:
        raise fail(
            "--seed-file, --commit and --analyse deal a board set: add --boards 1-36", code=2
        )
    _random_deals(count, seed, diagram=diagram, symbols=symbols, as_json=as_json)


def _board_format(text: str) -> BoardSetFormat:
    for fmt in FORMATS:
        if text.lower() == fmt:
            return fmt
    raise fail(
        f"--format {text!r} is not a board-set format: expected pbn, lin, csv or json", code=2
    )


def _random_deals(
    count: int, seed: int | None, *, diagram: bool, symbols: bool, as_json: bool
) -> None:
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0])
        typer.echo(f"seed {seed} (pass --seed {seed} to deal these again)", err=True)
    deals = random_deals(seed, count)
    if as_json:
        echo_json(
            {
                "seed": seed,
                "deals": [
                    {"number": number, "deal": deal.to_pbn(), "hands": _hand_json(deal)}
                    for number, deal in enumerate(deals, start=1)
                ],
            }
        )
        return
    for number, deal in enumerate(deals, start=1):
        if diagram:
            typer.echo(f"Deal {number}: {deal.to_pbn()}\n")
            typer.echo(deal.diagram(symbols=symbols) + "\n")
        else:
            typer.echo(deal.to_pbn())
