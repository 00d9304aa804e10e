"""What the live server guards: tokens and passwords kept out of the access log.

Its security headers come from the one middleware both servers use,
:class:`bridgescore.web.guards.SecurityHeaders`, with
:data:`~bridgescore.web.guards.LIVE_SECURITY_HEADERS`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from urllib.parse import unquote_plus

__all__ = ["RedactSecrets", "guard_access_log", "redact"]

_QUERY = re.compile(r"\?([^#\s\"]*)")
_SECRET_NAME = re.compile(r"(?i)token|password")
_BEARER = re.compile(r"(?i)(bearer\s+)[^\s\"',]+")


def _decoded(text: str) -> str:
    # Decoded as often as it changes (a few times at most): the name a server reads
    # after one decoding, and whatever a second decoding would make of it, are both seen.
    for _ in range(4):
        plain = unquote_plus(text, errors="replace")
        if plain == text:
            break
        text = plain
    return text


def _redact_query(found: re.Match[str]) -> str:
    fields = []
    for field in found[1].split("&"):
        name, equals, value = field.partition("=")
        # The decoded name decides (``%74oken`` is ``token`` to the server), and a value
        # that itself holds a token or password (``x=1%26token%3D...``) goes too.
        if not equals and _SECRET_NAME.search(_decoded(name)):
            fields.append("[redacted]")  # ``%74oken%3Ds3cr3t``: the secret is in the name
            continue
        if equals and (_SECRET_NAME.search(_decoded(name)) or _SECRET_NAME.search(_decoded(value))):
            value = "[redacted]"
        fields.append(name + equals + value)
    return "?" + "&".join(fields)


def redact(text: str) -> str:
    """``text`` with the values of token and password query parameters (and bearer
    credentials) replaced by ``[redacted]``, however the name is spelt: a parameter
    whose name, percent-decoded, holds ``token`` or ``password`` (any case) is one.

    >>> redact('GET /table?token=abc123&round=2 HTTP/1.1')
    'GET /table?token=[redacted]&round=2 HTTP/1.1'
    >>> redact('GET /table?%74oken=abc123 HTTP/1.1')
    'GET /table?%74oken=[redacted] HTTP/1.1'
    """
    return _BEARER.sub(r"\1[redacted]", _QUERY.sub(_redact_query, text))


class RedactSecrets(logging.Filter):
    """A logging filter that redacts tokens and passwords from a record's message.

    uvicorn's access log prints each request's path with its query string, and a
    table's link carries its token there; this filter, on the ``uvicorn.access``
    logger (and on the handlers ``session live`` configures), keeps it out of logs.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, Mapping):
            record.args = {
                k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()
            }
        return True


def guard_access_log() -> None:
    # Whoever runs the app (our CLI, or uvicorn's own command), its access log is filtered.
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactSecrets) for f in access.filters):
        access.addFilter(RedactSecrets())
