"""The package as a user gets it (issue 44, item 6): ``python -m build`` makes the sdist
and, from it, the wheel (as ``make dist`` does); the wheel is installed into a fresh venv,
where ``bridgescore demo``, a scored result and the README's examples run against the
installed copy, never against src/.

The fresh venv has no access to the system's site-packages. The wheel is installed into
it alone (``--no-deps``); the packages it depends on are then found through a ``.pth`` file
naming this interpreter's site-packages, so that the test needs no download and no minutes
of installing numpy. A path from a ``.pth`` file is added after the venv's own
site-packages and its own ``.pth`` files are not read, so the editable install of the
checkout that lives there (a ``.pth`` naming src/) stays out of the fresh venv: the test
asserts that every bridgescore module it loads comes from the venv.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
VERSION = str(PROJECT["version"])
NAME = f"bridgescore-{VERSION}"

pytestmark = pytest.mark.slow  # about 40 s of CPU, most of it the demo's par study


@dataclass(frozen=True)
class Installed:
    wheel: Path
    sdist: Path
    venv: Path
    python: Path
    command: Path
    environment: dict[str, str]
    work: Path

    def run(self, *arguments: str | Path) -> subprocess.CompletedProcess[str]:
        """A program of the venv, run as a user's shell runs it (no PYTHONPATH)."""
        return subprocess.run(
            [str(argument) for argument in arguments],
            capture_output=True,
            text=True,
            env=self.environment,
            cwd=self.work,
            timeout=600,
            check=False,
        )


def _source_files() -> set[str]:
    """The package's files in src/, as the wheel must hold them (no caches)."""
    package = ROOT / "src"
    return {
        path.relative_to(package).as_posix()
        for path in (package / "bridgescore").rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }


def _site_packages(venv: Path) -> Path:
    found = sysconfig.get_path("purelib", vars={"base": str(venv), "platbase": str(venv)})
    return Path(found)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    if importlib.util.find_spec("build") is None:
        pytest.fail("python -m build is missing: it is in the dev extra, which make installs")
    work = tmp_path_factory.mktemp("wheel")
    dist = work / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    wheel = dist / f"{NAME}-py3-none-any.whl"
    sdist = dist / f"{NAME}.tar.gz"
    assert sorted(path.name for path in dist.iterdir()) == sorted([wheel.name, sdist.name])

    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    # This interpreter's pip installs into the venv's interpreter: the venv needs no pip.
    install = ["install", "--quiet", "--no-deps", "--no-index", str(wheel)]
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), *install],
        check=True,
        capture_output=True,
    )
    # Only after the install: pip must find no bridgescore in the venv beforehand.
    dependencies = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    site = _site_packages(venv)
    assert site.is_dir()
    (site / "_dependencies.pth").write_text("\n".join(sorted(dependencies)) + "\n")

    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in {"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONSAFEPATH"}
    }
    environment |= {"PYTHONNOUSERSITE": "1", "COLUMNS": "80", "VIRTUAL_ENV": str(venv)}
    environment["PATH"] = f"{venv / 'bin'}{os.pathsep}{environment.get('PATH', '')}"
    home = work / "home"
    home.mkdir()
    return Installed(wheel, sdist, venv, python, venv / "bin" / "bridgescore", environment, home)


# -- what the two archives hold --------------------------------------------------------


def test_the_wheel_holds_the_package_and_its_data(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
        metadata = wheel.read(f"{NAME}.dist-info/METADATA").decode()
        entry_points = wheel.read(f"{NAME}.dist-info/entry_points.txt").decode()
        licence = wheel.read(f"{NAME}.dist-info/licenses/LICENSE").decode()
    package = {name for name in names if not name.startswith(f"{NAME}.dist-info/")}
    # Every file of src/bridgescore, no other: the web's templates and static files, the
    # published study (data/*.json) and py.typed included.
    assert package == _source_files()
    assert {"bridgescore/py.typed", "bridgescore/data/pavlicek_par_stats.json"} <= package
    assert "bridgescore/web/templates/base.html" in package
    assert "bridgescore/web/static/style.css" in package
    assert "[console_scripts]\nbridgescore = bridgescore.cli:main" in entry_points
    assert licence == (ROOT / "LICENSE").read_text(encoding="utf-8")
    fields = [line for line in metadata.splitlines() if ": " in line]
    assert f"Version: {VERSION}" in fields
    assert "License-Expression: MIT" in fields
    for label, url in PROJECT["urls"].items():
        assert f"Project-URL: {label}, {url}" in fields


def test_the_sdist_holds_what_a_user_needs_and_no_build_output(installed: Installed) -> None:
    with tarfile.open(installed.sdist) as sdist:
        names = {name.removeprefix(f"{NAME}/") for name in sdist.getnames()}
    for needed in ("pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md", "Makefile"):
        assert needed in names
    assert {name for name in names if name.startswith("bridgescore/")} == set()
    assert {name for name in names if name.startswith("src/")} == {
        f"src/{name}" for name in _source_files()
    }
    assert "tests/test_wheel.py" in names and "docs/architecture.md" in names
    unwanted = (".venv/", ".git/", "dist/", "build/", "__pycache__", ".pyc", ".mypy_cache")
    assert [name for name in names if any(part in name for part in unwanted)] == []


# -- the installed copy ----------------------------------------------------------------

# Run in the venv: every bridgescore module loaded, and the distribution's metadata, are
# the venv's own; then what the script was given to run.
FROM_THE_VENV = """
import importlib.metadata, sys
from pathlib import Path

prefix = Path(sys.prefix).resolve()
def inside(path):
    return Path(path).resolve().is_relative_to(prefix)

def check():
    loaded = [m for name, m in list(sys.modules.items()) if name.split(".")[0] == "bridgescore"]
    elsewhere = [m.__name__ for m in loaded if not inside(m.__file__)]
    assert loaded and not elsewhere, f"loaded from outside the venv: {elsewhere}"
    assert inside(importlib.metadata.distribution("bridgescore").locate_file(""))
"""


def test_the_package_is_imported_from_the_venv(installed: Installed) -> None:
    script = FROM_THE_VENV + (
        "import bridgescore\n"
        "check()\n"
        "assert sys.prefix != sys.base_prefix\n"
        "print(bridgescore.__file__)\n"
        "print(bridgescore.__version__)\n"
    )
    done = installed.run(installed.python, "-c", script)
    assert done.returncode == 0, done.stderr
    location, version = done.stdout.splitlines()
    assert Path(location) == _site_packages(installed.venv) / "bridgescore" / "__init__.py"
    assert version == VERSION
    assert not Path(location).is_relative_to(ROOT)


def test_the_installed_command_scores_a_result(installed: Installed) -> None:
    done = installed.run(installed.command, "score", "4DX +1", "--vul")
    assert done.returncode == 0, done.stderr
    # Law 77, 4D doubled and made with an overtrick, vulnerable: 4 x 20 doubled = 160
    # trick score, 200 for the doubled overtrick, 500 for a vulnerable game, 50 for the
    # insult: 910.
    assert done.stdout == (
        "4DX+1 vulnerable: +910\n"
        "  trick score                160\n"
        "  overtricks                 200\n"
        "  game premium               500\n"
        "  doubled/redoubled made      50\n"
        "  total                      910\n"
    )
    version = installed.run(installed.command, "--version")
    assert (version.returncode, version.stdout) == (0, f"bridgescore {VERSION}\n")


def test_python_m_bridgescore_is_the_same_command(installed: Installed) -> None:
    # For a Python whose scripts directory is not on the PATH.
    module = installed.run(installed.python, "-m", "bridgescore", "score", "3NT-2", "--vul")
    command = installed.run(installed.command, "score", "3NT-2", "--vul")
    assert (module.returncode, module.stdout) == (command.returncode, command.stdout)
    # Law 77: two undoubled undertricks, vulnerable, 100 each.
    assert module.stdout.splitlines()[0] == "3NT-2 vulnerable: -200"
    usage = installed.run(installed.python, "-m", "bridgescore", "--help")
    assert usage.returncode == 0
    assert "Usage: python -m bridgescore" in usage.stdout


def test_the_installed_demo_runs(installed: Installed) -> None:
    out = installed.work / "demo"
    done = installed.run(installed.command, "demo", "--out", out)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"Files of the demo go to {out}"
    assert lines[-1] == f"The demo's files are in {out}"
    assert "4♦X+1 vulnerable: +910" in lines  # the first example, as scored above
    assert "(skipped:" not in done.stdout  # DDS and the par study ran
    for made in ("night.pbn", "night.commit", "records.html", "cards.html"):
        assert (out / made).stat().st_size > 0, made
    assert (out / "results" / "index.html").is_file()


def test_the_readmes_examples_run_against_the_installed_copy(installed: Installed) -> None:
    # The suite's own README doctests (tests/test_readme.py), the package imported from
    # the venv: the test module comes from tests/, bridgescore from the wheel.
    script = FROM_THE_VENV + (
        f"sys.path.insert(0, {str(ROOT / 'tests')!r})\n"
        "import test_readme\n"
        "test_readme.test_python_examples()\n"
        "check()\n"
        "print(len(test_readme.blocks('pycon')), 'README sessions passed')\n"
    )
    done = installed.run(installed.python, "-c", script)
    assert done.returncode == 0, done.stdout + done.stderr
    sessions = done.stdout.splitlines()[-1]
    assert sessions.endswith(" README sessions passed") and int(sessions.split()[0]) >= 5
