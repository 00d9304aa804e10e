"""The web page and JSON API, served by ``bridgescore serve``.

>>> from bridgescore.web import create_app
>>> create_app().title
'bridgescore'
"""

from __future__ import annotations

from bridgescore.web.app import WebSettings, create_app

__all__ = ["WebSettings", "create_app"]
