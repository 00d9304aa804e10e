"""The web page and JSON API, served by ``bridgescore serve``.

>>> from bridgescore.web import create_app
>>> create_app().title
'bridgescore'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bridgescore.web.app import WebSettings, create_app

__all__ = ["WebSettings", "create_app"]


def __getattr__(name: str) -> Any:
    # The app (FastAPI and every route) loads when it is asked for, not with the package:
    # the solver's worker processes import bridgescore.web.jobs, and nothing of the app.
    if name in __all__:
        from bridgescore.web import app

        return getattr(app, name)
    raise AttributeError(f"module 'bridgescore.web' has no attribute {name!r}")
