"""Progress on standard error: one rule for every command, and a time left people read."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from bridgescore.cli import progress as progress_module
from bridgescore.cli.app import app
from bridgescore.cli.progress import ProgressDisplay, progress_mode, time_left_text

runner = CliRunner()


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0, "less than a minute left"),
        (25, "less than a minute left"),
        (59.9, "less than a minute left"),
        (60, "about 1 min left"),
        (89, "about 1 min left"),
        (90, "about 2 min left"),
        (150, "about 3 min left"),
        (59 * 60 + 29, "about 59 min left"),
        (59 * 60 + 30, "about 1 h 0 min left"),
        (2 * 3600 + 5 * 60, "about 2 h 5 min left"),
    ],
)
def test_time_left_is_never_about_zero_minutes(seconds: float, text: str) -> None:
    assert time_left_text(seconds) == text


@pytest.mark.parametrize(
    ("asked", "terminal", "mode"),
    [
        (None, True, "bar"),
        (None, False, "off"),  # a pipe or a file gets nothing it did not ask for
        (True, True, "bar"),
        (True, False, "lines"),  # asked for, in a log: a plain line a minute
        (False, True, "off"),
        (False, False, "off"),
    ],
)
def test_when_progress_shows(asked: bool | None, terminal: bool, mode: str) -> None:
    assert progress_mode(asked, terminal) == mode
    assert ProgressDisplay(asked, terminal=terminal).mode == mode


class Clock:
    """A clock the test moves by hand, so no line depends on how fast the machine is."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(progress_module.time, "monotonic", fake)
    return fake


def test_lines_a_minute_apart_and_one_at_the_end(
    clock: Clock, capsys: pytest.CaptureFixture[str]
) -> None:
    display = ProgressDisplay(True, terminal=False)
    for seconds, done in [(0, 0), (30, 10), (60, 40), (100, 60), (130, 100), (131, 100)]:
        clock.now = 1000.0 + seconds
        display(done, 100)
    display.close()
    # 40 deals in 60 s: 2/3 a second, so 60 deals left take 90 s. Then 100 in 130 s.
    assert capsys.readouterr().err.splitlines() == [
        "40/100 deals, 0.7 deals/s, about 2 min left",
        "100/100 deals, 0.8 deals/s",
    ]


def test_work_done_before_the_run_is_not_speed(
    clock: Clock, capsys: pytest.CaptureFixture[str]
) -> None:
    display = ProgressDisplay(True, unit="boards", terminal=False)
    display(50, 100)  # a resumed run: half was done already
    clock.now += 60
    display(80, 100)  # 30 in 60 s, 20 left: 40 s
    assert capsys.readouterr().err == "80/100 boards, 0.5 boards/s, less than a minute left\n"


def test_no_progress_shows_nothing(clock: Clock, capsys: pytest.CaptureFixture[str]) -> None:
    for asked, terminal in [(False, True), (None, False)]:
        display = ProgressDisplay(asked, terminal=terminal)
        display(0, 10)
        clock.now += 120
        display(10, 10)
        display.close()
    assert capsys.readouterr().err == ""


SIMULATE = ["simulate", "-n", "10", "--seed", "1", "--contract", "4S", "--by", "N"]


def test_simulate_prints_progress_only_when_asked() -> None:
    # CliRunner's standard error is not a terminal.
    quiet = runner.invoke(app, SIMULATE)
    assert quiet.exit_code == 0 and quiet.stderr == ""
    asked = runner.invoke(app, [*SIMULATE, "--progress"])
    assert asked.exit_code == 0
    assert re.fullmatch(r"10/10 deals(, \d+\.\d deals/s)?\n", asked.stderr)
    assert asked.stdout == quiet.stdout
