"""The README's simulation plot: the documented command makes it, and it is that command's plot.

The README shows ``bridgescore simulate ...`` with its real output, then the same
command with ``--plot docs/img/simulate-transfer.png`` that drew the committed
image. This test checks the two commands differ only by ``--plot``, runs the plot
command into a temporary file and compares it with the committed image: a PNG of
the same size, the same pixels but for a few hundred (matplotlib draws with its own
bundled fonts, so the image is the same on every machine; a newer matplotlib may
shift some glyph edges, and then the documented command redraws the image).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("matplotlib")
pytest.importorskip("endplay")

from typer.testing import CliRunner

from bridgescore.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
IMAGE = "docs/img/simulate-transfer.png"


def plot_command() -> list[str]:
    (line,) = [
        line for line in re.findall(r"```sh\n(.*?)```", README, re.DOTALL)
        if f"--plot {IMAGE}" in line
    ]  # fmt: skip
    return shlex.split(line.strip())


def test_the_plot_command_is_the_shown_simulation_plus_plot() -> None:
    shown = [shlex.split(line[2:]) for line in README.splitlines()
             if line.startswith("$ bridgescore simulate ")]  # fmt: skip
    words = plot_command()
    assert words[-2:] == ["--plot", IMAGE]
    assert words[:-2] in shown
    assert f"]({IMAGE})" in README  # the image is shown


def test_the_command_draws_the_committed_image(tmp_path: Path) -> None:
    import matplotlib.image

    words = plot_command()
    target = tmp_path / "plot.png"
    result = CliRunner().invoke(app, [*words[1:-1], str(target)])
    assert result.exit_code == 0, result.output
    drawn = matplotlib.image.imread(target)
    committed = matplotlib.image.imread(ROOT / IMAGE)
    assert drawn.shape == committed.shape
    # Same bars, labels and numbers. One bar a tenth shorter would already change about
    # 600 of the 660,660 pixels (0.09%); glyph edges of another matplotlib far fewer.
    differing = np.abs(drawn - committed).max(axis=2) > 0.25
    assert differing.mean() < 0.0005, f"{differing.mean():.3%} of the pixels differ"
