"""The README's examples run: Python sessions as doctests, shell sessions through the CLI.

A shell session whose plot the README shows (the same command with ``--plot
docs/img/...`` in an ``sh`` block, the image below it) also draws that plot, and the
drawing must match the committed image.
"""

from __future__ import annotations

import doctest
import re
import shlex
import tomllib
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
    assert all(f"]({RAW}{image})" in text for image in images.values())  # the image is shown


# -- links that work where a package index shows the README ------------------------------

HOMEPAGE = str(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]["Homepage"])
# A file of the tree as the project's host shows it, and an image's bytes (an image
# shown from a page of the host would not render on the index).
PAGE = f"{HOMEPAGE}/blob/main/"
FOLDER = f"{HOMEPAGE}/tree/main/"
RAW = HOMEPAGE.replace("https://github.com/", "https://raw.githubusercontent.com/") + "/main/"
LINK = re.compile(r"(!?)\[[^\]]*\]\(([^)\s]*)[^)]*\)|^\s*\[[^\]]+\]:\s*(\S+)", re.M)


def links(markdown: str) -> list[tuple[bool, str]]:
    """(is an image, target) of every link of ``markdown`` outside code, inline or
    reference-style, and of every HTML ``src``/``href``."""
    prose = re.sub(r"```.*?```", "", markdown, flags=re.DOTALL)
    prose = re.sub(r"`[^`\n]*`", "", prose)
    found = [(bool(image), inline or reference) for image, inline, reference in LINK.findall(prose)]
    found += [(tag == "src", url) for tag, url in re.findall(r'(src|href)="([^"]*)"', prose)]
    return found


def _slug(heading: str) -> str:
    """A heading's anchor as the host makes it: lower case, punctuation dropped, spaces
    to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_the_link_finder_finds_every_kind_of_link() -> None:
    markdown = (
        "See [docs](docs/x.md), ![a plot](docs/img/p.png) and [site](https://e.org).\n"
        "[ref]: docs/y.md\n"
        '<img src="docs/img/q.png"> `[not](a-link)`\n'
        "```\n[nor](this)\n```\n"
    )
    assert links(markdown) == [
        (False, "docs/x.md"),
        (True, "docs/img/p.png"),
        (False, "https://e.org"),
        (False, "docs/y.md"),
        (True, "docs/img/q.png"),
    ]
    assert _slug("On a cluster") == "on-a-cluster"
    assert _slug("Files from the field: PBN, LIN, JSON") == "files-from-the-field-pbn-lin-json"


def test_no_link_in_the_readme_is_relative() -> None:
    # A package index shows the README away from the repository: docs/x.md is a dead link
    # there, and an image at a relative path is not shown.
    found = links(README.read_text(encoding="utf-8"))
    assert len(found) >= 30
    relative = [target for _, target in found if not re.match(r"(https|mailto):", target)]
    assert relative == []


def test_every_link_into_the_project_names_a_file_of_the_tree() -> None:
    for image, target in links(README.read_text(encoding="utf-8")):
        if not target.startswith((HOMEPAGE + "/", RAW)):
            continue
        if image:
            assert target.startswith(RAW), f"{target}: an image is shown from its raw bytes"
            path, anchor = ROOT / target.removeprefix(RAW), ""
        else:
            assert target.startswith((PAGE, FOLDER)), target
            address, _, anchor = target.partition("#")
            path = ROOT / address.removeprefix(PAGE).removeprefix(FOLDER)
        assert path.exists(), f"{target}: no {path.relative_to(ROOT)}"
        if anchor:
            headings = re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M)
            assert anchor in {_slug(heading) for heading in headings}, target


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
