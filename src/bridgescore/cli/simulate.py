"""``bridgescore simulate``: deal under a condition, solve contracts double dummy, compare."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from bridgescore.cli.common import echo_json, fail
from bridgescore.cli.outputs import check_plot_path
from bridgescore.cli.progress import ProgressDisplay, ProgressOption
from bridgescore.errors import BridgeError

__all__ = ["format_report", "simulate_command", "trick_columns"]


def _pm(value: float, se: float, scale: float = 1.0, digits: int = 1) -> str:
    return f"{value * scale:.{digits}f} ±{se * scale:.{digits}f}"


# The trick columns: every deal is in one of them, so a row's counts add up to the
# deals. Fewer than 6 tricks share a column: no contract makes with them, and
# 14 columns would not fit a terminal's width.
_FEW_TRICKS = 6
_TRICK_COLUMNS = ("0-5", *(str(tricks) for tricks in range(_FEW_TRICKS, 14)))


def trick_columns(tricks: list[int]) -> list[int]:
    """The deals per column of the text report: 0 to 5 tricks together, then 6 ... 13.

    >>> trick_columns([0, 0, 1, 2, 2, 0, 2, 0, 0, 1, 1, 0, 0, 1])
    [5, 2, 0, 0, 1, 1, 0, 0, 1]
    """
    return [sum(tricks[:_FEW_TRICKS]), *tricks[_FEW_TRICKS:]]


def format_report(report: dict[str, Any]) -> str:
    """The report for people: one block per contract, then comparisons and leads.

    Each contract's row ends with its deals by tricks taken (0-5, 6, ..., 13),
    which add up to the deals of the report.
    """
    lines = [f"{report['deals']:,} deals" + (" (interrupted)" if report["interrupted"] else "")]
    lines.append("")
    # Padded to where the rows' trick columns start (54 characters in), labels over counts.
    heading = "contract     make %          tricks         score".ljust(54)
    lines.append(" " * 54 + "deals by tricks taken")
    lines.append(heading + " ".join(f"{label:>4}" for label in _TRICK_COLUMNS))
    for c in report["contracts"]:
        spread = " ".join(f"{n:>4}" for n in trick_columns(c["tricks"]))
        lines.append(
            f"{c['contract']:>4} by {c['declarer']}  {_pm(c['make'], c['make_se'], 100):>12}"
            f"  {_pm(c['mean_tricks'], c['mean_tricks_se'], digits=2):>13}"
            f"  {_pm(c['mean_score'], c['mean_score_se'], digits=0):>12}  {spread}"
        )
    for c in report.get("comparisons", []):
        lines.append("")
        lines.append(
            f"{c['first']} vs {c['second']}: {c['imps']:+.2f} ±{c['imps_se']:.2f} IMPs a board; "
            f"better on {100 * c['first_better']:.1f}%, equal {100 * c['equal']:.1f}%, worse "
            f"{100 * c['second_better']:.1f}% ({100 * c['matchpoints']:.1f}% matchpoints)"
        )
    for lead in report.get("leads", []):
        lines.append("")
        lines.append(
            f"Opening leads by {lead['leader']} against {lead['contract']} by {lead['declarer']}"
            "  (defence tricks, % beating)"
        )
        for row in lead["cards"]:
            tricks = _pm(row["mean_tricks"], row["mean_tricks_se"], digits=2)
            beat = _pm(row["beat"], row["beat_se"], 100)
            lines.append(f"  {row['cards']:<7} {tricks:>12}  {beat:>12}%  ({row['deals']:,} deals)")
    if "par" in report:
        par = report["par"]
        common = sorted(par["scores"].items(), key=lambda item: -item[1])[:6]
        # Scores plain, counts of deals with separators: the rule of docs/scoring.md.
        shown = ", ".join(f"{int(score):+d} ({count:,})" for score, count in common)
        lines.append("")
        lines.append(
            f"par (NS's view): mean {par['mean']:+.0f} ±{par['mean_se']:.0f}; most often {shown}"
        )
    return "\n".join(lines)


def simulate_command(
    deals: Annotated[int, typer.Option("--deals", "-n", min=1, help="How many deals.")] = 1000,
    seed: Annotated[
        int | None, typer.Option(min=0, help="Seed (default: a fresh one, shown).")
    ] = None,
    predeal: Annotated[
        list[str] | None,
        typer.Option(
            "--predeal", "-p", help="Cards given to a seat, as in `deal`.", show_default=False
        ),
    ] = None,
    where: Annotated[
        str, typer.Option("--where", "-w", help="A `dealer` condition, as in `deal`.")
    ] = "",
    contract: Annotated[
        list[str] | None,
        typer.Option(
            "--contract",
            "-c",
            help="A contract to solve, such as 4S or 3NT; repeatable.",
            show_default=False,
        ),
    ] = None,
    by: Annotated[
        list[str] | None,
        typer.Option(
            "--by", help="The declarer of each --contract in turn (N, E, S, W).", show_default=False
        ),
    ] = None,
    vul: Annotated[str, typer.Option(help="Vulnerability: None, NS, EW or Both.")] = "None",
    lead: Annotated[
        str | None,
        typer.Option(help="Solve every opening lead of this seat (declarer's left-hand opponent)."),
    ] = None,
    par: Annotated[
        bool, typer.Option("--par", help="Also solve full tables: the par score distribution.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
    plot: Annotated[
        str | None,
        typer.Option(
            help="Write a plot of the trick distributions and comparisons (.png, .svg or .pdf; "
            "the path is checked before the work starts)."
        ),
    ] = None,
    processes: Annotated[
        int,
        typer.Option(
            min=0,
            help="Worker processes (0: one per core; 1: this one, DDS threads on every core).",
        ),
    ] = 1,
    scheduler: Annotated[
        str | None, typer.Option(help="A Dask scheduler address (tcp://host:8786) to run on.")
    ] = None,
    progress: ProgressOption = None,
) -> None:
    """Deal under a condition, solve the contracts double dummy, and compare them.

    Each contract gets its trick distribution, make %, mean tricks and mean score,
    each with a standard error; each pair of contracts is compared in IMPs and
    matchpoints; --lead solves every opening lead. The deals are those of
    `bridgescore deal` with the same seed, predeals and condition. Ctrl-C stops and
    reports the deals finished.

    \b
    Examples:
      bridgescore simulate --deals 1000 --seed 1 --predeal S=AQ542.KJ87.32.AK \\
          --where "hcp(north) >= 11 && hcp(north) <= 12" --contract 4S --by S --contract 3NT --by S
      bridgescore simulate -n 500 --seed 2 --predeal W=KJ3.Q974.T52.A63 \\
          --where "hcp(north) >= 15" --contract 3NT --by S --lead W --json
    """
    import numpy as np

    from bridgescore.core import Seat, Vulnerability
    from bridgescore.simulation.run import run_simulation
    from bridgescore.simulation.spec import Simulation, parse_contracts

    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0])
        typer.echo(f"seed {seed} (pass --seed {seed} to repeat this simulation)", err=True)
    try:
        simulation = Simulation(
            deals=deals,
            seed=seed,
            contracts=parse_contracts(list(contract or []), list(by or [])),
            where=where,
            predeal=tuple(predeal or []),
            vulnerability=Vulnerability.parse(vul),
            lead=None if lead is None else Seat.parse(lead),
            par=par,
        )
        simulation.deal_spec.plan()
    except BridgeError as error:
        raise fail(error, code=2) from None
    if plot is not None:
        check_plot_path(plot)  # before the work: a bad path must not cost the simulation
    display = ProgressDisplay(progress, transient=True)
    try:
        report, _ = run_simulation(
            simulation,
            processes=processes,
            scheduler=scheduler,
            progress=None if display.mode == "off" else display,
        )
    except BridgeError as error:
        raise fail(error) from None
    except ImportError as error:
        raise fail(str(error)) from None
    finally:
        display.close()
    data = report.as_dict()
    # The report first: a plot that still fails to be written loses nothing computed.
    if as_json:
        echo_json(data)
    else:
        typer.echo(format_report(data))
    if plot is not None:
        _write_plot(data, plot)
    if report.interrupted:
        typer.echo("interrupted: the report covers the deals finished", err=True)
        raise typer.Exit(130)


def _write_plot(data: dict[str, Any], plot: str) -> None:
    from bridgescore.simulation.plot import plot_report

    try:
        plot_report(data, plot)
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise fail(
            f"cannot write the plot {plot!r}: {reason} (the report above is complete)"
        ) from None
    typer.echo(f"plot written to {plot}", err=True)
