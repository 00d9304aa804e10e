"""``bridgescore analyse``: the morning after, board by board (:mod:`bridgescore.postmortem`)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Annotated, Any

import typer

from bridgescore.cli.common import echo_json, fail, read_input_records
from bridgescore.cli.deal_input import board_of_text, deal_or_file
from bridgescore.cli.outputs import check_output_path
from bridgescore.errors import BridgeError
from bridgescore.formats.record import BoardRecord
from bridgescore.postmortem.review import BoardReview, Review, analyse
from bridgescore.session.store.events import is_sqlite_file

__all__ = ["analyse_command", "review_text"]


def analyse_command(
    source: Annotated[
        list[str],
        typer.Argument(
            metavar="FILE|DEAL",
            help="The boards played: a PBN, LIN (a BBO hand history or vugraph archive) "
            "or JSON file ('-' for standard input), an event file (each table's result; "
            "the auctions and play a Bridgemate database gave), or one LIN record or BBO "
            "handviewer link with its auction and play.",
            show_default=False,
        ),
    ],
    board: Annotated[
        list[int] | None,
        typer.Option(
            "--board",
            "-b",
            min=1,
            help="Only this board (repeat for more).",
            show_default=False,
        ),
    ] = None,
    html: Annotated[
        str | None,
        typer.Option(
            "--html",
            help="Also write the hand viewer page to this .html file.",
            show_default=False,
        ),
    ] = None,
    threads: Annotated[
        int | None, typer.Option(min=1, help="DDS threads (default: one per core).")
    ] = None,
    lead_sim: Annotated[
        int | None,
        typer.Option(
            "--lead-sim",
            min=1,
            help="Also deal N layouts of the hidden hands round the leader's hand and give "
            "each lead's mean tricks for declarer and chance to set the contract.",
            show_default=False,
        ),
    ] = None,
    where: Annotated[
        str | None,
        typer.Option(
            "--where",
            help="With --lead-sim: a dealer condition the layouts must meet (what the "
            "auction showed), as 'deal --where' takes it.",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", min=0, help="With --lead-sim: the same seed deals the same layouts."
        ),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            help="With --lead-sim: a Dask scheduler address (tcp://host:8786) to run on.",
            show_default=False,
        ),
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="One JSON object per board (docs/analyse.md).")
    ] = False,
) -> None:
    """Each board's result against double dummy and par, the opening lead's cost for
    every card the leader held, and, where the play is recorded, each card's cost.

    A card's cost is the tricks it gave away double dummy (DDS): declarer's tricks
    before and after it differ. A claim is checked against double dummy. Par uses
    the dealer-first convention, as the hand records do.

    \b
    Examples:
      bridgescore analyse tuesday.lin
      bridgescore analyse session.pbn --board 7 --board 12
      bridgescore analyse session.pbn --json > review.json
      bridgescore analyse "https://www.bridgebase.com/tools/handviewer.html?lin=..."
      bridgescore analyse tuesday.lin --html tuesday.html
    """
    if lead_sim is None:
        given = [
            name
            for name, value in (("--where", where), ("--seed", seed), ("--scheduler", scheduler))
            if value is not None
        ]
        if given:
            raise fail(f"{', '.join(given)} needs --lead-sim N (the layouts to deal)", code=2)
    elif where:
        from bridgescore.dealer.condition import parse_condition

        try:
            parse_condition(where)
        except BridgeError as error:
            raise fail(f"--where: {error}", code=2) from None
    if html is not None:
        if not html.lower().endswith((".html", ".htm")):
            raise fail(f"--html {html!r}: expected a file name ending in .html", code=2)
        check_output_path(html, "--html")
    records = _records(source)
    if board:
        present = {record.board for record in records}
        missing = sorted(set(board) - present)
        if missing:
            raise fail(
                f"--board {', '.join(map(str, missing))}: no such board in the file "
                f"(it holds {_numbers(present)})",
                code=2,
            )
        records = [record for record in records if record.board in set(board)]
    try:
        review = analyse(records, threads=threads)
    except BridgeError as error:
        raise fail(error) from None
    if html is not None:
        from bridgescore.postmortem.page import review_html

        try:
            Path(html).write_text(review_html(review), encoding="utf-8")
        except OSError as error:
            raise fail(f"cannot write {html!r}: {error.strerror}", code=2) from None
    simulated = (
        None
        if lead_sim is None
        else _lead_simulations(review, lead_sim, where or "", seed, scheduler)
    )
    if json_out:
        entries = review.as_list()
        if simulated is not None:
            for entry, found in zip(entries, simulated, strict=True):
                entry["lead_sim"] = found
        echo_json(entries)
    else:
        typer.echo(review_text(review, simulated))
    for skipped in review.skipped:
        where = f" (line {skipped.line})" if skipped.line else ""
        typer.echo(f"board {skipped.board or '?'}{where} skipped: {skipped.reason}", err=True)
    for skipped in (*review.skipped_plays, *review.misread):
        where = f" (line {skipped.line})" if skipped.line else ""
        typer.echo(f"board {skipped.board or '?'}{where}: {skipped.reason}", err=True)
    if html is not None:
        typer.echo(f"{len(review)} board(s) written to {html}", err=True)
    if review.skipped:  # (a play left out is a note: the board itself is reviewed)
        raise typer.Exit(1)


def _records(source: list[str]) -> list[BoardRecord]:
    given = deal_or_file(source)
    if given is None:
        raise fail("analyse needs a file of boards, or a LIN record or handviewer link", code=2)
    if given.path is not None:
        if given.path != "-" and is_sqlite_file(Path(given.path)):
            return _event_records(given.path)
        return read_input_records(given.path)
    assert given.text is not None
    return [board_of_text(given.text, other="a LIN record, a handviewer link ")]


def _lead_simulations(
    review: Review, layouts: int, where: str, seed: int | None, scheduler: str | None
) -> list[dict[str, Any] | None]:
    from bridgescore.postmortem.leads import lead_simulation

    found = []
    for board in review:
        try:
            found.append(
                lead_simulation(board, layouts, where=where, seed=seed, scheduler=scheduler)
            )
        except BridgeError as error:
            raise fail(error, code=2) from None
    return found


def _event_records(path: str) -> list[BoardRecord]:
    """The played results of an event file, each a board to review."""
    from bridgescore.session.played import played_records

    try:
        records = played_records(path)
    except BridgeError as error:
        raise fail(error, code=2) from None
    if not records:
        # A Bridgemate file without its hand records is the usual case: say what to add.
        raise fail(
            f"{path!r}: the event holds no played result of a board with its deal: import "
            f"the hand records (a PBN of the deals) with 'bridgescore session import {path} "
            "HANDS.pbn', then analyse it again"
        )
    return records


def _numbers(numbers: set[int | None]) -> str:
    known = sorted(number for number in numbers if number is not None)
    if not known:
        return "no board numbers"
    return "boards " + ", ".join(map(str, known))


def review_text(review: Review, simulated: list[dict[str, Any] | None] | None = None) -> str:
    """The review as the terminal shows it: a paragraph per board (with its lead
    simulation, when given one per board)."""
    texts = []
    for index, board in enumerate(review):
        text = _board_text(board)
        found = None if simulated is None else simulated[index]
        if found is not None:
            text += "\n" + _lead_sim_text(found)
        texts.append(text)
    return "\n\n".join(texts)


def _lead_sim_text(found: dict[str, Any]) -> str:
    where = f", where {found['where']}" if found["where"] else ""
    lines = [f"  Single dummy ({found['layouts']} layouts, seed {found['seed']}{where}):"]
    ranked = sorted(found["leads"].items(), key=lambda item: (-item[1]["set"], item[0]))
    for card, figures in ranked:
        lines.append(
            f"    {card}  declarer {figures['tricks']:.2f} ± {figures['tricks_se']:.2f} tricks, "
            f"set {100 * figures['set']:.1f}% ± {100 * figures['set_se']:.1f}%"
        )
    return "\n".join(lines)


def _board_text(board: BoardReview) -> str:
    title = (
        f"Board {board.number or '?'}  dealer {board.dealer.letter}  "
        f"vulnerable {board.vulnerability.to_pbn()}"
    )
    lines = [title, f"  {board.deal.to_pbn()}"]
    par_contracts = ", ".join(str(contract) for contract in board.par.contracts) or "passed out"
    par_line = f"  Par {board.par.score:+d} ({par_contracts})"
    if board.contract is None:
        result = "passed out" if board.score_ns == 0 else "no result recorded"
        lines.append(f"  {result}")
        if board.versus_par is not None:
            par_line += f": {_against(board)}"
        lines.append(par_line)
        return "\n".join(lines)
    declarer = board.declarer
    assert declarer is not None
    contract = board.as_dict()["contract"]
    made = "" if board.tricks is None else f", {board.tricks} tricks"
    score = "" if board.score_ns is None else f", NS {board.score_ns:+d}"
    lines.append(f"  {contract} by {declarer.letter}{made}{score}")
    lines.append(f"  Double dummy: {board.dd_tricks} tricks")
    lines.append(f"{par_line}: {_against(board)}")
    lead = board.lead
    assert lead is not None
    by_tricks: dict[int, list[str]] = defaultdict(list)
    for card, tricks in lead.tricks:
        by_tricks[tricks].append(str(card))
    table = "; ".join(f"{t}: {' '.join(cards)}" for t, cards in sorted(by_tricks.items()))
    led = "not recorded" if lead.card is None else f"{lead.card} (cost {lead.cost})"
    lines.append(f"  Lead by {lead.seat.letter}: {led}")
    lines.append(f"  Declarer's tricks after each lead: {table}")
    costly = [card for card in board.play if card.cost]
    if board.play:
        costs = board.costs
        assert costs is not None
        lines.append(f"  Tricks given away: declarer's side {costs[0]}, defence {costs[1]}")
        for cost in costly:
            lines.append(
                f"    trick {cost.trick}: {cost.seat.letter} {cost.card} cost {cost.cost} "
                f"({cost.before} -> {cost.after})"
            )
    if board.claim is not None:
        claimed, dd = board.claim
        verdict = "double dummy agrees" if claimed == dd else f"double dummy {dd}"
        lines.append(f"  Claim: {claimed} tricks ({verdict})")
    return "\n".join(lines)


def _against(board: BoardReview) -> str:
    points = board.versus_par
    if points is None:
        return "no result to compare"
    return f"{points:+d} against par ({board.versus_par_imps:+d} IMPs)"
