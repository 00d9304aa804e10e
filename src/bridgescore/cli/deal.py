"""``bridgescore deal``: random deals, deals under a ``dealer`` condition and predeals,
or a tournament board set (``--boards``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bridgescore.cli.progress import ProgressOption

# Dealing's own modules are imported when used, so `bridgescore deal` starts
# without the formats, board sets and DDS that its other options need.
if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from bridgescore.formats.boardset import BoardSetFormat

__all__ = ["deal_command"]


def _fresh_seed() -> int:
    from bridgescore.dealer.dealing import fresh_seed

    seed = fresh_seed()
    typer.echo(f"seed {seed} (pass --seed {seed} to deal these again)", err=True)
    return seed


def _fail(error: Any, code: int = 1) -> typer.Exit:
    from bridgescore.cli.common import fail

    return fail(error, code)


def _owner_chunks(
    count: int,
    seed: int,
    where: str,
    predeal: list[str],
    processes: int,
    scheduler: str | None = None,
) -> Iterator[npt.NDArray[np.int8]]:
    """Owner arrays of the deals asked for, chunk after chunk.

    With or without a condition, the deals come from the package's one dealer
    (deal n of the seed, :func:`bridgescore.dealer.dealing.deal_range`), so
    ``deal``, ``simulate``, ``study`` and ``deal_many`` deal the same hands for
    the same seed, whatever the number of processes.
    """
    from bridgescore.errors import BridgeError

    try:
        if processes == 1 and scheduler is None:
            # This process deals: the same chunks as the pool would, without its imports.
            from bridgescore.dealer.dealing import iter_deal_chunks

            yield from iter_deal_chunks(count, seed=seed, where=where, predeal=predeal)
            return
        from bridgescore.simulation.pool import dealt_chunks

        yield from dealt_chunks(
            count,
            seed=seed,
            where=where,
            predeal=predeal,
            processes=processes,
            scheduler=scheduler,
        )
    except BridgeError as error:
        raise _fail(error) from None


def _print_pbn(chunks: Iterator[npt.NDArray[np.int8]], diagram: bool, symbols: bool) -> None:
    from bridgescore.dealer.dealing import pbn_lines, pbn_strings

    out = sys.stdout
    if not diagram:
        # ASCII lines straight to the byte stream when there is one (no str objects).
        binary = getattr(out, "buffer", None)
        for owners in chunks:
            lines = pbn_lines(owners)
            if binary is not None:
                out.flush()
                binary.write(lines)
            else:
                out.write(lines.decode("ascii"))
        out.flush()
        return
    from bridgescore.deal import Deal

    number = 0
    for owners in chunks:
        for line in pbn_strings(owners):
            number += 1
            deal = Deal.from_pbn(line)
            out.write(f"Deal {number}: {line}\n\n{deal.diagram(symbols=symbols)}\n\n")
    out.flush()


def _print_json(
    chunks: Iterator[npt.NDArray[np.int8]], seed: int, where: str, predeal: list[str]
) -> None:
    from bridgescore.cli.common import echo_json, hand_json
    from bridgescore.deal import Deal
    from bridgescore.dealer.dealing import pbn_strings

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
    output: Annotated[
        str | None,
        typer.Argument(
            metavar="[OUT]",
            help="With --boards: the file to write the set to (default: standard output; "
            "needed for --format dlm and dup).",
            show_default=False,
        ),
    ] = None,
    count: Annotated[int, typer.Option("--count", "-n", min=0, help="How many deals.")] = 1,
    seed: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="A small seed for reproducible deals, for tests and examples (default: a "
            "fresh one, shown). With --boards it deals a guessable set: never use it for play.",
        ),
    ] = None,
    predeal: Annotated[
        list[str] | None,
        typer.Option(
            "--predeal",
            "-p",
            help="Cards given to a seat before dealing, repeatable: a whole hand "
            "'N=AKQ2.KQ3.A54.KJ3', some cards 'S=AK..x.' (x: any small card 2-9), "
            "dealer's 'S=SAK,HQJ', or a whole PBN deal 'N:... ... ... ...' (a predeal "
            "for each hand; '-' for a hand not given).",
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
        str,
        typer.Option(
            "--format",
            "-f",
            help="pbn: one deal a line; json: details. A board set (--boards) is written as "
            "pbn (Board, Dealer, Vulnerable, Deal), lin (BBO upload), csv, json, or for "
            "Duplimate's dealing machine dlm or dup (to a file OUT).",
        ),
    ] = "pbn",
    as_json: Annotated[bool, typer.Option("--json", help="The same as --format json.")] = False,
    diagram: Annotated[bool, typer.Option(help="Show each deal as a hand diagram.")] = False,
    symbols: Annotated[bool, typer.Option(help="Show suit symbols in diagrams.")] = False,
    processes: Annotated[
        int,
        typer.Option(
            min=0, help="Processes dealing under a condition (0: one per core; 1: this one)."
        ),
    ] = 1,
    scheduler: Annotated[
        str | None,
        typer.Option(
            help="Deal on the Dask cluster at this scheduler address (tcp://host:8786) "
            "instead: the same deals, chunk by chunk (see docs/par-study.md#on-a-cluster).",
            show_default=False,
        ),
    ] = None,
    boards: Annotated[
        str | None,
        typer.Option(
            help="Deal a board set for play, such as 1-36 or 1-4,9: dealer and vulnerability "
            "by board number, each deal from a secret seed (OS cryptographic source, 96 bits "
            "a board), unbiased. With --where or --predeal: practice deals, numbered as "
            "these boards.",
            show_default=False,
        ),
    ] = None,
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
            "OptimumScore, ParContract), solved on all cores. Not with --format lin, which "
            "has no place for them: convert an analysed PBN set to LIN instead.",
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
    progress: ProgressOption = None,
) -> None:
    """Deal random deals, deals that satisfy a condition, or the boards of a session.

    Without --boards: deals in PBN (one a line). The same seed, predeals and
    condition give the same deals on any machine, and the same deals as
    `bridgescore simulate` and `bridgescore.deal_many`.

    With --boards: a tournament board set after BigDeal's design, reproducible
    only from its secret seed (--seed-file); --commit lets players check
    afterwards that the boards were fixed before play (--verify). With --boards
    and --where (or --predeal): practice deals as numbered boards, each with its
    number's dealer and vulnerability, from --seed as deals without --boards are.

    \b
    Examples:
      bridgescore deal --count 5 --seed 1
      bridgescore deal --seed 7 --diagram
      bridgescore deal -n 100 --seed 2 --json
      bridgescore deal -n 10 --seed 1 --where "hcp(north) >= 15 && hcp(north) <= 17"
      bridgescore deal -n 3 --seed 1 --predeal S=AQ542.KJ87.32.AK --where "hcp(north) >= 12"
      bridgescore deal --boards 1-36 --seed-file tonight.seed --commit tonight.commit > set.pbn
      bridgescore deal --boards 1-36 --seed-file tonight.seed --analyse > set.pbn
      bridgescore deal --boards 1-24 --seed-file tonight.seed --format lin > bbo.lin
      bridgescore deal --boards 1-32 --seed-file tonight.seed --format dlm tonight.dlm
      bridgescore deal --boards 1-8 --seed 4 --where "hcp(south) >= 20" practice.pbn
      bridgescore deal --verify set.pbn --seed-file tonight.seed --commit tonight.commit
    """
    fmt = output_format.lower()
    if verify is not None:
        from bridgescore.cli import boards as board_options

        board_options.verify_board_set(verify, seed_file, commit)
        return
    if boards is not None:
        from bridgescore.cli import boards as board_options

        chosen = "json" if as_json else _board_format(fmt)
        if where or predeal:
            if seed_file or commit:
                raise _fail(
                    "--seed-file and --commit keep a set for play secret; practice deals "
                    "(--where, --predeal) are dealt from --seed",
                    code=2,
                )
            _practice_boards(
                boards, chosen, output, seed, where, list(predeal or []), processes, scheduler
            )
            return
        if scheduler:
            raise _fail(
                "--scheduler deal random deals, not a board set: practice boards dealt "
                "under --where may use it",
                code=2,
            )
        if analyse and chosen in ("dlm", "dup"):
            raise _fail(
                f"--analyse adds DD tables and par, which a dealing machine's .{chosen} file "
                "has no place for: write the set as --format pbn too, for the hand records",
                code=2,
            )
        if analyse and chosen == "lin":
            # Refused before dealing, solving or writing a seed: the LIN board line is
            # BBO's upload form, which has no place for the analysis, and DDS would run
            # for nothing. convert writes LIN that keeps it (as its own tags).
            raise _fail(
                "--analyse adds DD tables and par, which the LIN board form (BBO's upload) "
                "has no place for: write --format pbn, json or csv, then "
                "'bridgescore convert set.pbn set.lin' for a LIN file that keeps them",
                code=2,
            )
        board_options.deal_board_set(
            boards_text=boards,
            fmt=chosen,
            seed_number=seed,
            seed_file=seed_file,
            commit=commit,
            analysed=analyse,
            threads=threads,
            event=event,
            progress=progress,
            output=output,
        )
        return
    if output is not None:
        raise _fail(
            f"{output!r}: only a board set (--boards) is written to a file; deals without "
            "--boards go to standard output",
            code=2,
        )
    if seed_file or commit or analyse:
        raise _fail(
            "--seed-file, --commit and --analyse deal a board set: add --boards 1-36", code=2
        )
    if fmt not in ("pbn", "json"):
        raise _fail(
            f"--format {output_format!r}: expected pbn or json (lin and csv are for --boards)",
            code=2,
        )
    predeals = list(predeal or [])
    if seed is None:
        seed = _fresh_seed()
    chunks = _owner_chunks(count, seed, where, predeals, processes, scheduler)
    if as_json or fmt == "json":
        _print_json(chunks, seed, where, predeals)
    else:
        _print_pbn(chunks, diagram, symbols)


def _practice_boards(
    boards_text: str,
    fmt: BoardSetFormat,
    output: str | None,
    seed: int | None,
    where: str,
    predeal: list[str],
    processes: int,
    scheduler: str | None,
) -> None:
    """``deal --where ... --boards 1-8``: the condition's deals as numbered boards."""
    from bridgescore.boardset import parse_board_range
    from bridgescore.cli import boards as board_options
    from bridgescore.deal import deals_from_array
    from bridgescore.errors import BridgeError

    try:
        numbers = parse_board_range(boards_text)
    except BridgeError as error:
        raise _fail(error, code=2) from None
    board_options.check_set_output(numbers, fmt, output)
    if seed is None:
        seed = _fresh_seed()
    chunks = _owner_chunks(len(numbers), seed, where, predeal, processes, scheduler)
    deals = [deal for owners in chunks for deal in deals_from_array(owners)]
    board_options.deal_practice_set(deals, numbers, fmt, output)


def _board_format(text: str) -> BoardSetFormat:
    from bridgescore.formats.boardset import FORMATS

    for fmt in FORMATS:
        if text == fmt:
            return fmt
    raise _fail(
        f"--format {text!r} is not a board-set format: expected pbn, lin, csv, json, dlm or dup",
        code=2,
    )
