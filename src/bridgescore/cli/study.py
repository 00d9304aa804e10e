"""``bridgescore study``: run a par study (``run``) and tabulate it (``report``).

The heavy packages (pyarrow, DDS, dask, matplotlib, scipy) are imported inside
the commands, so the rest of the command line works without them.
"""

from __future__ import annotations

import signal
import sys
import time
from pathlib import Path
from types import FrameType
from typing import Annotated, Any

import typer

from bridgescore.cli.common import echo_json, fail, fail_input
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


class _Bar:
    """A rich progress bar on standard error: deals, deals per second, time left.

    When standard error is not a terminal (nohup, CI), a plain line every minute instead.
    """

    def __init__(self, enabled: bool, live: bool) -> None:
        self.enabled = enabled
        self.live = live
        self.progress: Any = None
        self.task: Any = None
        self.start: tuple[float, int] | None = None
        self.logged = 0.0

    def _log(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self.start is None:
            self.start, self.logged = (now, done), now
            return
        if now - self.logged < 60 and done < total:
            return
        self.logged = now
        rate = (done - self.start[1]) / max(now - self.start[0], 1e-9)
        left = f", about {(total - done) / rate / 60:.0f} min left" if rate > 0 else ""
        typer.echo(f"{done:,}/{total:,} deals, {rate:.1f} deals/s{left}", err=True)

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        if not self.live:
            self._log(done, total)
            return
        if self.progress is None:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self.progress = Progress(
                TextColumn("deals"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(),
                TextColumn("left"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                speed_estimate_period=120,
            )
            self.progress.start()
            # Deals finished before this run are the starting point, not speed.
            self.task = self.progress.add_task("study", total=total, completed=done, rate="")
            return
        self.progress.update(self.task, completed=done, total=total)
        speed = self.progress.tasks[0].speed
        rate = f"{speed:.1f} deals/s" if speed else ""
        self.progress.update(self.task, rate=rate)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()


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
    show_progress: Annotated[
        bool, typer.Option("--progress/--no-progress", help="Show the progress bar.")
    ] = True,
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
    from bridgescore.study.runner import run_study

    bar = _Bar(show_progress, live=sys.stderr.isatty())
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
            progress=bar,
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

    try:
        report = study_report(directory)
        comparisons = None
        if compare:
            from bridgescore.study.compare import compare_report

            comparisons = compare_report(report)
    except BridgeError as error:
        raise fail_input(error) from None
    for problem in report.problems:
        typer.echo(f"warning: {problem}", err=True)
    if report.temporaries:
        typer.echo(
            f"note: {report.temporaries} temporary file(s) of an interrupted run "
            "(chunks in flight; `study run` removes them and resumes)",
            err=True,
        )
    if plot is not None and report.deals:
        from bridgescore.study.compare import load_published
        from bridgescore.study.plot import plot_report

        published = load_published().distributions if compare else None
        try:
            plot_report(report, plot, published)
        except OSError as error:
            raise fail(f"cannot write {str(plot)!r}: {error.strerror}", code=2) from None
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
            typer.echo(f"\nplot: {plot}")
    if report.problems:
        raise typer.Exit(1)
