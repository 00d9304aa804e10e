"""Progress on standard error, shown by the same rule in every long-running command.

The rule: ``--progress/--no-progress`` asks for it or not; without either,
progress shows only when standard error is a terminal. On a terminal it is a
live bar (rich); asked for with ``--progress`` when standard error is a file or
a pipe (``nohup``, a log), it is a plain line a minute and one at the end, so a
log is readable and a script capturing standard error gets nothing it did not
ask for.
"""

from __future__ import annotations

import sys
import time
from typing import Annotated, Any, Literal

import typer

__all__ = ["ProgressDisplay", "ProgressOption", "progress_mode", "time_left_text"]

ProgressOption = Annotated[
    bool | None,
    typer.Option(
        "--progress/--no-progress",
        help="Progress on standard error (default: only when it is a terminal; "
        "--progress writes a line a minute to a file or pipe).",
        show_default=False,
    ),
]
"""The option every command with progress takes (default None: decided by the terminal)."""

Mode = Literal["bar", "lines", "off"]

# Plain lines are for logs read later: one a minute is enough to see a run is alive.
LINE_INTERVAL = 60.0


def progress_mode(asked: bool | None, terminal: bool) -> Mode:
    """How to show progress: ``asked`` is the option (None: not given).

    >>> progress_mode(None, terminal=False), progress_mode(True, terminal=False)
    ('off', 'lines')
    >>> progress_mode(None, terminal=True), progress_mode(False, terminal=True)
    ('bar', 'off')
    """
    if asked is False or (asked is None and not terminal):
        return "off"
    return "bar" if terminal else "lines"


def time_left_text(seconds: float) -> str:
    """The time left, as a person reads it: never "about 0 min".

    >>> time_left_text(25), time_left_text(89), time_left_text(150)
    ('less than a minute left', 'about 1 min left', 'about 3 min left')
    >>> time_left_text(2 * 3600 + 5 * 60)
    'about 2 h 5 min left'
    """
    if seconds < 60:
        return "less than a minute left"
    minutes = int(seconds / 60 + 0.5)  # to the nearest minute, halves up
    if minutes < 60:
        return f"about {minutes} min left"
    hours, minutes = divmod(minutes, 60)
    return f"about {hours} h {minutes} min left"


class ProgressDisplay:
    """``display(done, total)`` shows progress in ``unit`` by :func:`progress_mode`.

    The first call is the starting point: work finished before this run (a
    resumed study) counts as done but not as speed. Call :meth:`close` at the end
    (or on an error) to take a live bar down.
    """

    def __init__(
        self,
        asked: bool | None,
        *,
        unit: str = "deals",
        transient: bool = False,
        terminal: bool | None = None,
    ) -> None:
        live = sys.stderr.isatty() if terminal is None else terminal
        self.mode = progress_mode(asked, live)
        self.unit = unit
        self.transient = transient
        self._bar: Any = None
        self._task: Any = None
        self._start: tuple[float, int] | None = None
        self._logged = 0.0
        self._shown = -1

    def __call__(self, done: int, total: int) -> None:
        if self.mode == "lines":
            self._line(done, total)
        elif self.mode == "bar":
            self._update_bar(done, total)

    def _line(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self._start is None:
            self._start, self._logged = (now, done), now
            if done < total:
                return
        if done == self._shown or (now - self._logged < LINE_INTERVAL and done < total):
            return  # the end is reported once, however many callers report it
        self._logged, self._shown = now, done
        start_time, start_done = self._start
        elapsed = now - start_time
        rate = (done - start_done) / elapsed if elapsed > 0 else 0.0
        text = f"{done:,}/{total:,} {self.unit}"
        if rate > 0:
            text += f", {rate:.1f} {self.unit}/s"
            if done < total:
                text += f", {time_left_text((total - done) / rate)}"
        typer.echo(text, err=True)

    def _update_bar(self, done: int, total: int) -> None:
        if self._bar is None:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._bar = Progress(
                TextColumn(self.unit),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(),
                TextColumn("left"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=self.transient,
                speed_estimate_period=120,
            )
            self._bar.start()
            # Work finished before this run is the starting point, not speed.
            self._task = self._bar.add_task(self.unit, total=total, completed=done, rate="")
            return
        self._bar.update(self._task, completed=done, total=total)
        speed = self._bar.tasks[0].speed
        self._bar.update(self._task, rate=f"{speed:.1f} {self.unit}/s" if speed else "")

    def close(self) -> None:
        """Take the live bar down (it stays on screen unless ``transient``)."""
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
