"""``bridgescore demo``: the main job on built-in examples (what ``make run`` shows)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import typer

from bridgescore.cli.common import fail
from bridgescore.cli.outputs import check_output_directory
from bridgescore.cli.score import format_breakdown, score_table
from bridgescore.ddtable import DDTable
from bridgescore.scoring import score_breakdown

__all__ = ["demo_command", "demo_folder"]

EXAMPLES = [
    ("4DX +1", True),
    ("3NT-2", False),
    ("6NTXX=", False),
    ("4♠ by N making 5", False),
    ("1NTXX+6", True),
    ("7SX-13", True),
]


def demo_folder(out: Path | None) -> Path:
    """The folder the demo writes to: ``out`` (created if missing), else a fresh
    temporary folder, never the current directory (which may not be writable)."""
    if out is None:
        return Path(tempfile.mkdtemp(prefix="bridgescore-demo-"))
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise fail(
            f"--out {str(out)!r}: cannot make the folder: {error.strerror}", code=2
        ) from None
    return out


def demo_command(
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Where the club-night files go: the board set, its seed and commitment, "
            "hand records (HTML, PDF) and the results site (default: a new temporary "
            "folder, whose path is printed).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Show what bridgescore does, on built-in examples.

    \b
    Examples:
      bridgescore demo
      bridgescore demo --out club-night
    """
    if out is not None:
        check_output_directory(out, "--out")  # before the examples: the club night writes there
    folder = demo_folder(out)
    typer.echo(f"Files of the demo go to {folder}\n")
    typer.echo("== Scoring duplicate results (Law 77) ==\n")
    for text, vulnerable in EXAMPLES:
        typer.echo(f"> {text!r}, {'vulnerable' if vulnerable else 'not vulnerable'}")
        typer.echo(format_breakdown(score_breakdown(text, vulnerable), symbols=True))
        typer.echo("")
    for vulnerable in (False, True):
        typer.echo(score_table(vulnerable))
        typer.echo("")
    _deals_section()
    _session_section()
    _club_night_section(folder)
    _room_section(folder)
    _study_section()
    typer.echo(f"The demo's files are in {folder}")


def _deals_section(seed: int = 2026, boards: int = 3) -> None:
    """A few random boards (fixed seed) with their double-dummy tables."""
    from bridgescore.cli.solve import format_solution
    from bridgescore.dealer.dealing import deal_many
    from bridgescore.solver import solve_many

    typer.echo(f"== Random deals (seed {seed}) and their double-dummy tables (DDS) ==\n")
    # The package's one dealer: these are the boards of `bridgescore deal --seed 2026`.
    deals = deal_many(boards, seed=seed)
    try:
        tables = solve_many(deals)
    except ImportError as error:
        typer.echo(f"(skipped: {error})\n")
        return
    for number, (deal, table) in enumerate(zip(deals, tables, strict=True), start=1):
        typer.echo(f"> Board {number}")
        typer.echo(format_solution(deal, table, symbols=True))
        typer.echo(_board_par(number, table))
        typer.echo("")
    _par_section()


def _board_par(board: int, table: DDTable) -> str:
    """Par of a dealt board with its vulnerability: neutral and dealer-first."""
    from bridgescore.cli.par import format_par
    from bridgescore.core import Vulnerability, dealer_of_board
    from bridgescore.parscore import par

    vulnerability, dealer = Vulnerability.from_board(board), dealer_of_board(board)
    return "\n".join(
        [
            "Par " + format_par(par(table, vulnerability), vulnerability, None),
            "Par " + format_par(par(table, vulnerability, dealer), vulnerability, dealer),
        ]
    )


def _par_section() -> None:
    """Par of docs/par-definition.md's worked deals (fixed double-dummy tables)."""
    from bridgescore.cli.par import format_par
    from bridgescore.core import Seat, Vulnerability
    from bridgescore.parscore import par

    typer.echo("== Par: the worked deals of docs/par-definition.md ==\n")
    examples = [
        ("a989ca989c3453134531", Vulnerability.NONE, None, "a slam; EW's sacrifice costs 1700"),
        ("32929329297a4a47a4a4", Vulnerability.BOTH, None, "two equal sacrifices over 4S"),
        ("995a4995a44462944629", Vulnerability.EW, None, "4C doubled beats 3NT"),
        ("995a4995a44462944629", Vulnerability.NONE, None, "same table, 4D is par"),
        ("76666666667666686666", Vulnerability.NONE, None, "neutral: EW bid 2NT first"),
        ("76666666667666686666", Vulnerability.NONE, Seat.NORTH, "dealer North opens 2NT"),
    ]
    for text, vulnerability, dealer, why in examples:
        table = DDTable.parse(text)
        option = "" if dealer is None else f" --dealer {dealer}"
        typer.echo(f"> bridgescore par --dd {text} --vul {vulnerability}{option}   ({why})")
        typer.echo(format_par(par(table, vulnerability, dealer), vulnerability, dealer))
    typer.echo("")


def _session_section() -> None:
    """Score the built-in sample event (matchpoints) and print a traveller and the ranking."""
    from bridgescore.session.reports.text import ranking_text, traveller_text
    from bridgescore.session.sample import sample_event
    from bridgescore.session.scoring.scorer import score_event

    typer.echo("== A duplicate session: matchpoints for a small club event ==\n")
    scored = score_event(sample_event(), "mp")
    typer.echo(traveller_text(scored, scored.travellers[1]))
    typer.echo("")
    typer.echo(ranking_text(scored))
    typer.echo("")


def _club_night_section(out: Path, boards: int = 24) -> None:
    """A club night end to end: deal and analyse a set, print hand records, publish results.

    24 boards: the night the room's section below runs (a Mitchell of 6 rounds of 4). Each
    board's DD table is about a fifth of a second of DDS's CPU, so the set is most of what
    this section costs."""
    from dataclasses import replace

    from bridgescore.board import Board
    from bridgescore.boardset import DealSeed, analyse_boards, commitment_text, deal_set
    from bridgescore.boardset.handrecord import hand_records_html
    from bridgescore.formats.boardset import format_boards
    from bridgescore.session.pars import board_pars
    from bridgescore.session.reports.site import results_site, write_site
    from bridgescore.session.sample import sample_event
    from bridgescore.session.scoring.scorer import score_event

    typer.echo(f"== A club night: {boards} boards dealt, analysed, printed and published ==\n")
    seed = DealSeed.fresh(boards)
    (out / "night.seed").write_text(seed.to_text(), encoding="utf-8")
    (out / "night.seed").chmod(0o600)
    (out / "night.commit").write_text(commitment_text(seed), encoding="utf-8")
    dealt = deal_set(seed, range(1, boards + 1))
    typer.echo(
        f"> bridgescore deal --boards 1-{boards} --seed-file {out}/night.seed "
        f"--commit {out}/night.commit --analyse > {out}/night.pbn"
    )
    try:
        analysed = analyse_boards(dealt)
    except ImportError as error:
        typer.echo(f"(skipped: {error})\n")
        return
    (out / "night.pbn").write_text(format_boards(analysed, "pbn", event="Club night"), "utf-8")
    first = analysed[0]
    assert first.par is not None
    typer.echo(f"  board 1: {first.dealt.to_pbn()}  DD {first.dd_table}  par {first.par}")
    html = hand_records_html(analysed, per_page=4, title="Club night")
    (out / "records.html").write_text(html, encoding="utf-8")
    typer.echo(f"> bridgescore handrecord {out}/night.pbn --out {out}/records.html (and .pdf)")
    try:
        from bridgescore.boardset.pdf import PdfUnavailableError, html_to_pdf

        html_to_pdf(html, out / "records.pdf")
        typer.echo(f"  wrote {out}/records.html and {out}/records.pdf")
    except PdfUnavailableError as error:
        typer.echo(f"  wrote {out}/records.html; no PDF: {error}")
    # The sample session's three boards get tonight's first three hand records.
    event = sample_event()
    hands = {
        board.number: Board(board.number, board.deal, board.dd_table)
        for board in analysed
        if board.number in event.board_numbers()
    }
    event = replace(event, boards=hands)
    scored = score_event(event, "mp", pars=board_pars(hands, solve=False).pars)
    write_site(results_site(scored, hands), out / "results")
    typer.echo(f"> bridgescore session report club.db --html {out}/results/")
    typer.echo(f"  wrote the results site: open {out}/results/index.html\n")


def _room_section(out: Path, pairs: int = 14, boards: int = 24) -> None:
    """Running the room: a movement for the evening, its cards, victory points."""
    from bridgescore.movement.check import check_movement
    from bridgescore.movement.mitchell import mitchell
    from bridgescore.movement.suggest import suggest
    from bridgescore.movement.vp import victory_points
    from bridgescore.session.reports.cards import write_cards

    typer.echo(f"== Running the room: {pairs} pairs, about {boards} boards ==\n")
    typer.echo(f"> bridgescore movement suggest --pairs {pairs} --boards {boards}")
    for suggestion in suggest(pairs=pairs, boards=boards)[:2]:
        typer.echo(f"  {suggestion.description}")
    movement = mitchell(tables=pairs // 2, boards_per_round=4, rounds=6)
    check = check_movement(movement)
    typer.echo(
        f"> bridgescore movement cards mitchell --tables {movement.tables} "
        f"--boards-per-round 4 --rounds 6 --html {out}/cards.html"
    )
    write_cards(movement, html=out / "cards.html", event="Demo pairs")
    sound = "sound" if not check.problems else "UNSOUND"
    typer.echo(
        f"  a {sound} Mitchell: {movement.rounds} rounds of 4 boards; guide and table cards "
        f"written to {out}/cards.html"
    )
    won = victory_points(12, boards=8)
    typer.echo("> bridgescore vp 12 --boards 8   (a teams match, WBF continuous scale)")
    typer.echo(f"  winner {won} VP, loser {victory_points(-12, boards=8)} VP\n")


def _study_section(deals: int = 40, seed: int = 2026, chunk: int = 10) -> None:
    """A small par study (temporary directory) and its report, beside the published one.

    Small on purpose: a study's time is DDS's, about a fifth of a second of CPU a deal,
    and the demo is what `make run` shows a new user first; 40 deals in four chunks show
    the run, its report and the comparison as well as more would."""
    typer.echo(f"== A small par study: {deals} random deals, solved and scored for par ==\n")
    try:
        from bridgescore.study.compare import compare_report
        from bridgescore.study.report import format_report, study_report
        from bridgescore.study.runner import run_study

        with tempfile.TemporaryDirectory(prefix="bridgescore-demo-study-") as directory:
            summary = run_study(Path(directory), deals=deals, seed=seed, chunk_size=chunk)
            report = study_report(Path(directory))
    except ImportError as error:
        typer.echo(f"(skipped: {error})\n")
        return
    typer.echo(
        f"> bridgescore study run --deals {deals} --seed {seed} --chunk {chunk} --out DIR   "
        f"({summary.deals_per_second:.1f} deals/s)\n"
    )
    typer.echo(format_report(report))
    typer.echo("\n> against the published study of 10,485,760 deals (--compare):")
    for name, comparison in compare_report(report).items():
        typer.echo(
            f"  {name:<5} total variation {comparison.total_variation:.3f}, "
            f"p = {comparison.p_value:.3g}: {comparison.verdict}"
        )
    typer.echo("")
