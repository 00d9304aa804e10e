"""The README's examples run: Python sessions as doctests, shell sessions through the CLI.

A shell session whose plot the README shows (the same command with ``--plot
docs/img/...`` in an ``sh`` block, the image below it) also draws that plot, and the
drawing must match the committed image.
"""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BLOCK = re.compile(r"```(pycon|console)\n(.*?)```", re.DOTALL)


def blocks(kind: str) -> list[str]:
    return [
        body for found, body in BLOCK.findall(README.read_text(encoding="utf-8")) if found == kind
    ]


def test_python_examples() -> None:
    """All Python sessions in order, sharing names as a reader's session would."""
    globs: dict[str, object] = {}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, text in enumerate(blocks("pycon")):
        test = parser.get_doctest(text, globs, f"README pycon block {number}", str(README), 0)
        runner.run(test, clear_globs=False)
        globs = test.globs
    assert runner.summarize(verbose=False).failed == 0


def shell_examples() -> list[tuple[str, str]]:
    """Pairs of (command, expected output) from ``$ bridgescore ...`` lines."""
    examples = []
    for body in blocks("console"):
        command: str | None = None
        output: list[str] = []
        for line in body.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    examples.append((command, "\n".join(output)))
                command, output = line[2:], []
            elif command is not None:
                output.append(line)
        if command is not None:
            examples.append((command, "\n".join(output)))
    return examples


def drawn_images() -> dict[str, str]:
    """The committed image of each ``sh`` block that repeats a command with ``--plot``.

    Keyed by the command without ``--plot``: the README shows that command's output in
    a console block, then the same command with ``--plot docs/img/...`` that drew the
    image shown below it.
    """
    images = {}
    for line in re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL):
        words = shlex.split(line.strip())
        if words[-2:-1] == ["--plot"]:
            images[shlex.join(words[:-2])] = words[-1]
    return images


def test_each_plot_command_is_a_shown_command_plus_plot() -> None:
    text = README.read_text(encoding="utf-8")
    shown = {shlex.join(shlex.split(command)) for command, _ in shell_examples()}
    images = drawn_images()
    assert list(images.values()) == ["docs/img/simulate-transfer.png"]
    assert set(images) <= shown  # else test_shell_examples would not draw it
    assert all(f"]({image})" in text for image in images.values())  # the image is shown


@pytest.mark.parametrize(("command", "expected"), shell_examples())
def test_shell_examples(command: str, expected: str, tmp_path: Path) -> None:
    words = shlex.split(command)
    assert words[0] == "bridgescore"
    # A command whose plot the README shows is run once, with --plot: the simulation is
    # the expensive part, and --plot changes nothing on standard output.
    image = drawn_images().get(shlex.join(words))
    if image:
        pytest.importorskip("matplotlib")
    plot = tmp_path / "plot.png"
    result = CliRunner().invoke(app, words[1:] + (["--plot", str(plot)] if image else []))
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip("\n") == expected
    if image:
        assert_same_image(plot, ROOT / image)


def assert_same_image(drawn_path: Path, committed_path: Path) -> None:
    """A PNG of the same size and the same pixels but for a few hundred: matplotlib draws
    with its own bundled fonts, so the image is the same on every machine; a newer
    matplotlib may shift some glyph edges, and then the documented command redraws it."""
    import matplotlib.image
    import numpy as np

    drawn = matplotlib.image.imread(drawn_path)
    committed = matplotlib.image.imread(committed_path)
    assert drawn.shape == committed.shape
    # Same bars, labels and numbers. One bar a tenth shorter would already change about
    # 600 of the 660,660 pixels (0.09%); glyph edges of another matplotlib far fewer.
    differing = np.abs(drawn - committed).max(axis=2) > 0.25
    assert differing.mean() < 0.0005, f"{differing.mean():.3%} of the pixels differ"
