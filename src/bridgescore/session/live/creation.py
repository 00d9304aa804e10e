"""Making a live event: the event file from a movement, one secret token per table
and a director password (both shown once, stored hashed: see
:mod:`~bridgescore.session.store.access`), and the links the tables' phones open."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bridgescore.errors import MovementError, RecordError
from bridgescore.movement.model import Movement
from bridgescore.session.live.sections import sections_of
from bridgescore.session.store.access import PasswordHash, new_password, new_token, token_digest
from bridgescore.session.store.live import LiveStore
from bridgescore.session.store.newfile import check_new_file, new_file
from bridgescore.validate import quoted

__all__ = [
    "DEFAULT_URL_BASE",
    "NewEvent",
    "TableAccess",
    "check_url_base",
    "create_event",
    "table_url",
]

DEFAULT_URL_BASE = "http://127.0.0.1:8000"


@dataclass(frozen=True, slots=True)
class TableAccess:
    """One table's secret: its section and number, its token and the link to its page."""

    section: str
    table: int
    token: str
    url: str


@dataclass(frozen=True, slots=True)
class NewEvent:
    """What :func:`create_event` made: the event file, the director password (shown
    once: only its hash is kept) and each table's access."""

    event: str
    director_password: str
    tables: tuple[TableAccess, ...]

    def as_dict(self) -> dict[str, Any]:
        """The ``session new --json`` document."""
        return {
            "event": self.event,
            "director_password": self.director_password,
            "tables": [
                {"section": t.section, "table": t.table, "token": t.token, "url": t.url}
                for t in self.tables
            ],
        }


def table_url(url_base: str, token: str) -> str:
    """The link a table's phone opens: ``{url_base}/table?token=...``.

    >>> table_url("https://club.example/", "abc")
    'https://club.example/table?token=abc'
    """
    return f"{url_base.rstrip('/')}/table?token={token}"


def check_url_base(url_base: object) -> None:
    """Refuse a URL base the tables' phones could not open (a :class:`RecordError`)."""
    if not isinstance(url_base, str) or not re.fullmatch(r"https?://[^\s?#]+", url_base):
        raise RecordError(
            f"URL base {quoted(url_base)} is not a web address: expected http://host:port "
            "or https://host (where the tables' phones reach the live server)"
        )


def create_event(
    path: str | Path,
    movement: Movement,
    *,
    name: str | None = None,
    url_base: str = DEFAULT_URL_BASE,
    swiss_plan: str | None = None,
    sections: int = 1,
    score_across: bool | None = None,
    method: str | None = None,
) -> NewEvent:
    """Make a new event file at ``path`` from ``movement``, with a token for each table
    that plays and a director password.

    The file appears whole or not at all (it is written under a temporary name and
    linked into place), and an existing file is never overwritten: a
    :class:`~bridgescore.errors.RecordError` names it. A teams movement makes a
    teams event; ``swiss_plan`` (:class:`~bridgescore.session.scoring.swiss.SwissPlan`'s
    JSON) makes it a Swiss, drawn round by round (:mod:`~bridgescore.session.live.swiss`).
    ``sections`` (1 to 26) makes that many sections, A, B, ..., of the same movement on
    the same boards, each table of each its own token
    (:func:`~bridgescore.session.live.sections.sections_of`); ``score_across`` keeps how
    they are compared: across the field, or (``False``, the default for several
    sections) within each section. ``method`` is the scoring method the event is
    scored by when none is asked for (a Swiss pairs: ``butler-vp``).
    """
    if not isinstance(movement, Movement):
        raise MovementError(f"expected a Movement, got {type(movement).__name__}")
    check_url_base(url_base)
    target = Path(path)
    made_once = (
        "an event is made once (choose another file, or remove this one if it is no longer wanted)"
    )
    check_new_file(target, made_once)
    movements = sections_of(movement, sections)
    tables = sorted({row.table for row in movement.rows})
    tokens = {(name, table): new_token() for name in movements for table in tables}
    password = new_password()
    with new_file(target, made_once) as temporary, LiveStore(temporary, mode="create") as store:
        store.set_movements(movements)
        store.set_info(name=name or target.stem, method=method)
        store.set_url_base(url_base)
        if swiss_plan is not None:
            store.set_swiss_plan(swiss_plan)
        if score_across is not None or sections > 1:
            # Several sections are compared within each unless the event says across.
            store.set_sections_across(bool(score_across))
        for section in movements:
            store.set_table_tokens(
                section,
                {t: token_digest(token) for (s, t), token in tokens.items() if s == section},
            )
        store.set_director_password(PasswordHash.make(password))
    access = tuple(
        TableAccess(section, table, token, table_url(url_base, token))
        for (section, table), token in tokens.items()
    )
    return NewEvent(str(path), password, access)
