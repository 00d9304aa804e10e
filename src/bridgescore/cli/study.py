"""``bridgescore study``: run a par study (``run``) and tabulate it (``report``).

The heavy packages (pyarrow, DDS, dask, matplotlib, scipy) are imported inside
the commands, so the rest of the command line works without them.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path
from types import FrameType
from typing import Annotated

import typer

from bridgescore.cli.common import echo_json, fail
from bridgescore.cli.outputs import check_output_directory, check_plot_path
from bridgescore.cli.progress import ProgressDisplay, ProgressOption
from bridgescore.errors import BridgeError

__all__ = ["app"]

app = typer.Typer(
    name="study",
    help="Par studies: random deals solved double-dummy, par statistics per vulnerability.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


def _need_study_extra() -> None:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise fail("par studies need pyarrow: pip install 'bridgescore[study]'", code=2) from None


def _stop_on_sigterm(signum: int, frame: FrameType | None) -> None:
    # `kill` (SIGTERM) stops as cleanly as Ctrl-C: finished shards kept, temp files removed.
    raise KeyboardInterrupt


@app.command("run")
def run_command(
    deals: Annotated[int, typer.Option("--deals", help="Deals in the study (more extends it).")],
    out: Annotated[
        str,
        typer.Option(
            "--out",
            help="Study directory (shards + study.json), or a URL every worker reaches "
            "(s3://bucket/study, gs://...): workers then write their shards there.",
        ),
    ],
    seed: Annotated[int, typer.Option("--seed", help="Seed: the same seed, the same deals.")] = 1,
    chunk: Annotated[int, typer.Option("--chunk", help="Deals per chunk (one shard each).")] = 256,
    workers: Annotated[
        int | None,
        typer.Option("--workers", help="Local processes, one DDS each (default: all cores)."),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            help="Dask scheduler address (tcp://HOST:PORT); workers send their rows back, "
            "so they need no access to --out.",
        ),
    ] = None,
    threads: Annotated[int, typer.Option("--threads", help="DDS threads per process.")] = 1,
    show_progress: ProgressOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the run summary as JSON.")] = False,
) -> None:
    """Deal, solve (DDS) and score par for a study; resume or extend it if DIR exists.

    \b
    Examples:
      bridgescore study run --deals 10000 --seed 1 --out /tmp/study
      bridgescore study run --deals 20000 --seed 1 --out /tmp/study   # extends it
      bridgescore study run --deals 100000 --out /work/s --scheduler tcp://head:8786
      bridgescore study run --deals 100000 --out s3://bucket/s --scheduler tcp://head:8786
    """
    _need_study_extra()
    from bridgescore.study.remote import is_remote
    from bridgescore.study.runner import run_study

    if not is_remote(out):
        check_output_directory(out.removeprefix("file://"), "--out")
    bar = ProgressDisplay(show_progress)
    previous = signal.signal(signal.SIGTERM, _stop_on_sigterm)
    start = time.perf_counter()
    try:
        summary = run_study(
            out,
            deals=deals,
            seed=seed,
            chunk_size=chunk,
            workers=workers,
            scheduler=scheduler,
            threads=threads,
            progress=None if bar.mode == "off" else bar,
            notice=lambda problem: typer.echo(f"warning: {problem}", err=True),
        )
    except KeyboardInterrupt:
        bar.close()
        typer.echo(
            f"stopped after {time.perf_counter() - start:.0f} s: finished shards are kept in "
            f"{str(out)!r}; run the same command again to resume",
            err=True,
        )
        raise typer.Exit(130) from None
    except BridgeError as error:
        bar.close()
        raise fail(error, code=2) from None
    finally:
        signal.signal(signal.SIGTERM, previous)
    bar.close()
    record = {
        "directory": str(summary.directory),
        "seed": summary.manifest.seed,
        "chunk_size": summary.manifest.chunk_size,
        "deals": summary.manifest.deals,
        "chunks": summary.chunks,
        "chunks_skipped": summary.skipped,
        "chunks_computed": summary.computed,
        "deals_computed": summary.deals_computed,
        "deals_reused": summary.deals_reused,
        "seconds": round(summary.seconds, 3),
        "deals_per_second": round(summary.deals_per_second, 3),
        "problems": summary.problems,
        "removed_temporaries": summary.removed_temporaries,
    }
    if as_json:
        echo_json(record)
        return
    typer.echo(
        f"{summary.manifest.deals:,} deals in {summary.chunks} chunks: {summary.skipped} "
        f"already finished, {summary.computed} computed now ({summary.deals_computed:,} deals "
        f"in {summary.seconds:.1f} s, {summary.deals_per_second:.1f} deals/s)"
    )
    if summary.deals_reused:
        typer.echo(
            f"kept {summary.deals_reused:,} deals an earlier run solved in a short chunk; "
            "only the deals added to it were solved now"
        )
    if summary.removed_temporaries:
        typer.echo(f"removed {summary.removed_temporaries} temporary file(s) of an earlier run")
    typer.echo(f"report: bridgescore study report {summary.directory}")


@app.command("report")
def report_command(
    directory: Annotated[
        str, typer.Argument(help="Study directory (or URL) written by `study run`.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Draw the four distributions to FILE.png.")
    ] = None,
    compare: Annotated[
        bool, typer.Option("--compare", help="Set ours beside the published study.")
    ] = False,
) -> None:
    """Par statistics per vulnerability (None, NS, EW, Both) in the published layout.

    Files in DIR that are not good shards of this study are reported on standard
    error and left out; the exit code is then 1.

    \b
    Examples:
      bridgescore study report /work/studies/main-10k
      bridgescore study report /work/studies/main-10k --compare --plot par.png
      bridgescore study report /work/studies/main-10k --json
    """
    _need_study_extra()
    from bridgescore.study.report import format_report, study_report

    if plot is not None:
        check_plot_path(plot)  # before reading every shard: a bad path must not cost it
    try:
        report = study_report(directory)
        comparisons = None
        if compare:
            from bridgescore.study.compare import compare_report

            comparisons = compare_report(report)
    except BridgeError as error:
        raise fail(error, code=2) from None
    for problem in report.problems:
        typer.echo(f"warning: {problem}", err=True)
    if report.temporaries:
        typer.echo(
            f"note: {report.temporaries} temporary file(s) of an interrupted run "
            "(chunks in flight; `study run` removes them and resumes)",
            err=True,
        )
    # The report first: a plot that still fails to be written loses nothing computed.
    if as_json:
        data = report.as_dict()
        if comparisons is not None:
            data["comparison"] = {name: c.as_dict() for name, c in comparisons.items()}
        echo_json(data)
    else:
        typer.echo(format_report(report))
        if comparisons is not None:
            from bridgescore.study.compare import format_comparison

            typer.echo("")
            typer.echo(format_comparison(report, comparisons))
    if plot is not None and report.deals:
        from bridgescore.study.compare import load_published
        from bridgescore.study.plot import plot_report

        published = load_published().distributions if compare else None
        try:
            plot_report(report, plot, published)
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            raise fail(
                f"cannot write the plot {str(plot)!r}: {reason} (the report above is complete)"
            ) from None
        if not as_json:
            typer.echo(f"\nplot: {plot}")
    if report.problems:
        raise typer.Exit(1)
