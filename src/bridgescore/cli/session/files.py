"""The files ``bridgescore session`` writes and attaches: the report's HTML page, site
and PDF, the hand records ``session new --boards`` imports, the USEBIO export's extras.

Helpers of the commands in :mod:`bridgescore.cli.session`; each checks or writes one
thing and exits through
:func:`~bridgescore.cli.common.fail` with a message naming the path.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

import typer

from bridgescore.cli.common import fail
from bridgescore.cli.outputs import OutputPathError, check_output_directory, check_output_path
from bridgescore.errors import BridgeError

__all__ = [
    "attach_boards",
    "check_html_target",
    "check_pdf_target",
    "export_extras",
    "read_hand_records",
    "write_page",
    "write_pdf",
    "write_site",
]

_PAGE_SUFFIXES = (".html", ".htm")


def check_html_target(given: str) -> Literal["site", "page"]:
    """What ``--html PATH`` writes: a site into a folder, or one page into a ``.html``
    file; anything else is refused now (exit 2), naming the path.

    An existing folder, a name ending in ``/`` or a new name without a suffix is the
    site's folder; a name ending ``.html`` (or ``.htm``) is the page. An existing file
    that is not a page and a name with another suffix (``out.pdf``, ``ranking.txt``) are
    refused: a site made in a folder named ``out.pdf`` is never what was meant.
    """
    path = Path(given)
    shown = f"--html {str(path)!r}"
    suffix = path.suffix.lower()
    if path.is_dir() or given.endswith(("/", os.sep)):
        target: Literal["site", "page"] = "site"
    elif suffix in _PAGE_SUFFIXES:
        target = "page"
    elif suffix == ".pdf":
        raise fail(
            OutputPathError(
                f"{shown} names a PDF: print the report with --pdf {str(path)!r}; --html "
                "takes a folder (the results site) or a .html file (one page)"
            ),
            code=2,
        )
    elif path.exists() or suffix:
        what = "is an existing file" if path.exists() else f"ends in {suffix!r}"
        raise fail(
            OutputPathError(
                f"{shown} {what}: expected a folder for the results site (an existing one, "
                "or a new name without a suffix) or a .html file for one page (--pdf for paper)"
            ),
            code=2,
        )
    else:
        target = "site"
    if target == "site":
        check_output_directory(path, "--html")
    else:
        check_output_path(path, "--html")
    return target


def check_pdf_target(path: Path) -> None:
    """``--pdf PATH``: a file to print to; a page's name (``.html``) is refused now."""
    if path.suffix.lower() in _PAGE_SUFFIXES:
        raise fail(
            OutputPathError(
                f"--pdf {str(path)!r} names an HTML page: expected a .pdf file "
                f"(write the page with --html {str(path)!r})"
            ),
            code=2,
        )
    check_output_path(path, "--pdf")


def _boards_of(event: Path) -> Any:
    """The event's boards, with the DD tables solved while scoring."""
    from bridgescore.session.store.events import EventStore

    try:
        with EventStore(event, mode="read") as store:
            return store.load().boards
    except BridgeError as error:
        raise fail(error) from None


def _boards_and_leads(event: Path, scored: Any) -> tuple[Any, Any]:
    """The event's boards (with the DD tables solved while scoring) and the field's
    opening leads, each with its double-dummy cost (solved here)."""
    from bridgescore.session.leads import field_leads
    from bridgescore.session.store.events import EventStore

    try:
        with EventStore(event, mode="read") as store:
            boards = store.load().boards
            leads = store.leads()
        return boards, field_leads(scored.travellers, leads, boards)
    except BridgeError as error:
        raise fail(error) from None


def write_site(event: Path, scored: Any, directory: Path) -> None:
    """The results site of ``scored`` into ``directory``."""
    from bridgescore.session.reports.site import results_site
    from bridgescore.session.reports.site import write_site as write_pages

    boards, leads = _boards_and_leads(event, scored)
    try:
        write_pages(results_site(scored, boards, leads), directory)
    except OSError as error:
        raise fail(f"cannot write the site into {str(directory)!r}: {error.strerror}", 2) from None


def write_page(event: Path, scored: Any, out: Path) -> None:
    """The report as one HTML page (with the event's hand records) to ``out``."""
    from bridgescore.session.reports.html import html_report

    try:
        out.write_text(html_report(scored, _boards_of(event)), encoding="utf-8")
    except OSError as error:
        raise fail(f"cannot write {str(out)!r}: {error.strerror}", 2) from None


def write_pdf(event: Path, scored: Any, out: Path) -> None:
    """The printed report of ``scored`` (with the event's hand records) to ``out``."""
    from bridgescore.boardset.pdf import chromium_path
    from bridgescore.session.reports.paper import write_pdf_report

    if chromium_path() is None:
        raise fail(
            f"cannot print {str(out)!r}: PDF needs headless Chromium (Debian: apt-get install "
            f"chromium); write the page with --html {out.with_suffix('.html').name!r} and "
            "print it from a browser",
            2,
        )
    try:
        write_pdf_report(scored, out, _boards_of(event))
    except BridgeError as error:  # PdfUnavailableError: Chromium failed
        raise fail(f"cannot print {str(out)!r}: {error}", 2) from None


def read_hand_records(source: str, data: bytes) -> Any:
    """The hand records of ``session new --boards FILE`` (PBN, JSON or LIN deals), read
    as ``session import`` reads them, before the event is made: a file that cannot be
    read, holds results or no deal at all is refused now (exit 2) and nothing is made."""
    from bridgescore.formats import check_input, decode_text, read_text
    from bridgescore.session.importers.records import parse_records

    try:
        check_input(data, source)
        parsed = parse_records(read_text(decode_text(data), None, source), source)
    except BridgeError as error:
        raise fail(f"--boards {source!r}: {error}", 2) from None
    if parsed.problems:
        for problem in parsed.problems:
            typer.echo(f"error: {problem}", err=True)
        raise fail(f"--boards {source!r}: {len(parsed.problems)} bad record(s); nothing made", 2)
    if parsed.results:
        raise fail(
            f"--boards {source!r} holds {len(parsed.results)} result(s): expected hand records "
            "alone (deals); a live event's results come from its tables",
            2,
        )
    if not parsed.boards:
        raise fail(f"--boards {source!r} holds no deal: expected hand records (PBN deals)", 2)
    return parsed


def attach_boards(event: Path, parsed: Any) -> int:
    """Add the hand records :func:`read_hand_records` read to the new event; how many."""
    from bridgescore.session.store.events import EventStore

    try:
        with EventStore(event, mode="write") as store:
            return int(store.add_boards(parsed.boards).added)
    except BridgeError as error:
        raise fail(
            f"the event is made and its links are shown above, but its hand records could "
            f"not be attached: {error} (attach them with 'bridgescore session import')"
        ) from None


def export_extras(event: Path) -> tuple[str, dict[tuple[str, int, str, str], str]]:
    """The club's name and the opening leads a live session kept, for the USEBIO export."""
    from bridgescore.session.store.live import LiveStore

    try:
        with LiveStore(event, mode="read") as store:
            return store.club, store.leads()
    except BridgeError as error:
        raise fail(error) from None
