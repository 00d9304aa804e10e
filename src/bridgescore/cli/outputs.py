"""Output paths checked before the work starts, for every command that writes files.

A simulation or a par report can take minutes; a typo in ``--plot`` must not
cost them. Each command that writes a file calls :func:`check_output_path` (or
:func:`check_output_directory` for a folder it fills, :func:`check_plot_path`
for a matplotlib plot) on its arguments first, so a folder that does not
exist, a file name that is a folder or a place it may not write is an error
message (exit code 2) before anything is computed. Writability is tried for
real (a file opened for appending, an unnamed temporary file made) rather
than read from permission bits, which say nothing on a read-only file system
or for root.
"""

from __future__ import annotations

import contextlib
import errno
import importlib.util
import os
import tempfile
from pathlib import Path

from bridgescore.cli.common import fail
from bridgescore.errors import OutputPathError

__all__ = [
    "PLOT_SUFFIXES",
    "OutputPathError",
    "check_output_directory",
    "check_output_path",
    "check_plot_path",
    "output_directory_problem",
    "output_path_problem",
]

PLOT_SUFFIXES = (".png", ".svg", ".pdf")
"""The plot formats the commands draw (matplotlib's Agg backend, told by the suffix)."""


def _try_to_write_in(folder: Path) -> str | None:
    """None if a file can be made in ``folder``, else the system's reason."""
    # An unnamed file (Linux's O_TMPFILE) never shows in the folder, so a study being
    # read at the same moment never meets a stray name; elsewhere a named one, removed.
    unnamed = getattr(os, "O_TMPFILE", 0)
    if unnamed:
        try:
            os.close(os.open(folder, unnamed | os.O_WRONLY, 0o600))
            return None
        except OSError as error:
            if error.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):
                return error.strerror or str(error)
    try:
        handle, name = tempfile.mkstemp(prefix=".bridgescore-check-", dir=folder)
    except OSError as error:
        return error.strerror or str(error)
    os.close(handle)
    with contextlib.suppress(OSError):
        os.unlink(name)
    return None


def output_path_problem(path: str | Path, option: str) -> OutputPathError | None:
    """What stops a file being written at ``path`` (None: nothing).

    ``option`` names the argument in the message, such as ``--plot``. An existing
    file is opened for appending (its contents untouched); a new file's folder
    must exist and take a new file.

    >>> str(output_path_problem("/no/such/folder/x.png", "--plot"))
    "--plot '/no/such/folder/x.png': the folder '/no/such/folder' does not exist"
    """
    target = Path(path)
    shown = f"{option} {str(path)!r}"
    if target.is_dir():
        return OutputPathError(f"{shown} is a folder: expected a file name")
    parent = target.parent
    if not parent.exists():
        return OutputPathError(f"{shown}: the folder {str(parent)!r} does not exist")
    if not parent.is_dir():
        return OutputPathError(f"{shown}: {str(parent)!r} is a file, not a folder")
    if target.exists():
        try:
            os.close(os.open(target, os.O_WRONLY | os.O_APPEND))
        except OSError as error:
            return OutputPathError(f"{shown} cannot be written: {error.strerror}")
        return None
    reason = _try_to_write_in(parent)
    if reason is not None:
        return OutputPathError(f"{shown}: cannot write in the folder {str(parent)!r}: {reason}")
    return None


def output_directory_problem(path: str | Path, option: str) -> OutputPathError | None:
    """What stops files being written into the folder ``path`` (None: nothing).

    The folder may not exist yet (the command makes it, with its parents): then
    its nearest existing ancestor must be a folder that takes a new file.
    """
    target = Path(path)
    shown = f"{option} {str(path)!r}"
    if target.exists() and not target.is_dir():
        return OutputPathError(f"{shown} is a file: expected a folder")
    existing = target
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        return OutputPathError(f"{shown}: {str(existing)!r} is a file, not a folder")
    reason = _try_to_write_in(existing)
    if reason is not None:
        return OutputPathError(f"{shown}: cannot write in the folder {str(existing)!r}: {reason}")
    return None


def check_output_path(path: str | Path, option: str) -> None:
    """Exit 2 with a clear message now if a file cannot be written at ``path``."""
    problem = output_path_problem(path, option)
    if problem is not None:
        raise fail(problem, code=2)


def check_output_directory(path: str | Path, option: str) -> None:
    """Exit 2 with a clear message now if files cannot be written into folder ``path``."""
    problem = output_directory_problem(path, option)
    if problem is not None:
        raise fail(problem, code=2)


def check_plot_path(path: str | Path, option: str = "--plot") -> None:
    """As :func:`check_output_path`, and the suffix is a plot format and matplotlib is there."""
    check_output_path(path, option)
    suffix = Path(path).suffix.lower()
    if suffix not in PLOT_SUFFIXES:
        raise fail(
            f"{option} {str(path)!r}: expected a file name ending in "
            f"{', '.join(PLOT_SUFFIXES[:-1])} or {PLOT_SUFFIXES[-1]}",
            code=2,
        )
    if importlib.util.find_spec("matplotlib") is None:
        raise fail(f"{option} needs matplotlib: pip install 'bridgescore[study]'", code=2)
