"""The version is written in one place, pyproject.toml (issue 44, item 6), and
``bridgescore.__version__`` reads it from the installed package's metadata."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import bridgescore

ROOT = Path(__file__).resolve().parent.parent
VERSION = str(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"])


def test_the_version_is_the_projects() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+", VERSION)
    assert bridgescore.__version__ == metadata.version("bridgescore") == VERSION


def test_no_source_file_writes_the_version() -> None:
    # Not in __init__.py, nor a writer's generator tag, nor a web page: each reads
    # bridgescore.__version__. (The dotted number may appear unquoted, in prose.)
    quoted = re.compile(rf"""["']{re.escape(VERSION)}["']""")
    written = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "src").rglob("*"))
        if path.is_file()
        and path.suffix in {".py", ".html", ".js", ".css", ".json"}
        and quoted.search(path.read_text(encoding="utf-8"))
    ]
    assert written == []


def test_the_metadata_is_read_on_first_use_only() -> None:
    # importlib.metadata costs more to import than bridgescore itself: a program that
    # never asks for the version never pays for it.
    code = (
        "import sys, bridgescore\n"
        "before = 'importlib.metadata' in sys.modules\n"
        "print(before, bridgescore.__version__, 'importlib.metadata' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout == f"False {VERSION} True\n"


def test_the_changelog_names_this_version() -> None:
    # Keep a Changelog: an Unreleased section on top, then each release with its date,
    # newest first, and a link for each at the foot.
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", text, re.M)
    assert releases[0] == ("Unreleased", "")
    assert releases[1][0] == VERSION and releases[1][1]
    for name, _ in releases:
        assert re.search(rf"^\[{re.escape(name)}\]: https://", text, re.M), name


def test_the_licence_is_the_mit_text() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) 2026 The bridgescore developers\n")
    assert "Permission is hereby granted, free of charge, to any person obtaining a copy" in text
    assert text.rstrip().endswith("OTHER DEALINGS IN THE\nSOFTWARE.")
