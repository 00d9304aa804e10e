"""PDF from HTML through headless Chromium (Debian's ``chromium``).

Chromium prints exactly what the browser shows, honours the page's ``@page``
size and ``break-inside: avoid``, and is already what the project's browser
tests run; a Python PDF library (WeasyPrint) would add Pango and its system
libraries for output that is no better. See docs/boards.md.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from bridgescore.errors import PdfUnavailableError

__all__ = ["CHROMIUM", "PdfUnavailableError", "chromium_path", "html_to_pdf"]

CHROMIUM = Path("/usr/bin/chromium")
_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-pdf-header-footer",
)
# Chromium needs seconds to start on a loaded machine; this only bounds a hung browser.
_LIMIT_SECONDS = 300


def chromium_path() -> Path | None:
    """Debian's chromium, else one on PATH (``BRIDGESCORE_CHROMIUM`` overrides)."""
    chosen = os.environ.get("BRIDGESCORE_CHROMIUM")
    if chosen:
        return Path(chosen) if Path(chosen).exists() else None
    if CHROMIUM.exists():
        return CHROMIUM
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    return Path(found) if found else None


def html_to_pdf(html: str, out: Path) -> None:
    """Print ``html`` (a whole document) to the PDF file ``out``.

    Raises :class:`PdfUnavailableError` when no chromium is installed or it fails.
    """
    browser = chromium_path()
    if browser is None:
        raise PdfUnavailableError(
            "PDF needs headless Chromium (Debian: apt-get install chromium); "
            "write HTML instead (--out records.html) and print it from a browser"
        )
    out = Path(out).resolve()
    with tempfile.TemporaryDirectory(prefix="bridgescore-pdf-") as work:
        page = Path(work) / "records.html"
        page.write_text(html, encoding="utf-8")
        command = [
            str(browser),
            *_ARGS,
            f"--user-data-dir={Path(work) / 'profile'}",
            f"--print-to-pdf={out}",
            page.as_uri(),
        ]
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=_LIMIT_SECONDS, check=False
            )
        except subprocess.TimeoutExpired:
            raise PdfUnavailableError(f"chromium did not finish in {_LIMIT_SECONDS} s") from None
        if done.returncode != 0 or not out.exists() or out.stat().st_size == 0:
            detail = (done.stderr or "").strip().splitlines()[-1:] or ["no output"]
            raise PdfUnavailableError(f"chromium could not print the PDF: {detail[0]}")
